//! Threat-space defence at the root.
//!
//! The main search sees the opponent's continuous-four attacks only where its VCF
//! quiescence runs, and its threat sequences with open threes (VCT) not at all beyond its
//! nominal depth. So before searching, the root asks: if we passed, would the opponent win by
//! threats? If so, every candidate move is played and the opponent's solver re-run after it;
//! the moves after which the opponent still wins are dropped (unless every move loses).

use std::time::Instant;

use super::board::Board;
use super::vcf::{Budget, Vcf};
use super::vct::Vct;
use crate::ai::CancelFlag;

/// The opponent's winning threat found at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threat {
    /// A win by continuous fours.
    Vcf,
    /// A win by threats (fours and open threes) within this many plies.
    Vct(i32),
}

/// Limits of the defence step.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Plies of the opponent's VCF.
    pub vcf_depth: i32,
    /// Deepest opponent's VCT tried (odd depths from 5 up).
    pub vct_depth: i32,
    /// Nodes of the opponent's VCF/VCT search that detects the threat.
    pub detect_nodes: u64,
    /// Nodes of each verification after a candidate move.
    pub verify_nodes: u64,
    /// Nodes of the whole step, detection and verifications (`u64::MAX`: no cap): a search
    /// with a node budget gives the step a share of it.
    pub total_nodes: u64,
    /// Stop looking for the opponent's threat after this instant.
    pub detect_deadline: Option<Instant>,
    /// Stop verifying after this instant.
    pub deadline: Option<Instant>,
    pub cancel: Option<CancelFlag>,
}

impl Limits {
    fn budget(&self, nodes: u64) -> Budget {
        let mut b = Budget::new(nodes);
        b.deadline = self.deadline;
        b.cancel = self.cancel.clone();
        b
    }
}

/// What a threat solver run said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins by this threat.
    Wins(Threat),
    /// No win within the limits (the solvers ran to the end).
    NoWin,
    /// The budget or the clock ran out first.
    Unknown,
}

/// Whether the opponent of the side to move would win by threats if the side to move
/// passed.
pub fn opponent_threat(
    board: &mut Board,
    vcf: &mut Vcf,
    vct: &mut Vct,
    limits: &Limits,
    nodes: &mut u64,
) -> Option<Threat> {
    board.pass();
    let detect = Limits { deadline: limits.detect_deadline, ..limits.clone() };
    let budget = limits.detect_nodes.min(limits.total_nodes.saturating_sub(*nodes));
    let verdict = threat_of_side_to_move(board, vcf, vct, &detect, budget, nodes);
    board.pass();
    match verdict {
        Verdict::Wins(t) => Some(t),
        _ => None,
    }
}

/// Whether the side to move wins by VCF, or by VCT within the limits' depth (tried at odd
/// depths from 5 up), within `node_limit` nodes in all.
pub fn threat_of_side_to_move(
    board: &mut Board,
    vcf: &mut Vcf,
    vct: &mut Vct,
    limits: &Limits,
    node_limit: u64,
    nodes: &mut u64,
) -> Verdict {
    let mut budget = limits.budget(node_limit);
    let win = vcf.solve(board, limits.vcf_depth, &mut budget);
    *nodes += budget.nodes;
    if win {
        return Verdict::Wins(Threat::Vcf);
    }
    if budget.aborted {
        return Verdict::Unknown;
    }
    let mut left = node_limit.saturating_sub(budget.nodes);
    let mut depth = 5;
    while depth <= limits.vct_depth {
        let mut budget = limits.budget(left);
        let found = vct.solve(board, depth, &mut budget);
        *nodes += budget.nodes;
        left = left.saturating_sub(budget.nodes);
        if found.is_some() {
            return Verdict::Wins(Threat::Vct(depth));
        }
        if budget.aborted || left == 0 {
            return Verdict::Unknown;
        }
        depth += 2;
    }
    Verdict::NoWin
}

/// The side to move faces a threat: narrows `moves` to those after which the opponent's
/// threat solvers find no win. Moves are verified in order (best first) until the deadline
/// or the step's node total (`nodes` counts on from what the detection used).
/// The moves proven to hold are kept if there are any; otherwise the moves not proven to
/// lose (unverified or undecided); when every move is proven to lose, `moves` is left as it
/// was.
pub fn keep_refutations(
    board: &mut Board,
    moves: &mut Vec<(usize, i32)>,
    vcf: &mut Vcf,
    vct: &mut Vct,
    limits: &Limits,
    nodes: &mut u64,
) {
    let mut safe = Vec::with_capacity(moves.len());
    let mut unknown = Vec::with_capacity(moves.len());
    for &(m, s) in moves.iter() {
        let left = limits.total_nodes.saturating_sub(*nodes);
        let out_of_time = limits.deadline.is_some_and(|d| Instant::now() >= d)
            || limits.cancel.as_ref().is_some_and(|c| c.is_cancelled())
            || left == 0;
        if out_of_time {
            unknown.push((m, s));
            continue;
        }
        board.make(m);
        let budget = limits.verify_nodes.min(left);
        let verdict = threat_of_side_to_move(board, vcf, vct, limits, budget, nodes);
        board.unmake();
        match verdict {
            Verdict::NoWin => safe.push((m, s)),
            Verdict::Unknown => unknown.push((m, s)),
            Verdict::Wins(_) => {}
        }
    }
    if !safe.is_empty() {
        *moves = safe;
    } else if !unknown.is_empty() {
        *moves = unknown;
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{board_from, crossing_twos, pad};
    use super::super::movegen;
    use super::*;
    use crate::gomoku::Rule;
    use crate::Point;

    fn limits() -> Limits {
        Limits {
            vcf_depth: 30,
            vct_depth: 9,
            detect_nodes: 100_000,
            verify_nodes: 100_000,
            total_nodes: u64::MAX,
            detect_deadline: None,
            deadline: None,
            cancel: None,
        }
    }

    #[test]
    fn no_threat_on_a_quiet_board() {
        let mut b =
            board_from(&pad(&["", "", "", "", "", "", "......x", ".......o"]), Rule::Freestyle, 0);
        let (mut vcf, mut vct) = (Vcf::new(12), Vct::new(12));
        let t = opponent_threat(&mut b, &mut vcf, &mut vct, &limits(), &mut 0);
        assert_eq!(t, None);
    }

    #[test]
    fn two_crossing_twos_must_be_broken() {
        // White to move. Black's open twos g11-g10 and i8-j8 cross at g8: a black stone
        // there is a double three. With a free move black wins by threats; only some white
        // moves stop it, and every move kept must.
        let mut b = crossing_twos(1);
        let (mut vcf, mut vct) = (Vcf::new(14), Vct::new(14));
        let mut nodes = 0;
        let t = opponent_threat(&mut b, &mut vcf, &mut vct, &limits(), &mut nodes);
        assert!(matches!(t, Some(Threat::Vct(_))), "black threatens to win: {t:?}");
        let mut moves = Vec::new();
        movegen::generate(&mut b, &mut moves);
        let before = moves.len();
        keep_refutations(&mut b, &mut moves, &mut vcf, &mut vct, &limits(), &mut nodes);
        assert!(!moves.is_empty() && moves.len() < before, "{} of {before} kept", moves.len());
        for &(m, _) in &moves {
            b.make(m);
            let v = threat_of_side_to_move(&mut b, &mut vcf, &mut vct, &limits(), 100_000, &mut 0);
            b.unmake();
            assert_eq!(v, Verdict::NoWin, "{:?} was kept but loses", b.point(m));
        }
        // The crossing itself is a defence.
        let cross = b.index(Point::new(6, 7));
        assert!(moves.iter().any(|&(m, _)| m == cross));
    }
}

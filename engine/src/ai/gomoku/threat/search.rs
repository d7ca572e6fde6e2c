//! The forcing search: a small AND/OR search over fours and open threes on a
//! [`ThreatBoard`].

use std::time::Instant;

use super::board::ThreatBoard;
use super::table::Threat;
use super::tt::Tt;
use crate::ai::control::{Control, Poll};
use crate::ai::gomoku::common::{DIRECTIONS, EMPTY};
use crate::ai::SearchInfo;
use crate::{Color, Point};

/// Nodes between two looks at the clock in the forcing reading (a power of two): a node
/// costs microseconds, so the reading stops within a fraction of a millisecond of its time.
/// The control of a reading should look at its own clock as often
/// ([`Control::check_every`]); [`Search`]'s earlier stop is looked at at this rate.
pub const CHECK_EVERY: u64 = 64;

/// One forcing search: a board of its own, and the search's bookkeeping.
pub(super) struct Search<'a, 'c> {
    pub(super) board: ThreatBoard,
    /// Proven results of attacker nodes, shared by every reading of one move.
    tt: &'a mut Tt,
    /// The nodes of this search (the control counts those of the whole move).
    pub(super) nodes: u64,
    /// The move's clock, node budget, cancel flag and progress reports.
    control: &'a mut Control<'c>,
    /// An earlier stop than the control's, for a part of the reading.
    until: Option<Instant>,
    pub(super) aborted: bool,
    pub(super) seldepth: u32,
    /// The attacker's first move of the last proven attack.
    pub(super) root_move: Option<Point>,
}

impl<'a, 'c> Search<'a, 'c> {
    /// A search on `board` under `control`, stopping at `until` if that comes first.
    pub(super) fn new(
        board: ThreatBoard,
        tt: &'a mut Tt,
        control: &'a mut Control<'c>,
        until: Option<Instant>,
    ) -> Search<'a, 'c> {
        Search { board, tt, nodes: 0, control, until, aborted: false, seldepth: 0, root_move: None }
    }

    /// Counts a node; whether the search must stop (time, nodes or cancel, as the control
    /// says, or `until`), remembering the answer.
    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        match self.control.poll() {
            Poll::Go => {}
            Poll::Stop => self.aborted = true,
            Poll::Report => {
                let mut info = SearchInfo { seldepth: self.seldepth, ..SearchInfo::default() };
                self.control.stamp(&mut info);
                self.control.send(&info);
            }
        }
        if let Some(until) = self.until {
            // The control looks at its own clock; the earlier stop is looked at as often.
            if self.nodes & (CHECK_EVERY - 1) == 0 && Instant::now() >= until {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The attacker (`a`) to move: can it force a five within `depth` forcing moves (then
    /// up to `vcf` continuous fours)? `pending` is its last forcing move when that threat
    /// still stands (the defender answered it with a four of its own).
    pub(super) fn attacker(
        &mut self,
        a: Color,
        depth: u32,
        vcf: u32,
        ply: u32,
        pending: Option<Point>,
    ) -> bool {
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_budget() {
            return false;
        }
        let d = a.opponent();
        if !self.board.five_points(a).is_empty() {
            return true;
        }
        let threats = self.board.five_points(d);
        if !threats.is_empty() {
            // The defender's counter-four must be blocked first.
            if threats.len() > 1 || !self.board.can_play(threats[0], a) {
                return false;
            }
            let b = threats[0];
            self.board.make(b, a);
            let won = self.defender(a, depth, vcf, ply + 1, pending.unwrap_or(b));
            self.board.unmake(b, a);
            if won && ply == 0 {
                self.root_move = Some(b);
            }
            return won;
        }
        if depth == 0 && vcf == 0 {
            return false;
        }
        // A proven result stands for this position whatever the order of the moves to it;
        // the root is searched afresh for its move, and a pending threat changes the
        // defender's replies, so neither is cached.
        if ply == 0 || pending.is_some() {
            return self.attack_with_moves(a, depth, vcf, ply);
        }
        let key = Tt::key(self.board.hash, a, depth, vcf);
        if let Some(won) = self.tt.get(key) {
            return won;
        }
        let won = self.attack_with_moves(a, depth, vcf, ply);
        if !self.aborted {
            self.tt.put(key, won);
        }
        won
    }

    /// The attacker's forcing moves tried in turn (see [`Search::attacker`]).
    fn attack_with_moves(&mut self, a: Color, depth: u32, vcf: u32, ply: u32) -> bool {
        let fours_only = depth == 0;
        for m in self.board.attack_moves(a, fours_only) {
            self.board.make(m, a);
            let won = if fours_only {
                self.defender(a, 0, vcf - 1, ply + 1, m)
            } else {
                self.defender(a, depth - 1, vcf, ply + 1, m)
            };
            self.board.unmake(m, a);
            if won {
                if ply == 0 {
                    self.root_move = Some(m);
                }
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        false
    }

    /// The defender to move after the attacker `a`'s forcing move `threat`: does every
    /// defence lose?
    fn defender(&mut self, a: Color, depth: u32, vcf: u32, ply: u32, threat: Point) -> bool {
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_budget() {
            return false;
        }
        let d = a.opponent();
        if !self.board.five_points(d).is_empty() {
            return false;
        }
        let fives = self.board.five_points(a);
        if fives.len() > 1 {
            return true;
        }
        if let Some(&b) = fives.first() {
            if !self.board.can_play(b, d) {
                return true;
            }
            self.board.make(b, d);
            let won = self.attacker(a, depth, vcf, ply + 1, None);
            self.board.unmake(b, d);
            return won;
        }
        // No four: the threat must be an open three (a point on one of its lines makes an
        // open four). The defences: the points of those lines where the attacker would make
        // a four, and the defender's own fours.
        let mut open_four = false;
        let mut replies = Vec::new();
        for (di, dir) in DIRECTIONS.into_iter().enumerate() {
            for k in (-5..=5).filter(|&k| k != 0) {
                let (x, y) = (threat.x as i32 + k * dir.0, threat.y as i32 + k * dir.1);
                if self.board.grid.get(x, y) != Some(EMPTY) {
                    continue;
                }
                let p = Point::new(x as u8, y as u8);
                let t = self.board.threat(p, a, di);
                open_four |= t >= Threat::OpenFour;
                if t >= Threat::Four && !replies.contains(&p) {
                    replies.push(p);
                }
            }
        }
        if !open_four {
            return false;
        }
        for p in self.board.near(d, 2) {
            if self.board.threats(p, d).0 >= Threat::Four && !replies.contains(&p) {
                replies.push(p);
            }
        }
        for r in replies {
            if !self.board.can_play(r, d) {
                continue;
            }
            self.board.make(r, d);
            let won = self.attacker(a, depth, vcf, ply + 1, Some(threat));
            self.board.unmake(r, d);
            if !won || self.aborted {
                return false;
            }
        }
        true
    }

    /// Iterative deepening of `attacker` for `a` up to `max_moves` forcing moves; the
    /// attacker's first move and the depth when an attack is proven.
    #[cfg(test)]
    fn find_attack(&mut self, a: Color, max_moves: u32, vcf: u32) -> Option<(Point, u32)> {
        for depth in 1..=max_moves {
            self.root_move = None;
            if self.attacker(a, depth, vcf, 0, None) {
                return self.root_move.map(|m| (m, depth));
            }
            if self.aborted {
                break;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::common::test_util::position;
    use crate::ai::{CancelFlag, Limits};
    use crate::gomoku::Rule;

    /// Continuous fours read after the attack's forcing moves in these tests.
    const VCF: u32 = 6;

    #[test]
    fn the_transposition_table_changes_no_result() {
        // Every position of an arena game (lookahead vs pattern), read for both sides with
        // and without the table: the same answers, in fewer nodes with it.
        let game = "h8 f10 e11 g10 f11 e12 g11 d11 e10 h10 g12 d9 f13 h11 e8 j13 i12 h13 h12 \
                    j12 j14 i11 k13 l12 j10 e9 g9 d10 d12 i13 k11 k14 b9 l11 l13 l10 k12 f8";
        let moves: Vec<&str> = game.split_whitespace().collect();
        let cancel = CancelFlag::new();
        let (mut with, mut without, mut wins) = (0, 0, 0);
        for k in (6..moves.len()).step_by(3) {
            let pos = position(15, Rule::Freestyle, &moves[..k].join(" "));
            for color in [Color::Black, Color::White] {
                let (mut table, mut none) = (Tt::new(), Tt::disabled());
                let mut progress = |_: &SearchInfo| {};
                let mut control = Control::fixed(&Limits::default(), &cancel, &mut progress);
                let mut cached =
                    Search::new(ThreatBoard::new(&pos), &mut table, &mut control, None);
                let a = cached.find_attack(color, 2, VCF);
                let mut progress = |_: &SearchInfo| {};
                let mut control = Control::fixed(&Limits::default(), &cancel, &mut progress);
                let mut plain = Search::new(ThreatBoard::new(&pos), &mut none, &mut control, None);
                let b = plain.find_attack(color, 2, VCF);
                assert_eq!(a.is_some(), b.is_some(), "after {k} moves, {color:?}");
                with += cached.nodes;
                without += plain.nodes;
                wins += usize::from(a.is_some());
            }
        }
        assert!(wins > 0, "the game has forcing wins to find");
        assert!(with < without, "{with} nodes with the table, {without} without");
    }
}

//! VCT: victory by continuous threats (fours and open threes).
//!
//! The attacker plays fours and moves that make an open four possible next turn (open
//! threes, double threats); the defender answers a four with its five point and a three with
//! every move that takes the open four away, or with a four of its own. The attacker wins
//! when every defence loses. Once the nominal depth is used up, the attacker may still play
//! fours for [`VCF_TAIL`] plies (a four to finish the threat sequence). Results are cached by
//! hash and depth; a node budget bounds the work.

use super::board::Board;
use super::movegen::{defences, renju_black};
use super::pattern::p4;
use super::vcf::{first_of_class, four_moves, Budget, ThreatCache};

/// Plies of continuous fours the attacker may still play once the nominal depth is used
/// up: threes first, then fours that win (a four-three, or fours whose forced blocks leave an
/// open-four point). The lookahead level reads its threats the same way (threes, then fours
/// past its nominal depth), and Master, blind past its own depth, lost its white games to
/// such attacks. Tail results are cached like the others. Measured on two root-defence boards
/// of `tests.rs` (the opponent's VCT at depths 5 and 7 after a pass): 1,850 nodes with no
/// tail, 3,821 with 2 plies, 10,835 with 8, so the detection budget
/// (`DEFENCE_DETECT_NODES` in `mod.rs`) went from 6,000 to 16,000 nodes with it. Against the
/// lookahead at 200 ms per move ("Master round 7" in `git show 5aeae9f:docs/BENCHMARKS.md`):
/// 2 plies changed nothing measurable; 8 plies scored 587/600 against 569/600 without a tail.
pub const VCF_TAIL: i32 = 8;

/// Mixed into a defender's node's key. An attacker's node stores "the side to move wins by
/// threats", a defender's node "the side that has just moved wins"; the same position (with
/// the same side to move) can be both, in the VCTs of the two sides, and the cache lives from
/// move to move. Keyed alike, one was read as the other: Master lost games to a "win" that
/// was the opponent's (`a_stale_vct_cache_entry_is_not_read_as_a_win` in the tactics tests).
const DEFENDER_KEY: u64 = 0x5851_F42D_4C95_7F2D;

/// The VCT solver.
pub struct Vct {
    cache: ThreatCache,
    scratch: Vec<Vec<usize>>,
}

impl Vct {
    pub fn new(cache_bits: u32) -> Vct {
        Vct { cache: ThreatCache::new(cache_bits), scratch: Vec::new() }
    }

    pub fn clear(&mut self) {
        self.cache.clear();
    }

    /// A first move that wins for the side to move by threats within `depth` plies.
    pub fn solve(&mut self, board: &mut Board, depth: i32, budget: &mut Budget) -> Option<usize> {
        budget.aborted = false;
        let att = board.side();
        if let Some(f) = first_of_class(board, att, p4::A_FIVE) {
            return Some(f);
        }
        let mut moves = Vec::new();
        if board.has_five(att ^ 1) {
            board.cells_of_class(att ^ 1, p4::A_FIVE, &mut moves);
            moves.truncate(1);
        } else {
            threat_moves(board, att, &mut moves);
        }
        for m in moves {
            board.make(m);
            let win = self.defend(board, depth - 1, budget, 1);
            board.unmake();
            if win {
                return Some(m);
            }
            if budget.aborted {
                break;
            }
        }
        None
    }

    fn take(&mut self, level: usize) -> Vec<usize> {
        while self.scratch.len() <= level {
            self.scratch.push(Vec::new());
        }
        let mut v = std::mem::take(&mut self.scratch[level]);
        v.clear();
        v
    }

    /// The attacker is to move: does it win?
    fn attack(&mut self, board: &mut Board, depth: i32, budget: &mut Budget, level: usize) -> bool {
        if budget.tick() {
            return false;
        }
        let att = board.side();
        let def = att ^ 1;
        if board.has_five(att) {
            return true;
        }
        if board.has_five(def) {
            let Some(f) = first_of_class(board, def, p4::A_FIVE) else { return false };
            if board.count(def, p4::A_FIVE) >= 2
                || (renju_black(board, att) && board.is_forbidden(f))
            {
                return false;
            }
            board.make(f);
            let r = self.defend(board, depth - 1, budget, level + 1);
            board.unmake();
            return r;
        }
        if board.has_flex4(att) {
            return true;
        }
        if depth <= 0 {
            return self.vcf_tail(board, depth, budget, level);
        }
        let key = board.hash();
        if let Some(r) = self.cache.probe(key, depth) {
            return r;
        }
        let mut moves = self.take(level);
        threat_moves(board, att, &mut moves);
        self.try_threats(board, moves, key, depth, budget, level)
    }

    /// The attacker is to move with the nominal depth used up: only fours from here, for at
    /// most [`VCF_TAIL`] more plies (the defender's replies are forced).
    fn vcf_tail(
        &mut self,
        board: &mut Board,
        depth: i32,
        budget: &mut Budget,
        level: usize,
    ) -> bool {
        let att = board.side();
        if depth <= -VCF_TAIL || !board.has_four_move(att) {
            return false;
        }
        let key = board.hash();
        if let Some(r) = self.cache.probe(key, depth) {
            return r;
        }
        let mut moves = self.take(level);
        four_moves(board, att, &mut moves);
        self.try_threats(board, moves, key, depth, budget, level)
    }

    /// Plays each of the attacker's `moves` (taken from `level`'s scratch list) until one wins
    /// against every defence; returns the list to the scratch and caches the result under
    /// `key` and `depth` unless the budget ran out.
    fn try_threats(
        &mut self,
        board: &mut Board,
        moves: Vec<usize>,
        key: u64,
        depth: i32,
        budget: &mut Budget,
        level: usize,
    ) -> bool {
        let mut win = false;
        for &m in moves.iter() {
            board.make(m);
            let r = self.defend(board, depth - 1, budget, level + 1);
            board.unmake();
            if r {
                win = true;
                break;
            }
            if budget.aborted {
                break;
            }
        }
        self.scratch[level] = moves;
        if !budget.aborted {
            self.cache.store(key, depth, win);
        }
        win
    }

    /// The defender is to move after a threat: does the attacker still win?
    fn defend(&mut self, board: &mut Board, depth: i32, budget: &mut Budget, level: usize) -> bool {
        if budget.tick() {
            return false;
        }
        let def = board.side();
        let att = def ^ 1;
        if board.has_five(def) {
            return false;
        }
        if board.has_five(att) {
            let Some(m) = board.last_move() else { return false };
            let (n, f) = board.five_points_through(m, att);
            let (n, f) = if n == 0 {
                match first_of_class(board, att, p4::A_FIVE) {
                    Some(f) => (board.count(att, p4::A_FIVE) as usize, f),
                    None => return false,
                }
            } else {
                (n, f)
            };
            if n >= 2 || (renju_black(board, def) && board.is_forbidden(f)) {
                return true;
            }
            board.make(f);
            let r = self.attack(board, depth - 1, budget, level + 1);
            board.unmake();
            return r;
        }
        if !board.has_flex4(att) {
            return false;
        }
        // The defender's own open four outruns a three: the attacker has no five point here,
        // and `four_moves` below lists only the simple fours, not the open-four points.
        if board.has_flex4(def) {
            return false;
        }
        if depth <= 0 {
            return false;
        }
        let key = board.hash() ^ DEFENDER_KEY;
        if let Some(r) = self.cache.probe(key, depth) {
            return r;
        }
        let mut moves = self.take(level);
        let mut blocks = self.take(level + 1000);
        defender_moves(board, &mut moves, &mut blocks);
        self.scratch[level + 1000] = blocks;
        let mut win = true;
        for &m in moves.iter() {
            board.make(m);
            let r = self.attack(board, depth - 1, budget, level + 1);
            board.unmake();
            if !r {
                win = false;
                break;
            }
        }
        self.scratch[level] = moves;
        if budget.aborted {
            return false;
        }
        self.cache.store(key, depth, win);
        win
    }
}

/// The defender's answers to an open three (the side to move faces it): its own fours
/// first, then every move that takes the open four away (`blocks` is scratch). Most threat
/// sequences fail, and a counter-four, which gains a tempo, is the likeliest refutation.
/// Tried first (they came last before), the root's threat solvers took 133,631 nodes instead
/// of 195,205 on the bench positions, and the root VCT found more wins with fewer nodes
/// (`vct_probe` in `tests.rs`); SPRT (0, 10) at 100 ms a move, +54 ± 25 Elo, H1, under Renju
/// +29 ± 17 and under Standard +37 ± 20, both H1 (docs/BENCHMARKS.md).
fn defender_moves(board: &Board, out: &mut Vec<usize>, blocks: &mut Vec<usize>) {
    four_moves(board, board.side(), out);
    defences(board, blocks);
    for &m in blocks.iter() {
        if !out.contains(&m) {
            out.push(m);
        }
    }
}

/// The attacker's threatening moves: fours first, then moves that make an open three or
/// better.
pub fn threat_moves(board: &Board, c: usize, out: &mut Vec<usize>) {
    out.clear();
    board.push_cells_of_classes(
        c,
        &[
            p4::B_FLEX4,
            p4::C_BLOCK4_FLEX3,
            p4::F_FLEX3_2X,
            p4::D_BLOCK4_PLUS,
            p4::G_FLEX3_PLUS,
            p4::E_BLOCK4,
            p4::H_FLEX3,
        ],
        out,
    );
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{board_from, crossing_twos, pad};
    use super::*;
    use crate::gomoku::Rule;
    use crate::Point;

    #[test]
    fn double_open_two_wins_by_threes() {
        // Black to move: (6,6) makes two open threes at once (a 3-3 in freestyle).
        let mut b = crossing_twos(0);
        let mut vct = Vct::new(14);
        let m = vct.solve(&mut b, 9, &mut Budget::new(500_000));
        let m = m.expect("black wins by threats");
        assert!(p4::is_threat(b.class(m, 0)));
        // (6,7) is the double three; with white on it, no quick threat win is left for white.
        let mut w = board_from(&pad(&["..o............", "..o............"]), Rule::Freestyle, 1);
        assert!(vct.solve(&mut w, 9, &mut Budget::new(500_000)).is_none());
        let _ = Point::new(6, 7);
    }

    #[test]
    fn the_defender_tries_its_own_fours_before_the_blocks() {
        // White to move faces black's open three; white's three at the edge makes fours.
        let b = board_from(
            &pad(&["...............", "....xxx........", "...............", "ooo............"]),
            Rule::Freestyle,
            1,
        );
        assert!(b.has_flex4(0) && !b.has_five(0));
        let (mut fours, mut blocks) = (Vec::new(), Vec::new());
        four_moves(&b, 1, &mut fours);
        defences(&b, &mut blocks);
        assert!(!fours.is_empty() && !blocks.is_empty());
        let (mut out, mut scratch) = (Vec::new(), Vec::new());
        defender_moves(&b, &mut out, &mut scratch);
        assert_eq!(out[..fours.len()], fours[..], "the fours come first");
        for m in fours.iter().chain(&blocks) {
            assert_eq!(out.iter().filter(|&&o| o == *m).count(), 1, "{m} once");
        }
        assert!(out.iter().all(|m| fours.contains(m) || blocks.contains(m)));
    }
}

//! Principal variation search (NegaScout) with a transposition table, iterative deepening
//! at the root, and move ordering by hash move, shallow search, mobility and parity.
//!
//! Depth counts discs placed: a pass costs no depth, so the remaining depth at a position
//! depends only on its disc count and the table's bounds are always comparable. Once the
//! remaining depth reaches the number of empties, the search runs to the end of the game and
//! its values are exact (`final_diff`, as the evaluator's `terminal`).

use super::ordering::{cheap_key, MoveList};
use super::probcut;
use super::smp::Spread;
use std::sync::Arc;

use super::tt::{Table, NO_MOVE};
use crate::ai::control::Control;
use crate::ai::reversi::board::Board;
use crate::ai::reversi::eval::Evaluator;

/// Larger than any value.
pub const INF: i32 = 1 << 28;

/// Remaining depth from which moves are ordered by a shallow search.
const SHALLOW_FROM: u32 = 4;

/// A searcher with its own table and evaluation.
pub struct Searcher<E: Evaluator> {
    /// The evaluation.
    pub eval: E,
    /// The transposition table (kept between moves of a game; shared with the helper
    /// threads of a search, see [`super::smp`]).
    pub tt: Arc<Table>,
    /// Deepest ply reached in the current search.
    pub seldepth: u32,
    /// A helper thread's own order near the root (the main thread's: none).
    pub spread: Spread,
    /// Whether null-window nodes try a [`probcut`] (the master level's search; off by
    /// default, so that a search is a plain alpha-beta search).
    pub probcut: bool,
}

/// Result of one root iteration.
#[derive(Clone, Debug)]
pub struct RootResult {
    /// Best move and its value.
    pub best: u8,
    pub value: i32,
    /// Every completed root move with its value (exact for the best, a bound for moves
    /// that failed low under the null window).
    pub scores: Vec<(u8, i32)>,
    /// True when every root move was searched (the iteration completed).
    pub complete: bool,
}

impl<E: Evaluator> Searcher<E> {
    /// A searcher with a table of `2^tt_bits` entries.
    pub fn new(eval: E, tt_bits: u32) -> Searcher<E> {
        Searcher {
            eval,
            tt: Arc::new(Table::new(tt_bits)),
            seldepth: 0,
            spread: Spread::NONE,
            probcut: false,
        }
    }

    /// The table, to change it (between searches no helper shares it; if one still did, a
    /// fresh table takes its place).
    pub fn table_mut(&mut self) -> &mut Table {
        if Arc::get_mut(&mut self.tt).is_none() {
            self.tt = Arc::new(self.tt.fresh());
        }
        match Arc::get_mut(&mut self.tt) {
            Some(t) => t,
            None => unreachable!("a new table has one owner"),
        }
    }

    /// Bytes the table holds now (0 before the first search and after a release).
    pub fn table_bytes(&self) -> usize {
        self.tt.allocated_bytes()
    }

    /// A searcher for a helper thread: the same evaluation, the same table, the order
    /// `spread` near the root.
    pub fn helper(&self, spread: Spread) -> Searcher<E> {
        Searcher {
            eval: self.eval.clone(),
            tt: Arc::clone(&self.tt),
            seldepth: 0,
            spread,
            probcut: self.probcut,
        }
    }

    /// Searches the root moves `order` (best guess first) of `b` to `depth`.
    /// Returns `None` when stopped before the first move finished.
    pub fn root(
        &mut self,
        b: &Board,
        order: &[u8],
        depth: u32,
        ctrl: &mut Control,
    ) -> Option<RootResult> {
        let mut alpha = -INF;
        let beta = INF;
        if self.tt.allocated_bytes() == 0 {
            self.table_mut().allocate();
        }
        let mut best = *order.first()?;
        let mut scores = Vec::with_capacity(order.len());
        for (i, &sq) in order.iter().enumerate() {
            let child = b.play(sq);
            let d = depth.saturating_sub(1);
            let v = if i == 0 {
                -self.pvs(&child, d, -beta, -alpha, 1, ctrl)
            } else {
                let mut v = -self.pvs(&child, d, -alpha - 1, -alpha, 1, ctrl);
                if v > alpha && !ctrl.stopped() {
                    v = -self.pvs(&child, d, -beta, -alpha, 1, ctrl);
                }
                v
            };
            if ctrl.stopped() {
                if i == 0 {
                    return None;
                }
                return Some(RootResult { best, value: alpha, scores, complete: false });
            }
            scores.push((sq, v));
            if v > alpha {
                alpha = v;
                best = sq;
            }
        }
        // With root moves left out (multi-PV), the value is not the position's: not stored.
        if order.len() == b.moves().count_ones() as usize {
            self.tt.store(b, depth.min(b.empties()), -INF, INF, alpha, best);
        }
        Some(RootResult { best, value: alpha, scores, complete: true })
    }

    /// The value of `b` for its side to move, searched `depth` more discs deep, within
    /// (`alpha`, `beta`); fail-soft.
    pub fn pvs(
        &mut self,
        b: &Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        ctrl: &mut Control,
    ) -> i32 {
        if ctrl.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let depth = depth.min(b.empties());
        let moves = b.moves();
        if moves == 0 {
            if b.opponent_moves() == 0 {
                return self.eval.terminal(b);
            }
            return -self.pvs(&b.pass(), depth, -beta, -alpha, ply + 1, ctrl);
        }
        if depth == 0 {
            return self.eval.eval(b);
        }
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.tt.probe(b) {
            if e.depth as u32 >= depth {
                if e.lower >= beta {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                if e.lower == e.upper {
                    return e.lower;
                }
            }
            hash_move = e.best;
        }
        if self.probcut && beta == alpha + 1 && depth >= probcut::MIN_DEPTH && depth < b.empties() {
            if let Some(v) = self.probcut(b, depth, alpha, ply, ctrl) {
                return v;
            }
        }
        let mut list = MoveList::new(moves);
        self.order(b, &mut list, depth, hash_move, ply, ctrl);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        for (i, sq) in list.squares().enumerate() {
            let child = b.play(sq);
            let v = if i == 0 {
                -self.pvs(&child, depth - 1, -beta, -alpha, ply + 1, ctrl)
            } else {
                let mut v = -self.pvs(&child, depth - 1, -alpha - 1, -alpha, ply + 1, ctrl);
                if v > alpha && v < beta && !ctrl.stopped() {
                    v = -self.pvs(&child, depth - 1, -beta, -alpha, ply + 1, ctrl);
                }
                v
            };
            if ctrl.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.tt.store(b, depth, alpha0, beta, best, best_sq);
        best
    }

    /// The [`probcut`] of `b` searched `depth` plies deep with the window (`alpha`,
    /// `alpha + 1`): `alpha + 1` when a shallow search predicts the node above the window,
    /// `alpha` when below it, `None` when it predicts nothing for sure (or was stopped).
    fn probcut(
        &mut self,
        b: &Board,
        depth: u32,
        alpha: i32,
        ply: u32,
        ctrl: &mut Control,
    ) -> Option<i32> {
        let (shallow, high, low) = probcut::bounds(alpha, depth, b.empties());
        if high <= probcut::MOST && self.pvs(b, shallow, high - 1, high, ply, ctrl) >= high {
            return (!ctrl.stopped()).then_some(alpha + 1);
        }
        if low >= -probcut::MOST && self.pvs(b, shallow, low, low + 1, ply, ctrl) <= low {
            return (!ctrl.stopped()).then_some(alpha);
        }
        None
    }

    /// Orders `list`: hash move first, then by shallow search or by cheap features (a
    /// helper near the root: the younger brothers in its own order, see [`Spread`]).
    fn order(
        &mut self,
        b: &Board,
        list: &mut MoveList,
        depth: u32,
        hash_move: u8,
        ply: u32,
        ctrl: &mut Control,
    ) {
        if list.len() > 1 {
            let exact = depth >= b.empties();
            if depth >= SHALLOW_FROM && !exact {
                let shallow = if depth >= 10 {
                    2
                } else if depth >= 7 {
                    1
                } else {
                    0
                };
                for item in list.items_mut() {
                    let child = b.play(item.1);
                    let v = if shallow == 0 {
                        -self.eval.eval_or_terminal(&child)
                    } else {
                        -self.pvs(&child, shallow - 1, -INF, INF, ply + 1, ctrl)
                    };
                    item.0 = v * 4 + cheap_key(b, item.1);
                }
            } else {
                for item in list.items_mut() {
                    item.0 = cheap_key(b, item.1);
                }
            }
        }
        if hash_move != NO_MOVE {
            if let Some(item) = list.items_mut().iter_mut().find(|it| it.1 == hash_move) {
                item.0 = i32::MAX;
            }
        }
        list.sort();
        if ply <= self.spread.plies() {
            self.spread.apply_after_first(list.items_mut());
        }
    }

    /// The principal variation stored in the table, starting at `b` (at most `max` moves;
    /// passes are skipped over).
    pub fn pv(&self, b: &Board, max: usize) -> Vec<u8> {
        let mut pv = Vec::new();
        let mut cur = *b;
        while pv.len() < max {
            let Some(mover) = cur.to_mover() else { break };
            cur = mover;
            match self.tt.probe(&cur) {
                Some(e) if e.best != NO_MOVE && cur.moves() & (1u64 << e.best) != 0 => {
                    pv.push(e.best);
                    cur = cur.play(e.best);
                }
                _ => break,
            }
        }
        pv
    }
}

/// Helper for ordering: the evaluation of a position that may be over.
trait EvalOrTerminal {
    fn eval_or_terminal(&self, b: &Board) -> i32;
}

impl<E: Evaluator> EvalOrTerminal for E {
    #[inline]
    fn eval_or_terminal(&self, b: &Board) -> i32 {
        if b.moves() == 0 && b.opponent_moves() == 0 {
            self.terminal(b)
        } else {
            self.eval(b)
        }
    }
}

/// Plain fail-hard alpha-beta with the same depth rules as [`Searcher::pvs`] (passes cost
/// no depth, exact once the depth covers the empties), without table or ordering: the
/// reference the tests compare PVS against.
pub fn plain_alphabeta<E: Evaluator>(
    e: &E,
    b: &Board,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let depth = depth.min(b.empties());
    let moves = b.moves();
    if moves == 0 {
        if b.opponent_moves() == 0 {
            return e.terminal(b);
        }
        return -plain_alphabeta(e, &b.pass(), depth, -beta, -alpha);
    }
    if depth == 0 {
        return e.eval(b);
    }
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        let v = -plain_alphabeta(e, &b.play(sq), depth - 1, -beta, -alpha);
        if v >= beta {
            return beta;
        }
        if v > alpha {
            alpha = v;
        }
    }
    alpha
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::ai::reversi::eval::{PatternEval, SeedEval};
    use crate::ai::{CancelFlag, Limits, SearchInfo};
    use crate::rng::Rng;

    /// A position after `plies` random moves from the start (stops early at the end).
    pub(crate) fn random_board(rng: &mut Rng, plies: usize) -> Board {
        let mut b = Board::initial();
        for _ in 0..plies {
            let m = b.moves();
            if m == 0 {
                if b.opponent_moves() == 0 {
                    break;
                }
                b = b.pass();
                continue;
            }
            let list: Vec<u8> = crate::ai::reversi::board::squares(m).collect();
            b = b.play(list[rng.below(list.len() as u64) as usize]);
        }
        b
    }

    fn check_same_as_alphabeta<E: Evaluator + Copy>(eval: E, seed: u64) {
        let mut rng = Rng::new(seed);
        for _ in 0..25 {
            let plies = 4 + rng.below(50) as usize;
            let b = random_board(&mut rng, plies);
            if b.moves() == 0 {
                continue;
            }
            for depth in 1..=4 {
                let reference = plain_alphabeta(&eval, &b, depth, -INF, INF);
                let mut s = Searcher::new(eval, 12);
                let cancel = CancelFlag::new();
                let mut sink = |_: &SearchInfo| {};
                let mut ctrl = Control::fixed(&Limits::default(), &cancel, &mut sink);
                let order: Vec<u8> = crate::ai::reversi::board::squares(b.moves()).collect();
                // Iterate like the engine does, so the table holds shallower results too.
                let mut last = None;
                for d in 1..=depth {
                    last = s.root(&b, &order, d, &mut ctrl);
                }
                let r = last.unwrap();
                assert!(r.complete);
                assert_eq!(r.value, reference, "depth {depth} board {b:?}");
                let direct = s.pvs(&b, depth, -INF, INF, 0, &mut ctrl);
                assert_eq!(direct, reference);
            }
        }
    }

    #[test]
    fn pvs_matches_plain_alphabeta_with_the_seed_eval() {
        check_same_as_alphabeta(SeedEval, 1);
    }

    #[test]
    fn pvs_matches_plain_alphabeta_with_the_pattern_eval() {
        check_same_as_alphabeta(PatternEval::new(), 2);
    }

    #[test]
    fn exact_search_near_the_end_matches_a_full_minimax() {
        fn minimax(b: &Board) -> i32 {
            let m = b.moves();
            if m == 0 {
                if b.opponent_moves() == 0 {
                    return b.final_diff();
                }
                return -minimax(&b.pass());
            }
            crate::ai::reversi::board::squares(m).map(|s| -minimax(&b.play(s))).max().unwrap_or(0)
        }
        let mut rng = Rng::new(9);
        for _ in 0..10 {
            let b = random_board(&mut rng, 52);
            if b.moves() == 0 {
                continue;
            }
            let mut s = Searcher::new(PatternEval::new(), 12);
            let cancel = CancelFlag::new();
            let mut sink = |_: &SearchInfo| {};
            let mut ctrl = Control::fixed(&Limits::default(), &cancel, &mut sink);
            let v = s.pvs(&b, 60, -INF, INF, 0, &mut ctrl);
            assert_eq!(v, minimax(&b) * 100);
        }
    }
}

//! Level 2, "classic": seed article 003's alpha-beta minimax with its evaluation and its
//! depth schedule (4 plies, then 6 from 20 empties and 10 from 12 empties; 6 in the last 8).
//!
//! The search is a plain fail-soft alpha-beta with the article's evaluation. Moves are tried
//! in a cheap order (corners first, then fewest replies for the opponent); the order only
//! speeds up the cut-offs, the values are exactly the article's minimax values. Up to depth
//! 6 every root move gets its own full-window search (exact scores for hints); deeper, the
//! other moves only need to be compared with the best. The seeded RNG chooses among the
//! moves that share the best score.

use super::board::{square_move, squares, Board};
use super::eval::{Evaluator, SeedEval};
use crate::ai::control::Control;
use crate::ai::{CancelFlag, Candidate, Engine, Limits, Score, SearchInfo, SearchResult};
use crate::reversi::Position;
use crate::rng::Rng;
use crate::Move;

/// The article's search depth for a position with `empties` empty squares (it counts
/// moves played, `60 - empties`: below 40 moves depth 4, below 48 depth 6, below 52
/// depth 10, then 6).
pub fn classic_depth(empties: u32) -> u32 {
    match 60u32.saturating_sub(empties) {
        0..=39 => 4,
        40..=47 => 6,
        48..=51 => 10,
        _ => 6,
    }
}

/// The classic level.
pub struct Classic {
    rng: Rng,
}

impl Classic {
    /// A classic player; `seed` drives the choice among equally good moves.
    pub fn new(seed: u64) -> Classic {
        Classic { rng: Rng::new(seed) }
    }
}

impl Engine<Position> for Classic {
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let board = Board::from_position(pos);
        let depth = limits.depth.unwrap_or_else(|| classic_depth(board.empties())).max(1);
        let mut ctrl = Control::fixed(limits, cancel, progress);
        fixed_depth_search(board, depth, &SeedEval, &mut ctrl, &mut self.rng)
    }
}

/// Depth up to which every root move gets a full-window search (exact scores for hints);
/// deeper, the other moves are searched with the window (best - 1, +inf), which still finds
/// every move equal to the best but gives only upper bounds for the worse ones.
const EXACT_ROOT_UP_TO: u32 = 6;

/// A one-ply pass to order the root moves, then the full-depth search. Returns the best
/// move of the deepest completed pass (or a cheap first guess when even the first was
/// interrupted), with every root move's score (or bound) as candidates.
pub fn fixed_depth_search<E: Evaluator>(
    board: Board,
    depth: u32,
    eval: &E,
    ctrl: &mut Control,
    rng: &mut Rng,
) -> SearchResult {
    let moves = board.moves();
    if moves == 0 {
        return SearchResult { best: Move::Pass, info: ctrl.snapshot() };
    }
    let mut order: Vec<u8> = order_moves(&board, moves);
    let mut best = order[0];
    let passes: &[u32] = if depth > 1 { &[1, depth] } else { &[1] };
    for &d in passes {
        let mut iteration: Vec<(u8, i32)> = Vec::with_capacity(order.len());
        let mut top = -INF;
        for &sq in &order {
            let alpha = if d <= EXACT_ROOT_UP_TO || top == -INF { -INF } else { top - 1 };
            let v = -alphabeta(board.play(sq), d - 1, -INF, -alpha, eval, ctrl);
            if ctrl.stopped() {
                break;
            }
            top = top.max(v);
            iteration.push((sq, v));
        }
        if ctrl.stopped() {
            break;
        }
        iteration.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let ties: Vec<u8> = iteration.iter().filter(|&&(_, v)| v == top).map(|&(s, _)| s).collect();
        best = *rng.choose(&ties).unwrap_or(&ties[0]);
        order = iteration.iter().map(|&(s, _)| s).collect();
        ctrl.info.depth = d;
        ctrl.info.seldepth = d;
        ctrl.info.score = Score::Eval(top);
        ctrl.info.pv = vec![square_move(best)];
        ctrl.info.candidates = iteration
            .iter()
            .map(|&(s, v)| Candidate { mv: square_move(s), score: Score::Eval(v) })
            .collect();
        ctrl.report();
    }
    SearchResult { best: square_move(best), info: ctrl.snapshot() }
}

/// Larger than any evaluation.
const INF: i32 = i32::MAX / 2;

/// Fail-soft negamax alpha-beta to `depth` plies; a pass costs a ply, as in the article.
pub fn alphabeta<E: Evaluator>(
    b: Board,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    eval: &E,
    ctrl: &mut Control,
) -> i32 {
    if ctrl.tick() {
        return 0;
    }
    let moves = b.moves();
    if moves == 0 {
        if b.opponent_moves() == 0 {
            return eval.terminal(&b);
        }
        if depth == 0 {
            return eval.eval(&b);
        }
        return -alphabeta(b.pass(), depth - 1, -beta, -alpha, eval, ctrl);
    }
    if depth == 0 {
        return eval.eval(&b);
    }
    let mut best = -INF;
    let visit = |sq: u8, alpha: &mut i32, best: &mut i32, ctrl: &mut Control| -> bool {
        let v = -alphabeta(b.play(sq), depth - 1, -beta, -*alpha, eval, ctrl);
        if v > *best {
            *best = v;
            if v > *alpha {
                *alpha = v;
            }
        }
        v >= beta
    };
    if depth >= 3 {
        for sq in order_moves(&b, moves) {
            if visit(sq, &mut alpha, &mut best, ctrl) {
                break;
            }
        }
    } else {
        for sq in squares(moves) {
            if visit(sq, &mut alpha, &mut best, ctrl) {
                break;
            }
        }
    }
    best
}

/// Corners first, X squares last, otherwise the fewest replies for the opponent first.
pub fn order_moves(b: &Board, moves: u64) -> Vec<u8> {
    const CORNERS: u64 = 0x8100_0000_0000_0081;
    const X_SQUARES: u64 = 0x0042_0000_0000_4200;
    let mut keyed: Vec<(i32, u8)> = squares(moves)
        .map(|sq| {
            let child = b.play(sq);
            let bit = 1u64 << sq;
            let mut key = child.moves().count_ones() as i32 * 4;
            if bit & CORNERS != 0 {
                key -= 100;
            }
            if bit & X_SQUARES != 0 {
                key += 50;
            }
            (key, sq)
        })
        .collect();
    keyed.sort_by_key(|&(k, _)| k);
    keyed.into_iter().map(|(_, sq)| sq).collect()
}

//! The exact Reversi endgame solver.
//!
//! Finds the final disc differential under perfect play (empty squares go to the winner, as
//! in the FFO test suite) with:
//! * fastest-first move ordering (the opponent's weighted mobility) and parity, refined
//!   from 16 empties by a shallow heuristic search of each move (`search.rs`);
//! * special code for the last 1–4 empty squares (`last.rs`, no move generation);
//! * a stability cutoff (`stability.rs`);
//! * a transposition table with best moves, one cache line per bucket, prefetched
//!   (`tt.rs`), and enhanced transposition cutoffs from 8 empties;
//! * null-window search everywhere except on the principal variation (`search.rs`).

mod bits;
#[cfg(test)]
mod calibrate;
mod last;
mod midgame;
mod order;
mod probcut;
mod search;
mod stability;
mod tt;

use crate::ai::CancelFlag;
use crate::reversi::{point_of, Position};
use crate::{Move, Point};

use probcut::CONFIDENCE;
use search::{Search, PASS};
use tt::EXACT;
use tt::Table;

/// Default transposition table: 2^21 entries, two per 64-byte cache line (64 MiB).
pub const DEFAULT_TT_BITS: u32 = 21;

/// The outcome of a solve on raw bitboards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawSolve {
    /// Best move square (`y * 8 + x`), `None` when the side to move must pass or the game
    /// is over.
    pub best: Option<u8>,
    /// Final disc differential for the side to move (or a bound, outside the window).
    pub score: i32,
    /// Nodes visited by this solve.
    pub nodes: u64,
    /// Principal variation as squares, 64 for a pass.
    pub pv: Vec<u8>,
}

/// The outcome of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// A best move; `None` when the side to move must pass or the game is over.
    pub best: Option<Point>,
    /// Final disc differential for the side to move under perfect play, empty squares
    /// going to the winner (FFO scoring). For a window search outside the window: a bound
    /// (`score <= alpha`: at most `score`; `score >= beta`: at least `score`). For
    /// [`Solver::solve_wld`]: -1, 0 or +1.
    pub score: i32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation, starting with the best move (passes included). Complete to
    /// the end of the game for exact scores; may stop early for bounds.
    pub pv: Vec<Move>,
}

impl SolveResult {
    fn from_raw(raw: RawSolve) -> SolveResult {
        let pv = raw
            .pv
            .iter()
            .map(|&sq| if sq == PASS { Move::Pass } else { Move::Place(point_of(sq)) })
            .collect();
        SolveResult { best: raw.best.map(point_of), score: raw.score, nodes: raw.nodes, pv }
    }
}

/// The endgame solver; owns its transposition table and can be reused across positions
/// (what it learnt stays valid).
pub struct Solver {
    tt: Table,
    nodes: u64,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with a table of 2^[`DEFAULT_TT_BITS`] entries.
    pub fn new() -> Solver {
        Solver::with_tt_bits(DEFAULT_TT_BITS)
    }

    /// A solver with a table of 2^`bits` entries (32 bytes each; clamped to 4..=28).
    pub fn with_tt_bits(bits: u32) -> Solver {
        Solver { tt: Table::new(bits), nodes: 0 }
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Nodes visited by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact final disc differential for the side to move and a best move. `None` if
    /// cancelled.
    pub fn solve(&mut self, pos: &Position, cancel: &CancelFlag) -> Option<SolveResult> {
        self.solve_window(pos, -64, 64, cancel)
    }

    /// Win / draw / loss only (window -1..1, much faster): `score` is +1, 0 or -1, and
    /// `best` a move that achieves that result. `None` if cancelled.
    pub fn solve_wld(&mut self, pos: &Position, cancel: &CancelFlag) -> Option<SolveResult> {
        let mut r = self.solve_window(pos, -1, 1, cancel)?;
        r.score = r.score.signum();
        Some(r)
    }

    /// The exact score if it lies strictly inside `(alpha, beta)`, else a bound on the
    /// correct side (fail-soft), for aspiration windows. `None` if cancelled.
    pub fn solve_window(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        cancel: &CancelFlag,
    ) -> Option<SolveResult> {
        self.solve_bits(pos.player(), pos.opponent(), alpha, beta, cancel)
            .map(SolveResult::from_raw)
    }

    /// Solves the position `player` (side to move) / `opponent` within the window
    /// `(alpha, beta)`: the exact score if it lies strictly inside, else a bound
    /// (`score <= alpha`: at most that; `score >= beta`: at least that). `None` if cancelled.
    pub fn solve_bits(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        cancel: &CancelFlag,
    ) -> Option<RawSolve> {
        let opponent = opponent & !player;
        let alpha = alpha.clamp(-65, 64);
        let beta = beta.clamp(alpha + 1, 65);
        let n = (!(player | opponent)).count_ones();
        let mut search = Search::new(&mut self.tt, cancel);
        let mut pv = Vec::new();
        let mut guess = None;
        if n as i32 >= search::knob(10) {
            // Selective passes, loosest first: each fills the table with best moves for the
            // next, and the last one's score is the aspiration window's centre.
            for level in 0..(search::knob(6) as usize).min(CONFIDENCE.len()) {
                search.level = level as u8;
                let v = search.pvs(player, opponent, alpha, beta, &mut pv);
                if search.stopped {
                    break;
                }
                guess = Some(v);
            }
            search.level = EXACT;
        }
        let delta = search::knob(9);
        let score = match guess {
            Some(g) if g > alpha && g < beta && delta > 0 => {
                aspiration(&mut search, player, opponent, (alpha, beta), g, delta, &mut pv)
            }
            _ => search.pvs(player, opponent, alpha, beta, &mut pv),
        };
        self.nodes = search.nodes;
        if search.stopped {
            return None;
        }
        let best = pv.first().copied().filter(|&sq| sq != PASS);
        Some(RawSolve { best, score, nodes: self.nodes, pv })
    }
}

/// The exact search of `(player, opponent)` in `window`, first in the narrower window
/// `guess ± delta` and, when the score falls outside, again with the bound it gave.
fn aspiration(
    search: &mut Search,
    player: u64,
    opponent: u64,
    window: (i32, i32),
    guess: i32,
    delta: i32,
    pv: &mut Vec<u8>,
) -> i32 {
    let (alpha, beta) = window;
    let (mut lo, mut hi) = ((guess - delta).max(alpha), (guess + delta).min(beta));
    loop {
        let v = search.pvs(player, opponent, lo, hi, pv);
        if search.stopped {
            return v;
        }
        if v <= lo && lo > alpha {
            // At most v: search below it (the score is even, but stay general).
            hi = (v + 1).max(alpha + 1);
            lo = alpha;
        } else if v >= hi && hi < beta {
            lo = (v - 1).min(beta - 1);
            hi = beta;
        } else {
            return v;
        }
    }
}

#[cfg(test)]
mod tests;

//! The exact Reversi endgame solver.
//!
//! Finds the final disc differential under perfect play (empty squares go to the winner, as
//! in the FFO test suite) with:
//! * fastest-first move ordering (the opponent's weighted mobility) and parity; from 16
//!   empties refined by a 0–2 ply search of the fitted pattern evaluation after each move
//!   (`midgame.rs`, `search.rs`);
//! * from [`PRESEARCH_MIN`] empties, a selective pre-search first (`probcut.rs`): the same
//!   search, but cutting nodes whose score a shallow evaluation search predicts beyond the
//!   window with enough confidence (ProbCut). It fills the table with good moves; its
//!   bounds are kept apart by a selectivity level and never cut the exact search (`tt.rs`);
//! * special code for the last 1–4 empty squares (`last.rs`, no move generation);
//! * a stability cutoff (`stability.rs`);
//! * a transposition table with best moves, one cache line per bucket, prefetched, on
//!   2 MiB pages where Linux allows (`tt.rs`), and enhanced transposition cutoffs from 8
//!   empties;
//! * null-window search everywhere except on the principal variation (`search.rs`);
//! * on several threads, Young Brothers Wait over one shared table (`parallel.rs`): a
//!   node's moves after its first are split among the threads, at every node of the
//!   principal variation and at null-window nodes with enough empties.

mod bits;
#[cfg(test)]
mod calibrate;
mod features;
mod last;
mod midgame;
mod order;
mod parallel;
mod probcut;
mod search;
mod stability;
mod tt;

use crate::ai::CancelFlag;
use crate::reversi::{point_of, Position};
use crate::{Move, Point};

/// The solver's parity regions (the four quadrants) and their parity, for the coach.
pub use bits::{parity_of, PARITY_MASK, QUADRANT};
use probcut::CONFIDENCE;
use search::{Search, PASS};
use tt::Table;
use tt::EXACT;

/// From this many empty squares a solve runs the selective (ProbCut) pre-search before the
/// exact one. (All of FFO #40–#49 have 20–26 empties; smaller solves are fast anyway.)
pub const PRESEARCH_MIN: u32 = 18;

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
    eval_nodes: u64,
    /// Split points of the last solve (helper threads started at a node).
    splits: u64,
    /// Threads of a solve (1: this thread only).
    threads: usize,
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
        Solver { tt: Table::new(bits), nodes: 0, eval_nodes: 0, splits: 0, threads: 1 }
    }

    /// Solves on `threads` threads from the next solve on (at least 1, at most
    /// [`crate::ai::control::MAX_THREADS`]): a node's moves are split among them after
    /// its first (`parallel.rs`).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, crate::ai::control::MAX_THREADS);
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Forgets every stored position and gives the table's memory back; the next solve
    /// takes it again (the table is only allocated by the first solve).
    pub fn release(&mut self) {
        self.tt.release();
    }

    /// Bytes the table holds now (0 before the first solve and after [`Solver::release`]).
    pub fn held_bytes(&self) -> usize {
        self.tt.allocated_bytes()
    }

    /// The bytes the table of a solver made by [`Solver::with_tt_bits`]`(bits)` takes once
    /// it solves.
    pub fn table_bytes(bits: u32) -> u64 {
        Table::bytes_for(bits)
    }

    /// Takes the table's memory now, at its full size, or says that the system refused it
    /// (a solve would go on with a smaller table).
    pub fn try_allocate(&mut self) -> Result<(), std::collections::TryReserveError> {
        self.tt.try_allocate()
    }

    /// Bytes the table holds now (0 before the first solve and after [`Solver::release`]).
    pub fn allocated_bytes(&self) -> usize {
        self.tt.allocated_bytes()
    }

    /// Nodes visited by the last solve (selective pre-search included).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Split points of the last solve (0 on one thread): how often helper threads started
    /// at a node.
    pub fn splits(&self) -> u64 {
        self.splits
    }

    /// Positions visited by the last solve's evaluation searches (move ordering and
    /// ProbCut predictions), which [`Solver::nodes`] does not count.
    pub fn eval_nodes(&self) -> u64 {
        self.eval_nodes
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
        self.splits = 0;
        if self.threads > 1 && parallel::worth_splitting(player, opponent) {
            return self.solve_split(player, opponent, alpha, beta, cancel);
        }
        let mut search = Search::new(&mut self.tt, cancel);
        let mut pv = Vec::new();
        let mut score = 0;
        for level in passes(n) {
            search.level = level;
            score = search.pvs(player, opponent, alpha, beta, &mut pv);
            if search.stopped {
                break;
            }
        }
        self.nodes = search.nodes;
        self.eval_nodes = search.eval_nodes;
        if search.stopped {
            return None;
        }
        let best = pv.first().copied().filter(|&sq| sq != PASS);
        Some(RawSolve { best, score, nodes: self.nodes, pv })
    }

    /// [`Solver::solve_bits`] on [`Solver::set_threads`] threads (the same [`passes`], each
    /// split by [`parallel::pvs`]).
    fn solve_split(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        cancel: &CancelFlag,
    ) -> Option<RawSolve> {
        let n = (!(player | opponent)).count_ones();
        let (mut nodes, mut eval_nodes) = (0, 0);
        let mut pv = Vec::new();
        let mut score = 0;
        for level in passes(n) {
            let r = parallel::pvs(
                &mut self.tt,
                cancel,
                level,
                player,
                opponent,
                alpha,
                beta,
                &mut pv,
                self.threads,
            );
            nodes += r.nodes;
            eval_nodes += r.eval_nodes;
            self.splits += r.splits;
            score = r.score;
            if r.stopped {
                (self.nodes, self.eval_nodes) = (nodes, eval_nodes);
                return None;
            }
        }
        (self.nodes, self.eval_nodes) = (nodes, eval_nodes);
        let best = pv.first().copied().filter(|&sq| sq != PASS);
        Some(RawSolve { best, score, nodes, pv })
    }
}

/// The passes of a solve with `empties` empty squares: from [`PRESEARCH_MIN`] empties the
/// selective levels, loosest first (each fills the table with best moves, and bounds of its
/// own level, for the next and for the exact search), then the exact one.
fn passes(empties: u32) -> impl Iterator<Item = u8> {
    let selective = if empties >= PRESEARCH_MIN { CONFIDENCE.len() as u8 } else { 0 };
    (0..selective).chain([EXACT])
}

#[cfg(test)]
mod tests;

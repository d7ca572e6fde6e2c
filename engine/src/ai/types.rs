//! The values that go in and out of a search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::Move;

/// When to stop searching: the first limit reached wins. No limit at all means the level's
/// own default (its fixed depth for the classic levels, about one second for the strong ones).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Time for this move.
    pub time: Option<Duration>,
    /// Nominal search depth in plies.
    pub depth: Option<u32>,
    /// Nodes to visit.
    pub nodes: Option<u64>,
    /// Time left on the player's clock for the rest of the game, for time management.
    pub time_left: Option<Duration>,
    /// Moves the player still has to pay for from `time_left`, as UCI's `movestogo` (none:
    /// the clock is shared as if [`crate::ai::control::TIME_LEFT_SHARE`] moves were to come).
    #[serde(default)]
    pub moves_to_go: Option<u32>,
}

impl Limits {
    pub fn time(ms: u64) -> Limits {
        Limits { time: Some(Duration::from_millis(ms)), ..Limits::default() }
    }
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }
}

/// A shared "stop now" flag. Cloning shares the flag.
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    pub fn new() -> CancelFlag {
        CancelFlag::default()
    }
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// How good a position or move is, from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Score {
    /// A heuristic evaluation (larger is better). Gomoku levels use their own scale;
    /// Reversi levels use hundredths of a disc.
    Eval(i32),
    /// A proven win in this many plies (moves of both sides).
    Win(u32),
    /// A proven loss in this many plies.
    Loss(u32),
    /// Reversi: the proven final disc difference with perfect play.
    Exact(i32),
}

/// One candidate move with its score, for hints and heat maps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub mv: Move,
    pub score: Score,
}

/// What a search knows so far; sent to the progress callback and returned with the result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchInfo {
    /// Nominal depth completed.
    pub depth: u32,
    /// Deepest ply reached (threat searches go far beyond the nominal depth).
    pub seldepth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub elapsed_ms: u64,
    pub score: Score,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// The best candidates, best first (at most a dozen or so).
    pub candidates: Vec<Candidate>,
}

impl Default for SearchInfo {
    fn default() -> SearchInfo {
        SearchInfo {
            depth: 0,
            seldepth: 0,
            nodes: 0,
            nps: 0,
            elapsed_ms: 0,
            score: Score::Eval(0),
            pv: Vec::new(),
            candidates: Vec::new(),
        }
    }
}

/// What a line's score says about the move's true value at the line's depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The score is the value.
    Exact,
    /// The value is at least the score (a null-window fail high).
    Lower,
    /// The value is at most the score (a null-window fail low).
    Upper,
}

/// One line of a multi-PV search: a root move with its score and principal variation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PvLine {
    pub mv: Move,
    pub score: Score,
    pub bound: Bound,
    /// Nominal depth the score was searched to (the empties for an exact endgame score).
    pub depth: u32,
    /// Deepest ply reached by the search that found this line.
    pub seldepth: u32,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

impl PvLine {
    /// The line of a single-PV search's answer (exact at its depth).
    pub fn from_result(r: &SearchResult) -> PvLine {
        let pv = if r.info.pv.first() == Some(&r.best) { r.info.pv.clone() } else { vec![r.best] };
        PvLine {
            mv: r.best,
            score: r.info.score,
            bound: Bound::Exact,
            depth: r.info.depth,
            seldepth: r.info.seldepth,
            pv,
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchResult {
    pub best: Move,
    pub info: SearchInfo,
}

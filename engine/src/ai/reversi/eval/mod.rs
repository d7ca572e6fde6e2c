//! Position evaluations for the Reversi searches.
//!
//! - [`seed`]: seed article 003's hand-written evaluation (levels 1 and 2, and the
//!   baseline the fitted evaluation is measured against);
//! - [`pattern`]: edge, corner, line and diagonal pattern tables by game stage, with
//!   weights fitted by `engine/examples/fit_reversi_eval.rs` (levels 3 and 4).

pub mod pattern;
pub mod seed;
pub mod weights;

pub use pattern::PatternEval;
pub use seed::SeedEval;

use super::board::Board;

/// A static evaluation, always from the point of view of the side to move.
pub trait Evaluator: Send + Sync + Clone {
    /// The heuristic value of a position where someone can still move.
    fn eval(&self, b: &Board) -> i32;
    /// The value of a finished game (neither side can move).
    fn terminal(&self, b: &Board) -> i32;
}

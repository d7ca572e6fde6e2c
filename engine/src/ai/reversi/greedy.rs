//! Level 1, "greedy": seed article 003's evaluation looking two plies ahead (its own move
//! and the opponent's best reply); `Limits::depth` may ask for 1 ply instead.

use super::board::Board;
use super::classic::fixed_depth_search;
use super::eval::SeedEval;
use crate::ai::control::Control;
use crate::ai::{CancelFlag, Engine, Limits, SearchInfo, SearchResult};
use crate::reversi::Position;
use crate::rng::Rng;

/// Plies the greedy level looks ahead by default.
pub const GREEDY_DEPTH: u32 = 2;

/// The greedy level.
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    /// A greedy player; `seed` drives the choice among equally good moves.
    pub fn new(seed: u64) -> Greedy {
        Greedy { rng: Rng::new(seed) }
    }
}

impl Engine<Position> for Greedy {
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let depth = limits.depth.unwrap_or(GREEDY_DEPTH).clamp(1, GREEDY_DEPTH);
        let mut ctrl = Control::fixed(limits, cancel, progress);
        fixed_depth_search(Board::from_position(pos), depth, &SeedEval, &mut ctrl, &mut self.rng)
    }
}

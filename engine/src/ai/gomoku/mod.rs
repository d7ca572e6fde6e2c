//! Gomoku levels, weakest first: the classic scorers of the seed articles (five-tuple,
//! win-array, nine-cell patterns), the forcing-move lookahead, and Master.

pub mod common;
pub mod fivetuple;
pub mod lookahead;
pub mod pattern;
pub mod winarray;

use super::{Engine, GomokuLevel};
use crate::gomoku::Position;

pub use fivetuple::FiveTuple;
pub use lookahead::Lookahead;
pub use pattern::Pattern;
pub use winarray::WinArray;

/// A fresh engine for `level`; `seed` fixes its random choices among equal moves.
pub fn new_engine(level: GomokuLevel, seed: u64) -> Box<dyn Engine<Position>> {
    match level {
        GomokuLevel::FiveTuple => Box::new(FiveTuple::new(seed)),
        GomokuLevel::WinArray => Box::new(WinArray::new(seed)),
        GomokuLevel::Pattern => Box::new(Pattern::new(seed)),
        GomokuLevel::Lookahead => Box::new(Lookahead::new(seed)),
        GomokuLevel::Master => unimplemented!("gomoku level master is built on its own branch"),
    }
}

//! Gomoku levels. (Filled in by the Gomoku AI work.)

pub mod master;

use super::{Engine, GomokuLevel};
use crate::gomoku::Position;

pub fn new_engine(level: GomokuLevel, seed: u64) -> Box<dyn Engine<Position>> {
    let _ = seed;
    unimplemented!("gomoku level {}", level.name())
}

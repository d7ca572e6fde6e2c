//! Gomoku levels. (Filled in by the Gomoku AI work.)

pub mod master;

use super::{Engine, GomokuLevel};
use crate::gomoku::Position;

pub fn new_engine(level: GomokuLevel, seed: u64) -> Box<dyn Engine<Position>> {
    match level {
        GomokuLevel::Master => Box::new(master::Master::new(seed)),
        _ => unimplemented!("gomoku level {}", level.name()),
    }
}

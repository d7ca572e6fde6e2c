//! The Reversi levels, weakest first:
//!
//! 1. [`greedy::Greedy`]: seed article 003's evaluation, two plies;
//! 2. [`classic::Classic`]: seed 003's alpha-beta with its evaluation and depth schedule;
//! 3. [`search::Strong`]: PVS with iterative deepening, a transposition table and a fitted
//!    pattern evaluation ([`eval::pattern`]);
//! 4. [`master::Master`]: level 3 plus exact endgame solving.
//!
//! All of them search on [`board::Board`] and share [`control::Control`] for limits,
//! cancellation and progress reports.

pub mod board;
pub mod classic;
pub mod endgame;
pub mod eval;
pub mod greedy;
pub mod master;
pub mod search;

use super::{Engine, ReversiLevel};
use crate::reversi::Position;

/// A fresh engine for `level`; `seed` fixes its choices among equally good moves.
pub fn new_engine(level: ReversiLevel, seed: u64) -> Box<dyn Engine<Position>> {
    match level {
        ReversiLevel::Greedy => Box::new(greedy::Greedy::new(seed)),
        ReversiLevel::Classic => Box::new(classic::Classic::new(seed)),
        ReversiLevel::Strong => Box::new(search::Strong::strong(seed)),
        ReversiLevel::Master => Box::new(master::Master::new(seed)),
    }
}

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

/// The bytes of one entry of either Reversi table (the midgame search's, the solver's).
const TABLE_ENTRY_BYTES: usize = 32;

/// The number of entries (`2^bits`) of a table that fits in `bytes`, never more than the
/// machine's share ([`crate::memory::table_budget`]), within [`search::MIN_TT_BITS`] to
/// [`search::MAX_TT_BITS`].
pub fn table_bits(bytes: usize) -> u32 {
    let bytes = crate::memory::table_budget(Some(bytes as u64), 0);
    (bytes / TABLE_ENTRY_BYTES).max(1).ilog2().clamp(search::MIN_TT_BITS, search::MAX_TT_BITS)
}

/// A fresh engine for `level` whose tables take about `bytes` in all: Master's two tables
/// (the midgame search's and the endgame solver's) half each, Strong's one table half as
/// well (so that both levels play with the same midgame table). With
/// [`crate::ai::DEFAULT_MEMORY`] (64 MiB) they are the tables of [`new_engine`]. The other
/// levels keep no table.
pub fn engine_with_memory(
    level: ReversiLevel,
    seed: u64,
    bytes: usize,
) -> Box<dyn Engine<Position>> {
    let bits = table_bits(bytes / 2);
    match level {
        ReversiLevel::Strong => {
            let mut strong = search::Strong::strong(seed);
            strong.set_table_bits(bits);
            Box::new(strong)
        }
        ReversiLevel::Master => Box::new(master::Master::with_table_bits(seed, bits)),
        _ => new_engine(level, seed),
    }
}

/// A fresh engine for `level`; `seed` fixes its choices among equally good moves.
pub fn new_engine(level: ReversiLevel, seed: u64) -> Box<dyn Engine<Position>> {
    match level {
        ReversiLevel::Greedy => Box::new(greedy::Greedy::new(seed)),
        ReversiLevel::Classic => Box::new(classic::Classic::new(seed)),
        ReversiLevel::Strong => Box::new(search::Strong::strong(seed)),
        ReversiLevel::Master => Box::new(master::Master::new(seed)),
    }
}

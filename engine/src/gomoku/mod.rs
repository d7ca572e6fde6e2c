//! Gomoku and Renju: board, rules, forbidden points, notation and PSQ records.
//!
//! * [`Position`] — the board with its history, redo stack and Zobrist hash;
//! * [`Rule`] — freestyle, standard (exactly five) or Renju;
//! * [`line`] — the one line foundation: line keys, five points, fours, threes, twos and
//!   the pattern table per rule, read by the rules, the shapes and every Gomoku level;
//! * [`ForbiddenKind`] — black's forbidden moves under Renju (see [`renju`]);
//! * [`Shape`] / [`shapes_at`] — names for the shapes a stone makes (活三, 冲四, …);
//! * [`notation`] — board notation (`h8`), columns from the left, rows from the bottom;
//! * [`psq`] — Piskvork's PSQ game records.

mod board;
mod error;
pub mod line;
pub mod notation;
mod position;
pub mod psq;
pub mod renju;
mod rule;
mod shapes;
mod win;
pub(crate) mod zobrist;

pub use board::DIRECTIONS;
pub use error::{GomokuError, ReplayError};
pub use notation::NotationError;
pub use position::Position;
pub use psq::{PsqError, PsqRecord};
pub use renju::ForbiddenKind;
pub use rule::Rule;
pub use shapes::{shapes_at, shapes_by_direction, Shape};
pub use win::Win;

/// The smallest supported board (cells per side).
pub const MIN_SIZE: u8 = 5;
/// The largest supported board (cells per side): columns are lettered `a` to `z`.
pub const MAX_SIZE: u8 = 26;
/// The usual board size.
pub const DEFAULT_SIZE: u8 = 15;

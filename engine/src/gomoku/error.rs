//! What can go wrong when setting up or playing a Gomoku position.

use thiserror::Error;

use super::notation::format_point;
use super::{ForbiddenKind, MAX_SIZE, MIN_SIZE};
use crate::Point;

/// Why a move or a set-up was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GomokuError {
    /// The board size is outside `MIN_SIZE..=MAX_SIZE`.
    #[error("a board must have from {MIN_SIZE} to {MAX_SIZE} lines per side, not {size}")]
    BadSize { size: u8 },
    /// The point lies outside the board.
    #[error(
        "the point at column {} from the left, row {} from the top is off the {size}x{size} board",
        .point.x as u32 + 1,
        .point.y as u32 + 1
    )]
    OffBoard { point: Point, size: u8 },
    /// A stone already stands on the point.
    #[error("{} is already taken", format_point(*.point, *.size))]
    Occupied { point: Point, size: u8 },
    /// Under Renju, black may not play this point.
    #[error("{} is forbidden to black ({kind})", format_point(*.point, *.size))]
    Forbidden { point: Point, size: u8, kind: ForbiddenKind },
    /// The game has already ended (a win or a full board).
    #[error("the game is over")]
    GameOver,
    /// A rule name that is not `freestyle`, `standard` or `renju`.
    #[error("unknown rule {0:?}: expected freestyle, standard or renju")]
    UnknownRule(String),
}

/// A move of a list could not be played (see [`super::Position::from_moves`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move {number} ({text}): {source}")]
pub struct ReplayError {
    /// 1-based number of the move in the list.
    pub number: usize,
    /// The move in board notation.
    pub text: String,
    /// Why it was refused.
    pub source: GomokuError,
}

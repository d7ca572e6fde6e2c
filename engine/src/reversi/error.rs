//! Errors of the Reversi rules and of the Reversi record formats.

use super::notation::format_square;
use crate::{Color, Point};

/// Why a Reversi move, pass or position was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReversiError {
    /// The point lies outside the 8x8 board.
    #[error("the point ({x}, {y}) is off the 8x8 board")]
    OffBoard { x: u8, y: u8 },
    /// The square already holds a disc.
    #[error("{} is already taken", format_square(*.square))]
    Occupied { square: Point },
    /// The square is empty but a disc there would flip nothing.
    #[error("{} is not a legal move: it flips no disc", format_square(*.square))]
    NoFlips { square: Point },
    /// Neither side can move any more.
    #[error("the game is over")]
    GameOver,
    /// The side to move has no legal move; it must pass instead.
    #[error("{side} has no legal move and must pass")]
    MustPass { side: Color },
    /// A pass was asked for while the side to move has a legal move.
    #[error("{side} cannot pass while it has a legal move")]
    CannotPass { side: Color },
    /// A black and a white disc on the same square.
    #[error("black and white discs overlap on {count} square(s)")]
    Overlap { count: u32 },
}

/// Why a Reversi square, transcript or board string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Not a square name such as `f5`.
    #[error("\"{text}\" is not a square: expected a column a-h and a row 1-8, like f5")]
    BadSquare { text: String },
    /// A transcript move (1-based `index`) is not a square name.
    #[error("move {index} (\"{text}\") is not a square: expected a column a-h and a row 1-8")]
    BadMove { index: usize, text: String },
    /// A transcript move (1-based `index`) is not legal in the position it is played in.
    #[error("move {index} ({text}) cannot be played: {source}")]
    IllegalMove {
        index: usize,
        text: String,
        #[source]
        source: ReversiError,
    },
    /// The board string ends before its 64 squares.
    #[error("the board has only {found} squares; expected 64")]
    TooShort { found: usize },
    /// A board character (1-based `index`) that is not `-`, `X` or `O`.
    #[error("character {index} ('{found}') of the board is not '-', 'X' or 'O'")]
    BadCell { index: usize, found: char },
    /// Discs no game can reach (see [`super::notation::parse_board`]).
    #[error("no game reaches this board: {reason}")]
    Impossible { reason: &'static str },
    /// What follows the 64 squares is not a space and `X` or `O`.
    #[error(
        "after the 64 squares expected a space and X or O for the side to move, found \"{found}\""
    )]
    BadSide { found: String },
}

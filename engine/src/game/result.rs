//! How a game ended.

use serde::{Deserialize, Serialize};

use crate::gomoku::ForbiddenKind;
use crate::{Color, Point};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Gomoku: five (or, where allowed, more) in a row.
    Five,
    /// Renju: black played a forbidden point and lost.
    Forbidden,
    /// Reversi: neither side can move; decided by the disc count.
    NoMoves,
    Resignation,
    /// Gomoku: the board filled up without a five.
    BoardFull,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// Gomoku: the winning line; for a forbidden move, its point.
    pub line: Vec<Point>,
    /// Reversi: the final disc counts (black, white).
    pub discs: Option<(u32, u32)>,
    /// Renju: which kind of forbidden move ended the game.
    pub forbidden: Option<ForbiddenKind>,
}

//! The coach: what the last move did, as typed facts (no sentences), for the app to put into
//! words in the player's language.
//!
//! * Gomoku ([`gomoku`]): the fours, open fours and open threes the move made with the
//!   points that stop them (and, under Renju, whether such a point is forbidden for black),
//!   the four-three / double-three / double-four points it threatens, and whether the side
//!   to move now has a forced win (a VCF or VCT proven by the forcing reading,
//!   [`crate::ai::gomoku::threat::read`], within a node budget), with the line to show.
//! * Reversi ([`reversi`]): the corners the move gives the opponent, a pass it forces, and
//!   whether it was the only move that keeps the parity of the endgame solver's regions.
//!
//! Shapes come from the one line foundation ([`crate::gomoku::line`],
//! [`crate::gomoku::shapes_by_direction`]); nothing here reads lines of its own.

pub mod gomoku;
pub mod reversi;

use serde::Serialize;
use thiserror::Error;

use crate::game::Position;
use crate::gomoku::{ForbiddenKind, GomokuError};
use crate::reversi::ReversiError;
use crate::{Color, Move, Point};

/// A point where the defender may block, and whether black may not play it (Renju).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Block {
    pub point: Point,
    /// Under Renju, when the defender is black and the point is forbidden to it.
    pub forbidden: Option<ForbiddenKind>,
}

/// Two threats at once that one more stone of `color` would make at a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Combo {
    /// Two fours (四四).
    DoubleFour,
    /// A four and an open three (四三).
    FourThree,
    /// Two open threes (三三).
    DoubleThree,
}

/// How a forced win goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Forcing {
    /// Continuous fours (VCF).
    Vcf,
    /// Fours and open threes (VCT).
    Vct,
}

/// One thing the coach can say. `from`–`to` are the outermost stones of a shape in its line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fact {
    /// Gomoku: `color`'s move made a four (冲四); `defence` is the only point that stops it.
    Four { color: Color, from: Point, to: Point, defence: Block },
    /// Gomoku: `color`'s move made an open four (活四): two points make five, one stone
    /// cannot stop both.
    OpenFour { color: Color, from: Point, to: Point, points: Vec<Point> },
    /// Gomoku: `color`'s move made an open three (活三). `blocks` stop it best (the line is
    /// left weakest), `weaker` also stop it but leave the attacker a four to make.
    OpenThree { color: Color, from: Point, to: Point, blocks: Vec<Block>, weaker: Vec<Block> },
    /// Gomoku: one more stone of `color` on `point` would make `combo`.
    Threatens { color: Color, point: Point, combo: Combo },
    /// Gomoku: `color`, the side to move, has a forced win; `line` is a winning sequence
    /// (both sides' moves, the attacker's first), as far as the budget rebuilt it.
    ForcedWin { color: Color, by: Forcing, line: Vec<Point> },
    /// Reversi: the move lets `color` take these corners, which it could not before.
    GivesCorner { color: Color, corners: Vec<Point> },
    /// Reversi: `color` has no move after this one and must pass.
    MustPass { color: Color },
    /// Reversi: `color`'s move was its only legal move into a region (the endgame solver's
    /// quadrants, `from`–`to`) with an odd number of empty squares: the only one that keeps
    /// parity.
    KeepsParity { color: Color, point: Point, from: Point, to: Point },
}

/// Why the coach could not describe a move: it is not legal in the position given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CoachError {
    #[error(transparent)]
    Gomoku(#[from] GomokuError),
    #[error(transparent)]
    Reversi(#[from] ReversiError),
}

/// The facts about `mv`, played in `before`, and the position it leads to. `nodes` bounds
/// each forcing reading (Gomoku); a pass has nothing to say.
pub fn explain(before: &Position, mv: Move, nodes: u64) -> Result<Vec<Fact>, CoachError> {
    Ok(match (before, mv) {
        (_, Move::Pass) => Vec::new(),
        (Position::Gomoku(g), Move::Place(p)) => gomoku::explain(g, p, nodes)?,
        (Position::Reversi(r), Move::Place(p)) => reversi::explain(r, p)?,
    })
}

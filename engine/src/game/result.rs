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
    /// Reversi: neither side can move; decided by the disc count. Renju: black, to move, has
    /// only forbidden points left; a draw.
    NoMoves,
    Resignation,
    /// Gomoku: the board filled up without a five.
    BoardFull,
    /// A program lost without the rules ending the game (a match between programs:
    /// [`crate::game::Game::play_or_forfeit`]). Saved as `{"forfeit": "timeout"}`; the
    /// older reasons keep their plain names, so older saves open unchanged.
    Forfeit(ForfeitReason),
    /// The loser's clock ran out ([`crate::game::Clock`]). Saved as `"time"`.
    Time,
}

/// Why a program forfeited a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitReason {
    /// It answered with a move the rules refuse (or with no move at all).
    IllegalMove,
    /// It failed: exited, could not be started, or its search failed.
    Crash,
    /// It did not answer in time.
    Timeout,
}

impl std::fmt::Display for ForfeitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ForfeitReason::IllegalMove => "illegal move",
            ForfeitReason::Crash => "crash",
            ForfeitReason::Timeout => "timeout",
        })
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_reasons_keep_their_saved_names() {
        let name = |r: EndReason| serde_json::to_string(&r).unwrap();
        assert_eq!(name(EndReason::Resignation), "\"resignation\"");
        assert_eq!(name(EndReason::BoardFull), "\"board_full\"");
        let forfeit = EndReason::Forfeit(ForfeitReason::IllegalMove);
        assert_eq!(name(forfeit), r#"{"forfeit":"illegal_move"}"#);
        assert_eq!(name(EndReason::Time), "\"time\"");
        for r in [forfeit, EndReason::Five, EndReason::NoMoves, EndReason::Time] {
            assert_eq!(serde_json::from_str::<EndReason>(&name(r)).unwrap(), r);
        }
    }
}

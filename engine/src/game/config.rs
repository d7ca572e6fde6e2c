//! What kind of game is played, and by whom.

use serde::{Deserialize, Serialize};

use super::GameError;
use crate::ai::Level;
use crate::gomoku::{self, Rule};
use crate::Color;

pub const MIN_TIME_PER_MOVE_MS: u64 = 50;
pub const MAX_TIME_PER_MOVE_MS: u64 = 600_000;

/// The game and its variant. Serialised as `{"game":"gomoku","rule":"renju","size":15}` or
/// `{"game":"reversi"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum GameKind {
    Gomoku { rule: Rule, size: u8 },
    Reversi,
}

impl GameKind {
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Gomoku { .. } => "gomoku",
            GameKind::Reversi => "reversi",
        }
    }

    /// The board's width (and height).
    pub const fn size(self) -> u8 {
        match self {
            GameKind::Gomoku { size, .. } => size,
            GameKind::Reversi => 8,
        }
    }
}

/// Who plays one side. Serialised as `{"type":"human"}` or
/// `{"type":"computer","level":{"game":"gomoku","level":"master"}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PlayerKind {
    Human,
    Computer { level: Level },
}

impl PlayerKind {
    pub const fn is_human(self) -> bool {
        matches!(self, PlayerKind::Human)
    }
}

/// Everything needed to start a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameConfig {
    pub kind: GameKind,
    pub black: PlayerKind,
    pub white: PlayerKind,
    /// Thinking time per move for the levels that search by time.
    pub time_per_move_ms: u64,
}

impl GameConfig {
    /// Human (black) against a computer level (white), one second per move.
    pub fn human_vs(kind: GameKind, level: Level) -> GameConfig {
        GameConfig {
            kind,
            black: PlayerKind::Human,
            white: PlayerKind::Computer { level },
            time_per_move_ms: 1000,
        }
    }

    pub fn player(&self, color: Color) -> PlayerKind {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Checks the board size, the time, and that every computer level plays this game.
    pub fn validate(&self) -> Result<(), GameError> {
        if let GameKind::Gomoku { size, .. } = self.kind {
            if !(gomoku::MIN_SIZE..=gomoku::MAX_SIZE).contains(&size) {
                return Err(GameError::BadConfig(format!(
                    "the board size must be from {} to {}, not {size}",
                    gomoku::MIN_SIZE,
                    gomoku::MAX_SIZE
                )));
            }
        }
        if !(MIN_TIME_PER_MOVE_MS..=MAX_TIME_PER_MOVE_MS).contains(&self.time_per_move_ms) {
            return Err(GameError::BadConfig(format!(
                "the time per move must be from {MIN_TIME_PER_MOVE_MS} to {MAX_TIME_PER_MOVE_MS} ms, not {}",
                self.time_per_move_ms
            )));
        }
        for color in Color::BOTH {
            if let PlayerKind::Computer { level } = self.player(color) {
                if level.game_name() != self.kind.name() {
                    return Err(GameError::BadConfig(format!(
                        "{color} is set to the {level} level, which does not play {}",
                        self.kind.name()
                    )));
                }
            }
        }
        Ok(())
    }
}

use thiserror::Error;

use super::config::ConfigError;

use crate::gomoku::{GomokuError, NotationError, PsqError};
use crate::reversi::{self, ReversiError};

/// Why a game action was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error(transparent)]
    Gomoku(#[from] GomokuError),
    #[error(transparent)]
    Reversi(#[from] ReversiError),
    #[error("Gomoku has no passes")]
    NoPassInGomoku,
    #[error("the game is over")]
    GameOver,
    #[error("there is no move to undo")]
    NothingToUndo,
    #[error("there is no move to redo")]
    NothingToRedo,
    #[error("invalid game settings: {0}")]
    BadConfig(ConfigError),
}

/// Why a saved game or record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SaveError {
    #[error("not a Tengen save file: {0}")]
    Json(String),
    #[error("this save file is version {0}, newer than this version of Tengen understands")]
    NewerVersion(u32),
    #[error("the file's format is not recognised (expected a Tengen save, a PSQ record or a Reversi transcript)")]
    UnknownFormat,
    #[error("move {index} in the file cannot be played: {source}")]
    BadMove { index: usize, source: GameError },
    #[error(transparent)]
    Psq(#[from] PsqError),
    #[error(transparent)]
    GomokuNotation(#[from] NotationError),
    #[error(transparent)]
    Transcript(#[from] reversi::NotationError),
    #[error(transparent)]
    Config(#[from] GameError),
}

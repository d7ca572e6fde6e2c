use thiserror::Error;

use super::config::ConfigError;
use super::SetupError;
use crate::gomoku::{ForbiddenKind, GomokuError, NotationError, PsqError, Rule};
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
    /// An opening step out of turn or out of place.
    #[error(transparent)]
    Opening(#[from] super::opening::OpeningError),
    /// A node of the game tree that does not exist (or was deleted).
    #[error("there is no such move in the game")]
    NoSuchNode,
}

/// Why a move cannot be played now, as a value the app can name in words: the typed side of
/// the [`GameError`] that [`super::Game::check`] and [`super::Position::check`] give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalReason {
    OffBoard,
    Occupied,
    /// Renju: black may not play here.
    Forbidden(ForbiddenKind),
    /// Reversi: the disc would flip nothing.
    NoFlips,
    /// Reversi: the side to move has no legal move and must pass.
    MustPass,
    /// A pass while the rules do not allow one (Gomoku, or a Reversi side with a move).
    CannotPass,
    GameOver,
}

impl IllegalReason {
    /// The reason's stable snake_case code (`off_board`, `occupied`, `forbidden`, `no_flips`,
    /// `must_pass`, `cannot_pass`, `game_over`).
    pub const fn code(self) -> &'static str {
        match self {
            IllegalReason::OffBoard => "off_board",
            IllegalReason::Occupied => "occupied",
            IllegalReason::Forbidden(_) => "forbidden",
            IllegalReason::NoFlips => "no_flips",
            IllegalReason::MustPass => "must_pass",
            IllegalReason::CannotPass => "cannot_pass",
            IllegalReason::GameOver => "game_over",
        }
    }
}

impl GameError {
    /// Why the move was illegal, when this error is about a move breaking the rules; `None`
    /// for the other errors (nothing to undo, a bad configuration, a bad board size, …).
    pub fn illegal(&self) -> Option<IllegalReason> {
        Some(match self {
            GameError::Gomoku(e) => match e {
                GomokuError::OffBoard { .. } => IllegalReason::OffBoard,
                GomokuError::Occupied { .. } => IllegalReason::Occupied,
                GomokuError::Forbidden { kind, .. } => IllegalReason::Forbidden(*kind),
                GomokuError::GameOver => IllegalReason::GameOver,
                _ => return None,
            },
            GameError::Reversi(e) => match e {
                ReversiError::OffBoard { .. } => IllegalReason::OffBoard,
                ReversiError::Occupied { .. } => IllegalReason::Occupied,
                ReversiError::NoFlips { .. } => IllegalReason::NoFlips,
                ReversiError::MustPass { .. } => IllegalReason::MustPass,
                ReversiError::CannotPass { .. } => IllegalReason::CannotPass,
                ReversiError::GameOver => IllegalReason::GameOver,
                _ => return None,
            },
            GameError::NoPassInGomoku => IllegalReason::CannotPass,
            GameError::GameOver => IllegalReason::GameOver,
            GameError::NothingToUndo
            | GameError::NothingToRedo
            | GameError::BadConfig(_)
            | GameError::Opening(_)
            | GameError::NoSuchNode => return None,
        })
    }
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
    /// A record that names no rule, replayed under the rule chosen for it.
    #[error("move {index} in the file cannot be played under the {rule} rule: {source}")]
    NotUnderRule { index: usize, rule: Rule, source: GameError },
    /// Under Renju a forbidden move ends the game, so it can only be a record's last move.
    #[error("move {index} ({point}) is forbidden to black under Renju ({kind}), which ends the game, but the file goes on for {more} more move(s)")]
    MovesAfterForbidden { index: usize, point: String, kind: ForbiddenKind, more: usize },
    /// A saved record that is not what replaying the moves gives.
    #[error("record {index} in the file does not match the game: {what}")]
    Mismatch { index: usize, what: String },
    /// A move of the redo list cannot be played after the moves.
    #[error("move {index} of the file's redo list cannot be played: {source}")]
    BadRedo { index: usize, source: GameError },
    /// A move said to have taken longer than [`super::MAX_MOVE_MS`].
    #[error("move {index} in the file is said to have taken {ms} ms, more than a week")]
    BadTime { index: usize, ms: u64 },
    /// The stored result of a save contradicts its moves.
    #[error("the file's result does not follow from its moves: {0}")]
    BadResult(String),
    #[error(transparent)]
    Psq(#[from] PsqError),
    #[error(transparent)]
    GomokuNotation(#[from] NotationError),
    #[error(transparent)]
    Transcript(#[from] reversi::NotationError),
    #[error(transparent)]
    Config(#[from] GameError),
    /// The set-up position the game starts from is refused.
    #[error("the position set up in the file is refused: {0}")]
    Setup(SetupError),
    #[error("the file holds more than {limit} moves")]
    TooManyMoves { limit: usize },
    /// The opening's choices do not fit its rule or its stones.
    #[error("the opening in the file is refused: {0}")]
    Opening(super::opening::OpeningError),
}

impl From<SetupError> for SaveError {
    fn from(e: SetupError) -> SaveError {
        match e {
            SetupError::Game(e) => SaveError::Config(e),
            e => SaveError::Setup(e),
        }
    }
}

//! The game session shared by the app and the CLI: which game, who plays each side, the
//! moves with their times, undo/redo, the result, and the save formats.

mod clock;
mod config;
mod error;
pub mod opening;
mod position;
mod record;
mod result;
mod session;
mod setup;
mod tree;

pub use clock::{
    Clock, Flagged, TimeControl, TimeControlError, BASE_MS, MAX_INCREMENT_MS, PER_MOVE_MS,
    URGENT_MS,
};
pub use config::{
    ConfigError, GameConfig, GameKind, PlayerKind, DEFAULT_GOMOKU_SIZE, DEFAULT_TIME_PER_MOVE_MS,
    GOMOKU_SIZE_CHOICES, MAX_TIME_PER_MOVE_MS, MIN_TIME_PER_MOVE_MS, TIME_PER_MOVE_CHOICES_MS,
};
pub use error::{GameError, IllegalReason, SaveError};
pub use opening::{opening_name, OpeningRule, RenjuOpening};
pub use position::Position;
pub use record::{RecordKind, MAX_SAVED_NODES, SAVE_FORMAT, SAVE_VERSION};
pub use result::{EndReason, ForfeitReason, GameResult};
pub use session::{Game, MoveRecord, MAX_MOVE_MS};
pub use setup::{Setup, SetupError};
pub use tree::{NodeId, Tree, ROOT};

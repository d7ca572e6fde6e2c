//! The typed error every command answers with, serialised for the UI as
//! `{ "code": "snake_case_code", "message": "English sentence", "params": {...} }`.
//!
//! The UI shows a localized text for `code` (filled in with `params`) and falls back to
//! `message`.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use serde_json::{json, Value};
use tengen_engine::game::opening::OpeningError;
use tengen_engine::game::{GameError, IllegalReason, SetupError};
use tengen_engine::{Color, Move};

/// Everything a command can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The move breaks the rules; `detail` is the engine's own sentence.
    #[error("That move is not allowed: {detail}.")]
    IllegalMove { reason: IllegalReason, x: u8, y: u8, detail: String },
    /// A move was tried while the computer is choosing its own.
    #[error("The computer is thinking; please wait for its move.")]
    ComputerThinking,
    /// A move was tried for a side that the computer plays.
    #[error("It is not your turn: {color} is played by the computer.")]
    NotYourTurn { color: Color },
    /// "Computer plays here" where a person plays the side to move.
    #[error("{color} is played by a person: the computer does not move for them.")]
    NotComputersTurn { color: Color },
    #[error("There is no move to take back.")]
    NothingToUndo,
    #[error("There is no move to play again.")]
    NothingToRedo,
    #[error("The game is over.")]
    GameOver,
    /// A command argument is out of range or malformed.
    #[error("Invalid {field}: {detail}.")]
    InvalidArgument { field: &'static str, detail: String },
    /// The search threads setting is out of range.
    #[error("Search threads must be from 1 to {max}, not {value}.")]
    InvalidThreads { value: usize, max: usize },
    /// Reading or writing a file failed.
    #[error("Could not {action} {path}: {detail}.")]
    File { action: &'static str, path: String, detail: String },
    /// A file was read but is not a game Tengen understands.
    #[error("{path} is not a game Tengen can open: {detail}.")]
    BadFile { path: String, detail: String },
    /// The board editor is open: finish or cancel it first.
    #[error("Finish or cancel the board editor first.")]
    Editing,
    /// An editor step while the editor is closed.
    #[error("The board editor is not open.")]
    NotEditing,
    /// The position set up in the editor is refused; `reason` is the engine's code.
    #[error("This position cannot be played: {error}.")]
    BadSetup { error: SetupError },
    /// Pasted text that is not a game or position Tengen reads.
    #[error("The pasted text is not a game Tengen can open: {detail}.")]
    BadPaste { detail: String },
    /// The pause button in a game the computer plays (or without a clock).
    #[error("The clock can be paused only in a timed game without the computer.")]
    CannotPause,
    /// An external engine could not be added, checked or started (`problem`: `not_found`,
    /// `not_a_file`, `not_executable`, `no_answer`, `crashed`, `bad_answer`, `too_many`,
    /// `unknown`); `detail` is the protocol code's sentence.
    #[error("The engine {path} cannot be used ({problem}): {detail}.")]
    Engine { problem: &'static str, path: String, detail: String },
    /// The user closed a dialog, or a search was stopped before it found anything.
    #[error("Cancelled.")]
    Cancelled,
    /// An opening step out of turn or out of place; `error` names which (its own code).
    #[error("Not in this opening: {error}.")]
    Opening { error: OpeningError },
    /// Something that should not happen (a poisoned lock, an engine in the wrong game).
    #[error("Internal error: {0}.")]
    Internal(String),
}

impl AppError {
    /// The stable code the UI translates.
    pub fn code(&self) -> &'static str {
        match self {
            AppError::IllegalMove { .. } => "illegal_move",
            AppError::ComputerThinking => "computer_thinking",
            AppError::NotYourTurn { .. } => "not_your_turn",
            AppError::NotComputersTurn { .. } => "not_computers_turn",
            AppError::NothingToUndo => "nothing_to_undo",
            AppError::NothingToRedo => "nothing_to_redo",
            AppError::GameOver => "game_over",
            AppError::InvalidArgument { .. } => "invalid_argument",
            AppError::InvalidThreads { .. } => "invalid_threads",
            AppError::File { .. } => "file_error",
            AppError::BadFile { .. } => "bad_file",
            AppError::Editing => "editing",
            AppError::NotEditing => "not_editing",
            AppError::BadSetup { .. } => "bad_setup",
            AppError::BadPaste { .. } => "bad_paste",
            AppError::CannotPause => "cannot_pause",
            AppError::Engine { .. } => "engine_error",
            AppError::Cancelled => "cancelled",
            AppError::Opening { .. } => "opening",
            AppError::Internal(_) => "internal",
        }
    }

    /// The values the UI's localized text is filled in with.
    pub fn params(&self) -> Value {
        match self {
            AppError::IllegalMove { reason, x, y, .. } => {
                let mut v = json!({ "reason": reason.code(), "x": x, "y": y });
                if let IllegalReason::Forbidden(kind) = reason {
                    // ForbiddenKind's own serde name: `double_three`, `double_four`, `overline`.
                    v["kind"] = json!(kind);
                }
                v
            }
            AppError::NotYourTurn { color } | AppError::NotComputersTurn { color } => {
                json!({ "color": color })
            }
            AppError::InvalidThreads { value, max } => json!({ "value": value, "max": max }),
            AppError::InvalidArgument { field, detail } => {
                json!({ "field": field, "detail": detail })
            }
            AppError::File { action, path, detail } => {
                json!({ "action": action, "path": path, "detail": detail })
            }
            AppError::BadFile { path, detail } => json!({ "path": path, "detail": detail }),
            AppError::BadPaste { detail } => json!({ "detail": detail }),
            AppError::BadSetup { error } => setup_params(error),
            AppError::Internal(detail) => json!({ "detail": detail }),
            AppError::Engine { problem, path, detail } => json!({
                "problem": problem, "path": path, "detail": detail,
                "seconds": crate::engines::STARTUP.as_secs(),
            }),
            AppError::Opening { error } => opening_params(error),
            _ => json!({}),
        }
    }

    /// A game configuration the engine refused ([`GameConfig::validate`]): one out of range
    /// names its field (`size`, `timePerMoveMs`, `black`, `white`), anything else is about
    /// the whole `config`.
    ///
    /// [`GameConfig::validate`]: tengen_engine::game::GameConfig::validate
    pub fn config(e: GameError) -> AppError {
        match &e {
            GameError::BadConfig(c) => AppError::invalid(c.field(), c.to_string()),
            _ => AppError::invalid("config", e.to_string()),
        }
    }

    /// The engine refused to play `mv`: an illegal move names its reason (the engine's
    /// [`GameError::illegal`]) and the engine's sentence; any other refusal is internal.
    pub fn refused(e: GameError, mv: Move) -> AppError {
        if let GameError::Opening(error) = e {
            return AppError::Opening { error };
        }
        match e.illegal() {
            Some(reason) => {
                let (x, y) = mv.point().map_or((0, 0), |p| (p.x, p.y));
                AppError::IllegalMove { reason, x, y, detail: e.to_string() }
            }
            None => AppError::Internal(e.to_string()),
        }
    }

    /// Settings the app refused ([`crate::storage::Settings::validate`]).
    pub fn settings(e: crate::storage::SettingsError) -> AppError {
        match e {
            crate::storage::SettingsError::Threads { value, max } => {
                AppError::InvalidThreads { value, max }
            }
            e @ crate::storage::SettingsError::AnalysisLines { .. } => {
                AppError::invalid("analysisLines", e.to_string())
            }
            e @ crate::storage::SettingsError::EngineMemory { .. } => {
                AppError::invalid("engineMemoryMib", e.to_string())
            }
            crate::storage::SettingsError::Config(e) => AppError::config(e),
        }
    }

    /// Shorthand for [`AppError::InvalidArgument`].
    pub fn invalid(field: &'static str, detail: impl Into<String>) -> AppError {
        AppError::InvalidArgument { field, detail: detail.into() }
    }
}

impl Serialize for AppError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("AppError", 3)?;
        st.serialize_field("code", self.code())?;
        st.serialize_field("message", &self.to_string())?;
        st.serialize_field("params", &self.params())?;
        st.end()
    }
}

/// The parameters of a refused set-up: `reason` (the engine's code) and what the words need.
fn setup_params(e: &SetupError) -> Value {
    let mut v = json!({ "reason": e.code() });
    match e {
        SetupError::Five { color, .. } => v["color"] = json!(color),
        SetupError::Counts { black, white } => {
            v["black"] = json!(black);
            v["white"] = json!(white);
        }
        SetupError::SideToMove { expected } => v["expected"] = json!(expected),
        SetupError::MustPass { color, offer } => {
            v["color"] = json!(color);
            v["offer"] = json!(offer);
        }
        SetupError::OffBoard { point } | SetupError::Overlap { point } => {
            v["x"] = json!(point.x);
            v["y"] = json!(point.y);
        }
        SetupError::Game(g) => v["detail"] = json!(g.to_string()),
        SetupError::Overline { .. } | SetupError::CentreEmpty | SetupError::CutOff => {}
    }
    v
}

impl From<SetupError> for AppError {
    fn from(e: SetupError) -> AppError {
        match e {
            SetupError::Game(g) => AppError::config(g),
            error => AppError::BadSetup { error },
        }
    }
}

/// What commands return.
pub type AppResult<T> = Result<T, AppError>;

/// An opening refusal's parameters: its `reason` code and the numbers it names.
fn opening_params(error: &OpeningError) -> Value {
    let mut v = json!({ "reason": error.code() });
    match *error {
        OpeningError::OutsideArea { within } => v["size"] = json!(2 * within as u32 + 1),
        OpeningError::BadCount { count, max } => {
            v["count"] = json!(count);
            v["max"] = json!(max);
        }
        OpeningError::Forbidden(kind) => v["kind"] = json!(kind),
        _ => {}
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_code_message_and_params() {
        let e = AppError::IllegalMove {
            reason: IllegalReason::Forbidden(tengen_engine::gomoku::ForbiddenKind::DoubleThree),
            x: 6,
            y: 7,
            detail: "g8 is forbidden to black (double three)".into(),
        };
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v["code"], "illegal_move");
        assert_eq!(v["params"]["reason"], "forbidden");
        assert_eq!(v["params"]["kind"], "double_three");
        assert_eq!(v["params"]["x"], 6);
        assert!(v["message"].as_str().unwrap().contains("g8"));

        let v = serde_json::to_value(AppError::ComputerThinking).unwrap();
        assert_eq!(v["code"], "computer_thinking");
        assert_eq!(v["params"], json!({}));
        let v = serde_json::to_value(AppError::NotYourTurn { color: Color::White }).unwrap();
        assert_eq!(v["params"]["color"], "white");
    }

    #[test]
    fn threads_out_of_range_name_the_range() {
        let e = AppError::settings(crate::storage::SettingsError::Threads { value: 0, max: 64 });
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v["code"], "invalid_threads");
        assert_eq!(
            (v["params"]["value"].as_u64(), v["params"]["max"].as_u64()),
            (Some(0), Some(64))
        );
    }

    #[test]
    fn every_code_is_snake_case() {
        let all = [
            AppError::ComputerThinking,
            AppError::NotComputersTurn { color: Color::Black },
            AppError::NothingToUndo,
            AppError::NothingToRedo,
            AppError::GameOver,
            AppError::Editing,
            AppError::NotEditing,
            AppError::BadSetup { error: SetupError::CentreEmpty },
            AppError::BadPaste { detail: String::new() },
            AppError::Cancelled,
            AppError::invalid("size", "too big"),
            AppError::Internal("x".into()),
        ];
        for e in all {
            assert!(e.code().chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{}", e.code());
        }
    }
}

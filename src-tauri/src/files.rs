//! Saving and opening games: PSQ for Gomoku, the transcript (`f5d6c3...`) for Reversi, and
//! Tengen's own JSON. The file dialogs are a thin shell ([`ask_save_path`],
//! [`ask_open_path`]) around [`save_to`] and [`open_from`], which the tests use directly.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_dialog::Dialog;
use tengen_engine::ai::review::Review;
use tengen_engine::game::{Game, GameConfig, GameKind};
use tengen_engine::io::{read_text_bounded, ReadError, MAX_USER_FILE_BYTES};

use crate::error::{AppError, AppResult};
use crate::storage::write_atomic;

/// How to save a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The usual record of the game: PSQ for Gomoku, a transcript for Reversi.
    Record,
    /// Tengen's JSON: the whole session, with players, rule, times and the redo stack.
    Json,
}

/// What a file's text turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detected {
    Json,
    Psq,
    Transcript,
}

/// The text of `game` in `format`.
pub fn to_text(game: &Game, format: Format) -> String {
    match format {
        Format::Record => game.to_record(),
        Format::Json => game.to_json(),
    }
}

/// The usual file extension for `game` saved in `format`.
pub fn extension(game: &Game, format: Format) -> &'static str {
    match (format, &game.config().kind) {
        (Format::Json, _) => "json",
        (Format::Record, GameKind::Gomoku { .. }) => "psq",
        (Format::Record, GameKind::Reversi) => "txt",
    }
}

/// Saves `game` to `path` (atomically).
pub fn save_to(game: &Game, path: &Path, format: Format) -> AppResult<()> {
    save_reviewed(game, None, path, format)
}

/// Saves `game` to `path` (atomically), its JSON with `review` (records have no place for it).
pub fn save_reviewed(
    game: &Game,
    review: Option<&Review>,
    path: &Path,
    format: Format,
) -> AppResult<()> {
    let text = match (format, review) {
        (Format::Json, Some(r)) => game.to_json_with_review(Some(r)),
        _ => to_text(game, format),
    };
    write_atomic(path, text.as_bytes()).map_err(|e| AppError::File {
        action: "save",
        path: path.display().to_string(),
        detail: e.to_string(),
    })
}

/// Tells the format of a game file from its text.
pub fn detect(text: &str) -> Detected {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') {
        return Detected::Json;
    }
    let first = t.lines().next().unwrap_or("").trim();
    let numeric = |s: &str| {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        parts.len() >= 2
            && parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    };
    if first.to_ascii_lowercase().starts_with("piskvork") || numeric(first) {
        Detected::Psq
    } else {
        Detected::Transcript
    }
}

/// Reads a game from text in any format the engine reads (detected). `current` gives the
/// rule for PSQ files that do not name one (Piskvork's; Tengen's own name theirs) and the
/// players of records.
pub fn parse_text(text: &str, current: &GameConfig) -> Result<Game, String> {
    Game::open(text, current).map_err(|e| e.to_string())
}

/// Opens the game saved in `path`: a regular file of at most [`MAX_USER_FILE_BYTES`],
/// read with that bound whatever its metadata says (so a FIFO, a device or a `/proc` file
/// is refused or cut short, never read without end).
pub fn open_from(path: &Path, current: &GameConfig) -> AppResult<Game> {
    let text = read_from(path)?;
    let shown = path.display().to_string();
    parse_text(&text, current).map_err(|detail| AppError::BadFile { path: shown, detail })
}

/// The text of the game file `path`, read as [`open_from`] reads it.
pub fn read_from(path: &Path) -> AppResult<String> {
    let shown = path.display().to_string();
    read_text_bounded(path, MAX_USER_FILE_BYTES).map_err(|e| match e {
        ReadError::NotFound | ReadError::PermissionDenied | ReadError::Other(_) => {
            AppError::File { action: "open", path: shown.clone(), detail: e.to_string() }
        }
        ReadError::NotAFile | ReadError::TooLarge { .. } | ReadError::NotText => {
            AppError::BadFile { path: shown.clone(), detail: e.to_string() }
        }
    })
}

/// Asks where to save `game` (a file dialog); `Cancelled` when the user closes it.
pub async fn ask_save_path<R: Runtime>(
    app: &AppHandle<R>,
    game: &Game,
    format: Format,
) -> AppResult<PathBuf> {
    let dialog = app
        .try_state::<Dialog<R>>()
        .ok_or_else(|| AppError::Internal("file dialogs are not available".into()))?;
    let ext = extension(game, format);
    let (tx, rx) = tokio::sync::oneshot::channel();
    let name = match format {
        Format::Json => "Tengen game",
        Format::Record if ext == "psq" => "Gomoku record (PSQ)",
        Format::Record => "Reversi transcript",
    };
    dialog.file().add_filter(name, &[ext]).set_file_name(format!("tengen-game.{ext}")).save_file(
        move |p| {
            let _ = tx.send(p);
        },
    );
    let picked = rx.await.ok().flatten().ok_or(AppError::Cancelled)?;
    picked.into_path().map_err(|e| AppError::invalid("path", e.to_string()))
}

/// The file the end-to-end tests open through Open: the app started with
/// `--e2e-open=PATH` answers Open with PATH instead of the system's file dialog, which
/// WebDriver cannot drive (tests/e2e/open.test.mjs). Debug builds only: a release build has
/// no such argument.
#[cfg(debug_assertions)]
fn e2e_open_path() -> Option<PathBuf> {
    std::env::args_os()
        .skip(1)
        .find_map(|a| a.to_str().and_then(|a| a.strip_prefix("--e2e-open=")).map(PathBuf::from))
}

/// Asks which game file to open (a file dialog); `Cancelled` when the user closes it.
pub async fn ask_open_path<R: Runtime>(app: &AppHandle<R>) -> AppResult<PathBuf> {
    #[cfg(debug_assertions)]
    if let Some(path) = e2e_open_path() {
        return Ok(path);
    }
    let dialog = app
        .try_state::<Dialog<R>>()
        .ok_or_else(|| AppError::Internal("file dialogs are not available".into()))?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    dialog
        .file()
        .add_filter("Games (PSQ, transcript, Tengen JSON)", &["psq", "txt", "json"])
        .add_filter("All files", &["*"])
        .pick_file(move |p| {
            let _ = tx.send(p);
        });
    let picked = rx.await.ok().flatten().ok_or(AppError::Cancelled)?;
    picked.into_path().map_err(|e| AppError::invalid("path", e.to_string()))
}

/// Asks which program to add as an external engine (a file dialog); `Cancelled` when the
/// user closes it.
pub async fn ask_engine_path<R: Runtime>(app: &AppHandle<R>) -> AppResult<PathBuf> {
    let dialog = app
        .try_state::<Dialog<R>>()
        .ok_or_else(|| AppError::Internal("file dialogs are not available".into()))?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let builder = dialog.file().set_title("Gomocup engine (pbrain-*)");
    #[cfg(windows)]
    let builder = builder.add_filter("Programs", &["exe"]);
    builder.pick_file(move |p| {
        let _ = tx.send(p);
    });
    let picked = rx.await.ok().flatten().ok_or(AppError::Cancelled)?;
    picked.into_path().map_err(|e| AppError::invalid("path", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_the_three_formats() {
        assert_eq!(detect("{\"format\":\"tengen\"}"), Detected::Json);
        assert_eq!(detect("\u{feff}  {}"), Detected::Json);
        assert_eq!(detect("Piskvorky 15x15, 11:11, 0\n8,8,0\n"), Detected::Psq);
        assert_eq!(detect("8,8,120\n9,9,0\n"), Detected::Psq);
        assert_eq!(detect("f5d6c3d3c4"), Detected::Transcript);
        assert_eq!(detect("F5 D6 C3"), Detected::Transcript);
    }
}

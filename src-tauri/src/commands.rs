//! The IPC commands: thin functions that check their arguments, call the session and
//! publish the result (the snapshot is `snapshot.rs`, the events `events.rs`).

use serde::Serialize;
use serde_json::Value;
use tauri::{AppHandle, Manager, Runtime, State};
use tengen_engine::ai::{GomokuLevel, ReversiLevel};
use tengen_engine::game::GameConfig;

use crate::error::{AppError, AppResult};
use crate::files::{self, Format};
use crate::snapshot::Snapshot;
use crate::state::{self, AppState, Event, Session};
use crate::storage::Settings;

fn app_state<R: Runtime>(app: &AppHandle<R>) -> AppResult<State<'_, AppState>> {
    app.try_state::<AppState>().ok_or_else(|| AppError::Internal("the app is starting".into()))
}

/// Applies `change` to the session, announces it, starts the computer if it is its turn,
/// and answers with the new snapshot.
fn change<R: Runtime>(
    app: &AppHandle<R>,
    change: impl FnOnce(&mut Session) -> AppResult<Vec<Event>>,
) -> AppResult<Snapshot> {
    let events = {
        let st = app_state(app)?;
        let mut session = st.lock();
        let events = change(&mut session)?;
        // The player has seen the start-up notices by now.
        session.file_notices.clear();
        events
    };
    state::emit_events(app, events);
    state::kick(app);
    Ok(state::publish_snapshot(app))
}

/// Parses a JSON argument, answering `invalid_argument` when it does not fit.
fn parse_arg<T: serde::de::DeserializeOwned>(field: &'static str, v: Value) -> AppResult<T> {
    serde_json::from_value(v).map_err(|e| AppError::invalid(field, e.to_string()))
}

/// Starts a new game (`config` is a `GameConfig`).
#[tauri::command]
pub fn new_game<R: Runtime>(app: AppHandle<R>, config: Value) -> AppResult<Snapshot> {
    let config: GameConfig = parse_arg("config", config)?;
    change(&app, |s| s.new_game(config).map(|()| Vec::new()))
}

/// Plays the human's move at (x, y), 0-based from the top-left.
#[tauri::command]
pub fn play_move<R: Runtime>(app: AppHandle<R>, x: i64, y: i64) -> AppResult<Snapshot> {
    change(&app, |s| s.play_human(x, y))
}

/// Takes back the last move (against the computer, its reply and the human's move).
#[tauri::command]
pub fn undo<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    change(&app, |s| s.undo().map(|()| Vec::new()))
}

/// Plays again what undo took back.
#[tauri::command]
pub fn redo<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    change(&app, |s| s.redo())
}

/// The human resigns.
#[tauri::command]
pub fn resign<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    change(&app, |s| s.resign())
}

/// Looks for a move for the human; the hint arrives in a later snapshot.
#[tauri::command]
pub fn hint<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    state::start_hint(&app)?;
    Ok(state::publish_snapshot(&app))
}

/// Makes the computer play its best move so far.
#[tauri::command]
pub fn stop_thinking<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    app_state(&app)?.lock().stop_thinking();
    Ok(app_state(&app)?.lock().snapshot())
}

/// The current snapshot.
#[tauri::command]
pub fn get_snapshot<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    #[cfg(feature = "bench")]
    crate::bench::mark_first_snapshot();
    Ok(app_state(&app)?.lock().snapshot())
}

/// Saves the game through a file dialog: `format` is `"record"` (PSQ / transcript) or
/// `"json"`. Answers with the path written.
#[tauri::command]
pub async fn save_game<R: Runtime>(app: AppHandle<R>, format: Value) -> AppResult<String> {
    let format: Format = parse_arg("format", format)?;
    let game = app_state(&app)?.lock().game.clone();
    let path = files::ask_save_path(&app, &game, format).await?;
    files::save_to(&game, &path, format)?;
    Ok(path.display().to_string())
}

/// Opens a game through a file dialog (PSQ, transcript or Tengen JSON, detected).
#[tauri::command]
pub async fn open_game<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    let path = files::ask_open_path(&app).await?;
    let current = *app_state(&app)?.lock().game.config();
    let game = files::open_from(&path, &current)?;
    change(&app, |s| s.load_game(game).map(|()| Vec::new()))
}

/// The settings.
#[tauri::command]
pub fn get_settings<R: Runtime>(app: AppHandle<R>) -> AppResult<Settings> {
    Ok(app_state(&app)?.lock().settings.clone())
}

/// Replaces the settings (checked), saves them and answers with them.
#[tauri::command]
pub fn set_settings<R: Runtime>(app: AppHandle<R>, settings: Value) -> AppResult<Settings> {
    let mut settings: Settings = parse_arg("settings", settings)?;
    if let Some(v) = settings.last_config.take() {
        let config: GameConfig = parse_arg("lastConfig", v)?;
        config.validate().map_err(AppError::config)?;
        // Kept as read back, so nothing else the page put in the value reaches the disk.
        settings.last_config = serde_json::to_value(config).ok();
    }
    let st = app_state(&app)?;
    st.lock().settings = settings.clone();
    st.persist_settings(&settings);
    Ok(settings)
}

/// The human's wins, losses and draws against each level.
#[tauri::command]
pub fn get_stats<R: Runtime>(app: AppHandle<R>) -> AppResult<Vec<crate::stats::StatsRow>> {
    Ok(app_state(&app)?.lock().stats.0.clone())
}

/// A level as `list_levels` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LevelEntry {
    pub game: &'static str,
    pub level: &'static str,
    /// 1 for the weakest level of its game.
    pub rank: usize,
}

/// Every level, each game's weakest first.
pub fn levels() -> Vec<LevelEntry> {
    let gomoku = GomokuLevel::ALL.iter().enumerate().map(|(i, l)| LevelEntry {
        game: "gomoku",
        level: l.name(),
        rank: i + 1,
    });
    let reversi = ReversiLevel::ALL.iter().enumerate().map(|(i, l)| LevelEntry {
        game: "reversi",
        level: l.name(),
        rank: i + 1,
    });
    gomoku.chain(reversi).collect()
}

/// Every level, each game's weakest first.
#[tauri::command]
pub fn list_levels() -> Vec<LevelEntry> {
    levels()
}

//! The IPC commands: thin functions over typed arguments that call the session and publish
//! the result (the snapshot is `snapshot.rs`, the events `events.rs`).
//!
//! Every command runs on Tauri's async runtime (`async fn`, or `#[tauri::command(async)]` for
//! the short synchronous ones), never on the main thread: that thread runs the GTK loop that
//! draws the window and delivers events to the page, and a command waiting there for the
//! session's lock would delay every other round trip behind it. Answers and events then reach
//! the page from several threads in no fixed order; each snapshot carries its number
//! (`Snapshot::seq`) and the page draws only the newest.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use tauri::ipc::{CommandArg, CommandItem, InvokeError};
use tauri::{AppHandle, Manager, Runtime, State};
use tengen_engine::game::opening::Choice;
use tengen_engine::game::GameConfig;

use crate::analysis::{self, AnalysisHandle, AnalysisSettings};
use crate::engines::{self, EngineEntry, Engines};
use crate::error::{AppError, AppResult};
use crate::files::{self, Format};
use crate::runtime::{self, AppState};
use crate::session::{ClockOp, CopyWhat, EditOp, Event, Nav, Session, VariationAction};
use crate::snapshot::Snapshot;
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
    runtime::emit_events(app, events);
    runtime::kick(app);
    Ok(runtime::publish_snapshot(app))
}

/// A typed command argument. Tauri answers an argument that does not deserialise with a
/// bare string; through `Arg` it is the app's `invalid_argument` error instead, naming the
/// argument and serde's reason, which the UI puts in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg<T>(pub T);

impl<'de, T: DeserializeOwned, R: Runtime> CommandArg<'de, R> for Arg<T> {
    fn from_command(command: CommandItem<'de, R>) -> Result<Self, InvokeError> {
        let key = command.key;
        T::deserialize(command)
            .map(Arg)
            .map_err(|e| InvokeError::from(AppError::invalid(key, e.to_string())))
    }
}

/// Starts a new game (checked by `GameConfig::validate`, as every game that enters the app).
#[tauri::command(async)]
pub fn new_game<R: Runtime>(app: AppHandle<R>, config: Arg<GameConfig>) -> AppResult<Snapshot> {
    change(&app, |s| s.new_game(config.0).map(|()| Vec::new()))
}

/// Plays the human's move at (x, y), 0-based from the top-left.
#[tauri::command(async)]
pub fn play_move<R: Runtime>(app: AppHandle<R>, x: Arg<u8>, y: Arg<u8>) -> AppResult<Snapshot> {
    change(&app, |s| s.play_human(x.0, y.0))
}

/// The human's opening choice (`{"kind":"take","color":"white"}`, `{"kind":"place_two"}`,
/// `{"kind":"declare","count":3}`, `{"kind":"offer","point":{"x":7,"y":5}}`,
/// `{"kind":"pick","point":{...}}`); a pick plays its stone.
#[tauri::command(async)]
pub fn opening_choice<R: Runtime>(app: AppHandle<R>, choice: Arg<Choice>) -> AppResult<Snapshot> {
    change(&app, |s| s.opening_choice(choice.0))
}

/// "Computer plays here": at a position stepped back to where the computer is to move, it
/// moves from there (its move starts a variation, or follows the line).
#[tauri::command(async)]
pub fn computer_play<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    change(&app, |s| s.computer_plays_here().map(|()| Vec::new()))
}

/// Takes back the last move (against the computer, its reply and the human's move).
#[tauri::command(async)]
pub fn undo<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    change(&app, |s| s.undo().map(|()| Vec::new()))
}

/// Plays again what undo took back.
#[tauri::command(async)]
pub fn redo<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    change(&app, |s| s.redo())
}

/// The human resigns.
#[tauri::command(async)]
pub fn resign<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    change(&app, |s| s.resign())
}

/// The clock: the pause and resume buttons (pause only without a computer), and a dialog
/// opened or closed (the clock stands still while one is open).
#[tauri::command(async)]
pub fn clock<R: Runtime>(app: AppHandle<R>, op: Arg<ClockOp>) -> AppResult<Snapshot> {
    change(&app, |s| s.clock_op(op.0).map(|()| Vec::new()))
}

/// Looks for a move for the human; the hint arrives in a later snapshot.
#[tauri::command(async)]
pub fn hint<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    runtime::start_hint(&app)?;
    Ok(runtime::publish_snapshot(&app))
}

/// Makes the computer play its best move so far.
#[tauri::command(async)]
pub fn stop_thinking<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    app_state(&app)?.lock().stop_thinking();
    Ok(app_state(&app)?.lock().snapshot())
}

/// The current snapshot.
#[tauri::command(async)]
pub fn get_snapshot<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    #[cfg(feature = "bench")]
    crate::bench::mark_first_snapshot();
    Ok(app_state(&app)?.lock().snapshot())
}

/// Saves the game through a file dialog: `format` is `"record"` (PSQ / transcript) or
/// `"json"`. Answers with the path written.
#[tauri::command]
pub async fn save_game<R: Runtime>(app: AppHandle<R>, format: Arg<Format>) -> AppResult<String> {
    let Arg(format) = format;
    let (game, review) = {
        let st = app_state(&app)?;
        let session = st.lock();
        (session.game.clone(), session.review.review.clone())
    };
    let path = files::ask_save_path(&app, &game, format).await?;
    files::save_reviewed(&game, review.as_ref(), &path, format)?;
    Ok(path.display().to_string())
}

/// Opens a game through a file dialog (PSQ, transcript or Tengen JSON, detected).
#[tauri::command]
pub async fn open_game<R: Runtime>(app: AppHandle<R>) -> AppResult<Snapshot> {
    let path = files::ask_open_path(&app).await?;
    let current = *app_state(&app)?.lock().game.config();
    let text = files::read_from(&path)?;
    let game = files::parse_text(&text, &current)
        .map_err(|detail| AppError::BadFile { path: path.display().to_string(), detail })?;
    // A review saved with the game comes back with it (checked against its main line).
    let review = game.stored_review(&text);
    change(&app, |s| {
        s.load_game(game)?;
        s.take_stored_review(review);
        Ok(Vec::new())
    })
}

/// Steps through the game (back, forward, first, last, a ply of the line shown, a node):
/// changes the position shown, never what was played.
#[tauri::command(async)]
pub fn navigate<R: Runtime>(app: AppHandle<R>, nav: Arg<Nav>) -> AppResult<Snapshot> {
    change(&app, |s| s.navigate(nav.0).map(|()| Vec::new()))
}

/// Makes the line through `node` the main line, or deletes `node` and what follows it.
#[tauri::command(async)]
pub fn variation<R: Runtime>(
    app: AppHandle<R>,
    action: Arg<VariationAction>,
    node: Arg<u32>,
) -> AppResult<Snapshot> {
    change(&app, |s| s.variation(action.0, node.0).map(|()| Vec::new()))
}

/// One step of the board editor (enter, set a point, clear, side to move, from the position
/// shown, cancel, done: check and start a game from the position).
#[tauri::command(async)]
pub fn edit<R: Runtime>(app: AppHandle<R>, op: Arg<EditOp>) -> AppResult<Snapshot> {
    change(&app, |s| s.edit(op.0).map(|()| Vec::new()))
}

/// Opens pasted text: a move list, a PSQ record, a Reversi transcript or board string, or
/// Tengen's JSON; the snapshot's notice says which it was.
#[tauri::command(async)]
pub fn paste_game<R: Runtime>(app: AppHandle<R>, text: Arg<String>) -> AppResult<Snapshot> {
    change(&app, |s| s.paste(&text.0).map(|()| Vec::new()))
}

/// The text to copy: the line shown (`line`) or the position shown (`position`).
#[tauri::command(async)]
pub fn copy_text<R: Runtime>(app: AppHandle<R>, what: Arg<CopyWhat>) -> AppResult<String> {
    Ok(app_state(&app)?.lock().copy_text(what.0))
}

/// The settings.
#[tauri::command(async)]
pub fn get_settings<R: Runtime>(app: AppHandle<R>) -> AppResult<Settings> {
    #[cfg(feature = "bench")]
    crate::bench::mark("first-settings");
    Ok(app_state(&app)?.lock().settings.clone())
}

/// Replaces the settings (checked), saves them and answers with them.
#[tauri::command(async)]
pub fn set_settings<R: Runtime>(app: AppHandle<R>, settings: Arg<Settings>) -> AppResult<Settings> {
    let Arg(settings) = settings;
    settings.validate().map_err(AppError::settings)?;
    let st = app_state(&app)?;
    st.lock().settings = settings.clone();
    st.persist_settings(&settings);
    // Turning the coach on describes the position shown.
    crate::coach::refresh(&app);
    Ok(settings)
}

/// The human's wins, losses and draws against each level.
#[tauri::command(async)]
pub fn get_stats<R: Runtime>(app: AppHandle<R>) -> AppResult<Vec<crate::stats::StatsRow>> {
    Ok(app_state(&app)?.lock().stats.0.clone())
}

/// The analysis switch and how many lines it lists.
#[tauri::command(async)]
pub fn get_analysis<R: Runtime>(app: AppHandle<R>) -> AppResult<AnalysisSettings> {
    Ok(analysis_handle(&app)?.lock().settings())
}

/// Switches live analysis on or off with `lines` best moves (1 to 5); it starts, stops or
/// restarts at once, and its results arrive as `analysis` events.
#[tauri::command(async)]
pub fn set_analysis<R: Runtime>(
    app: AppHandle<R>,
    on: Arg<bool>,
    lines: Arg<u8>,
) -> AppResult<AnalysisSettings> {
    let settings = analysis_handle(&app)?.lock().set(on.0, lines.0)?;
    analysis::sync(&app);
    Ok(settings)
}

/// The page says whether it is shown: a hidden window pauses analysis and the clock.
#[tauri::command(async)]
pub fn analysis_visible<R: Runtime>(app: AppHandle<R>, visible: Arg<bool>) -> AppResult<()> {
    analysis_handle(&app)?.lock().set_visible(visible.0);
    // Publishing the snapshot syncs analysis too.
    change(&app, |s| {
        s.set_visible(visible.0);
        Ok(Vec::new())
    })?;
    Ok(())
}

fn analysis_handle<R: Runtime>(app: &AppHandle<R>) -> AppResult<State<'_, AnalysisHandle>> {
    app.try_state::<AnalysisHandle>()
        .ok_or_else(|| AppError::Internal("the app is starting".into()))
}

/// Game review of the main line: `start` runs it in the background (progress as
/// `review-progress`, the result as the `review` event), `cancel` stops it, `get` reads it.
/// Refused while the computer chooses its move or the board editor is open.
#[tauri::command(async)]
pub fn review<R: Runtime>(
    app: AppHandle<R>,
    action: Arg<crate::review::ReviewAction>,
) -> AppResult<crate::review::ReviewView> {
    crate::review::act(&app, action.0)
}

/// The external engines the user added.
#[tauri::command(async)]
pub fn engines_list<R: Runtime>(app: AppHandle<R>) -> AppResult<Engines> {
    Ok(app_state(&app)?.lock().engine_list.clone())
}

/// Adds an external engine of `protocol` (`gomocup`, the default, or `nboard`): the user
/// chooses its file in a file dialog (the page never names a path), Tengen starts it once
/// and asks `ABOUT` (NBoard: `ping 1`). Answers the new entry, or why the file is not such
/// an engine (`engine_error`); `cancelled` when the dialog is closed.
#[tauri::command]
pub async fn engine_add<R: Runtime>(
    app: AppHandle<R>,
    protocol: Arg<Option<engines::Protocol>>,
) -> AppResult<EngineEntry> {
    let protocol = protocol.0.unwrap_or_default();
    let path = files::ask_engine_path(&app).await?;
    let checked = app.clone();
    tauri::async_runtime::spawn_blocking(move || add_engine(&checked, path, protocol))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?
}

/// Checks `path` (a file the user chose) as an engine of `protocol` and adds it to the
/// engine list (blocks while the engine starts: at most [`engines::STARTUP`]). The tests add
/// their fake engines through it.
pub fn add_engine<R: Runtime>(
    app: &AppHandle<R>,
    path: PathBuf,
    protocol: engines::Protocol,
) -> AppResult<EngineEntry> {
    let path = std::fs::canonicalize(&path).unwrap_or(path);
    let about = engines::probe(&path, protocol)?;
    let st = app_state(app)?;
    let mut session = st.lock();
    let entry = session.engine_list.add(path, protocol, about, engines::now_secs())?.clone();
    st.persist_engines(&session.engine_list);
    Ok(entry)
}

/// Starts engine `id` again and asks `ABOUT` (NBoard: `ping 1`): answers the entry with the
/// fresh answer, or why it no longer works.
#[tauri::command]
pub async fn engine_check<R: Runtime>(app: AppHandle<R>, id: Arg<u32>) -> AppResult<EngineEntry> {
    let Arg(id) = id;
    let unknown = || AppError::engine("unknown", Path::new(""), format!("#{id}"));
    let entry = app_state(&app)?.lock().engine_list.get(id).ok_or_else(unknown)?.clone();
    let (path, protocol) = (entry.path, entry.protocol);
    let about = tauri::async_runtime::spawn_blocking(move || engines::probe(&path, protocol))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??;
    let st = app_state(&app)?;
    let mut session = st.lock();
    session.engine_list.update_about(id, about);
    st.persist_engines(&session.engine_list);
    session.engine_list.get(id).cloned().ok_or_else(unknown)
}

/// Removes engine `id` (a side of the current game that it played becomes human); answers
/// the list.
#[tauri::command(async)]
pub fn engine_remove<R: Runtime>(app: AppHandle<R>, id: Arg<u32>) -> AppResult<Engines> {
    let list = {
        let st = app_state(&app)?;
        let mut session = st.lock();
        session.remove_engine(id.0)?;
        st.persist_engines(&session.engine_list);
        session.engine_list.clone()
    };
    runtime::publish_snapshot(&app);
    Ok(list)
}

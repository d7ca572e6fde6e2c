//! The Tauri wiring of the session: the managed state (the [`Session`] behind a mutex, and
//! where it is kept on disk), the events it sends, and the hand-off of its searches to the
//! worker on the blocking pool.

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tauri::{AppHandle, Emitter, Manager, Runtime};
use tengen_engine::ai::{CancelFlag, SearchInfo};
use tengen_engine::game::Game;

use crate::engines::{Engines, ENGINES_FILE};
use crate::error::AppResult;
use crate::events::{self, AiProgress, ScoredPoint};
use crate::session::{default_config, Event, Job, Outcome, SearchPlan, Session};
use crate::snapshot::Snapshot;
use crate::stats::{Stats, STATS_FILE};
use crate::storage::{Saver, Settings, Storage, GAME_FILE, SETTINGS_FILE};
use crate::worker;

/// The managed state: the session behind a mutex, and where it is kept on disk.
pub struct AppState {
    session: Mutex<Session>,
    pub storage: Storage,
    pub saver: Saver,
    /// The task that wakes when the running clock's flag would fall (see [`watch_flag`]).
    flag_timer: Mutex<Option<tauri::async_runtime::JoinHandle<()>>>,
}

impl AppState {
    /// Opens the settings, the unfinished game and the statistics from `storage`; a missing,
    /// corrupt or unreadable file gives the defaults, and each corrupt or unreadable one a
    /// notice (`Session::file_notices`).
    pub fn open(storage: Storage) -> Result<AppState, String> {
        let (mut settings, settings_notice) = storage.load_settings();
        let (game, game_notice) = storage
            .load(GAME_FILE, |t| {
                let game = Game::from_json(t).map_err(|e| e.to_string())?;
                // The limits are checked again whatever the loader checked.
                game.config().validate().map_err(|e| e.to_string())?;
                let review = game.stored_review(t);
                Ok(Some((game, review)))
            })
            .or_default(None);
        let (game, review) = game.unzip();
        let (stats, stats_notice) =
            storage.load(STATS_FILE, Stats::from_json).or_default(Stats::default());
        let ((engine_list, _dropped), engines_notice) = storage
            .load(ENGINES_FILE, Engines::from_json_lenient)
            .or_default((Engines::default(), 0));
        // The last configuration is offered again only if it is still a valid one (the one
        // check of every way a game enters the app: `Game::new` validates it).
        let last_game = settings.last_config.and_then(|c| Game::new(c).ok());
        if last_game.is_none() {
            settings.last_config = None;
        }
        let restored = game.is_some();
        let game = game
            .or(last_game)
            .or_else(|| Game::new(default_config()).ok())
            .ok_or("the engine refused the default game")?;
        let mut session = Session::new(game, settings);
        session.stats = stats;
        // The restored game's review (checked against it; one that does not fit is dropped
        // with a notice).
        session.take_stored_review(review.flatten());
        let review_notice = session.notice.take();
        session.file_notices =
            [settings_notice, game_notice, stats_notice, engines_notice, review_notice]
                .into_iter()
                .flatten()
                .collect();
        // A restored game keeps an external side only if its engine is still in the list
        // (the first snapshot's notice says when it did not).
        session.set_engine_list(engine_list);
        // A restored game waits for its player (after the engines: a side whose engine left
        // the list is a person's now).
        if restored {
            session.restored();
        }
        Ok(AppState {
            session: Mutex::new(session),
            storage,
            saver: Saver::start(),
            flag_timer: Mutex::new(None),
        })
    }

    /// The session, also after a panic elsewhere poisoned the lock.
    pub fn lock(&self) -> MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Saves the unfinished game (or removes the file once the game is over) and the
    /// settings, atomically and off the calling thread.
    pub fn persist(&self, session: &Session) {
        if let Some(path) = self.storage.save_path(GAME_FILE) {
            if session.game.result().is_none() {
                self.saver
                    .write(path, session.game.to_json_with_review(session.review.review.as_ref()));
            } else {
                self.saver.remove(path);
            }
        }
        self.persist_settings(&session.settings);
    }

    /// Saves the engine list atomically, off the calling thread.
    pub fn persist_engines(&self, list: &Engines) {
        if let (Some(path), Ok(text)) =
            (self.storage.save_path(ENGINES_FILE), serde_json::to_string_pretty(list))
        {
            self.saver.write(path, text);
        }
    }

    /// Saves the settings atomically, off the calling thread.
    pub fn persist_settings(&self, settings: &Settings) {
        if let (Some(path), Ok(text)) =
            (self.storage.save_path(SETTINGS_FILE), serde_json::to_string_pretty(settings))
        {
            self.saver.write(path, text);
        }
    }
}

/// Sends the events of a change (`move-played`, `game-over`).
pub fn emit_events<R: Runtime>(app: &AppHandle<R>, events: Vec<Event>) {
    for e in events {
        let _ = match e {
            Event::MovePlayed(m) => app.emit(events::MOVE_PLAYED, m),
            Event::GameOver(g) => app.emit(events::GAME_OVER, g),
        };
    }
}

/// Saves the game and sends the current snapshot; answers with it.
pub fn publish_snapshot<R: Runtime>(app: &AppHandle<R>) -> Snapshot {
    let Some(state) = app.try_state::<AppState>() else {
        return Snapshot::empty();
    };
    let (snap, until_flag) = {
        let mut session = state.lock();
        if session.count_result() {
            if let (Some(path), Ok(text)) =
                (state.storage.save_path(STATS_FILE), serde_json::to_string_pretty(&session.stats))
            {
                state.saver.write(path, text);
            }
        }
        // The snapshot brings the clock up to date (and the game's time on the move, which
        // the save keeps) before the game is saved.
        let snap = session.snapshot();
        state.persist(&session);
        (snap, session.until_flag(Instant::now()))
    };
    watch_flag(app, &state, until_flag);
    let _ = app.emit(events::SNAPSHOT, &snap);
    // Every change of the game passes here: analysis follows the position shown, and a
    // review cut by a change of the main line is sent again.
    crate::review::sync(app);
    crate::analysis::sync(app);
    crate::coach::refresh(app);
    snap
}

/// Wakes when the running side's flag would fall (`until`; `None`: no clock runs) and ends
/// the game on time if it has; replaces the previous wake-up. A sleep until that moment,
/// not a poll: every change of the clock publishes a snapshot, which calls this again.
fn watch_flag<R: Runtime>(app: &AppHandle<R>, state: &AppState, until: Option<Duration>) {
    let mut timer = state.flag_timer.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(old) = timer.take() {
        old.abort();
    }
    let Some(mut until) = until else { return };
    let app = app.clone();
    *timer = Some(tauri::async_runtime::spawn(async move {
        loop {
            // The clock counts whole milliseconds: one more is past the flag.
            tokio::time::sleep(until + Duration::from_millis(1)).await;
            let Some(state) = app.try_state::<AppState>() else { return };
            let now = Instant::now();
            let (events, next) = {
                let mut session = state.lock();
                let events = session.check_flag(now);
                (events, session.until_flag(now))
            };
            if let Some(events) = events {
                emit_events(&app, events);
                publish_snapshot(&app);
                return;
            }
            match next {
                Some(next) => until = next,
                None => return,
            }
        }
    }));
}

/// Starts the computer's search if it is its turn.
pub fn kick<R: Runtime>(app: &AppHandle<R>) {
    let Some(state) = app.try_state::<AppState>() else { return };
    let plan = state.lock().next_job();
    if let Some(plan) = plan {
        launch(app, plan);
    }
}

/// Starts a hint search; the hint arrives in a later snapshot.
pub fn start_hint<R: Runtime>(app: &AppHandle<R>) -> AppResult<()> {
    let Some(state) = app.try_state::<AppState>() else { return Ok(()) };
    let plan = state.lock().hint_job()?;
    if let Some(plan) = plan {
        launch(app, plan);
    }
    Ok(())
}

fn launch<R: Runtime>(app: &AppHandle<R>, plan: SearchPlan) {
    let job = plan.job.clone();
    // The principal variation is shown in the game's notation.
    let position = plan.position.clone();
    let progress_app = app.clone();
    let done_app = app.clone();
    let search =
        move |cancel: &CancelFlag, report: &mut dyn FnMut(&SearchInfo)| plan.search(cancel, report);
    let progress = move |job: &Job, info: &SearchInfo| {
        let Some(state) = progress_app.try_state::<AppState>() else { return };
        if !state.lock().progress(job, info) {
            return;
        }
        let _ = progress_app.emit(
            events::AI_PROGRESS,
            AiProgress {
                generation: job.generation,
                color: job.color,
                purpose: job.purpose.name(),
                depth: info.depth,
                seldepth: info.seldepth,
                nodes: info.nodes,
                nps: info.nps,
                score: info.score,
                pv: info.pv.iter().map(|&m| position.move_label(m)).collect(),
                candidates: ScoredPoint::list(&info.candidates),
            },
        );
    };
    let done = move |job: &Job, outcome: Outcome| {
        let Some(state) = done_app.try_state::<AppState>() else { return };
        let applied = state.lock().finish(job, outcome);
        if let Some(events) = applied {
            emit_events(&done_app, events);
            kick(&done_app);
            publish_snapshot(&done_app);
        }
    };
    worker::spawn(job, search, progress, done);
}

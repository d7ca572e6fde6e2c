//! The managed state: the game session, the generation counter, what the computer is
//! thinking about, the hint and the last search's candidates.
//!
//! [`Session`] holds the rules of the session (who may move, undo in pairs against the
//! computer, hints, results of searches) and knows nothing of Tauri; [`AppState`] wraps it
//! in a mutex for the commands and the worker, and [`publish`] / [`kick`] connect it to the
//! app: events out, searches started.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::json;
use tauri::{AppHandle, Emitter, Manager, Runtime};
use tengen_engine::ai::{limits_for, AnyEngine, CancelFlag, Candidate, Level, Limits, SearchInfo};
use tengen_engine::game::{Game, GameConfig, GameKind, PlayerKind, Position};
use tengen_engine::gomoku::{ForbiddenKind, GomokuError};
use tengen_engine::{Color, Move, Point};

use crate::error::{AppError, AppResult, IllegalReason};
use crate::events::{self, AiProgress, By, GameOver, MovePlayed, Notice, ScoredPoint};
use crate::snapshot::{self, Snapshot};
use crate::stats::{Stats, STATS_FILE};
use crate::storage::{Saver, Settings, Storage, GAME_FILE, SETTINGS_FILE};
use crate::worker::{self, Job, Outcome, Purpose};

/// The pause before each move of a computer-vs-computer game, so people can watch.
pub const WATCH_DELAY: Duration = Duration::from_millis(400);

/// A search under way.
#[derive(Clone, Debug)]
pub struct Thinking {
    pub color: Color,
    pub purpose: Purpose,
    pub generation: u64,
    pub cancel: CancelFlag,
    /// The latest progress report, if any arrived yet.
    pub info: Option<SearchInfo>,
}

/// An engine shared between searches of one side (so it keeps its tables), created on the
/// worker thread the first time it is needed.
type EngineSlot = Arc<Mutex<Option<(Level, AnyEngine)>>>;

/// Everything a search needs, taken from the session under its lock.
pub struct SearchPlan {
    pub job: Job,
    pub level: Level,
    slot: EngineSlot,
    pub position: Position,
    pub limits: Limits,
    pub seed: u64,
    factory: EngineFactory,
}

/// Makes the engine for a level (the real one by default; tests put in their own).
pub type EngineFactory = Arc<dyn Fn(Level, u64) -> AnyEngine + Send + Sync>;

/// Something that happened and is announced by an event (besides the snapshot).
#[derive(Clone, Debug)]
pub enum Event {
    MovePlayed(MovePlayed),
    GameOver(GameOver),
}

/// The game session and everything the UI shows about it.
pub struct Session {
    pub game: Game,
    /// Bumped by every change; a search result for an older generation is dropped.
    pub generation: u64,
    pub thinking: Option<Thinking>,
    pub hint: Option<Point>,
    /// Candidates of the last search (AI move or hint), for the heat map.
    pub heat: Vec<Candidate>,
    pub notice: Option<Notice>,
    /// What start-up found wrong with the app's own files (each corrupt file moved aside,
    /// each file that could not be read); kept until the player's first change, so the UI
    /// sees them however late it asks.
    pub file_notices: Vec<Notice>,
    /// Reversi: discs flipped by the last move.
    pub flipped: Vec<Point>,
    pub settings: Settings,
    /// The human's results against the computer levels.
    pub stats: Stats,
    /// Whether the current game's result is already in `stats`.
    counted: bool,
    /// When the side to move started thinking (for the move times of the record).
    pub turn_started: Instant,
    /// The generation at which the engine last failed: no new search starts by itself
    /// until something changes (so a broken level does not fail again and again).
    stalled_at: Option<u64>,
    /// The pause before each move when the computer plays both sides.
    pub watch_delay: Duration,
    /// Makes the engines (replaceable for tests).
    pub engine_factory: EngineFactory,
    engines: [EngineSlot; 2],
    hint_engine: EngineSlot,
    seed: u64,
}

/// The default game: Renju on 15x15, the human black against the middle Gomoku level.
pub fn default_config() -> GameConfig {
    GameConfig {
        kind: GameKind::Gomoku { rule: tengen_engine::gomoku::Rule::Renju, size: 15 },
        black: PlayerKind::Human,
        white: PlayerKind::Computer {
            level: Level::Gomoku(tengen_engine::ai::GomokuLevel::Pattern),
        },
        time_per_move_ms: 1000,
    }
}

/// The `forbidden` kind names of the contract.
pub fn forbidden_name(kind: ForbiddenKind) -> &'static str {
    match kind {
        ForbiddenKind::DoubleThree => "double_three",
        ForbiddenKind::DoubleFour => "double_four",
        ForbiddenKind::Overline => "overline",
    }
}

fn is_computer(game: &Game, c: Color) -> bool {
    matches!(game.player(c), PlayerKind::Computer { .. })
}

fn has_human(game: &Game) -> bool {
    Color::BOTH.into_iter().any(|c| !is_computer(game, c))
}

fn stones(pos: &Position) -> Vec<Option<Color>> {
    let size = pos.size();
    (0..size as usize * size as usize).map(|i| pos.stone(Point::from_index(i, size))).collect()
}

fn seed_from_clock() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0x07e4_6e11)
}

impl Session {
    /// A session with `game`.
    pub fn new(game: Game, settings: Settings) -> Session {
        let game_over = game.result().is_some();
        Session {
            game,
            generation: 1,
            thinking: None,
            hint: None,
            heat: Vec::new(),
            notice: None,
            file_notices: Vec::new(),
            flipped: Vec::new(),
            settings,
            stats: Stats::default(),
            counted: game_over,
            turn_started: Instant::now(),
            stalled_at: None,
            watch_delay: WATCH_DELAY,
            engine_factory: Arc::new(AnyEngine::new),
            engines: Default::default(),
            hint_engine: Default::default(),
            seed: seed_from_clock(),
        }
    }

    /// The snapshot the UI renders.
    pub fn snapshot(&self) -> Snapshot {
        snapshot::build(self)
    }

    /// Stops any search and forgets what the UI showed about the previous state.
    fn changed(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.cancel.cancel();
        }
        self.generation += 1;
        self.hint = None;
        self.heat.clear();
        self.notice = None;
        self.flipped.clear();
        self.turn_started = Instant::now();
    }

    /// Starts a new game.
    pub fn new_game(&mut self, config: GameConfig) -> AppResult<()> {
        let game = Game::new(config).map_err(AppError::config)?;
        self.changed();
        self.game = game;
        self.counted = false;
        self.engines = Default::default();
        self.hint_engine = Default::default();
        self.seed = self.seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        self.settings.last_config = serde_json::to_value(config).ok();
        Ok(())
    }

    /// Replaces the game by one that was opened or restored. Its configuration is checked
    /// again here (whatever read it), so no game outside the limits enters the session.
    pub fn load_game(&mut self, game: Game) -> AppResult<()> {
        game.config().validate().map_err(AppError::config)?;
        self.changed();
        self.counted = game.result().is_some();
        self.game = game;
        self.engines = Default::default();
        self.hint_engine = Default::default();
        Ok(())
    }

    /// Why `p` cannot be played now, in the contract's terms.
    fn check_legal(&self, x: i64, y: i64) -> AppResult<Point> {
        let pos = self.game.position();
        let size = pos.size();
        let illegal = |reason, detail: String| AppError::IllegalMove {
            reason,
            x: x.clamp(0, 255) as u8,
            y: y.clamp(0, 255) as u8,
            detail,
        };
        if !(0..size as i64).contains(&x) || !(0..size as i64).contains(&y) {
            return Err(illegal(
                IllegalReason::OffBoard,
                format!("({x}, {y}) is off the {size}x{size} board"),
            ));
        }
        let p = Point::new(x as u8, y as u8);
        if self.game.result().is_some() {
            return Err(illegal(IllegalReason::GameOver, "the game is over".into()));
        }
        match pos {
            Position::Gomoku(g) => g.is_legal(p).map_err(|e| {
                let reason = match &e {
                    GomokuError::OffBoard { .. } => IllegalReason::OffBoard,
                    GomokuError::Occupied { .. } => IllegalReason::Occupied,
                    GomokuError::Forbidden { kind, .. } => {
                        IllegalReason::Forbidden(forbidden_name(*kind))
                    }
                    _ => IllegalReason::GameOver,
                };
                illegal(reason, e.to_string())
            })?,
            Position::Reversi(r) => {
                let label = tengen_engine::reversi::notation::format_square(p);
                if r.stone(p).is_some() {
                    return Err(illegal(
                        IllegalReason::Occupied,
                        format!("{label} is already taken"),
                    ));
                }
                if !r.legal_points().contains(&p) {
                    return Err(illegal(
                        IllegalReason::NoFlips,
                        format!("{label} is not a legal move: it flips no disc"),
                    ));
                }
            }
        }
        Ok(p)
    }

    /// Plays `mv` (already checked) and records what the UI announces.
    fn apply(&mut self, mv: Move, by: By) -> AppResult<Vec<Event>> {
        let before = stones(self.game.position());
        let ms = self.turn_started.elapsed().as_millis() as u64;
        let records = self.game.play(mv, ms).map_err(|e| AppError::Internal(e.to_string()))?;
        self.changed();
        let after = stones(self.game.position());
        let size = self.game.position().size();
        self.flipped = before
            .iter()
            .zip(&after)
            .enumerate()
            .filter(|(_, (b, a))| b.is_some() && a.is_some() && b != a)
            .map(|(i, _)| Point::from_index(i, size))
            .collect();
        let mut events = Vec::new();
        for (i, r) in records.iter().enumerate() {
            let (x, y, pass) = match r.mv {
                Move::Place(p) => (p.x, p.y, false),
                Move::Pass => (0, 0, true),
            };
            let by = if i == 0 {
                by
            } else if is_computer(&self.game, r.color) {
                By::Computer
            } else {
                By::Human
            };
            if pass {
                self.notice = Some(Notice { code: "pass", params: json!({ "color": r.color }) });
            }
            events.push(Event::MovePlayed(MovePlayed {
                generation: self.generation,
                x,
                y,
                pass,
                color: r.color,
                by,
            }));
        }
        if let Some(over) = self.game_over_event() {
            events.push(Event::GameOver(over));
        }
        Ok(events)
    }

    /// The `game-over` payload when the game has ended.
    pub fn game_over_event(&self) -> Option<GameOver> {
        self.game.result().map(|r| {
            let (reason, kind) = snapshot::reason_names(r);
            GameOver {
                winner: r.winner,
                reason,
                kind,
                line: r.line.iter().map(|&p| p.into()).collect(),
            }
        })
    }

    /// A human's move at (x, y).
    pub fn play_human(&mut self, x: i64, y: i64) -> AppResult<Vec<Event>> {
        if matches!(&self.thinking, Some(t) if t.purpose == Purpose::Move) {
            return Err(AppError::ComputerThinking);
        }
        let color = self.game.side_to_move();
        if self.game.result().is_none() && is_computer(&self.game, color) {
            return Err(AppError::NotYourTurn { color });
        }
        let p = self.check_legal(x, y)?;
        self.apply(Move::Place(p), By::Human)
    }

    /// Whether undo has something to take back: a human's move (or any move when nobody
    /// plays by hand).
    pub fn can_undo(&self) -> bool {
        let history = self.game.history();
        if has_human(&self.game) {
            history.iter().any(|r| !is_computer(&self.game, r.color) && r.mv != Move::Pass)
        } else {
            !history.is_empty()
        }
    }

    /// Counts the result of a game that just ended in the statistics (once per game);
    /// answers whether the statistics changed.
    pub fn count_result(&mut self) -> bool {
        if self.counted || self.game.result().is_none() {
            return false;
        }
        self.counted = true;
        self.stats.record(&self.game)
    }

    /// Takes back the last move; against the computer, back to the human's turn.
    pub fn undo(&mut self) -> AppResult<()> {
        if !self.can_undo() {
            return Err(AppError::NothingToUndo);
        }
        self.changed();
        self.game.undo().map_err(|_| AppError::NothingToUndo)?;
        if has_human(&self.game) {
            while is_computer(&self.game, self.game.side_to_move()) && self.can_undo() {
                if self.game.undo().is_err() {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Plays again what undo took back; against the computer, up to the human's turn.
    pub fn redo(&mut self) -> AppResult<Vec<Event>> {
        if self.game.redo_len() == 0 {
            return Err(AppError::NothingToRedo);
        }
        self.changed();
        self.game.redo().map_err(|_| AppError::NothingToRedo)?;
        if has_human(&self.game) {
            while is_computer(&self.game, self.game.side_to_move())
                && self.game.redo_len() > 0
                && self.game.result().is_none()
            {
                if self.game.redo().is_err() {
                    break;
                }
            }
        }
        Ok(self.game_over_event().map(Event::GameOver).into_iter().collect())
    }

    /// The human resigns (the side to move when both or neither play by hand).
    pub fn resign(&mut self) -> AppResult<Vec<Event>> {
        if self.game.result().is_some() {
            return Err(AppError::GameOver);
        }
        let to_move = self.game.side_to_move();
        let humans: Vec<Color> =
            Color::BOTH.into_iter().filter(|&c| !is_computer(&self.game, c)).collect();
        let color = if humans.len() == 1 { humans[0] } else { to_move };
        self.changed();
        self.game.resign(color).map_err(|e| AppError::Internal(e.to_string()))?;
        Ok(self.game_over_event().map(Event::GameOver).into_iter().collect())
    }

    /// Stops the current search early: the computer plays its best move so far (a hint
    /// search shows its best move so far).
    pub fn stop_thinking(&mut self) {
        if let Some(t) = &self.thinking {
            t.cancel.cancel();
        }
    }

    /// The search that should run now, if any: the computer's move when it is its turn.
    /// Marks it as running.
    pub fn next_job(&mut self) -> Option<SearchPlan> {
        if self.thinking.is_some()
            || self.game.result().is_some()
            || self.stalled_at == Some(self.generation)
        {
            return None;
        }
        let color = self.game.side_to_move();
        let PlayerKind::Computer { level } = self.game.player(color) else { return None };
        let delay = if has_human(&self.game) { Duration::ZERO } else { self.watch_delay };
        let slot = self.engines[color.index()].clone();
        Some(self.plan(color, Purpose::Move, delay, level, slot))
    }

    /// Starts a hint search for the human to move.
    pub fn hint_job(&mut self) -> AppResult<Option<SearchPlan>> {
        if self.game.result().is_some() {
            return Err(AppError::GameOver);
        }
        if let Some(t) = &self.thinking {
            return match t.purpose {
                Purpose::Move => Err(AppError::ComputerThinking),
                Purpose::Hint => Ok(None),
            };
        }
        let color = self.game.side_to_move();
        if is_computer(&self.game, color) {
            return Err(AppError::NotYourTurn { color });
        }
        // The hint comes from the opponent's level when the computer plays, else from the
        // strongest level of the game.
        let level = match self.game.player(color.opponent()) {
            PlayerKind::Computer { level } => level,
            PlayerKind::Human => match self.game.config().kind {
                GameKind::Gomoku { .. } => Level::Gomoku(tengen_engine::ai::GomokuLevel::Master),
                GameKind::Reversi => Level::Reversi(tengen_engine::ai::ReversiLevel::Master),
            },
        };
        self.hint = None;
        let slot = self.hint_engine.clone();
        Ok(Some(self.plan(color, Purpose::Hint, Duration::ZERO, level, slot)))
    }

    fn plan(
        &mut self,
        color: Color,
        purpose: Purpose,
        delay: Duration,
        level: Level,
        slot: EngineSlot,
    ) -> SearchPlan {
        let cancel = CancelFlag::new();
        self.thinking = Some(Thinking {
            color,
            purpose,
            generation: self.generation,
            cancel: cancel.clone(),
            info: None,
        });
        SearchPlan {
            job: Job { generation: self.generation, color, purpose, cancel, delay },
            level,
            slot,
            position: self.game.position().clone(),
            limits: limits_for(level, Duration::from_millis(self.game.config().time_per_move_ms)),
            seed: self.seed,
            factory: self.engine_factory.clone(),
        }
    }

    /// Records a progress report of the running search; false when it is stale.
    pub fn progress(&mut self, job: &Job, info: &SearchInfo) -> bool {
        match &mut self.thinking {
            Some(t) if t.generation == job.generation && self.generation == job.generation => {
                t.info = Some(info.clone());
                true
            }
            _ => false,
        }
    }

    /// Applies a finished search. A result for an older generation is dropped (`None`);
    /// otherwise the events to announce.
    pub fn finish(&mut self, job: &Job, outcome: Outcome) -> Option<Vec<Event>> {
        if job.generation != self.generation
            || !matches!(&self.thinking, Some(t) if t.generation == job.generation)
        {
            return None;
        }
        self.thinking = None;
        match outcome {
            Outcome::Failed(why) => {
                self.notice = Some(Notice { code: "ai_failed", params: json!({ "detail": why }) });
                self.generation += 1;
                self.stalled_at = Some(self.generation);
                Some(Vec::new())
            }
            Outcome::Found(result) => {
                let candidates = result.info.candidates;
                match job.purpose {
                    Purpose::Hint => {
                        self.hint = result.best.point();
                        self.heat = candidates;
                        self.generation += 1;
                        Some(Vec::new())
                    }
                    Purpose::Move => {
                        let legal = match result.best {
                            Move::Place(p) => self.check_legal(p.x as i64, p.y as i64).is_ok(),
                            Move::Pass => false,
                        };
                        if !legal {
                            self.notice = Some(Notice {
                                code: "ai_failed",
                                params: json!({ "detail": "the engine chose an illegal move" }),
                            });
                            self.generation += 1;
                            self.stalled_at = Some(self.generation);
                            return Some(Vec::new());
                        }
                        let events = self.apply(result.best, By::Computer);
                        self.heat = candidates;
                        Some(events.unwrap_or_default())
                    }
                }
            }
        }
    }
}

/// The managed state: the session behind a mutex, and where it is kept on disk.
pub struct AppState {
    session: Mutex<Session>,
    pub storage: Storage,
    pub saver: Saver,
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
                Ok(Some(game))
            })
            .or_default(None);
        let (stats, stats_notice) =
            storage.load(STATS_FILE, Stats::from_json).or_default(Stats::default());
        // The last configuration is offered again only if it is still a valid one.
        let last_game = settings
            .last_config
            .clone()
            .and_then(|v| serde_json::from_value::<GameConfig>(v).ok())
            .and_then(|c| Game::new(c).ok());
        if last_game.is_none() {
            settings.last_config = None;
        }
        let game = game
            .or(last_game)
            .or_else(|| Game::new(default_config()).ok())
            .ok_or("the engine refused the default game")?;
        let mut session = Session::new(game, settings);
        session.stats = stats;
        session.file_notices =
            [settings_notice, game_notice, stats_notice].into_iter().flatten().collect();
        Ok(AppState { session: Mutex::new(session), storage, saver: Saver::start() })
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
                self.saver.write(path, session.game.to_json());
            } else {
                self.saver.remove(path);
            }
        }
        self.persist_settings(&session.settings);
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
    let snap = {
        let mut session = state.lock();
        if session.count_result() {
            if let (Some(path), Ok(text)) =
                (state.storage.save_path(STATS_FILE), serde_json::to_string_pretty(&session.stats))
            {
                state.saver.write(path, text);
            }
        }
        state.persist(&session);
        session.snapshot()
    };
    let _ = app.emit(events::SNAPSHOT, &snap);
    snap
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
    let SearchPlan { job, level, slot, position, limits, seed, factory } = plan;
    let size = position.size();
    let is_gomoku = matches!(position, Position::Gomoku(_));
    let progress_app = app.clone();
    let done_app = app.clone();
    let search = move |cancel: &CancelFlag, report: &mut dyn FnMut(&SearchInfo)| {
        // The slot stays locked for the search, so two searches never share an engine. The
        // engine is taken out and put back only when its search returns: one that panics
        // (half-updated tables) is dropped with the unwinding, and the next search starts
        // from a fresh engine.
        let mut guard = slot.lock().unwrap_or_else(|p| p.into_inner());
        let mut engine = match guard.take() {
            Some((l, engine)) if l == level => engine,
            _ => factory(level, seed),
        };
        let result = engine.search(&position, &limits, cancel, report).map_err(|e| e.to_string());
        *guard = Some((level, engine));
        result
    };
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
                pv: info.pv.iter().map(|m| snapshot::move_label(*m, size, is_gomoku)).collect(),
                candidates: info
                    .candidates
                    .iter()
                    .filter_map(|c| {
                        c.mv.point().map(|p| ScoredPoint { x: p.x, y: p.y, score: c.score })
                    })
                    .collect(),
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

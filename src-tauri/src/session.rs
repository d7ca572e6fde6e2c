//! The game session: the `Game`, the generation counter, what the computer is thinking
//! about, the hint and the last search's candidates, and the session's rules (who may move,
//! undo in pairs against the computer, hints, results of searches). It knows nothing of
//! Tauri: `runtime.rs` keeps it in managed state, emits its events and hands its searches
//! to the worker.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;
use tengen_engine::ai::{
    limits_for, AnyEngine, CancelFlag, Candidate, Level, Limits, SearchInfo, SearchResult,
};
use tengen_engine::child::ProcessError;
use tengen_engine::game::opening::computer::{Act, Judge};
use tengen_engine::game::opening::{self, Choice};
use tengen_engine::game::{
    Clock, EndReason, ForfeitReason, Game, GameConfig, GameError, GameKind, NodeId, PlayerKind,
    Position, Setup, TimeControl, DEFAULT_GOMOKU_SIZE, DEFAULT_TIME_PER_MOVE_MS, ROOT,
};
use tengen_engine::gomocup::{Brain, BrainError};
use tengen_engine::nboard::{NboardEngine, NboardError};
use tengen_engine::{Color, Move, Point};

use crate::engines::{self, BrainSlot, EngineEntry, Engines, Running};
use crate::error::{AppError, AppResult};
use crate::events::{By, GameOver, MovePlayed, Notice};
use crate::snapshot::{self, Snapshot};
use crate::stats::Stats;
use crate::storage::Settings;

/// The pause before each move of a computer-vs-computer game, so people can watch.
pub const WATCH_DELAY: Duration = Duration::from_millis(400);

/// The time the computer keeps back from its clock for answering and for the app's own
/// work after its search (besides the search control's margin): 150 ms and 2% of the time.
pub fn clock_margin(left: Duration) -> Duration {
    Duration::from_millis(150) + left / 50
}

/// Why the clock stands still besides the game's own state (over, the editor open, a
/// position stepped back to): each reason holds it until it is lifted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ClockPauses {
    /// The pause button (only in games without a computer), or a restored game waiting for
    /// its player; a move or the resume button lifts it.
    pub user: bool,
    /// The window is hidden.
    pub hidden: bool,
    /// A dialog is open (the page says so).
    pub dialog: bool,
    /// A restored game at an external engine's turn: the engine (a program) starts only
    /// when the player presses Continue (the resume op).
    pub engine: bool,
}

impl ClockPauses {
    pub fn any(self) -> bool {
        self.user || self.hidden || self.dialog || self.engine
    }
}

/// What the `clock` command does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ClockOp {
    /// The pause button: stops the clock (only when no computer plays).
    Pause,
    /// The resume button: lifts the pause (and a restored game's wait, also Continue for an
    /// external engine's turn).
    Resume,
    /// A dialog opened or closed.
    Dialog { open: bool },
}

/// Why the computer searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// To choose the computer's own move.
    Move,
    /// To suggest a move to the human.
    Hint,
}

impl Purpose {
    /// `"move"` or `"hint"`, as the UI reads it.
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Move => "move",
            Purpose::Hint => "hint",
        }
    }
}

/// One search to run.
#[derive(Clone, Debug)]
pub struct Job {
    /// The session's generation when the search was started.
    pub generation: u64,
    /// The side searched for.
    pub color: Color,
    pub purpose: Purpose,
    /// Raised to stop the search early (it then answers with its best move so far).
    pub cancel: CancelFlag,
    /// A pause before searching, so that people can follow computer-vs-computer games.
    pub delay: Duration,
}

/// How a search ended.
#[derive(Debug)]
pub enum Outcome {
    Found(SearchResult),
    /// The computer's steps of the opening (stones and choices, in order).
    Opening(Vec<Act>),
    /// The engine failed (it panicked, or was asked about the wrong game).
    Failed(String),
    /// An external engine failed during its turn (crashed, did not answer in time, answered
    /// something that is not a move): it loses the game for `reason`.
    Forfeit {
        reason: ForfeitReason,
        detail: String,
    },
}

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
/// worker thread the first time it is needed, with the memory (bytes) it was made for.
type EngineSlot = Arc<Mutex<Option<(Level, usize, AnyEngine)>>>;

/// Who answers a search: a level with its engine, or an external brain.
enum Searcher {
    Level { level: Level, slot: EngineSlot },
    External { engine: EngineEntry, slot: BrainSlot },
}

/// Everything a search needs, taken from the session under its lock.
pub struct SearchPlan {
    pub job: Job,
    searcher: Searcher,
    pub position: Position,
    pub limits: Limits,
    pub seed: u64,
    /// Search threads (the settings').
    pub threads: usize,
    /// The bytes the engine's tables may take (the settings').
    pub memory: usize,
    /// The game's time per move (an external brain's `timeout_turn` without a clock).
    pub time_per_move_ms: u64,
    /// The game's time control (an external brain's timeouts; its time left is in `limits`).
    pub time_control: TimeControl,
    factory: EngineFactory,
    /// The game, when the computer acts in its opening (no move search then).
    opening: Option<Game>,
}

impl SearchPlan {
    /// Runs the search on the calling thread with the side's engine (made on first use),
    /// or asks the side's external brain (started on first use); in the opening, the
    /// computer's opening steps.
    pub fn search(&self, cancel: &CancelFlag, report: &mut dyn FnMut(&SearchInfo)) -> Outcome {
        if let Some(game) = &self.opening {
            // The opening's judgment gets the time per move in all.
            let budget = self.limits.time.unwrap_or(Duration::from_secs(1));
            let mut judge = Judge::new(self.seed, budget);
            return match opening::computer::computer_acts(game, &mut judge) {
                Ok(acts) => Outcome::Opening(acts),
                Err(e) => Outcome::Failed(e.to_string()),
            };
        }
        let (level, slot) = match &self.searcher {
            Searcher::Level { level, slot } => (*level, slot),
            Searcher::External { engine, slot } => return self.ask_brain(engine, slot, cancel),
        };
        // The slot stays locked for the search, so two searches never share an engine. The
        // engine is taken out and put back only when its search returns: one that panics
        // (half-updated tables) is dropped with the unwinding, and the next search starts
        // from a fresh engine.
        let mut guard = slot.lock().unwrap_or_else(|p| p.into_inner());
        let mut engine = match guard.take() {
            Some((l, m, engine)) if (l, m) == (level, self.memory) => engine,
            _ => (self.factory)(level, self.seed, self.memory),
        };
        engine.set_threads(self.threads);
        let result = engine.search(&self.position, &self.limits, cancel, report);
        *guard = Some((level, self.memory, engine));
        match result {
            Ok(found) => Outcome::Found(found),
            Err(e) => Outcome::Failed(e.to_string()),
        }
    }

    /// The external brain's move: started (`START` with the board and the rule, the time
    /// per move as `timeout_turn`) on its first turn, then `TURN`, or `BOARD` when the game
    /// changed under it (an undo, a variation); an NBoard engine's: started on its first
    /// turn, then given the position and its time each turn (the time left on a game clock,
    /// else the time per move). An engine that fails is ended (killed if it does not leave)
    /// and the failure is its forfeit; a cancelled wait ends it too, and the next turn starts
    /// it again with the position.
    fn ask_brain(&self, engine: &EngineEntry, slot: &BrainSlot, cancel: &CancelFlag) -> Outcome {
        let mut guard = slot.lock().unwrap_or_else(|p| p.into_inner());
        if cancel.is_cancelled() {
            return Outcome::Failed("cancelled".into());
        }
        let running = guard.take();
        let (answer, running) = match (&self.position, running) {
            (Position::Gomoku(pos), running) => {
                let brain = match running {
                    Some(Running::Gomocup(brain)) => Ok(brain),
                    _ => {
                        let settings = engine.settings(self.time_per_move_ms, self.time_control);
                        Brain::start(&settings).and_then(|mut b| {
                            b.new_game(pos.size(), pos.rule())?;
                            Ok(b)
                        })
                    }
                };
                let mut brain = match brain {
                    Ok(brain) => brain,
                    Err(e) => return brain_failed(e),
                };
                match brain.best_move_in_time(pos, Some(cancel), self.limits.time_left) {
                    Ok((p, _)) => (Ok(Move::Place(p)), Running::Gomocup(brain)),
                    Err(e) => (Err(brain_failed(e)), Running::Gomocup(brain)),
                }
            }
            (Position::Reversi(pos), running) => {
                let started = match running {
                    Some(Running::Nboard(e)) => Ok(e),
                    _ => NboardEngine::start(&engine.nboard_settings()),
                };
                let mut nboard = match started {
                    Ok(e) => e,
                    Err(e) => return nboard_failed(e),
                };
                let time = self.limits.time_left.unwrap_or_else(|| {
                    Duration::from_millis(match self.time_control {
                        TimeControl::PerMove { move_ms } => move_ms,
                        _ => self.time_per_move_ms,
                    })
                });
                let increment = Duration::from_millis(self.time_control.increment_ms());
                match nboard.best_move(pos, time, increment, Some(cancel)) {
                    Ok((m, _)) => (Ok(m.mv), Running::Nboard(nboard)),
                    Err(e) => (Err(nboard_failed(e)), Running::Nboard(nboard)),
                }
            }
        };
        match answer {
            Ok(best) => {
                *guard = Some(running);
                Outcome::Found(SearchResult { best, info: SearchInfo::default() })
            }
            Err(failed) => {
                // Ended here, with the slot still locked (an engine that ignores END or quit
                // is killed half a second later), so whoever waits for the slot finds it
                // ended.
                drop(running);
                failed
            }
        }
    }
}

/// What a brain's failure means for its game (a cancelled wait is dropped as stale).
fn brain_failed(e: BrainError) -> Outcome {
    match e {
        BrainError::Process(ProcessError::Cancelled { .. }) => Outcome::Failed(e.to_string()),
        e => Outcome::Forfeit { reason: e.forfeit_reason(), detail: e.to_string() },
    }
}

/// What an NBoard engine's failure means for its game, as [`brain_failed`].
fn nboard_failed(e: NboardError) -> Outcome {
    match e {
        NboardError::Process(ProcessError::Cancelled { .. }) => Outcome::Failed(e.to_string()),
        e => Outcome::Forfeit { reason: e.forfeit_reason(), detail: e.to_string() },
    }
}

/// Makes the engine for a level with a seed and the bytes its tables may take (the real one
/// by default; tests put in their own).
pub type EngineFactory = Arc<dyn Fn(Level, u64, usize) -> AnyEngine + Send + Sync>;

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
    pub settings: Settings,
    /// The human's results against the computer levels.
    pub stats: Stats,
    /// Whether the current game's result is already in `stats`.
    counted: bool,
    /// The game's clock, for the position shown (rebuilt from the game whenever the game or
    /// the position changes: [`Session::sync_clock`]). It also times the moves of a game
    /// without a time control, for the record.
    pub clock: Clock,
    /// The game and position `clock` was built for (`game_epoch`, cursor).
    clock_at: (u64, NodeId),
    /// Counts the games the session held (a new or loaded game is a new clock).
    game_epoch: u64,
    /// Why the clock stands still besides the game's state.
    pub pauses: ClockPauses,
    /// The generation at which the engine last failed: no new search starts by itself
    /// until something changes (so a broken level does not fail again and again).
    stalled_at: Option<u64>,
    /// The pause before each move when the computer plays both sides.
    pub watch_delay: Duration,
    /// Makes the engines (replaceable for tests).
    pub engine_factory: EngineFactory,
    engines: [EngineSlot; 2],
    hint_engine: EngineSlot,
    /// The external engines the user added (Settings → Engines).
    pub engine_list: Engines,
    /// The external brain of each side, while one plays it.
    brains: [BrainSlot; 2],
    seed: u64,
    /// How many snapshots were built (see [`Snapshot::seq`]).
    snapshots: u64,
    /// The board editor, while it is open (the game waits behind it).
    pub editor: Option<Editor>,
    /// A position stepped back to where the player asked the computer to move ("Computer
    /// plays here"): the computer moves there although the line shown goes on after it.
    play_here: Option<(u64, NodeId)>,
    /// What the coach said about the position shown (see `coach.rs`).
    pub coach: crate::coach::Coach,
    /// The game review and the one under way (see `review.rs`).
    pub review: crate::review::ReviewState,
}

/// Where to step in the game tree (the `navigate` command).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum Nav {
    /// One move back along the line shown.
    Back,
    /// One move forward along the line shown.
    Forward,
    /// The start position.
    First,
    /// The end of the line shown.
    Last,
    /// The position after `ply` records of the line shown (0: the start).
    Ply { ply: u32 },
    /// A node of the tree (a variation's move in the move list).
    Node { node: u32 },
    /// The position after `ply` moves of the main line (0: the start), whatever line is
    /// shown: the review's plies (its graph, "next mistake") are the main line's.
    Main { ply: u32 },
}

/// What to do with a variation (the `variation` command).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VariationAction {
    /// Make the line through the node the main line.
    Promote,
    /// Delete the node and everything after it.
    Delete,
}

/// One step of the board editor (the `edit` command).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum EditOp {
    /// Opens the editor on an empty board, or on the position shown.
    Enter {
        #[serde(default)]
        from_current: bool,
    },
    /// Puts a stone of `stone` on (x, y), or takes the stone off (`null`).
    Set { x: u8, y: u8, stone: Option<Color> },
    /// Empties the board.
    Clear,
    /// Chooses the side to move.
    ToMove { color: Color },
    /// Starts again from the position shown.
    FromCurrent,
    /// Closes the editor without changing the game.
    Cancel,
    /// Checks the position and starts a game from it with these players.
    Done { black: PlayerKind, white: PlayerKind },
}

/// The board editor's position: the stones and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Editor {
    pub size: u8,
    /// `stones[y * size + x]`.
    pub stones: Vec<Option<Color>>,
    pub to_move: Color,
}

impl Editor {
    fn of(position: &Position) -> Editor {
        let size = position.size();
        let stones = (0..size as usize * size as usize)
            .map(|i| position.stone(Point::from_index(i, size)))
            .collect();
        Editor { size, stones, to_move: position.side_to_move() }
    }

    fn setup(&self) -> Setup {
        let mut setup = Setup { black: Vec::new(), white: Vec::new(), to_move: self.to_move };
        for (i, s) in self.stones.iter().enumerate() {
            let p = Point::from_index(i, self.size);
            match s {
                Some(Color::Black) => setup.black.push(p),
                Some(Color::White) => setup.white.push(p),
                None => {}
            }
        }
        setup
    }
}

/// The longest text `paste` reads (as a file, [`tengen_engine::io::MAX_USER_FILE_BYTES`]).
pub const MAX_PASTE_BYTES: usize = tengen_engine::io::MAX_USER_FILE_BYTES as usize;

/// What `copy_text` copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CopyWhat {
    /// The line shown as a move list (Gomoku) or transcript (Reversi).
    Line,
    /// The position shown (a Reversi board string, the Gomoku moves that reach it).
    Position,
}

/// The default game: Renju on 15x15, the human black against the middle Gomoku level.
pub fn default_config() -> GameConfig {
    GameConfig {
        kind: GameKind::Gomoku {
            rule: tengen_engine::gomoku::Rule::Renju,
            size: DEFAULT_GOMOKU_SIZE,
        },
        black: PlayerKind::Human,
        white: PlayerKind::Computer {
            level: Level::Gomoku(tengen_engine::ai::GomokuLevel::Pattern),
        },
        time_per_move_ms: DEFAULT_TIME_PER_MOVE_MS,
        time_control: Default::default(),
        opening: Default::default(),
    }
}

/// Whether a program (a level or an external engine) plays `c`.
fn is_computer(game: &Game, c: Color) -> bool {
    !game.player(c).is_human()
}

fn has_human(game: &Game) -> bool {
    Color::BOTH.into_iter().any(|c| !is_computer(game, c))
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
        let (clock, clock_at) = (game.clock(), (0, game.cursor()));
        Session {
            game,
            generation: 1,
            thinking: None,
            hint: None,
            heat: Vec::new(),
            notice: None,
            file_notices: Vec::new(),
            settings,
            stats: Stats::default(),
            counted: game_over,
            clock,
            clock_at,
            game_epoch: 0,
            pauses: ClockPauses::default(),
            stalled_at: None,
            watch_delay: WATCH_DELAY,
            engine_factory: Arc::new(AnyEngine::with_memory),
            engines: Default::default(),
            hint_engine: Default::default(),
            engine_list: Engines::default(),
            brains: Default::default(),
            seed: seed_from_clock(),
            snapshots: 0,
            editor: None,
            play_here: None,
            coach: Default::default(),
            review: Default::default(),
        }
    }

    /// The position shown (the one stepped to in the move list): what analysis reads.
    pub fn shown_position(&self) -> &Position {
        self.game.position()
    }

    /// Refuses game changes while the board editor is open.
    fn not_editing(&self) -> AppResult<()> {
        match self.editor {
            Some(_) => Err(AppError::Editing),
            None => Ok(()),
        }
    }

    /// Steps through the game: changes the position shown, never what was played.
    pub fn navigate(&mut self, nav: Nav) -> AppResult<()> {
        self.not_editing()?;
        let game = &mut self.game;
        let before = game.cursor();
        match nav {
            Nav::Back => {
                game.back();
            }
            Nav::Forward => {
                game.forward();
            }
            Nav::First => game.go_to_ply(0).map_err(|e| AppError::Internal(e.to_string()))?,
            Nav::Last => {
                let end = game.line().len();
                game.go_to_ply(end).map_err(|e| AppError::Internal(e.to_string()))?
            }
            Nav::Ply { ply } => {
                let len = game.line().len();
                if ply as usize > len {
                    return Err(AppError::invalid(
                        "ply",
                        format!("{ply} is past the line's {len}"),
                    ));
                }
                game.go_to_ply(ply as usize).map_err(|e| AppError::Internal(e.to_string()))?
            }
            Nav::Node { node } => game
                .goto(node as NodeId)
                .map_err(|_| AppError::invalid("node", format!("no move {node} in the game")))?,
            Nav::Main { ply } => {
                // Through the main line's end, so that the line shown is the main line
                // after the position too (its remembered continuation), then back to `ply`.
                let main = game.tree().main_line();
                if ply as usize > main.len() {
                    let len = main.len();
                    let detail = format!("{ply} is past the main line's {len}");
                    return Err(AppError::invalid("ply", detail));
                }
                let internal = |e: GameError| AppError::Internal(e.to_string());
                game.goto(main.last().copied().unwrap_or(ROOT)).map_err(internal)?;
                game.go_to_ply(ply as usize).map_err(internal)?
            }
        }
        if self.game.cursor() != before {
            self.changed();
        }
        Ok(())
    }

    /// Promotes or deletes the variation through `node`.
    pub fn variation(&mut self, action: VariationAction, node: u32) -> AppResult<()> {
        self.not_editing()?;
        if matches!(&self.thinking, Some(t) if t.purpose == Purpose::Move) {
            return Err(AppError::ComputerThinking);
        }
        let id = node as NodeId;
        let bad = |_| AppError::invalid("node", format!("no move {node} in the game"));
        match action {
            VariationAction::Promote => self.game.promote(id).map_err(bad)?,
            VariationAction::Delete => self.game.delete(id).map_err(bad)?,
        }
        self.changed();
        Ok(())
    }

    /// One step of the board editor.
    pub fn edit(&mut self, op: EditOp) -> AppResult<()> {
        if !matches!(op, EditOp::Enter { .. }) && self.editor.is_none() {
            return Err(AppError::NotEditing);
        }
        match op {
            EditOp::Enter { from_current } => {
                let mut editor = Editor::of(self.game.position());
                if !from_current {
                    editor.stones.fill(None);
                    editor.to_move = Color::Black;
                }
                self.editor = Some(editor);
            }
            EditOp::FromCurrent => self.editor = Some(Editor::of(self.game.position())),
            EditOp::Set { x, y, stone } => {
                let editor = self.editor.as_mut().ok_or(AppError::NotEditing)?;
                if x >= editor.size || y >= editor.size {
                    let detail = format!("({x}, {y}) is off the {0}x{0} board", editor.size);
                    return Err(AppError::invalid("point", detail));
                }
                editor.stones[Point::new(x, y).index(editor.size)] = stone;
            }
            EditOp::Clear => {
                if let Some(editor) = self.editor.as_mut() {
                    editor.stones.fill(None);
                }
            }
            EditOp::ToMove { color } => {
                if let Some(editor) = self.editor.as_mut() {
                    editor.to_move = color;
                }
            }
            EditOp::Cancel => self.editor = None,
            EditOp::Done { black, white } => {
                let setup = self.editor.as_ref().ok_or(AppError::NotEditing)?.setup();
                // A set-up position has no opening phase.
                let opening = opening::OpeningRule::None;
                let config = GameConfig { black, white, opening, ..*self.game.config() };
                config.validate().map_err(AppError::config)?;
                self.known_engines(&config)?;
                let game = Game::from_setup(config, setup).map_err(AppError::from)?;
                self.editor = None;
                self.install_game(game)?;
                return Ok(());
            }
        }
        self.changed();
        Ok(())
    }

    /// Opens a pasted game or position (see [`Game::open_text`]) and says what it was.
    pub fn paste(&mut self, text: &str) -> AppResult<()> {
        self.not_editing()?;
        if text.len() > MAX_PASTE_BYTES {
            let detail = format!("{} bytes, more than {MAX_PASTE_BYTES}", text.len());
            return Err(AppError::invalid("text", detail));
        }
        let (game, kind) = Game::open_text(text, self.game.config())
            .map_err(|e| AppError::BadPaste { detail: e.to_string() })?;
        if !self.load_game(game)? {
            self.notice = Some(Notice { code: "pasted", params: json!({ "kind": kind.code() }) });
        }
        Ok(())
    }

    /// The text `copy_text` copies.
    pub fn copy_text(&self, what: CopyWhat) -> String {
        match what {
            CopyWhat::Line => self.game.line_text(),
            CopyWhat::Position => self.game.position_text(),
        }
    }

    /// The snapshot the UI renders, numbered after every one built before it (the session
    /// is behind a lock, so the numbers follow the order of the states they show).
    pub fn snapshot(&mut self) -> Snapshot {
        self.sync_clock(Instant::now());
        self.snapshots += 1;
        Snapshot { seq: self.snapshots, ..snapshot::build(self) }
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
        self.play_here = None;
        self.trim_review();
        if self.game.result().is_some() {
            self.release_engines();
        }
    }

    /// Drops the computer's and the hint's engines, and with them their tables (tens of
    /// MiB each): a finished game needs none, and an undo makes a fresh one. A search under
    /// way keeps its engine until it returns.
    pub fn release_engines(&mut self) {
        self.engines = Default::default();
        self.hint_engine = Default::default();
    }

    /// Bytes the tables of the computer's and the hint's engines hold now (the ones not
    /// searching at this moment).
    pub fn engine_table_bytes(&self) -> usize {
        let held = |slot: &EngineSlot| match slot.try_lock() {
            Ok(guard) => guard.as_ref().map_or(0, |(_, _, e)| e.table_bytes()),
            Err(_) => 0,
        };
        self.engines.iter().chain([&self.hint_engine]).map(held).sum()
    }

    /// Brings the clock up to date with the game at `now`: rebuilt from the game when the
    /// game or the position shown changed (the times of that position: stepping back or
    /// undoing restores them, as chess programs do, and the turn starts afresh), running only
    /// for the side to move at the end of the line shown while the game goes on, no editor
    /// is open and nothing pauses it. The time spent on the turn goes into the game, so the
    /// saved game keeps it. Called before each snapshot is built.
    pub fn sync_clock(&mut self, now: Instant) {
        let at = (self.game_epoch, self.game.cursor());
        if at != self.clock_at {
            self.clock = self.game.clock();
            self.clock_at = at;
        }
        // The clocks are the colours': they start once an opening rule has given each
        // player a colour (until then a player may place stones of both).
        let run = self.game.result().is_none()
            && self.editor.is_none()
            && self.game.redo_len() == 0
            && self.game.opening_phase().step.is_none()
            && !self.pauses_now().any();
        if run {
            self.clock.resume(now);
        } else {
            self.clock.pause(now);
        }
        self.game.set_turn_ms(self.clock.spent(now));
    }

    /// A restored game waits for its player: the clock stands still until the player to
    /// move moves or resumes (a level of the computer to move starts at once). At an
    /// external engine's turn it waits for Continue: no program starts by itself.
    pub fn restored(&mut self) {
        let acting = self.game.acting_player();
        let done = self.game.result().is_some();
        self.pauses.user = acting.is_human() && self.game.config().time_control.is_timed();
        self.pauses.engine = !done && acting.external().is_some();
    }

    /// The pauses in force now: a restored game's wait for Continue holds only while the
    /// game goes on at that external engine's turn (an undo, a resignation or the engine's
    /// removal ends it).
    pub fn pauses_now(&self) -> ClockPauses {
        let engine_turn =
            self.game.result().is_none() && self.game.acting_player().external().is_some();
        ClockPauses { engine: self.pauses.engine && engine_turn, ..self.pauses }
    }

    /// The external engine a restored game waits to start (its name), until Continue.
    pub fn engine_waits(&self) -> Option<String> {
        match self.pauses_now().engine {
            true => self.engine_name(self.game.side_to_move()),
            false => None,
        }
    }

    /// Whether the computer's move waits: a restored game at an external engine's turn, or
    /// a pause of a timed game's clock (nothing is played on a paused board; the search
    /// starts again with the time left when the pause ends).
    fn computer_held(&self) -> bool {
        let pauses = self.pauses_now();
        pauses.engine || (pauses.any() && self.game.config().time_control.is_timed())
    }

    /// Stops the computer's search for its move while it is held ([`Session::computer_held`]):
    /// its answer is dropped, and the search starts again once nothing holds it.
    fn hold_computer(&mut self) {
        if self.computer_held() && matches!(&self.thinking, Some(t) if t.purpose == Purpose::Move) {
            if let Some(t) = self.thinking.take() {
                t.cancel.cancel();
            }
            self.generation += 1;
        }
    }

    /// Whether the pause button may stop the clock: a timed game without a computer.
    pub fn can_pause(&self) -> bool {
        self.game.config().time_control.is_timed()
            && !Color::BOTH.into_iter().any(|c| is_computer(&self.game, c))
    }

    /// The `clock` command: the pause and resume buttons, a dialog opened or closed.
    pub fn clock_op(&mut self, op: ClockOp) -> AppResult<()> {
        match op {
            ClockOp::Pause if !self.can_pause() => return Err(AppError::CannotPause),
            ClockOp::Pause => self.pauses.user = true,
            ClockOp::Resume => {
                self.pauses.user = false;
                self.pauses.engine = false;
            }
            ClockOp::Dialog { open } => self.pauses.dialog = open,
        }
        self.hold_computer();
        self.sync_clock(Instant::now());
        Ok(())
    }

    /// The window was shown or hidden: a hidden window stops the clock (and the computer's
    /// search in a timed game).
    pub fn set_visible(&mut self, visible: bool) {
        self.pauses.hidden = !visible;
        self.hold_computer();
        self.sync_clock(Instant::now());
    }

    /// When to look at the flag again: the running side's time left (`None`: no clock runs).
    pub fn until_flag(&self, now: Instant) -> Option<Duration> {
        match self.game.result() {
            None => self.clock.until_flag(now),
            Some(_) => None,
        }
    }

    /// Ends the game on time if the side to move's flag has fallen at `now`: the events to
    /// announce, or `None` when it has not.
    pub fn check_flag(&mut self, now: Instant) -> Option<Vec<Event>> {
        if self.game.result().is_some() || self.clock.flagged(now).is_none() {
            return None;
        }
        self.game.lose_on_time().ok()?;
        self.changed();
        self.end_brains();
        self.sync_clock(now);
        Some(self.game_over_event().map(Event::GameOver).into_iter().collect())
    }

    /// Refuses a configuration naming an external engine that is not in the list, or one
    /// whose protocol plays another game.
    fn known_engines(&self, config: &GameConfig) -> AppResult<()> {
        for color in Color::BOTH {
            let Some(id) = config.player(color).external() else { continue };
            let field = if color == Color::Black { "black" } else { "white" };
            match self.engine_list.get(id) {
                None => {
                    return Err(AppError::invalid(field, format!("no engine {id} in the list")))
                }
                Some(e) if !e.protocol.plays(config.kind) => {
                    let game = config.kind.name();
                    let e = tengen_engine::game::ConfigError::External { color, game };
                    return Err(AppError::invalid(field, e.to_string()));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// What a game from outside the session may keep of its external sides: with `keep`
    /// (the app's own unfinished game), those whose engine is still in the list and plays the
    /// game; without (a file or pasted text: it may come from another machine), none. Every
    /// other external side becomes human. Answers whether one did.
    fn admit_externals(&self, game: &mut Game, keep: bool) -> bool {
        let kind = game.config().kind;
        let plays = |id| self.engine_list.get(id).is_some_and(|e| e.protocol.plays(kind));
        let admit = |p: PlayerKind| match p.external() {
            Some(id) if !keep || !plays(id) => PlayerKind::Human,
            _ => p,
        };
        let (black, white) = (game.player(Color::Black), game.player(Color::White));
        let (b, w) = (admit(black), admit(white));
        (b, w) != (black, white) && game.set_players(b, w).is_ok()
    }

    /// Sets the engine list (at start-up); a side of the restored game whose engine is not
    /// in it becomes human.
    pub fn set_engine_list(&mut self, list: Engines) {
        self.engine_list = list;
        let mut game = self.game.clone();
        if self.admit_externals(&mut game, true) {
            self.game = game;
            self.notice = Some(Notice { code: "engine_now_human", params: json!({}) });
        }
    }

    /// The name of the external engine playing `color`, if one does.
    pub fn engine_name(&self, color: Color) -> Option<String> {
        let id = self.game.player(color).external()?;
        Some(self.engine_list.get(id).map_or_else(|| format!("#{id}"), |e| e.name.clone()))
    }

    /// Ends the external brains (a new game, another game loaded, an engine removed).
    fn end_brains(&mut self) {
        engines::retire(std::mem::take(&mut self.brains));
    }

    /// Ends the external brains before the app exits: a search under way is cancelled and
    /// waited for (its brain is ended with it), so no brain outlives the app.
    pub fn end_brains_now(&mut self) {
        if let Some(t) = &self.thinking {
            t.cancel.cancel();
        }
        for slot in std::mem::take(&mut self.brains) {
            let brain = slot.lock().unwrap_or_else(|p| p.into_inner()).take();
            drop(brain);
        }
    }

    /// Removes engine `id` from the list; a side of the current game that it played becomes
    /// human (its brain is ended).
    pub fn remove_engine(&mut self, id: u32) -> AppResult<()> {
        if !self.engine_list.remove(id) {
            return Err(AppError::engine("unknown", std::path::Path::new(""), format!("#{id}")));
        }
        let mut game = self.game.clone();
        if self.admit_externals(&mut game, true) {
            self.changed();
            self.end_brains();
            self.game = game;
            self.notice = Some(Notice { code: "engine_now_human", params: json!({}) });
        }
        Ok(())
    }

    /// Starts a new game.
    pub fn new_game(&mut self, config: GameConfig) -> AppResult<()> {
        let game = Game::new(config).map_err(AppError::config)?;
        self.known_engines(&config)?;
        self.changed();
        self.editor = None;
        self.game = game;
        self.game_epoch += 1;
        self.pauses.user = false;
        self.pauses.engine = false;
        self.counted = false;
        self.release_engines();
        self.end_brains();
        self.seed = self.seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        self.settings.last_config = Some(config);
        self.cancel_review();
        self.take_stored_review(None);
        Ok(())
    }

    /// Replaces the game by one opened from a file or pasted: an external side becomes
    /// human (a file may come from anywhere: it never starts a program), and the notice
    /// says so. Answers whether a side was changed.
    pub fn load_game(&mut self, mut game: Game) -> AppResult<bool> {
        let changed = self.admit_externals(&mut game, false);
        self.install_game(game)?;
        if changed {
            self.notice = Some(Notice { code: "engine_now_human", params: json!({}) });
        }
        Ok(changed)
    }

    /// Replaces the game. Its configuration is checked again here (whatever read it), so no
    /// game outside the limits enters the session.
    fn install_game(&mut self, game: Game) -> AppResult<()> {
        game.config().validate().map_err(AppError::config)?;
        self.changed();
        self.editor = None;
        self.counted = game.result().is_some();
        self.game = game;
        self.game_epoch += 1;
        self.pauses.user = false;
        self.pauses.engine = false;
        self.release_engines();
        self.cancel_review();
        self.take_stored_review(None);
        self.end_brains();
        Ok(())
    }

    /// Plays `mv` (the engine checks it) and records what the UI announces.
    fn apply(&mut self, mv: Move, by: By) -> AppResult<Vec<Event>> {
        // A move after the flag fell is too late: the game is lost on time instead.
        let now = Instant::now();
        if let Some(events) = self.check_flag(now) {
            return Ok(events);
        }
        let ms = self.clock.spent(now);
        let records = self.game.play(mv, ms).map_err(|e| AppError::refused(e, mv))?;
        self.changed();
        Ok(self.announce(&records, by))
    }

    /// Plays an external engine's answer as a match does (`Game::play_or_forfeit`): its
    /// move, or its loss when the move is illegal or it failed to give one; the notice then
    /// names the engine and why it lost.
    fn apply_external(
        &mut self,
        color: Color,
        answer: Result<Move, (ForfeitReason, String)>,
    ) -> Vec<Event> {
        // An answer after the flag fell is too late: the game is lost on time instead.
        let now = Instant::now();
        if let Some(events) = self.check_flag(now) {
            return events;
        }
        let ms = self.clock.spent(now);
        let (detail, answer) = match answer {
            Ok(mv) => (self.game.check(mv).err().map(|e| e.to_string()), Ok(mv)),
            Err((reason, detail)) => (Some(detail), Err(reason)),
        };
        let played = self.game.play_or_forfeit(answer, ms);
        self.changed();
        let records = played.unwrap_or_default();
        let mut events = self.announce(&records, By::Computer);
        if let Some(EndReason::Forfeit(reason)) = self.game.result().map(|r| r.reason) {
            self.notice = Some(Notice {
                code: "engine_forfeit",
                params: json!({
                    "name": self.engine_name(color).unwrap_or_default(),
                    "color": color,
                    "reason": reason,
                    "detail": detail.unwrap_or_default(),
                }),
            });
        }
        // A forfeit or a forbidden point ends the game without a move played.
        if records.is_empty() && self.game.result().is_some() {
            events.extend(self.game_over_event().map(Event::GameOver));
        }
        events
    }

    /// The events of `records` just played (the first by `by`), and of the game's end (which
    /// ends the external brains: an undo starts them again with the position).
    fn announce(&mut self, records: &[tengen_engine::game::MoveRecord], by: By) -> Vec<Event> {
        if self.game.result().is_some() {
            self.end_brains();
        }
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
        if records.is_empty() {
            return events;
        }
        if let Some(over) = self.game_over_event() {
            events.push(Event::GameOver(over));
        }
        events
    }

    /// The `game-over` payload when the game has ended.
    pub fn game_over_event(&self) -> Option<GameOver> {
        self.game.result().map(|r| GameOver {
            winner: r.winner,
            reason: r.reason,
            kind: r.forbidden,
            line: r.line.iter().map(|&p| p.into()).collect(),
        })
    }

    /// A human's move at (x, y).
    pub fn play_human(&mut self, x: u8, y: u8) -> AppResult<Vec<Event>> {
        self.not_editing()?;
        if matches!(&self.thinking, Some(t) if t.purpose == Purpose::Move) {
            return Err(AppError::ComputerThinking);
        }
        self.human_acts()?;
        let events = self.apply(Move::Place(Point::new(x, y)), By::Human)?;
        // A move ends the player's pause, and a restored game's wait for Continue.
        self.pauses.user = false;
        self.pauses.engine = false;
        Ok(events)
    }

    /// Whether "Computer plays here" applies: a position stepped back to (the line shown goes
    /// on after it), at the computer's turn, where nothing else moves it (no search under
    /// way, no editor, nothing holding the computer, not asked already).
    pub fn computer_can_play_here(&self) -> bool {
        self.editor.is_none()
            && self.thinking.is_none()
            && self.game.result().is_none()
            && self.game.redo_len() > 0
            && !self.game.acting_player().is_human()
            && !self.computer_held()
            && self.play_here != Some((self.game_epoch, self.game.cursor()))
    }

    /// "Computer plays here": the computer moves from the position shown, a position stepped
    /// back to at its turn, as it would at the end of the line: its move starts a variation,
    /// or follows the line when it is the move already there (as a person's move there
    /// would). Nothing to do at the end of the line (the computer moves there by itself).
    pub fn computer_plays_here(&mut self) -> AppResult<()> {
        self.not_editing()?;
        if self.game.result().is_some() {
            return Err(AppError::GameOver);
        }
        if self.thinking.is_some() {
            return Err(AppError::ComputerThinking);
        }
        if self.game.acting_player().is_human() {
            return Err(AppError::NotComputersTurn { color: self.game.side_to_move() });
        }
        if self.game.redo_len() > 0 {
            self.play_here = Some((self.game_epoch, self.game.cursor()));
            // A failed engine may try again at the player's request.
            self.stalled_at = None;
        }
        Ok(())
    }

    /// Refuses a human's action while the computer acts now (its move or opening step).
    fn human_acts(&self) -> AppResult<()> {
        let color = self.game.side_to_move();
        if self.game.result().is_none() && !self.game.acting_player().is_human() {
            return Err(AppError::NotYourTurn { color });
        }
        Ok(())
    }

    /// A human's opening choice (a colour, Swap2's two more stones, Soosõrv's count, offer
    /// or pick); a pick plays its stone.
    pub fn opening_choice(&mut self, choice: Choice) -> AppResult<Vec<Event>> {
        self.not_editing()?;
        if matches!(&self.thinking, Some(t) if t.purpose == Purpose::Move) {
            return Err(AppError::ComputerThinking);
        }
        self.human_acts()?;
        let ms = self.clock.spent(Instant::now());
        let records = self.game.opening_choice(choice, ms).map_err(|e| match e {
            GameError::Opening(error) => AppError::Opening { error },
            GameError::GameOver => AppError::GameOver,
            e => AppError::Internal(e.to_string()),
        })?;
        self.changed();
        // A choice ends the player's pause, as a move does.
        self.pauses.user = false;
        self.pauses.engine = false;
        Ok(self.announce(&records, By::Human))
    }

    /// The computer's opening steps, each checked again by the game.
    fn apply_opening(&mut self, acts: Vec<Act>) -> AppResult<Vec<Event>> {
        let ms = self.clock.spent(Instant::now());
        let mut records = Vec::new();
        for act in acts {
            let before = self.game.history().len();
            opening::computer::apply(&mut self.game, act, ms)
                .map_err(|e| AppError::Internal(e.to_string()))?;
            records.extend_from_slice(&self.game.history()[before..]);
        }
        self.changed();
        Ok(self.announce(&records, By::Computer))
    }

    /// Whether undo has something to take back: a human's move or opening step (or any move
    /// when nobody plays by hand).
    pub fn can_undo(&self) -> bool {
        let history = self.game.history();
        if !has_human(&self.game) {
            !history.is_empty()
        } else if self.game.opening().rule().is_none() {
            history.iter().any(|r| !is_computer(&self.game, r.color) && r.mv != Move::Pass)
        } else {
            // An opening's stones are the roles', not the colours': take them back one by
            // one until a human acts (who acts after a stone is taken back placed it).
            let mut game = self.game.clone();
            while game.undo().is_ok() {
                if game.acting_player().is_human() {
                    return true;
                }
            }
            false
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
        // A move at a time, back to a human's (in an opening: the player of the step).
        self.game.undo().map_err(|_| AppError::NothingToUndo)?;
        if has_human(&self.game) {
            while !self.game.acting_player().is_human() && self.can_undo() {
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
            while !self.game.acting_player().is_human()
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
        self.end_brains();
        self.release_engines();
        Ok(self.game_over_event().map(Event::GameOver).into_iter().collect())
    }

    /// Stops the current search early: the computer plays its best move so far (a hint
    /// search shows its best move so far).
    /// An external engine keeps its own time (it cannot be told to stop).
    pub fn stop_thinking(&mut self) {
        if let Some(t) = &self.thinking {
            if t.purpose == Purpose::Hint
                || matches!(self.game.player(t.color), PlayerKind::Computer { .. })
            {
                t.cancel.cancel();
            }
        }
    }

    /// The search that should run now, if any: the computer's move when it is its turn.
    /// Marks it as running.
    pub fn next_job(&mut self) -> Option<SearchPlan> {
        // The clock of the game as it is now (a new or loaded game brings its own).
        self.sync_clock(Instant::now());
        // The computer plays only at the end of the line shown: a position stepped back to
        // is looked at, and a move played there (a new variation) is answered; "Computer
        // plays here" makes it move at a position stepped back to.
        let asked_here = self.play_here == Some((self.game_epoch, self.game.cursor()));
        if self.thinking.is_some()
            || self.game.result().is_some()
            || self.stalled_at == Some(self.generation)
            || self.editor.is_some()
            || (self.game.redo_len() > 0 && !asked_here)
            || self.computer_held()
        {
            return None;
        }
        let color = self.game.side_to_move();
        let delay = if has_human(&self.game) { Duration::ZERO } else { self.watch_delay };
        // In the opening the step's player acts (whatever the colour to move).
        let in_opening = self.game.opening_phase().step.is_some();
        let searcher = match self.game.acting_player() {
            PlayerKind::Human => return None,
            PlayerKind::Computer { level } => {
                Searcher::Level { level, slot: self.engines[color.index()].clone() }
            }
            // Every way a game enters the session keeps only engines of the list (and an
            // external engine plays no opening rule: `GameConfig::validate`).
            PlayerKind::External { id } => {
                let engine = self.engine_list.get(id)?.clone();
                Searcher::External { engine, slot: self.brains[color.index()].clone() }
            }
        };
        let mut plan = self.plan(color, Purpose::Move, delay, searcher);
        plan.opening = in_opening.then(|| self.game.clone());
        Some(plan)
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
            PlayerKind::Human | PlayerKind::External { .. } => match self.game.config().kind {
                GameKind::Gomoku { .. } => Level::Gomoku(tengen_engine::ai::GomokuLevel::Master),
                GameKind::Reversi => Level::Reversi(tengen_engine::ai::ReversiLevel::Master),
            },
        };
        self.hint = None;
        let searcher = Searcher::Level { level, slot: self.hint_engine.clone() };
        Ok(Some(self.plan(color, Purpose::Hint, Duration::ZERO, searcher)))
    }

    fn plan(
        &mut self,
        color: Color,
        purpose: Purpose,
        delay: Duration,
        searcher: Searcher,
    ) -> SearchPlan {
        let cancel = CancelFlag::new();
        self.thinking = Some(Thinking {
            color,
            purpose,
            generation: self.generation,
            cancel: cancel.clone(),
            info: None,
        });
        let time_per_move_ms = self.game.config().time_per_move_ms;
        let limits = match &searcher {
            Searcher::Level { level, .. } => self.limits(color, purpose, *level, delay),
            // A brain on a game clock is told its time left each turn (`INFO time_left`); on a
            // time per move, only when part of the move's time is spent already (a search
            // held by a pause and started again), so that it answers within what is left.
            Searcher::External { .. } => Limits {
                time_left: match self.clock.control() {
                    TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. } => self
                        .clock
                        .left(color, Instant::now())
                        .map(|ms| Duration::from_millis(ms).saturating_sub(delay)),
                    TimeControl::PerMove { move_ms } => self
                        .clock
                        .left(color, Instant::now())
                        .filter(|&ms| ms < move_ms)
                        .map(|ms| Duration::from_millis(ms).saturating_sub(delay)),
                    TimeControl::None => None,
                },
                ..Limits::default()
            },
        };
        SearchPlan {
            job: Job { generation: self.generation, color, purpose, cancel, delay },
            searcher,
            position: self.game.position().clone(),
            limits,
            seed: self.seed,
            threads: self.settings.search_threads(),
            memory: self.settings.engine_memory(),
            time_per_move_ms,
            time_control: self.game.config().time_control,
            factory: self.engine_factory.clone(),
            opening: None,
        }
    }

    /// The computer's limits: with a clock, from its time left (its share of it, or the
    /// whole of a per-move allowance, less [`clock_margin`]); a hint, or a game without a
    /// clock, takes the time per move.
    fn limits(&self, color: Color, purpose: Purpose, level: Level, delay: Duration) -> Limits {
        let per_move = Duration::from_millis(self.game.config().time_per_move_ms);
        // The clock runs through the pause before a watched move (`delay`) too.
        let left = self
            .clock
            .left(color, Instant::now())
            .map(|ms| Duration::from_millis(ms).saturating_sub(delay));
        match (purpose, left, self.clock.control()) {
            (Purpose::Move, Some(left), TimeControl::PerMove { .. }) => {
                limits_for(level, left.saturating_sub(clock_margin(left)))
            }
            (Purpose::Move, Some(left), _) => Limits {
                time_left: Some(left.saturating_sub(clock_margin(left))),
                ..Limits::default()
            },
            _ => limits_for(level, per_move),
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
        let external = self.game.player(job.color).external().is_some();
        match outcome {
            Outcome::Forfeit { reason, detail } => {
                Some(self.apply_external(job.color, Err((reason, detail))))
            }
            Outcome::Found(result) if external && job.purpose == Purpose::Move => {
                Some(self.apply_external(job.color, Ok(result.best)))
            }
            Outcome::Failed(why) => {
                self.notice = Some(Notice { code: "ai_failed", params: json!({ "detail": why }) });
                self.generation += 1;
                self.stalled_at = Some(self.generation);
                Some(Vec::new())
            }
            Outcome::Opening(acts) => match self.apply_opening(acts) {
                Ok(events) => Some(events),
                Err(e) => {
                    let detail = e.to_string();
                    self.notice =
                        Some(Notice { code: "ai_failed", params: json!({ "detail": detail }) });
                    self.generation += 1;
                    self.stalled_at = Some(self.generation);
                    Some(Vec::new())
                }
            },
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
                        // Passes are the engine's to play: a search never answers with one.
                        let legal =
                            result.best != Move::Pass && self.game.check(result.best).is_ok();
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

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_engine::ai::GomokuLevel;
    use tengen_engine::game::{EndReason, IllegalReason};
    use tengen_engine::gomoku::Rule;

    fn session(kind: GameKind, white: PlayerKind) -> Session {
        let config = GameConfig { kind, black: PlayerKind::Human, white, ..default_config() };
        Session::new(Game::new(config).unwrap(), Settings::default())
    }

    const FREESTYLE: GameKind = GameKind::Gomoku { rule: Rule::Freestyle, size: 15 };

    #[test]
    fn a_click_while_the_computer_thinks_is_refused_and_a_stale_result_dropped() {
        let computer = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::FiveTuple) };
        let mut s = session(FREESTYLE, computer);
        assert!(s.next_job().is_none(), "the human moves first");
        s.play_human(7, 7).unwrap();
        let plan = s.next_job().expect("the computer's turn");
        assert!(s.next_job().is_none(), "one search at a time");
        assert!(matches!(s.play_human(8, 8), Err(AppError::ComputerThinking)));
        assert!(matches!(s.hint_job(), Err(AppError::ComputerThinking)));
        // A new game while it thinks: the search's result belongs to an older generation.
        s.new_game(s.game.config().to_owned()).unwrap();
        assert!(plan.job.cancel.is_cancelled(), "the old search is told to stop");
        assert!(s.finish(&plan.job, Outcome::Failed("late".into())).is_none());
        assert!(s.notice.is_none() && s.thinking.is_none());
        assert_eq!(s.settings.last_config, Some(*s.game.config()));
    }

    #[test]
    fn a_refused_move_names_the_engines_reason() {
        let mut s = session(GameKind::Reversi, PlayerKind::Human);
        let Err(AppError::IllegalMove { reason, x, y, detail }) = s.play_human(0, 0) else {
            panic!("a1 flips nothing");
        };
        assert_eq!((reason, x, y), (IllegalReason::NoFlips, 0, 0));
        assert!(detail.contains("a1"), "{detail}");
        let events = s.play_human(5, 4).unwrap();
        assert!(matches!(&events[..], [Event::MovePlayed(m)] if (m.x, m.y) == (5, 4)));
        assert_eq!(s.snapshot().flipped, vec![crate::events::Xy { x: 4, y: 4 }]);
        s.undo().unwrap();
        assert!(s.snapshot().flipped.is_empty());
        s.resign().unwrap();
        let Err(AppError::IllegalMove { reason, .. }) = s.play_human(5, 4) else {
            panic!("the game is over");
        };
        assert_eq!(reason, IllegalReason::GameOver);
    }

    /// A hint from Master (two players at the board), run as the worker runs it.
    fn hint_now(s: &mut Session) {
        let plan = s.hint_job().unwrap().expect("a hint search");
        let outcome = plan.search(&plan.job.cancel, &mut |_| {});
        s.finish(&plan.job, outcome);
    }

    #[test]
    fn engine_tables_follow_the_memory_setting_and_go_back_at_the_games_end() {
        let settings = Settings { engine_memory_mib: 16, ..Settings::default() };
        let config = GameConfig {
            kind: FREESTYLE,
            black: PlayerKind::Human,
            white: PlayerKind::Human,
            time_per_move_ms: 200,
            ..default_config()
        };
        let mut s = Session::new(Game::new(config).unwrap(), settings);
        for (x, y) in [(0, 0), (0, 5), (1, 0), (1, 5)] {
            s.play_human(x, y).unwrap();
        }
        hint_now(&mut s);
        let held = s.engine_table_bytes();
        assert!(held > 0 && held <= 16 << 20, "Master's table within the setting: {held}");
        // Black makes five: the game is over and the tables go back.
        for (x, y) in [(2, 0), (2, 5), (3, 0), (3, 5), (4, 0)] {
            s.play_human(x, y).unwrap();
        }
        assert!(s.game.result().is_some());
        assert_eq!(s.engine_table_bytes(), 0);
        // Taking moves back plays on: the next hint makes a fresh engine. A resignation ends
        // the game again.
        for _ in 0..5 {
            s.undo().unwrap();
        }
        hint_now(&mut s);
        assert!(s.engine_table_bytes() > 0);
        s.resign().unwrap();
        assert_eq!(s.engine_table_bytes(), 0);
        // The default setting gives Master its default table.
        s.settings.engine_memory_mib = crate::storage::DEFAULT_ENGINE_MEMORY_MIB;
        s.new_game(config).unwrap();
        for (x, y) in [(0, 0), (0, 5), (1, 0), (1, 5)] {
            s.play_human(x, y).unwrap();
        }
        hint_now(&mut s);
        assert!(s.engine_table_bytes() > 16 << 20, "{}", s.engine_table_bytes());
    }

    #[test]
    fn snapshots_are_numbered_in_the_order_they_are_built() {
        let mut s = session(GameKind::Reversi, PlayerKind::Human);
        let first = s.snapshot();
        s.play_human(5, 4).unwrap();
        let second = s.snapshot();
        s.new_game(s.game.config().to_owned()).unwrap();
        let third = s.snapshot();
        assert!(first.seq >= 1 && first.seq < second.seq && second.seq < third.seq);
        assert_eq!(s.snapshot().seq, third.seq + 1, "an unchanged state is numbered anew");
    }

    fn timed(white: PlayerKind, time_control: TimeControl) -> Session {
        let config = GameConfig {
            kind: FREESTYLE,
            black: PlayerKind::Human,
            white,
            time_control,
            ..default_config()
        };
        Session::new(Game::new(config).unwrap(), Settings::default())
    }

    fn later(t: Instant, ms: u64) -> Instant {
        t + Duration::from_millis(ms)
    }

    #[test]
    fn the_flag_ends_the_game_on_time_and_a_late_move_loses() {
        let mut s = timed(PlayerKind::Human, TimeControl::SuddenDeath { base_ms: 10_000 });
        let t0 = Instant::now();
        s.sync_clock(t0);
        assert!(s.clock.is_running());
        assert_eq!(s.until_flag(t0), Some(Duration::from_millis(10_000)));
        assert!(s.check_flag(later(t0, 9_999)).is_none(), "not yet");
        let events = s.check_flag(later(t0, 10_000)).expect("black's flag fell");
        let [Event::GameOver(over)] = &events[..] else { panic!("{events:?}") };
        assert_eq!((over.winner, over.reason), (Some(Color::White), EndReason::Time));
        assert!(s.until_flag(later(t0, 10_000)).is_none(), "no clock runs after the game");
        let snap = s.snapshot();
        assert_eq!(snap.result.as_ref().map(|r| r.reason), Some(EndReason::Time));
        assert_eq!(snap.clock.as_ref().map(|c| (c.black_ms, c.running)), Some((0, None)));
        // A move that arrives after the flag fell is not played: the game is lost on time.
        let mut s = timed(PlayerKind::Human, TimeControl::PerMove { move_ms: 1000 });
        s.sync_clock(Instant::now() - Duration::from_millis(1500));
        let events = s.play_human(7, 7).unwrap();
        assert!(matches!(&events[..], [Event::GameOver(o)] if o.reason == EndReason::Time));
        assert!(s.game.history().is_empty());
    }

    #[test]
    fn the_humans_clock_stands_while_the_computer_thinks_on_its_own_clock() {
        let computer = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::FiveTuple) };
        let fischer = TimeControl::Fischer { base_ms: 60_000, increment_ms: 2000 };
        let mut s = timed(computer, fischer);
        s.sync_clock(Instant::now());
        s.play_human(7, 7).unwrap();
        let t1 = Instant::now();
        s.sync_clock(t1);
        let black = s.clock.left(Color::Black, t1).unwrap();
        assert!(black > 60_000, "the increment came back: {black}");
        let plan = s.next_job().expect("the computer's turn");
        let budget = plan.limits.time_left.expect("the computer plans from its clock");
        assert!(budget < Duration::from_millis(60_000) && plan.limits.time.is_none());
        let t2 = later(t1, 30_000);
        assert_eq!(s.clock.left(Color::Black, t2), Some(black), "the human's clock stands");
        assert!(s.clock.left(Color::White, t2).unwrap() <= 30_000, "the computer's runs");
        assert!(matches!(s.clock_op(ClockOp::Pause), Err(AppError::CannotPause)));
        // Without a clock the computer keeps its time per move.
        let mut s = timed(computer, TimeControl::None);
        s.play_human(7, 7).unwrap();
        let plan = s.next_job().unwrap();
        assert_eq!(plan.limits.time, Some(Duration::from_millis(DEFAULT_TIME_PER_MOVE_MS)));
        assert!(s.snapshot().clock.is_none());
    }

    #[test]
    fn pauses_stop_the_clock_and_undo_restores_the_times() {
        let mut s = timed(PlayerKind::Human, TimeControl::SuddenDeath { base_ms: 60_000 });
        let t0 = Instant::now();
        s.sync_clock(t0);
        s.pauses.dialog = true;
        s.sync_clock(later(t0, 1000));
        assert!(!s.clock.is_running() && s.until_flag(later(t0, 1000)).is_none());
        assert_eq!(s.clock.left(Color::Black, later(t0, 50_000)), Some(59_000));
        s.clock_op(ClockOp::Dialog { open: false }).unwrap();
        assert!(s.clock.is_running());
        s.clock_op(ClockOp::Pause).unwrap();
        assert!(!s.clock.is_running() && s.snapshot().clock.unwrap().paused);
        s.set_visible(false);
        s.clock_op(ClockOp::Resume).unwrap();
        assert!(!s.clock.is_running(), "still hidden");
        s.set_visible(true);
        assert!(s.clock.is_running());
        s.play_human(7, 7).unwrap();
        s.sync_clock(Instant::now());
        s.play_human(8, 8).unwrap();
        s.sync_clock(Instant::now());
        let spent = s.game.history().iter().map(|r| r.ms).collect::<Vec<_>>();
        assert!(spent[0] >= 1000, "black's move took the second before the dialog: {spent:?}");
        s.undo().unwrap();
        s.sync_clock(Instant::now());
        assert_eq!(s.clock.turn(), Color::White);
        assert_eq!(s.clock.left(Color::White, Instant::now()).map(|ms| ms > 59_000), Some(true));
        assert_eq!(s.clock.left(Color::Black, Instant::now()), Some(60_000 - spent[0]));
    }

    #[test]
    fn a_restored_game_waits_for_its_player_with_the_time_already_spent() {
        let mut s = timed(PlayerKind::Human, TimeControl::SuddenDeath { base_ms: 60_000 });
        s.play_human(7, 7).unwrap();
        let t0 = Instant::now();
        s.sync_clock(t0);
        s.sync_clock(later(t0, 5000));
        let saved = s.game.to_json();
        let game = Game::from_json(&saved).unwrap();
        assert_eq!(game.turn_ms(), 5000, "the save keeps the time on the move");
        let mut r = Session::new(game, Settings::default());
        r.restored();
        let t1 = Instant::now();
        r.sync_clock(t1);
        assert!(!r.clock.is_running(), "paused until the player comes back");
        assert_eq!(r.clock.left(Color::White, later(t1, 9000)), Some(55_000));
        r.play_human(8, 8).unwrap();
        assert!(!r.pauses.user, "a move resumes");
        r.sync_clock(Instant::now());
        assert!(r.clock.is_running());
        assert!(r.game.history()[1].ms >= 5000);
    }

    /// A session where the human (black) plays the external engine 1 (white).
    fn against_an_engine(time_control: TimeControl) -> Session {
        let mut list = crate::engines::Engines::default();
        list.add("/opt/pbrain-x".into(), engines::Protocol::Gomocup, r#"name="x""#.into(), 0)
            .unwrap();
        let white = PlayerKind::External { id: 1 };
        let config = GameConfig { kind: FREESTYLE, white, time_control, ..default_config() };
        let mut s = Session::new(Game::new(config).unwrap(), Settings::default());
        s.set_engine_list(list);
        s
    }

    #[test]
    fn an_external_engine_plays_only_its_protocols_game() {
        let mut list = crate::engines::Engines::default();
        list.add("/opt/pbrain-x".into(), engines::Protocol::Gomocup, String::new(), 0).unwrap();
        list.add("/opt/edax".into(), engines::Protocol::Nboard, String::new(), 0).unwrap();
        let mut s = Session::new(Game::new(default_config()).unwrap(), Settings::default());
        s.set_engine_list(list.clone());
        let reversi = |id| GameConfig {
            kind: GameKind::Reversi,
            white: PlayerKind::External { id },
            ..default_config()
        };
        let e = s.new_game(reversi(1)).unwrap_err();
        assert!(e.to_string().contains("does not play reversi"), "{e}");
        s.new_game(reversi(2)).unwrap();
        assert_eq!(s.game.player(Color::White), PlayerKind::External { id: 2 });
        let gomoku = GameConfig { white: PlayerKind::External { id: 2 }, ..default_config() };
        assert!(s.new_game(gomoku).is_err());
        // A restored game whose engine now plays another game gives that side to a person.
        let mut restored = Session::new(Game::new(reversi(1)).unwrap(), Settings::default());
        restored.set_engine_list(list);
        assert_eq!(restored.game.player(Color::White), PlayerKind::Human);
    }

    #[test]
    fn nobody_plays_the_engines_move_for_it() {
        let mut s = against_an_engine(TimeControl::None);
        s.play_human(7, 7).unwrap();
        // Before its search has started (and after a failed one) the turn is still its own.
        assert!(matches!(s.play_human(8, 8), Err(AppError::NotYourTurn { color: Color::White })));
        assert_eq!(s.game.history().len(), 1);
    }

    #[test]
    fn a_new_game_plans_from_its_own_clock_less_the_watch_pause() {
        // The last game ended on time: its clock shows nothing left.
        let mut s = timed(PlayerKind::Human, TimeControl::SuddenDeath { base_ms: 10_000 });
        let t0 = Instant::now() - Duration::from_secs(11);
        s.sync_clock(t0);
        assert!(s.check_flag(Instant::now()).is_some());
        // A new game with the computer to move first: it plans from the new clock.
        let computer = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::FiveTuple) };
        let minute = TimeControl::SuddenDeath { base_ms: 60_000 };
        let config = GameConfig {
            kind: FREESTYLE,
            black: computer,
            white: computer,
            time_control: minute,
            ..default_config()
        };
        s.new_game(config).unwrap();
        let plan = s.next_job().expect("the computer's move");
        let left = plan.limits.time_left.expect("on the clock");
        assert!(left > Duration::from_secs(55), "{left:?}");
        // Two programs: the watch pause runs on the clock and comes off the budget.
        assert!(left <= Duration::from_millis(60_000) - plan.job.delay, "{left:?}");
        assert!(plan.job.delay > Duration::ZERO);
    }

    #[test]
    fn the_clocks_start_when_the_opening_has_given_the_colours() {
        let config = GameConfig {
            kind: FREESTYLE,
            black: PlayerKind::Human,
            white: PlayerKind::Human,
            time_control: TimeControl::SuddenDeath { base_ms: 60_000 },
            opening: opening::OpeningRule::Swap,
            ..default_config()
        };
        let mut s = Session::new(Game::new(config).unwrap(), Settings::default());
        for (x, y) in [(7, 7), (8, 8), (9, 7)] {
            s.sync_clock(Instant::now());
            assert!(!s.clock.is_running(), "the opening's stones are placed off the clock");
            s.play_human(x, y).unwrap();
        }
        s.sync_clock(Instant::now());
        assert!(!s.clock.is_running(), "the choice of colour is off the clock too");
        s.opening_choice(Choice::Take { color: Color::White }).unwrap();
        s.sync_clock(Instant::now());
        assert!(s.game.opening_phase().step.is_none());
        assert!(s.clock.is_running(), "the game's clock runs once the colours are given");
    }

    #[test]
    fn swap2_against_the_computer_the_human_proposes_and_the_computer_chooses() {
        let computer = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::Master) };
        let config = GameConfig {
            kind: FREESTYLE,
            black: PlayerKind::Human,
            white: computer,
            time_per_move_ms: 200,
            time_control: TimeControl::None,
            opening: opening::OpeningRule::Swap2,
        };
        let mut s = Session::new(Game::new(config).unwrap(), Settings::default());
        let view = s.snapshot().opening.expect("the opening is on");
        assert!(!view.computer);
        assert!(matches!(
            s.opening_choice(Choice::PlaceTwo),
            Err(AppError::Opening { error: opening::OpeningError::StoneExpected })
        ));
        // The human (the first player) places black, white, black; the third is white's
        // turn on the board, but the human still acts.
        for (x, y) in [(7, 7), (8, 8), (9, 7)] {
            assert!(s.next_job().is_none());
            s.play_human(x, y).unwrap();
        }
        let view = s.snapshot().opening.expect("the second player chooses");
        assert!(view.computer);
        assert!(matches!(s.play_human(0, 0), Err(AppError::NotYourTurn { .. })));
        let err = s.opening_choice(Choice::Take { color: Color::Black }).unwrap_err();
        assert!(matches!(err, AppError::NotYourTurn { .. }), "{err}");
        // The computer's opening steps run as the worker runs them.
        let plan = s.next_job().expect("the computer's opening step");
        let outcome = plan.search(&plan.job.cancel, &mut |_| {});
        assert!(matches!(&outcome, Outcome::Opening(acts) if !acts.is_empty()));
        s.finish(&plan.job, outcome).expect("applied");
        assert!(s.notice.is_none(), "{:?}", s.notice);
        // Either the computer chose a colour (the opening is over) or placed two stones and
        // the human chooses now.
        match s.snapshot().opening {
            None => assert_eq!(s.game.history().len(), 3),
            Some(view) => {
                assert_eq!(s.game.history().len(), 5);
                assert!(!view.computer);
                s.opening_choice(Choice::Take { color: Color::White }).unwrap();
                assert!(s.snapshot().opening.is_none());
                assert_eq!(s.game.player(Color::White), PlayerKind::Human);
            }
        }
        let json = serde_json::to_value(s.snapshot()).unwrap();
        assert!(json["openingName"].is_object() || json["openingName"].is_null());
    }

    fn opening_session(
        black: PlayerKind,
        white: PlayerKind,
        rule: opening::OpeningRule,
    ) -> Session {
        let kind = match rule.needs_renju() {
            true => GameKind::Gomoku { rule: Rule::Renju, size: 15 },
            false => FREESTYLE,
        };
        let config = GameConfig {
            kind,
            black,
            white,
            time_per_move_ms: 200,
            time_control: TimeControl::None,
            opening: rule,
        };
        Session::new(Game::new(config).unwrap(), Settings::default())
    }

    const MASTER: PlayerKind = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::Master) };

    fn step_of(s: &Session) -> Option<opening::Step> {
        s.game.opening_phase().step
    }

    #[test]
    fn undo_in_the_opening_takes_back_the_humans_own_stone_whatever_its_colour() {
        // The human is the first player and places all three stones; the computer chooses.
        let mut s = opening_session(PlayerKind::Human, MASTER, opening::OpeningRule::Swap);
        s.play_human(7, 7).unwrap();
        s.play_human(8, 8).unwrap();
        assert!(s.can_undo());
        s.undo().unwrap();
        assert_eq!(s.game.history().len(), 1, "only the white stone the human just placed");
        assert_eq!(step_of(&s).map(|st| st.role), Some(opening::Role::First));
        s.undo().unwrap();
        assert!(s.game.history().is_empty() && !s.can_undo());
    }

    #[test]
    fn a_paused_clock_holds_the_computer_and_it_searches_again_with_its_time_left() {
        let computer = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::FiveTuple) };
        let mut s = timed(computer, TimeControl::SuddenDeath { base_ms: 60_000 });
        s.play_human(7, 7).unwrap();
        let plan = s.next_job().expect("the computer's turn");
        s.set_visible(false);
        assert!(plan.job.cancel.is_cancelled(), "its search is stopped");
        assert!(s.thinking.is_none());
        let outcome = plan.search(&plan.job.cancel, &mut |_| {});
        assert!(s.finish(&plan.job, outcome).is_none(), "its answer is not played");
        assert_eq!(s.game.history().len(), 1);
        assert!(s.next_job().is_none(), "nothing starts while the window is hidden");
        s.set_visible(true);
        s.clock_op(ClockOp::Dialog { open: true }).unwrap();
        assert!(s.next_job().is_none(), "nor while a dialog is open");
        s.clock_op(ClockOp::Dialog { open: false }).unwrap();
        let again = s.next_job().expect("the search starts again once nothing pauses");
        let left = again.limits.time_left.expect("from its clock");
        assert!(left < Duration::from_millis(60_000), "{left:?}");
        // A game without a clock has no clock to hold: its computer goes on.
        let mut s = timed(computer, TimeControl::None);
        s.play_human(7, 7).unwrap();
        let plan = s.next_job().unwrap();
        s.set_visible(false);
        assert!(!plan.job.cancel.is_cancelled());
    }

    #[test]
    fn a_restored_game_at_an_engines_turn_waits_for_continue() {
        for time_control in [TimeControl::None, TimeControl::SuddenDeath { base_ms: 60_000 }] {
            let mut s = against_an_engine(time_control);
            s.play_human(7, 7).unwrap();
            let game = Game::from_json(&s.game.to_json()).unwrap();
            let mut r = Session::new(game, Settings::default());
            r.set_engine_list(s.engine_list.clone());
            r.restored();
            assert_eq!(r.game.player(Color::White), PlayerKind::External { id: 1 });
            assert!(r.next_job().is_none(), "no program starts by itself");
            let snap = r.snapshot();
            assert_eq!(snap.engine_waits.as_deref(), Some("x"), "the page says who waits");
            if let Some(clock) = snap.clock {
                assert!(clock.paused && clock.running.is_none(), "{clock:?}");
            }
            r.clock_op(ClockOp::Resume).unwrap();
            assert!(r.snapshot().engine_waits.is_none());
            assert!(r.next_job().is_some(), "Continue starts it");
        }
        // A restored game at the human's turn does not wait for Continue.
        let mut s = against_an_engine(TimeControl::None);
        s.restored();
        assert!(s.snapshot().engine_waits.is_none());
    }

    /// A game against an engine, restored at the engine's turn (after the human's h8).
    fn restored_at_the_engines_turn(time_control: TimeControl) -> Session {
        let mut s = against_an_engine(time_control);
        s.play_human(7, 7).unwrap();
        let mut r = Session::new(Game::from_json(&s.game.to_json()).unwrap(), Settings::default());
        r.set_engine_list(s.engine_list.clone());
        r.restored();
        assert!(r.snapshot().engine_waits.is_some());
        r
    }

    #[test]
    fn an_undo_or_a_resignation_ends_the_wait_for_continue() {
        let mut r = restored_at_the_engines_turn(TimeControl::SuddenDeath { base_ms: 60_000 });
        r.undo().unwrap();
        let snap = r.snapshot();
        assert!(snap.engine_waits.is_none(), "the human's turn again");
        assert!(!snap.clock.expect("timed").paused);
        r.play_human(7, 7).unwrap();
        assert!(r.snapshot().engine_waits.is_none(), "the human's move ends the wait");
        assert!(r.next_job().is_some(), "the engine answers the human's move");
        let mut r = restored_at_the_engines_turn(TimeControl::None);
        r.resign().unwrap();
        assert!(r.snapshot().engine_waits.is_none(), "no wait on a finished game");
    }

    #[test]
    fn an_engine_started_again_after_a_pause_is_given_what_is_left_of_its_move() {
        let mut s = against_an_engine(TimeControl::PerMove { move_ms: 10_000 });
        s.play_human(7, 7).unwrap();
        let plan = s.next_job().expect("the engine's turn");
        assert_eq!(plan.limits.time_left, None, "a whole move: its time per move");
        std::thread::sleep(Duration::from_millis(30));
        s.set_visible(false);
        assert!(plan.job.cancel.is_cancelled(), "held");
        s.set_visible(true);
        let again = s.next_job().expect("started again");
        let left = again.limits.time_left.expect("what is left of the move");
        assert!(left < Duration::from_millis(10_000), "{left:?}");
    }

    #[test]
    fn a_choice_in_a_restored_timed_game_lets_the_computer_play() {
        let config = GameConfig {
            kind: FREESTYLE,
            black: MASTER,
            white: PlayerKind::Human,
            time_per_move_ms: 200,
            time_control: TimeControl::SuddenDeath { base_ms: 60_000 },
            opening: opening::OpeningRule::Swap,
        };
        let mut s = Session::new(Game::new(config).unwrap(), Settings::default());
        let plan = s.next_job().expect("the computer proposes");
        let outcome = plan.search(&plan.job.cancel, &mut |_| {});
        s.finish(&plan.job, outcome).expect("applied");
        assert_eq!(s.game.history().len(), 3);
        let mut r = Session::new(Game::from_json(&s.game.to_json()).unwrap(), Settings::default());
        r.restored();
        assert!(r.next_job().is_none(), "the human chooses");
        r.opening_choice(Choice::Take { color: Color::Black }).unwrap();
        assert!(r.next_job().is_some(), "the computer, now white, plays: the choice ends the wait");
    }
}

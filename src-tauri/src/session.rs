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
use tengen_engine::game::opening::computer::{Act, Judge};
use tengen_engine::game::opening::{self, Choice};
use tengen_engine::game::{
    Game, GameConfig, GameError, GameKind, MoveRecord, NodeId, PlayerKind, Position, Setup,
    DEFAULT_GOMOKU_SIZE, DEFAULT_TIME_PER_MOVE_MS,
};
use tengen_engine::{Color, Move, Point};

use crate::error::{AppError, AppResult};
use crate::events::{By, GameOver, MovePlayed, Notice};
use crate::snapshot::{self, Snapshot};
use crate::stats::Stats;
use crate::storage::Settings;

/// The pause before each move of a computer-vs-computer game, so people can watch.
pub const WATCH_DELAY: Duration = Duration::from_millis(400);

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
    /// Search threads (the settings').
    pub threads: usize,
    factory: EngineFactory,
    /// The game, when the computer acts in its opening (no move search then).
    opening: Option<Game>,
}

impl SearchPlan {
    /// Runs the search on the calling thread with the side's engine (made on first use).
    pub fn search(
        &self,
        cancel: &CancelFlag,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Outcome, String> {
        if let Some(game) = &self.opening {
            // The opening's judgment gets the time per move in all.
            let budget = self.limits.time.unwrap_or(Duration::from_secs(1));
            let mut judge = Judge::new(self.seed, budget);
            let acts = opening::computer::computer_acts(game, &mut judge);
            return acts.map(Outcome::Opening).map_err(|e| e.to_string());
        }
        // The slot stays locked for the search, so two searches never share an engine. The
        // engine is taken out and put back only when its search returns: one that panics
        // (half-updated tables) is dropped with the unwinding, and the next search starts
        // from a fresh engine.
        let mut guard = self.slot.lock().unwrap_or_else(|p| p.into_inner());
        let mut engine = match guard.take() {
            Some((l, engine)) if l == self.level => engine,
            _ => (self.factory)(self.level, self.seed),
        };
        engine.set_threads(self.threads);
        let result =
            engine.search(&self.position, &self.limits, cancel, report).map_err(|e| e.to_string());
        *guard = Some((self.level, engine));
        result.map(Outcome::Found)
    }
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
    /// How many snapshots were built (see [`Snapshot::seq`]).
    snapshots: u64,
    /// The board editor, while it is open (the game waits behind it).
    pub editor: Option<Editor>,
    /// What the coach said about the position shown (see `coach.rs`).
    pub coach: crate::coach::Coach,
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
        opening: Default::default(),
    }
}

fn is_computer(game: &Game, c: Color) -> bool {
    matches!(game.player(c), PlayerKind::Computer { .. })
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
            turn_started: Instant::now(),
            stalled_at: None,
            watch_delay: WATCH_DELAY,
            engine_factory: Arc::new(AnyEngine::new),
            engines: Default::default(),
            hint_engine: Default::default(),
            seed: seed_from_clock(),
            snapshots: 0,
            editor: None,
            coach: Default::default(),
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
                let config = GameConfig { black, white, ..*self.game.config() };
                config.validate().map_err(AppError::config)?;
                let game = Game::from_setup(config, setup).map_err(AppError::from)?;
                self.editor = None;
                self.load_game(game)?;
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
        self.load_game(game)?;
        self.notice = Some(Notice { code: "pasted", params: json!({ "kind": kind.code() }) });
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
        self.turn_started = Instant::now();
    }

    /// Starts a new game.
    pub fn new_game(&mut self, config: GameConfig) -> AppResult<()> {
        let game = Game::new(config).map_err(AppError::config)?;
        self.changed();
        self.editor = None;
        self.game = game;
        self.counted = false;
        self.engines = Default::default();
        self.hint_engine = Default::default();
        self.seed = self.seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        self.settings.last_config = Some(config);
        Ok(())
    }

    /// Replaces the game by one that was opened or restored. Its configuration is checked
    /// again here (whatever read it), so no game outside the limits enters the session.
    pub fn load_game(&mut self, game: Game) -> AppResult<()> {
        game.config().validate().map_err(AppError::config)?;
        self.changed();
        self.editor = None;
        self.counted = game.result().is_some();
        self.game = game;
        self.engines = Default::default();
        self.hint_engine = Default::default();
        Ok(())
    }

    /// Plays `mv` (the engine checks it) and records what the UI announces.
    fn apply(&mut self, mv: Move, by: By) -> AppResult<Vec<Event>> {
        let ms = self.turn_started.elapsed().as_millis() as u64;
        let records = self.game.play(mv, ms).map_err(|e| AppError::refused(e, mv))?;
        self.changed();
        Ok(self.played(&records, by))
    }

    /// The events of `records` just played (the first by `by`), with the game's end.
    fn played(&mut self, records: &[MoveRecord], by: By) -> Vec<Event> {
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
        self.apply(Move::Place(Point::new(x, y)), By::Human)
    }

    /// Refuses a human's action while the computer acts now (its move or opening step).
    fn human_acts(&self) -> AppResult<()> {
        let color = self.game.side_to_move();
        if self.game.result().is_none()
            && matches!(self.game.acting_player(), PlayerKind::Computer { .. })
        {
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
        let ms = self.turn_started.elapsed().as_millis() as u64;
        let records = self.game.opening_choice(choice, ms).map_err(|e| match e {
            GameError::Opening(error) => AppError::Opening { error },
            GameError::GameOver => AppError::GameOver,
            e => AppError::Internal(e.to_string()),
        })?;
        self.changed();
        Ok(self.played(&records, By::Human))
    }

    /// The computer's opening steps, each checked again by the game.
    fn apply_opening(&mut self, acts: Vec<Act>) -> AppResult<Vec<Event>> {
        let ms = self.turn_started.elapsed().as_millis() as u64;
        let mut records = Vec::new();
        for act in acts {
            let before = self.game.history().len();
            opening::computer::apply(&mut self.game, act, ms)
                .map_err(|e| AppError::Internal(e.to_string()))?;
            records.extend_from_slice(&self.game.history()[before..]);
        }
        self.changed();
        Ok(self.played(&records, By::Computer))
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
        // The computer plays only at the end of the line shown: a position stepped back to
        // is looked at, and a move played there (a new variation) is answered.
        if self.thinking.is_some()
            || self.game.result().is_some()
            || self.stalled_at == Some(self.generation)
            || self.editor.is_some()
            || self.game.redo_len() > 0
        {
            return None;
        }
        let color = self.game.side_to_move();
        // In the opening the step's player acts (whatever the colour to move).
        let PlayerKind::Computer { level } = self.game.acting_player() else { return None };
        let delay = if has_human(&self.game) { Duration::ZERO } else { self.watch_delay };
        let slot = self.engines[color.index()].clone();
        let in_opening = self.game.opening_phase().step.is_some();
        let mut plan = self.plan(color, Purpose::Move, delay, level, slot);
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
            threads: self.settings.search_threads(),
            factory: self.engine_factory.clone(),
            opening: None,
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
    use tengen_engine::game::IllegalReason;
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

    #[test]
    fn swap2_against_the_computer_the_human_proposes_and_the_computer_chooses() {
        let computer = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::Master) };
        let config = GameConfig {
            kind: FREESTYLE,
            black: PlayerKind::Human,
            white: computer,
            time_per_move_ms: 200,
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
        let outcome = plan.search(&plan.job.cancel, &mut |_| {}).unwrap();
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
}

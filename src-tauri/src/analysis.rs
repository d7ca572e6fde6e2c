//! Live analysis: the "Analyse" switch runs the strongest level of the game without end
//! on the position shown ([`Session::shown_position`]), and starts again whenever that position
//! changes. It pauses while the computer chooses its own move (that search has priority),
//! while the board editor is open (the stones shown are the editor's, not the position
//! analysed) and while the window is hidden, and resumes after.
//!
//! [`sync`] is the one place that decides: it is called after every published snapshot
//! (every change of the game) and by the analysis commands. The search runs on Tokio's
//! blocking pool with the engine's own deepening loop (`AnyEngine::analyse`); what it finds
//! goes to the page as the small `analysis` event ([`AnalysisUpdate`]), at most every
//! [`UPDATE_INTERVAL`] while it runs, and at once when it starts, ends or pauses.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde::Serialize;
use tauri::{AppHandle, Emitter, Manager, Runtime};
use tengen_engine::ai::analysis::Outlook;
use tengen_engine::ai::{
    AnyEngine, Bound, CancelFlag, GomokuLevel, Level, PvLine, ReversiLevel, SearchInfo,
};
use tengen_engine::game::Position;
use tengen_engine::{Color, Move};

use crate::error::{AppError, AppResult};
use crate::runtime::AppState;
use crate::session::{Purpose, Session};
use crate::worker::Throttle;

/// The event that carries analysis results.
pub const ANALYSIS: &str = "analysis";

/// The shortest time between two `analysis` events while a run searches: the engine
/// reports every 90 ms or so, and each report goes out (the page sees an update at least
/// every 200 ms with room for a loaded machine).
pub const UPDATE_INTERVAL: std::time::Duration = std::time::Duration::from_millis(50);

/// How many best moves may be listed (the setting's range).
pub const MIN_LINES: u8 = 1;
pub const MAX_LINES: u8 = 5;
/// Lines listed when nothing else was chosen.
pub const DEFAULT_LINES: u8 = 3;

/// Whether the computer needs the engine now (its own move, or a game review, has priority
/// over analysis).
fn computer_busy(session: &Session) -> bool {
    session.thinking.as_ref().is_some_and(|t| t.purpose == Purpose::Move)
        || session.review.running.is_some()
}

/// Whether analysis waits: the computer needs the engine, or the board editor is open (its
/// board is not the position shown, and the candidates would cover the stones edited).
fn held(session: &Session) -> bool {
    computer_busy(session) || session.editor.is_some()
}

/// What the switch and the setting say (the answer of the analysis commands).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AnalysisSettings {
    pub on: bool,
    pub lines: u8,
}

/// Why analysis is not running, or that it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AnalysisState {
    /// Searching.
    Running,
    /// Finished by itself: every line is proven (or the engine cannot go deeper).
    Done,
    /// Waiting for the computer's move, for the board editor to close, or for the window to
    /// be shown again.
    Paused,
    /// The game is over: nothing to analyse.
    Over,
    /// Switched off.
    Off,
}

/// One stone of a principal variation, with the colour that plays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PvStone {
    pub x: u8,
    pub y: u8,
    pub color: Color,
    pub label: String,
}

/// One analysed move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisLine {
    pub x: u8,
    pub y: u8,
    /// A Reversi pass (then x = y = 0).
    pub pass: bool,
    pub label: String,
    /// The score as a player reads it (see [`Outlook`]).
    pub outlook: Outlook,
    /// Whether the score is the move's value or only a bound of it.
    pub bound: Bound,
    pub depth: u32,
    /// The principal variation from this move on (passes left out).
    pub pv: Vec<PvStone>,
}

/// Payload of `analysis`: the lines of the last completed depth, best first (Reversi: every
/// legal move, the UI lists the first `lines` and writes every value on the board), and
/// the search's progress.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisUpdate {
    /// Numbers the analysis runs (one per position); the page ignores older runs.
    pub run: u64,
    pub state: AnalysisState,
    /// How many lines the player asked for.
    pub wanted: u8,
    /// The side to move in the analysed position.
    pub color: Color,
    pub depth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub elapsed_ms: u64,
    pub lines: Vec<AnalysisLine>,
}

/// The analysis's own state, managed next to the session (never locked together with it).
pub struct Analysis {
    settings: AnalysisSettings,
    visible: bool,
    /// The last run started (0: none yet).
    run: u64,
    running: Option<Running>,
    /// What the page was last told when analysis is not running (so that it is told once).
    told: Option<AnalysisState>,
    /// The engine, kept between runs so that its table carries over; made on first use,
    /// dropped (its tables given back) when analysis is switched off or the game is over.
    engine: EngineSlot,
}

/// The analysis engine with the memory (bytes) it was made for.
type EngineSlot = Arc<Mutex<Option<(Level, usize, AnyEngine)>>>;

/// A run under way (or finished, still showing its lines).
struct Running {
    run: u64,
    key: String,
    lines: u8,
    cancel: CancelFlag,
}

/// What [`Analysis::decide`] asks for.
enum Decision {
    /// Nothing changes.
    Keep,
    /// Start this run (any older one is cancelled).
    Start(Plan),
    /// Tell the page analysis is not running, and why.
    Stopped(AnalysisState),
}

/// Everything a run needs.
struct Plan {
    run: u64,
    position: Position,
    wanted: u8,
    cancel: CancelFlag,
    engine: EngineSlot,
    /// The bytes the engine's tables may take (the settings').
    memory: usize,
}

/// The position's identity: its stones and the side to move.
fn key_of(pos: &Position) -> String {
    let n = pos.size();
    let mut key = String::with_capacity(usize::from(n) * usize::from(n) + 1);
    for y in 0..n {
        for x in 0..n {
            key.push(match pos.stone(tengen_engine::Point::new(x, y)) {
                Some(Color::Black) => 'x',
                Some(Color::White) => 'o',
                None => '.',
            });
        }
    }
    key.push(if pos.side_to_move() == Color::Black { 'x' } else { 'o' });
    key
}

impl Default for Analysis {
    fn default() -> Analysis {
        Analysis {
            settings: AnalysisSettings { on: false, lines: DEFAULT_LINES },
            visible: true,
            run: 0,
            running: None,
            told: None,
            engine: Arc::default(),
        }
    }
}

impl Analysis {
    pub fn settings(&self) -> AnalysisSettings {
        self.settings
    }

    /// Switches analysis on or off with `lines` best moves; `lines` out of 1–5 is refused.
    pub fn set(&mut self, on: bool, lines: u8) -> AppResult<AnalysisSettings> {
        if !(MIN_LINES..=MAX_LINES).contains(&lines) {
            return Err(AppError::invalid(
                "lines",
                format!("{lines} is not between {MIN_LINES} and {MAX_LINES}"),
            ));
        }
        self.settings = AnalysisSettings { on, lines };
        Ok(self.settings)
    }

    /// Whether the window is shown (a hidden window pauses analysis).
    pub fn set_visible(&mut self, visible: bool) {
        self.visible = visible;
    }

    /// Whether `run` is the newest run and still wanted.
    fn current(&self, run: u64) -> bool {
        self.running.as_ref().is_some_and(|r| r.run == run && !r.cancel.is_cancelled())
    }

    fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.cancel.cancel();
        }
    }

    /// Bytes the engine's tables hold now (0 while a run searches with it).
    pub fn table_bytes(&self) -> usize {
        match self.engine.try_lock() {
            Ok(slot) => slot.as_ref().map_or(0, |(_, _, e)| e.table_bytes()),
            Err(_) => 0,
        }
    }

    /// What to do now that the position shown is `pos` (`busy`: the computer is choosing
    /// its move, or the editor is open; `memory`: the bytes the engine's tables may take).
    /// Switched off or at the game's end, the engine is dropped with its tables (a run still
    /// searching keeps it until it stops); paused, it is kept.
    fn decide(&mut self, pos: &Position, busy: bool, memory: usize) -> Decision {
        let why_not = if !self.settings.on {
            Some(AnalysisState::Off)
        } else if busy || !self.visible {
            Some(AnalysisState::Paused)
        } else if pos.is_over() {
            Some(AnalysisState::Over)
        } else {
            None
        };
        if let Some(state) = why_not {
            let was = self.running.is_some();
            self.stop();
            if state != AnalysisState::Paused {
                self.engine = Arc::default();
            }
            let news = was || self.told != Some(state);
            self.told = Some(state);
            return if news { Decision::Stopped(state) } else { Decision::Keep };
        }
        self.told = None;
        let key = key_of(pos);
        let lines = self.settings.lines;
        if self.running.as_ref().is_some_and(|r| r.key == key && r.lines == lines) {
            return Decision::Keep;
        }
        self.stop();
        self.run += 1;
        let cancel = CancelFlag::new();
        self.running = Some(Running { run: self.run, key, lines, cancel: cancel.clone() });
        Decision::Start(Plan {
            run: self.run,
            position: pos.clone(),
            wanted: lines,
            cancel,
            engine: self.engine.clone(),
            memory,
        })
    }
}

/// The analysis in managed state.
#[derive(Default)]
pub struct AnalysisHandle(Mutex<Analysis>);

impl AnalysisHandle {
    pub fn lock(&self) -> MutexGuard<'_, Analysis> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The strongest level of the position's game: the one that searches multi-PV.
fn level_for(pos: &Position) -> Level {
    match pos {
        Position::Gomoku(_) => Level::Gomoku(GomokuLevel::Master),
        Position::Reversi(_) => Level::Reversi(ReversiLevel::Master),
    }
}

/// How many lines the engine is asked for: Reversi every legal move (each gets its value on
/// the board), Gomoku the lines wanted.
fn engine_lines(pos: &Position, wanted: u8) -> usize {
    match pos {
        Position::Reversi(_) => pos.legal_points().len().max(1),
        Position::Gomoku(_) => usize::from(wanted),
    }
}

/// A line for the page: labels in the game's notation, the PV stones with their colours
/// (replayed on the position, passing when the rules demand it).
pub fn line_for(pos: &Position, line: &PvLine) -> AnalysisLine {
    let (x, y, pass) = match line.mv {
        Move::Place(p) => (p.x, p.y, false),
        Move::Pass => (0, 0, true),
    };
    let mut replay = pos.clone();
    let mut pv = Vec::new();
    for &m in &line.pv {
        if replay.must_pass() && m != Move::Pass && replay.play(Move::Pass).is_err() {
            break;
        }
        let color = replay.side_to_move();
        let label = replay.move_label(m);
        if replay.play(m).is_err() {
            break;
        }
        if let Move::Place(p) = m {
            pv.push(PvStone { x: p.x, y: p.y, color, label });
        }
    }
    AnalysisLine {
        x,
        y,
        pass,
        label: pos.move_label(line.mv),
        outlook: Outlook::of(pos, line.score),
        bound: line.bound,
        depth: line.depth,
        pv,
    }
}

/// Starts, restarts, pauses or stops analysis to match the switch, the window and the
/// position shown. Never holds the session's lock and the analysis's together.
pub fn sync<R: Runtime>(app: &AppHandle<R>) {
    let (Some(state), Some(handle)) =
        (app.try_state::<AppState>(), app.try_state::<AnalysisHandle>())
    else {
        return;
    };
    let (pos, busy, memory) = {
        let session = state.lock();
        let memory = session.settings.engine_memory();
        (session.shown_position().clone(), held(&session), memory)
    };
    let (decision, run, wanted) = {
        let mut a = handle.lock();
        let d = a.decide(&pos, busy, memory);
        (d, a.run, a.settings.lines)
    };
    match decision {
        Decision::Keep => {}
        Decision::Stopped(s) => {
            let _ = app.emit(ANALYSIS, empty_update(run, s, wanted, &pos));
        }
        Decision::Start(plan) => launch(app.clone(), plan),
    }
}

fn empty_update(run: u64, state: AnalysisState, wanted: u8, pos: &Position) -> AnalysisUpdate {
    AnalysisUpdate {
        run,
        state,
        wanted,
        color: pos.side_to_move(),
        depth: 0,
        nodes: 0,
        nps: 0,
        elapsed_ms: 0,
        lines: Vec::new(),
    }
}

/// Runs `plan` on a background thread (`worker::spawn_background`), sending `analysis` events while it is the newest run.
fn launch<R: Runtime>(app: AppHandle<R>, plan: Plan) {
    crate::worker::spawn_background("tengen-analysis", move || {
        let Plan { run, position, wanted, cancel, engine, memory } = plan;
        let current = |app: &AppHandle<R>| {
            app.try_state::<AnalysisHandle>().is_some_and(|h| h.lock().current(run))
        };
        let started = Instant::now();
        let mut update = empty_update(run, AnalysisState::Running, wanted, &position);
        let _ = app.emit(ANALYSIS, &update);
        // The latest lines and progress, shared by the two callbacks.
        let latest = Mutex::new((update.clone(), Throttle::new(UPDATE_INTERVAL)));
        let send = |f: &dyn Fn(&mut AnalysisUpdate), force: bool| {
            let mut l = latest.lock().unwrap_or_else(|p| p.into_inner());
            f(&mut l.0);
            l.0.elapsed_ms = started.elapsed().as_millis() as u64;
            if (l.1.ready(Instant::now()) || force) && current(&app) {
                let _ = app.emit(ANALYSIS, &l.0);
            }
        };
        let mut progress = |info: &SearchInfo| {
            send(
                &|u| {
                    u.nodes = u.nodes.max(info.nodes);
                    u.nps = info.nps;
                },
                false,
            )
        };
        let mut lines = |found: &[PvLine]| {
            let shown: Vec<AnalysisLine> = found.iter().map(|l| line_for(&position, l)).collect();
            let depth = found.iter().map(|l| l.depth).max().unwrap_or(0);
            send(
                &|u| {
                    u.lines = shown.clone();
                    u.depth = depth;
                },
                false,
            )
        };
        let level = level_for(&position);
        let n = engine_lines(&position, wanted);
        let result = {
            let mut slot = engine.lock().unwrap_or_else(|p| p.into_inner());
            let mut e = match slot.take() {
                Some((l, m, e)) if (l, m) == (level, memory) => e,
                _ => AnyEngine::with_memory(level, 0x7e4_6e11, memory),
            };
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                e.analyse(&position, n, &cancel, &mut progress, &mut lines)
            }));
            if r.is_ok() {
                *slot = Some((level, memory, e));
            }
            r
        };
        update = latest.into_inner().unwrap_or_else(|p| p.into_inner()).0;
        update.state = match result {
            Ok(Ok(_)) => AnalysisState::Done,
            _ => AnalysisState::Off,
        };
        update.elapsed_ms = started.elapsed().as_millis() as u64;
        if !cancel.is_cancelled() && current(&app) {
            let _ = app.emit(ANALYSIS, &update);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_engine::game::GameKind;
    use tengen_engine::gomoku::Rule;

    fn gomoku() -> Position {
        Position::new(GameKind::Gomoku { rule: Rule::Freestyle, size: 15 }).unwrap()
    }

    const MIB: usize = 1 << 20;

    fn started(d: Decision) -> u64 {
        match d {
            Decision::Start(p) => p.run,
            _ => panic!("no run started"),
        }
    }

    #[test]
    fn the_number_of_lines_is_bounded() {
        let mut a = Analysis::default();
        assert_eq!(a.set(true, 5).unwrap(), AnalysisSettings { on: true, lines: 5 });
        for bad in [0, 6, 255] {
            let e = a.set(true, bad).unwrap_err();
            assert_eq!(e.code(), "invalid_argument");
        }
        assert_eq!(a.settings(), AnalysisSettings { on: true, lines: 5 });
    }

    #[test]
    fn runs_start_once_per_position_and_stop_pause_and_resume() {
        let mut a = Analysis::default();
        let mut pos = gomoku();
        assert!(matches!(a.decide(&pos, false, MIB), Decision::Stopped(AnalysisState::Off)));
        // Said once: the next change while off is news to nobody.
        assert!(matches!(a.decide(&pos, false, MIB), Decision::Keep));
        a.set(true, 2).unwrap();
        let first = started(a.decide(&pos, false, MIB));
        // The same position: the run goes on.
        assert!(matches!(a.decide(&pos, false, MIB), Decision::Keep));
        assert!(a.current(first));
        // A move: a new run, the old one cancelled.
        pos.play(Move::Place(tengen_engine::Point::new(7, 7))).unwrap();
        let second = started(a.decide(&pos, false, MIB));
        assert!(second > first && !a.current(first) && a.current(second));
        // The computer's move pauses it; then it starts again.
        assert!(matches!(a.decide(&pos, true, MIB), Decision::Stopped(AnalysisState::Paused)));
        assert!(!a.current(second));
        let third = started(a.decide(&pos, false, MIB));
        // A hidden window pauses it too; more lines restart it.
        a.set_visible(false);
        assert!(matches!(a.decide(&pos, false, MIB), Decision::Stopped(AnalysisState::Paused)));
        a.set_visible(true);
        let fourth = started(a.decide(&pos, false, MIB));
        a.set(true, 4).unwrap();
        let fifth = started(a.decide(&pos, false, MIB));
        assert!(third < fourth && fourth < fifth);
        // Off.
        a.set(false, 4).unwrap();
        assert!(matches!(a.decide(&pos, false, MIB), Decision::Stopped(AnalysisState::Off)));
        assert!(!a.current(fifth));
        assert!(matches!(a.decide(&pos, true, MIB), Decision::Keep));
    }

    #[test]
    fn the_engine_and_its_tables_go_when_analysis_is_switched_off_and_stay_while_paused() {
        let mut a = Analysis::default();
        let mut pos = gomoku();
        for (x, y) in [(7, 7), (8, 8), (8, 7)] {
            pos.play(Move::Place(tengen_engine::Point::new(x, y))).unwrap();
        }
        a.set(true, 1).unwrap();
        let Decision::Start(plan) = a.decide(&pos, false, 16 * MIB) else { panic!("no run") };
        assert_eq!(plan.memory, 16 * MIB);
        // What a run leaves in the slot: the engine after a search, its table held.
        let level = level_for(&pos);
        let mut engine = AnyEngine::with_memory(level, 1, plan.memory);
        let limits = tengen_engine::ai::Limits::depth(2);
        engine.search(&pos, &limits, &CancelFlag::new(), &mut |_| {}).unwrap();
        *plan.engine.lock().unwrap() = Some((level, plan.memory, engine));
        let held = a.table_bytes();
        assert!(held > 0 && held <= 16 * MIB, "{held}");
        assert!(matches!(a.decide(&pos, true, 16 * MIB), Decision::Stopped(AnalysisState::Paused)));
        assert_eq!(a.table_bytes(), held, "paused: kept for the next run");
        a.set(false, 1).unwrap();
        assert!(matches!(a.decide(&pos, false, 16 * MIB), Decision::Stopped(AnalysisState::Off)));
        assert_eq!(a.table_bytes(), 0, "switched off: given back");
    }

    #[test]
    fn lines_carry_labels_scores_and_coloured_pv_stones() {
        let pos = gomoku();
        let p = |x, y| Move::Place(tengen_engine::Point::new(x, y));
        let line = PvLine {
            mv: p(7, 7),
            score: tengen_engine::ai::Score::Win(3),
            bound: Bound::Exact,
            depth: 5,
            seldepth: 7,
            pv: vec![p(7, 7), p(8, 8), p(6, 6)],
        };
        let shown = line_for(&pos, &line);
        assert_eq!((shown.x, shown.y, shown.pass, shown.label.as_str()), (7, 7, false, "h8"));
        assert_eq!(shown.outlook, Outlook::Wins { winner: Color::Black, moves: 2 });
        let colors: Vec<Color> = shown.pv.iter().map(|s| s.color).collect();
        assert_eq!(colors, [Color::Black, Color::White, Color::Black]);
        assert_eq!(shown.pv[1].label, "i7");
    }
}

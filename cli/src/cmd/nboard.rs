//! `tengen nboard`: Tengen's Reversi engine as an NBoard engine, on stdin/stdout.
//!
//! NBoard (and other GUIs and managers that host NBoard engines) start the engine and speak
//! protocol version 2 ([`protocol`]). A reader thread reads stdin as bytes (bounded lines)
//! and forwards them over a channel, and the engine searches on a thread of its own with a
//! cancel flag, so that `ping` and `quit` are heard during a search: `ping` stops it, its
//! answer is sent, then `pong`; `quit` stops it and ends at once. A bad line is reported on
//! stderr (`Error: ...`, as other NBoard engines do; the protocol says to ignore the line)
//! and the engine goes on.
//!
//! Search limits:
//! - `set depth N` is the midgame depth. Master solves the endgame exactly from
//!   min(2N, 20) empties (20 is where Master solves with about a second); the other levels
//!   search N plies. Without `set depth`, the level's own default (about a second).
//! - `go` also honours the game's clock when the GGF has one (`TI`, `TB`, `TW`): the time
//!   left (main time, increments, less the move times the record gives) is passed as
//!   [`Limits::time_left`], and the search control (`ai::control`) decides the move's share,
//!   as it does for the Gomocup brain.
//! - `hint N` lists the N best moves at the depth, without the clock (as the protocol says).
//! - `analyze` searches every position of the game at the depth, the last first, and sends
//!   `analysis K EVAL` for each as it is found (K moves made, passes counted).
//!
//! While a search runs (after its first 100 ms), each new depth, score or best move is
//! reported: `nodestats`, and for a hint the best line so far as a `search` line (the GUI
//! keeps each move's latest line).

mod protocol;

use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use tengen_engine::ai::reversi::board::Board;
use tengen_engine::ai::reversi::master::SOLVE_FROM;
use tengen_engine::ai::{
    AnyEngine, Bound, CancelFlag, Level, Limits, PvLine, ReversiLevel, Score, SearchInfo,
    SearchResult,
};
use tengen_engine::reversi::ggf::{self, GgfGame, MAX_GGF_BYTES};
use tengen_engine::reversi::Position;

use super::lines::Line;
use super::CmdResult;
use protocol::Command;

/// The level (a Reversi level) and seed.
pub use super::lines::EngineArgs as Args;

/// Why the engine stopped.
#[derive(Debug, thiserror::Error)]
pub enum NboardError {
    #[error(transparent)]
    Level(#[from] tengen_engine::ai::ParseLevelError),
    #[error("cannot write to the GUI: {0}")]
    Io(#[from] std::io::Error),
}

/// The name sent with `set myname`.
const NAME: &str = "Tengen";

pub fn run(args: Args) -> CmdResult {
    Ok(serve(&args)?)
}

/// The empties from which Master solves exactly at `set depth` `depth`.
fn exact_from(depth: u32) -> u32 {
    depth.saturating_mul(2).min(SOLVE_FROM)
}

/// What the engine knows between commands.
struct Session {
    level: ReversiLevel,
    /// The game all commands are about; `None` after a `set game` or `move` was refused
    /// (the GUI's game is then unknown until the next `set game`).
    game: Option<GgfGame>,
    /// The `set depth` (`None`: the level's default limits).
    depth: Option<u32>,
}

impl Session {
    /// The limits of a search of `game`'s last position; with the game's time left for `go`
    /// (`clock`), whose share for the move the search control decides.
    fn limits(&self, game: &GgfGame, clock: bool) -> Limits {
        let pos = game.position();
        let empties = pos.empties();
        let depth = self.depth.map(|n| {
            if self.level == ReversiLevel::Master && empties <= exact_from(n) {
                empties
            } else {
                n
            }
        });
        let time_left = if clock { game.time_left(pos.side_to_move()) } else { None };
        Limits { depth, time_left, ..Limits::default() }
    }
}

/// What a search is for.
#[derive(Clone, Copy, Debug)]
enum Job {
    Go,
    Hint(usize),
    /// A retrograde analysis of every position of the game.
    Analyze,
}

/// A search's outcome, for the main thread to write.
#[derive(Debug)]
enum Answer {
    Go(SearchResult),
    /// The best lines, best first.
    Hint(Vec<PvLine>),
    /// The analysis was sent as it went.
    Analyzed,
}

/// A search order for the search thread.
struct Order {
    id: u64,
    /// The position to search; for [`Job::Analyze`], every position of the game.
    positions: Vec<Position>,
    limits: Limits,
    job: Job,
    cancel: CancelFlag,
}

/// What reaches the main thread.
#[derive(Debug)]
enum Input {
    /// A line of text (without its line ending).
    Line(String),
    /// Input that is not a protocol line (over-long, or not UTF-8): why.
    Bad(String),
    /// The input ended or failed.
    End,
    /// Search `.0` reports progress: the lines to send.
    Progress(u64, Vec<String>),
    /// Search `.0` finished after `.2`: its answer, or `None` if it failed.
    Done(u64, Option<Answer>, Duration),
}

/// What a progress report of `job` says to the GUI while the search goes on: `nodestats`,
/// and for a hint the best line so far (the GUI keeps each move's latest evaluation).
fn progress_lines(job: Job, info: &SearchInfo) -> Vec<String> {
    let mut lines = Vec::new();
    if let (Job::Hint(_), Some(&mv)) = (job, info.pv.first()) {
        let line = PvLine {
            mv,
            score: info.score,
            bound: Bound::Exact,
            depth: info.depth,
            seldepth: info.seldepth,
            pv: info.pv.clone(),
        };
        lines.push(protocol::search_line(&line));
    }
    let seconds = Duration::from_millis(info.elapsed_ms).as_secs_f64();
    lines.push(protocol::nodestats_line(info.nodes, seconds));
    lines
}

/// Progress is reported once a search has run this long (milliseconds), so that quick
/// searches send their answer alone and the GUI keeps no stale shallow lines.
const PROGRESS_AFTER_MS: u64 = 100;

/// Starts the thread that owns the engine and runs the searches in order. Each search's
/// progress goes to the main thread when its depth, score or best move changes (after
/// [`PROGRESS_AFTER_MS`]).
fn spawn_searcher(level: ReversiLevel, seed: u64, done: Sender<Input>) -> Sender<Order> {
    let (orders, inbox) = mpsc::channel::<Order>();
    thread::spawn(move || {
        let new_engine = || AnyEngine::new(Level::Reversi(level), seed);
        let mut engine = new_engine();
        for Order { id, positions, limits, job, cancel } in inbox {
            let start = Instant::now();
            let Some(&last) = positions.last() else {
                // Never sent; answered as a failed search all the same.
                let _ = done.send(Input::Done(id, None, Duration::ZERO));
                continue;
            };
            let pos = tengen_engine::game::Position::Reversi(last);
            let mut last = None;
            let mut report = |info: &SearchInfo| {
                let now = (info.depth, info.score, info.pv.first().copied());
                if info.elapsed_ms >= PROGRESS_AFTER_MS && info.depth > 0 && last != Some(now) {
                    last = Some(now);
                    let _ = done.send(Input::Progress(id, progress_lines(job, info)));
                }
            };
            let mut run = || match job {
                Job::Go => engine.search(&pos, &limits, &cancel, &mut report).ok().map(Answer::Go),
                Job::Hint(n) => engine
                    .search_multi(&pos, &limits, n, &cancel, &mut report)
                    .ok()
                    .map(Answer::Hint),
                Job::Analyze => {
                    let mut send = |line| {
                        let _ = done.send(Input::Progress(id, vec![line]));
                    };
                    analyze(&mut engine, &positions, &limits, &cancel, &mut send);
                    Some(Answer::Analyzed)
                }
            };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(&mut run));
            if result.is_err() {
                engine = new_engine(); // its state is unknown
            }
            if done.send(Input::Done(id, result.ok().flatten(), start.elapsed())).is_err() {
                return;
            }
        }
    });
    orders
}

/// `score` seen from the other side.
fn negated(score: Score) -> Score {
    match score {
        Score::Eval(v) => Score::Eval(-v),
        Score::Exact(v) => Score::Exact(-v),
        Score::Win(n) => Score::Loss(n),
        Score::Loss(n) => Score::Win(n),
    }
}

/// A retrograde analysis: each position of the game, the last first (so that each search
/// finds the later ones in the engine's tables), searched with `limits`; `send` gets
/// `analysis K EVAL` for the position after K moves (passes count), EVAL for its side to
/// move. A finished game is scored exactly (empties to the winner); a side that must pass is
/// scored as the position after the pass, seen from the other side. Stops when cancelled.
fn analyze(
    engine: &mut AnyEngine,
    positions: &[Position],
    limits: &Limits,
    cancel: &CancelFlag,
    send: &mut dyn FnMut(String),
) {
    let mut search = |p: Position| {
        let pos = tengen_engine::game::Position::Reversi(p);
        let r = engine.search(&pos, limits, cancel, &mut |_| {}).ok()?;
        (!cancel.is_cancelled()).then_some(r.info.score)
    };
    let mut later: Option<Score> = None;
    for (k, &p) in positions.iter().enumerate().rev() {
        let score = if p.is_game_over() {
            Some(Score::Exact(Board::from_position(&p).final_diff()))
        } else if p.must_pass() {
            later.or_else(|| search(p.after_pass())).map(negated)
        } else {
            search(p)
        };
        let Some(score) = score else { return }; // cancelled
        send(format!("analysis {k} {}", protocol::eval_text(score)));
        later = Some(score);
    }
}

/// The search under way.
struct Running {
    id: u64,
    cancel: CancelFlag,
}

/// Whether to go on after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The engine's side of the conversation.
struct Engine<W: Write> {
    session: Session,
    out: W,
    orders: Sender<Order>,
    rx: Receiver<Input>,
    /// Lines read while waiting for a stopped search, handled next.
    pending: VecDeque<Input>,
    running: Option<Running>,
    next_id: u64,
}

impl<W: Write> Engine<W> {
    fn send(&mut self, lines: &[String]) -> std::io::Result<()> {
        for l in lines {
            writeln!(self.out, "{l}")?;
        }
        self.out.flush()
    }

    fn next_input(&mut self) -> Input {
        self.pending.pop_front().unwrap_or_else(|| self.rx.recv().unwrap_or(Input::End))
    }

    /// Writes a search's progress (if it is the one running).
    fn progress(&mut self, id: u64, lines: &[String]) -> std::io::Result<()> {
        if self.running.as_ref().is_some_and(|r| r.id == id) {
            self.send(lines)?;
        }
        Ok(())
    }

    /// Writes the answer of a finished search (if it is the one running).
    fn finished(&mut self, id: u64, answer: Option<Answer>, took: Duration) -> std::io::Result<()> {
        if self.running.as_ref().is_none_or(|r| r.id != id) {
            return Ok(());
        }
        self.running = None;
        let seconds = took.as_secs_f64();
        let lines = match answer {
            Some(Answer::Go(r)) => vec![
                protocol::nodestats_line(r.info.nodes, seconds),
                protocol::move_line(r.best, r.info.score, seconds),
                "status".to_string(),
            ],
            Some(Answer::Analyzed) => vec!["status".to_string()],
            Some(Answer::Hint(lines)) => {
                let mut out: Vec<String> = lines.iter().map(protocol::search_line).collect();
                out.push("status".to_string());
                out
            }
            None => {
                eprintln!("Error: the search failed");
                vec!["status".to_string()]
            }
        };
        self.send(&lines)
    }

    /// Stops the running search and writes its answer; [`Flow::Quit`] if `quit` (or the
    /// end of the input) came meanwhile.
    fn stop_search(&mut self) -> std::io::Result<Flow> {
        let Some(running) = &self.running else { return Ok(Flow::Continue) };
        running.cancel.cancel();
        let id = running.id;
        loop {
            match self.rx.recv().unwrap_or(Input::End) {
                Input::Done(done, answer, took) if done == id => {
                    self.finished(done, answer, took)?;
                    return Ok(Flow::Continue);
                }
                Input::Done(..) => {}
                Input::Progress(p, lines) => self.progress(p, &lines)?,
                Input::End => return Ok(Flow::Quit),
                Input::Line(l) if protocol::parse(&l) == Ok(Command::Quit) => {
                    return Ok(Flow::Quit)
                }
                input => self.pending.push_back(input),
            }
        }
    }

    /// Starts `job` on the current game, or says why it cannot.
    fn start(&mut self, job: Job) -> std::io::Result<()> {
        let Some(game) = &self.session.game else {
            eprintln!("Error: no game to search: the last set game or move was refused");
            return self.send(&["status".to_string()]);
        };
        if game.position().is_game_over() && !matches!(job, Job::Analyze) {
            eprintln!("Error: the game is over");
            return self.send(&["status".to_string()]);
        }
        let limits = self.session.limits(game, matches!(job, Job::Go));
        let positions = match job {
            Job::Analyze => game.positions().to_vec(),
            Job::Go | Job::Hint(_) => vec![*game.position()],
        };
        let cancel = CancelFlag::new();
        self.next_id += 1;
        let id = self.next_id;
        let order = Order { id, positions, limits, job, cancel: cancel.clone() };
        if self.orders.send(order).is_err() {
            eprintln!("Error: the search thread is gone");
            return self.send(&["status".to_string()]);
        }
        self.running = Some(Running { id, cancel });
        self.send(&[format!("status {NAME} is thinking")])
    }

    fn handle(&mut self, line: &str) -> std::io::Result<Flow> {
        let cmd = match protocol::parse(line) {
            Ok(cmd) => cmd,
            Err(e) => {
                eprintln!("Error: {e}");
                return Ok(Flow::Continue);
            }
        };
        if cmd == Command::Quit {
            if let Some(r) = &self.running {
                r.cancel.cancel();
            }
            return Ok(Flow::Quit);
        }
        if cmd.stops_the_search() && self.stop_search()? == Flow::Quit {
            return Ok(Flow::Quit);
        }
        match cmd {
            Command::Nboard(version) => {
                if version != 2 {
                    eprintln!("Error: Tengen speaks NBoard protocol 2, not {version}");
                }
                self.send(&[format!("set myname {NAME}")])?;
            }
            Command::SetDepth(n) => self.session.depth = Some(n),
            Command::SetContempt(_) => {} // draws are worth 0: Tengen has no contempt
            Command::SetGame(text) => {
                self.session.game = match ggf::parse(&text) {
                    Ok(game) => Some(game),
                    Err(e) => {
                        eprintln!("Error: set game refused: {e}");
                        None
                    }
                };
            }
            Command::Move(m) => {
                if let Some(game) = &mut self.session.game {
                    if let Err(e) = game.play(None, m) {
                        eprintln!("Error: move {} refused: {e}", protocol::move_text(m.mv));
                        self.session.game = None;
                    }
                } else {
                    eprintln!("Error: move ignored: no game (the last set game was refused)");
                }
            }
            Command::Hint(n) => {
                let n = n.min(protocol::MAX_HINTS) as usize;
                self.start(Job::Hint(n))?;
            }
            Command::Go => self.start(Job::Go)?,
            Command::Ping(n) if n.is_empty() => self.send(&["pong".to_string()])?,
            Command::Ping(n) => self.send(&[format!("pong {n}")])?,
            Command::Learn => self.send(&["learned".to_string()])?,
            Command::Analyze => self.start(Job::Analyze)?,
            Command::Quit | Command::Empty => {}
        }
        Ok(Flow::Continue)
    }
}

fn serve(args: &Args) -> Result<(), NboardError> {
    let Level::Reversi(level) = Level::parse_for("reversi", &args.level)? else {
        unreachable!("parse_for(\"reversi\") only returns reversi levels")
    };
    let seed = super::lines::seed_or_clock(args.seed);
    let (tx, rx) = mpsc::channel::<Input>();
    let orders = spawn_searcher(level, seed, tx.clone());
    super::lines::spawn_stdin_reader(tx, MAX_LINE_BYTES, input_of, Input::End);
    let mut engine = Engine {
        session: Session { level, game: Some(GgfGame::default()), depth: None },
        out: std::io::stdout().lock(),
        orders,
        rx,
        pending: VecDeque::new(),
        running: None,
        next_id: 0,
    };
    loop {
        match engine.next_input() {
            Input::Line(l) => {
                if engine.handle(&l)? == Flow::Quit {
                    return Ok(());
                }
            }
            Input::Bad(why) => eprintln!("Error: {why}"),
            Input::End => {
                if let Some(r) = &engine.running {
                    r.cancel.cancel();
                }
                return Ok(());
            }
            Input::Progress(id, lines) => engine.progress(id, &lines)?,
            Input::Done(id, answer, took) => engine.finished(id, answer, took)?,
        }
    }
}

/// The longest line read: a `set game` with the longest GGF record accepted, and its
/// command words. The rest of a longer line is skipped.
const MAX_LINE_BYTES: u64 = MAX_GGF_BYTES as u64 + 64;

/// What a line read becomes: a line that is not UTF-8 is [`Input::Bad`], except `set game`,
/// whose player names may be in a legacy code page: it is kept, decoded lossily (the names
/// are not used).
fn input_of(line: Line) -> Input {
    let (text, utf8) = match line {
        Line::TooLong => {
            return Input::Bad(format!("the line is longer than {MAX_LINE_BYTES} bytes"))
        }
        Line::Text { text, utf8 } => (text, utf8),
    };
    if !utf8 {
        let mut words = text.split_whitespace();
        let set_game = words.next().is_some_and(|w| w.eq_ignore_ascii_case("set"))
            && words.next().is_some_and(|w| w.eq_ignore_ascii_case("game"));
        if !set_game {
            return Input::Bad("the line is not UTF-8 text".to_string());
        }
    }
    Input::Line(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_engine::ai::control::time_budget;

    fn lines(bytes: &[u8]) -> Vec<String> {
        let mut input = bytes;
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(line) = super::super::lines::read_line(&mut input, &mut buf, MAX_LINE_BYTES)
            .unwrap()
            .map(input_of)
        {
            out.push(match line {
                Input::Line(l) => l,
                Input::Bad(why) => format!("BAD {why}"),
                other => panic!("{other:?}"),
            });
        }
        out
    }

    #[test]
    fn reads_lines_as_bytes_with_a_bound() {
        assert_eq!(lines(b"nboard 2\r\nping 1\ngo"), ["nboard 2", "ping 1", "go"]);
        assert_eq!(
            lines(b"set game (;PB[Jos\xe9];)\nping \xff\nquit\n"),
            ["set game (;PB[Jos\u{fffd}];)", "BAD the line is not UTF-8 text", "quit"]
        );
        let mut long = vec![b'x'; 3 * MAX_LINE_BYTES as usize];
        long.extend_from_slice(b"\nping 2\n");
        let read = lines(&long);
        assert_eq!(read.len(), 2);
        assert!(read[0].starts_with("BAD the line is longer"), "{}", read[0]);
        assert_eq!(read[1], "ping 2");
    }

    #[test]
    fn depth_and_clock_make_the_limits() {
        let session = |level, depth| Session { level, game: None, depth };
        let game = GgfGame::default();
        let master = session(ReversiLevel::Master, Some(10));
        assert_eq!(master.limits(&game, true), Limits::depth(10));
        assert_eq!(session(ReversiLevel::Strong, None).limits(&game, true), Limits::default());
        // Near the end Master is given the empties, to solve exactly; other levels not.
        let end = "(;GM[Othello]BO[8 ******** ******** ******** ******** ******** ******** \
                   OOOOO*-- OOOOO*-- *];)";
        let end = ggf::parse(end).unwrap();
        assert_eq!(master.limits(&end, true).depth, Some(4));
        assert_eq!(session(ReversiLevel::Strong, Some(1)).limits(&end, true).depth, Some(1));
        assert_eq!(session(ReversiLevel::Master, Some(1)).limits(&end, true).depth, Some(1));
        // The clock: 15 minutes left, of which the control gives the move a twelfth; not
        // for hints.
        let timed = ggf::parse(
            "(;GM[Othello]TI[15:00]BO[8 ---------------------------O*------*O------------\
             --------------- *];)",
        )
        .unwrap();
        let l = master.limits(&timed, true);
        assert_eq!(l.time_left, Some(Duration::from_secs(900)));
        assert_eq!(l.time, None);
        assert_eq!(time_budget(&l, None), Some(Duration::from_secs(75)));
        assert_eq!(master.limits(&timed, false), Limits::depth(10));
    }

    #[test]
    fn progress_reports_the_best_line_for_hints() {
        let f5 = tengen_engine::Move::Place(tengen_engine::Point::new(5, 4));
        let info = SearchInfo {
            depth: 7,
            nodes: 1234,
            elapsed_ms: 500,
            score: tengen_engine::ai::Score::Eval(-75),
            pv: vec![f5],
            ..SearchInfo::default()
        };
        assert_eq!(
            progress_lines(Job::Hint(3), &info),
            ["search F5 -0.75 0 7", "nodestats 1234 0.50"]
        );
        assert_eq!(progress_lines(Job::Go, &info), ["nodestats 1234 0.50"]);
    }

    #[test]
    fn the_exact_solve_starts_at_twice_the_depth() {
        assert_eq!(exact_from(4), 8);
        assert_eq!(exact_from(30), SOLVE_FROM);
    }
}

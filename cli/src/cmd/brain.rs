//! `tengen brain`: a Gomocup (Piskvork) brain on stdin/stdout.
//!
//! A reader thread reads stdin as bytes (bounded lines, lossy text) and forwards them over a
//! channel, so that commands arriving while the engine thinks (END above all) are never
//! lost: END cancels the search and quits at once; anything else waits until the move is
//! sent. The engine lives on a search thread of its own ([`SearchThread`]). A search is
//! cancelled when the move budget (timeout_turn less a margin, a share of time_left) runs
//! out, and the brain answers by the reply deadline whatever happens: with the search's
//! answer, or, if the search or the machine is too slow, with the best move it reported (and
//! for YXNBEST the lines it reported).

mod protocol;
mod session;

use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use tengen_engine::ai::analysis::Outlook;
use tengen_engine::ai::{
    gomoku_engine, Bound, CancelFlag, Engine, GomokuLevel, Level, Limits, PvLine, Score, SearchInfo,
};
use tengen_engine::gomoku::Position;
use tengen_engine::{Color, Move, Point};

use super::CmdResult;
use protocol::Command;
use session::{Action, Session};

/// The level (a Gomoku level) and seed.
pub use super::lines::EngineArgs as Args;

/// Why the brain stopped.
#[derive(Debug, thiserror::Error)]
pub enum BrainError {
    #[error(transparent)]
    Level(#[from] tengen_engine::ai::ParseLevelError),
    #[error("cannot write to the manager: {0}")]
    Io(#[from] std::io::Error),
}

/// The brain's engine: any Gomoku level (Master lists its best moves for YXNBEST, the
/// others answer with their one move).
type BrainEngine = Box<dyn Engine<Position>>;

/// A new engine of `level`, sized to fit the manager's `max_memory` (0 = no limit given:
/// the engine's default), less room for the process itself (code, stacks, buffers).
fn make_engine(level: GomokuLevel, seed: u64, max_memory: u64) -> BrainEngine {
    let memory = (max_memory > 0)
        .then(|| usize::try_from(max_memory.saturating_sub(8 << 20)).unwrap_or(usize::MAX));
    gomoku_engine(level, seed, memory)
}

/// What a search is asked for.
#[derive(Clone, Copy)]
enum Job {
    /// The move to play.
    Move,
    /// The `n` best moves (YXNBEST), the first of which is played; `detail`: also as
    /// Yixin-Board's INFO blocks.
    Best { n: usize, detail: bool },
}

/// A search's answer: the move, and the lines to print before it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Answer {
    mv: Move,
    lines: Vec<String>,
}

/// A score as Yixin-Board shows it: the evaluation, or `+M n` / `-M n` for a win / loss in
/// n plies.
fn score_text(score: Score) -> String {
    match score {
        Score::Eval(v) | Score::Exact(v) => v.to_string(),
        Score::Win(n) => format!("+M{n}"),
        Score::Loss(n) => format!("-M{n}"),
    }
}

/// A line's moves as the protocol writes them: `x,y x,y ...` (passes left out).
fn moves_text(pv: &[Move]) -> String {
    let moves: Vec<String> =
        pv.iter().filter_map(|m| m.point().map(|p| format!("{},{}", p.x, p.y))).collect();
    moves.join(" ")
}

/// The lines that answer YXNBEST before the move, as Rapfi writes them for Yixin-Board: one
/// `MESSAGE (k) SCORE | DEPTH-SELDEPTH | x,y x,y ...` per line, best first, and with
/// `detail` (`INFO SHOW_DETAIL` 2 or 3) each line's INFO block too (`INFO PV k`, `INFO NUMPV`,
/// `INFO DEPTH`, `INFO SELDEPTH`, `INFO NODES`, `INFO TOTALNODES`, `INFO TOTALTIME`,
/// `INFO SPEED`, `INFO EVAL`, `INFO WINRATE`, `INFO BESTLINE`, `INFO PV DONE`; k from 0),
/// which a program reads the N best moves from. The win rate is the side to move's chance
/// ([`Outlook`]); the nodes and time are the whole search's (`info`).
fn nbest_lines(pvs: &[PvLine], info: &SearchInfo, mover: Color, detail: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for (k, l) in pvs.iter().enumerate() {
        let moves = moves_text(&l.pv);
        let moves = if moves.is_empty() { moves_text(&[l.mv]) } else { moves };
        if detail {
            let rate = Outlook::gomoku(l.score, mover).win_rate(mover);
            lines.extend([
                format!("INFO PV {k}"),
                format!("INFO NUMPV {}", pvs.len()),
                format!("INFO DEPTH {}", l.depth),
                format!("INFO SELDEPTH {}", l.seldepth),
                format!("INFO NODES {}", info.nodes),
                format!("INFO TOTALNODES {}", info.nodes),
                format!("INFO TOTALTIME {}", info.elapsed_ms),
                format!("INFO SPEED {}", info.nps),
                format!("INFO EVAL {}", score_text(l.score)),
                format!("INFO WINRATE {rate:.4}"),
                format!("INFO BESTLINE {moves}"),
                "INFO PV DONE".to_string(),
            ]);
        }
        lines.push(format!(
            "MESSAGE ({}) {} | {}-{} | {}",
            k + 1,
            score_text(l.score),
            l.depth,
            l.seldepth,
            moves
        ));
    }
    lines
}

/// The lines the search had reported when the reply deadline came, for a YXNBEST answered
/// without its search's own answer: the reported principal line first (if it starts with
/// `mv`, the move sent), then up to `n - 1` other root moves the first search scored
/// (legal ones; their scores are null-window upper bounds), best first.
fn reported_lines(info: &SearchInfo, mv: Move, n: usize, pos: &Position) -> Vec<PvLine> {
    if info.pv.first() != Some(&mv) {
        return Vec::new();
    }
    let line = |mv: Move, score, bound, pv| PvLine {
        mv,
        score,
        bound,
        depth: info.depth,
        seldepth: info.seldepth,
        pv,
    };
    let legal = |m: Move| matches!(m, Move::Place(p) if pos.is_legal(p).is_ok());
    let mut lines = vec![line(mv, info.score, Bound::Exact, info.pv.clone())];
    for c in &info.candidates {
        if lines.len() >= n {
            break;
        }
        if legal(c.mv) && lines.iter().all(|l| l.mv != c.mv) {
            lines.push(line(c.mv, c.score, Bound::Upper, vec![c.mv]));
        }
    }
    lines
}

/// Runs `job` on `pos` (on the search thread); the search's last report that names a move
/// goes to `best` as it comes.
fn answer(
    engine: &mut BrainEngine,
    pos: &Position,
    job: Job,
    limits: &Limits,
    cancel: &CancelFlag,
    best: &Mutex<Option<SearchInfo>>,
) -> Answer {
    // The last report of the (first) search, for the DEBUG line.
    let mut last = SearchInfo::default();
    let mut report = |info: &SearchInfo| {
        if !info.pv.is_empty() {
            *best.lock().unwrap_or_else(|e| e.into_inner()) = Some(info.clone());
        }
        last = info.clone();
    };
    let mut lines = Vec::new();
    let (mv, info) = match job {
        Job::Best { n, detail } => {
            let pvs = engine.search_multi(pos, limits, n, cancel, &mut report);
            let Some(first) = pvs.first() else {
                return Answer { mv: Move::Pass, lines: Vec::new() };
            };
            lines = nbest_lines(&pvs, &last, pos.side_to_move(), detail);
            (first.mv, last)
        }
        Job::Move => {
            let r = engine.search(pos, limits, cancel, &mut report);
            (r.best, r.info)
        }
    };
    lines.push(format!(
        "DEBUG depth {} seldepth {} nodes {} nps {} time {} ms score {:?}",
        info.depth, info.seldepth, info.nodes, info.nps, info.elapsed_ms, info.score
    ));
    Answer { mv, lines }
}

pub fn run(args: Args) -> CmdResult {
    Ok(serve(&args)?)
}

fn serve(args: &Args) -> Result<(), BrainError> {
    let Level::Gomoku(level) = Level::parse_for("gomoku", &args.level)? else {
        unreachable!("parse_for(\"gomoku\") only returns gomoku levels")
    };
    let seed = super::lines::seed_or_clock(args.seed);
    let (tx, rx) = mpsc::channel::<Input>();
    // The search thread says on the same channel when a search is done.
    let mut searcher = SearchThread::spawn(level, seed, tx.clone());
    // Stops when stdin ends or fails; the loop below then finishes its work and quits.
    super::lines::spawn_stdin_reader(tx, MAX_LINE_BYTES, input_of, Input::End);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut session = Session::new();
    let mut pending: VecDeque<Input> = VecDeque::new();
    loop {
        let input = match pending.pop_front() {
            Some(input) => input,
            None => match rx.recv() {
                Ok(input) => input,
                Err(_) => return Ok(()), // the reader is gone
            },
        };
        let line = match input {
            Input::Line(line) => line,
            Input::Bad(what) => {
                writeln!(out, "ERROR {what}")?;
                out.flush()?;
                continue;
            }
            Input::End => return Ok(()),       // stdin closed
            Input::SearchDone(..) => continue, // a search answered late (already replaced)
        };
        if line.trim().is_empty() {
            continue;
        }
        let cmd = match protocol::parse(&line) {
            Ok(cmd) => cmd,
            Err(e) => {
                writeln!(out, "ERROR {e}")?;
                out.flush()?;
                continue;
            }
        };
        let new_game = matches!(cmd, Command::Start(_) | Command::Restart);
        let action = session.handle(cmd);
        for l in session.take_notices() {
            writeln!(out, "{l}")?;
        }
        out.flush()?;
        match action {
            Action::Quit => return Ok(()),
            Action::Reply(lines) => {
                if new_game && lines.first().is_some_and(|l| l == "OK") {
                    searcher.clear();
                    // Build the engine and its rule's tables now, before OK, so the first
                    // move's time is all search (the search table is still taken lazily).
                    if let Some(pos) = &session.pos {
                        let memory = session.controls.max_memory;
                        if searcher.prepare(pos, memory, &rx, &mut pending) == Outcome::Quit {
                            return Ok(());
                        }
                    }
                }
                for l in lines {
                    writeln!(out, "{l}")?;
                }
                out.flush()?;
            }
            Action::ClearTables(lines) => {
                searcher.clear();
                for l in lines {
                    writeln!(out, "{l}")?;
                }
                out.flush()?;
            }
            action @ (Action::Think | Action::ThinkBest(_)) => {
                let Some(pos) = session.pos.clone() else { continue };
                let job = match action {
                    Action::ThinkBest(n) => Job::Best {
                        n: usize::try_from(n).unwrap_or(usize::MAX),
                        detail: session.show_detail,
                    },
                    _ => Job::Move,
                };
                let controls = &session.controls;
                let request = Request {
                    pos,
                    job,
                    limits: controls.limits(),
                    budget: controls.move_budget(),
                    memory: controls.max_memory,
                    threads: controls.threads,
                };
                let deadline = Instant::now() + controls.reply_time();
                let answer = match searcher.think(request, deadline, &rx, &mut pending) {
                    Outcome::Quit => return Ok(()), // END while thinking
                    Outcome::Failed | Outcome::Prepared => {
                        writeln!(out, "ERROR the search failed")?;
                        out.flush()?;
                        continue;
                    }
                    Outcome::Answer(answer) => answer,
                };
                match answer.mv {
                    Move::Place(p) if session.play_own(p).is_ok() => {
                        for l in &answer.lines {
                            writeln!(out, "{l}")?;
                        }
                        writeln!(out, "{},{}", p.x, p.y)?;
                    }
                    _ => writeln!(out, "ERROR no legal move")?,
                }
                out.flush()?;
            }
        }
    }
}

/// The longest START / RESTART waits for the engine to be made.
const PREPARE_TIME: Duration = Duration::from_secs(3);

/// A search for the search thread.
struct Request {
    pos: Position,
    job: Job,
    limits: Limits,
    /// The search's time ([`session::Controls::move_budget`]): it is cancelled after it.
    budget: Duration,
    /// The manager's max_memory (0: none): a new value makes a new engine.
    memory: u64,
    /// Search threads (`INFO thread_num`).
    threads: usize,
}

/// What the search thread is told.
enum Order {
    Search {
        id: u64,
        request: Request,
        cancel: CancelFlag,
        best: Arc<Mutex<Option<SearchInfo>>>,
    },
    /// A new game or YXHASHCLEAR: forget the tables.
    Clear,
    /// A new game: make the engine (for this max_memory) and build the tables of the
    /// position's rule, then say `SearchDone(id, None)`.
    Prepare {
        id: u64,
        pos: Position,
        memory: u64,
    },
}

/// The thread that owns the engine and runs one search at a time, in order. The main
/// thread keeps reading commands, and answers by the reply deadline even if a search (or
/// the machine) is slow: with the best move the search has reported so far, or a legal
/// move near the last one; the late search's own answer is then dropped.
struct SearchThread {
    orders: Sender<Order>,
    next_id: u64,
}

impl SearchThread {
    fn spawn(level: GomokuLevel, seed: u64, done: Sender<Input>) -> SearchThread {
        let (orders, inbox) = mpsc::channel::<Order>();
        thread::spawn(move || {
            let mut engine: Option<(BrainEngine, u64)> = None;
            for order in inbox {
                match order {
                    Order::Clear => {
                        if let Some((e, _)) = &mut engine {
                            e.clear();
                        }
                    }
                    Order::Prepare { id, pos, memory } => {
                        if engine.as_ref().is_some_and(|(_, m)| *m != memory) {
                            engine = None;
                        }
                        let (e, _) = engine
                            .get_or_insert_with(|| (make_engine(level, seed, memory), memory));
                        // Tables built on first use (Master's patterns of the rule).
                        e.prepare(&pos);
                        if done.send(Input::SearchDone(id, None)).is_err() {
                            return;
                        }
                    }
                    Order::Search { id, request, cancel, best } => {
                        let r = &request;
                        if engine.as_ref().is_some_and(|(_, memory)| *memory != r.memory) {
                            engine = None; // a new max_memory: a new engine
                        }
                        // Made here if not at START, inside the move's reply time.
                        let (e, _) = engine
                            .get_or_insert_with(|| (make_engine(level, seed, r.memory), r.memory));
                        e.set_threads(r.threads);
                        let run = || answer(e, &r.pos, r.job, &r.limits, &cancel, &best);
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run));
                        if result.is_err() {
                            engine = None; // its state is unknown: start from a new one
                        }
                        if done.send(Input::SearchDone(id, result.ok())).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        SearchThread { orders, next_id: 0 }
    }

    fn clear(&mut self) {
        let _ = self.orders.send(Order::Clear);
    }

    /// Sends the order `make` builds with a new id; the id, or `None` if the search thread
    /// is gone.
    fn order(&mut self, make: impl FnOnce(u64) -> Order) -> Option<u64> {
        self.next_id += 1;
        self.orders.send(make(self.next_id)).ok().map(|()| self.next_id)
    }

    /// Has the search thread make the engine for `pos`'s game and wait for it (a few
    /// seconds at most; commands arriving meanwhile are kept).
    fn prepare(
        &mut self,
        pos: &Position,
        memory: u64,
        rx: &Receiver<Input>,
        pending: &mut VecDeque<Input>,
    ) -> Outcome {
        let Some(id) = self.order(|id| Order::Prepare { id, pos: pos.clone(), memory }) else {
            return Outcome::Failed;
        };
        let deadline = Instant::now() + PREPARE_TIME;
        loop {
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Input::SearchDone(done, _)) if done == id => return Outcome::Prepared,
                Ok(Input::SearchDone(..)) => {}
                Ok(Input::Line(l)) if protocol::parse(&l) == Ok(Command::End) => {
                    return Outcome::Quit
                }
                Ok(input) => pending.push_back(input),
                Err(RecvTimeoutError::Timeout) => return Outcome::Prepared,
                Err(RecvTimeoutError::Disconnected) => return Outcome::Quit,
            }
        }
    }

    /// Runs `request` on the search thread while still reading commands; cancels it when
    /// its time is up, and answers by `deadline` whatever happens.
    fn think(
        &mut self,
        request: Request,
        deadline: Instant,
        rx: &Receiver<Input>,
        pending: &mut VecDeque<Input>,
    ) -> Outcome {
        let cancel = CancelFlag::new();
        let best = Arc::new(Mutex::new(None));
        let stop_at = Instant::now() + request.budget;
        let pos = request.pos.clone();
        let job = request.job;
        let (c, b) = (cancel.clone(), best.clone());
        let Some(id) = self.order(|id| Order::Search { id, request, cancel: c, best: b }) else {
            return Outcome::Failed;
        };
        loop {
            let now = Instant::now();
            if now >= deadline {
                // Answer now; the search's own answer will be dropped.
                cancel.cancel();
                let known = best.lock().unwrap_or_else(|e| e.into_inner()).take();
                let mv = fallback_move(&pos, known.as_ref().and_then(|i| i.pv.first().copied()));
                let mut lines = vec!["MESSAGE the search ran out of time".to_string()];
                // YXNBEST: the lines reported so far, so the board still shows candidates.
                if let (Job::Best { n, detail }, Some(info)) = (job, &known) {
                    let pvs = reported_lines(info, mv, n, &pos);
                    lines.extend(nbest_lines(&pvs, info, pos.side_to_move(), detail));
                }
                return Outcome::Answer(Answer { mv, lines });
            }
            if now >= stop_at {
                // The search's time is up: stop it (it answers within milliseconds).
                cancel.cancel();
            }
            let next = if cancel.is_cancelled() { deadline } else { stop_at.min(deadline) };
            match rx.recv_timeout(next.saturating_duration_since(now)) {
                Ok(Input::SearchDone(done, result)) if done == id => {
                    return result.map_or(Outcome::Failed, Outcome::Answer);
                }
                Ok(Input::SearchDone(..)) => {} // an earlier, late search
                Ok(Input::Line(l)) if protocol::parse(&l) == Ok(Command::End) => {
                    cancel.cancel();
                    return Outcome::Quit;
                }
                Ok(input) => pending.push_back(input),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Outcome::Quit,
            }
        }
    }
}

/// The move to send when the search could not answer in time: the best move it reported,
/// if it is legal here, else the legal point nearest the last move (the centre on an empty
/// board). `Pass` only on a full board.
fn fallback_move(pos: &Position, known: Option<Move>) -> Move {
    let legal = |p: Point| pos.is_legal(p).is_ok();
    if let Some(Move::Place(p)) = known {
        if legal(p) {
            return Move::Place(p);
        }
    }
    let size = pos.size();
    let centre = Point::new(size / 2, size / 2);
    let near = pos.moves().last().copied().unwrap_or(centre);
    let distance = |p: Point| (p.x.abs_diff(near.x)).max(p.y.abs_diff(near.y));
    (0..size)
        .flat_map(|y| (0..size).map(move |x| Point::new(x, y)))
        .filter(|&p| legal(p))
        .min_by_key(|&p| distance(p))
        .map_or(Move::Pass, Move::Place)
}

/// The longest line the brain reads; the rest of a longer line is skipped. Real commands
/// are short; `INFO folder` carries a path (at most a few hundred bytes).
const MAX_LINE_BYTES: u64 = 65536;

/// What the reader thread passes on.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Input {
    /// A line of text (without its line ending).
    Line(String),
    /// Input that is not a protocol line at all: a line over [`MAX_LINE_BYTES`], or one
    /// that is not UTF-8 text (for any command but INFO, whose free-text values, such as a
    /// folder in the system code page, are kept lossily). Answered with `ERROR` and this.
    Bad(&'static str),
    /// The input ended (or failed): nothing more will come.
    End,
    /// The search thread finished search number `.0` (its answer, or `None` if it failed).
    SearchDone(u64, Option<Answer>),
}

/// Reads one line of at most [`MAX_LINE_BYTES`] as bytes (`None` at the end of the input).
/// The manager's text is not trusted to be UTF-8 (Piskvork sends `INFO folder` in the
/// system code page): it is decoded lossily, and a line that needed it is
/// [`Input::Bad`] unless it is an INFO line.
#[cfg(test)]
fn read_line(
    input: &mut impl std::io::BufRead,
    bytes: &mut Vec<u8>,
) -> std::io::Result<Option<Input>> {
    Ok(super::lines::read_line(input, bytes, MAX_LINE_BYTES)?.map(input_of))
}

/// What a line read becomes (see [`read_line`]).
fn input_of(line: super::lines::Line) -> Input {
    let (text, utf8) = match line {
        super::lines::Line::TooLong => return Input::Bad("the line is longer than 65536 bytes"),
        super::lines::Line::Text { text, utf8 } => (text, utf8),
    };
    let is_info = text.trim_start().get(..4).is_some_and(|w| w.eq_ignore_ascii_case("INFO"));
    if !utf8 && !is_info {
        return Input::Bad("the line is not UTF-8 text");
    }
    Input::Line(text)
}

/// How a search ended.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Answer(Answer),
    /// The engine is ready (or took longer than [`PREPARE_TIME`]: the first move makes it).
    Prepared,
    /// The search thread panicked (a bug): answered with ERROR, the brain goes on.
    Failed,
    /// END arrived while thinking: the search was cancelled.
    Quit,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Input> {
        let mut input = bytes;
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut input, &mut buf).unwrap() {
            out.push(line);
        }
        out
    }

    #[test]
    fn the_fallback_move_is_legal_and_near_the_last_move() {
        use tengen_engine::gomoku::Rule;
        let mut pos = Position::new(15, Rule::Renju).unwrap();
        assert_eq!(fallback_move(&pos, None), Move::Place(Point::new(7, 7)));
        pos.play(Point::new(7, 7)).unwrap();
        let Move::Place(p) = fallback_move(&pos, None) else { panic!() };
        assert!(p.x.abs_diff(7) <= 1 && p.y.abs_diff(7) <= 1 && p != Point::new(7, 7));
        // A reported move is kept when legal, replaced when not.
        let known = Move::Place(Point::new(3, 3));
        assert_eq!(fallback_move(&pos, Some(known)), known);
        let taken = Move::Place(Point::new(7, 7));
        assert_ne!(fallback_move(&pos, Some(taken)), taken);
        // Black's forbidden point (an overline at 5,7) is never the fallback.
        let mut pos = Position::new(15, Rule::Renju).unwrap();
        for (i, x) in [2u8, 3, 4, 6, 7, 8].into_iter().enumerate() {
            pos.play(Point::new(x, 7)).unwrap();
            pos.play(Point::new(0, 2 * i as u8)).unwrap();
        }
        let overline = Move::Place(Point::new(5, 7));
        assert_ne!(fallback_move(&pos, Some(overline)), overline);
        assert!(
            matches!(fallback_move(&pos, None), Move::Place(p) if pos.is_forbidden(p).is_none())
        );
        // White may play black's forbidden point.
        pos.play(Point::new(14, 14)).unwrap();
        assert!(pos.is_forbidden(Point::new(5, 7)).is_some());
        assert_eq!(fallback_move(&pos, Some(overline)), overline);
    }

    /// A YXNBEST answered at the reply deadline lists what the search had reported: its
    /// principal line, then the other scored root moves that are legal, at most `n` in all.
    #[test]
    fn a_late_yxnbest_lists_the_reported_line_and_candidates() {
        use tengen_engine::ai::Candidate;
        use tengen_engine::gomoku::Rule;
        let p = |x, y| Move::Place(Point::new(x, y));
        let mut pos = Position::new(15, Rule::Freestyle).unwrap();
        pos.play(Point::new(7, 7)).unwrap();
        let info = SearchInfo {
            depth: 6,
            seldepth: 11,
            score: Score::Eval(40),
            pv: vec![p(8, 8), p(6, 6)],
            candidates: vec![
                Candidate { mv: p(8, 8), score: Score::Eval(40) },
                Candidate { mv: p(7, 7), score: Score::Eval(35) }, // taken: left out
                Candidate { mv: p(8, 7), score: Score::Eval(30) },
                Candidate { mv: p(6, 7), score: Score::Eval(-5) },
            ],
            ..SearchInfo::default()
        };
        let lines = reported_lines(&info, p(8, 8), 2, &pos);
        let moves: Vec<Move> = lines.iter().map(|l| l.mv).collect();
        assert_eq!(moves, [p(8, 8), p(8, 7)]);
        assert_eq!(lines[0].pv, info.pv);
        assert_eq!((lines[1].score, lines[1].bound), (Score::Eval(30), Bound::Upper));
        assert_eq!(reported_lines(&info, p(8, 8), 5, &pos).len(), 3);
        let text = nbest_lines(&lines, &info, Color::White, false);
        assert_eq!(text, ["MESSAGE (1) 40 | 6-11 | 8,8 6,6", "MESSAGE (2) 30 | 6-11 | 8,7"]);
        // The fallback played another move: the report does not describe it.
        assert!(reported_lines(&info, p(0, 0), 3, &pos).is_empty());
    }

    #[test]
    fn yxnbest_answers_with_rapfis_message_lines_and_yixin_boards_info_blocks() {
        let p = |x, y| Move::Place(Point::new(x, y));
        let line = |mv, score, pv: Vec<Move>| PvLine {
            mv,
            score,
            bound: Bound::Exact,
            depth: 9,
            seldepth: 14,
            pv,
        };
        // One logistic unit below even.
        let unit = tengen_engine::ai::analysis::GOMOKU_LOGISTIC_SCALE as i32;
        let pvs = vec![
            line(p(7, 7), Score::Win(5), vec![p(7, 7), p(8, 8), p(6, 6)]),
            line(p(6, 7), Score::Eval(-unit), vec![p(6, 7)]),
        ];
        let info = SearchInfo { nodes: 1234, nps: 5000, elapsed_ms: 246, ..SearchInfo::default() };
        let brief = nbest_lines(&pvs, &info, Color::Black, false);
        assert_eq!(
            brief,
            [
                "MESSAGE (1) +M5 | 9-14 | 7,7 8,8 6,6".to_string(),
                format!("MESSAGE (2) -{unit} | 9-14 | 6,7")
            ]
        );
        let full = nbest_lines(&pvs, &info, Color::Black, true);
        assert_eq!(full.len(), 2 * 13);
        assert_eq!(
            full[..13],
            [
                "INFO PV 0",
                "INFO NUMPV 2",
                "INFO DEPTH 9",
                "INFO SELDEPTH 14",
                "INFO NODES 1234",
                "INFO TOTALNODES 1234",
                "INFO TOTALTIME 246",
                "INFO SPEED 5000",
                "INFO EVAL +M5",
                "INFO WINRATE 1.0000",
                "INFO BESTLINE 7,7 8,8 6,6",
                "INFO PV DONE",
                "MESSAGE (1) +M5 | 9-14 | 7,7 8,8 6,6",
            ]
        );
        // One logistic unit below even: 1 / (1 + e) = 26.9%.
        assert!(full.contains(&"INFO WINRATE 0.2690".to_string()), "{full:?}");
        assert_eq!(full[13], "INFO PV 1");
    }

    #[test]
    fn reads_lines_as_bytes() {
        let line = |s: &str| Input::Line(s.to_string());
        assert_eq!(
            lines(b"START 15\r\nABOUT\nEND"),
            [line("START 15"), line("ABOUT"), line("END")]
        );
        // INFO values in another code page are kept (lossily); other lines are refused.
        assert_eq!(
            lines(b"INFO folder C:\\\xe9\nTURN 1,\xff\nABOUT\n"),
            [
                line("INFO folder C:\\\u{fffd}"),
                Input::Bad("the line is not UTF-8 text"),
                line("ABOUT")
            ]
        );
    }

    #[test]
    fn an_over_long_line_is_skipped_whole() {
        let mut bytes = vec![b'7'; 3 * MAX_LINE_BYTES as usize + 5];
        bytes.extend_from_slice(b"\nABOUT\n");
        assert_eq!(
            lines(&bytes),
            [Input::Bad("the line is longer than 65536 bytes"), Input::Line("ABOUT".into())]
        );
        // Exactly the limit, with its line end, is still a line.
        let mut bytes = vec![b' '; MAX_LINE_BYTES as usize - 6];
        bytes.extend_from_slice(b"ABOUT\n");
        assert_eq!(lines(&bytes).len(), 1);
        assert!(matches!(&lines(&bytes)[0], Input::Line(l) if l.trim() == "ABOUT"));
    }
}

//! `tengen brain`: a Gomocup (Piskvork) brain on stdin/stdout.
//!
//! A reader thread forwards stdin lines over a channel, so that commands arriving while the
//! engine thinks (END above all) are never lost: END cancels the search and quits at once;
//! anything else waits until the move is sent. The search runs on a worker thread and is
//! cancelled when the move budget (timeout_turn less a margin, a share of time_left) runs out.

mod protocol;
mod session;

use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use tengen_engine::ai::gomoku::{master::Master, new_engine};
use tengen_engine::ai::{CancelFlag, Engine, GomokuLevel, Level, Limits, Score};
use tengen_engine::gomoku::Position;
use tengen_engine::Move;

use super::CmdResult;
use protocol::Command;
use session::{Action, Session};

#[derive(clap::Args)]
pub struct Args {
    /// The level to play (see `tengen levels`): fivetuple, winarray, pattern, lookahead, master.
    #[arg(long, default_value = "master")]
    pub level: String,
    /// Seed of the engine's random choices (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Why the brain stopped.
#[derive(Debug, thiserror::Error)]
pub enum BrainError {
    #[error(transparent)]
    Level(#[from] tengen_engine::ai::ParseLevelError),
    #[error("cannot write to the manager: {0}")]
    Io(#[from] std::io::Error),
}

/// The brain's engine: Master, which can also list its best moves (YXNBEST), or one of
/// the classic levels.
enum BrainEngine {
    Master(Master),
    Classic(Box<dyn Engine<Position>>),
}

impl BrainEngine {
    fn engine(&mut self) -> &mut dyn Engine<Position> {
        match self {
            BrainEngine::Master(m) => m,
            BrainEngine::Classic(e) => e.as_mut(),
        }
    }
}

/// A new engine of `level`. Master's transposition table is sized to fit the manager's
/// `max_memory` (0 = no limit given: the engine's default), capped at a share of the
/// machine's memory, and only allocated by the first search; the classic levels use a few
/// megabytes at most.
fn make_engine(level: GomokuLevel, seed: u64, max_memory: u64) -> BrainEngine {
    match level {
        GomokuLevel::Master if max_memory > 0 => {
            // Leave room for the process itself (code, stacks, buffers).
            let budget = max_memory.saturating_sub(8 << 20);
            let budget = usize::try_from(budget).unwrap_or(usize::MAX);
            BrainEngine::Master(Master::with_memory(seed, budget))
        }
        GomokuLevel::Master => BrainEngine::Master(Master::new(seed)),
        _ => BrainEngine::Classic(new_engine(level, seed)),
    }
}

/// What a search is asked for.
#[derive(Clone, Copy)]
enum Job {
    /// The move to play.
    Move,
    /// The `n` best moves (YXNBEST), the first of which is played.
    Best(usize),
}

/// A search's answer: the move, and the lines to print before it.
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

/// Runs `job` on `pos` (on the search thread).
fn answer(
    engine: &mut BrainEngine,
    pos: &Position,
    job: Job,
    limits: &Limits,
    cancel: &CancelFlag,
) -> Answer {
    let results = match (job, engine) {
        (Job::Best(n), BrainEngine::Master(m)) => m.best_moves(pos, n, limits, cancel),
        (_, engine) => vec![engine.engine().search(pos, limits, cancel, &mut |_| {})],
    };
    let Some(first) = results.first() else {
        return Answer { mv: Move::Pass, lines: Vec::new() };
    };
    let mut lines = Vec::new();
    if let Job::Best(_) = job {
        // Rapfi's multi-PV lines for Yixin-Board: `(k) eval | depth-seldepth | line`.
        for (k, r) in results.iter().enumerate() {
            let line: Vec<String> = r
                .info
                .pv
                .iter()
                .filter_map(|m| match m {
                    Move::Place(p) => Some(format!("{},{}", p.x, p.y)),
                    Move::Pass => None,
                })
                .collect();
            let line = if line.is_empty() { format!("{:?}", r.best) } else { line.join(" ") };
            lines.push(format!(
                "MESSAGE ({}) {} | {}-{} | {}",
                k + 1,
                score_text(r.info.score),
                r.info.depth,
                r.info.seldepth,
                line
            ));
        }
    }
    let info = &first.info;
    lines.push(format!(
        "DEBUG depth {} seldepth {} nodes {} nps {} time {} ms score {:?}",
        info.depth, info.seldepth, info.nodes, info.nps, info.elapsed_ms, info.score
    ));
    Answer { mv: first.best, lines }
}

pub fn run(args: Args) -> CmdResult {
    Ok(serve(&args)?)
}

fn serve(args: &Args) -> Result<(), BrainError> {
    let Level::Gomoku(level) = Level::parse_for("gomoku", &args.level)? else {
        unreachable!("parse_for(\"gomoku\") only returns gomoku levels")
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let (tx, rx) = mpsc::channel::<Input>();
    thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        let mut bytes = Vec::new();
        // Stops when stdin ends or fails; the loop below then finishes its work and quits.
        while let Ok(Some(line)) = read_line(&mut input, &mut bytes) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut session = Session::new();
    let mut engine: Option<BrainEngine> = None;
    // The max_memory the engine was made for: a new limit makes a new engine.
    let mut engine_memory = session.controls.max_memory;
    let mut pending: VecDeque<Input> = VecDeque::new();
    loop {
        let input = match pending.pop_front() {
            Some(input) => input,
            None => match rx.recv() {
                Ok(input) => input,
                Err(_) => return Ok(()), // stdin closed
            },
        };
        let line = match input {
            Input::Line(line) => line,
            Input::Bad(what) => {
                writeln!(out, "ERROR {what}")?;
                out.flush()?;
                continue;
            }
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
                    if let Some(e) = &mut engine {
                        e.engine().clear();
                    }
                }
                for l in lines {
                    writeln!(out, "{l}")?;
                }
                out.flush()?;
            }
            Action::ClearTables(lines) => {
                if let Some(e) = &mut engine {
                    e.engine().clear();
                }
                for l in lines {
                    writeln!(out, "{l}")?;
                }
                out.flush()?;
            }
            action @ (Action::Think | Action::ThinkBest(_)) => {
                let Some(pos) = session.pos.clone() else { continue };
                let job = match action {
                    Action::ThinkBest(n) => Job::Best(usize::try_from(n).unwrap_or(usize::MAX)),
                    _ => Job::Move,
                };
                if engine_memory != session.controls.max_memory {
                    engine = None;
                    engine_memory = session.controls.max_memory;
                }
                let mut current = match engine.take() {
                    Some(e) => e,
                    None => make_engine(level, seed, engine_memory),
                };
                let budget = session.controls.move_budget();
                let limits = Limits {
                    time: Some(budget),
                    time_left: session.controls.time_left.map(Duration::from_millis),
                    ..Limits::default()
                };
                let answer = match think(&mut current, &pos, job, limits, budget, &rx, &mut pending)
                {
                    Outcome::Quit => return Ok(()), // END while thinking
                    Outcome::Failed => {
                        // The engine's state is unknown: start again from a new one.
                        writeln!(out, "ERROR the search failed")?;
                        out.flush()?;
                        continue;
                    }
                    Outcome::Answer(answer) => answer,
                };
                engine = Some(current);
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
}

/// Reads one line of at most [`MAX_LINE_BYTES`] as bytes (`None` at the end of the input).
/// The manager's text is not trusted to be UTF-8 (Piskvork sends `INFO folder` in the
/// system code page): it is decoded lossily, and a line that needed it is
/// [`Input::Bad`] unless it is an INFO line.
fn read_line(input: &mut impl BufRead, bytes: &mut Vec<u8>) -> std::io::Result<Option<Input>> {
    bytes.clear();
    let n = input.by_ref().take(MAX_LINE_BYTES).read_until(b'\n', bytes)?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') && n as u64 == MAX_LINE_BYTES {
        // Skip the rest of the over-long line, still bounded per read.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let m = input.by_ref().take(MAX_LINE_BYTES).read_until(b'\n', &mut rest)?;
            if m == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Some(Input::Bad("the line is longer than 65536 bytes")));
    }
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_end_matches(['\r', '\n']);
    let is_info = text.trim_start().get(..4).is_some_and(|w| w.eq_ignore_ascii_case("INFO"));
    if std::str::from_utf8(bytes).is_err() && !is_info {
        return Ok(Some(Input::Bad("the line is not UTF-8 text")));
    }
    Ok(Some(Input::Line(text.to_string())))
}

/// How a search ended.
enum Outcome {
    Answer(Answer),
    /// The search thread panicked (a bug): answered with ERROR, the brain goes on.
    Failed,
    /// END arrived while thinking: the search was cancelled.
    Quit,
}

/// Searches on a worker thread while still reading commands.
fn think(
    engine: &mut BrainEngine,
    pos: &Position,
    job: Job,
    limits: Limits,
    budget: Duration,
    rx: &Receiver<Input>,
    pending: &mut VecDeque<Input>,
) -> Outcome {
    let cancel = CancelFlag::new();
    let deadline = Instant::now() + budget;
    thread::scope(|scope| {
        let worker_cancel = cancel.clone();
        let worker = scope.spawn(move || answer(engine, pos, job, &limits, &worker_cancel));
        let mut quit = false;
        while !worker.is_finished() {
            let now = Instant::now();
            if now >= deadline {
                // The engine overran its budget: stop it; it answers within 50 ms.
                cancel.cancel();
            }
            let wait = deadline.saturating_duration_since(now).max(Duration::from_millis(5));
            match rx.recv_timeout(wait.min(Duration::from_millis(20))) {
                Ok(input) => {
                    if matches!(&input, Input::Line(l) if protocol::parse(l) == Ok(Command::End)) {
                        cancel.cancel();
                        quit = true;
                        break;
                    }
                    pending.push_back(input);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // stdin closed: let the move finish, nothing more will come.
                    thread::sleep(Duration::from_millis(5));
                }
            }
        }
        let answer = worker.join();
        match answer {
            _ if quit => Outcome::Quit,
            Ok(answer) => Outcome::Answer(answer),
            Err(_) => Outcome::Failed,
        }
    })
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

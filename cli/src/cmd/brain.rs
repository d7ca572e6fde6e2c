//! `tengen brain`: a Gomocup (Piskvork) brain on stdin/stdout.
//!
//! A reader thread forwards stdin lines over a channel, so that commands arriving while the
//! engine thinks (END above all) are never lost: END cancels the search and quits at once;
//! anything else waits until the move is sent. The search runs on a worker thread and is
//! cancelled when the move budget (timeout_turn less a margin, a share of time_left) runs out.

mod protocol;
mod session;

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use tengen_engine::ai::gomoku::new_engine;
use tengen_engine::ai::{CancelFlag, Engine, GomokuLevel, Level, Limits};
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

type GomokuEngine = Box<dyn Engine<Position>>;

/// A new engine of `level`, falling back to the strongest classic level when this build
/// lacks it (so that a manager always gets a working brain). The note says what happened.
fn make_engine(level: GomokuLevel, seed: u64, max_memory: u64) -> (GomokuEngine, Option<String>) {
    let _ = max_memory; // TODO(master): pass the TT budget once Master is wired in.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let made = std::panic::catch_unwind(|| new_engine(level, seed));
    std::panic::set_hook(hook);
    match made {
        Ok(engine) => (engine, None),
        Err(_) => (
            new_engine(GomokuLevel::Lookahead, seed),
            Some(format!("level {} is not in this build; playing lookahead", level.name())),
        ),
    }
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
    let (tx, rx) = mpsc::channel::<String>();
    thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut session = Session::new();
    let mut engine: Option<GomokuEngine> = None;
    let mut pending: VecDeque<String> = VecDeque::new();
    loop {
        let line = match pending.pop_front() {
            Some(line) => line,
            None => match rx.recv() {
                Ok(line) => line,
                Err(_) => return Ok(()), // stdin closed
            },
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
        match session.handle(cmd) {
            Action::Quit => return Ok(()),
            Action::Reply(lines) => {
                if new_game && lines.first().is_some_and(|l| l == "OK") {
                    if let Some(e) = &mut engine {
                        e.clear();
                    }
                }
                for l in lines {
                    writeln!(out, "{l}")?;
                }
                out.flush()?;
            }
            Action::Think => {
                let Some(pos) = session.pos.clone() else { continue };
                let mut current = match engine.take() {
                    Some(e) => e,
                    None => {
                        let (e, note) = make_engine(level, seed, session.controls.max_memory);
                        if let Some(note) = note {
                            writeln!(out, "MESSAGE {note}")?;
                        }
                        e
                    }
                };
                let budget = session.controls.move_budget();
                let limits = Limits {
                    time: Some(budget),
                    time_left: session.controls.time_left.map(Duration::from_millis),
                    ..Limits::default()
                };
                let outcome = think(&mut current, &pos, limits, budget, &rx, &mut pending);
                let Some((mv, debug)) = outcome else { return Ok(()) }; // END while thinking
                engine = Some(current);
                match mv {
                    Move::Place(p) if session.play_own(p).is_ok() => {
                        writeln!(out, "DEBUG {debug}")?;
                        writeln!(out, "{},{}", p.x, p.y)?;
                    }
                    _ => writeln!(out, "ERROR no legal move")?,
                }
                out.flush()?;
            }
        }
    }
}

/// Searches on a worker thread while still reading commands. Returns the move and a line of
/// search statistics, or `None` when END arrived (the search is cancelled).
fn think(
    engine: &mut GomokuEngine,
    pos: &Position,
    limits: Limits,
    budget: Duration,
    rx: &Receiver<String>,
    pending: &mut VecDeque<String>,
) -> Option<(Move, String)> {
    let cancel = CancelFlag::new();
    let deadline = Instant::now() + budget;
    thread::scope(|scope| {
        let worker_cancel = cancel.clone();
        let worker = scope.spawn(move || {
            let r = engine.search(pos, &limits, &worker_cancel, &mut |_| {});
            let info = &r.info;
            let debug = format!(
                "depth {} seldepth {} nodes {} nps {} time {} ms score {:?}",
                info.depth, info.seldepth, info.nodes, info.nps, info.elapsed_ms, info.score
            );
            (r.best, debug)
        });
        let mut quit = false;
        while !worker.is_finished() {
            let now = Instant::now();
            if now >= deadline {
                // The engine overran its budget: stop it; it answers within 50 ms.
                cancel.cancel();
            }
            let wait = deadline.saturating_duration_since(now).max(Duration::from_millis(5));
            match rx.recv_timeout(wait.min(Duration::from_millis(20))) {
                Ok(line) => {
                    if matches!(protocol::parse(&line), Ok(Command::End)) {
                        cancel.cancel();
                        quit = true;
                        break;
                    }
                    pending.push_back(line);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // stdin closed: let the move finish, nothing more will come.
                    thread::sleep(Duration::from_millis(5));
                }
            }
        }
        let answer = worker.join().ok();
        if quit {
            None
        } else {
            answer
        }
    })
}

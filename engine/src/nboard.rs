//! The host's side of the NBoard protocol (version 2): runs an external Reversi engine as a
//! child process ([`EngineProcess`]: no shell, the arguments given, its own folder, bounded
//! lines) and asks it for moves — the one code of the app and the arena, as
//! [`crate::gomocup`] is for Gomoku.
//!
//! A game: [`NboardEngine::start`] sends `nboard 2` (and `set depth N` when the settings fix
//! a depth) and checks that the engine answers `ping 1` with `pong 1` (`set myname NAME`
//! gives its name). Each of its turns, [`NboardEngine::best_move`] sends `set game GGF` with
//! the position (the record's start position, no moves), `ping N` and `go`: lines before
//! `pong N` are stale (an earlier search), and the first `=== MOVE[/eval[/time]]` after it is
//! the answer (`PA` a pass). The time is passed as NBoard passes it, in the record's clock:
//! the side to move's clock is its time left on a game clock, or the time per move (all of
//! it for this move). Other lines (`status`, `nodestats`, `search`, ...) are not answers;
//! the last one is kept to explain a failure. Dropping the engine sends `quit`, then kills
//! it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::ai::CancelFlag;
use crate::child::{EngineProcess, ProcessError};
use crate::game::ForfeitReason;
use crate::reversi::ggf::{self, Clock, GgfGame, MoveText};
use crate::reversi::Position;

/// The deepest `set depth` the protocol knows (a whole game).
pub const MAX_DEPTH: u32 = 60;

/// How to run an NBoard engine and the limits it is told.
#[derive(Clone, Debug)]
pub struct NboardSettings {
    /// The executable.
    pub program: PathBuf,
    /// Its arguments (none for a usual engine; `tengen nboard` takes `nboard`).
    pub args: Vec<String>,
    /// Sent as `set depth N` when set (1 to [`MAX_DEPTH`]); otherwise the clock alone limits
    /// the engine.
    pub depth: Option<u32>,
    /// How long past its time a move may take before the engine is judged hung.
    pub margin: Duration,
    /// How long the engine may take to answer `ping` at the start.
    pub startup: Duration,
}

impl NboardSettings {
    /// Settings for `program`: no fixed depth, a margin of one second plus half the time,
    /// ten seconds to start.
    pub fn new(program: impl Into<PathBuf>) -> NboardSettings {
        NboardSettings {
            program: program.into(),
            args: Vec::new(),
            depth: None,
            margin: Duration::from_secs(1),
            startup: Duration::from_secs(10),
        }
    }
}

/// Why an NBoard engine failed. Each names what it was asked and, where there was one, the
/// last line it printed that was not an answer.
#[derive(Debug, thiserror::Error)]
pub enum NboardError {
    /// Starting, asking, waiting: what goes wrong with any engine program.
    #[error(transparent)]
    Process(#[from] ProcessError),
    #[error("set depth {0} is outside 1 to {MAX_DEPTH}")]
    Depth(u32),
}

impl NboardError {
    /// How a game counts this failure during the engine's turn
    /// ([`ProcessError::forfeit_reason`]).
    pub fn forfeit_reason(&self) -> ForfeitReason {
        match self {
            NboardError::Process(e) => e.forfeit_reason(),
            NboardError::Depth(_) => ForfeitReason::Crash,
        }
    }
}

/// A line from the engine, as the host reads it.
#[derive(Clone, Debug, PartialEq)]
enum Reply {
    /// `=== MOVE...`: the text after `===`.
    Move(String),
    /// `pong N`.
    Pong(String),
    /// `set myname NAME`.
    Name(String),
    /// Anything else (`status`, `nodestats`, `search`, `learned`, unknown lines).
    Other,
}

fn parse_reply(line: &str) -> Reply {
    if let Some(rest) = line.strip_prefix("===") {
        return Reply::Move(rest.trim().to_string());
    }
    let mut words = line.split_whitespace();
    match (words.next(), words.next()) {
        (Some("pong"), n) => Reply::Pong(n.unwrap_or("").to_string()),
        (Some("set"), Some("myname")) => {
            let name = line.trim_start()["set".len()..].trim_start()["myname".len()..].trim();
            Reply::Name(name.to_string())
        }
        _ => Reply::Other,
    }
}

/// A running NBoard engine.
pub struct NboardEngine {
    settings: NboardSettings,
    process: EngineProcess,
    name: Option<String>,
    last_note: Option<String>,
    /// The last `ping` number sent.
    ping: u64,
}

impl NboardEngine {
    /// Starts the engine: `nboard 2`, `set depth` if the settings fix one, and `ping 1`,
    /// which it must answer with `pong 1` within the start-up time.
    pub fn start(settings: &NboardSettings) -> Result<NboardEngine, NboardError> {
        if let Some(depth) = settings.depth.filter(|d| !(1..=MAX_DEPTH).contains(d)) {
            return Err(NboardError::Depth(depth));
        }
        let process = EngineProcess::start(&settings.program, &settings.args, "quit")?;
        let mut engine = NboardEngine {
            settings: settings.clone(),
            process,
            name: None,
            last_note: None,
            ping: 0,
        };
        engine.send("nboard 2")?;
        if let Some(depth) = settings.depth {
            engine.send(&format!("set depth {depth}"))?;
        }
        let deadline = Instant::now() + settings.startup;
        engine.sync(deadline, settings.startup, None)?;
        Ok(engine)
    }

    /// The name the engine gave with `set myname`, if it gave one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The last line the engine printed that was not an answer.
    pub fn last_note(&self) -> Option<&str> {
        self.last_note.as_deref()
    }

    /// The engine's move in `pos` (its side to move) with `time` for it (a game clock's time
    /// left, or the time per move) and the clock's `increment` (zero but on a Fischer
    /// clock), and how long it took. The move is read but not checked: the caller plays it
    /// by the rules (a square taken, a pass with moves left, ...).
    pub fn best_move(
        &mut self,
        pos: &Position,
        time: Duration,
        increment: Duration,
        cancel: Option<&CancelFlag>,
    ) -> Result<(MoveText, Duration), NboardError> {
        let mut game = GgfGame::new(*pos);
        let clock = Clock { main: time, increment, ..Clock::default() };
        game.clocks[pos.side_to_move().index()] = Some(clock);
        let start = Instant::now();
        self.send(&format!("set game {}", game.to_ggf()))?;
        let limit = time + self.settings.margin.min(Duration::from_secs(1) + time / 2);
        let deadline = start + limit;
        self.sync(deadline, limit, cancel)?;
        self.send("go")?;
        let asked = "go";
        loop {
            let line = self.next_line(asked, deadline, limit, cancel)?;
            if let Reply::Move(text) = parse_reply(&line) {
                let took = start.elapsed();
                return ggf::parse_move(&text).map(|m| (m, took)).map_err(|_| {
                    NboardError::Process(ProcessError::Garbage {
                        asked: asked.into(),
                        line,
                        last: self.last_note.clone(),
                    })
                });
            }
        }
    }

    /// Sends `ping N` and reads up to `pong N`, skipping stale answers.
    fn sync(
        &mut self,
        deadline: Instant,
        limit: Duration,
        cancel: Option<&CancelFlag>,
    ) -> Result<(), NboardError> {
        self.ping += 1;
        let asked = format!("ping {}", self.ping);
        self.send(&asked)?;
        loop {
            let line = self.next_line(&asked, deadline, limit, cancel)?;
            if parse_reply(&line) == Reply::Pong(self.ping.to_string()) {
                return Ok(());
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), NboardError> {
        let asked = line.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        let last = self.last_note.clone();
        self.process.send(line).map_err(|e| ProcessError::from_send(e, &asked, last).into())
    }

    /// The next non-empty line within `deadline`; names and notes are kept on the way.
    fn next_line(
        &mut self,
        asked: &str,
        deadline: Instant,
        limit: Duration,
        cancel: Option<&CancelFlag>,
    ) -> Result<String, NboardError> {
        loop {
            let line = self.process.answer_line(asked, deadline, limit, cancel, &self.last_note)?;
            match parse_reply(&line) {
                _ if line.is_empty() => {}
                Reply::Name(name) => self.name = Some(name),
                Reply::Other => self.last_note = Some(line),
                Reply::Move(_) | Reply::Pong(_) => return Ok(line),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Move;

    #[test]
    fn replies_are_told_apart() {
        assert_eq!(parse_reply("=== F5/-1.5/0.2"), Reply::Move("F5/-1.5/0.2".into()));
        assert_eq!(parse_reply("===PA"), Reply::Move("PA".into()));
        assert_eq!(parse_reply("pong 12"), Reply::Pong("12".into()));
        assert_eq!(parse_reply("pong"), Reply::Pong(String::new()));
        assert_eq!(parse_reply("set myname Edax 4.4"), Reply::Name("Edax 4.4".into()));
        for other in ["status thinking", "nodestats 100 0.1", "search F5 1.0 0 4", "set depth"] {
            assert_eq!(parse_reply(other), Reply::Other, "{other}");
        }
    }

    #[test]
    fn errors_name_the_request_and_count_as_forfeits() {
        let e = NboardError::Process(ProcessError::Timeout {
            asked: "go".into(),
            ms: 1500,
            last: None,
        });
        assert_eq!(e.to_string(), "the engine did not answer go within 1500 ms");
        assert_eq!(e.forfeit_reason(), ForfeitReason::Timeout);
        let e = NboardError::Process(ProcessError::Garbage {
            asked: "go".into(),
            line: "=== Z9".into(),
            last: Some("status deep".into()),
        });
        assert_eq!(
            e.to_string(),
            "the engine answered go with \"=== Z9\" (its last message: \"status deep\")"
        );
        assert_eq!(e.forfeit_reason(), ForfeitReason::IllegalMove);
        let e = NboardError::Process(ProcessError::Exited { asked: "go".into(), last: None });
        assert_eq!(e.forfeit_reason(), ForfeitReason::Crash);
    }

    #[test]
    fn a_missing_program_or_a_bad_depth_is_a_clear_error() {
        let settings = NboardSettings::new("/nonexistent/edax");
        let Err(e) = NboardEngine::start(&settings) else { panic!("started a missing program") };
        assert!(e.to_string().starts_with("cannot start /nonexistent/edax"), "{e}");
        let settings = NboardSettings { depth: Some(61), ..NboardSettings::new("/bin/sh") };
        assert!(matches!(NboardEngine::start(&settings), Err(NboardError::Depth(61))));
    }

    /// An engine in shell: `script` runs after it answers `nboard 2` and the first ping.
    #[cfg(unix)]
    fn shell_engine(script: &str) -> NboardSettings {
        let start = "read v; echo 'set myname Shell Engine'; read p; echo \"pong ${p#ping }\"; ";
        NboardSettings {
            args: vec!["-c".into(), format!("{start}{script}")],
            ..NboardSettings::new("/bin/sh")
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_answer_after_the_pong_is_the_move_and_the_clock_is_in_the_record() {
        // Sends a stale move first, then answers the ping, then plays f5 if its clock in the
        // record is black's 2 seconds with 0.25 s back a move (TB[0:02/0:00.250...]), else a1.
        let script = "read g; read p; echo '=== A1'; echo 'status thinking'; \
            echo \"pong ${p#ping }\"; read go; \
            case $g in *'TB[0:02/0:00.25'*) echo '=== f5/0.5/0.1';; *) echo '=== a1';; esac; exec cat";
        let mut engine = NboardEngine::start(&shell_engine(script)).unwrap();
        assert_eq!(engine.name(), Some("Shell Engine"));
        let (time, inc) = (Duration::from_secs(2), Duration::from_millis(250));
        let (m, _) = engine.best_move(&Position::initial(), time, inc, None).unwrap();
        let f5 = crate::reversi::parse_square("f5").unwrap();
        assert_eq!(m.mv, Move::Place(f5));
        assert_eq!(m.eval, Some(0.5));
        assert_eq!(engine.last_note(), Some("status thinking"));
    }

    #[cfg(unix)]
    #[test]
    fn silence_garbage_and_an_exit_fail_as_they_should() {
        let pos = Position::initial();
        let time = Duration::from_millis(100);
        let mut mute = NboardEngine::start(&shell_engine("exec sleep 60")).unwrap();
        let start = Instant::now();
        let e = mute.best_move(&pos, time, Duration::ZERO, None).unwrap_err();
        assert!(matches!(e, NboardError::Process(ProcessError::Timeout { ms: 1100, .. })), "{e}");
        assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
        let cancel = CancelFlag::new();
        cancel.cancel();
        let e = mute.best_move(&pos, time, Duration::ZERO, Some(&cancel)).unwrap_err();
        assert!(matches!(e, NboardError::Process(ProcessError::Cancelled { .. })), "{e}");

        let script = "read g; read p; echo \"pong ${p#ping }\"; read go; echo '=== nonsense'; cat";
        let mut garbage = NboardEngine::start(&shell_engine(script)).unwrap();
        let e = garbage.best_move(&pos, time, Duration::ZERO, None).unwrap_err();
        assert!(
            matches!(e, NboardError::Process(ProcessError::Garbage { ref line, .. }) if line == "=== nonsense")
        );

        let script = "read g; read p; echo \"pong ${p#ping }\"; read go; exit 3";
        let mut crash = NboardEngine::start(&shell_engine(script)).unwrap();
        let e = crash.best_move(&pos, time, Duration::ZERO, None).unwrap_err();
        assert!(matches!(e, NboardError::Process(ProcessError::Exited { .. })), "{e}");

        // No pong at the start: refused before any game.
        let settings = NboardSettings {
            args: vec!["-c".into(), "read v; read p; echo pong 7; exec sleep 60".into()],
            startup: Duration::from_millis(200),
            ..NboardSettings::new("/bin/sh")
        };
        let e = NboardEngine::start(&settings).err().expect("no pong 1");
        assert!(e.to_string().starts_with("the engine did not answer ping 1 within 200 ms"));
    }
}

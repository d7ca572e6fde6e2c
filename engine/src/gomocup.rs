//! The manager's side of the Gomocup (Piskvork) brain protocol: runs an external brain
//! (`pbrain-*`) as a child process and asks it for moves.
//!
//! The brain runs as an [`EngineProcess`] (no shell, the arguments given, its own folder as
//! the working directory, bounded lines read on a thread), so that a brain that prints
//! garbage, hangs or dies is noticed within a deadline. `MESSAGE`, `DEBUG`, `UNKNOWN` and
//! `ERROR` lines are not answers; the last one is kept to explain a failure. Dropping a
//! [`Brain`] sends `END`, waits briefly and then kills the process, so nothing is left
//! running.
//!
//! A game: [`Brain::start`] (spawn, `ABOUT`), [`Brain::new_game`] (`START size`, then `INFO
//! timeout_turn`, `timeout_match`, `max_memory`, `rule`), then [`Brain::best_move`] for each
//! of its turns, which sends `BEGIN`, `TURN x,y` or `BOARD ... DONE` as the position needs.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::ai::CancelFlag;
use crate::child::{EngineProcess, ProcessError};
use crate::game::ForfeitReason;
use crate::gomoku::{Position, Rule};
use crate::Point;

/// How to run a brain and the limits it is told.
#[derive(Clone, Debug)]
pub struct BrainSettings {
    /// The executable.
    pub program: PathBuf,
    /// Its arguments (none for a usual `pbrain-*`).
    pub args: Vec<String>,
    /// Sent as `INFO timeout_turn`.
    pub timeout_turn: Duration,
    /// Sent as `INFO timeout_match` (zero: no limit).
    pub timeout_match: Duration,
    /// Sent as `INFO max_memory` in bytes (zero: no limit).
    pub max_memory: u64,
    /// How long past `timeout_turn` a move may take before the brain is judged hung.
    pub margin: Duration,
    /// How long the brain may take to answer `ABOUT` and `START`.
    pub startup: Duration,
}

impl BrainSettings {
    /// Settings for `program` with `timeout_turn`, a margin of one second plus half the turn
    /// time, and ten seconds to start.
    pub fn new(program: impl Into<PathBuf>, timeout_turn: Duration) -> BrainSettings {
        BrainSettings {
            program: program.into(),
            args: Vec::new(),
            timeout_turn,
            timeout_match: Duration::ZERO,
            max_memory: 0,
            margin: Duration::from_secs(1) + timeout_turn / 2,
            startup: Duration::from_secs(10),
        }
    }
}

/// Why a brain failed. Each names what it was asked and, where there was one, the last
/// `MESSAGE`/`DEBUG`/`ERROR`/`UNKNOWN` line it printed.
#[derive(Debug, thiserror::Error)]
pub enum BrainError {
    /// Starting, asking, waiting: what goes wrong with any engine program.
    #[error(transparent)]
    Process(#[from] ProcessError),
    #[error("the brain refused {asked}: {line:?}")]
    Refused { asked: String, line: String },
    #[error("the brain answered ABOUT with {0:?}, which names no brain (expected name=\"...\")")]
    About(String),
}

impl BrainError {
    /// How a game counts this failure during the brain's turn ([`ProcessError::forfeit_reason`];
    /// a refusal is a crash).
    pub fn forfeit_reason(&self) -> ForfeitReason {
        match self {
            BrainError::Process(e) => e.forfeit_reason(),
            _ => ForfeitReason::Crash,
        }
    }
}

/// A running brain.
pub struct Brain {
    settings: BrainSettings,
    process: EngineProcess,
    about: String,
    last_note: Option<String>,
    /// The moves of the current game as the brain knows them.
    seen: Vec<Point>,
    size: u8,
}

/// Whether a line is talk rather than an answer.
fn is_note(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
    matches!(word.as_str(), "MESSAGE" | "DEBUG" | "UNKNOWN" | "ERROR")
}

impl Brain {
    /// Starts the brain and checks that it answers `ABOUT` with a `name="..."`.
    pub fn start(settings: &BrainSettings) -> Result<Brain, BrainError> {
        let process = EngineProcess::start(&settings.program, &settings.args, "END")?;
        let mut brain = Brain {
            settings: settings.clone(),
            process,
            about: String::new(),
            last_note: None,
            seen: Vec::new(),
            size: 0,
        };
        brain.send("ABOUT")?;
        let about = brain.answer("ABOUT", settings.startup)?;
        if !about.to_ascii_lowercase().contains("name=") {
            return Err(BrainError::About(about));
        }
        brain.about = about;
        Ok(brain)
    }

    /// The brain's answer to `ABOUT`.
    pub fn about(&self) -> &str {
        &self.about
    }

    /// The `name="..."` of the `ABOUT` answer, if it has one in quotes.
    pub fn name(&self) -> Option<&str> {
        let lower = self.about.to_ascii_lowercase();
        let at = lower.find("name=\"")? + 6;
        let len = self.about[at..].find('"')?;
        Some(&self.about[at..at + len])
    }

    /// The last `MESSAGE`, `DEBUG`, `UNKNOWN` or `ERROR` line the brain printed.
    pub fn last_note(&self) -> Option<&str> {
        self.last_note.as_deref()
    }

    /// Starts a new game on a `size` board under `rule`.
    pub fn new_game(&mut self, size: u8, rule: Rule) -> Result<(), BrainError> {
        let asked = format!("START {size}");
        self.send(&asked)?;
        let line = self.answer(&asked, self.settings.startup)?;
        if !line.eq_ignore_ascii_case("OK") {
            return Err(BrainError::Process(ProcessError::Garbage {
                asked,
                line,
                last: self.last_note.clone(),
            }));
        }
        let mask = match rule {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
        };
        let info = [
            format!("INFO timeout_turn {}", self.settings.timeout_turn.as_millis()),
            format!("INFO timeout_match {}", self.settings.timeout_match.as_millis()),
            format!("INFO max_memory {}", self.settings.max_memory),
            format!("INFO rule {mask}"),
        ];
        for line in info {
            self.send(&line)?;
        }
        self.seen.clear();
        self.size = size;
        Ok(())
    }

    /// The brain's move in `pos` (its side to move) and the time it took. The answer is on
    /// the board but may be occupied or forbidden: the caller checks it against the rules.
    pub fn best_move(&mut self, pos: &Position) -> Result<(Point, Duration), BrainError> {
        self.best_move_or_cancel(pos, None)
    }

    /// [`Brain::best_move`], giving up with [`ProcessError::Cancelled`] soon after `cancel`
    /// is raised (the brain then has a stale request: drop it, or restart the game).
    pub fn best_move_or_cancel(
        &mut self,
        pos: &Position,
        cancel: Option<&CancelFlag>,
    ) -> Result<(Point, Duration), BrainError> {
        self.best_move_in_time(pos, cancel, None)
    }

    /// [`Brain::best_move_or_cancel`] in a game on a clock: the brain is told its
    /// `time_left` first (`INFO time_left`), and an answer is awaited no longer than the
    /// smaller of `timeout_turn` and that time, plus the margin.
    pub fn best_move_in_time(
        &mut self,
        pos: &Position,
        cancel: Option<&CancelFlag>,
        time_left: Option<Duration>,
    ) -> Result<(Point, Duration), BrainError> {
        if let Some(left) = time_left {
            self.send(&format!("INFO time_left {}", left.as_millis()))?;
        }
        let moves = pos.moves();
        let asked = if moves.is_empty() {
            "BEGIN".to_string()
        } else if moves.len() == self.seen.len() + 1 && moves.starts_with(&self.seen) {
            let p = moves[moves.len() - 1];
            format!("TURN {},{}", p.x, p.y)
        } else {
            "BOARD".to_string()
        };
        let start = Instant::now();
        self.send(&asked)?;
        if asked == "BOARD" {
            let me = moves.len() % 2;
            for (i, p) in moves.iter().enumerate() {
                let field = if i % 2 == me { 1 } else { 2 };
                self.send(&format!("{},{},{}", p.x, p.y, field))?;
            }
            self.send("DONE")?;
        }
        let turn = match time_left {
            Some(left) => left.min(self.settings.timeout_turn),
            None => self.settings.timeout_turn,
        };
        // The margin of the time the brain was given (a short time left, a short margin).
        let limit = turn + self.settings.margin.min(Duration::from_secs(1) + turn / 2);
        let line = self.answer_or_cancel(&asked, limit, cancel)?;
        let took = start.elapsed();
        let garbage = || {
            BrainError::Process(ProcessError::Garbage {
                asked: asked.clone(),
                line: line.clone(),
                last: self.last_note.clone(),
            })
        };
        let (x, y) = line.split_once(',').ok_or_else(garbage)?;
        let x: u8 = x.trim().parse().map_err(|_| garbage())?;
        let y: u8 = y.trim().parse().map_err(|_| garbage())?;
        if x >= self.size || y >= self.size {
            return Err(garbage());
        }
        let p = Point::new(x, y);
        self.seen = moves.to_vec();
        self.seen.push(p);
        Ok((p, took))
    }

    fn send(&mut self, line: &str) -> Result<(), BrainError> {
        let last = self.last_note.clone();
        self.process.send(line).map_err(|e| ProcessError::from_send(e, line, last).into())
    }

    /// The next line that is an answer (not a note), within `limit`. An `ERROR` line in
    /// answer to `START` is a refusal; otherwise notes are only kept.
    fn answer(&mut self, asked: &str, limit: Duration) -> Result<String, BrainError> {
        self.answer_or_cancel(asked, limit, None)
    }

    /// [`Brain::answer`], also ending when `cancel` is raised.
    fn answer_or_cancel(
        &mut self,
        asked: &str,
        limit: Duration,
        cancel: Option<&CancelFlag>,
    ) -> Result<String, BrainError> {
        let deadline = Instant::now() + limit;
        loop {
            let line = self.process.answer_line(asked, deadline, limit, cancel, &self.last_note)?;
            if line.is_empty() {
                continue;
            }
            if !is_note(&line) {
                return Ok(line);
            }
            let refused = line.to_ascii_uppercase().starts_with("ERROR");
            self.last_note = Some(line.clone());
            if refused && asked.starts_with("START") {
                return Err(BrainError::Refused { asked: asked.to_string(), line });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_told_from_answers() {
        for note in ["MESSAGE hi", "DEBUG depth 3", "unknown FOO", "ERROR bad", "ERROR"] {
            assert!(is_note(note), "{note}");
        }
        for answer in ["7,7", "OK", "name=\"x\"", "ERRORS", ""] {
            assert!(!is_note(answer), "{answer}");
        }
    }

    #[test]
    fn errors_name_the_request_and_the_last_message() {
        let e = BrainError::Process(ProcessError::Timeout {
            asked: "TURN 7,7".into(),
            ms: 1500,
            last: None,
        });
        assert_eq!(e.to_string(), "the engine did not answer TURN 7,7 within 1500 ms");
        let e = BrainError::Process(ProcessError::Exited {
            asked: "BEGIN".into(),
            last: Some("MESSAGE bye".into()),
        });
        assert_eq!(
            e.to_string(),
            "the engine exited while asked BEGIN (its last message: \"MESSAGE bye\")"
        );
    }

    #[test]
    fn each_failure_has_its_forfeit() {
        let last = None;
        let timeout = BrainError::Process(ProcessError::Timeout {
            asked: "BEGIN".into(),
            ms: 1,
            last: last.clone(),
        });
        assert_eq!(timeout.forfeit_reason(), ForfeitReason::Timeout);
        let garbage = BrainError::Process(ProcessError::Garbage {
            asked: "BEGIN".into(),
            line: "x".into(),
            last,
        });
        assert_eq!(garbage.forfeit_reason(), ForfeitReason::IllegalMove);
        let exited =
            BrainError::Process(ProcessError::Exited { asked: "BEGIN".into(), last: None });
        assert_eq!(exited.forfeit_reason(), ForfeitReason::Crash);
    }

    #[cfg(unix)]
    #[test]
    fn a_cancelled_wait_ends_long_before_the_brains_time() {
        // A brain that answers ABOUT and START, then never moves.
        let script = "read a; echo 'name=\"mute\"'; read s; echo OK; exec sleep 60";
        let settings = BrainSettings {
            args: vec!["-c".into(), script.into()],
            ..BrainSettings::new("/bin/sh", Duration::from_secs(30))
        };
        let mut brain = Brain::start(&settings).unwrap();
        assert_eq!(brain.name(), Some("mute"));
        brain.new_game(15, Rule::Freestyle).unwrap();
        let cancel = CancelFlag::new();
        let raise = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            raise.cancel();
        });
        let start = Instant::now();
        let empty = Position::new(15, Rule::Freestyle).unwrap();
        let answer = brain.best_move_or_cancel(&empty, Some(&cancel));
        assert!(
            matches!(answer, Err(BrainError::Process(ProcessError::Cancelled { .. }))),
            "{answer:?}"
        );
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    }

    #[cfg(unix)]
    #[test]
    fn on_a_clock_the_brain_is_told_its_time_left_and_held_to_it() {
        // Answers 7,7 if it was told 1234 ms left before the turn, else 0,0; then never again.
        let script = "read a; echo 'name=\"clocked\"'; read s; echo OK; got=0; \
            while read line; do case $line in 'INFO time_left 1234'*) got=1;; \
            BEGIN*) if [ $got = 1 ]; then echo 7,7; else echo 0,0; fi;; esac; done";
        let settings = BrainSettings {
            args: vec!["-c".into(), script.into()],
            ..BrainSettings::new("/bin/sh", Duration::from_secs(30))
        };
        let empty = Position::new(15, Rule::Freestyle).unwrap();
        let mut brain = Brain::start(&settings).unwrap();
        brain.new_game(15, Rule::Freestyle).unwrap();
        let (p, _) =
            brain.best_move_in_time(&empty, None, Some(Duration::from_millis(1234))).unwrap();
        assert_eq!(p, Point::new(7, 7), "INFO time_left came before the turn");
        // A brain that does not answer is given up on after its time left and a margin of
        // that size, not after the 30 s of timeout_turn.
        let mut brain = Brain::start(&settings).unwrap();
        brain.new_game(15, Rule::Freestyle).unwrap();
        let one = Position::from_moves(15, Rule::Freestyle, &[Point::new(3, 3)]).unwrap();
        let start = Instant::now();
        let answer = brain.best_move_in_time(&one, None, Some(Duration::from_millis(200)));
        assert!(
            matches!(answer, Err(BrainError::Process(ProcessError::Timeout { .. }))),
            "{answer:?}"
        );
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    }

    #[test]
    fn a_missing_program_is_a_clear_error() {
        let settings = BrainSettings::new("/nonexistent/pbrain-none", Duration::from_secs(1));
        let Err(e) = Brain::start(&settings) else { panic!("started a missing program") };
        assert!(e.to_string().starts_with("cannot start /nonexistent/pbrain-none"), "{e}");
    }
}

//! The two sides of an arena game: a built-in level or an external engine
//! (`ext:/path/to/engine`): a Gomocup brain for Gomoku, an NBoard engine for Reversi.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use tengen_engine::ai::{limits_for, AnyEngine, CancelFlag, Level, Limits};
use tengen_engine::game::{ForfeitReason, PlayerKind, Position};
use tengen_engine::gomocup::{Brain, BrainError, BrainSettings};
use tengen_engine::gomoku;
use tengen_engine::nboard::{NboardEngine, NboardError, NboardSettings};
use tengen_engine::Move;

/// A side's game clock when it is asked for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockLeft {
    /// The time left on it.
    pub left: Duration,
    /// The time it gets back after the move (a Fischer clock's increment; else zero).
    pub increment: Duration,
}

/// One side of a game, asked for a move in each position where it is to move.
pub trait Player {
    /// The move for the side to move in `pos`, with `time` to think and, in a game on a
    /// clock, this side's `clock`, or why this player loses the game instead (a brain that
    /// crashed, hung or answered garbage).
    fn choose(
        &mut self,
        pos: &Position,
        time: Duration,
        clock: Option<ClockLeft>,
    ) -> Result<Move, Failure>;

    /// Gets ready to be asked in `pos` (an external engine is started here), before the
    /// move's clock runs: starting a program is not thinking, and on a loaded machine it
    /// can take longer than a move. An error is this player's failure in that position.
    fn prepare(&mut self, _pos: &Position) -> Result<(), Failure> {
        Ok(())
    }
}

/// Why a player gave no move: the kind of forfeit the game records, and the details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub reason: ForfeitReason,
    pub message: String,
}

impl Failure {
    pub fn crash(message: impl Into<String>) -> Failure {
        Failure { reason: ForfeitReason::Crash, message: message.into() }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<BrainError> for Failure {
    /// The forfeit the protocol code names ([`BrainError::forfeit_reason`]).
    fn from(e: BrainError) -> Failure {
        Failure { reason: e.forfeit_reason(), message: e.to_string() }
    }
}

impl From<NboardError> for Failure {
    /// The forfeit the protocol code names ([`NboardError::forfeit_reason`]).
    fn from(e: NboardError) -> Failure {
        Failure { reason: e.forfeit_reason(), message: e.to_string() }
    }
}

/// A built-in level, searching with the limits `ai` sets for it at the player's time.
pub struct Computer {
    level: Level,
    engine: AnyEngine,
}

impl Computer {
    /// A fresh engine of `level` seeded with `seed`, or `None` if this build cannot make one.
    pub fn new(level: Level, seed: u64) -> Option<Computer> {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let made = std::panic::catch_unwind(|| AnyEngine::new(level, seed));
        std::panic::set_hook(hook);
        Some(Computer { level, engine: made.ok()? })
    }

    /// The same player searching with `threads` threads (levels that use them).
    pub fn with_threads(mut self, threads: usize) -> Computer {
        self.engine.set_threads(threads);
        self
    }
}

impl Player for Computer {
    fn choose(
        &mut self,
        pos: &Position,
        time: Duration,
        clock: Option<ClockLeft>,
    ) -> Result<Move, Failure> {
        let limits = Limits { time_left: clock.map(|c| c.left), ..limits_for(self.level, time) };
        let searched = self.engine.search(pos, &limits, &CancelFlag::new(), &mut |_| {});
        searched.map(|r| r.best).map_err(|e| Failure::crash(e.to_string()))
    }
}

/// A contestant named on the command line: a level, or `ext:PATH` for an external engine
/// (a Gomocup brain in Gomoku, an NBoard engine in Reversi).
#[derive(Clone, Debug, PartialEq)]
pub enum Contestant {
    Level(Level),
    External(PathBuf),
}

/// The prefix that names an external brain.
pub const EXTERNAL: &str = "ext:";

impl Contestant {
    pub fn parse(game: &str, text: &str) -> Result<Contestant, tengen_engine::ai::ParseLevelError> {
        match text.strip_prefix(EXTERNAL) {
            Some(path) => Ok(Contestant::External(PathBuf::from(path))),
            None => Level::parse_for(game, text).map(Contestant::Level),
        }
    }

    /// Who this contestant is to the game session and its records: a computer level, or an
    /// external engine (id 0: the arena's engines are not the app's list, so a record opened
    /// in the app gives that side to a person, with a notice).
    pub fn kind(&self) -> PlayerKind {
        match self {
            Contestant::Level(level) => PlayerKind::Computer { level: *level },
            Contestant::External(_) => PlayerKind::External { id: 0 },
        }
    }

    /// The short name shown in the game lines: the level, or the engine's file name.
    pub fn name(&self) -> String {
        match self {
            Contestant::Level(l) => l.name().to_string(),
            Contestant::External(path) => {
                let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
                format!("{EXTERNAL}{}", file.unwrap_or_default())
            }
        }
    }
}

impl fmt::Display for Contestant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contestant::Level(l) => l.fmt(f),
            Contestant::External(path) => write!(f, "{EXTERNAL}{}", path.display()),
        }
    }
}

/// An external engine, started afresh for each game (and so restarted after a failure) and
/// ended when the player is dropped.
pub enum External {
    /// A Gomocup brain (Gomoku).
    Gomocup { settings: BrainSettings, brain: Option<Brain> },
    /// An NBoard engine (Reversi), given the player's time per move in the record's clock, or
    /// in a game on a clock the smaller of that and its time left, with the clock's
    /// increment.
    Nboard { settings: NboardSettings, engine: Option<NboardEngine> },
}

impl External {
    pub fn gomocup(settings: BrainSettings) -> External {
        External::Gomocup { settings, brain: None }
    }

    pub fn nboard(settings: NboardSettings) -> External {
        External::Nboard { settings, engine: None }
    }
}

/// The started engine in `slot`, started first if need be.
fn started<E, F: Into<Failure>>(
    slot: &mut Option<E>,
    start: impl FnOnce() -> Result<E, F>,
) -> Result<&mut E, Failure> {
    match slot {
        Some(engine) => Ok(engine),
        None => Ok(slot.insert(start().map_err(Into::into)?)),
    }
}

/// The move of a started engine (started first if need be), or its failure, after which
/// that engine plays no more moves whatever state it is in.
fn ask<E, T, F: Into<Failure>>(
    slot: &mut Option<E>,
    start: impl FnOnce() -> Result<E, F>,
    ask: impl FnOnce(&mut E) -> Result<T, F>,
) -> Result<T, Failure> {
    ask(started(slot, start)?).map_err(|e| {
        *slot = None;
        e.into()
    })
}

/// A Gomocup brain started for a new game in `pos`'s size and rule.
fn start_brain(settings: &BrainSettings, pos: &gomoku::Position) -> Result<Brain, BrainError> {
    let mut brain = Brain::start(settings)?;
    brain.new_game(pos.size(), pos.rule())?;
    Ok(brain)
}

impl Player for External {
    fn choose(
        &mut self,
        pos: &Position,
        time: Duration,
        clock: Option<ClockLeft>,
    ) -> Result<Move, Failure> {
        let left = clock.map(|c| c.left);
        match (self, pos) {
            // A Gomocup brain is told its time left only: the protocol has no increment.
            (External::Gomocup { settings, brain }, Position::Gomoku(pos)) => ask(
                brain,
                || start_brain(settings, pos),
                |b| b.best_move_in_time(pos, None, left).map(|(p, _)| Move::Place(p)),
            ),
            (External::Nboard { settings, engine }, Position::Reversi(pos)) => ask(
                engine,
                || NboardEngine::start(settings),
                |e| {
                    let time = left.map_or(time, |l| l.min(time));
                    let increment = clock.map_or(Duration::ZERO, |c| c.increment);
                    e.best_move(pos, time, increment, None).map(|(m, _)| m.mv)
                },
            ),
            (External::Gomocup { .. }, _) => {
                Err(Failure::crash("external Gomocup brains play Gomoku only"))
            }
            (External::Nboard { .. }, _) => {
                Err(Failure::crash("external NBoard engines play Reversi only"))
            }
        }
    }

    fn prepare(&mut self, pos: &Position) -> Result<(), Failure> {
        match (self, pos) {
            (External::Gomocup { settings, brain }, Position::Gomoku(pos)) => {
                started(brain, || start_brain(settings, pos)).map(|_| ())
            }
            (External::Nboard { settings, engine }, Position::Reversi(_)) => {
                started(engine, || NboardEngine::start(settings)).map(|_| ())
            }
            // `choose` refuses the wrong game.
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contestants_parse() {
        let ext = Contestant::parse("gomoku", "ext:/opt/pbrain-x").unwrap();
        assert_eq!(ext, Contestant::External(PathBuf::from("/opt/pbrain-x")));
        assert_eq!(ext.name(), "ext:pbrain-x");
        assert_eq!(ext.to_string(), "ext:/opt/pbrain-x");
        let level = Contestant::parse("gomoku", "pattern").unwrap();
        assert_eq!(level.name(), "pattern");
        assert!(Contestant::parse("gomoku", "nonsense").is_err());
        assert_eq!(ext.kind(), PlayerKind::External { id: 0 });
        assert!(matches!(level.kind(), PlayerKind::Computer { level: Level::Gomoku(_) }));
    }

    #[test]
    fn players_refuse_a_game_they_do_not_play() {
        let reversi = Position::Reversi(tengen_engine::reversi::Position::initial());
        let time = Duration::from_millis(100);
        // The brain is not even started for a Reversi position.
        let settings = BrainSettings::new("/nonexistent/pbrain-x", time);
        let refused = External::gomocup(settings).choose(&reversi, time, None).unwrap_err();
        assert_eq!(refused, Failure::crash("external Gomocup brains play Gomoku only"));
        let gomoku = Position::Gomoku(gomoku::Position::new(15, gomoku::Rule::Freestyle).unwrap());
        let settings = NboardSettings::new("/nonexistent/edax");
        let refused = External::nboard(settings).choose(&gomoku, time, None).unwrap_err();
        assert_eq!(refused, Failure::crash("external NBoard engines play Reversi only"));
        let fivetuple = Level::parse_for("gomoku", "fivetuple").unwrap();
        assert!(Computer::new(fivetuple, 1).unwrap().choose(&reversi, time, None).is_err());
        let greedy = Level::parse_for("reversi", "greedy").unwrap();
        let greedy = Computer::new(greedy, 1).unwrap().choose(&reversi, time, None).unwrap();
        assert!(matches!(greedy, Move::Place(_)));
    }
}

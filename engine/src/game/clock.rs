//! The game clock: a [`TimeControl`] (none, sudden death, Fischer increment, or a fixed
//! time per move) and the [`Clock`] that runs it for both sides.
//!
//! The clock never reads the time itself: every call that depends on it takes `now`, so
//! the arithmetic is tested without sleeping and the app decides what "now" is. The times
//! left at any position follow from the control and the recorded time of each move
//! ([`Clock::replay`]), so a saved game, an undo and a step back in the move list all give
//! the times of that position, as chess programs do.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::MoveRecord;
use crate::{Color, Move};

/// The shortest and longest base time of sudden death and Fischer (10 s to 3 h).
pub const BASE_MS: (u64, u64) = (10_000, 3 * 60 * 60 * 1000);
/// The largest Fischer increment (60 s; 0 is sudden death with extra steps, and allowed).
pub const MAX_INCREMENT_MS: u64 = 60_000;
/// The shortest and longest fixed time per move (1 s to 10 min).
pub const PER_MOVE_MS: (u64, u64) = (1000, 10 * 60 * 1000);
/// The remaining time below which a clock is shown as urgent (the UI's and the facts').
pub const URGENT_MS: u64 = 10_000;

/// How the players' time is measured. Serialised as `{"type":"none"}`,
/// `{"type":"sudden_death","baseMs":300000}`,
/// `{"type":"fischer","baseMs":180000,"incrementMs":2000}` or
/// `{"type":"per_move","moveMs":10000}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TimeControl {
    /// No clock (the computer thinks for the game's time per move).
    #[default]
    None,
    /// Each side has `base_ms` for the whole game.
    SuddenDeath {
        #[serde(rename = "baseMs")]
        base_ms: u64,
    },
    /// Each side has `base_ms`, and gets `increment_ms` back after each of its moves.
    Fischer {
        #[serde(rename = "baseMs")]
        base_ms: u64,
        #[serde(rename = "incrementMs")]
        increment_ms: u64,
    },
    /// Each move must be made within `move_ms`; time not used is not kept.
    PerMove {
        #[serde(rename = "moveMs")]
        move_ms: u64,
    },
}

/// A time control out of its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum TimeControlError {
    #[error("the base time must be from {} to {} ms, not {ms}", BASE_MS.0, BASE_MS.1)]
    Base { ms: u64 },
    #[error("the increment must be at most {MAX_INCREMENT_MS} ms, not {ms}")]
    Increment { ms: u64 },
    #[error("the time per move must be from {} to {} ms, not {ms}", PER_MOVE_MS.0, PER_MOVE_MS.1)]
    PerMove { ms: u64 },
}

impl TimeControl {
    /// The time controls a player is offered in the start panel, in the order shown: none;
    /// sudden death 1, 3, 5, 10 and 15 min; Fischer 1+1, 3+2, 5+3 and 10+5; 5, 10 and 30 s
    /// per move.
    pub const CHOICES: [TimeControl; 13] = [
        TimeControl::None,
        TimeControl::SuddenDeath { base_ms: 60_000 },
        TimeControl::SuddenDeath { base_ms: 180_000 },
        TimeControl::SuddenDeath { base_ms: 300_000 },
        TimeControl::SuddenDeath { base_ms: 600_000 },
        TimeControl::SuddenDeath { base_ms: 900_000 },
        TimeControl::Fischer { base_ms: 60_000, increment_ms: 1000 },
        TimeControl::Fischer { base_ms: 180_000, increment_ms: 2000 },
        TimeControl::Fischer { base_ms: 300_000, increment_ms: 3000 },
        TimeControl::Fischer { base_ms: 600_000, increment_ms: 5000 },
        TimeControl::PerMove { move_ms: 5000 },
        TimeControl::PerMove { move_ms: 10_000 },
        TimeControl::PerMove { move_ms: 30_000 },
    ];

    /// Checks the bounds ([`BASE_MS`], [`MAX_INCREMENT_MS`], [`PER_MOVE_MS`]).
    pub fn validate(self) -> Result<(), TimeControlError> {
        let base = |ms: u64| match (BASE_MS.0..=BASE_MS.1).contains(&ms) {
            true => Ok(()),
            false => Err(TimeControlError::Base { ms }),
        };
        match self {
            TimeControl::None => Ok(()),
            TimeControl::SuddenDeath { base_ms } => base(base_ms),
            TimeControl::Fischer { base_ms, increment_ms } => {
                base(base_ms)?;
                match increment_ms <= MAX_INCREMENT_MS {
                    true => Ok(()),
                    false => Err(TimeControlError::Increment { ms: increment_ms }),
                }
            }
            TimeControl::PerMove { move_ms } => {
                match (PER_MOVE_MS.0..=PER_MOVE_MS.1).contains(&move_ms) {
                    true => Ok(()),
                    false => Err(TimeControlError::PerMove { ms: move_ms }),
                }
            }
        }
    }

    /// Whether the game has a clock at all.
    pub fn is_timed(self) -> bool {
        self != TimeControl::None
    }

    /// The time each side has before its first move (`None` without a clock).
    pub fn start_ms(self) -> Option<u64> {
        match self {
            TimeControl::None => None,
            TimeControl::SuddenDeath { base_ms } | TimeControl::Fischer { base_ms, .. } => {
                Some(base_ms)
            }
            TimeControl::PerMove { move_ms } => Some(move_ms),
        }
    }

    /// The time given back after each move.
    pub fn increment_ms(self) -> u64 {
        match self {
            TimeControl::Fischer { increment_ms, .. } => increment_ms,
            _ => 0,
        }
    }
}

/// A side's flag fell: it used all its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("{color} ran out of time")]
pub struct Flagged {
    pub color: Color,
}

/// Both sides' clocks. Only the side to move (`turn`) spends time, and only while the clock
/// runs ([`Clock::resume`] / [`Clock::pause`]). Without a time control the clock still
/// measures each move's time (for the record) but no flag falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Each side's time left when its current (or next) turn began, in ms.
    left: [u64; 2],
    /// The side whose time runs.
    turn: Color,
    /// Time of this turn spent before `since`, in ms.
    spent: u64,
    /// Running since then (`None`: paused).
    since: Option<Instant>,
}

impl Clock {
    /// A stopped clock with each side's full time, `turn` to move.
    pub fn new(control: TimeControl, turn: Color) -> Clock {
        let full = control.start_ms().unwrap_or(0);
        Clock { control, left: [full; 2], turn, spent: 0, since: None }
    }

    /// A stopped clock at the position after `records` (from the start, in order), `turn` to
    /// move: each move charged to its side with its increment. The first `opening` records
    /// are an opening rule's stones, placed while the clock stood: neither charged nor given
    /// an increment. A forced pass (recorded with no time) is not a move of the player's and
    /// gets no increment. Times that the records say ran out are left at 0.
    pub fn replay(
        control: TimeControl,
        records: &[MoveRecord],
        opening: usize,
        turn: Color,
    ) -> Clock {
        let mut clock = Clock::new(control, turn);
        for r in records.iter().skip(opening) {
            if r.mv != Move::Pass || r.ms > 0 {
                clock.charge(r.color, r.ms);
            }
        }
        clock
    }

    /// Takes a move of `ms` off `color`'s time and gives the increment back.
    fn charge(&mut self, color: Color, ms: u64) {
        let left = &mut self.left[color.index()];
        match self.control {
            TimeControl::None => {}
            TimeControl::PerMove { move_ms } => *left = move_ms,
            // A move that used all the time left lost it, and gets no increment back.
            TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. } => {
                *left = match left.checked_sub(ms) {
                    Some(rest) if rest > 0 => rest.saturating_add(self.control.increment_ms()),
                    _ => 0,
                };
            }
        }
    }

    /// The clock with `ms` already spent on the current turn.
    pub(super) fn with_spent(self, ms: u64) -> Clock {
        Clock { spent: ms, ..self }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The side whose time runs (or would run).
    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn is_running(&self) -> bool {
        self.since.is_some()
    }

    /// Starts or continues the turn's time (nothing when already running).
    pub fn resume(&mut self, now: Instant) {
        if self.since.is_none() {
            self.since = Some(now);
        }
    }

    /// Stops the turn's time, keeping what it spent (nothing when already stopped).
    pub fn pause(&mut self, now: Instant) {
        if let Some(since) = self.since.take() {
            self.spent = self.spent.saturating_add(ms_between(since, now));
        }
    }

    /// The time spent on the current turn, in ms (pauses excluded).
    pub fn spent(&self, now: Instant) -> u64 {
        self.spent.saturating_add(self.since.map_or(0, |since| ms_between(since, now)))
    }

    /// The time `color` has left now, in ms (`None` without a clock). The side not to move
    /// has its full allowance for its next move under a per-move control.
    pub fn left(&self, color: Color, now: Instant) -> Option<u64> {
        self.control.start_ms()?;
        let left = self.left[color.index()];
        Some(match color == self.turn {
            true => left.saturating_sub(self.spent(now)),
            false => left,
        })
    }

    /// The side whose flag has fallen (its time left is 0), if any.
    pub fn flagged(&self, now: Instant) -> Option<Flagged> {
        match self.left(self.turn, now) {
            Some(0) => Some(Flagged { color: self.turn }),
            _ => None,
        }
    }

    /// How long until the running side's flag falls (`None` when the clock is stopped or
    /// the game has none): when to look again.
    pub fn until_flag(&self, now: Instant) -> Option<Duration> {
        self.since?;
        self.left(self.turn, now).map(Duration::from_millis)
    }

    /// The side to move moved at `now`; `next` moves now (the same side again after a
    /// forced pass of the opponent). Returns the time the move took, in ms, or the flag
    /// when the time had already run out (the move does not count; nothing changes).
    pub fn moved(&mut self, now: Instant, next: Color) -> Result<u64, Flagged> {
        if let Some(flag) = self.flagged(now) {
            return Err(flag);
        }
        let ms = self.spent(now);
        self.charge(self.turn, ms);
        self.turn = next;
        self.spent = 0;
        if self.since.is_some() {
            self.since = Some(now);
        }
        Ok(ms)
    }
}

/// Whole milliseconds from `from` to `to` (0 when `to` is earlier).
fn ms_between(from: Instant, to: Instant) -> u64 {
    u64::try_from(to.saturating_duration_since(from).as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point;

    fn at(t0: Instant, ms: u64) -> Instant {
        t0 + Duration::from_millis(ms)
    }

    fn rec(color: Color, ms: u64) -> MoveRecord {
        MoveRecord { mv: Move::Place(Point::new(0, 0)), color, ms }
    }

    const FISCHER_3_2: TimeControl = TimeControl::Fischer { base_ms: 180_000, increment_ms: 2000 };

    #[test]
    fn fischer_takes_the_time_used_and_gives_the_increment_back() {
        let t0 = Instant::now();
        let mut c = Clock::new(FISCHER_3_2, Color::Black);
        assert_eq!(c.left(Color::Black, at(t0, 5000)), Some(180_000), "stopped: no time runs");
        c.resume(t0);
        assert_eq!(c.left(Color::Black, at(t0, 5000)), Some(175_000));
        assert_eq!(c.left(Color::White, at(t0, 5000)), Some(180_000), "only the side to move");
        assert_eq!(c.moved(at(t0, 5000), Color::White), Ok(5000));
        assert_eq!(c.left(Color::Black, at(t0, 9000)), Some(177_000), "5 s used, 2 s back");
        assert_eq!(c.left(Color::White, at(t0, 9000)), Some(176_000), "white's runs now");
        assert_eq!(c.until_flag(at(t0, 9000)), Some(Duration::from_millis(176_000)));
        assert_eq!(c.turn(), Color::White);
    }

    #[test]
    fn pauses_stop_the_time_of_the_side_to_move() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl::SuddenDeath { base_ms: 60_000 }, Color::Black);
        c.resume(t0);
        c.pause(at(t0, 1000));
        assert!(!c.is_running() && c.until_flag(at(t0, 50_000)).is_none());
        assert_eq!(c.left(Color::Black, at(t0, 50_000)), Some(59_000), "the pause is free");
        c.resume(at(t0, 50_000));
        c.resume(at(t0, 55_000)); // already running: changes nothing
        assert_eq!(c.spent(at(t0, 52_000)), 3000);
        assert_eq!(c.moved(at(t0, 52_000), Color::White), Ok(3000));
        assert_eq!(c.left(Color::Black, at(t0, 52_000)), Some(57_000), "no increment");
    }

    #[test]
    fn the_flag_falls_when_the_time_is_gone_and_a_late_move_does_not_count() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl::SuddenDeath { base_ms: 10_000 }, Color::Black);
        c.resume(t0);
        assert_eq!(c.flagged(at(t0, 9999)), None);
        assert_eq!(c.until_flag(at(t0, 9999)), Some(Duration::from_millis(1)));
        assert_eq!(c.flagged(at(t0, 10_000)), Some(Flagged { color: Color::Black }));
        let before = c;
        assert_eq!(c.moved(at(t0, 12_000), Color::White), Err(Flagged { color: Color::Black }));
        assert_eq!(c, before, "a refused move changes nothing");
        assert_eq!(c.left(Color::Black, at(t0, 12_000)), Some(0));
    }

    #[test]
    fn a_time_per_move_is_a_fresh_allowance_each_move() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl::PerMove { move_ms: 5000 }, Color::Black);
        c.resume(t0);
        assert_eq!(c.moved(at(t0, 4000), Color::White), Ok(4000));
        assert_eq!(c.left(Color::Black, at(t0, 4000)), Some(5000), "unused time is not kept");
        assert_eq!(c.left(Color::White, at(t0, 8000)), Some(1000));
        assert_eq!(c.flagged(at(t0, 9000)), Some(Flagged { color: Color::White }));
    }

    #[test]
    fn without_a_control_the_clock_measures_moves_and_never_flags() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl::None, Color::Black);
        c.resume(t0);
        assert_eq!(c.left(Color::Black, at(t0, 1000)), None);
        assert_eq!(c.flagged(at(t0, u32::MAX as u64)), None);
        assert_eq!(c.until_flag(at(t0, 1000)), None);
        assert_eq!(c.moved(at(t0, 1234), Color::White), Ok(1234));
        assert_eq!(c.spent(at(t0, 1234)), 0, "the next turn starts at the move");
    }

    #[test]
    fn replaying_the_records_gives_the_times_of_that_position() {
        let t0 = Instant::now();
        let mut live = Clock::new(FISCHER_3_2, Color::Black);
        live.resume(t0);
        let mut records = Vec::new();
        let mut t = 0;
        for (i, ms) in [3000, 7000, 1500, 20_000, 400].into_iter().enumerate() {
            let color = if i % 2 == 0 { Color::Black } else { Color::White };
            t += ms;
            assert_eq!(live.moved(at(t0, t), color.opponent()), Ok(ms));
            records.push(rec(color, ms));
        }
        let replayed = Clock::replay(FISCHER_3_2, &records, 0, Color::White);
        for color in Color::BOTH {
            assert_eq!(replayed.left(color, at(t0, t)), live.left(color, at(t0, t)), "{color}");
        }
        assert!(!replayed.is_running(), "a replayed clock waits to be started");
        // A forced pass (no time) is no move: no increment.
        let pass = MoveRecord { mv: Move::Pass, color: Color::White, ms: 0 };
        records.push(pass);
        let after_pass = Clock::replay(FISCHER_3_2, &records, 0, Color::Black);
        assert_eq!(after_pass.left(Color::White, t0), replayed.left(Color::White, t0));
        // A record that used more than the time left ran out: 0, no increment back.
        let over = Clock::replay(FISCHER_3_2, &[rec(Color::Black, 999_999)], 0, Color::White);
        assert_eq!(over.left(Color::Black, t0), Some(0));
    }

    #[test]
    fn an_openings_stones_are_neither_charged_nor_given_an_increment() {
        let t0 = Instant::now();
        // Three opening stones (recorded with some time, as a player took it), then one move
        // of each side on the clock.
        let mut records: Vec<MoveRecord> =
            [(Color::Black, 4000), (Color::White, 0), (Color::Black, 2500)]
                .into_iter()
                .map(|(c, ms)| rec(c, ms))
                .collect();
        records.extend([rec(Color::White, 1000), rec(Color::Black, 3000)]);
        let clock = Clock::replay(FISCHER_3_2, &records, 3, Color::White);
        assert_eq!(clock.left(Color::White, t0), Some(180_000 - 1000 + 2000));
        assert_eq!(clock.left(Color::Black, t0), Some(180_000 - 3000 + 2000));
        // Still in the opening: both sides keep their whole time.
        let clock = Clock::replay(FISCHER_3_2, &records[..3], 3, Color::White);
        assert_eq!(clock.left(Color::Black, t0), Some(180_000));
        assert_eq!(clock.left(Color::White, t0), Some(180_000));
    }

    #[test]
    fn the_bounds_are_inclusive_and_every_choice_is_valid() {
        for tc in TimeControl::CHOICES {
            assert_eq!(tc.validate(), Ok(()), "{tc:?}");
        }
        let sd = |base_ms| TimeControl::SuddenDeath { base_ms }.validate();
        assert_eq!(sd(BASE_MS.0), Ok(()));
        assert_eq!(sd(BASE_MS.1), Ok(()));
        assert_eq!(sd(BASE_MS.0 - 1), Err(TimeControlError::Base { ms: BASE_MS.0 - 1 }));
        assert_eq!(sd(u64::MAX), Err(TimeControlError::Base { ms: u64::MAX }));
        let fi = |increment_ms| TimeControl::Fischer { base_ms: 60_000, increment_ms }.validate();
        assert_eq!(fi(0), Ok(()));
        assert_eq!(fi(MAX_INCREMENT_MS), Ok(()));
        assert_eq!(fi(MAX_INCREMENT_MS + 1), Err(TimeControlError::Increment { ms: 60_001 }));
        let pm = |move_ms| TimeControl::PerMove { move_ms }.validate();
        assert_eq!(pm(PER_MOVE_MS.0), Ok(()));
        assert_eq!(pm(PER_MOVE_MS.1), Ok(()));
        assert_eq!(pm(0), Err(TimeControlError::PerMove { ms: 0 }));
        assert_eq!(pm(PER_MOVE_MS.1 + 1), Err(TimeControlError::PerMove { ms: 600_001 }));
    }

    #[test]
    fn time_controls_keep_their_saved_form() {
        let json = serde_json::to_string(&FISCHER_3_2).unwrap();
        assert_eq!(json, r#"{"type":"fischer","baseMs":180000,"incrementMs":2000}"#);
        for tc in TimeControl::CHOICES {
            let text = serde_json::to_string(&tc).unwrap();
            assert_eq!(serde_json::from_str::<TimeControl>(&text).unwrap(), tc);
        }
        assert_eq!(serde_json::to_string(&TimeControl::None).unwrap(), r#"{"type":"none"}"#);
        assert!(serde_json::from_str::<TimeControl>(r#"{"type":"hourglass"}"#).is_err());
    }
}

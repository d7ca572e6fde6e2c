//! Time management: how long this move may take, and whether another iteration fits.

use std::time::{Duration, Instant};

use crate::ai::Limits;

/// Time a search may use when the caller gives no limit at all.
const DEFAULT_TIME: Duration = Duration::from_millis(1000);

/// The share of the time before which a new iteration always starts.
pub const FREE_START: f64 = 0.4;

/// How much longer the next iteration is predicted to take than the last one, given the
/// last two iterations' times (the growth of the last step, within sane bounds).
pub fn predict_next(last: Duration, before: Duration) -> Duration {
    let ratio = if before >= Duration::from_millis(1) {
        (last.as_secs_f64() / before.as_secs_f64()).clamp(1.5, 4.0)
    } else {
        3.0
    };
    last.mul_f64(ratio)
}

/// The clock of one search.
pub struct Clock {
    start: Instant,
    /// Stop at once after this (None: no time limit).
    hard: Option<Duration>,
    /// A new iteration always starts while less than this share of the time is gone.
    pub free_start: f64,
}

impl Clock {
    pub fn new(limits: &Limits) -> Clock {
        Clock::started_at(limits, Instant::now())
    }

    /// A clock whose move began at `start` (the time spent before the search proper, such
    /// as setting up the board, counts against the limit).
    pub fn started_at(limits: &Limits, start: Instant) -> Clock {
        let mut hard = limits.time.map(|t| {
            // Keep a margin for returning and for the caller's overhead.
            let margin = (t / 20).clamp(Duration::from_millis(2), Duration::from_millis(60));
            t.saturating_sub(margin)
        });
        if let Some(left) = limits.time_left {
            // Spend at most a fraction of what is left, with a margin for the rest.
            let share = left / 12;
            hard = Some(hard.map_or(share, |h| h.min(share)));
        }
        if hard.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
            hard = Some(DEFAULT_TIME);
        }
        Clock { start, hard, free_start: FREE_START }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit is reached.
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether a new iteration is worth starting, given how long it is predicted to take:
    /// always while less than [`Clock::free_start`] (normally 40%) of the time is gone (even
    /// a part of an iteration can find a better move), later only when it is likely to
    /// finish in time.
    pub fn can_start_iteration(&self, predicted: Duration) -> bool {
        self.hard.is_none_or(|h| {
            let elapsed = self.start.elapsed();
            elapsed < h.mul_f64(self.free_start) || elapsed + predicted < h
        })
    }

    /// A deadline for sub-searches that should use at most `fraction` of the move's time.
    pub fn deadline(&self, fraction: f64) -> Option<Instant> {
        self.hard.map(|h| self.start + h.mul_f64(fraction))
    }

    pub fn has_time_limit(&self) -> bool {
        self.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predictions_follow_the_growth() {
        let ms = Duration::from_millis;
        let close = |a: Duration, b: u64| a.as_micros().abs_diff(b as u128 * 1000) <= 1;
        assert!(close(predict_next(ms(200), ms(100)), 400));
        assert!(close(predict_next(ms(100), ms(40)), 250));
        assert!(close(predict_next(ms(100), ms(10)), 400));
        assert!(close(predict_next(ms(100), ms(90)), 150));
        assert!(close(predict_next(ms(10), Duration::ZERO), 30));
    }

    #[test]
    fn limits_shape_the_clock() {
        let c = Clock::new(&Limits::time(1000));
        assert!(c.hard.unwrap() < Duration::from_millis(1000));
        assert!(c.hard.unwrap() > Duration::from_millis(900));
        let c = Clock::new(&Limits::depth(5));
        assert!(c.hard.is_none());
        let c = Clock::new(&Limits::default());
        assert_eq!(c.hard, Some(DEFAULT_TIME));
        let l = Limits { time_left: Some(Duration::from_millis(12_000)), ..Limits::time(5000) };
        assert_eq!(Clock::new(&l).hard, Some(Duration::from_millis(1000)));
        assert!(c.can_start_iteration(Duration::from_secs(5)));
        let c = Clock {
            start: Instant::now() - Duration::from_millis(600),
            ..Clock::new(&Limits::time(1000))
        };
        assert!(c.can_start_iteration(Duration::from_millis(200)));
        assert!(!c.can_start_iteration(Duration::from_millis(400)));
    }

    #[test]
    fn a_later_free_start_starts_iterations_that_will_not_finish() {
        let c = Clock {
            start: Instant::now() - Duration::from_millis(600),
            ..Clock::new(&Limits::time(1000))
        };
        assert!(!c.can_start_iteration(Duration::from_millis(400)));
        let c = Clock { free_start: 0.75, ..c };
        assert!(c.can_start_iteration(Duration::from_millis(400)));
        let c = Clock { start: Instant::now() - Duration::from_millis(800), ..c };
        assert!(!c.can_start_iteration(Duration::from_millis(400)));
    }

    #[test]
    fn the_time_before_the_search_counts() {
        let limits = Limits::time(100);
        let late = Clock::started_at(&limits, Instant::now() - Duration::from_millis(150));
        assert!(late.out_of_time());
        assert!(late.elapsed() >= Duration::from_millis(150));
        assert!(!Clock::new(&limits).out_of_time());
    }
}

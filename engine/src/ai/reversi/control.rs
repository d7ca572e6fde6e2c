//! Limits, cancellation and progress reports shared by every Reversi level.

use std::time::{Duration, Instant};

use crate::ai::{CancelFlag, Limits, SearchInfo};

/// How often (in nodes) the clock and the cancel flag are looked at.
const CHECK_EVERY: u64 = 1024;
/// Most time kept back from the limit for stopping and answering.
const SAFETY_MARGIN: Duration = Duration::from_millis(50);
/// Progress reports are sent at least this often during a long search.
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// Watches the clock, the node budget and the cancel flag during one search, and sends
/// progress reports. Searches call [`Control::tick`] once per node.
pub struct Control<'a> {
    start: Instant,
    deadline: Option<Instant>,
    max_nodes: u64,
    cancel: &'a CancelFlag,
    progress: &'a mut dyn FnMut(&SearchInfo),
    nodes: u64,
    next_check: u64,
    last_report: Instant,
    stopped: bool,
    /// What the search knows so far; sent with every progress report.
    pub info: SearchInfo,
}

impl<'a> Control<'a> {
    /// A control for one search. `default_time` applies when `limits` sets no time.
    pub fn new(
        limits: &Limits,
        default_time: Option<Duration>,
        cancel: &'a CancelFlag,
        progress: &'a mut dyn FnMut(&SearchInfo),
    ) -> Control<'a> {
        let start = Instant::now();
        let time = limits.time.or(default_time);
        Control {
            start,
            // A small margin (5%, at most 50 ms) for answering after the search stops and for the
            // wait for a core on a busy machine.
            deadline: time.map(|t| start + t - (t / 20).min(SAFETY_MARGIN)),
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            cancel,
            progress,
            nodes: 0,
            next_check: CHECK_EVERY,
            last_report: start,
            stopped: false,
            info: SearchInfo::default(),
        }
    }

    /// Counts one node; true when the search must stop now.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
        }
        self.stopped
    }

    /// True once a limit was reached or the search was cancelled.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time budget, if any.
    pub fn budget(&self) -> Option<Duration> {
        self.deadline.map(|d| d - self.start)
    }

    /// The instant the search must stop, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The cancel flag of this search.
    pub fn cancel_flag(&self) -> &CancelFlag {
        self.cancel
    }

    /// Looks at the limits now (also usable between iterations).
    pub fn check(&mut self) -> bool {
        self.next_check = self.nodes + CHECK_EVERY;
        if self.cancel.is_cancelled()
            || self.nodes >= self.max_nodes
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
        if self.last_report.elapsed() >= REPORT_EVERY {
            self.report();
        }
        self.stopped
    }

    /// Adds `n` nodes counted elsewhere (e.g. by the endgame solver).
    pub fn add_nodes(&mut self, n: u64) {
        self.nodes += n;
    }

    /// Fills in the counters of [`Control::info`] and returns a copy.
    pub fn snapshot(&mut self) -> SearchInfo {
        let elapsed = self.start.elapsed();
        let ms = elapsed.as_millis() as u64;
        self.info.nodes = self.nodes;
        self.info.elapsed_ms = ms;
        self.info.nps = (self.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
        self.info.clone()
    }

    /// Sends a progress report now.
    pub fn report(&mut self) {
        let info = self.snapshot();
        (self.progress)(&info);
        self.last_report = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_on_cancel_and_node_budget() {
        let cancel = CancelFlag::new();
        let mut sink = |_: &SearchInfo| {};
        let mut c = Control::new(&Limits::nodes(5000), None, &cancel, &mut sink);
        let mut n = 0;
        while !c.tick() {
            n += 1;
            assert!(n < 10_000);
        }
        assert!(c.nodes() >= 5000 && c.nodes() < 5000 + 2 * CHECK_EVERY);

        let mut sink2 = |_: &SearchInfo| {};
        let mut c = Control::new(&Limits::default(), None, &cancel, &mut sink2);
        assert!(!c.stopped());
        cancel.cancel();
        assert!(c.check());
    }
}

//! The one search control of every engine of both games: the clock (a hard deadline with a
//! margin, the share of the game's time left, the rule for starting another iteration), the
//! node budget, the cancel flag and the cadence of progress reports.
//!
//! A search makes one [`Control`] per move and calls [`Control::tick`] (or
//! [`Control::poll`], when it builds its own progress reports) once per node: a counter
//! increment and a comparison; the clock and the cancel flag are looked at every
//! [`CHECK_EVERY`] nodes (or the engine's own interval, [`Control::check_every`]).

use std::time::{Duration, Instant};

use crate::ai::{CancelFlag, Limits, SearchInfo};
use crate::level::Level;

/// Time a timed search uses when the caller sets no limit at all.
pub const DEFAULT_TIME: Duration = Duration::from_millis(1000);

/// The share of the time before which a new iteration always starts.
pub const FREE_START: f64 = 0.4;

/// The free-start share of a search whose time is its own ([`own_time`]): all of it, whatever
/// share the engine sets. Time the move saves is lost, so a new iteration always starts; one
/// that does not finish still searches the best move first and replaces it only by a move
/// proven better.
const FREE_START_OWN_TIME: f64 = 1.0;

/// The largest free-start share [`Stability`] scales a clocked move's to.
const MAX_FREE_START: f64 = 0.9;

/// Iterations shallower than this say nothing of the best move's stability.
const STABILITY_FROM_DEPTH: u32 = 5;
/// A score this much below the last iteration's is a drop.
const STABILITY_DROP: i32 = 30;
/// A best move kept over this many iterations is stable.
const STABLE_ITERATIONS: u32 = 3;
/// The free-start share's scale after an iteration that changed the best move or dropped the
/// score, and after a stable best move.
const UNSTABLE_SCALE: f64 = 1.75;
const STABLE_SCALE: f64 = 0.5;

/// The best move's history over one search's iterations, which scales the share of a clocked
/// move's time before which a new iteration always starts: a best move that just changed, or
/// a score that dropped, gets more time; one kept over [`STABLE_ITERATIONS`] iterations
/// gets less, and the time it saves goes to the later moves. (SPRT on a 10 s game clock: see
/// docs/BENCHMARKS.md.)
#[derive(Clone, Debug, Default)]
pub struct Stability {
    best: Option<usize>,
    kept: u32,
    score: Option<i32>,
}

impl Stability {
    /// Notes a completed iteration of `depth` plies, its best move `best` (any id of it) and
    /// its `score`, and returns the scale of the free-start share for starting the next
    /// (see [`Clock::can_start_iteration_scaled`]).
    pub fn update(&mut self, depth: u32, best: usize, score: i32) -> f64 {
        let changed = self.best != Some(best);
        let dropped = self.score.is_some_and(|last| last - score > STABILITY_DROP);
        self.kept = if changed { 0 } else { self.kept + 1 };
        self.best = Some(best);
        self.score = Some(score);
        if depth < STABILITY_FROM_DEPTH {
            1.0
        } else if changed || dropped {
            UNSTABLE_SCALE
        } else if self.kept >= STABLE_ITERATIONS {
            STABLE_SCALE
        } else {
            1.0
        }
    }
}

/// Nodes between two looks at the clock and the cancel flag, unless the engine sets its own.
pub const CHECK_EVERY: u64 = 1024;

/// Progress reports go out once this much time has passed since the last one, so that they
/// are never more than 100 ms apart while nodes keep coming.
pub const REPORT_EVERY: Duration = Duration::from_millis(90);

/// The smallest and largest margin kept back from the time limit for stopping and answering
/// (5% of the time between these bounds).
const MARGIN: (Duration, Duration) = (Duration::from_millis(2), Duration::from_millis(50));

/// A search spends at most this share of the game's time left on one move, unless the
/// limits say how many moves the clock must still pay for (`Limits::moves_to_go`).
pub const TIME_LEFT_SHARE: u32 = 12;

/// How often [`Control::watch`] looks at a helper thread.
const WATCH_EVERY: Duration = Duration::from_millis(2);

/// The most search threads an engine uses (a larger setting is taken as this many).
pub const MAX_THREADS: usize = 64;

/// The threads a search uses unless told otherwise: all the machine's cores but one (left
/// to the app's window and the rest of the system), at least one.
pub fn default_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_sub(1).clamp(1, MAX_THREADS)
}

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

/// The limits of `level` for the player's time per move. Every level gets the player's
/// time, and none goes beyond it: a level that follows the clock
/// ([`Level::follows_clock`]) searches until the time is nearly gone, the others stop at
/// their own depth, much sooner, and take the time only as the most they may use. (The
/// answer is the same for every level today; callers still say which level, so that a level
/// with other needs changes here only.)
pub fn limits_for(_level: Level, time_per_move: Duration) -> Limits {
    Limits { time: Some(time_per_move), ..Limits::default() }
}

/// Whether a search with `limits` runs on [`DEFAULT_TIME`] when the level searches by time:
/// the limits set neither a time, nor a depth, nor a node budget.
fn unlimited(limits: &Limits) -> bool {
    limits.time.is_none()
        && limits.time_left.is_none()
        && limits.depth.is_none()
        && limits.nodes.is_none()
}

/// The time after which a search with `limits` stops at once: the time for the move less a
/// margin (5%, 2 to 50 ms) for answering and for the wait for a core on a busy machine, and
/// at most a twelfth of the game's time left. `default` applies when the limits set nothing
/// at all ([`DEFAULT_TIME`] for the levels that search by time). `None`: no time limit.
pub fn time_budget(limits: &Limits, default: Option<Duration>) -> Option<Duration> {
    let mut hard = limits.time.map(|t| t.saturating_sub((t / 20).clamp(MARGIN.0, MARGIN.1)));
    if let Some(left) = limits.time_left {
        let share = left / limits.moves_to_go.unwrap_or(TIME_LEFT_SHARE).max(1);
        hard = Some(hard.map_or(share, |h| h.min(share)));
    }
    if unlimited(limits) {
        hard = default;
    }
    hard
}

/// Moves a game clock must pay for at the full time per move, beyond the clock's own share,
/// for that time to be the move's own ([`own_time`]): more than one side plays in a game of
/// either kind on a 15x15 board.
const OWN_TIME_MOVES: u32 = 120;

/// Whether the move's time is its own: nothing a move saves is left for the later moves. So
/// with a time per move and no game clock, and with a game clock so ample that the time per
/// move binds every move to come: after [`OWN_TIME_MOVES`] more moves at the full time, the
/// clock's share ([`TIME_LEFT_SHARE`]) would still be at least the time per move (a Gomocup
/// match of 180 s with turns of 0.3 s, say).
pub fn own_time(limits: &Limits) -> bool {
    match (limits.time, limits.time_left) {
        (Some(_), None) => true,
        (Some(time), Some(left)) => left >= time.saturating_mul(TIME_LEFT_SHARE + OWN_TIME_MOVES),
        (None, _) => false,
    }
}

/// The clock of one search.
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    /// Stop at once after this (None: no time limit).
    hard: Option<Duration>,
    /// A new iteration always starts while less than this share of the time is gone.
    free_start: f64,
    /// The move's time is its own ([`own_time`]): iterations start until it is gone.
    own: bool,
}

impl Clock {
    /// The clock of a move that began at `start` with the time budget `hard` (see
    /// [`time_budget`]), a budget that later moves share.
    pub fn new(start: Instant, hard: Option<Duration>) -> Clock {
        Clock { start, hard, free_start: FREE_START, own: false }
    }

    /// The clock of a move that began at `start` with `limits`: its budget, and whether the
    /// time is the move's own.
    pub fn for_limits(start: Instant, limits: &Limits, default: Option<Duration>) -> Clock {
        Clock { own: own_time(limits), ..Clock::new(start, time_budget(limits, default)) }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit is reached.
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Sets the share of a shared budget before which a new iteration always starts (a move
    /// whose time is its own starts them until the time is gone).
    pub fn set_free_start(&mut self, share: f64) {
        self.free_start = share.clamp(0.0, 1.0);
    }

    /// Whether a new iteration is worth starting, given how long it is predicted to take
    /// (`None`: no prediction): always while less than the free-start share (normally
    /// [`FREE_START`]) of the time is gone (even a part of an iteration can find a better
    /// move), later only when it is predicted to finish in time.
    pub fn can_start_iteration(&self, predicted: Option<Duration>) -> bool {
        self.can_start_iteration_scaled(predicted, 1.0)
    }

    /// [`Clock::can_start_iteration`] with the free-start share times `scale` (from
    /// [`Stability::update`]), at most [`MAX_FREE_START`]. The scale applies only when the
    /// move's time is not its own: a move that owns its time uses all of it anyway.
    pub fn can_start_iteration_scaled(&self, predicted: Option<Duration>, scale: f64) -> bool {
        let free = match self.own {
            false => (self.free_start * scale).min(MAX_FREE_START),
            true => FREE_START_OWN_TIME,
        };
        self.hard.is_none_or(|h| {
            let elapsed = self.start.elapsed();
            elapsed < h.mul_f64(free) || predicted.is_some_and(|p| elapsed.saturating_add(p) < h)
        })
    }

    /// A deadline for sub-searches that should use at most `fraction` of the move's time.
    pub fn deadline_at(&self, fraction: f64) -> Option<Instant> {
        self.hard.and_then(|h| self.start.checked_add(h.mul_f64(fraction.clamp(0.0, 1.0))))
    }

    /// The instant the search must stop, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.hard.and_then(|h| self.start.checked_add(h))
    }

    /// The time budget, if any.
    pub fn budget(&self) -> Option<Duration> {
        self.hard
    }

    pub fn has_time_limit(&self) -> bool {
        self.hard.is_some()
    }
}

/// What [`Control::poll`] says after counting a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Poll {
    /// Go on.
    Go,
    /// A limit was reached or the search was cancelled: stop now.
    Stop,
    /// Go on, but send a progress report first ([`Control::send`]).
    Report,
}

/// Watches the clock, the node budget and the cancel flag during one search, and sends
/// progress reports.
pub struct Control<'a> {
    clock: Clock,
    max_nodes: u64,
    cancel: &'a CancelFlag,
    progress: &'a mut dyn FnMut(&SearchInfo),
    nodes: u64,
    /// The node count at which the limits are next looked at.
    next_check: u64,
    check_every: u64,
    last_report: Instant,
    stopped: bool,
    /// What the search knows so far; sent with every report of [`Control::report`].
    pub info: SearchInfo,
}

impl<'a> Control<'a> {
    /// The control of a search by a level that searches by time: [`DEFAULT_TIME`] when
    /// `limits` set no limit at all.
    pub fn new(
        limits: &Limits,
        cancel: &'a CancelFlag,
        progress: &'a mut dyn FnMut(&SearchInfo),
    ) -> Control<'a> {
        Control::with_default(limits, Some(DEFAULT_TIME), cancel, progress)
    }

    /// The control of a search by a level of fixed effort (its own depth): no time limit
    /// unless `limits` set one.
    pub fn fixed(
        limits: &Limits,
        cancel: &'a CancelFlag,
        progress: &'a mut dyn FnMut(&SearchInfo),
    ) -> Control<'a> {
        Control::with_default(limits, None, cancel, progress)
    }

    fn with_default(
        limits: &Limits,
        default: Option<Duration>,
        cancel: &'a CancelFlag,
        progress: &'a mut dyn FnMut(&SearchInfo),
    ) -> Control<'a> {
        let now = Instant::now();
        let max_nodes = limits.nodes.unwrap_or(u64::MAX);
        Control {
            clock: Clock::for_limits(now, limits, default),
            max_nodes,
            cancel,
            progress,
            nodes: 0,
            next_check: CHECK_EVERY.min(max_nodes),
            check_every: CHECK_EVERY,
            last_report: now,
            stopped: false,
            info: SearchInfo::default(),
        }
    }

    /// The same control for a move that began at `start`: the time spent before the search
    /// proper (such as setting up the board) counts against the limit.
    pub fn started_at(mut self, start: Instant) -> Control<'a> {
        self.clock.start = start;
        self
    }

    /// Looks at the clock and the cancel flag every `nodes` nodes instead of
    /// [`CHECK_EVERY`] (fewer for a slow search that must stop close to its time).
    pub fn check_every(mut self, nodes: u64) -> Control<'a> {
        self.check_every = nodes.max(1);
        self.next_check = (self.nodes + self.check_every).min(self.max_nodes);
        self
    }

    /// Counts one node; says whether to stop, go on, or report and go on. The progress
    /// report is left to the caller (for a search that builds its own report).
    #[inline]
    pub fn poll(&mut self) -> Poll {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.look()
        } else if self.stopped {
            Poll::Stop
        } else {
            Poll::Go
        }
    }

    /// Counts one node and sends [`Control::info`] when a report is due; true when the
    /// search must stop now.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
        }
        self.stopped
    }

    /// Looks at the limits now; whether to stop, go on or report. (Out of line: the
    /// per-node paths stay small.)
    #[inline(never)]
    fn look(&mut self) -> Poll {
        self.next_check = (self.nodes + self.check_every).min(self.max_nodes);
        if self.cancel.is_cancelled() || self.nodes >= self.max_nodes || self.clock.out_of_time() {
            self.stopped = true;
        }
        if self.stopped {
            Poll::Stop
        } else if self.last_report.elapsed() >= REPORT_EVERY {
            Poll::Report
        } else {
            Poll::Go
        }
    }

    /// Looks at the limits now (also usable between iterations), sending [`Control::info`]
    /// if a report is due; true when the search must stop.
    #[inline(never)]
    pub fn check(&mut self) -> bool {
        if self.look() == Poll::Report {
            self.report();
        }
        self.stopped
    }

    /// True once a limit was reached or the search was cancelled.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether the search has a node budget.
    pub fn has_node_limit(&self) -> bool {
        self.max_nodes != u64::MAX
    }

    /// Nodes visited so far.
    #[inline]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Nodes left of the node budget (`u64::MAX` less the nodes when there is none), for
    /// a solver with a budget of its own.
    pub fn nodes_left(&self) -> u64 {
        self.max_nodes.saturating_sub(self.nodes)
    }

    /// Adds `n` nodes counted elsewhere (a threat solver, the endgame solver); the limits
    /// are looked at with the next node.
    pub fn add_nodes(&mut self, n: u64) {
        self.nodes += n;
    }

    /// Time since the move started.
    pub fn elapsed(&self) -> Duration {
        self.clock.elapsed()
    }

    /// The clock of this search.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// The time budget, if any.
    pub fn budget(&self) -> Option<Duration> {
        self.clock.budget()
    }

    /// The instant the search must stop, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.clock.deadline()
    }

    /// Whether a new iteration is worth starting (see [`Clock::can_start_iteration`]).
    pub fn can_start_iteration(&self, predicted: Option<Duration>) -> bool {
        self.clock.can_start_iteration(predicted)
    }

    /// The cancel flag of this search.
    pub fn cancel_flag(&self) -> &CancelFlag {
        self.cancel
    }

    /// Fills in the counters of [`Control::info`] and returns a copy.
    pub fn snapshot(&mut self) -> SearchInfo {
        let mut info = std::mem::take(&mut self.info);
        self.stamp(&mut info);
        self.info = info;
        self.info.clone()
    }

    /// Fills in the node count, the time and the speed of `info`.
    pub fn stamp(&self, info: &mut SearchInfo) {
        let elapsed = self.clock.elapsed();
        info.nodes = self.nodes;
        info.elapsed_ms = elapsed.as_millis() as u64;
        info.nps = nps(self.nodes, elapsed);
    }

    /// Sends [`Control::info`] (with fresh counters) now.
    pub fn report(&mut self) {
        let info = self.snapshot();
        self.send(&info);
    }

    /// Sends `info` now, as it is.
    pub fn send(&mut self, info: &SearchInfo) {
        (self.progress)(info);
        self.last_report = Instant::now();
    }

    /// Waits while another thread works until `done()` says it finished, raising `stop`
    /// when the search must stop (cancelled, or out of time) and sending [`Control::info`]
    /// at the report cadence meanwhile.
    pub fn watch(&mut self, done: impl Fn() -> bool, stop: &CancelFlag) {
        while !done() {
            std::thread::sleep(WATCH_EVERY);
            if self.cancel.is_cancelled() || self.clock.out_of_time() {
                stop.cancel();
            }
            if self.last_report.elapsed() >= REPORT_EVERY {
                self.report();
            }
        }
    }
}

/// Nodes per second.
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let us = elapsed.as_micros().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000 / us).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn quiet() -> impl FnMut(&SearchInfo) {
        |_: &SearchInfo| {}
    }

    #[test]
    fn default_threads_leave_one_core_and_use_at_least_one() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let t = default_threads();
        assert!((1..=MAX_THREADS).contains(&t));
        assert_eq!(t, (cores - 1).clamp(1, MAX_THREADS));
    }

    #[test]
    fn predictions_follow_the_growth() {
        let close = |a: Duration, b: u64| a.as_micros().abs_diff(b as u128 * 1000) <= 1;
        assert!(close(predict_next(ms(200), ms(100)), 400));
        assert!(close(predict_next(ms(100), ms(40)), 250));
        assert!(close(predict_next(ms(100), ms(10)), 400));
        assert!(close(predict_next(ms(100), ms(90)), 150));
        assert!(close(predict_next(ms(10), Duration::ZERO), 30));
    }

    #[test]
    fn the_budget_keeps_a_margin_and_a_share_of_the_time_left() {
        // 5% of the time, between 2 and 50 ms.
        assert_eq!(time_budget(&Limits::time(1000), None), Some(ms(950)));
        assert_eq!(time_budget(&Limits::time(10_000), None), Some(ms(9950)));
        assert_eq!(time_budget(&Limits::time(20), None), Some(ms(18)));
        assert_eq!(time_budget(&Limits::time(1), None), Some(Duration::ZERO));
        // At most a twelfth of the game's time left, with or without a time per move.
        let left = Limits { time_left: Some(ms(12_000)), ..Limits::time(5000) };
        assert_eq!(time_budget(&left, None), Some(ms(1000)));
        let left = Limits { time_left: Some(ms(1200)), ..Limits::default() };
        assert_eq!(time_budget(&left, Some(DEFAULT_TIME)), Some(ms(100)));
        // With the moves the clock must still pay for, that many shares (none is taken as
        // one: the whole clock).
        let to_go = |n| Limits { moves_to_go: Some(n), ..left.clone() };
        assert_eq!(time_budget(&to_go(3), None), Some(ms(400)));
        assert_eq!(time_budget(&to_go(0), None), Some(ms(1200)));
        // The default applies only when nothing at all is set.
        assert_eq!(time_budget(&Limits::default(), Some(DEFAULT_TIME)), Some(DEFAULT_TIME));
        assert_eq!(time_budget(&Limits::default(), None), None);
        assert_eq!(time_budget(&Limits::depth(5), Some(DEFAULT_TIME)), None);
        assert_eq!(time_budget(&Limits::nodes(5), Some(DEFAULT_TIME)), None);
    }

    #[test]
    fn the_players_time_reaches_every_level() {
        let cancel = CancelFlag::new();
        for level in Level::all() {
            let short = limits_for(level, ms(300));
            let long = limits_for(level, ms(1500));
            assert_eq!((short.time, long.time), (Some(ms(300)), Some(ms(1500))), "{level}");
            let (mut a, mut b) = (quiet(), quiet());
            let budget = |l: &Limits, sink: &mut dyn FnMut(&SearchInfo)| {
                if level.follows_clock() {
                    Control::new(l, &cancel, sink).budget()
                } else {
                    Control::fixed(l, &cancel, sink).budget()
                }
            };
            assert_eq!(budget(&short, &mut a), Some(ms(285)), "{level}");
            assert_eq!(budget(&long, &mut b), Some(ms(1450)), "{level}");
        }
    }

    #[test]
    fn timed_and_fixed_controls_differ_only_without_limits() {
        let cancel = CancelFlag::new();
        let (mut a, mut b) = (quiet(), quiet());
        assert_eq!(Control::new(&Limits::default(), &cancel, &mut a).budget(), Some(DEFAULT_TIME));
        assert_eq!(Control::fixed(&Limits::default(), &cancel, &mut b).budget(), None);
        let (mut a, mut b) = (quiet(), quiet());
        let timed = Control::new(&Limits::time(300), &cancel, &mut a).budget();
        assert_eq!(timed, Some(ms(285)));
        assert_eq!(Control::fixed(&Limits::time(300), &cancel, &mut b).budget(), timed);
    }

    #[test]
    fn a_changed_or_dropping_best_move_gets_more_time_and_a_kept_one_less() {
        let mut s = Stability::default();
        // Shallow iterations say nothing; then a move kept over three iterations is stable,
        // and a score that drops by more than 30, or a new best move, is not.
        assert_eq!(s.update(3, 7, 100), 1.0);
        assert_eq!(s.update(4, 7, 100), 1.0);
        assert_eq!(s.update(5, 7, 100), 1.0);
        assert_eq!(s.update(6, 7, 70), STABLE_SCALE);
        assert_eq!(s.update(7, 7, 39), UNSTABLE_SCALE);
        assert_eq!(s.update(8, 9, 39), UNSTABLE_SCALE);
        assert_eq!(s.update(9, 9, 60), 1.0);
        // Half of a clocked move's time gone: the usual 40% forbids a new iteration, 70%
        // allows it, 20% forbids it again; the share is never above 90%.
        let c = Clock::new(Instant::now() - ms(500), Some(ms(1000)));
        assert!(!c.can_start_iteration(None));
        assert!(c.can_start_iteration_scaled(None, UNSTABLE_SCALE));
        assert!(!c.can_start_iteration_scaled(None, STABLE_SCALE));
        let late = Clock::new(Instant::now() - ms(920), Some(ms(1000)));
        assert!(!late.can_start_iteration_scaled(None, 10.0));
        // A stable move saves time only where the time saved is kept for later moves.
        let mut own = own_clock(Instant::now() - ms(500), ms(1000));
        own.set_free_start(FREE_START);
        assert!(own.can_start_iteration_scaled(None, STABLE_SCALE));
    }

    /// The clock of a move whose time `hard` is its own.
    fn own_clock(start: Instant, hard: Duration) -> Clock {
        Clock { own: true, ..Clock::new(start, Some(hard)) }
    }

    #[test]
    fn a_time_per_move_without_a_game_clock_or_with_an_ample_one_is_the_moves_own() {
        assert!(own_time(&Limits::time(300)));
        let clocked = |left| Limits { time_left: Some(ms(left)), ..Limits::time(300) };
        assert!(!own_time(&clocked(10_000)));
        // A clock that pays for the rest of any game at the full time per move: the time per
        // move binds, and what a move saves is lost all the same.
        assert!(own_time(&clocked(180_000)));
        assert!(own_time(&clocked(300 * 132)));
        assert!(!own_time(&clocked(300 * 132 - 1)));
        assert!(!own_time(&Limits { time_left: Some(ms(10_000)), ..Limits::default() }));
        assert!(!own_time(&Limits::default()));
        assert!(!own_time(&Limits::depth(8)));
        assert!(!own_time(&Limits::nodes(1000)));
        // Its clock then starts iterations until the time is gone, whatever share the
        // engine sets for a shared budget.
        let start = Instant::now() - ms(900);
        let c = Clock::new(start, Some(ms(1000)));
        assert!(!c.can_start_iteration(Some(ms(400))));
        let mut own = own_clock(start, ms(1000));
        own.set_free_start(0.45);
        assert!(own.can_start_iteration(Some(ms(400))));
        assert!(!own_clock(Instant::now() - ms(1000), ms(1000)).can_start_iteration(None));
        // A control learns it from its limits.
        let cancel = CancelFlag::new();
        let (mut a, mut b) = (quiet(), quiet());
        assert!(Control::new(&Limits::time(300), &cancel, &mut a).clock().own);
        let clocked = clocked(10_000);
        assert!(!Control::new(&clocked, &cancel, &mut b).clock().own);
    }

    #[test]
    fn iterations_start_freely_early_and_later_only_when_they_fit() {
        let c = Clock::new(Instant::now() - ms(600), Some(ms(1000)));
        assert!(c.can_start_iteration(Some(ms(200))));
        assert!(!c.can_start_iteration(Some(ms(400))));
        assert!(!c.can_start_iteration(None));
        let early = Clock::new(Instant::now() - ms(300), Some(ms(1000)));
        assert!(early.can_start_iteration(None));
        assert!(early.can_start_iteration(Some(Duration::MAX)));
        let mut late = c.clone();
        late.set_free_start(0.75);
        assert!(late.can_start_iteration(Some(ms(400))));
        assert!(Clock::new(Instant::now() - ms(600), None).can_start_iteration(None));
        // Sub-search deadlines are shares of the budget.
        let now = Instant::now();
        let c = Clock::new(now, Some(ms(1000)));
        assert_eq!(c.deadline_at(0.25), Some(now + ms(250)));
        assert_eq!(c.deadline(), Some(now + ms(1000)));
        assert_eq!(Clock::new(now, None).deadline_at(0.5), None);
        // No panic on times beyond any clock: no deadline then.
        assert_eq!(Clock::new(now, Some(Duration::MAX)).deadline(), None);
        assert!(Clock::new(now, Some(Duration::MAX)).can_start_iteration(Some(Duration::MAX)));
        assert_eq!(time_budget(&Limits::time(u64::MAX), None).map(|d| d > ms(1)), Some(true));
    }

    #[test]
    fn the_time_before_the_search_counts() {
        let cancel = CancelFlag::new();
        let mut sink = quiet();
        let late = Instant::now() - ms(150);
        let mut c = Control::new(&Limits::time(100), &cancel, &mut sink).started_at(late);
        assert!(c.elapsed() >= ms(150));
        assert!(c.check());
        let mut sink = quiet();
        let mut c = Control::new(&Limits::time(100), &cancel, &mut sink);
        assert!(!c.check());
    }

    #[test]
    fn the_node_budget_stops_at_the_exact_node() {
        let cancel = CancelFlag::new();
        for budget in [1, 5, 1023, 1024, 5000] {
            let mut sink = quiet();
            let mut c = Control::new(&Limits::nodes(budget), &cancel, &mut sink);
            let mut n = 0;
            while !c.tick() {
                n += 1;
                assert!(n < 10_000);
            }
            assert_eq!(c.nodes(), budget);
            assert!(c.stopped() && c.tick(), "stays stopped");
        }
        // Nodes counted elsewhere count too, from the next node on.
        let mut sink = quiet();
        let mut c = Control::new(&Limits::nodes(5000), &cancel, &mut sink).check_every(16);
        c.add_nodes(6000);
        assert!(c.tick());
    }

    #[test]
    fn a_cancel_stops_within_one_check() {
        let cancel = CancelFlag::new();
        let mut sink = quiet();
        let mut c = Control::new(&Limits::default(), &cancel, &mut sink).check_every(64);
        for _ in 0..1000 {
            assert!(!c.tick());
        }
        cancel.cancel();
        let mut n = 0;
        while !c.tick() {
            n += 1;
        }
        assert!(n < 64);
        assert_eq!(c.poll(), Poll::Stop);
    }

    #[test]
    fn reports_come_at_the_cadence() {
        let cancel = CancelFlag::new();
        let mut reports = Vec::new();
        let mut sink = |i: &SearchInfo| reports.push(i.nodes);
        let mut c = Control::new(&Limits::default(), &cancel, &mut sink).check_every(10);
        // Not due yet: nothing is sent.
        for _ in 0..100 {
            assert!(!c.tick());
        }
        // Due: the next check reports, with the node count, then waits for the next period.
        c.last_report = Instant::now() - REPORT_EVERY;
        let mut polls = Vec::new();
        for _ in 0..20 {
            polls.push(c.poll());
        }
        assert_eq!(polls.iter().filter(|&&p| p == Poll::Report).count(), 2, "not yet sent");
        c.last_report = Instant::now() - REPORT_EVERY;
        for _ in 0..30 {
            c.tick();
        }
        let nodes = c.nodes();
        drop(c);
        assert_eq!(reports, vec![130]);
        assert_eq!(nodes, 150);
    }

    #[test]
    fn watch_stops_a_helper_at_the_deadline_and_reports_meanwhile() {
        let cancel = CancelFlag::new();
        let mut reports = 0;
        let mut sink = |_: &SearchInfo| reports += 1;
        let mut c = Control::new(&Limits::time(300), &cancel, &mut sink);
        let stop = CancelFlag::new();
        std::thread::scope(|s| {
            let stop2 = stop.clone();
            let helper = s.spawn(move || {
                while !stop2.is_cancelled() {
                    std::thread::sleep(ms(1));
                }
            });
            c.watch(|| helper.is_finished(), &stop);
        });
        assert!(stop.is_cancelled());
        assert!(c.elapsed() >= ms(285));
        drop(c);
        assert!(reports >= 1, "a 300 ms wait sends progress");
    }
}

//! The AI worker: runs one search at a time on a blocking thread (never the main thread),
//! forwards its progress at most ten times a second, and hands back the result tagged with
//! the generation it was started for, so that a stale result can be dropped.
//!
//! Searches run on threads of their own at a lower OS priority ([`spawn_background`]): on a
//! machine with few cores a search must never keep the window's thread, the IPC and the web
//! process waiting (see "The app" in docs/BENCHMARKS.md).

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use tengen_engine::ai::{CancelFlag, SearchInfo};

use crate::session::{Job, Outcome};

/// The shortest time between two progress events (ten a second at most).
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Lets a progress report through at most once per `interval`.
#[derive(Debug)]
pub struct Throttle {
    interval: Duration,
    last: Option<Instant>,
}

impl Throttle {
    pub fn new(interval: Duration) -> Throttle {
        Throttle { interval, last: None }
    }

    /// Whether a report at `now` may go out; if so it counts as the last one sent.
    pub fn ready(&mut self, now: Instant) -> bool {
        match self.last {
            Some(t) if now.saturating_duration_since(t) < self.interval => false,
            _ => {
                self.last = Some(now);
                true
            }
        }
    }
}

/// Sleeps up to `delay`, waking early when `cancel` is raised.
fn pause(delay: Duration, cancel: &CancelFlag) {
    let until = Instant::now() + delay;
    while !cancel.is_cancelled() {
        let now = Instant::now();
        if now >= until {
            break;
        }
        thread::sleep((until - now).min(Duration::from_millis(10)));
    }
}

/// The niceness of the app's search threads (Linux: 0 is normal, 19 the lowest): the window,
/// the IPC and the web process come first, the search takes what they leave.
pub const BACKGROUND_NICE: i32 = 10;

/// Lowers the calling thread's OS priority to [`BACKGROUND_NICE`] (Linux; elsewhere nothing).
/// Threads it starts afterwards (a search's helper threads) inherit it. It cannot be raised
/// again without privileges, so it is called only on threads of [`spawn_background`].
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on the calling thread, no memory passed.
        let failed = unsafe {
            libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, BACKGROUND_NICE)
        } != 0;
        if failed {
            eprintln!(
                "tengen: the search thread keeps its priority: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

/// Runs CPU-heavy `work` (a search, analysis, a review) on a new thread named `name` at a
/// lower OS priority ([`lower_priority`]); if no thread can be started, on Tauri's blocking
/// pool at normal priority rather than not at all.
pub fn spawn_background(name: &str, work: impl FnOnce() + Send + 'static) {
    fn take<T>(slot: &Mutex<Option<T>>) -> Option<T> {
        slot.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
    let slot = Arc::new(Mutex::new(Some(work)));
    let mine = Arc::clone(&slot);
    let started = thread::Builder::new().name(name.into()).spawn(move || {
        lower_priority();
        if let Some(work) = take(&mine) {
            work();
        }
    });
    if let Err(e) = started {
        eprintln!("tengen: no thread for {name} ({e}); it runs on the blocking pool");
        if let Some(work) = take(&slot) {
            tauri::async_runtime::spawn_blocking(work);
        }
    }
}

/// Runs `search` for `job` on a background thread ([`spawn_background`]) (a move's search,
/// or the computer's opening steps).
///
/// `progress` sees at most one report per [`PROGRESS_INTERVAL`]; `done` gets the outcome
/// (also when the engine panics). Neither runs on the main thread.
pub fn spawn<S, P, D>(job: Job, search: S, mut progress: P, done: D)
where
    S: FnOnce(&CancelFlag, &mut dyn FnMut(&SearchInfo)) -> Outcome + Send + 'static,
    P: FnMut(&Job, &SearchInfo) + Send + 'static,
    D: FnOnce(&Job, Outcome) + Send + 'static,
{
    spawn_background("tengen-search", move || {
        pause(job.delay, &job.cancel);
        let mut throttle = Throttle::new(PROGRESS_INTERVAL);
        let cancel = job.cancel.clone();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut report = |info: &SearchInfo| {
                if throttle.ready(Instant::now()) {
                    progress(&job, info);
                }
            };
            search(&cancel, &mut report)
        }));
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(payload) => Outcome::Failed(
                payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "the engine stopped unexpectedly".to_string()),
            ),
        };
        done(&job, outcome);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Purpose;
    use std::sync::mpsc;
    use tengen_engine::ai::SearchResult;
    use tengen_engine::{Color, Move, Point};

    fn job(delay_ms: u64) -> Job {
        Job {
            generation: 7,
            color: Color::White,
            purpose: Purpose::Move,
            cancel: CancelFlag::new(),
            delay: Duration::from_millis(delay_ms),
        }
    }

    fn result(x: u8) -> SearchResult {
        SearchResult { best: Move::Place(Point::new(x, 0)), info: SearchInfo::default() }
    }

    #[test]
    fn throttle_lets_through_at_most_one_per_interval() {
        let mut t = Throttle::new(Duration::from_millis(100));
        let t0 = Instant::now();
        assert!(t.ready(t0));
        assert!(!t.ready(t0 + Duration::from_millis(50)));
        assert!(!t.ready(t0 + Duration::from_millis(99)));
        assert!(t.ready(t0 + Duration::from_millis(100)));
        assert!(!t.ready(t0 + Duration::from_millis(150)));
        assert!(t.ready(t0 + Duration::from_millis(250)));
    }

    #[test]
    fn runs_off_the_calling_thread_and_throttles_progress() {
        let (tx, rx) = mpsc::channel();
        let caller = thread::current().id();
        let (ptx, prx) = mpsc::channel();
        spawn(
            job(0),
            move |cancel, report| {
                assert_ne!(thread::current().id(), caller);
                // A busy search reporting every millisecond for 350 ms.
                let start = Instant::now();
                while start.elapsed() < Duration::from_millis(350) && !cancel.is_cancelled() {
                    report(&SearchInfo::default());
                    thread::sleep(Duration::from_millis(1));
                }
                Outcome::Found(result(3))
            },
            move |_, _| ptx.send(()).unwrap(),
            move |j, outcome| tx.send((j.generation, outcome)).unwrap(),
        );
        let (generation, outcome) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(generation, 7);
        assert!(matches!(outcome, Outcome::Found(r) if r == result(3)));
        let reports = prx.try_iter().count();
        assert!((1..=5).contains(&reports), "{reports} progress reports in 350 ms");
    }

    /// The calling thread's niceness (Linux).
    #[cfg(target_os = "linux")]
    fn nice() -> i32 {
        // SAFETY: a plain system call on the calling thread.
        unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_search_and_its_helper_threads_run_at_a_lower_priority_than_the_caller() {
        let caller = nice();
        let (tx, rx) = mpsc::channel();
        spawn(
            job(0),
            move |_, _| {
                let name = thread::current().name().map(str::to_string);
                // A search's helper threads are started by the search thread.
                let helper = thread::scope(|s| s.spawn(nice).join().unwrap());
                tx.send((name, nice(), helper)).unwrap();
                Outcome::Found(result(1))
            },
            |_, _| {},
            |_, _| {},
        );
        let (name, search, helper) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(name.as_deref(), Some("tengen-search"));
        assert_eq!(search, BACKGROUND_NICE.max(caller), "the search thread's niceness");
        assert_eq!(helper, search, "a helper thread's niceness");
        assert_eq!(nice(), caller, "the calling thread keeps its priority");
    }

    #[test]
    fn cancel_cuts_the_delay_short_and_a_panic_is_reported() {
        let (tx, rx) = mpsc::channel();
        let j = job(60_000);
        j.cancel.cancel();
        let start = Instant::now();
        spawn(
            j,
            |_, _| panic!("level not implemented"),
            |_, _| {},
            move |_, outcome| tx.send(outcome).unwrap(),
        );
        // Far below the job's 60 s delay, and above the seconds a loaded machine can take to
        // print the panic's backtrace (RUST_BACKTRACE set) before the outcome is reported.
        let outcome = rx.recv_timeout(Duration::from_secs(40)).unwrap();
        assert!(start.elapsed() < Duration::from_secs(30));
        assert!(matches!(outcome, Outcome::Failed(m) if m.contains("not implemented")));
    }
}

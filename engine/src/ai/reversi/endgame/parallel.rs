//! The solver on several threads: the root's moves are split (Young Brothers Wait at the
//! root). The first move, the likely best, is searched alone with the full window; then
//! every thread takes the next unsearched move, proves it with a null window against the
//! best score so far and searches it again with the full window when it is better. All
//! threads share one table ([`super::tt::TableRef::Shared`]), so each finds what the
//! others proved.

use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use super::bits::{bit, moves, parity_of, QUADRANT};
use super::search::{Search, PASS};
use super::tt::{Table, NO_MOVE};
use crate::ai::CancelFlag;

/// Fewer empties than this are solved on one thread (the threads' start costs more).
pub const SPLIT_MIN: u32 = 14;

/// How often the waiting thread looks at the caller's cancel flag.
const WATCH_EVERY: Duration = Duration::from_millis(1);

/// What a split search found.
pub struct Split {
    /// Fail-soft score of the root, as [`Search::pvs`] gives it.
    pub score: i32,
    pub nodes: u64,
    pub eval_nodes: u64,
    /// The caller's cancel flag was raised: the score means nothing.
    pub stopped: bool,
}

/// The best move so far: its score and principal variation.
struct Best {
    score: i32,
    pv: Vec<u8>,
}

/// Searches `p`/`o` (which has `SPLIT_MIN` empties or more and a legal move) at
/// selectivity `level` within (`alpha`, `beta`) on `threads` threads; `pv` receives the
/// principal variation.
#[allow(clippy::too_many_arguments)]
pub fn pvs(
    tt: &mut Table,
    cancel: &CancelFlag,
    level: u8,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    pv: &mut Vec<u8>,
    threads: usize,
) -> Split {
    let alpha0 = alpha;
    let empties = !(p | o);
    let n = empties.count_ones();
    let parity = parity_of(empties);
    // The first move alone, with the full window.
    let mut first = Search::new(tt, cancel);
    first.level = level;
    first.nodes = 1;
    let list = first.ordered_moves(p, o, alpha);
    let (sq, f) = list[0];
    let mut child = Vec::new();
    let v = -first.pvs(o & !f, p | f | bit(sq as usize), -beta, -alpha, &mut child);
    let (mut nodes, mut eval_nodes) = (first.nodes, first.eval_nodes);
    if first.stopped {
        return Split { score: alpha, nodes, eval_nodes, stopped: true };
    }
    let mut line = vec![sq];
    line.extend_from_slice(&child);
    let best = Mutex::new(Best { score: v, pv: line });
    let bound = AtomicI32::new(alpha.max(v));
    let next = AtomicUsize::new(1);
    let stop = CancelFlag::new();
    let tt: &Table = tt;
    let worker = || {
        let mut s = Search::shared(tt, &stop);
        s.level = level;
        let mut child = Vec::new();
        loop {
            let a = bound.load(Ordering::Acquire);
            let i = next.fetch_add(1, Ordering::AcqRel);
            if a >= beta || i >= list.len() {
                break;
            }
            let (sq, f) = list[i];
            let (np, no) = (o & !f, p | f | bit(sq as usize));
            let mut v = -s.nws(np, no, -a - 1, n - 1, parity ^ QUADRANT[sq as usize]);
            child.clear();
            let a = bound.load(Ordering::Acquire).max(a);
            if v > a && v < beta && !s.stopped {
                v = -s.pvs(np, no, -beta, -a, &mut child);
            }
            if s.stopped {
                break;
            }
            let mut b = best.lock().unwrap_or_else(|e| e.into_inner());
            if v > b.score {
                b.score = v;
                b.pv.clear();
                b.pv.push(sq);
                b.pv.extend_from_slice(&child);
            }
            drop(b);
            bound.fetch_max(v, Ordering::AcqRel);
            if v >= beta {
                stop.cancel();
            }
        }
        (s.nodes, s.eval_nodes)
    };
    if bound.load(Ordering::Acquire) < beta && list.len() > 1 {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads.max(1)).map(|_| scope.spawn(worker)).collect();
            while !handles.iter().all(|h| h.is_finished()) {
                if cancel.is_cancelled() {
                    stop.cancel();
                }
                std::thread::sleep(WATCH_EVERY);
            }
            for h in handles {
                // A worker that panicked lost its own nodes only; its move stays unproven,
                // which the cancel check below cannot see: treat it as stopped.
                match h.join() {
                    Ok((a, b)) => {
                        nodes += a;
                        eval_nodes += b;
                    }
                    Err(_) => stop.cancel(),
                }
            }
        });
    }
    let best = best.into_inner().unwrap_or_else(|e| e.into_inner());
    let stopped = cancel.is_cancelled() || (stop.is_cancelled() && best.score < beta);
    let best_move = best.pv.first().copied().filter(|&m| m != PASS).unwrap_or(NO_MOVE);
    if !stopped {
        tt.store_shared(p, o, n, level, (alpha0, beta), best.score, best_move);
    }
    *pv = best.pv;
    Split { score: best.score, nodes, eval_nodes, stopped }
}

/// Whether a position is worth splitting: enough empties and a move to play.
pub fn worth_splitting(p: u64, o: u64) -> bool {
    (!(p | o)).count_ones() >= SPLIT_MIN && moves(p, o) != 0
}

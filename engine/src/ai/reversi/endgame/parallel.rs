//! The solver on several threads: Young Brothers Wait (YBWC) over one shared table
//! ([`super::tt::TableRef::Shared`]).
//!
//! Every node with enough empty squares ([`SPLIT_MIN`] on the principal variation,
//! [`NWS_SPLIT_MIN`] in the null-window search below it) searches its first move (the
//! eldest brother) on its own thread; once that one is done without a cutoff, the younger
//! brothers may be split: when a thread is idle, a helper thread starts at the node and it
//! and the node's own thread take the remaining moves one by one. On the principal
//! variation the eldest brother is itself searched this way, so the splits start along the
//! whole leftmost path at once. A helper that finds a cutoff stops the others at its split
//! point. Below the split depths, a thread runs the one-thread search ([`Search`]).
//!
//! The threads: `threads - 1` helper slots. A split takes free slots and starts a helper
//! thread for each; a helper gives its slot back when the split's moves are done; the
//! node's own thread gives its slot back while it waits for its helpers (so another
//! split can use it) and takes it again after. Each split point is a [`Node`] in a tree
//! of stop flags: a cutoff stops the split point and everything below it; the caller's
//! cancel flag (watched by the calling thread) or a thread's panic stops the root.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicIsize, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use super::bits::{bit, final_score, moves, parity_of, QUADRANT};
use super::search::{Search, ETC_MIN, INF, PASS};
use super::tt::{Table, NO_MOVE};
use crate::ai::CancelFlag;

/// Fewer empties than this are solved on one thread (the threads' start costs more); on
/// the principal variation, nodes with fewer empties are searched by one thread.
pub const SPLIT_MIN: u32 = 14;

/// Null-window nodes with this many empties or more may split their younger brothers.
pub const NWS_SPLIT_MIN: u32 = 14;

/// How often the calling thread looks at the caller's cancel flag.
const WATCH_EVERY: Duration = Duration::from_millis(1);

/// What a split search found.
pub struct Split {
    /// Fail-soft score of the root, as [`Search::pvs`] gives it.
    pub score: i32,
    pub nodes: u64,
    pub eval_nodes: u64,
    /// The caller's cancel flag was raised (or a thread panicked): the score means nothing.
    pub stopped: bool,
    /// Split points (helper threads started at a node).
    pub splits: u64,
}

/// A stop flag of the split tree: the root's, or a split point's. Stopping a node stops
/// every split point below it.
struct Node {
    flag: CancelFlag,
    children: Mutex<Vec<Arc<Node>>>,
}

impl Node {
    fn new() -> Arc<Node> {
        Arc::new(Node { flag: CancelFlag::new(), children: Mutex::new(Vec::new()) })
    }

    fn children(&self) -> MutexGuard<'_, Vec<Arc<Node>>> {
        self.children.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Raises this node's flag and those of all nodes below it.
    fn stop(&self) {
        self.flag.cancel();
        let children = self.children().clone();
        for c in children {
            c.stop();
        }
    }

    /// A new split point below this node (stopped already if this one is).
    fn child(self: &Arc<Node>) -> Arc<Node> {
        let c = Node::new();
        let mut children = self.children();
        children.push(c.clone());
        // The flag is raised before `stop` takes the lock: either `stop` sees the child,
        // or this sees the flag.
        if self.flag.is_cancelled() {
            c.flag.cancel();
        }
        c
    }

    /// Forgets a finished split point.
    fn forget(&self, child: &Arc<Node>) {
        self.children().retain(|c| !Arc::ptr_eq(c, child));
    }
}

/// What the threads of one pass share.
struct Shared<'a> {
    tt: &'a Table,
    level: u8,
    /// Helper threads that may start now (below zero for a moment when a thread that
    /// waited for its helpers takes its slot back while the slot is used).
    idle: AtomicIsize,
    /// Nodes of the finished split participants.
    nodes: AtomicU64,
    eval_nodes: AtomicU64,
    splits: AtomicU64,
    /// A thread panicked: the pass is stopped and its result means nothing.
    failed: AtomicBool,
    root: Arc<Node>,
    /// Tests: helper threads panic.
    #[cfg(test)]
    panic_helpers: bool,
}

/// Gives a helper's slot back when it ends, and stops the pass if it ends by a panic.
struct HelperGuard<'s, 'a>(&'s Shared<'a>);

impl Drop for HelperGuard<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.fail();
        }
        self.0.idle.fetch_add(1, Ordering::AcqRel);
    }
}

/// Stops the pass if the thread of a split point panics in its own share of the moves
/// (so that its helpers stop and the panic can leave the split).
struct OwnGuard<'s, 'a>(&'s Shared<'a>);

impl Drop for OwnGuard<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.fail();
        }
    }
}

/// The best move of a principal-variation split so far.
struct Best {
    score: i32,
    pv: Vec<u8>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<'a> Shared<'a> {
    /// Stops the whole pass after a panic.
    fn fail(&self) {
        self.failed.store(true, Ordering::Release);
        self.root.stop();
    }

    /// Takes up to `wanted` helper slots; how many it took.
    fn take_helpers(&self, wanted: usize) -> usize {
        let mut idle = self.idle.load(Ordering::Acquire);
        loop {
            if idle <= 0 || wanted == 0 {
                return 0;
            }
            let k = (idle as usize).min(wanted);
            match self.idle.compare_exchange_weak(
                idle,
                idle - k as isize,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return k,
                Err(now) => idle = now,
            }
        }
    }

    /// A search of this pass for a participant of the split point `node`.
    fn search<'n>(&self, node: &'n Node) -> Search<'n>
    where
        'a: 'n,
    {
        let mut s = Search::shared(self.tt, &node.flag);
        s.level = self.level;
        s
    }

    /// Adds a finished search's counts to the pass's.
    fn count(&self, s: &Search) {
        self.nodes.fetch_add(s.nodes, Ordering::Relaxed);
        self.eval_nodes.fetch_add(s.eval_nodes, Ordering::Relaxed);
    }

    /// Runs `task` on this thread and on `helpers` new threads (their slots taken), each
    /// with a search of its own on a new split point below `node`; returns when all are
    /// done. The split point, for the caller to see whether it was stopped.
    fn split(
        &self,
        node: &Arc<Node>,
        helpers: usize,
        task: &(dyn Fn(&mut Search, &Arc<Node>) + Sync),
    ) -> Arc<Node> {
        let sp = node.child();
        self.splits.fetch_add(1, Ordering::Relaxed);
        std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(helpers);
            for _ in 0..helpers {
                let sp = &sp;
                let helper = move || {
                    let guard = HelperGuard(self);
                    #[cfg(test)]
                    if self.panic_helpers {
                        panic!("a helper panics (test)");
                    }
                    let mut s = self.search(sp);
                    task(&mut s, sp);
                    self.count(&s);
                    drop(guard);
                };
                match std::thread::Builder::new().spawn_scoped(scope, helper) {
                    Ok(h) => handles.push(h),
                    // No thread: the slot goes back, this thread does the work.
                    Err(_) => {
                        self.idle.fetch_add(1, Ordering::AcqRel);
                    }
                }
            }
            {
                let guard = OwnGuard(self);
                let mut s = self.search(&sp);
                task(&mut s, &sp);
                self.count(&s);
                drop(guard);
            }
            // Waiting: this thread's slot is free meanwhile.
            self.idle.fetch_add(1, Ordering::AcqRel);
            for h in handles {
                if h.join().is_err() {
                    self.fail();
                }
            }
            self.idle.fetch_sub(1, Ordering::AcqRel);
        });
        node.forget(&sp);
        sp
    }

    /// Principal-variation search of `p`/`o` within (`alpha`, `beta`) by the thread of
    /// `s` (whose flag is `node`'s), splitting where it is worth it; as [`Search::pvs`].
    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &self,
        s: &mut Search,
        node: &Arc<Node>,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<u8>,
    ) -> i32 {
        let empties = !(p | o);
        let n = empties.count_ones();
        if n < SPLIT_MIN {
            return s.pvs(p, o, alpha, beta, pv);
        }
        pv.clear();
        let parity = parity_of(empties);
        s.nodes += 1;
        if s.poll_stop() {
            return alpha;
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, n);
            }
            let mut child = Vec::new();
            let v = -self.pvs(s, node, o, p, -beta, -alpha, &mut child);
            pv.push(PASS);
            pv.extend_from_slice(&child);
            return v;
        }
        let hash_move = s.tt.probe(p, o).map_or(NO_MOVE, |h| h.mv);
        let list = s.sorted_moves(p, o, legal, n, parity, hash_move, alpha);
        let alpha0 = alpha;
        // The eldest brother, on this thread, split further down.
        let (sq, f) = list[0];
        let mut child = Vec::new();
        let mut best =
            -self.pvs(s, node, o & !f, p | f | bit(sq as usize), -beta, -alpha, &mut child);
        if s.stopped {
            return alpha;
        }
        pv.push(sq);
        pv.extend_from_slice(&child);
        alpha = alpha.max(best);
        let mut i = 1;
        while best < beta && i < list.len() {
            let helpers = self.take_helpers(list.len() - i - 1);
            if helpers > 0 {
                let (v, line) = self.split_pv(node, helpers, p, o, alpha, beta, &list[i..]);
                if s.poll_stop() {
                    return alpha;
                }
                if v > best {
                    best = v;
                    *pv = line;
                }
                break;
            }
            let (sq, f) = list[i];
            i += 1;
            let (np, no) = (o & !f, p | f | bit(sq as usize));
            let mut v =
                -self.nws(s, node, np, no, -alpha - 1, n - 1, parity ^ QUADRANT[sq as usize]);
            child.clear();
            if v > alpha && v < beta && !s.stopped {
                v = -self.pvs(s, node, np, no, -beta, -alpha, &mut child);
            }
            if s.stopped {
                return alpha;
            }
            if v > best {
                best = v;
                pv.clear();
                pv.push(sq);
                pv.extend_from_slice(&child);
                alpha = alpha.max(v);
            }
        }
        let best_move = pv.first().copied().filter(|&m| m != PASS).unwrap_or(NO_MOVE);
        s.tt.store(p, o, n, self.level, (alpha0, beta), best, best_move);
        best
    }

    /// The younger brothers `list` of a principal-variation node `p`/`o` (window
    /// (`alpha`, `beta`), `alpha` raised to the best score so far) on this thread and
    /// `helpers` others: each proves its move with a null window against the best score so
    /// far, and searches it again with the full window when it is better. The best of
    /// them: fail-soft score and line (meaningless if `node` was stopped).
    #[allow(clippy::too_many_arguments)]
    fn split_pv(
        &self,
        node: &Arc<Node>,
        helpers: usize,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        list: &[(u8, u64)],
    ) -> (i32, Vec<u8>) {
        let n = (!(p | o)).count_ones();
        let parity = parity_of(!(p | o));
        let next = AtomicUsize::new(0);
        let bound = AtomicI32::new(alpha);
        let best = Mutex::new(Best { score: -INF, pv: Vec::new() });
        let task = |s: &mut Search, sp: &Arc<Node>| {
            let mut child = Vec::new();
            loop {
                if s.poll_stop() {
                    break;
                }
                let i = next.fetch_add(1, Ordering::AcqRel);
                if i >= list.len() {
                    break;
                }
                let (sq, f) = list[i];
                let (np, no) = (o & !f, p | f | bit(sq as usize));
                let a = bound.load(Ordering::Acquire);
                if a >= beta {
                    break;
                }
                let mut v = -self.nws(s, sp, np, no, -a - 1, n - 1, parity ^ QUADRANT[sq as usize]);
                if s.stopped {
                    break;
                }
                child.clear();
                if v > a && v < beta {
                    // Above the bound it was proved against: its exact value (or a bound
                    // at most the best one, if another move rose above it meanwhile).
                    let a = bound.load(Ordering::Acquire).max(a);
                    if a >= beta {
                        break;
                    }
                    v = -self.pvs(s, sp, np, no, -beta, -a, &mut child);
                    if s.stopped {
                        break;
                    }
                }
                let mut b = lock(&best);
                if v > b.score {
                    b.score = v;
                    b.pv.clear();
                    b.pv.push(sq);
                    b.pv.extend_from_slice(&child);
                }
                drop(b);
                bound.fetch_max(v, Ordering::AcqRel);
                if v >= beta {
                    sp.stop();
                    break;
                }
            }
        };
        self.split(node, helpers, &task);
        let best = best.into_inner().unwrap_or_else(|e| e.into_inner());
        (best.score, best.pv)
    }

    /// Null-window search of `p`/`o` (`n` empties, `parity`) against `alpha` by the thread
    /// of `s` (whose flag is `node`'s), splitting where it is worth it; as [`Search::nws`]
    /// (a deep node's steps: stability, table, pass, ProbCut, hash move, move list,
    /// enhanced transposition cutoff).
    #[allow(clippy::too_many_arguments)]
    fn nws(
        &self,
        s: &mut Search,
        node: &Arc<Node>,
        p: u64,
        o: u64,
        alpha: i32,
        n: u32,
        parity: u8,
    ) -> i32 {
        if n < NWS_SPLIT_MIN {
            return s.nws(p, o, alpha, n, parity);
        }
        s.nodes += 1;
        if s.poll_stop() {
            return alpha;
        }
        s.tt.prefetch(p, o);
        if let Some(bound) = s.stability_cut(p, o, alpha, n) {
            return bound;
        }
        let hash_move = match s.table_cut(p, o, alpha) {
            Ok(mv) => mv,
            Err(bound) => return bound,
        };
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, n);
            }
            return -self.nws(s, node, o, p, -alpha - 1, n, parity);
        }
        if let Some(v) = s.probcut(p, o, alpha, n) {
            return v;
        }
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut rest = legal;
        if hash_move != NO_MOVE && legal & bit(hash_move as usize) != 0 {
            let sq = hash_move as usize;
            let f = super::bits::flips(p, o, sq);
            best = -self.nws(
                s,
                node,
                o & !f,
                p | f | bit(sq),
                -alpha - 1,
                n - 1,
                parity ^ QUADRANT[sq],
            );
            if s.stopped {
                return alpha;
            }
            best_move = hash_move;
            if best > alpha {
                s.tt.store(p, o, n, self.level, (alpha, alpha + 1), best, best_move);
                return best;
            }
            rest &= !bit(sq);
        }
        if rest != 0 {
            let list = s.sorted_moves(p, o, rest, n, parity, NO_MOVE, alpha);
            if n >= ETC_MIN {
                for &(sq, f) in &list {
                    if let Some(hit) = s.tt.probe(o & !f, p | f | bit(sq as usize)) {
                        let (_, upper) = hit.bounds(self.level);
                        if -upper > alpha {
                            return -upper;
                        }
                    }
                }
            }
            let mut i = 0;
            while i < list.len() {
                // Young brothers wait for the eldest (the hash move or the list's first).
                if best > -INF {
                    let helpers = self.take_helpers(list.len() - i - 1);
                    if helpers > 0 {
                        let (v, mv) = self.split_nws(node, helpers, p, o, alpha, &list[i..]);
                        if s.poll_stop() {
                            return alpha;
                        }
                        if v > best {
                            best = v;
                            best_move = mv;
                        }
                        break;
                    }
                }
                let (sq, f) = list[i];
                i += 1;
                let (np, no) = (o & !f, p | f | bit(sq as usize));
                let v =
                    -self.nws(s, node, np, no, -alpha - 1, n - 1, parity ^ QUADRANT[sq as usize]);
                if s.stopped {
                    return alpha;
                }
                if v > best {
                    best = v;
                    best_move = sq;
                    if v > alpha {
                        break;
                    }
                }
            }
        }
        s.tt.store(p, o, n, self.level, (alpha, alpha + 1), best, best_move);
        best
    }

    /// The moves `list` of a null-window node `p`/`o` (against `alpha`) on this thread and
    /// `helpers` others; the first above `alpha` stops the others. The best of them and its
    /// move (meaningless if `node` was stopped).
    fn split_nws(
        &self,
        node: &Arc<Node>,
        helpers: usize,
        p: u64,
        o: u64,
        alpha: i32,
        list: &[(u8, u64)],
    ) -> (i32, u8) {
        let n = (!(p | o)).count_ones();
        let parity = parity_of(!(p | o));
        let next = AtomicUsize::new(0);
        let best = Mutex::new((-INF, NO_MOVE));
        let task = |s: &mut Search, sp: &Arc<Node>| loop {
            if s.poll_stop() {
                break;
            }
            let i = next.fetch_add(1, Ordering::AcqRel);
            if i >= list.len() {
                break;
            }
            let (sq, f) = list[i];
            let (np, no) = (o & !f, p | f | bit(sq as usize));
            let v = -self.nws(s, sp, np, no, -alpha - 1, n - 1, parity ^ QUADRANT[sq as usize]);
            if s.stopped {
                break;
            }
            let mut b = lock(&best);
            if v > b.0 {
                *b = (v, sq);
            }
            drop(b);
            if v > alpha {
                sp.stop();
                break;
            }
        };
        let sp = self.split(node, helpers, &task);
        let (v, mv) = best.into_inner().unwrap_or_else(|e| e.into_inner());
        // Stopped without a cutoff: only when `node` was stopped, which the caller sees.
        debug_assert!(v > alpha || !sp.flag.is_cancelled() || node.flag.is_cancelled());
        (v, mv)
    }
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
    run(tt, cancel, level, p, o, alpha, beta, pv, threads, false)
}

#[allow(clippy::too_many_arguments)]
fn run(
    tt: &mut Table,
    cancel: &CancelFlag,
    level: u8,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    pv: &mut Vec<u8>,
    threads: usize,
    #[allow(unused_variables)] panic_helpers: bool,
) -> Split {
    tt.allocate();
    let shared = Shared {
        tt,
        level,
        idle: AtomicIsize::new(threads.max(1) as isize - 1),
        nodes: AtomicU64::new(0),
        eval_nodes: AtomicU64::new(0),
        splits: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        root: Node::new(),
        #[cfg(test)]
        panic_helpers,
    };
    let caller = std::thread::current();
    let outcome = std::thread::scope(|scope| {
        let shared = &shared;
        let caller = caller.clone();
        let main = scope.spawn(move || {
            let root = &shared.root;
            let mut s = shared.search(root);
            let mut line = Vec::new();
            // Wakes the caller however this ends.
            struct Wake(std::thread::Thread);
            impl Drop for Wake {
                fn drop(&mut self) {
                    self.0.unpark();
                }
            }
            let _wake = Wake(caller);
            let v = shared.pvs(&mut s, root, p, o, alpha, beta, &mut line);
            shared.count(&s);
            (v, line, s.stopped)
        });
        while !main.is_finished() {
            if cancel.is_cancelled() {
                shared.root.stop();
            }
            std::thread::park_timeout(WATCH_EVERY);
        }
        main.join()
    });
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let eval_nodes = shared.eval_nodes.load(Ordering::Relaxed);
    let splits = shared.splits.load(Ordering::Relaxed);
    match outcome {
        Ok((score, line, stopped)) => {
            let stopped = stopped || cancel.is_cancelled() || shared.failed.load(Ordering::Acquire);
            *pv = line;
            Split { score, nodes, eval_nodes, stopped, splits }
        }
        Err(_) => Split { score: alpha, nodes, eval_nodes, stopped: true, splits },
    }
}

/// Whether a position is worth splitting: enough empties and a move to play.
pub fn worth_splitting(p: u64, o: u64) -> bool {
    (!(p | o)).count_ones() >= SPLIT_MIN && moves(p, o) != 0
}

/// [`pvs`] whose helper threads panic at once (tests).
#[cfg(test)]
#[allow(clippy::too_many_arguments)]
pub fn pvs_with_panicking_helpers(
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
    run(tt, cancel, level, p, o, alpha, beta, pv, threads, true)
}

//! Lazy SMP for the midgame search: helper threads run their own iterative deepening of
//! the same root, one ply ahead of each other, on the main search's table (lockless, see
//! [`super::tt`]); the main thread keeps the clock, reports and answers. The helpers have no
//! clock: the main search raises their stop flag when it ends (they look at it every
//! [`crate::ai::control::CHECK_EVERY`] nodes).

use super::pvs::Searcher;
use crate::ai::control::Control;
use crate::ai::reversi::board::Board;
use crate::ai::reversi::eval::Evaluator;
use crate::ai::{CancelFlag, Limits, SearchInfo};

/// Runs `main` (the main search, which returns its result) with `helpers` searching `board`
/// from the root order `order` to `max_depth` meanwhile; returns the main search's result
/// and the helpers' nodes.
pub fn run<E: Evaluator, T>(
    helpers: Vec<Searcher<E>>,
    board: &Board,
    order: &[u8],
    max_depth: u32,
    main: impl FnOnce() -> T,
) -> (T, u64) {
    if helpers.is_empty() {
        return (main(), 0);
    }
    let stop = CancelFlag::new();
    std::thread::scope(|s| {
        let handles: Vec<_> = helpers
            .into_iter()
            .enumerate()
            .map(|(i, mut h)| {
                let stop = &stop;
                s.spawn(move || {
                    // Helper 1 starts a ply ahead of the main search, helper 2 with it, ...
                    let first = 1 + (i as u32 + 1) % 2;
                    deepen(&mut h, board, order.to_vec(), first, max_depth, stop)
                })
            })
            .collect();
        let found = main();
        stop.cancel();
        // A helper that panicked has lost its own nodes only.
        let nodes = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (found, nodes)
    })
}

/// A helper's iterative deepening from `first` plies until `stop`; its nodes.
fn deepen<E: Evaluator>(
    h: &mut Searcher<E>,
    board: &Board,
    mut order: Vec<u8>,
    first: u32,
    max_depth: u32,
    stop: &CancelFlag,
) -> u64 {
    let mut quiet = |_: &SearchInfo| {};
    let limits = Limits::default();
    let mut ctrl = Control::fixed(&limits, stop, &mut quiet);
    for depth in first..=max_depth.max(first) {
        match h.root(board, &order, depth, &mut ctrl) {
            Some(r) if r.complete => {
                let mut sorted = r.scores;
                sorted.sort_by_key(|&(s, v)| (std::cmp::Reverse(v), s != r.best));
                order = sorted.iter().map(|&(s, _)| s).collect();
            }
            _ => break,
        }
        if depth >= board.empties() {
            break;
        }
    }
    ctrl.nodes()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::ai::reversi::master::Master;
    use crate::ai::{search_then_cancel, CancelFlag, Engine, Limits};
    use crate::reversi::notation::replay_transcript;
    use crate::Move;

    /// With helpers the search answers a legal move, deeper than nothing, and a cancel
    /// reaches every thread soon (a correctness bound, generous for a loaded machine).
    #[test]
    fn helpers_search_and_stop_with_the_main_thread() {
        let (_, pos) = replay_transcript("d3c5b6d2c4c3c2f3f4g3d1b2a2e1e3b5c6b7c1b4").unwrap();
        let mut master = Master::new(1);
        master.set_threads(2);
        let r = master.search(&pos, &Limits::depth(6), &CancelFlag::new(), &mut |_| {});
        assert!(r.info.depth >= 6 && r.info.nodes > 0);
        let legal = |m: Move| matches!(m, Move::Place(p) if pos.is_legal(p));
        assert!(legal(r.best));
        let (r, late) = search_then_cancel(&mut master, &pos, Duration::from_millis(300));
        assert!(late < Duration::from_millis(500), "answered {late:?} after the cancel");
        assert!(legal(r.best));
    }
}

//! Lazy SMP for the midgame search: helper threads run their own iterative deepening of
//! the same root on the main search's table (lockless, see [`super::tt`]); the main thread
//! keeps the clock, reports and answers. The helpers have no clock: the main search raises
//! their stop flag when it ends (they look at it every [`crate::ai::control::CHECK_EVERY`]
//! nodes).
//!
//! The helpers search the same depths as the main thread, but near the root each takes the
//! younger brothers in an order of its own ([`Spread`]): the main thread searches them
//! best first, a helper from the other end. So the threads meet in the middle, and each
//! finds the moves the other has done in the table. (A helper a ply ahead in the same
//! order, as before, kept in step with the main thread, found nothing stored yet and sped
//! it up not at all.)

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
            .map(|mut h| {
                let stop = &stop;
                s.spawn(move || deepen(&mut h, board, order.to_vec(), max_depth, stop))
            })
            .collect();
        let found = main();
        stop.cancel();
        // A helper that panicked has lost its own nodes only.
        let nodes = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (found, nodes)
    })
}

/// The plies below the root where a helper takes the younger brothers in its own order
/// (measured: 1, 2, 3 and 5 plies with 2 threads to depth 13, 2 the fastest).
pub const SPREAD_PLIES: u32 = 2;

/// A thread's order of the younger brothers (every move after the first) near the root:
/// the main thread's own ([`Spread::NONE`]), or for helper `k` of `n`, its own order
/// rotated by `k - 1` n-ths and reversed. One helper searches them from the last; more
/// helpers start at points spread over the list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spread {
    helper: usize,
    helpers: usize,
}

impl Spread {
    /// The main thread: the order as it is.
    pub const NONE: Spread = Spread { helper: 0, helpers: 0 };

    /// Helper `helper` (from 1) of `helpers`.
    pub fn new(helper: usize, helpers: usize) -> Spread {
        Spread { helper: helper.clamp(1, helpers.max(1)), helpers: helpers.max(1) }
    }

    /// Plies below the root where the order is changed (0 for the main thread).
    #[inline]
    pub fn plies(&self) -> u32 {
        if self.helpers == 0 {
            0
        } else {
            SPREAD_PLIES
        }
    }

    /// Puts `younger` into this thread's order.
    pub fn apply<T>(&self, younger: &mut [T]) {
        if self.helpers == 0 {
            return;
        }
        younger.rotate_left((self.helper - 1) * younger.len() / self.helpers);
        younger.reverse();
    }

    /// Puts the moves after the first of `moves` into this thread's order.
    pub fn apply_after_first<T>(&self, moves: &mut [T]) {
        if let Some((_, younger)) = moves.split_first_mut() {
            self.apply(younger);
        }
    }
}

/// A helper's iterative deepening until `stop`; its nodes.
fn deepen<E: Evaluator>(
    h: &mut Searcher<E>,
    board: &Board,
    mut order: Vec<u8>,
    max_depth: u32,
    stop: &CancelFlag,
) -> u64 {
    let mut quiet = |_: &SearchInfo| {};
    let limits = Limits::default();
    let mut ctrl = Control::fixed(&limits, stop, &mut quiet);
    for depth in 1..=max_depth.max(1) {
        let mut mine = order.clone();
        h.spread.apply_after_first(&mut mine);
        match h.root(board, &mine, depth, &mut ctrl) {
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

    use super::Spread;
    use crate::ai::control::Control;
    use crate::ai::reversi::board::{squares, Board};
    use crate::ai::reversi::eval::PatternEval;
    use crate::ai::reversi::search::pvs::Searcher;
    use crate::ai::SearchInfo;
    use crate::rng::Rng;

    #[test]
    fn each_helper_starts_elsewhere_in_the_younger_brothers() {
        let order = |s: Spread| {
            let mut v: Vec<u32> = (1..=6).collect();
            s.apply(&mut v);
            v
        };
        assert_eq!(order(Spread::NONE), [1, 2, 3, 4, 5, 6]);
        assert_eq!(Spread::NONE.plies(), 0);
        assert_eq!(order(Spread::new(1, 1)), [6, 5, 4, 3, 2, 1]);
        assert_eq!(order(Spread::new(1, 3)), [6, 5, 4, 3, 2, 1]);
        assert_eq!(order(Spread::new(2, 3)), [2, 1, 6, 5, 4, 3]);
        assert_eq!(order(Spread::new(3, 3)), [4, 3, 2, 1, 6, 5]);
        assert!(Spread::new(1, 1).plies() > 0);
    }

    /// A helper's own order changes which moves it searches first, never a value: on
    /// random boards its root values at depths 1-5 are the main thread's.
    #[test]
    fn a_helpers_order_gives_the_same_values() {
        let mut rng = Rng::new(17);
        for _ in 0..12 {
            let mut b = Board::initial();
            for _ in 0..8 + rng.below(30) {
                let list: Vec<u8> = squares(b.moves()).collect();
                if list.is_empty() {
                    break;
                }
                b = b.play(list[rng.below(list.len() as u64) as usize]);
            }
            if b.moves() == 0 {
                continue;
            }
            let order: Vec<u8> = squares(b.moves()).collect();
            let mut main = Searcher::new(PatternEval::new(), 14);
            // The helper has a table of its own here, so that it cannot read the main's.
            let mut helper = Searcher::new(PatternEval::new(), 14).helper(Spread::new(1, 1));
            let cancel = CancelFlag::new();
            let mut sink = |_: &SearchInfo| {};
            let mut ctrl = Control::fixed(&Limits::default(), &cancel, &mut sink);
            for depth in 1..=5 {
                let mut mine = order.clone();
                helper.spread.apply_after_first(&mut mine);
                let h = helper.root(&b, &mine, depth, &mut ctrl).unwrap();
                let m = main.root(&b, &order, depth, &mut ctrl).unwrap();
                assert_eq!(h.value, m.value, "depth {depth} board {b:?}");
            }
        }
    }

    use crate::ai::reversi::master::Master;
    use crate::ai::{search_cancelled_after, CancelFlag, Engine, Limits};
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
        let (r, late) = search_cancelled_after(
            &mut master,
            &pos,
            &Limits::time(60_000),
            Duration::from_millis(300),
        )
        .expect("the search thread panicked");
        let late = late.unwrap_or_default();
        assert!(late < Duration::from_millis(500), "answered {late:?} after the cancel");
        assert!(legal(r.best));
    }
}

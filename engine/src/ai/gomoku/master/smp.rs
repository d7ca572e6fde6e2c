//! Lazy SMP: the main search (thread 0, which keeps the clock, reports progress and gives
//! the result) and helper threads search the same root at the same time, sharing only the
//! transposition table ([`super::tt::Tt`], lockless). The helpers have their own jitter in
//! the root order; the first (and every other one) stays a ply ahead of the main search
//! ([`Pace::Ahead`]), the others search its depth, so they fill the table with lines the main
//! search then finds ready. They have no clock: the main search raises their stop flag when
//! it ends (its own stop comes from the clock, the node budget or the caller's cancel flag,
//! looked at every few hundred nodes), and each helper looks at the flag as often. When a
//! helper completed a deeper iteration than the main search, its answer is taken
//! ([`deepest`]), except under a multi-PV ceiling (the helpers search without it).

use std::sync::atomic::AtomicU32;
use std::sync::Arc;

use super::search::{Pace, Searcher, Tables};
use super::tt::Tt;
use super::vcf::Vcf;
use super::VCF_CACHE_BITS;
use crate::ai::control::Control;
use crate::ai::{CancelFlag, Limits, SearchInfo};
use crate::rng::Rng;

/// Memory one helper thread takes besides the shared table (its VCF cache and history).
pub const HELPER_MEMORY: usize = (16 << VCF_CACHE_BITS) + (64 << 10);

/// A helper's own state, kept between searches.
pub fn helper_tables() -> Tables {
    Tables { vcf: Vcf::new(VCF_CACHE_BITS), history: Vec::new() }
}

/// The node budget of each of `threads` threads when the whole search may visit `nodes`:
/// the budget holds for all threads together.
pub fn share_nodes(nodes: Option<u64>, threads: usize) -> Option<u64> {
    nodes.map(|n| n / threads.max(1) as u64)
}

/// Iterative deepening to `max_depth` on `main`'s root (already set) with one helper per
/// entry of `helpers`; returns when the main search ends, after every helper has stopped.
/// The helpers' nodes are added to the main search's count. `moves` are the root moves with
/// their ordering scores (as given to [`Searcher::set_root`]); `nodes` is each helper's node
/// budget; `seed` varies the helpers' root orders.
pub fn iterate(
    main: &mut Searcher<'_>,
    tt: &Tt,
    helpers: &mut [Tables],
    moves: &[(usize, i32)],
    max_depth: u32,
    nodes: Option<u64>,
    seed: u64,
) {
    if helpers.is_empty() {
        main.iterate(max_depth);
        return;
    }
    let stop = CancelFlag::new();
    let board = main.board.clone();
    let limits = Limits { nodes, depth: Some(max_depth), ..Limits::default() };
    let at = Arc::new(AtomicU32::new(0));
    main.pace = Pace::Leads(at.clone());
    let done: Vec<HelperResult> = std::thread::scope(|s| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .enumerate()
            .map(|(i, tables)| {
                let (board, limits, stop) = (board.clone(), &limits, &stop);
                // Helper 1 keeps a ply ahead of the main search, helper 2 with it, and so
                // on: the threads spread over two depths.
                let (pace, first) =
                    if i % 2 == 0 { (Pace::Ahead(at.clone()), 2) } else { (Pace::Alone, 1) };
                s.spawn(move || {
                    let mut quiet = |_: &SearchInfo| {};
                    let ctrl = Control::fixed(limits, stop, &mut quiet);
                    let mut helper = Searcher::with_control(board, tt, tables, ctrl);
                    let mut rng = Rng::new(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9));
                    helper.set_root(moves, &mut rng);
                    helper.pace = pace;
                    helper.iterate_from(first, max_depth);
                    HelperResult {
                        nodes: helper.nodes(),
                        depth: helper.info.depth,
                        best: helper.completed.take(),
                    }
                })
            })
            .collect();
        main.iterate(max_depth);
        stop.cancel();
        // A helper that panicked has only lost its own nodes; the main search's answer
        // stands.
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    main.pace = Pace::Alone;
    main.add_nodes(done.iter().map(|h| h.nodes).sum());
    if main.ceiling.is_none() {
        if let Some(h) = deepest(main.info.depth, done) {
            main.adopt(h.depth, h.best.expect("deepest has a move"));
        }
    }
}

/// What a helper thread found: its nodes, and its last completed iteration's depth and
/// answer.
struct HelperResult {
    nodes: u64,
    depth: u32,
    best: Option<(usize, i32, Vec<usize>)>,
}

/// The helper whose completed iteration went deepest, if deeper than the main search's
/// `main_depth` plies (the first of equals).
fn deepest(main_depth: u32, done: Vec<HelperResult>) -> Option<HelperResult> {
    let mut pick: Option<HelperResult> = None;
    for h in done {
        if h.best.is_some() && h.depth > pick.as_ref().map_or(main_depth, |p| p.depth) {
            pick = Some(h);
        }
    }
    pick
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::{Master, FIXED_MEMORY};
    use super::*;
    use crate::ai::{search_cancelled_after, Engine};
    use crate::gomoku::notation::parse_moves;
    use crate::gomoku::{Position, Rule};
    use crate::Move;

    fn middle_game() -> Position {
        let moves = parse_moves("h8 i9 h9 i8 h7 h10 i10 h5 g8 f7 i6 f9 e8 d8", 15).unwrap();
        Position::from_moves(15, Rule::Freestyle, &moves).unwrap()
    }

    /// A cancel reaches every thread: the search answers soon after it, with a legal move.
    /// (A correctness bound, generous for a loaded machine; the engine's promise is 50 ms.)
    #[test]
    fn a_cancel_stops_every_thread_soon() {
        let pos = middle_game();
        let mut master = Master::new(1);
        master.set_threads(2);
        let (r, late) = search_cancelled_after(
            &mut master,
            &pos,
            &Limits::time(60_000),
            Duration::from_millis(300),
        )
        .expect("the search thread panicked");
        let late = late.unwrap_or_default();
        assert!(late < Duration::from_millis(500), "answered {late:?} after the cancel");
        let Move::Place(p) = r.best else { panic!("no move") };
        assert!(pos.stone(p).is_none());
    }

    /// The deepest helper answer is taken only when it went deeper than the main search.
    #[test]
    fn a_deeper_helper_answer_is_taken() {
        let h = |depth, cell| HelperResult { nodes: 1, depth, best: Some((cell, 0, vec![cell])) };
        let none = HelperResult { nodes: 1, depth: 9, best: None };
        assert!(deepest(7, vec![h(7, 1), h(6, 2)]).is_none());
        assert_eq!(deepest(7, vec![h(8, 1), h(9, 2), h(9, 3)]).unwrap().best.unwrap().0, 2);
        assert_eq!(deepest(7, vec![none, h(8, 4)]).unwrap().best.unwrap().0, 4);
        assert!(deepest(7, vec![]).is_none());
    }

    /// With a helper, a timed search answers a legal move whose line (the main search's or
    /// a deeper helper's) starts with it.
    #[test]
    fn a_timed_search_with_a_helper_answers_its_own_line() {
        let pos = middle_game();
        let mut master = Master::new(1);
        master.set_threads(2);
        let r = master.search(&pos, &Limits::time(200), &CancelFlag::new(), &mut |_| {});
        let Move::Place(p) = r.best else { panic!("no move") };
        assert!(pos.stone(p).is_none());
        assert!(r.info.depth >= 1);
        assert_eq!(r.info.pv.first(), Some(&r.best), "the line starts with the move played");
    }

    /// The node budget holds for all threads together, the root's threat solvers included.
    #[test]
    fn the_node_budget_holds_for_all_threads() {
        // In the middle game the opponent threatens, and the root defence verified every
        // candidate move with its own budget: 48,000 nodes, past a 20,000-node search's
        // budget. Now the step gets a quarter of the budget.
        let pos = middle_game();
        let budget = 20_000;
        let search = |threads| {
            let mut master = Master::new(1);
            master.set_threads(threads);
            master.search(&pos, &Limits::nodes(budget), &CancelFlag::new(), &mut |_| {})
        };
        let (one, three) = (search(1), search(3));
        // Each thread may pass its share by the nodes between two looks at the budget.
        for r in [&one, &three] {
            assert!(r.info.nodes <= budget + 3 * 1_000, "{} nodes", r.info.nodes);
            assert!(matches!(r.best, Move::Place(p) if pos.stone(p).is_none()));
        }
        assert!(one.info.depth >= 1, "the search had nodes left for depth 1");
        // The main search spends its share; the helpers stop when it ends, after anything
        // from none of theirs (on a loaded machine) to all of it.
        assert!(three.info.nodes >= budget / 3, "{}", three.info.nodes);
    }

    /// The memory budget holds with threads: the shared table shrinks by the helpers' own.
    #[test]
    fn the_memory_budget_holds_with_threads() {
        // One thread: exactly a 16 MiB table fits; four: the helpers' own leave 8 MiB.
        let budget = FIXED_MEMORY + (16 << 20);
        let mut master = Master::with_memory(1, budget);
        let (_, one) = master.table_bytes();
        master.set_threads(4);
        let (_, four) = master.table_bytes();
        assert_eq!((one, four), (16 << 20, 8 << 20));
        assert!(four + FIXED_MEMORY + 3 * HELPER_MEMORY <= budget, "{four} bytes of table");
        assert_eq!(share_nodes(Some(1000), 4), Some(250));
        assert_eq!(share_nodes(None, 4), None);
    }
}

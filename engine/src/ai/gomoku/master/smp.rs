//! Lazy SMP: the main search (thread 0, which keeps the clock, reports progress and gives
//! the result) and helper threads search the same root at the same time, sharing only the
//! transposition table ([`super::tt::Tt`], lockless). The helpers start at staggered depths
//! with their own jitter in the root order, so they fill the table with lines the main
//! search then finds ready. They have no clock: the main search raises their stop flag when
//! it ends (its own stop comes from the clock, the node budget or the caller's cancel flag,
//! looked at every few hundred nodes), and each helper looks at the flag as often.

use super::search::{Searcher, Tables};
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
    let helper_nodes: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .enumerate()
            .map(|(i, tables)| {
                let (board, limits, stop) = (board.clone(), &limits, &stop);
                s.spawn(move || {
                    let mut quiet = |_: &SearchInfo| {};
                    let ctrl = Control::fixed(limits, stop, &mut quiet);
                    let mut helper = Searcher::with_control(board, tt, tables, ctrl);
                    let mut rng = Rng::new(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9));
                    helper.set_root(moves, &mut rng);
                    // Helper 1 starts one ply ahead of the main search, helper 2 with it,
                    // and so on: the threads spread over two depths.
                    helper.iterate_from(1 + (i as u32 + 1) % 2, max_depth);
                    helper.nodes()
                })
            })
            .collect();
        main.iterate(max_depth);
        stop.cancel();
        // A helper that panicked has only lost its own nodes; the main search's answer
        // stands.
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    });
    main.add_nodes(helper_nodes);
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::{Master, FIXED_MEMORY};
    use super::*;
    use crate::ai::{search_then_cancel, Engine};
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
        let (r, late) = search_then_cancel(&mut master, &pos, Duration::from_millis(300));
        assert!(late < Duration::from_millis(500), "answered {late:?} after the cancel");
        let Move::Place(p) = r.best else { panic!("no move") };
        assert!(pos.stone(p).is_none());
    }

    /// The node budget holds for all threads together, and the helpers' nodes are counted.
    #[test]
    fn the_node_budget_holds_for_all_threads() {
        let pos = middle_game();
        let budget = 60_000;
        let search = |threads| {
            let mut master = Master::new(1);
            master.set_threads(threads);
            master.search(&pos, &Limits::nodes(budget), &CancelFlag::new(), &mut |_| {})
        };
        // (The root's defence check is not bound by the budget: it costs the same in both.)
        let (one, three) = (search(1), search(3));
        // Each thread may pass its share by the nodes between two looks at the budget.
        assert!(three.info.nodes <= one.info.nodes + 3 * 1_000, "{}", three.info.nodes);
        // Without the helpers' nodes the count would miss two thirds of the budget.
        assert!(three.info.nodes + budget / 3 > one.info.nodes, "{}", three.info.nodes);
        assert!(matches!(three.best, Move::Place(p) if pos.stone(p).is_none()));
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

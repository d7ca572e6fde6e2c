//! Level 3, "strong": iterative deepening over a NegaScout/PVS search ([`pvs`]) with a
//! transposition table ([`tt`]) and move ordering ([`ordering`]), on the fitted pattern
//! evaluation. The level is capped at [`STRONG_DEPTH`] plies in the midgame and searches
//! to the end from [`STRONG_EXACT_FROM`] empties; the master level uses the same search
//! without the cap. The same search runs with seed 003's evaluation as the baseline the fitted
//! evaluation is measured against (see `docs/BENCHMARKS.md`).

pub mod ordering;
pub mod probcut;
pub mod pvs;
pub mod smp;
pub mod tt;

use self::pvs::{RootResult, Searcher};
use super::board::{square_move, square_of, squares, Board};
use super::eval::{Evaluator, PatternEval};
use crate::ai::control::Control;
use crate::ai::{
    Bound, CancelFlag, Candidate, Engine, Limits, PvLine, Score, SearchInfo, SearchResult,
};
use crate::reversi::Position;
use crate::rng::Rng;
use crate::Move;

/// Under a game clock, a new iteration starts only while less than this share of the move's
/// time is gone (the search makes no prediction of the next iteration's time). A move whose
/// time is its own starts them until it is gone ([`crate::ai::control::own_time`]).
pub const FREE_START: f64 = 0.45;
/// Transposition table size (2^20 entries of 32 bytes).
pub const TT_BITS: u32 = 20;
/// The smallest and the largest table [`PvsEngine::set_table_bits`] gives (32 KiB, 4 GiB).
pub const MIN_TT_BITS: u32 = 10;
pub const MAX_TT_BITS: u32 = 27;

/// The strong level's midgame depth cap (plies), leaving room for the master level above.
pub const STRONG_DEPTH: u32 = 6;
/// The strong level searches to the end of the game from this many empties.
pub const STRONG_EXACT_FROM: u32 = 12;

/// A PVS player with evaluation `E`; [`Strong`] is the one with the fitted patterns.
pub struct PvsEngine<E: Evaluator> {
    /// The search (public for the endgame level built on top of it).
    pub searcher: Searcher<E>,
    rng: Rng,
    /// Deepest midgame iteration (`None`: as deep as the limits allow).
    depth_cap: Option<u32>,
    /// From this many empties the search goes to the end of the game.
    exact_from: u32,
    /// Search threads ([`smp`]).
    threads: usize,
}

/// Level 3.
pub type Strong = PvsEngine<PatternEval>;

impl Strong {
    /// The strong level: at most [`STRONG_DEPTH`] plies in the midgame, exact from
    /// [`STRONG_EXACT_FROM`] empties; `seed` varies the choice among equally good moves.
    pub fn strong(seed: u64) -> Strong {
        let mut e = PvsEngine::new(PatternEval::new(), seed);
        e.depth_cap = Some(STRONG_DEPTH);
        e.exact_from = STRONG_EXACT_FROM;
        e
    }
}

/// The start of a search of `pos`: its board and the search's control, or the answer to give
/// when the side to move must pass.
pub fn search_start<'a>(
    pos: &Position,
    limits: &Limits,
    cancel: &'a CancelFlag,
    progress: &'a mut dyn FnMut(&SearchInfo),
) -> Result<(Board, Control<'a>), SearchResult> {
    let board = Board::from_position(pos);
    let mut ctrl = Control::new(limits, cancel, progress);
    if board.moves() == 0 {
        return Err(SearchResult { best: Move::Pass, info: ctrl.snapshot() });
    }
    Ok((board, ctrl))
}

/// The start of a multi-PV search of `pos`: its board and the search's control, or the one
/// line to give when the side to move must pass.
pub fn multi_start<'a>(
    pos: &Position,
    limits: &Limits,
    cancel: &'a CancelFlag,
    progress: &'a mut dyn FnMut(&SearchInfo),
) -> Result<(Board, Control<'a>), Vec<PvLine>> {
    let board = Board::from_position(pos);
    if board.moves() == 0 {
        return Err(vec![pass_line()]);
    }
    Ok((board, Control::new(limits, cancel, progress)))
}

/// The one line of a position whose side to move must pass (nothing searched: score 0).
pub fn pass_line() -> PvLine {
    PvLine {
        mv: Move::Pass,
        score: Score::Eval(0),
        bound: Bound::Exact,
        depth: 0,
        seldepth: 0,
        pv: vec![Move::Pass],
    }
}

/// What an iterative-deepening run found.
pub struct Found {
    /// Best root square.
    pub best: u8,
    /// Its value (hundredths of a disc for the pattern evaluation).
    pub value: i32,
    /// Depth of the iteration it comes from (0 if none): the last completed one, or an
    /// interrupted deeper one that found a better value.
    pub depth: u32,
    /// True when the value is the exact final margin (the search reached the end).
    pub exact: bool,
}

impl<E: Evaluator> PvsEngine<E> {
    /// A PVS player with evaluation `eval`.
    pub fn new(eval: E, seed: u64) -> PvsEngine<E> {
        PvsEngine {
            searcher: Searcher::new(eval, TT_BITS),
            rng: Rng::new(seed),
            depth_cap: None,
            exact_from: 0,
            threads: 1,
        }
    }

    /// Gives the engine a table of `2^bits` entries (32 bytes each; `bits` clamped to
    /// [`MIN_TT_BITS`]..=[`MAX_TT_BITS`]) in place of the one it has, not allocated yet.
    pub fn set_table_bits(&mut self, bits: u32) {
        *self.searcher.table_mut() = tt::Table::new(bits.clamp(MIN_TT_BITS, MAX_TT_BITS));
    }

    /// Searches with `threads` threads (Lazy SMP, [`smp`]) from the next search on; a
    /// search with a node budget stays on one thread, so that the budget holds.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, crate::ai::control::MAX_THREADS);
    }

    /// The deepest iteration for `board` under `limits`: the limit's depth, capped by the
    /// level's depth cap while the position is outside its exact range.
    fn max_depth(&self, board: &Board, limits: &Limits) -> u32 {
        let depth = limits.depth.unwrap_or(60);
        if board.empties() > self.exact_from {
            depth.min(self.depth_cap.unwrap_or(60))
        } else {
            depth
        }
    }

    /// Iterative deepening on `board` (which must have a legal move) until a limit, with
    /// results, candidates and progress in `ctrl.info`. `max_depth` caps the depth.
    pub fn iterate(&mut self, board: &Board, max_depth: u32, ctrl: &mut Control) -> Found {
        let order = self.start(board);
        let threads = if ctrl.has_node_limit() { 1 } else { self.threads };
        let helpers =
            (1..threads).map(|i| self.searcher.helper(smp::Spread::new(i, threads - 1))).collect();
        let max = max_depth.max(1);
        let (found, nodes) =
            smp::run(helpers, board, &order.clone(), max, || self.deepen(board, order, max, ctrl));
        ctrl.add_nodes(nodes);
        found
    }

    /// The main thread's iterative deepening (see [`PvsEngine::iterate`]).
    fn deepen(
        &mut self,
        board: &Board,
        mut order: Vec<u8>,
        max_depth: u32,
        ctrl: &mut Control,
    ) -> Found {
        let mut found = Found { best: order[0], value: 0, depth: 0, exact: false };
        let empties = board.empties();
        ctrl.clock_mut().set_free_start(FREE_START);
        for depth in 1..=max_depth.max(1) {
            let r = match self.searcher.root(board, &order, depth, ctrl) {
                Some(r) => r,
                None => break,
            };
            let RootResult { best, value, scores, complete } = r;
            if !complete && value <= found.value && found.depth > 0 {
                // Interrupted without finding anything better than the last iteration.
                break;
            }
            found = Found { best, value, depth, exact: complete && depth >= empties };
            self.publish(board, &found, &scores, ctrl);
            if !complete {
                break;
            }
            // Next iteration: best first, then the others by their scores (stable).
            let mut sorted = scores.clone();
            sorted.sort_by_key(|&(s, v)| (std::cmp::Reverse(v), s != best));
            order = sorted.iter().map(|&(s, _)| s).collect();
            ctrl.report();
            if depth >= empties || ctrl.check() || !ctrl.can_start_iteration(None) {
                break;
            }
        }
        found
    }

    /// Starts a search of `board`: a new table generation, and its moves in a seeded
    /// shuffle (among equally good moves the first one searched is kept).
    fn start(&mut self, board: &Board) -> Vec<u8> {
        self.searcher.table_mut().new_search();
        self.searcher.seldepth = 0;
        let mut order: Vec<u8> = squares(board.moves()).collect();
        self.rng.shuffle(&mut order);
        order
    }

    /// Multi-PV iterative deepening on `board` (which must have a legal move): each
    /// iteration searches the root for line 1, then again without line 1's move for line 2,
    /// and so on for `n` lines (fewer when there are fewer moves). Every line's score is
    /// exact at its depth (the first root move gets the full window and a null-window fail
    /// high is searched again with it). When `n` covers every move (each move's value, as
    /// Egaroucid shows them), each move is searched once with the full window instead, and
    /// the lines are sorted by their values. When a limit stops an iteration, the lines of
    /// the last complete one are returned (or the lines the first iteration finished).
    /// Line 1 goes to `ctrl.info` and the progress reports.
    ///
    /// The search is the plain one, without ProbCut even for the master level: the lines
    /// come from separate root searches, and selective searches of the same position under
    /// different windows can disagree, which could put line 2 above line 1.
    pub fn iterate_multi(
        &mut self,
        board: &Board,
        max_depth: u32,
        n: usize,
        ctrl: &mut Control,
    ) -> Vec<PvLine> {
        let probcut = std::mem::replace(&mut self.searcher.probcut, false);
        let lines = self.multi_lines(board, max_depth, n, ctrl);
        self.searcher.probcut = probcut;
        lines
    }

    /// [`PvsEngine::iterate_multi`]'s search.
    fn multi_lines(
        &mut self,
        board: &Board,
        max_depth: u32,
        n: usize,
        ctrl: &mut Control,
    ) -> Vec<PvLine> {
        let mut order = self.start(board);
        let empties = board.empties();
        ctrl.clock_mut().set_free_start(FREE_START);
        let mut lines: Vec<PvLine> = Vec::new();
        for depth in 1..=max_depth.max(1) {
            let exact = depth >= empties;
            let mut next: Vec<PvLine> = Vec::new();
            let mut rest = order.clone();
            let every = n >= order.len();
            // Every move's value at this depth (when each move is searched alone).
            let mut values: Vec<(u8, i32)> = Vec::new();
            while next.len() < n && !rest.is_empty() {
                let batch = if every { &rest[..1] } else { &rest[..] };
                let r = match self.searcher.root(board, batch, depth, ctrl) {
                    Some(r) if r.complete => r,
                    _ => break,
                };
                if every {
                    values.push((r.best, r.value));
                } else if next.is_empty() {
                    let found = Found { best: r.best, value: r.value, depth, exact };
                    self.publish(board, &found, &r.scores, ctrl);
                }
                let mut pv = vec![r.best];
                pv.extend(self.searcher.pv(&board.play(r.best), depth as usize - 1));
                next.push(PvLine {
                    mv: square_move(r.best),
                    score: if exact { Score::Exact(r.value / 100) } else { Score::Eval(r.value) },
                    bound: Bound::Exact,
                    depth: depth.min(empties),
                    seldepth: self.searcher.seldepth,
                    pv: pv.into_iter().map(square_move).collect(),
                });
                if every {
                    rest.remove(0);
                    continue;
                }
                // The next line's search: the others by this search's values (stable).
                let mut sorted = r.scores;
                sorted.retain(|&(s, _)| s != r.best);
                sorted.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
                rest = sorted.iter().map(|&(s, _)| s).collect();
            }
            let complete = next.len() == n.min(order.len());
            if every && complete {
                // Best first, equal values in the order searched (stable).
                let mut sorted: Vec<(usize, i32)> =
                    values.iter().enumerate().map(|(i, &(_, v))| (i, v)).collect();
                sorted.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
                next = sorted.iter().map(|&(i, _)| next[i].clone()).collect();
                let (best, value) = values[sorted[0].0];
                self.publish(board, &Found { best, value, depth, exact }, &values, ctrl);
            }
            if complete || lines.is_empty() {
                // The next iteration searches the lines' moves first, in their order.
                // (`rest` holds every move no line took: each complete root search returns
                // a value for each of its moves.)
                let mut first: Vec<u8> = next.iter().filter_map(|l| square_of(l.mv)).collect();
                first.extend(&rest);
                debug_assert_eq!(first.len(), order.len());
                order = first;
                lines = next;
            }
            if !complete {
                break;
            }
            ctrl.report();
            if exact || ctrl.check() || !ctrl.can_start_iteration(None) {
                break;
            }
        }
        lines
    }

    /// Puts the current result into `ctrl.info`.
    fn publish(&self, board: &Board, found: &Found, scores: &[(u8, i32)], ctrl: &mut Control) {
        let score = |v: i32| {
            if found.exact {
                Score::Exact(v / 100)
            } else {
                Score::Eval(v)
            }
        };
        let mut cands: Vec<(u8, i32)> = scores.to_vec();
        cands.sort_by_key(|&(s, v)| (std::cmp::Reverse(v), s != found.best));
        ctrl.info.depth = found.depth;
        ctrl.info.seldepth = self.searcher.seldepth;
        ctrl.info.score = score(found.value);
        let mut pv: Vec<Move> =
            self.searcher.pv(board, found.depth as usize).into_iter().map(square_move).collect();
        if pv.first() != Some(&square_move(found.best)) {
            pv = vec![square_move(found.best)];
        }
        ctrl.info.pv = pv;
        ctrl.info.candidates =
            cands.iter().map(|&(s, v)| Candidate { mv: square_move(s), score: score(v) }).collect();
    }
}

impl<E: Evaluator> Engine<Position> for PvsEngine<E> {
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let (board, mut ctrl) = match search_start(pos, limits, cancel, progress) {
            Ok(start) => start,
            Err(pass) => return pass,
        };
        let found = self.iterate(&board, self.max_depth(&board, limits), &mut ctrl);
        SearchResult { best: square_move(found.best), info: ctrl.snapshot() }
    }

    fn search_multi(
        &mut self,
        pos: &Position,
        limits: &Limits,
        n: usize,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<PvLine> {
        match multi_start(pos, limits, cancel, progress) {
            Ok((board, mut ctrl)) => {
                self.iterate_multi(&board, self.max_depth(&board, limits), n.max(1), &mut ctrl)
            }
            Err(pass) => pass,
        }
    }

    fn set_threads(&mut self, threads: usize) {
        PvsEngine::set_threads(self, threads);
    }

    /// A new game: the table is emptied and its memory given back (the next search takes
    /// it again).
    fn clear(&mut self) {
        self.searcher.table_mut().release();
    }

    fn table_bytes(&self) -> usize {
        self.searcher.table_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::pvs::tests::random_board;
    use super::*;

    /// `board` searched with `limits` by a fresh engine (the same seed and table size each
    /// time, one thread, no clock, so the same iterations every time up to the limit): what
    /// it found and the nodes it took.
    fn run(board: &Board, limits: &Limits, max_depth: u32) -> (Found, u64) {
        let mut e = Strong::new(PatternEval::new(), 11);
        e.set_table_bits(MIN_TT_BITS + 6);
        let cancel = CancelFlag::new();
        let mut sink = |_: &SearchInfo| {};
        let mut ctrl = Control::fixed(limits, &cancel, &mut sink);
        let found = e.iterate(board, max_depth, &mut ctrl);
        (found, ctrl.nodes())
    }

    /// Stops the search of `board` to `depth` after ever more nodes and checks what it
    /// found against each iteration's result when it completes; returns how many stops kept
    /// the last completed iteration and how many took an interrupted one.
    fn sweep_stops(board: &Board, depth: u32) -> (usize, usize) {
        let (mut kept, mut adopted) = (0, 0);
        // Each iteration when it completes: its move, its value and the nodes of the search
        // up to its end.
        let complete: Vec<(u8, i32, u64)> = (1..=depth)
            .map(|d| {
                let (f, nodes) = run(board, &Limits::depth(d), d);
                assert_eq!(f.depth, d);
                (f.best, f.value, nodes)
            })
            .collect();
        let mut check = |nodes: u64| {
            let (f, _) = run(board, &Limits::nodes(nodes), depth);
            let done = complete.iter().take_while(|c| c.2 < nodes).count();
            let d = f.depth as usize;
            assert!(d >= 1, "{nodes} nodes: no iteration");
            if d == done {
                assert_eq!((f.best, f.value), (complete[d - 1].0, complete[d - 1].1));
                kept += 1;
            } else if complete[d - 1].2 != nodes {
                // (At exactly an iteration's last node it may count as done or not.) An
                // interrupted iteration counts when it found a better value, and its value
                // is then a bound, not an exact result.
                assert_eq!(d, done + 1, "{nodes} nodes: {done} iterations done");
                assert!(!f.exact, "{nodes} nodes: depth {d} interrupted, called exact");
                if done > 0 {
                    assert!(f.value > complete[done - 1].1, "{nodes} nodes: depth {d} no better");
                    adopted += 1;
                }
            }
            done
        };
        // A coarse sweep, then a fine one of each node range in which iterations completed.
        let (mut nodes, mut last) = (50u64, (50u64, 0usize));
        let mut ranges = Vec::new();
        while last.1 < depth as usize {
            let done = check(nodes);
            if done > last.1 {
                ranges.push((last.0, nodes));
            }
            last = (nodes, done);
            nodes = nodes * 6 / 5;
        }
        for (lo, hi) in ranges {
            for k in 1..20 {
                check(lo + (hi - lo) * k / 20);
            }
        }
        (kept, adopted)
    }

    #[test]
    fn an_interrupted_iteration_counts_only_when_it_found_a_better_value() {
        let mut rng = Rng::new(5);
        let (mut kept, mut adopted) = (0, 0);
        // Midgame positions, and endgame ones whose last iterations reach the end; in one of
        // them an iteration to the end is interrupted after a better value (the stops find it
        // if `exact` ignores `complete`).
        for plies in [16, 16, 48, 50, 50] {
            let board = random_board(&mut rng, plies);
            assert!(board.moves() != 0);
            let (k, a) = sweep_stops(&board, board.empties().min(7 + plies as u32 / 8));
            kept += k;
            adopted += a;
        }
        assert!(kept > 0 && adopted > 0, "kept {kept}, adopted {adopted}");
    }
}

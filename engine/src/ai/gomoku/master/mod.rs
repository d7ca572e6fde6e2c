//! Master: the strongest Gomoku level.
//!
//! A threat-space engine in the classic style: an incremental board with line patterns
//! looked up from precomputed tables ([`board`], [`pattern`]), a VCF and a VCT solver
//! ([`vcf`], [`vct`]), and an iterative-deepening PVS ([`search`]) with a transposition table
//! ([`tt`]), threat-aware move generation ([`movegen`]); the clock is [`crate::ai::control`].
//!
//! [`Master::think`] works on the internal [`board::Board`]; the [`Engine`] implementation
//! ([`engine`]) converts a [`crate::gomoku::Position`] and adds the exact legality check.

pub mod board;
pub mod defence;
pub mod engine;
pub mod eval;
pub mod movegen;
pub mod nnue;
pub mod pattern;
pub mod search;
pub mod smp;
pub mod tt;
pub mod vcf;
pub mod vct;

use std::time::{Duration, Instant};

use board::Board;
use movegen::Situation;
use pattern::p4;
use search::{to_score, Searcher, Tables};
use tt::Tt;
use vcf::{Budget, Vcf};
use vct::Vct;

use crate::ai::{CancelFlag, Limits, Score, SearchInfo, SearchResult};
use crate::rng::Rng;
use crate::{Move, Point};

/// Memory used when the caller sets no budget.
pub const DEFAULT_MEMORY: usize = 64 << 20;
/// Memory taken by everything but the transposition table (threat caches, pattern tables).
const FIXED_MEMORY: usize = 12 << 20;
const VCF_CACHE_BITS: u32 = 16;
const VCT_CACHE_BITS: u32 = 17;
/// Longest stretch between progress reports while the root threat solvers run.
const REPORT_SLICE: Duration = Duration::from_millis(80);
/// Deepest iteration when no depth is given.
const MAX_DEPTH: u32 = 64;
/// Root VCF: plies and nodes.
const ROOT_VCF_DEPTH: i32 = 40;
const ROOT_VCF_NODES: u64 = 200_000;
/// Root VCT: plies and nodes.
const ROOT_VCT_DEPTH: i32 = 13;
const ROOT_VCT_NODES: u64 = 30_000;
/// Root defence: the opponent's VCT depth, the nodes to detect its threat and to verify each
/// candidate defence, and the share of the move's time it may use (see [`defence`]).
/// Measured in arena games: with 30,000 detection nodes and VCT depth 11 the detection alone
/// often took half the move's time on a loaded machine and Master lost strength.
/// With the VCT's four tail ([`vct::VCF_TAIL`], 8 plies) the threats take more nodes to find:
/// 16,000 (the detection still stops at [`DEFENCE_DETECT_TIME`] of the move). The VCT depth
/// (the four tail still reads past it), by SPRT (0, 10) at 100 ms a move (docs/BENCHMARKS.md):
/// 7 against 9 +24 ± 15 Elo, H1; 11 against 9 −48 ± 26, H0; 5 against 7 +14 ± 11, H1 (two
/// runs pooled); under Standard +23 ± 15 and under Renju +20 ± 14, both H1. At that speed the
/// deeper search and the check of each defence at its depth take a share of a 66 ms move.
const DEFENCE_VCT_DEPTH: i32 = 5;
const DEFENCE_DETECT_NODES: u64 = 16_000;
const DEFENCE_DETECT_TIME: f64 = 0.25;
const DEFENCE_VERIFY_NODES: u64 = 3_000;
const DEFENCE_TIME: f64 = 0.45;

/// With a game clock, white's opening moves (up to this many stones on the board) may start
/// a new iteration while less than [`OPENING_FREE_START`] of the move's time is gone, instead
/// of the usual [`crate::ai::control::FREE_START`]: the defender's first moves decide most
/// of Master's lost games, and an iteration that does not finish still searches the best
/// move first and can replace it. (A move whose time is its own starts iterations until it
/// is gone: [`crate::ai::control::own_time`].)
/// Measured against the lookahead level (branch `master5` in
/// `git show 5aeae9f:docs/BENCHMARKS.md`).
const OPENING_PLIES: usize = 20;
const OPENING_FREE_START: f64 = 0.75;
/// White's colour index on the internal board.
const WHITE_INDEX: usize = 1;

/// The Master engine.
pub struct Master {
    rng: Rng,
    /// The transposition table, shared by the search threads.
    tt: Tt,
    /// Thread 0's VCF solver and history.
    tables: Tables,
    /// The helper threads' own (see [`smp`]); made by the first search with threads.
    helpers: Vec<Tables>,
    vct: Vct,
    /// The memory budget (all threads together) and the number of search threads.
    memory: usize,
    threads: usize,
    /// Multi-PV's lines after the first: the root's beta never rises above this (line 1's
    /// score plus one, see [`Master::best_moves`]); `None` for every other search.
    ceiling: Option<i32>,
}

impl Master {
    /// A Master whose random choices among equal moves follow `seed`.
    pub fn new(seed: u64) -> Master {
        Master::with_seed_and_memory(seed, DEFAULT_MEMORY)
    }

    /// A Master using at most about `bytes` of memory in total (for the Gomocup
    /// `max_memory`); at least a few megabytes are always used, and never more than a share
    /// of the machine's memory ([`crate::memory::table_cap`]) for the table.
    pub fn with_memory(seed: u64, bytes: usize) -> Master {
        Master::with_seed_and_memory(seed, bytes)
    }

    fn with_seed_and_memory(seed: u64, bytes: usize) -> Master {
        let tables = Tables { vcf: Vcf::new(VCF_CACHE_BITS), history: Vec::new() };
        Master {
            rng: Rng::new(seed ^ 0x4D41_5354_4552),
            tt: table_for(bytes, 1),
            tables,
            helpers: Vec::new(),
            vct: Vct::new(VCT_CACHE_BITS),
            memory: bytes,
            threads: 1,
            ceiling: None,
        }
    }

    /// Searches with `threads` threads (Lazy SMP, see [`smp`]; at least 1, at most
    /// [`crate::ai::control::MAX_THREADS`]). The memory budget holds for all of them: the
    /// table shrinks by what the helpers take. Forgets the table if its size changes.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, crate::ai::control::MAX_THREADS);
        if threads == self.threads {
            return;
        }
        self.threads = threads;
        self.helpers.truncate(threads - 1);
        let tt = table_for(self.memory, threads);
        if tt.bytes() != self.tt.bytes() {
            self.tt = tt;
        }
    }

    /// Forgets everything learnt (new game). The transposition table's memory is given
    /// back and taken again by the next search.
    pub fn reset(&mut self) {
        self.tt.clear();
        self.tables.vcf.clear();
        self.vct.clear();
        self.tables.history.clear();
        self.helpers.clear();
    }

    /// Bytes the transposition table holds now (0 before the first search and after
    /// [`Master::reset`]), and its size once allocated.
    pub fn table_bytes(&self) -> (usize, usize) {
        (self.tt.allocated_bytes(), self.tt.bytes())
    }

    /// Finds a move for the side to move on `board`. `allowed` is the exact legality check of
    /// a point (occupied points are never proposed; under Renju it must reject black's
    /// forbidden points).
    pub fn think(
        &mut self,
        board: Board,
        allowed: &dyn Fn(Point) -> bool,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.think_from(Instant::now(), board, allowed, limits, cancel, progress)
    }

    /// [`Master::think`] for a move that began at `start`: the time limit counts from
    /// there.
    pub fn think_from(
        &mut self,
        start: Instant,
        mut board: Board,
        allowed: &dyn Fn(Point) -> bool,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let cells = board.index_end();
        while self.helpers.len() < self.threads - 1 {
            self.helpers.push(smp::helper_tables());
        }
        for tables in std::iter::once(&mut self.tables).chain(self.helpers.iter_mut()) {
            if tables.history.len() < cells {
                tables.history = vec![[0; 2]; cells];
            }
        }
        let ok = |b: &Board, i: usize| b.is_empty(i) && allowed(b.point(i));
        if let Some(r) = self.opening(&board, &ok) {
            progress(&r.info);
            return r;
        }
        let me = board.side();
        let mut moves = Vec::new();
        let situation = movegen::generate(&mut board, &mut moves);
        // Immediate wins need no search.
        let instant = match situation {
            Situation::Win(1) => vcf::first_of_class(&board, me, p4::A_FIVE).map(|c| (c, 1)),
            Situation::Win(3) => {
                let mut v = Vec::new();
                board.cells_of_class(me, p4::B_FLEX4, &mut v);
                v.into_iter().find(|&c| ok(&board, c)).map(|c| (c, 3))
            }
            _ => None,
        };
        if let Some((cell, n)) = instant {
            return self.finish_forced(&board, cell, Score::Win(n), progress);
        }
        moves.retain(|&(c, _)| ok(&board, c));
        if moves.is_empty() {
            // Lost anyway, or nothing generated: any allowed cell, near ones first.
            for &c in board.board_cells() {
                if ok(&board, c) {
                    moves.push((
                        c,
                        if board.is_near(c) { movegen::move_score(&board, c) } else { -1 },
                    ));
                }
            }
            if moves.is_empty() {
                return SearchResult { best: Move::Pass, info: SearchInfo::default() };
            }
        }
        let has_limit = limits.time.is_some() || limits.time_left.is_some();
        // With threads, the node budget is shared out: it holds for all of them together.
        let thread_nodes = smp::share_nodes(limits.nodes, self.threads);
        let shared;
        let limits = if self.threads > 1 {
            shared = Limits { nodes: thread_nodes, ..limits.clone() };
            &shared
        } else {
            limits
        };
        self.tt.new_search();
        let mut searcher =
            Searcher::new(board, start, &self.tt, &mut self.tables, limits, cancel, progress);
        if moves.len() == 1 {
            let cell = moves[0].0;
            let score = match situation {
                Situation::Loss(n) => Score::Loss(n),
                _ => Score::Eval(0),
            };
            let mut info = searcher.current_info();
            info.pv = vec![Move::Place(searcher.board.point(cell))];
            info.score = score;
            info.depth = 1;
            searcher.report(&info);
            return SearchResult { best: Move::Place(searcher.board.point(cell)), info };
        }

        // Threat solvers first: a proven win ends the search. They run in slices of at most
        // REPORT_SLICE so progress keeps flowing.
        if !matches!(situation, Situation::Loss(_)) {
            let share = limits.nodes.map_or(u64::MAX, |n| n / 4);
            let slice = |searcher: &Searcher<'_>, fraction: f64| {
                let end = searcher.clock().deadline_at(fraction)?;
                Some(end.min(Instant::now() + REPORT_SLICE))
            };
            let mut budget = Budget::new(ROOT_VCF_NODES.min(share));
            budget.cancel = Some(cancel.clone());
            budget.deadline = if has_limit { slice(&searcher, 0.3) } else { None };
            let line = searcher.root_vcf(ROOT_VCF_DEPTH, &mut budget).unwrap_or_default();
            if line.first().is_some_and(|&c| ok(&searcher.board, c)) {
                return finish_line(&mut searcher, &line, Score::Win(line.len() as u32));
            }
            let info = searcher.current_info();
            searcher.report(&info);
            let mut left = ROOT_VCT_NODES.min(share);
            let mut depth = 5;
            while !searcher.board.has_five(me ^ 1) && depth <= ROOT_VCT_DEPTH && left > 0 {
                let mut budget = Budget::new(left);
                budget.cancel = Some(cancel.clone());
                budget.deadline = if has_limit { slice(&searcher, 0.15) } else { None };
                let found = self.vct.solve(&mut searcher.board, depth, &mut budget);
                searcher.add_nodes(budget.nodes);
                left = left.saturating_sub(budget.nodes);
                if let Some(c) = found.filter(|&c| ok(&searcher.board, c)) {
                    return finish_line(&mut searcher, &[c], Score::Win(depth as u32));
                }
                let info = searcher.current_info();
                searcher.report(&info);
                if budget.aborted {
                    break;
                }
                depth += 2;
            }
        }

        if moves.len() > 1 && !matches!(situation, Situation::Loss(_)) {
            let share = limits.nodes.map_or(u64::MAX, |n| n / 4);
            defend_root(&mut self.vct, &mut searcher, &mut moves, has_limit, share, cancel);
        }
        if me == WHITE_INDEX && searcher.board.ply() <= OPENING_PLIES {
            searcher.clock_mut().set_free_start(OPENING_FREE_START);
        }
        searcher.set_root(&moves, &mut self.rng);
        searcher.ceiling = self.ceiling;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // (Drawn only with helpers: one thread's choices stay those of a single-threaded
        // Master.)
        let seed = if self.helpers.is_empty() { 0 } else { self.rng.next_u64() };
        smp::iterate(
            &mut searcher,
            &self.tt,
            &mut self.helpers,
            &moves,
            max_depth,
            thread_nodes,
            seed,
        );
        let mut info = searcher.current_info();
        let best = match &searcher.best {
            Some((cell, score, line)) => {
                info.score = to_score(*score);
                info.pv = line.iter().map(|&c| Move::Place(searcher.board.point(c))).collect();
                *cell
            }
            None => searcher.root[0].cell,
        };
        if info.candidates.is_empty() {
            info.candidates = searcher.candidates();
        }
        info.seldepth = info.seldepth.max(info.depth);
        searcher.report(&info);
        SearchResult { best: Move::Place(searcher.board.point(best)), info }
    }

    /// Book moves: the centre on an empty board, a neighbour of the first stone.
    fn opening(
        &mut self,
        board: &Board,
        ok: &dyn Fn(&Board, usize) -> bool,
    ) -> Option<SearchResult> {
        let stones: Vec<usize> =
            board.board_cells().iter().copied().filter(|&c| !board.is_empty(c)).collect();
        let size = board.size() as u8;
        let cell = match stones.len() {
            0 => board.index(Point::new(size / 2, size / 2)),
            1 => {
                let p = board.point(stones[0]);
                let mut options = Vec::new();
                for (dx, dy) in
                    [(-1i32, -1i32), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
                {
                    let (x, y) = (p.x as i32 + dx, p.y as i32 + dy);
                    if x >= 0 && y >= 0 && x < size as i32 && y < size as i32 {
                        // Towards the centre is better than towards the edge.
                        let q = Point::new(x as u8, y as u8);
                        let centre = size as i32 / 2;
                        let d = (x - centre).abs().max((y - centre).abs());
                        options.push((d, board.index(q)));
                    }
                }
                let nearest = options.iter().map(|o| o.0).min()?;
                let best: Vec<usize> =
                    options.iter().filter(|o| o.0 == nearest).map(|o| o.1).collect();
                *self.rng.choose(&best)?
            }
            _ => return None,
        };
        if !ok(board, cell) {
            return None;
        }
        let info = SearchInfo {
            depth: 1,
            seldepth: 1,
            score: Score::Eval(0),
            pv: vec![Move::Place(board.point(cell))],
            ..SearchInfo::default()
        };
        Some(SearchResult { best: Move::Place(board.point(cell)), info })
    }

    fn finish_forced(
        &mut self,
        board: &Board,
        cell: usize,
        score: Score,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let mv = Move::Place(board.point(cell));
        let info = SearchInfo {
            depth: 1,
            seldepth: 1,
            nodes: 1,
            score,
            pv: vec![mv],
            candidates: vec![crate::ai::Candidate { mv, score }],
            ..SearchInfo::default()
        };
        progress(&info);
        SearchResult { best: mv, info }
    }
}

/// The transposition table for a memory budget of `bytes` shared by `threads` threads:
/// what the fixed structures and the helpers' own leave (at least a megabyte), never more
/// than the machine's share ([`crate::memory::table_budget`]). Allocated by the first search
/// (see [`Tt`]).
fn table_for(bytes: usize, threads: usize) -> Tt {
    let helpers = smp::HELPER_MEMORY.saturating_mul(threads.saturating_sub(1));
    let table = bytes.saturating_sub(FIXED_MEMORY).saturating_sub(helpers).max(1 << 20);
    Tt::with_bytes(crate::memory::table_budget(Some(table as u64), DEFAULT_MEMORY as u64))
}

/// When the opponent would win by threats if we passed, keeps only the root moves that
/// stop it (see [`defence`]), in at most `total_nodes` nodes.
fn defend_root(
    vct: &mut Vct,
    searcher: &mut Searcher<'_>,
    moves: &mut Vec<(usize, i32)>,
    has_limit: bool,
    total_nodes: u64,
    cancel: &CancelFlag,
) {
    let limits = defence::Limits {
        vcf_depth: ROOT_VCF_DEPTH,
        vct_depth: DEFENCE_VCT_DEPTH,
        detect_nodes: DEFENCE_DETECT_NODES,
        verify_nodes: DEFENCE_VERIFY_NODES,
        total_nodes,
        detect_deadline: if has_limit {
            searcher.clock().deadline_at(DEFENCE_DETECT_TIME)
        } else {
            None
        },
        deadline: if has_limit { searcher.clock().deadline_at(DEFENCE_TIME) } else { None },
        cancel: Some(cancel.clone()),
    };
    let mut nodes = 0;
    let (board, vcf) = searcher.board_and_vcf();
    let threat = defence::opponent_threat(board, vcf, vct, &limits, &mut nodes);
    if threat.is_some() {
        movegen::sort(moves);
        defence::keep_refutations(board, moves, vcf, vct, &limits, &mut nodes);
    }
    searcher.add_nodes(nodes);
    let info = searcher.current_info();
    searcher.report(&info);
}

/// Ends a search with a proven line.
fn finish_line(searcher: &mut Searcher<'_>, line: &[usize], score: Score) -> SearchResult {
    let mut info = searcher.current_info();
    info.score = score;
    info.depth = info.depth.max(1);
    info.seldepth = info.seldepth.max(line.len() as u32);
    info.pv = line.iter().map(|&c| Move::Place(searcher.board.point(c))).collect();
    let mv = info.pv[0];
    info.candidates = vec![crate::ai::Candidate { mv, score }];
    searcher.report(&info);
    SearchResult { best: mv, info }
}
#[cfg(test)]
mod tests;

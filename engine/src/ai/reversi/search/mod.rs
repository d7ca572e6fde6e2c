//! Level 3, "strong": iterative deepening over a NegaScout/PVS search ([`pvs`]) with a
//! transposition table ([`tt`]) and move ordering ([`ordering`]), on the fitted pattern
//! evaluation. The level is capped at [`STRONG_DEPTH`] plies in the midgame and searches
//! to the end from [`STRONG_EXACT_FROM`] empties; the master level uses the same search
//! without the cap. The same search runs with seed 003's evaluation as the baseline the fitted
//! evaluation is measured against (see `docs/BENCHMARKS.md`).

pub mod ordering;
pub mod pvs;
pub mod tt;

use std::time::Duration;

use self::pvs::{RootResult, Searcher};
use super::board::{square_move, squares, Board};
use super::control::Control;
use super::eval::{Evaluator, PatternEval};
use crate::ai::{CancelFlag, Candidate, Engine, Limits, Score, SearchInfo, SearchResult};
use crate::reversi::Position;
use crate::rng::Rng;
use crate::Move;

/// Time per move when the limits give none (and no depth or node limit either).
pub const DEFAULT_TIME: Duration = Duration::from_millis(1000);
/// Transposition table size (2^20 entries of 32 bytes).
pub const TT_BITS: u32 = 20;

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

/// What an iterative-deepening run found.
pub struct Found {
    /// Best root square.
    pub best: u8,
    /// Its value (hundredths of a disc for the pattern evaluation).
    pub value: i32,
    /// Depth of the last completed iteration (0 if none).
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
        }
    }

    /// Iterative deepening on `board` (which must have a legal move) until a limit, with
    /// results, candidates and progress in `ctrl.info`. `max_depth` caps the depth.
    pub fn iterate(&mut self, board: &Board, max_depth: u32, ctrl: &mut Control) -> Found {
        self.searcher.tt.new_search();
        self.searcher.seldepth = 0;
        // Seeded shuffle: among equally good moves the first one searched is kept.
        let mut order: Vec<u8> = squares(board.moves()).collect();
        for i in (1..order.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let mut found = Found { best: order[0], value: 0, depth: 0, exact: false };
        let empties = board.empties();
        let soft = ctrl.budget().map(|b| b.mul_f64(0.45));
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
            found = Found { best, value, depth, exact: depth >= empties };
            self.publish(board, &found, &scores, ctrl);
            if !complete {
                break;
            }
            // Next iteration: best first, then the others by their scores (stable).
            let mut sorted = scores.clone();
            sorted.sort_by_key(|&(s, v)| (std::cmp::Reverse(v), s != best));
            order = sorted.iter().map(|&(s, _)| s).collect();
            ctrl.report();
            if depth >= empties || ctrl.check() {
                break;
            }
            if soft.is_some_and(|s| ctrl.elapsed() >= s) {
                break;
            }
        }
        found
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
        let board = Board::from_position(pos);
        let default_time =
            (limits.depth.is_none() && limits.nodes.is_none()).then_some(DEFAULT_TIME);
        let mut ctrl = Control::new(limits, default_time, cancel, progress);
        if board.moves() == 0 {
            return SearchResult { best: Move::Pass, info: ctrl.snapshot() };
        }
        let mut max_depth = limits.depth.unwrap_or(60);
        if board.empties() > self.exact_from {
            max_depth = max_depth.min(self.depth_cap.unwrap_or(60));
        }
        let found = self.iterate(&board, max_depth, &mut ctrl);
        SearchResult { best: square_move(found.best), info: ctrl.snapshot() }
    }

    /// A new game: the table is emptied and its memory given back (the next search takes
    /// it again).
    fn clear(&mut self) {
        self.searcher.tt.release();
    }
}

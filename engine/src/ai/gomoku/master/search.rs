//! Iterative-deepening principal-variation search with aspiration windows, a transposition
//! table, killer, counter-move and history ordering, threat-aware move generation and a VCF
//! quiescence.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::board::Board;
use super::eval::evaluate;
use super::movegen::{self, Situation};
use super::pattern::p4;
use super::tt::{Bound, Hit, Tt};
use super::vcf::{Budget, Vcf};
use crate::ai::control::{self, Clock, Control, Poll};
use crate::ai::{CancelFlag, Candidate, Limits, Score, SearchInfo};
use crate::gomoku::Rule;
use crate::rng::Rng;
use crate::Move;

/// The most a move's history counts in its ordering, either way.
const HISTORY_MAX: i32 = 5_000;
/// The most quiet moves of one node whose history a cutoff lowers.
const MALUS_MOVES: usize = 24;

/// Score of a win on the board right now; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are proven wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 120;
/// Depth of the VCF run at the leaves, in plies.
const LEAF_VCF_DEPTH: i32 = 12;
/// Nodes one leaf VCF may visit.
const LEAF_VCF_NODES: u64 = 400;
/// Extra plies of threat defence the quiescence search may add. 4 against 2: accepted by an
/// SPRT (0, 10) in self-play at 100 ms a move, +16 ± 12 Elo, LLR 3.16, over 2,984 games (BENCHMARKS).
const MAX_QDEFENCE: u32 = 4;
/// The table depth of a quiet leaf's value (its VCF run): below every quiescence entry
/// (`-1 - qdef`, see `Searcher::qdefend`).
const LEAF_DEPTH: i32 = -2 - MAX_QDEFENCE as i32;
/// Futility pruning of quiet moves: at a non-PV node with at most `FUTILITY_DEPTH` plies
/// left whose static evaluation plus `FUTILITY_MARGIN` per ply stays at or below alpha, the
/// quiet moves after the first that block no threat are skipped. 3 plies against 2: SPRT
/// (0, 10) at 100 ms a move, +14 ± 11 Elo, LLR 2.98, 2,640 games; under Renju −3 ± 11 over
/// 2,188 games, undecided (docs/BENCHMARKS.md).
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_MARGIN: i32 = 150;
/// Reverse futility pruning: a node with at most `RFP_DEPTH` plies left whose static
/// evaluation exceeds beta by `RFP_MARGIN` per ply returns it. 6 plies and 120 against 3 and
/// 150: SPRT (0, 10) at 100 ms a move, +31 ± 18 Elo, LLR 2.95, 1,248 games (BENCHMARKS).
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 120;
/// Nodes with at least this many plies left and no table move lose a ply (see `pvs`). 3
/// against 4: SPRT (0, 10) at 100 ms a move, +28 ± 17 Elo, LLR 2.99, 1,458 games (BENCHMARKS).
const IIR_FROM: i32 = 3;
/// Facing an open three, the side's moves that block no four point of the opponent's (its
/// own fours elsewhere, which delay the answer) are searched `DISTRACTION_OPP` plies
/// shallower when they are more than `DISTRACTION_FAR` cells from the opponent's last move,
/// and `DISTRACTION_OWN` more when that far from the side's own last move; a fail high is
/// re-searched at full depth. Landed with the fail-high reduction below (their SPRT there).
const DISTRACTION_FAR: usize = 4;
const DISTRACTION_OPP: i32 = 2;
const DISTRACTION_OWN: i32 = 1;
/// The fail-high reduction: at an expected cut node with no threat to answer whose static
/// evaluation is at least beta plus `FAIL_HIGH_MARGIN` per ply, every move but the side's
/// fours is searched a ply shallower (the node is likely to fail high on any move). The two
/// reductions together against neither: SPRT (0, 10) at 100 ms a move, +33 ± 19 Elo, LLR
/// 2.95, 776 games; with a second run beside it pooled, +22 ± 13 over 1,662 (BENCHMARKS).
/// Neither applies under Renju, where together they measured −35 ± 22 Elo (H0, 654 games).
const FAIL_HIGH_MARGIN: i32 = 30;
/// Singular extension: from `SINGULAR_FROM` plies left, when the table's move has a lower
/// bound or exact score from at most 3 plies shallower, the other moves are searched to half
/// the depth against that score less `SINGULAR_MARGIN` a ply. If all of them fail low, the
/// table's move is searched a ply deeper; if that bound still holds beta, the node fails
/// high there (multi-cut). Under freestyle and Renju, where it gained by SPRT (BENCHMARKS);
/// not under Standard, where it has not. Tried on 588b80c's weaker search it had stood at
/// −29 ± 24. Re-tested under freestyle on the turned openings: −5 ± 12 at 100 ms a move
/// (H0), +15 ± 14 at 300 ms (undecided), so it stays.
const SINGULAR_FROM: i32 = 6;
const SINGULAR_MARGIN: i32 = 4;
/// Nodes between two looks at the clock and the cancel flag: at the 20,000-30,000 nodes per
/// second of a loaded machine, 1024 nodes let a search run 40-50 ms past its time; 256 keep
/// it within about 10 ms (a look costs one `Instant::now()`).
const POLL_INTERVAL: u64 = 256;
/// Most root candidates reported for the heat map.
pub const MAX_CANDIDATES: usize = 12;

/// How many quiet moves a node with `depth` plies left searches (threats come on top). At
/// non-PV nodes 4 to 9 (`wide`) or 3 to 8. The wider cap, by SPRT (0, 10) at 100 ms a move:
/// freestyle +15 ± 10 Elo over 3,550 games, three runs pooled (LLR 3.93); Standard +20 ± 14
/// over 1,818 games; under Renju it was −11 ± 14, H0 (1,356 games), so Renju keeps the
/// narrower one (docs/BENCHMARKS.md). A cap a move narrower still had been −17 ± 17, H0;
/// one a move wider again (5 to 10, freestyle) stopped undecided at +8 ± 9 over 3,978 games,
/// and under Renju one a move narrower (2 to 7) was −24 ± 19, H0.
#[inline]
fn move_cap(depth: i32, is_pv: bool, wide: bool) -> usize {
    if is_pv {
        (6 + depth as usize * 2).clamp(8, 20)
    } else {
        let w = usize::from(wide);
        (3 + w + depth as usize / 2).clamp(3 + w, 8 + w)
    }
}

/// Late-move reduction of the `idx`-th quiet move (0-based) at a node with `depth` plies left.
#[inline]
fn lmr(depth: i32, idx: usize) -> i32 {
    if idx == 0 || depth < 2 {
        return 0;
    }
    let r = 0.8 + (depth as f64).ln() * (idx as f64).ln() / 1.5;
    r as i32
}

/// Converts the interface's score back to a search score (the inverse of [`to_score`]).
pub fn from_score(s: Score) -> i32 {
    match s {
        Score::Win(n) => WIN - n.min(WIN as u32) as i32,
        Score::Loss(n) => -(WIN - n.min(WIN as u32) as i32),
        Score::Eval(v) | Score::Exact(v) => v,
    }
}

/// Converts a search score to the interface's score.
pub fn to_score(s: i32) -> Score {
    if s > WIN_BOUND {
        Score::Win((WIN - s).max(0) as u32)
    } else if s < -WIN_BOUND {
        Score::Loss((WIN + s).max(0) as u32)
    } else {
        Score::Eval(s)
    }
}

/// One thread's state kept between searches: VCF solver, history. (The transposition
/// table is shared by the threads, see [`super::smp`].)
pub struct Tables {
    pub vcf: Vcf,
    pub history: Vec<[i32; 2]>,
}

/// One root move and what the search thinks of it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub cell: usize,
    pub score: i32,
    /// Whether `score` comes from a search (not just the ordering).
    pub searched: bool,
}

/// How a search's iterative deepening keeps pace with the other threads' (Lazy SMP).
#[derive(Clone, Debug, Default)]
pub enum Pace {
    /// Alone: every depth in turn.
    #[default]
    Alone,
    /// The main search: says which depth it is starting.
    Leads(Arc<AtomicU32>),
    /// A helper that stays a ply ahead of the main search: after each iteration it goes on
    /// at the next depth or one past the main search's, whichever is deeper.
    Ahead(Arc<AtomicU32>),
}

/// One search.
pub struct Searcher<'a> {
    pub board: Board,
    tt: &'a Tt,
    t: &'a mut Tables,
    /// The clock, node budget, cancel flag and progress reports of this search.
    ctrl: Control<'a>,
    seldepth: usize,
    root_ply: usize,
    killers: Vec<[usize; 2]>,
    /// `counters[cell][colour]`: the quiet reply of `colour` that last refuted a move on
    /// `cell` (the counter-move heuristic), ordered after the killers. SPRT (0, 10) at 100 ms
    /// a move: +20 ± 14 Elo, 1,960 games (docs/BENCHMARKS.md).
    counters: Vec<[usize; 2]>,
    pv: Vec<Vec<usize>>,
    move_stack: Vec<Vec<(usize, i32)>>,
    /// What the last completed iteration found.
    pub info: SearchInfo,
    /// The best root move, its score and line at the end of the last completed iteration.
    pub completed: Option<(usize, i32, Vec<usize>)>,
    /// How its depths keep pace with the other threads'.
    pub pace: Pace,
    pub root: Vec<RootMove>,
    /// The best root move so far, with its score and line.
    pub best: Option<(usize, i32, Vec<usize>)>,
    depth: u32,
    /// Whether the move into this ply was a null move.
    after_null: Vec<bool>,
    /// The move a singular-extension search at this ply leaves out (`usize::MAX`: none).
    excluded: Vec<usize>,
    /// The highest beta of the root's window (`None`: no limit). Multi-PV's later lines
    /// set it just above line 1's score: a move that would score higher fails high there and
    /// is reported as a bound (see `Master::best_moves`).
    pub ceiling: Option<i32>,
}

impl<'a> Searcher<'a> {
    /// The search of the thread that reports (thread 0), on the clock of `limits`. The
    /// caller has started the table's new search ([`Tt::new_search`]).
    pub fn new(
        board: Board,
        start: Instant,
        tt: &'a Tt,
        t: &'a mut Tables,
        limits: &'a Limits,
        cancel: &'a CancelFlag,
        progress: &'a mut dyn FnMut(&SearchInfo),
    ) -> Searcher<'a> {
        let ctrl = Control::new(limits, cancel, progress).started_at(start);
        Searcher::with_control(board, tt, t, ctrl)
    }

    /// A search under `ctrl` (a helper thread's: no clock, stopped by its flag).
    pub fn with_control(
        board: Board,
        tt: &'a Tt,
        t: &'a mut Tables,
        ctrl: Control<'a>,
    ) -> Searcher<'a> {
        let root_ply = board.ply();
        let counters = vec![[usize::MAX; 2]; board.index_end()];
        for h in t.history.iter_mut() {
            *h = [h[0] / 4, h[1] / 4];
        }
        Searcher {
            board,
            tt,
            t,
            ctrl: ctrl.check_every(POLL_INTERVAL),
            seldepth: 0,
            root_ply,
            killers: vec![[usize::MAX; 2]; MAX_PLY + 1],
            counters,
            pv: vec![Vec::new(); MAX_PLY + 2],
            move_stack: vec![Vec::new(); MAX_PLY + 2],
            info: SearchInfo::default(),
            completed: None,
            pace: Pace::Alone,
            root: Vec::new(),
            best: None,
            depth: 0,
            after_null: vec![false; MAX_PLY + 2],
            excluded: vec![usize::MAX; MAX_PLY + 2],
            ceiling: None,
        }
    }

    /// Runs the VCF solver on the root position; the winning line if there is one.
    pub fn root_vcf(&mut self, depth: i32, budget: &mut Budget) -> Option<Vec<usize>> {
        let win = self.t.vcf.solve(&mut self.board, depth, budget);
        self.ctrl.add_nodes(budget.nodes);
        win.then(|| self.t.vcf.line.clone())
    }

    /// The board and the VCF solver together (for the root threat solvers).
    pub fn board_and_vcf(&mut self) -> (&mut Board, &mut Vcf) {
        (&mut self.board, &mut self.t.vcf)
    }

    pub fn clock(&self) -> &Clock {
        self.ctrl.clock()
    }

    pub fn clock_mut(&mut self) -> &mut Clock {
        self.ctrl.clock_mut()
    }

    #[inline]
    pub fn stopped(&self) -> bool {
        self.ctrl.stopped()
    }

    /// Nodes visited so far (the search's and those added).
    pub fn nodes(&self) -> u64 {
        self.ctrl.nodes()
    }

    /// Adds `n` nodes visited by a solver outside the search proper.
    pub fn add_nodes(&mut self, n: u64) {
        self.ctrl.add_nodes(n);
    }

    /// Counts a node and sends a progress report when one is due; true when the caller's
    /// cancel flag, clock or node limit says stop.
    #[inline]
    fn tick(&mut self) -> bool {
        match self.ctrl.poll() {
            Poll::Go => false,
            Poll::Stop => true,
            Poll::Report => {
                let info = self.current_info();
                self.ctrl.send(&info);
                false
            }
        }
    }

    /// Reports `info` to the caller now.
    pub fn report(&mut self, info: &SearchInfo) {
        self.ctrl.send(info);
    }

    /// The search's knowledge right now (for progress reports).
    pub fn current_info(&self) -> SearchInfo {
        let mut info = self.info.clone();
        self.ctrl.stamp(&mut info);
        info.seldepth = info.seldepth.max(self.seldepth as u32);
        if let Some((cell, score, line)) = &self.best {
            if info.pv.first() != Some(&Move::Place(self.board.point(*cell))) {
                info.pv = line.iter().map(|&c| Move::Place(self.board.point(c))).collect();
                info.score = to_score(*score);
            }
        }
        info
    }

    fn mark_seldepth(&mut self, ply: usize) {
        if ply > self.seldepth {
            self.seldepth = ply;
        }
    }

    /// Runs iterative deepening over `self.root` (already ordered, non-empty).
    pub fn iterate(&mut self, max_depth: u32) {
        self.iterate_from(1, max_depth);
    }

    /// Iterative deepening from `first` plies (a helper thread's staggered start).
    pub fn iterate_from(&mut self, first: u32, max_depth: u32) {
        let mut prev: i32 = 0;
        // Times of the last two completed iterations, newest first.
        let mut took = [Duration::ZERO; 2];
        let mut stability = control::Stability::default();
        let mut depth = first;
        loop {
            match &self.pace {
                Pace::Alone => {}
                Pace::Leads(at) => at.store(depth, Ordering::Relaxed),
                Pace::Ahead(at) => depth = depth.max(at.load(Ordering::Relaxed) + 1),
            }
            if depth > max_depth {
                break;
            }
            let started = self.ctrl.elapsed();
            self.depth = depth;
            let mut delta = 40;
            // The root's window never goes above the ceiling (INF without one).
            let top = self.ceiling.map_or(INF, |c| c.clamp(-INF + 1, INF));
            let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < WIN_BOUND {
                (prev - delta, prev + delta)
            } else {
                (-INF, INF)
            };
            beta = beta.min(top);
            if alpha >= beta {
                alpha = (beta - delta).max(-INF);
            }
            let score = loop {
                let s = self.root_search(depth as i32, alpha, beta);
                if self.ctrl.stopped() {
                    break s;
                }
                if s <= alpha && alpha > -INF {
                    alpha = if delta > 400 { -INF } else { (s - delta).max(-INF) };
                    delta *= 3;
                } else if s >= beta && beta < top {
                    beta = if delta > 400 { top } else { (s + delta).min(top) };
                    delta *= 3;
                } else {
                    break s;
                }
            };
            if self.ctrl.stopped() {
                break;
            }
            prev = score;
            self.finish_iteration(depth, score);
            let info = self.current_info();
            self.report(&info);
            if score.abs() > WIN_BOUND && (WIN - score.abs()) as u32 <= depth {
                break;
            }
            took = [self.ctrl.elapsed().saturating_sub(started), took[0]];
            let scale = self.best.as_ref().map_or(1.0, |b| stability.update(depth, b.0, score));
            let predicted = Some(control::predict_next(took[0], took[1]));
            if !self.ctrl.clock().can_start_iteration_scaled(predicted, scale) {
                break;
            }
            depth += 1;
        }
    }

    /// Takes a helper's answer from a deeper completed iteration (`depth` plies) as this
    /// search's: its move first among the root moves, its score and line reported.
    pub fn adopt(&mut self, depth: u32, best: (usize, i32, Vec<usize>)) {
        if let Some(r) = self.root.iter_mut().find(|r| r.cell == best.0) {
            r.score = best.1;
            r.searched = true;
        }
        self.best = Some(best);
        self.finish_iteration(depth, self.best.as_ref().map_or(0, |b| b.1));
    }

    fn finish_iteration(&mut self, depth: u32, score: i32) {
        // Best first; the others by their (bound) scores, ties keeping the earlier order.
        if let Some((cell, _, _)) = &self.best {
            if let Some(pos) = self.root.iter().position(|r| r.cell == *cell) {
                let r = self.root.remove(pos);
                self.root.insert(0, r);
            }
        }
        let first = self.root.remove(0);
        self.root.sort_by_key(|r| std::cmp::Reverse(r.score));
        self.root.insert(0, first);
        self.completed = self.best.clone();
        let line = self.best.as_ref().map(|b| b.2.clone()).unwrap_or_default();
        self.info.depth = depth;
        self.info.seldepth = self.seldepth as u32;
        self.info.score = to_score(score);
        self.info.pv = line.iter().map(|&c| Move::Place(self.board.point(c))).collect();
        self.info.candidates = self.candidates();
    }

    /// The top root moves with their scores, best first.
    pub fn candidates(&self) -> Vec<Candidate> {
        self.root
            .iter()
            .filter(|r| r.searched)
            .take(MAX_CANDIDATES)
            .map(|r| Candidate {
                mv: Move::Place(self.board.point(r.cell)),
                score: to_score(r.score),
            })
            .collect()
    }

    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INF;
        for idx in 0..self.root.len() {
            let m = self.root[idx].cell;
            self.board.make(m);
            self.ctrl.add_nodes(1);
            let s = if idx == 0 {
                -self.pvs(depth - 1, -beta, -alpha, 1, true, false)
            } else {
                let s = -self.pvs(depth - 1, -alpha - 1, -alpha, 1, false, true);
                // A fail high is confirmed by a full-window search even above beta: the
                // null-window tree (tight move caps, reductions) can overrate a quiet move,
                // and an unconfirmed fail high would become the move played if time ran out
                // during the aspiration re-search.
                if s > alpha && !self.ctrl.stopped() {
                    -self.pvs(depth - 1, -beta, -alpha, 1, true, false)
                } else {
                    s
                }
            };
            self.board.unmake();
            if self.ctrl.stopped() {
                break;
            }
            self.root[idx].score = s;
            self.root[idx].searched = true;
            if s > best {
                best = s;
            }
            if s > alpha || (idx == 0 && self.best.is_none()) {
                let mut line = vec![m];
                line.extend_from_slice(&self.pv[1]);
                self.best = Some((m, s, line));
                if s > alpha {
                    alpha = s;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Principal variation search of the node at `ply`. `cut_node`: a null-window node expected
    /// to fail high (the child of a reduced search, or every other ply below one); its late
    /// quiet moves are reduced a ply more (SPRT (0, 10) at 100 ms a move: see
    /// docs/BENCHMARKS.md).
    fn pvs(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        is_pv: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.mark_seldepth(ply);
        if ply >= MAX_PLY {
            return evaluate(&self.board);
        }
        let me = self.board.side();
        let forced = self.board.has_five(me ^ 1);
        let threatened = forced || self.board.has_flex4(me ^ 1);
        // A quiet frontier node goes straight to the quiescence search: with no five point
        // and no open-four point on the board, nothing is decided on the spot (the cases of
        // `movegen::generate` that return a win or a loss), so its moves need not be made.
        if depth <= 0 && !threatened && !self.board.has_five(me) && !self.board.has_flex4(me) {
            let b = &self.board;
            if b.ply() < b.size() * b.size() {
                return self.qsearch(alpha, beta, ply, 0);
            }
        }
        let mut moves = std::mem::take(&mut self.move_stack[ply]);
        let situation = movegen::generate(&mut self.board, &mut moves);
        match situation {
            Situation::Win(n) => {
                self.move_stack[ply] = moves;
                return WIN - (ply as i32 + n as i32);
            }
            Situation::Loss(n) => {
                self.move_stack[ply] = moves;
                return -(WIN - (ply as i32 + n as i32));
            }
            Situation::Moves => {}
        }
        if moves.is_empty() {
            self.move_stack[ply] = moves;
            return 0;
        }
        if depth <= 0 && !forced {
            self.move_stack[ply] = moves;
            return self.qsearch(alpha, beta, ply, 0);
        }

        let key = self.board.hash();
        let hit = self.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv);
        // The table's score seen from this ply, with its bound.
        let tt_score = hit.map(|h| (score_from_tt(h.score, ply), h.bound));
        // A singular-extension search of this node: no cutoff, pruning or store of its own.
        let excluded = self.excluded[ply];
        let singular_search = excluded != usize::MAX;
        if !is_pv && !singular_search {
            if let Some(s) = tt_cutoff(hit, depth, ply, alpha, beta) {
                self.move_stack[ply] = moves;
                return s;
            }
        }

        // Internal iterative reduction: a node the table has no move for is searched a ply
        // less deep (its move order is a guess; the next iteration comes back with one).
        if tt_move.is_none() && depth >= IIR_FROM && !threatened {
            depth -= 1;
        }

        // The static evaluation, computed at most once here (the network makes it dear).
        let mut static_eval = None;
        let mut fail_high = false;
        let rule = self.board.rule();
        // The fail-high and distraction reductions (not under Renju: see `FAIL_HIGH_MARGIN`).
        let reduce_more = rule != Rule::Renju;
        if !is_pv && !threatened && !singular_search && beta.abs() < WIN_BOUND {
            let raw = *static_eval.insert(evaluate(&self.board));
            let stand = refine_eval(raw, tt_score);
            fail_high = reduce_more && cut_node && stand >= beta + FAIL_HIGH_MARGIN * depth;
            // Reverse futility: far above beta with few plies left and no threat to answer.
            if depth <= RFP_DEPTH && stand - RFP_MARGIN * depth >= beta {
                self.move_stack[ply] = moves;
                return stand;
            }
            // Null move: a stone never hurts in Gomoku, so if passing still holds beta, the
            // real moves will too.
            // Not when the opponent can make a four: a pass hands it the move, and a
            // continuous-four attack (VCF) can start from any four, deeper than the reduced
            // null-move search sees. Measured: Master vs fivetuple went from 92.5% / 87.5%
            // to 97.5% / 97.5% (40 games each); depth-10 bench nodes 930,292 -> 916,292.
            if depth >= 2
                && stand >= beta
                && !self.after_null[ply]
                && !self.board.has_four_move(me ^ 1)
            {
                let r = 3 + depth / 4;
                self.board.pass();
                self.after_null[ply + 1] = true;
                let s = -self.pvs(depth - 1 - r, -beta, -beta + 1, ply + 1, false, !cut_node);
                self.after_null[ply + 1] = false;
                self.board.pass();
                if self.ctrl.stopped() {
                    self.move_stack[ply] = moves;
                    return 0;
                }
                if s >= beta && s < WIN_BOUND {
                    self.move_stack[ply] = moves;
                    return s;
                }
            }
        }

        let mut extend_tt = false;
        if let (Some(h), Some(tm), Some((tt_value, bound))) = (hit, tt_move, tt_score) {
            if rule != Rule::Standard
                && !singular_search
                && depth >= SINGULAR_FROM
                && ply < 2 * self.depth as usize
                && h.depth >= depth - 3
                && matches!(bound, Bound::Lower | Bound::Exact)
                && tt_value.abs() < WIN_BOUND
            {
                let singular_beta = tt_value - SINGULAR_MARGIN * depth;
                self.excluded[ply] = tm;
                let v = self.pvs(
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    false,
                    cut_node,
                );
                self.excluded[ply] = usize::MAX;
                self.pv[ply].clear();
                if self.ctrl.stopped() {
                    self.move_stack[ply] = moves;
                    return 0;
                }
                if v < singular_beta {
                    extend_tt = true;
                } else if singular_beta >= beta {
                    self.move_stack[ply] = moves;
                    return singular_beta;
                }
            }
        }

        let killers = self.killers[ply];
        // The move that led here (none after a null move).
        let prev = if self.after_null[ply] { None } else { self.board.last_move() };
        let counter = prev.map_or(usize::MAX, |p| self.counters[p][me]);
        for (m, s) in moves.iter_mut() {
            if Some(*m) == tt_move {
                *s = i32::MAX;
            } else {
                if *m == killers[0] || *m == killers[1] {
                    *s += 6_000;
                } else if *m == counter {
                    *s += 5_000;
                }
                *s += self.t.history[*m][me].min(HISTORY_MAX);
            }
        }
        movegen::sort(&mut moves);
        // Only the best few quiet moves by pattern value; threats are always searched, and so
        // is everything when all the moves tried so far lose.
        let wide = rule != Rule::Renju;
        let cap = if threatened { usize::MAX } else { move_cap(depth, is_pv, wide) };
        let futile = !is_pv
            && !threatened
            && depth <= FUTILITY_DEPTH
            && alpha.abs() < WIN_BOUND
            && static_eval.unwrap_or_else(|| evaluate(&self.board)) + FUTILITY_MARGIN * depth
                <= alpha;

        let new_depth = if forced { depth } else { depth - 1 };
        let old_alpha = alpha;
        // Facing an open three: the opponent's last move and the side's own before it.
        let last_two = if reduce_more && threatened && !forced {
            match self.board.history() {
                [.., own, opp] => Some((*opp, *own)),
                _ => None,
            }
        } else {
            None
        };
        let mut best = -INF;
        let mut best_move = None;
        // The quiet moves searched here that did not raise alpha: a quiet cutoff lowers
        // their history (the history malus).
        let mut failed = [0usize; MALUS_MOVES];
        let mut n_failed = 0;
        for idx in 0..moves.len() {
            let (m, _) = moves[idx];
            if m == excluded {
                continue;
            }
            let attack = self.board.class(m, me);
            let block = self.board.class(m, me ^ 1);
            let quiet = !p4::is_threat(attack) && Some(m) != tt_move;
            // A lone four or a lone open three: searched, but may be reduced when late.
            let lone = attack == p4::E_BLOCK4 || attack == p4::H_FLEX3;
            // The fail-high reduction spares the side's fours (it may be 0 plies then); a
            // singular table move is searched a ply deeper.
            let new_depth = new_depth - i32::from(fail_high && !p4::is_four(attack))
                + i32::from(extend_tt && Some(m) == tt_move);
            if idx > 0 && quiet && best > -WIN_BOUND {
                if idx >= cap {
                    continue;
                }
                // Futility: a quiet move cannot lift a hopeless frontier node above alpha.
                if futile && !p4::is_threat(block) {
                    continue;
                }
            }
            self.board.make(m);
            let s = if idx == 0 {
                -self.pvs(new_depth, -beta, -alpha, ply + 1, is_pv, !is_pv && !cut_node)
            } else {
                let r = if let Some((opp, own)) = last_two.filter(|_| depth >= 2) {
                    // Facing an open three: a move on no four point of the opponent's is a
                    // distraction, the farther from the last two moves the more.
                    if block == p4::FORBID || block > p4::E_BLOCK4 {
                        let far = |c| self.board.distance(m, c) > DISTRACTION_FAR;
                        let r = DISTRACTION_OPP * i32::from(far(opp))
                            + DISTRACTION_OWN * i32::from(far(own));
                        r.min(new_depth - 1)
                    } else {
                        0
                    }
                } else if !threatened && (quiet || lone) && depth >= 2 {
                    let mut r = lmr(depth, idx);
                    if is_pv || lone {
                        r -= 1;
                    }
                    if p4::is_threat(block) || m == killers[0] || m == killers[1] {
                        r -= 1;
                    }
                    if cut_node && quiet {
                        r += 1;
                    }
                    r.min(new_depth - 1).max(0)
                } else {
                    0
                };
                // A reduced search expects its move to fail low, so the child is a cut node.
                let mut s = -self.pvs(
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    r > 0 || !cut_node,
                );
                if s > alpha && r > 0 && !self.ctrl.stopped() {
                    s = -self.pvs(new_depth, -alpha - 1, -alpha, ply + 1, false, !cut_node);
                }
                if s > alpha && s < beta && is_pv && !self.ctrl.stopped() {
                    s = -self.pvs(new_depth, -beta, -alpha, ply + 1, true, false);
                }
                s
            };
            self.board.unmake();
            if self.ctrl.stopped() {
                self.move_stack[ply] = moves;
                return 0;
            }
            if quiet && s <= alpha && n_failed < MALUS_MOVES {
                failed[n_failed] = m;
                n_failed += 1;
            }
            if s > best {
                best = s;
                if s > alpha {
                    best_move = Some(m);
                    alpha = s;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        if quiet {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            if let Some(p) = prev {
                                self.counters[p][me] = m;
                            }
                            self.t.history[m][me] += depth * depth;
                            for &q in &failed[..n_failed] {
                                let h = &mut self.t.history[q][me];
                                *h = (*h - depth * depth).max(-HISTORY_MAX);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.move_stack[ply] = moves;
        if singular_search {
            return best;
        }
        let bound = bound_of(best, old_alpha, beta);
        self.tt.store(key, score_to_tt(best, ply), best_move, depth, bound);
        best
    }

    /// Leaf search: forced blocks, a little threat defence, then the evaluation or a VCF win.
    fn qsearch(&mut self, alpha: i32, beta: i32, ply: usize, qdef: u32) -> i32 {
        if self.tick() {
            return 0;
        }
        self.mark_seldepth(ply);
        if ply >= MAX_PLY {
            return evaluate(&self.board);
        }
        let me = self.board.side();
        let opp = me ^ 1;
        if self.board.has_five(me) {
            return WIN - (ply as i32 + 1);
        }
        if self.board.has_five(opp) || self.board.has_flex4(me) || self.board.has_flex4(opp) {
            if self.board.has_five(opp) || self.board.has_flex4(me) || qdef < MAX_QDEFENCE {
                return self.qdefend(alpha, beta, ply, qdef);
            }
            return evaluate(&self.board);
        }
        let stand = evaluate(&self.board);
        if stand >= beta {
            // Still a VCF could only make it better; a cut is a cut.
            return stand;
        }
        if !self.board.has_four_move(me) {
            return stand;
        }
        // A VCF that runs out of nodes leaves nothing in the VCF cache, and the same leaf
        // comes back by other move orders: the table keeps the leaf's value, at the lowest
        // depth of all.
        let key = self.board.hash();
        let hit = self.tt.probe(key);
        if let Some(s) = tt_cutoff(hit, LEAF_DEPTH, ply, alpha, beta) {
            return s;
        }
        let mut budget = Budget::new(LEAF_VCF_NODES);
        let win = self.t.vcf.solve(&mut self.board, LEAF_VCF_DEPTH, &mut budget);
        self.ctrl.add_nodes(budget.nodes);
        let value = if win {
            let n = self.t.vcf.line.len() as i32;
            self.mark_seldepth(ply + n as usize);
            WIN - (ply as i32 + n)
        } else {
            stand
        };
        self.store_quiescence(key, hit, score_to_tt(value, ply), None, LEAF_DEPTH, Bound::Exact);
        value
    }

    /// The quiescence search's forced part: the block of a four, or, facing an open three
    /// (at most [`MAX_QDEFENCE`] times on a line), the defences and the side's own fours.
    /// Facing an open three, the table keeps the result at depth `-1 - qdef` (an entry with
    /// more defence plies left serves a node with fewer): the same fours played in another
    /// order reach the same position, and in a position full of fours the orders multiply.
    fn qdefend(&mut self, mut alpha: i32, beta: i32, ply: usize, qdef: u32) -> i32 {
        let opp = self.board.side() ^ 1;
        // Facing a five there is one move, not worth a table entry.
        let use_tt = !self.board.has_five(opp);
        let depth = -1 - qdef as i32;
        let key = self.board.hash();
        let hit = if use_tt { self.tt.probe(key) } else { None };
        if let Some(s) = tt_cutoff(hit, depth, ply, alpha, beta) {
            return s;
        }
        let mut moves = std::mem::take(&mut self.move_stack[ply]);
        let situation = movegen::generate(&mut self.board, &mut moves);
        let result = match situation {
            Situation::Win(n) => WIN - (ply as i32 + n as i32),
            Situation::Loss(n) => -(WIN - (ply as i32 + n as i32)),
            Situation::Moves => {
                // Blocking a five is no defence ply: only an open three's answers count.
                let extra = u32::from(use_tt);
                if let Some(t) = hit.and_then(|h| h.mv) {
                    if let Some(e) = moves.iter_mut().find(|(m, _)| *m == t) {
                        e.1 = i32::MAX;
                    }
                }
                movegen::sort(&mut moves);
                let old_alpha = alpha;
                let mut best = -INF;
                let mut best_move = None;
                for &(m, _) in moves.iter() {
                    self.board.make(m);
                    let s = -self.qsearch(-beta, -alpha, ply + 1, qdef + extra);
                    self.board.unmake();
                    if self.ctrl.stopped() {
                        break;
                    }
                    if s > best {
                        best = s;
                        if s > alpha {
                            alpha = s;
                            best_move = Some(m);
                            if alpha >= beta {
                                break;
                            }
                        }
                    }
                }
                if best == -INF {
                    evaluate(&self.board)
                } else {
                    if use_tt {
                        let bound = bound_of(best, old_alpha, beta);
                        self.store_quiescence(
                            key,
                            hit,
                            score_to_tt(best, ply),
                            best_move,
                            depth,
                            bound,
                        );
                    }
                    best
                }
            }
        };
        self.move_stack[ply] = moves;
        result
    }

    /// Stores a quiescence result (`score` as the table keeps it; `hit`: what the probe of
    /// `key` found) unless the search was stopped or the table holds a deeper result there,
    /// which serves more nodes.
    fn store_quiescence(
        &self,
        key: u64,
        hit: Option<Hit>,
        score: i32,
        mv: Option<usize>,
        depth: i32,
        bound: Bound,
    ) {
        if !self.ctrl.stopped() && hit.is_none_or(|h| h.depth <= depth) {
            self.tt.store(key, score, mv, depth, bound);
        }
    }

    /// The total number of plies the board has seen since the root.
    pub fn root_ply(&self) -> usize {
        self.root_ply
    }

    /// Orders root moves: `moves` with ordering scores, plus a little seeded jitter.
    pub fn set_root(&mut self, moves: &[(usize, i32)], rng: &mut Rng) {
        let mut scored: Vec<(usize, i32)> =
            moves.iter().map(|&(m, s)| (m, s.saturating_add(rng.below(64) as i32))).collect();
        if let Some(h) = self.tt.probe(self.board.hash()) {
            if let Some(m) = h.mv {
                for e in scored.iter_mut() {
                    if e.0 == m {
                        e.1 = i32::MAX;
                    }
                }
            }
        }
        movegen::sort(&mut scored);
        self.root = scored
            .into_iter()
            .map(|(cell, score)| RootMove { cell, score: score.min(WIN_BOUND), searched: false })
            .collect();
    }
}

/// The static evaluation `stand`, or the table's score of the node when its bound says the
/// truth lies beyond the evaluation on that side (a lower bound above it, an upper bound below
/// it, or an exact score). Proven wins and losses are left to the table's own cut. The pruning
/// decisions that follow (reverse futility, null move) read this estimate. SPRT (0, 10) at 100 ms
/// a move: see docs/BENCHMARKS.md.
fn refine_eval(stand: i32, tt: Option<(i32, Bound)>) -> i32 {
    match tt {
        Some((s, bound)) if s.abs() < WIN_BOUND => match bound {
            Bound::Exact => s,
            Bound::Lower if s > stand => s,
            Bound::Upper if s < stand => s,
            _ => stand,
        },
        _ => stand,
    }
}

/// The bound a fail-soft search's `best` puts on a node searched with the window
/// (`alpha`, `beta`).
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The table's score for a node `ply` plies from the root with `depth` plies left and the
/// window (`alpha`, `beta`), if its entry is deep enough and its bound settles the window.
fn tt_cutoff(hit: Option<Hit>, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let h = hit.filter(|h| h.depth >= depth)?;
    let s = score_from_tt(h.score, ply);
    let cut = match h.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    };
    cut.then_some(s)
}

fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s > WIN_BOUND {
        s + ply as i32
    } else if s < -WIN_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s > WIN_BOUND {
        s - ply as i32
    } else if s < -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Whether a move of this class for the mover is a forcing move.
pub fn is_forcing(class: u8) -> bool {
    p4::is_threat(class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_refines_the_evaluation_only_on_the_side_its_bound_allows() {
        // No entry, or an entry without a bound: the evaluation.
        assert_eq!(refine_eval(50, None), 50);
        assert_eq!(refine_eval(50, Some((300, Bound::None))), 50);
        // An exact score replaces it either way.
        assert_eq!(refine_eval(50, Some((-20, Bound::Exact))), -20);
        // A lower bound counts only above it, an upper bound only below it.
        assert_eq!(refine_eval(50, Some((120, Bound::Lower))), 120);
        assert_eq!(refine_eval(50, Some((10, Bound::Lower))), 50);
        assert_eq!(refine_eval(50, Some((10, Bound::Upper))), 10);
        assert_eq!(refine_eval(50, Some((120, Bound::Upper))), 50);
        // Proven results are never taken as an evaluation.
        assert_eq!(refine_eval(50, Some((WIN - 7, Bound::Exact))), 50);
        assert_eq!(refine_eval(50, Some((-(WIN - 7), Bound::Upper))), 50);
    }
}

//! Level 4, "master": the strong level's midgame search without its depth cap and with
//! ProbCut, plus the exact endgame solver
//! ([`super::endgame`]) from [`solve_from`] empties (21 at one second a move, 19 at 100 ms):
//! first a win/loss/draw solve, then,
//! with time left, the exact margin. The solver runs on a helper thread while this thread
//! watches the clock and the cancel flag and sends progress; when the solve does not finish
//! in time, the midgame search's move is played.

use std::time::Duration;

use super::board::{square_move, square_of, squares, Board};
use super::endgame::{RawSolve, Solver};
use super::eval::PatternEval;
use super::search::{multi_start, search_start, PvsEngine};
use crate::ai::control::Control;
use crate::ai::{
    Bound, CancelFlag, Candidate, Engine, Limits, PvLine, Score, SearchInfo, SearchResult,
};
use crate::reversi::Position;
use crate::Move;

/// Empties from which the endgame is solved when the move has no time limit, and the end of a
/// game clock's horizon ([`moves_to_go`]).
pub const SOLVE_FROM: u32 = 20;

/// Empties from which a solve is tried with `budget` for the move (none: no time limit): 21
/// at one second and one empty fewer for each 2.5 times less time, about what a solve of
/// one empty fewer saves ([`SOLVE_SLOPE`]), between 14 and 26: 19 at 100 ms, 16 at 10 ms.
pub fn solve_from(budget: Option<Duration>) -> u32 {
    match budget {
        None => SOLVE_FROM,
        Some(b) => {
            let ms = b.as_millis().max(1) as f64;
            let from = SOLVE_AT_ONE_SECOND + SOLVE_SLOPE * (ms / 1000.0).log2();
            from.floor().clamp(14.0, 26.0) as u32
        }
    }
}

/// [`solve_from`] at one second before rounding down; the fraction keeps 19 for the 95 ms a
/// time per move of 100 ms leaves after its margin.
const SOLVE_AT_ONE_SECOND: f64 = 21.6;

/// Empties [`solve_from`] gains for each doubling of the time. Over 40 positions of each count
/// of empties from games of Strong at 20 ms a move, one thread, `tengen solve --wld`'s median
/// time grew 5 to 7.5 times for each two empties more (23 ms at 20 empties, 118 at 22, 880 at
/// 24): one empty for every 2.2 to 2.7 times the time.
const SOLVE_SLOPE: f64 = 0.75;

/// Moves the side to move pays for on its game clock from a position with `empties` empty
/// squares: its moves down to [`SOLVE_FROM`] empties, plus [`ENDGAME_SHARES`] for the
/// solves after them. Without that reserve each move before the solve could take half of
/// what was left, and the last solves, on a clock halved move after move, lost on time.
pub fn moves_to_go(empties: u32) -> u32 {
    empties.saturating_sub(SOLVE_FROM) / 2 + 1 + ENDGAME_SHARES
}

/// Shares of the game clock kept for the solves of the last [`SOLVE_FROM`] empties: with
/// three shares left at 20 empties, the solver may spend a third of what is left on a move.
const ENDGAME_SHARES: u32 = 2;

/// The limits with the game's horizon: [`moves_to_go`] from `pos` unless the caller set it.
/// A game clock shared this way goes to the midgame rather than the opening. On a 10 s clock
/// (`tengen arena --game reversi --match-time 10000`), a twelfth of the time left spent
/// 0.80 and 0.77 s on Master's first two moves and 7.7 s in all (one game); with the
/// horizon two games spent 8.5 and 8.1 s, 0.25 to 0.95 s a move, the most at 20 empties.
fn with_horizon(limits: &Limits, pos: &Position) -> Limits {
    let mut l = limits.clone();
    if l.moves_to_go.is_none() {
        l.moves_to_go = Some(moves_to_go(pos.empties()));
    }
    l
}

/// Depth of the midgame search run first, as the fallback, in solvable positions.
const FALLBACK_DEPTH: u32 = 6;

/// The master level.
pub struct Master {
    strong: PvsEngine<PatternEval>,
    solver: Solver,
}

impl Master {
    /// A master player; `seed` varies the choice among equally good midgame moves.
    pub fn new(seed: u64) -> Master {
        Master { strong: midgame(seed), solver: Solver::with_tt_bits(20) }
    }

    /// A master player whose midgame table and endgame table have `2^bits` entries each
    /// (32 bytes an entry; [`Master::new`]: 20, 32 MiB each).
    pub fn with_table_bits(seed: u64, bits: u32) -> Master {
        let mut strong = midgame(seed);
        strong.set_table_bits(bits);
        Master { strong, solver: Solver::with_tt_bits(bits) }
    }
}

/// The midgame search: the strong level's, with ProbCut ([`super::search::probcut`]; SPRT
/// in docs/BENCHMARKS.md, "Reversi move times").
fn midgame(seed: u64) -> PvsEngine<PatternEval> {
    let mut e = PvsEngine::new(PatternEval::new(), seed);
    e.searcher.probcut = true;
    e
}

/// How a solve ended.
enum Solved {
    Done(RawSolve),
    OutOfTime,
}

/// Runs `solver` on `b` within (`alpha`, `beta`) on a helper thread until it finishes, the
/// deadline passes or `cancel` is raised; sends progress meanwhile.
fn solve_in_time(
    solver: &mut Solver,
    b: &Board,
    alpha: i32,
    beta: i32,
    ctrl: &mut Control,
) -> Solved {
    let stop = CancelFlag::new();
    let result = std::thread::scope(|s| {
        let stop2 = stop.clone();
        let handle = s.spawn(move || solver.solve_bits(b.p, b.o, alpha, beta, &stop2));
        ctrl.watch(|| handle.is_finished(), &stop);
        handle.join().ok().flatten()
    });
    match result {
        Some(r) if !stop.is_cancelled() => {
            ctrl.add_nodes(r.nodes);
            Solved::Done(r)
        }
        _ => Solved::OutOfTime,
    }
}

/// The exact final margins of the `n` best moves of `b` (which has a legal move), best
/// first, each with its solved line. The lines' moves (`first`) are solved first, then the
/// others; a move is solved with the window (t, 65) where t is the n-th best margin proven
/// so far, so a move that cannot enter the n best fails low and costs a null-window proof
/// only. `None` when the time runs out or the search is cancelled.
fn solve_best(
    solver: &mut Solver,
    b: &Board,
    first: &[Move],
    n: usize,
    ctrl: &mut Control,
) -> Option<Vec<PvLine>> {
    let mut order: Vec<u8> = first.iter().filter_map(|&m| square_of(m)).collect();
    let lines = order.iter().fold(0u64, |m, &s| m | 1 << s);
    order.extend(squares(b.moves() & !lines));
    let empties = b.empties();
    let mut top: Vec<(i32, Vec<u8>)> = Vec::with_capacity(n + 1);
    for sq in order {
        let t = if top.len() < n { -65 } else { top[n - 1].0 };
        let child = b.play(sq);
        // The move's margin `v` for the side to move, exact when above `t`.
        let (v, line) = if child.moves() == 0 && child.opponent_moves() == 0 {
            (-child.final_diff(), Vec::new())
        } else if child.moves() == 0 {
            match solve_in_time(solver, &child.pass(), t, 65, ctrl) {
                Solved::Done(r) => (r.score, r.pv),
                Solved::OutOfTime => return None,
            }
        } else {
            match solve_in_time(solver, &child, -65, -t, ctrl) {
                Solved::Done(r) => (-r.score, r.pv),
                Solved::OutOfTime => return None,
            }
        };
        if v > t {
            let mut pv = vec![sq];
            pv.extend(line.into_iter().filter(|&s| s < 64));
            let at = top.iter().position(|e| e.0 < v).unwrap_or(top.len());
            top.insert(at, (v, pv));
            top.truncate(n);
        }
    }
    Some(
        top.into_iter()
            .map(|(v, pv)| PvLine {
                mv: square_move(pv[0]),
                score: Score::Exact(v),
                bound: Bound::Exact,
                depth: empties,
                seldepth: empties,
                pv: pv.into_iter().map(square_move).collect(),
            })
            .collect(),
    )
}

/// Whether a position with `empties` empty squares is left to the midgame search: the
/// solver is out of reach in the time budget, or a depth or node limit is to be honoured (a
/// solve is only tried when the depth limit covers the remaining empties anyway).
fn midgame_only(empties: u32, limits: &Limits, budget: Option<Duration>) -> bool {
    let limited = limits.nodes.is_some() || limits.depth.is_some_and(|d| d < empties);
    empties > solve_from(budget) || limited
}

impl Engine<Position> for Master {
    /// Multi-PV: the midgame search's lines ([`PvsEngine::iterate_multi`]); in a position
    /// the solver takes on, the exact margins of the `n` best moves ([`solve_best`]) when
    /// they are proven in time, else the midgame lines.
    fn search_multi(
        &mut self,
        pos: &Position,
        limits: &Limits,
        n: usize,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<PvLine> {
        let limits = &with_horizon(limits, pos);
        let (board, mut ctrl) = match multi_start(pos, limits, cancel, progress) {
            Ok(start) => start,
            Err(pass) => return pass,
        };
        let n = n.max(1);
        let empties = board.empties();
        let max_depth = limits.depth.unwrap_or(60);
        if midgame_only(empties, limits, ctrl.budget()) {
            return self.strong.iterate_multi(&board, max_depth, n, &mut ctrl);
        }
        let lines = self.strong.iterate_multi(&board, max_depth.min(FALLBACK_DEPTH), n, &mut ctrl);
        let exact = lines.iter().all(|l| matches!(l.score, Score::Exact(_)));
        if exact || ctrl.stopped() {
            return lines;
        }
        let first: Vec<Move> = lines.iter().map(|l| l.mv).collect();
        match solve_best(&mut self.solver, &board, &first, n, &mut ctrl) {
            Some(solved) => {
                let best = &solved[0];
                ctrl.info.depth = empties;
                ctrl.info.score = best.score;
                ctrl.info.pv = best.pv.clone();
                ctrl.report();
                solved
            }
            None => lines,
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let limits = &with_horizon(limits, pos);
        let (board, mut ctrl) = match search_start(pos, limits, cancel, progress) {
            Ok(start) => start,
            Err(pass) => return pass,
        };
        let empties = board.empties();
        let max_depth = limits.depth.unwrap_or(60);
        if midgame_only(empties, limits, ctrl.budget()) {
            let found = self.strong.iterate(&board, max_depth, &mut ctrl);
            return SearchResult { best: square_move(found.best), info: ctrl.snapshot() };
        }
        // Fallback move from a short midgame search.
        let found = self.strong.iterate(&board, max_depth.min(FALLBACK_DEPTH), &mut ctrl);
        let mut best = found.best;
        if found.exact || ctrl.stopped() {
            return SearchResult { best: square_move(best), info: ctrl.snapshot() };
        }
        // Win/loss/draw first.
        let wld = match solve_in_time(&mut self.solver, &board, -1, 1, &mut ctrl) {
            Solved::Done(r) => r,
            Solved::OutOfTime => {
                return SearchResult { best: square_move(best), info: ctrl.snapshot() };
            }
        };
        if wld.score >= 0 {
            if let Some(sq) = wld.best {
                best = sq;
            }
        }
        let outcome = match wld.score.signum() {
            1 => Score::Win(empties),
            0 => Score::Exact(0),
            _ => Score::Loss(empties),
        };
        ctrl.info.score = outcome;
        ctrl.info.pv = vec![square_move(best)];
        // Then the exact margin, if there is time for it.
        if let Solved::Done(exact) = solve_in_time(&mut self.solver, &board, -64, 64, &mut ctrl) {
            if let Some(sq) = exact.best {
                best = sq;
                ctrl.info.score = Score::Exact(exact.score);
                ctrl.info.pv =
                    exact.pv.iter().filter(|&&s| s < 64).map(|&s| square_move(s)).collect();
                // The solved move leads the candidates with its exact score.
                let mv = square_move(sq);
                ctrl.info.candidates.retain(|c| c.mv != mv);
                ctrl.info.candidates.insert(0, Candidate { mv, score: Score::Exact(exact.score) });
            }
        } else if let Some(c) = ctrl.info.candidates.iter().position(|c| c.mv == square_move(best))
        {
            let c = ctrl.info.candidates.remove(c);
            ctrl.info.candidates.insert(0, Candidate { mv: c.mv, score: outcome });
        }
        ctrl.info.depth = empties;
        SearchResult { best: square_move(best), info: ctrl.snapshot() }
    }

    /// The midgame search (Lazy SMP) and the endgame solver (its root split) use
    /// `threads` threads.
    fn set_threads(&mut self, threads: usize) {
        self.strong.set_threads(threads);
        self.solver.set_threads(threads);
    }

    /// A new game: both tables are emptied and their memory given back.
    fn clear(&mut self) {
        self.strong.clear();
        self.solver.release();
    }

    fn table_bytes(&self) -> usize {
        self.strong.table_bytes() + self.solver.held_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_threshold_follows_the_time() {
        assert_eq!(solve_from(Some(Duration::from_millis(950))), 21);
        assert_eq!(solve_from(Some(Duration::from_millis(95))), 19);
        assert_eq!(solve_from(Some(Duration::from_millis(475))), 20);
        assert_eq!(solve_from(Some(Duration::from_millis(4000))), 23);
        assert_eq!(solve_from(Some(Duration::from_millis(8))), 16);
        assert_eq!(solve_from(Some(Duration::from_millis(1))), 14);
        assert_eq!(solve_from(Some(Duration::from_secs(3600))), 26);
        assert_eq!(solve_from(None), SOLVE_FROM);
    }

    #[test]
    fn a_game_clock_is_shared_over_the_moves_before_the_solve() {
        assert_eq!(moves_to_go(60), 23);
        assert_eq!(moves_to_go(59), 22);
        assert_eq!(moves_to_go(30), 8);
        assert_eq!(moves_to_go(22), 4);
        assert_eq!(moves_to_go(20), 3);
        assert_eq!(moves_to_go(1), 3, "the solves keep a reserve");
        let clock = Limits { time_left: Some(Duration::from_secs(60)), ..Limits::default() };
        let start = Position::initial();
        assert_eq!(with_horizon(&clock, &start).moves_to_go, Some(moves_to_go(60)));
        let told = Limits { moves_to_go: Some(5), ..clock };
        assert_eq!(with_horizon(&told, &start).moves_to_go, Some(5), "the caller's count stays");
    }
}

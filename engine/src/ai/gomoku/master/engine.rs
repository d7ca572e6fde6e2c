//! Master as an [`Engine`] for [`Position`]: converts the position to the internal board
//! and checks every candidate against the position's own (exact) rules.

use std::time::{Duration, Instant};

use super::board::Board;
use super::pattern::{BLACK, WHITE};
use super::search;
use super::Master;
use crate::ai::control::{self, DEFAULT_TIME};
use crate::ai::{Bound, CancelFlag, Engine, Limits, PvLine, Score, SearchInfo, SearchResult};
use crate::gomoku::{Position, Rule};
use crate::{Color, Move, Point};

/// The internal board of a position (stones in the order they were played).
pub fn board_of(pos: &Position) -> Board {
    let size = pos.size();
    let mut board = Board::new(size, pos.rule());
    let mut stones = Vec::with_capacity(pos.moves().len());
    for y in 0..size {
        for x in 0..size {
            let p = Point::new(x, y);
            match pos.stone(p) {
                Some(Color::Black) => stones.push((board.index(p), BLACK)),
                Some(Color::White) => stones.push((board.index(p), WHITE)),
                None => {}
            }
        }
    }
    board.setup(&stones, pos.side_to_move().index());
    board
}

impl Master {
    /// Up to `n` best moves of `pos`, best first, each with its own score, line and depth:
    /// multi-PV by exclusion, as Stockfish's MultiPV does it. The root is
    /// searched once per move, each time with the moves already found taken out of the
    /// root's choices, so the k-th search finds the best move that is not one of the first
    /// k-1, with its own score. The move's time (the search control's budget for `limits`,
    /// time left included) is shared: each search gets an equal part of what is left. Fewer than `n` come back when the position has fewer legal moves or
    /// the search is cancelled. `progress` hears the first (best move's) search, then,
    /// during the others, its answer with the nodes and time growing (so reports keep
    /// coming and always name the best move). Line 1 is exactly the single-PV search's
    /// answer (the same search: its move and its score). Each later score is the one its
    /// search ends with, exact (the root confirms every fail high with a full window and
    /// the aspiration window is widened until the score falls inside; a search stopped by
    /// the clock keeps the best line found so far) up to line 1's score: its root window
    /// stops just above it. A later search can rate its move above line 1 — the
    /// searches are not one minimax (null-window nodes search fewer quiet moves than the
    /// principal line's, and each search's table and ordering differ) — and that move fails
    /// high there: it is reported as a lower bound equal to line 1's score, after line 1.
    /// The lines come back best first.
    pub fn best_moves(
        &mut self,
        pos: &Position,
        n: usize,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<PvLine> {
        let start = Instant::now();
        let total = control::time_budget(limits, Some(DEFAULT_TIME));
        let renju_black = pos.rule() == Rule::Renju && pos.side_to_move() == Color::Black;
        let mut found: Vec<Point> = Vec::new();
        let mut results = Vec::new();
        // The first search's answer, with the nodes of all searches so far.
        let mut first_info = SearchInfo::default();
        for i in 0..n {
            if cancel.is_cancelled() && !results.is_empty() {
                break;
            }
            let left = n - i;
            let share = |total: Duration| {
                total.saturating_sub(start.elapsed()) / u32::try_from(left).unwrap_or(u32::MAX)
            };
            let sub = Limits {
                time: total.map(share),
                time_left: None,
                nodes: limits.nodes.map(|nodes| nodes / left as u64),
                depth: limits.depth,
                moves_to_go: None,
            };
            let allowed =
                |p: Point| !found.contains(&p) && (!renju_black || pos.is_forbidden(p).is_none());
            // Lines after the first search below line 1's score: a move scoring above it
            // fails high at the ceiling (its score is then only a bound).
            self.ceiling = results.first().map(|l: &PvLine| search::from_score(l.score) + 1);
            let r = if i == 0 {
                self.think_from(Instant::now(), board_of(pos), &allowed, &sub, cancel, progress)
            } else {
                let mut later = |info: &SearchInfo| {
                    let mut first = first_info.clone();
                    first.nodes += info.nodes;
                    first.elapsed_ms = start.elapsed().as_millis() as u64;
                    first.nps = control::nps(first.nodes, start.elapsed());
                    first.seldepth = first.seldepth.max(info.seldepth);
                    progress(&first);
                };
                self.think_from(Instant::now(), board_of(pos), &allowed, &sub, cancel, &mut later)
            };
            match r.best {
                Move::Place(p) if pos.stone(p).is_none() && !found.contains(&p) => {
                    found.push(p);
                    if i == 0 {
                        first_info = r.info.clone();
                    } else {
                        first_info.nodes += r.info.nodes;
                    }
                    results.push(PvLine::from_result(&r));
                }
                _ => break,
            }
        }
        self.ceiling = None;
        // Line 1 is the single search's answer. A later line whose search scored its move
        // above line 1 (its window stopped just above line 1's score, or a threat solver
        // proved it) is worth at least line 1: a lower bound at line 1's score, after it.
        // The others best first (stable: equal scores keep the order they were found in).
        if let Some((first, rest)) = results.split_first_mut() {
            for l in rest.iter_mut() {
                if rank(l.score) > rank(first.score) {
                    l.score = first.score;
                    l.bound = Bound::Lower;
                }
            }
            rest.sort_by_key(|l| std::cmp::Reverse(rank(l.score)));
        }
        results
    }
}

/// A score's place in the order of the lines: wins first (the shortest first), then
/// evaluations, then losses (the longest first).
fn rank(score: Score) -> i64 {
    const PROVEN: i64 = 1 << 40;
    match score {
        Score::Win(n) => PROVEN - i64::from(n),
        Score::Loss(n) => -PROVEN + i64::from(n),
        Score::Eval(v) | Score::Exact(v) => i64::from(v),
    }
}

impl Engine<Position> for Master {
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        // The move's time starts now: building the board may first build the rule's pattern
        // tables (tens of milliseconds, once per process).
        let start = Instant::now();
        let board = board_of(pos);
        let renju_black = pos.rule() == Rule::Renju && pos.side_to_move() == Color::Black;
        let allowed = |p: Point| !renju_black || pos.is_forbidden(p).is_none();
        self.think_from(start, board, &allowed, limits, cancel, progress)
    }

    fn search_multi(
        &mut self,
        pos: &Position,
        limits: &Limits,
        n: usize,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<PvLine> {
        self.best_moves(pos, n, limits, cancel, progress)
    }

    fn clear(&mut self) {
        self.reset();
    }

    fn set_threads(&mut self, threads: usize) {
        Master::set_threads(self, threads);
    }

    fn table_bytes(&self) -> usize {
        Master::table_bytes(self).0
    }

    /// Builds the pattern tables of `pos`'s rule (once per process, tens of milliseconds).
    fn prepare(&mut self, pos: &Position) {
        drop(board_of(pos));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::notation::parse_moves;

    /// The n best moves share the one budget of the move, also when only the game's time
    /// left is given (each search used to take the default second then).
    #[test]
    fn the_best_moves_share_the_moves_time() {
        let moves = parse_moves("h8 i9 j8 h10", 15).unwrap();
        let pos = Position::from_moves(15, Rule::Freestyle, &moves).unwrap();
        let limits = Limits { time_left: Some(Duration::from_millis(2400)), ..Limits::default() };
        let start = Instant::now();
        let lines = Master::new(1).best_moves(&pos, 3, &limits, &CancelFlag::new(), &mut |_| {});
        // A twelfth of the time left: 200 ms for the three (generous bound for a loaded
        // machine; three default seconds before).
        assert!(start.elapsed() < Duration::from_millis(900), "{:?}", start.elapsed());
        assert_eq!(lines.len(), 3);
    }
}

//! Helpers shared by the classic Gomoku levels: a flat copy of the board, the rule's idea of a
//! five, immediate win/block detection, legal-move filtering, random tie-breaks and the shape
//! of the search result.

use std::time::Instant;

use crate::ai::{Candidate, Score, SearchInfo, SearchResult};
use crate::gomoku::{Position, Rule};
use crate::rng::Rng;
use crate::{Color, Move, Point};

/// Cell value of an empty point in a [`Grid`].
pub const EMPTY: u8 = 0;

pub use crate::gomoku::DIRECTIONS;

/// How many candidates a search reports for the heat map.
pub const REPORTED_CANDIDATES: usize = 16;

/// The cell value of a stone of `color` in a [`Grid`]: 1 for black, 2 for white.
#[inline]
pub const fn code(color: Color) -> u8 {
    color.index() as u8 + 1
}

/// A flat copy of a position's stones, cheap to read and to change during a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    size: u8,
    cells: Vec<u8>,
    stones: usize,
}

impl Grid {
    /// An empty board `size` cells wide.
    pub fn empty(size: u8) -> Grid {
        Grid { size, cells: vec![EMPTY; size as usize * size as usize], stones: 0 }
    }

    /// The stones of `pos`.
    pub fn from_position(pos: &Position) -> Grid {
        let mut grid = Grid::empty(pos.size());
        for i in 0..grid.cells.len() {
            let p = Point::from_index(i, grid.size);
            if let Some(c) = pos.stone(p) {
                grid.set(p, code(c));
            }
        }
        grid
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    /// Number of stones on the board.
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// The cell at `p` (which must be on the board).
    #[inline]
    pub fn at(&self, p: Point) -> u8 {
        self.cells[p.index(self.size)]
    }

    /// The cell with index `i` (`Point::index`).
    #[inline]
    pub fn at_index(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// The cell at signed coordinates, or `None` off the board.
    #[inline]
    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        let n = self.size as i32;
        if x < 0 || y < 0 || x >= n || y >= n {
            None
        } else {
            Some(self.cells[(y * n + x) as usize])
        }
    }

    /// Puts `value` (a stone code or [`EMPTY`]) on `p`.
    #[inline]
    pub fn set(&mut self, p: Point, value: u8) {
        let i = p.index(self.size);
        match (self.cells[i] == EMPTY, value == EMPTY) {
            (true, false) => self.stones += 1,
            (false, true) => self.stones -= 1,
            _ => {}
        }
        self.cells[i] = value;
    }

    /// Every point of the board, row by row.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.cells.len()).map(|i| Point::from_index(i, self.size))
    }

    /// The empty points, row by row.
    pub fn empties(&self) -> impl Iterator<Item = Point> + '_ {
        self.points().filter(|&p| self.at(p) == EMPTY)
    }

    /// The centre point (天元).
    pub fn centre(&self) -> Point {
        Point::new(self.size / 2, self.size / 2)
    }

    /// Length of the run of `stone` through `p` along `(dx, dy)`, counting `p` itself as
    /// `stone` whatever it holds.
    pub fn run_through(&self, p: Point, (dx, dy): (i32, i32), stone: u8) -> usize {
        let mut run = 1;
        for sign in [1, -1] {
            let (mut x, mut y) = (p.x as i32 + dx * sign, p.y as i32 + dy * sign);
            while self.get(x, y) == Some(stone) {
                run += 1;
                x += dx * sign;
                y += dy * sign;
            }
        }
        run
    }
}

/// Whether a run longer than five wins for `color` under `rule`.
pub const fn overline_wins(rule: Rule, color: Color) -> bool {
    match rule {
        Rule::Freestyle => true,
        Rule::Standard => false,
        Rule::Renju => matches!(color, Color::White),
    }
}

/// Whether a run of `len` stones of `color` is a winning five under `rule`.
#[inline]
pub const fn is_five(len: usize, rule: Rule, color: Color) -> bool {
    len == 5 || (len > 5 && overline_wins(rule, color))
}

/// Whether `color` playing on the empty point `p` makes a winning five under `rule`.
pub fn makes_five(grid: &Grid, p: Point, color: Color, rule: Rule) -> bool {
    let stone = code(color);
    DIRECTIONS.iter().any(|&d| is_five(grid.run_through(p, d, stone), rule, color))
}

/// The empty points where `color` would win at once.
pub fn five_points(grid: &Grid, color: Color, rule: Rule) -> Vec<Point> {
    grid.empties().filter(|&p| makes_five(grid, p, color, rule)).collect()
}

/// Whether the side to move may play `p` (on board, empty, game not over, not forbidden).
#[inline]
pub fn is_legal(pos: &Position, p: Point) -> bool {
    pos.is_legal(p).is_ok()
}

/// The centre (天元) when the board is empty and the centre may be played: the first stone
/// of the levels that open there.
pub fn centre_opening(pos: &Position, grid: &Grid) -> Option<Point> {
    let centre = grid.centre();
    (grid.stones() == 0 && is_legal(pos, centre)).then_some(centre)
}

/// The move every sensible level must play at once, if any: its own five, or else the block
/// of the opponent's five (the first legal block when there are several: the game is lost
/// anyway). `None` when neither side threatens to win on the next move.
pub fn forced_move(pos: &Position, grid: &Grid) -> Option<(Point, Score)> {
    let me = pos.side_to_move();
    let rule = pos.rule();
    if let Some(&p) = five_points(grid, me, rule).iter().find(|&&p| is_legal(pos, p)) {
        return Some((p, Score::Win(1)));
    }
    let threats = five_points(grid, me.opponent(), rule);
    let score = if threats.len() > 1 { Score::Loss(2) } else { Score::Eval(0) };
    threats.into_iter().find(|&p| is_legal(pos, p)).map(|p| (p, score))
}

/// Sorts `scored` best first and picks the best legal point, choosing at random among legal
/// points of equal score. Scores must be comparable (higher is better).
pub fn pick_best(pos: &Position, scored: &mut [(Point, i64)], rng: &mut Rng) -> Option<Point> {
    sort_scored(scored);
    let first = scored.iter().position(|&(p, _)| is_legal(pos, p))?;
    let top = scored[first].1;
    let ties: Vec<Point> = scored[first..]
        .iter()
        .take_while(|&&(_, s)| s == top)
        .filter(|&&(p, _)| is_legal(pos, p))
        .map(|&(p, _)| p)
        .collect();
    rng.choose(&ties).copied()
}

/// Best first; equal scores in board order so that the result does not depend on the
/// order the scores were computed in.
pub fn sort_scored(scored: &mut [(Point, i64)]) {
    scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.y.cmp(&b.0.y)).then(a.0.x.cmp(&b.0.x)));
}

/// The legal points among the best of `scored` (sorted best first), as heat-map candidates.
pub fn candidates(pos: &Position, scored: &[(Point, i64)]) -> Vec<Candidate> {
    scored
        .iter()
        .filter(|&&(p, _)| is_legal(pos, p))
        .take(REPORTED_CANDIDATES)
        .map(|&(p, s)| Candidate { mv: Move::Place(p), score: Score::Eval(clamp_score(s)) })
        .collect()
}

/// A score in the `i32` range of [`Score::Eval`].
pub fn clamp_score(s: i64) -> i32 {
    s.clamp(i32::MIN as i64 + 1, i32::MAX as i64) as i32
}

/// Any legal point, for the (theoretical) case that a level found nothing better.
pub fn any_legal(pos: &Position, grid: &Grid) -> Option<Point> {
    let centre = grid.centre();
    if grid.at(centre) == EMPTY && is_legal(pos, centre) {
        return Some(centre);
    }
    grid.empties().find(|&p| is_legal(pos, p))
}

/// Packs a one-ply answer: the move, its score, the heat map, and the search statistics;
/// reports it once through `progress`.
pub fn one_ply_result(
    best: Option<Point>,
    score: Score,
    candidates: Vec<Candidate>,
    nodes: u64,
    start: Instant,
    progress: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let best = best.map(Move::Place).unwrap_or(Move::Pass);
    let elapsed = start.elapsed();
    let info = SearchInfo {
        depth: 1,
        seldepth: 1,
        nodes,
        nps: nps(nodes, elapsed.as_secs_f64()),
        elapsed_ms: elapsed.as_millis() as u64,
        score,
        pv: if best == Move::Pass { Vec::new() } else { vec![best] },
        candidates,
    };
    progress(&info);
    SearchResult { best, info }
}

/// Nodes per second, guarding against a zero duration.
pub fn nps(nodes: u64, seconds: f64) -> u64 {
    if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        nodes.saturating_mul(1_000_000)
    }
}

/// For each cell (by index), whether it lies within `dist` lines (in both coordinates) of
/// a stone.
pub fn near_stones(grid: &Grid, dist: i32) -> Vec<bool> {
    let n = grid.size() as i32;
    let mut near = vec![false; (n * n) as usize];
    for p in grid.points().filter(|&p| grid.at(p) != EMPTY) {
        for y in (p.y as i32 - dist).max(0)..=(p.y as i32 + dist).min(n - 1) {
            for x in (p.x as i32 - dist).max(0)..=(p.x as i32 + dist).min(n - 1) {
                near[(y * n + x) as usize] = true;
            }
        }
    }
    near
}

#[cfg(test)]
pub(crate) mod test_util {
    use crate::gomoku::{notation::parse_moves, Position, Rule};

    /// A position after the moves given in board notation ("h8 i9 ..."), black first.
    pub fn position(size: u8, rule: Rule, moves: &str) -> Position {
        let mut pos = Position::new(size, rule).unwrap();
        for p in parse_moves(moves, size).unwrap() {
            pos.play(p).unwrap();
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::position;
    use super::*;
    use crate::gomoku::notation::parse_point;

    #[test]
    fn grid_copies_the_position() {
        let pos = position(15, Rule::Freestyle, "h8 i9 j10");
        let grid = Grid::from_position(&pos);
        assert_eq!(grid.stones(), 3);
        assert_eq!(grid.at(parse_point("h8", 15).unwrap()), code(Color::Black));
        assert_eq!(grid.at(parse_point("i9", 15).unwrap()), code(Color::White));
        assert_eq!(grid.get(-1, 0), None);
        assert_eq!(grid.get(15, 3), None);
    }

    #[test]
    fn five_points_respect_the_rule() {
        // Black: h8 i8 j8 k8 and m8; l8 would make six in a row.
        let pos = position(15, Rule::Freestyle, "h8 h1 i8 i1 j8 j1 k8 a1 m8 b1");
        let grid = Grid::from_position(&pos);
        let g8 = parse_point("g8", 15).unwrap();
        let l8 = parse_point("l8", 15).unwrap();
        let mut free = five_points(&grid, Color::Black, Rule::Freestyle);
        free.sort();
        let mut expected = vec![g8, l8];
        expected.sort();
        assert_eq!(free, expected);
        assert_eq!(five_points(&grid, Color::Black, Rule::Standard), vec![g8]);
        assert_eq!(five_points(&grid, Color::Black, Rule::Renju), vec![g8]);
    }

    #[test]
    fn forced_move_wins_first_then_blocks() {
        // Black has four in a row on row 8; white has three on row 1. Black to move wins.
        let pos = position(15, Rule::Freestyle, "h8 a1 i8 b1 j8 c1 k8 d1");
        let grid = Grid::from_position(&pos);
        let (p, score) = forced_move(&pos, &grid).unwrap();
        assert!(makes_five(&grid, p, Color::Black, Rule::Freestyle));
        assert_eq!(score, Score::Win(1));
        // White to move must block black's open four at one end.
        let pos = position(15, Rule::Freestyle, "h8 a1 i8 b1 j8 c1 k8");
        let grid = Grid::from_position(&pos);
        let (p, _) = forced_move(&pos, &grid).unwrap();
        assert!(makes_five(&grid, p, Color::Black, Rule::Freestyle));
        let quiet = position(15, Rule::Freestyle, "h8 a1");
        assert_eq!(forced_move(&quiet, &Grid::from_position(&quiet)), None);
    }

    #[test]
    fn pick_best_breaks_ties_at_random_but_deterministically() {
        let pos = position(15, Rule::Freestyle, "h8");
        let mut scored: Vec<(Point, i64)> =
            Grid::from_position(&pos).empties().map(|p| (p, (p.x % 3) as i64)).collect();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..40 {
            let a = pick_best(&pos, &mut scored.clone(), &mut Rng::new(seed)).unwrap();
            let b = pick_best(&pos, &mut scored, &mut Rng::new(seed)).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.x % 3, 2);
            seen.insert(a);
        }
        assert!(seen.len() > 5, "ties are broken in varied ways");
    }
}

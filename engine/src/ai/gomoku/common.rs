//! What the classic levels and the forcing reading share: a flat copy of the board, the
//! rule's idea of a five, legality, and the board order of scored points.

use crate::gomoku::{Position, Rule};
use crate::{Color, Point};

/// Cell value of an empty point in a [`Grid`] (the line foundation's cell codes).
pub const EMPTY: u8 = crate::gomoku::line::EMPTY;

pub use crate::gomoku::DIRECTIONS;

/// The cell value of a stone of `color` in a [`Grid`]: 1 for black, 2 for white.
#[inline]
pub const fn code(color: Color) -> u8 {
    crate::gomoku::line::cell_of(color)
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

/// Whether `color` playing on the empty point `p` makes a winning five under `rule`.
pub fn makes_five(grid: &Grid, p: Point, color: Color, rule: Rule) -> bool {
    let stone = code(color);
    DIRECTIONS.iter().any(|&d| rule.run_wins(color, grid.run_through(p, d, stone) as u32))
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

/// Best first; equal scores in board order so that the result does not depend on the
/// order the scores were computed in.
pub fn sort_scored(scored: &mut [(Point, i64)]) {
    scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.y.cmp(&b.0.y)).then(a.0.x.cmp(&b.0.x)));
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
}

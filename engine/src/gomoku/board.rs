//! The raw grid of stones, with cheap bounds-checked access by signed coordinates.

use super::line::{EDGE, EMPTY};
use crate::Point;

/// The four line directions: horizontal, vertical and the two diagonals.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A square grid of cells (the [`super::line`] codes `EMPTY`, `BLACK` or `WHITE`), row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    size: u8,
    cells: Vec<u8>,
}

impl Board {
    pub(crate) fn new(size: u8) -> Board {
        Board { size, cells: vec![EMPTY; size as usize * size as usize] }
    }

    #[inline]
    pub(crate) fn size(&self) -> u8 {
        self.size
    }

    /// The cell at signed coordinates; [`EDGE`] when off the board.
    #[inline]
    pub(crate) fn get(&self, x: i32, y: i32) -> u8 {
        let n = self.size as i32;
        if x < 0 || y < 0 || x >= n || y >= n {
            EDGE
        } else {
            self.cells[(y * n + x) as usize]
        }
    }

    /// The cell at a point; [`EDGE`] when off the board.
    #[inline]
    pub(crate) fn at(&self, p: Point) -> u8 {
        self.get(p.x as i32, p.y as i32)
    }

    /// Sets an on-board cell.
    #[inline]
    pub(crate) fn set(&mut self, p: Point, cell: u8) {
        let i = p.index(self.size);
        self.cells[i] = cell;
    }

    /// The length of the unbroken run of `cell` through `p` (counting `p` itself) along
    /// direction `(dx, dy)`, with the offsets of its two ends relative to `p`.
    pub(crate) fn run(&self, p: Point, (dx, dy): (i32, i32), cell: u8) -> (i32, i32) {
        let (x, y) = (p.x as i32, p.y as i32);
        let mut hi = 0;
        while self.get(x + (hi + 1) * dx, y + (hi + 1) * dy) == cell {
            hi += 1;
        }
        let mut lo = 0;
        while self.get(x + (lo - 1) * dx, y + (lo - 1) * dy) == cell {
            lo -= 1;
        }
        (lo, hi)
    }
}

//! Static evaluation: every empty cell's line patterns and threat class for both colours,
//! summed incrementally by the board; here only the weights and the final formula.
//!
//! Each empty cell is worth something to the side to move ([`MOVER`]) and something else to
//! the side that has just moved ([`OTHER`]): the side to move converts its potential first,
//! so its open-three points are worth more than the same points of the opponent. The board
//! keeps both sums for both colours; the evaluation takes the mover's [`MOVER`] sum minus the
//! opponent's [`OTHER`] sum.
//!
//! The weights were fitted to the results of Master's own games (texel-style logistic
//! regression over quiet positions, `engine/examples/fit_gomoku_eval.rs`); the entries the
//! quiet positions never show (five and open-four points) keep their earlier hand-set values.
//! The current figures are in docs/BENCHMARKS.md ("Master's evaluation"); the whole round is
//! "Master round 8" in `git show 5aeae9f:docs/BENCHMARKS.md`.

use super::board::Board;
use super::pattern::{p4, Pat};

/// Weights of one side's empty cells, in quarters of an evaluation unit.
pub struct Weights {
    /// By the line pattern a stone would make in each direction (indexed by `Pat as u8`).
    pub lines: [i32; 12],
    /// By the cell's combined threat class.
    pub classes: [i32; p4::COUNT],
}

/// The side to move's cells.
pub const MOVER: Weights = Weights {
    lines: [0, 3, 0, 5, 0, 91, 496, 407, 450, 800, 0, 0],
    classes: [0, 0, 600, 423, 337, 66, 339, 379, 0, 135, 133, 0, 0, 0],
};

/// The cells of the side that has just moved.
pub const OTHER: Weights = Weights {
    lines: [0, 0, 0, 17, 0, 76, 173, 264, 360, 640, 0, 0],
    classes: [0, 0, 480, 339, 239, 22, 195, 162, 27, 85, 36, 51, 0, 0],
};

/// A small bonus for having the move.
pub const TEMPO: i32 = 9;

/// How many sets of four line patterns there are (the four directions' patterns of a cell in
/// any order: multisets of four of the twelve patterns).
pub const SETS: usize = 1365;

/// The set of a cell's four line patterns, as a number below [`SETS`]; 0 is the all-dead set.
pub fn set_id(pats: &[u8; 4]) -> u16 {
    let mut p = pats.map(|x| x % 12);
    p.sort_unstable();
    // Sets in lexicographic order of their sorted patterns: count the sets before this one.
    let mut id = 0usize;
    let mut lo = 0u8;
    for (k, &v) in p.iter().enumerate() {
        let left = 3 - k; // patterns still to choose after this one
        for first in lo..v {
            // Sets whose k-th pattern is `first`: multisets of `left` from 12 - first values.
            id += multisets(12 - first as usize, left);
        }
        lo = v;
    }
    id as u16
}

/// Multisets of `k` elements from `n` values.
const fn multisets(n: usize, k: usize) -> usize {
    // C(n + k - 1, k)
    let mut r = 1usize;
    let mut i = 0;
    while i < k {
        r = r * (n + i) / (i + 1);
        i += 1;
    }
    r
}

/// One empty cell's share of the evaluation for one colour: as the side to move and as the
/// side that has just moved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellValue {
    pub mover: i32,
    pub other: i32,
}

impl CellValue {
    #[inline]
    pub fn add(&mut self, plus: CellValue, minus: CellValue) {
        self.mover += plus.mover - minus.mover;
        self.other += plus.other - minus.other;
    }
}

/// The value of an empty cell with these line patterns and this class, for one colour.
pub fn cell_value(pats: &[u8; 4], class: u8) -> CellValue {
    if class == p4::FORBID {
        return CellValue::default();
    }
    let side = |w: &Weights| -> i32 {
        pats.iter().map(|&p| w.lines[p as usize % 12]).sum::<i32>() + w.classes[class as usize]
    };
    CellValue { mover: side(&MOVER), other: side(&OTHER) }
}

/// The position from the side to move's point of view (larger is better).
pub fn evaluate(board: &Board) -> i32 {
    let me = board.side();
    let sums = board.sums();
    (sums[me].mover - sums[me ^ 1].other) / 4 + TEMPO
}

/// Whether a line pattern is at least a four.
#[inline]
pub fn is_four_pat(p: u8) -> bool {
    p == Pat::B4 as u8 || p == Pat::F4 as u8 || p == Pat::DoubleFour as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_has_its_own_number_whatever_the_order() {
        let mut seen = vec![false; SETS];
        for a in 0..12u8 {
            for b in a..12 {
                for c in b..12 {
                    for d in c..12 {
                        let id = set_id(&[a, b, c, d]) as usize;
                        assert!(!seen[id], "{a} {b} {c} {d}");
                        seen[id] = true;
                        assert_eq!(set_id(&[d, b, a, c]) as usize, id);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(set_id(&[0; 4]), 0);
    }
}

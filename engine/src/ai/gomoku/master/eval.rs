//! Static evaluation: every empty cell's line patterns and threat class for both colours,
//! summed incrementally by the board; here only the values and the final formula.
//!
//! Each empty cell is worth something to the side to move and something else to the side
//! that has just moved: the side to move converts its potential first, so its open-three
//! points are worth more than the same points of the opponent. A cell's worth is looked up
//! by the set of its four line patterns (one per direction, in any order: [`set_id`]) in
//! [`SET_VALUES`]. The board keeps both sums for both colours; the evaluation takes the
//! mover's side-to-move sum minus the opponent's other-side sum, plus a tempo, plus the
//! learned correction of the small network over the same sets ([`super::nnue`]).
//!
//! The values are fitted to the results of Master's own games (texel-style logistic
//! regression over quiet positions, `engine/examples/fit_gomoku_eval/main.rs table`, starting
//! from the values in force); the sets the quiet positions never show (five and open-four
//! points) keep their earlier values. The figures are in docs/BENCHMARKS.md ("Master's
//! evaluation").

use super::board::Board;
use super::nnue;
use super::pattern::{p4, Pat};

// `TEMPO` (a small bonus for having the move, in units) and `SET_VALUES` (per set: [side to
// move, other side], in quarters of a unit), as `fit_gomoku_eval table` wrote them.
include!("eval_sets.rs");

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

/// The evaluation share of an empty cell whose line patterns make set `set` (below
/// [`SETS`]), for one colour.
#[inline(always)]
pub fn set_value(set: u16) -> CellValue {
    let [mover, other] = SET_VALUES[set as usize];
    CellValue { mover: mover as i32, other: other as i32 }
}

/// The value of an empty cell with these line patterns and this class, for one colour.
pub fn cell_value(pats: &[u8; 4], class: u8) -> CellValue {
    if class == p4::FORBID {
        return CellValue::default();
    }
    set_value(set_id(pats))
}

/// The position from the side to move's point of view (larger is better): the table and the
/// network's correction.
pub fn evaluate(board: &Board) -> i32 {
    let me = board.side();
    let acc = board.acc();
    table_evaluate(board) + nnue::correction(&acc[me], &acc[me ^ 1])
}

/// The table's part of [`evaluate`] alone (what the network's fit holds fixed).
#[inline]
pub fn table_evaluate(board: &Board) -> i32 {
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

//! Static evaluation: every empty cell's line patterns and threat class for both colours,
//! summed incrementally by the board; here only the weights and the final formula.

use super::board::Board;
use super::pattern::{p4, Pat};

/// Value of one line pattern at an empty cell (indexed by `Pat as u8`).
const LINE_VALUE: [i32; 12] = [0, 1, 3, 4, 12, 14, 34, 36, 90, 160, 0, 0];

/// Extra value of a cell's combined threat class (indexed by class).
const CLASS_BONUS: [i32; p4::COUNT] = [0, 0, 120, 80, 40, 0, 60, 20, 0, 10, 10, 0, 0, 0];

/// The evaluation share of one empty cell for one colour.
#[inline]
pub fn cell_value(pats: &[u8; 4], class: u8) -> i32 {
    if class == p4::FORBID {
        return 0;
    }
    let lines: i32 = pats.iter().map(|&p| LINE_VALUE[p as usize % 12]).sum();
    lines + CLASS_BONUS[class as usize]
}

/// The position from the side to move's point of view (larger is better).
pub fn evaluate(board: &Board) -> i32 {
    let me = board.side();
    let sums = board.sums();
    let mine = sums[me];
    let theirs = sums[me ^ 1];
    // The side to move converts its potential first.
    (mine * 5 - theirs * 4) / 4 + TEMPO
}

/// A small bonus for having the move.
const TEMPO: i32 = 10;

/// Whether a line pattern is at least a four.
#[inline]
pub fn is_four_pat(p: u8) -> bool {
    p == Pat::B4 as u8 || p == Pat::F4 as u8 || p == Pat::DoubleFour as u8
}

//! Seed article 003's evaluation: mobility, stable discs, corners and the squares next to
//! empty corners, transcribed exactly (including its counting quirks) onto bitboards.
//!
//! The article scores a position for black as
//! `mobility * 10 + corners * 30 + near_corners * 20 + stable * 10`, and a finished game as
//! `(black discs - white discs) * 10000`. Here the same formula is computed for the side to
//! move (it is antisymmetric, so this is the article's value with the sign of the mover).

use super::Evaluator;
use crate::ai::reversi::board::Board;
use crate::reversi::bitboard::moves;

/// Value of one disc of final margin in a finished game.
pub const SEED_TERMINAL_UNIT: i32 = 10_000;

/// Seed 003's evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeedEval;

impl Evaluator for SeedEval {
    #[inline]
    fn eval(&self, b: &Board) -> i32 {
        seed_eval(b.p, b.o)
    }

    #[inline]
    fn terminal(&self, b: &Board) -> i32 {
        (b.p.count_ones() as i32 - b.o.count_ones() as i32) * SEED_TERMINAL_UNIT
    }
}

/// The article's `evaluate` for `me` to move against `opp` (game not over).
pub fn seed_eval(me: u64, opp: u64) -> i32 {
    let mobility = moves(me, opp).count_ones() as i32 - moves(opp, me).count_ones() as i32;
    let stable = count_stable(me) - count_stable(opp) + count_stable_edges(me, opp)
        - count_stable_edges(opp, me);
    let corners = count_corners(me) - count_corners(opp);
    let near = count_near_corner(opp, me, opp) - count_near_corner(me, me, opp);
    mobility * 10 + corners * 30 + near * 20 + stable * 10
}

#[inline]
fn at(b: u64, x: u32, y: u32) -> bool {
    (b >> (y * 8 + x)) & 1 == 1
}

/// The article's `countStable`: runs of own discs along both edges from each own corner.
/// (A full edge is subtracted again from one side, and corners count once per edge, as in
/// the article.)
fn count_stable(own: u64) -> i32 {
    let mut stable = 0;
    let run = |squares: &mut dyn Iterator<Item = (u32, u32)>, full_minus: bool| -> i32 {
        let mut s = 0;
        for (i, (x, y)) in squares.enumerate() {
            if at(own, x, y) {
                s += 1;
            } else {
                break;
            }
            if full_minus && i == 7 {
                s -= 8;
            }
        }
        s
    };
    if at(own, 0, 0) {
        stable += run(&mut (0..8).map(|i| (0, i)), true);
        stable += run(&mut (0..8).map(|i| (i, 0)), true);
    }
    if at(own, 0, 7) {
        stable += run(&mut (0..8).rev().map(|i| (0, i)), false);
        stable += run(&mut (0..8).map(|i| (i, 7)), true);
    }
    if at(own, 7, 7) {
        stable += run(&mut (0..8).rev().map(|i| (7, i)), false);
        stable += run(&mut (0..8).rev().map(|i| (i, 7)), false);
    }
    if at(own, 7, 0) {
        stable += run(&mut (0..8).map(|i| (7, i)), true);
        stable += run(&mut (0..8).rev().map(|i| (i, 0)), false);
    }
    stable
}

/// The article's `countStable2`: on every completely filled edge, the own discs count.
fn count_stable_edges(own: u64, other: u64) -> i32 {
    const EDGES: [u64; 4] = [
        0x0101_0101_0101_0101, // x = 0
        0x0000_0000_0000_00ff, // y = 0
        0xff00_0000_0000_0000, // y = 7
        0x8080_8080_8080_8080, // x = 7
    ];
    let filled = own | other;
    EDGES.iter().filter(|&&e| filled & e == e).map(|&e| (own & e).count_ones() as i32).sum()
}

/// The article's `countCorner`.
fn count_corners(own: u64) -> i32 {
    (own & 0x8100_0000_0000_0081).count_ones() as i32
}

/// The article's `countNearCorner`: next to an empty corner, a C square counts 1 and the X
/// square 3.
fn count_near_corner(own: u64, a: u64, b: u64) -> i32 {
    let empty = !(a | b);
    // (corner, C squares, X square)
    const NEAR: [(u32, u32, u32, u32); 4] = [
        (0, 1, 8, 9),     // a1: b1, a2, b2
        (7, 6, 15, 14),   // h1: g1, h2, g2
        (56, 48, 57, 49), // a8: a7, b8, b7
        (63, 55, 62, 54), // h8: h7, g8, g7
    ];
    let mut n = 0;
    for &(corner, c1, c2, x) in &NEAR {
        if (empty >> corner) & 1 == 1 {
            n += ((own >> c1) & 1) as i32 + ((own >> c2) & 1) as i32 + 3 * ((own >> x) & 1) as i32;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(x: u32, y: u32) -> u64 {
        1u64 << (y * 8 + x)
    }

    #[test]
    fn initial_position_is_balanced() {
        let b = Board::initial();
        assert_eq!(seed_eval(b.p, b.o), 0);
    }

    #[test]
    fn corner_runs_and_full_edges_follow_the_article() {
        // Own a1, b1, c1 (top edge run from a1) and a2: run down column a = 2, run along
        // row 1 = 3.
        let own = sq(0, 0) | sq(1, 0) | sq(2, 0) | sq(0, 1);
        assert_eq!(count_stable(own), 5);
        // A full top row: 8 - 8 from a1 going right, 8 from h1 going left, plus a1 down (1)
        // and h1 down (1).
        let row: u64 = 0xff;
        assert_eq!(count_stable(row), 10, "1 + 0 + 1 + 8");
        assert_eq!(count_stable_edges(row, 0), 8);
        assert_eq!(count_stable_edges(0x0f, 0xf0), 4);
        assert_eq!(count_stable_edges(0x0f, 0x70), 0);
    }

    #[test]
    fn x_and_c_squares_count_only_next_to_empty_corners() {
        let own = sq(1, 1) | sq(1, 0) | sq(6, 6);
        assert_eq!(count_near_corner(own, own, 0), 3 + 1 + 3);
        let other = sq(0, 0);
        assert_eq!(count_near_corner(own, own, other), 3);
        assert_eq!(count_corners(other | sq(7, 7) | sq(3, 3)), 2);
    }
}

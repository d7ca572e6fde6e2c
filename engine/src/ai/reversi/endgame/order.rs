//! Move ordering for the solver's deeper nodes.
//!
//! Fastest first: the move that leaves the opponent the fewest replies (corners counted
//! twice) comes first, since its subtree is the smallest and a cutoff there is cheapest.
//! Ties are broken by corner stability, the opponent's potential mobility (empty squares next
//! to our discs), quadrant parity and a static square value.

use super::bits::{CORNERS, NOT_A, NOT_H, QUADRANT};

/// Static square values (corners best, X and C squares worst).
static SQUARE_VALUE: [i32; 64] = [
    18, 4, 16, 12, 12, 16, 4, 18, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    18, 4, 16, 12, 12, 16, 4, 18, //
];

const W_MOBILITY: i32 = 1 << 15;
const W_CORNER_STABILITY: i32 = 1 << 11;
const W_POTENTIAL_MOBILITY: i32 = 1 << 5;
const W_PARITY: i32 = 1 << 4;

/// Empty squares next to at least one disc of `b`.
#[inline(always)]
pub fn adjacent_empties(b: u64, empty: u64) -> u64 {
    let west = (b >> 1 | b << 7 | b >> 9) & NOT_H;
    let east = (b << 1 | b >> 7 | b << 9) & NOT_A;
    (west | east | b << 8 | b >> 8) & empty
}

/// Corners of `b` and the edge squares of `b` next to one of its corners.
#[inline(always)]
pub fn corner_stability(b: u64) -> i32 {
    let s = (((0x0100_0000_0000_0001 & b) << 1)
        | ((0x8000_0000_0000_0080 & b) >> 1)
        | ((0x0000_0000_0000_0081 & b) << 8)
        | ((0x8100_0000_0000_0000 & b) >> 8)
        | 0x8100_0000_0000_0081)
        & b;
    s.count_ones() as i32
}

/// Ordering score of the move on `sq` (higher is tried first). `next_p` / `next_o` is the
/// position after the move: the opponent (now to move) and the mover; `next_moves` is the
/// opponent's legal moves there; `parity` is the quadrant parity before the move.
#[inline(always)]
pub fn fast_score(next_p: u64, next_o: u64, next_moves: u64, sq: usize, parity: u8) -> i32 {
    let empty = !(next_p | next_o);
    let mobility = (next_moves.count_ones() + (next_moves & CORNERS).count_ones()) as i32;
    let potential = adjacent_empties(next_o, empty).count_ones() as i32;
    let mut s = SQUARE_VALUE[sq];
    if parity & QUADRANT[sq] != 0 {
        s += W_PARITY;
    }
    s += (36 - potential) * W_POTENTIAL_MOBILITY;
    s += corner_stability(next_o) * W_CORNER_STABILITY;
    s += (36 - mobility) * W_MOBILITY;
    s
}

#[cfg(test)]
mod tests {
    use super::super::bits::bit;
    use super::*;

    #[test]
    fn adjacent_empties_do_not_wrap() {
        // h1 (7) is next to g1, g2, h2 only.
        assert_eq!(adjacent_empties(bit(7), !0), bit(6) | bit(14) | bit(15));
        // a2 (8) is next to a1, b1, b2, a3, b3.
        assert_eq!(adjacent_empties(bit(8), !0), bit(0) | bit(1) | bit(9) | bit(16) | bit(17));
    }

    #[test]
    fn corner_stability_counts_corners_and_their_edge_neighbours() {
        assert_eq!(corner_stability(bit(0) | bit(1) | bit(8) | bit(9)), 3);
        assert_eq!(corner_stability(bit(1)), 0);
        assert_eq!(corner_stability(bit(63) | bit(62) | bit(55)), 3);
    }

    #[test]
    fn square_values_are_symmetric() {
        for (sq, &v) in SQUARE_VALUE.iter().enumerate() {
            let (x, y) = (sq % 8, sq / 8);
            assert_eq!(v, SQUARE_VALUE[y * 8 + (7 - x)]);
            assert_eq!(v, SQUARE_VALUE[x * 8 + y]);
        }
    }
}

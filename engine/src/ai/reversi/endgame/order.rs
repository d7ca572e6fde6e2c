//! Move ordering for the solver's deeper nodes.
//!
//! Fastest first: the move that leaves the opponent the fewest replies (corners counted
//! twice) comes first, since its subtree is the smallest and a cutoff there is cheapest.
//! Ties are broken by corner stability, the opponent's potential mobility (empty squares next
//! to our discs), quadrant parity and a static square value.

use super::bits::{
    bit, final_score, flips, moves, weighted_mobility, CORNERS, NOT_A, NOT_H, QUADRANT,
};

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
/// position after the move: the opponent (now to move) and the mover; `parity` is the
/// quadrant parity before the move.
#[inline(always)]
pub fn fast_score(next_p: u64, next_o: u64, sq: usize, parity: u8) -> i32 {
    let empty = !(next_p | next_o);
    let mobility = weighted_mobility(next_p, next_o) as i32;
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

/// A cheap heuristic value of the position for `p` (to move), for move ordering only:
/// weighted mobility, potential mobility and corner stability, both sides.
#[inline]
pub fn eval(p: u64, o: u64) -> i32 {
    let empty = !(p | o);
    let mp = moves(p, o);
    let mo = moves(o, p);
    let mobility = (mp.count_ones() + (mp & CORNERS).count_ones()) as i32
        - (mo.count_ones() + (mo & CORNERS).count_ones()) as i32;
    let potential = adjacent_empties(o, empty).count_ones() as i32
        - adjacent_empties(p, empty).count_ones() as i32;
    let corners = corner_stability(p) - corner_stability(o);
    mobility * 8 + potential * 2 + corners * 24
}

/// A finished game in [`eval`] units: far beyond any heuristic value.
const WIN_UNIT: i32 = 512;

/// Shallow alpha-beta (fail-soft negamax) on [`eval`], `depth` plies, for ordering moves
/// of the exact search at many empties.
pub fn shallow_value(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return eval(p, o);
    }
    let mut m = moves(p, o);
    if m == 0 {
        if moves(o, p) == 0 {
            return final_score(p, (!(p | o)).count_ones()) * WIN_UNIT;
        }
        return -shallow_value(o, p, depth - 1, -beta, -alpha);
    }
    let mut best = i32::MIN + 1;
    while m != 0 {
        let sq = m.trailing_zeros() as usize;
        m &= m - 1;
        let f = flips(p, o, sq);
        let v = -shallow_value(o & !f, p | f | bit(sq), depth - 1, -beta, -alpha);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
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

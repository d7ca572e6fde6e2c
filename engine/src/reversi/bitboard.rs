//! Raw bitboard functions: move generation, flips and bit helpers.
//!
//! A board side is one `u64`; bit `y * 8 + x` is the square at column `x` (a–h) and row `y`
//! (1–8, counted from the top), so bit 0 is a1 and bit 63 is h8. These functions take the
//! discs of the side to move (`player`) and of the other side (`opponent`) and never allocate:
//! they are the hot path of perft and of the search.

/// Every square except the a-file (x = 0).
pub const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square except the h-file (x = 7).
pub const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The four corners a1, h1, a8, h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The single bit of square `sq` (0..64).
#[inline(always)]
pub const fn bit(sq: u8) -> u64 {
    1u64 << sq
}

/// Number of discs (set bits) on a bitboard.
#[inline(always)]
pub const fn count(b: u64) -> u32 {
    b.count_ones()
}

/// The squares of a bitboard, lowest index first.
#[inline(always)]
pub const fn squares(b: u64) -> Squares {
    Squares(b)
}

/// Iterator over the set squares of a bitboard (see [`squares`]).
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

/// Legal moves of `player` against `opponent`: every empty square from which a line of
/// opponent discs runs, in one of the 8 directions, up to a player disc.
///
/// Parallel-prefix (Kogge–Stone style) flood fill in each direction; for the horizontal and
/// diagonal directions the opponent discs are masked to files b–g so that no fill wraps
/// around the board edge.
#[inline(always)]
pub fn moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let inner = opponent & 0x7e7e_7e7e_7e7e_7e7e;
    let found = fill_pair(player, inner, 1)
        | fill_pair(player, opponent, 8)
        | fill_pair(player, inner, 7)
        | fill_pair(player, inner, 9);
    found & empty
}

/// Squares reached by flooding from `player` over `mask` (opponent discs) in direction
/// `+shift` and `-shift`, one step beyond the run. Runs are at most 6 discs long.
#[inline(always)]
fn fill_pair(player: u64, mask: u64, shift: u32) -> u64 {
    let mut left = mask & (player << shift);
    let mut right = mask & (player >> shift);
    left |= mask & (left << shift);
    right |= mask & (right >> shift);
    let mask_left = mask & (mask << shift);
    let mask_right = mask & (mask >> shift);
    left |= mask_left & (left << (2 * shift));
    right |= mask_right & (right >> (2 * shift));
    left |= mask_left & (left << (2 * shift));
    right |= mask_right & (right >> (2 * shift));
    (left << shift) | (right >> shift)
}

/// The ray of squares leaving `sq` in direction (`dx`, `dy`), `sq` itself excluded,
/// up to the board edge.
pub(crate) const fn ray(sq: usize, dx: i32, dy: i32) -> u64 {
    let mut x = (sq % 8) as i32 + dx;
    let mut y = (sq / 8) as i32 + dy;
    let mut r = 0u64;
    while x >= 0 && x < 8 && y >= 0 && y < 8 {
        r |= 1u64 << (y * 8 + x);
        x += dx;
        y += dy;
    }
    r
}

/// Rays towards higher square indices: east (+1), south-west (+7), south (+8), south-east (+9).
const RAYS_UP: [[u64; 4]; 64] = {
    let mut t = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = [ray(sq, 1, 0), ray(sq, -1, 1), ray(sq, 0, 1), ray(sq, 1, 1)];
        sq += 1;
    }
    t
};

/// Rays towards lower square indices: west (-1), north-east (-7), north (-8), north-west (-9).
const RAYS_DOWN: [[u64; 4]; 64] = {
    let mut t = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = [ray(sq, -1, 0), ray(sq, 1, -1), ray(sq, 0, -1), ray(sq, -1, -1)];
        sq += 1;
    }
    t
};

/// The opponent discs that a `player` disc placed on `sq` would flip (0 when none, i.e. the
/// move is illegal). `sq` must be empty and below 64.
///
/// Per-direction ray method: along each ray the first square that is not an opponent disc
/// is found with one bit scan; if it holds a player disc, the ray squares before it flip.
#[inline]
pub fn flips(player: u64, opponent: u64, sq: u8) -> u64 {
    let sq = (sq & 63) as usize;
    let mut flipped = 0u64;
    let up = &RAYS_UP[sq];
    let down = &RAYS_DOWN[sq];
    for i in 0..4 {
        // Towards higher indices: the lowest non-opponent square ends the run.
        let ray = up[i];
        let stop = ray & !opponent;
        let first = stop & stop.wrapping_neg();
        let hit = ((first & player) != 0) as u64;
        flipped |= first.wrapping_sub(1) & ray & hit.wrapping_neg();

        // Towards lower indices: the highest non-opponent square ends the run. With no such
        // square `stop | 1` yields bit 0, which then is not a player disc on the ray.
        let ray = down[i];
        let stop = ray & !opponent;
        let last = 0x8000_0000_0000_0000u64 >> (stop | 1).leading_zeros();
        let hit = ((last & player & ray) != 0) as u64;
        flipped |= ray & (last.wrapping_neg() ^ last) & hit.wrapping_neg();
    }
    flipped
}

/// Slow reference for tests (here and in the endgame solver): walks each direction square by
/// square.
#[cfg(test)]
pub(crate) fn flips_slow(player: u64, opponent: u64, sq: u8) -> u64 {
    let mut total = 0;
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let (mut x, mut y) = ((sq % 8) as i32 + dx, (sq / 8) as i32 + dy);
        let mut run = 0u64;
        while (0..8).contains(&x) && (0..8).contains(&y) {
            let b = 1u64 << (y * 8 + x);
            if opponent & b != 0 {
                run |= b;
            } else {
                if player & b != 0 {
                    total |= run;
                }
                break;
            }
            x += dx;
            y += dy;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves_slow(player: u64, opponent: u64) -> u64 {
        (0..64u8)
            .filter(|&sq| {
                (player | opponent) & bit(sq) == 0 && flips_slow(player, opponent, sq) != 0
            })
            .fold(0, |m, sq| m | bit(sq))
    }

    #[test]
    fn start_moves_are_d3_c4_f5_e6() {
        // Black: d5 (3,4) and e4 (4,3); white: d4 (3,3) and e5 (4,4).
        let black = bit(4 * 8 + 3) | bit(3 * 8 + 4);
        let white = bit(3 * 8 + 3) | bit(4 * 8 + 4);
        let expected = bit(2 * 8 + 3) | bit(3 * 8 + 2) | bit(4 * 8 + 5) | bit(5 * 8 + 4);
        assert_eq!(moves(black, white), expected);
        assert_eq!(flips(black, white, 2 * 8 + 3), bit(3 * 8 + 3));
    }

    #[test]
    fn fast_functions_match_the_slow_reference() {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..20_000 {
            let a = rng.next_u64();
            let b = rng.next_u64();
            // Dense random boards with long runs, and sparse ones.
            let occupied = a | b | rng.next_u64();
            let player = a & b & occupied;
            let opponent = !player & occupied & (rng.next_u64() | rng.next_u64());
            assert_eq!(moves(player, opponent), moves_slow(player, opponent));
            for sq in 0..64u8 {
                if (player | opponent) & bit(sq) == 0 {
                    assert_eq!(flips(player, opponent, sq), flips_slow(player, opponent, sq));
                }
            }
        }
    }

    #[test]
    fn squares_iterates_set_bits() {
        let b = bit(0) | bit(9) | bit(63);
        assert_eq!(squares(b).collect::<Vec<_>>(), vec![0, 9, 63]);
        assert_eq!(squares(b).len(), 3);
        assert_eq!(count(b), 3);
    }
}

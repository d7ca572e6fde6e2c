//! The solver's own hot-path bitboard code: flips, the flip count of the last empty square,
//! quadrant parity and a few masks. Move generation and the rays are `reversi::bitboard`'s.
//!
//! Layout as in `reversi::bitboard`: bit `y * 8 + x`, a1 = bit 0 (top-left), h8 = bit 63.
//! `p` is always the side to move, `o` the other side.

use crate::reversi::bitboard::ray;
pub use crate::reversi::bitboard::{moves, CORNERS, NOT_A_FILE as NOT_A, NOT_H_FILE as NOT_H};

/// The a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
pub const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Row 1 (the top row).
pub const RANK_1: u64 = 0x0000_0000_0000_00ff;
/// Row 8 (the bottom row).
pub const RANK_8: u64 = 0xff00_0000_0000_0000;

/// The single bit of square `sq`.
#[inline(always)]
pub const fn bit(sq: usize) -> u64 {
    1u64 << sq
}

/// Per square: the rays towards higher indices (E, SW, S, SE) then towards lower (W, NE, N, NW).
#[repr(align(64))]
struct Rays([[u64; 8]; 64]);

static RAYS: Rays = {
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = [
            ray(sq, 1, 0),
            ray(sq, -1, 1),
            ray(sq, 0, 1),
            ray(sq, 1, 1),
            ray(sq, -1, 0),
            ray(sq, 1, -1),
            ray(sq, 0, -1),
            ray(sq, -1, -1),
        ];
        sq += 1;
    }
    Rays(t)
};

/// Discs of `o` flipped by `p` playing on the empty square `sq` (0 if the move is illegal).
///
/// Towards higher indices the first non-`o` square of a ray is found with a carry
/// (`(o | !ray) + 1`), towards lower indices with a leading-zero count.
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let r = &RAYS.0[sq & 63];
    let mut f = 0u64;
    let mut i = 0;
    while i < 4 {
        let ray = r[i];
        let outflank = ((o & ray) | !ray).wrapping_add(1) & ray & p;
        f |= outflank.wrapping_sub((outflank != 0) as u64) & ray;

        let ray = r[i + 4];
        let outflank = (0x8000_0000_0000_0000u64 >> ((!o & ray) | 1).leading_zeros()) & p & ray;
        f |= outflank.wrapping_neg().wrapping_shl(1) & ray;
        i += 1;
    }
    f
}

/// `LINE_FLIPS[x][line]`: discs flipped on an 8-square line when the player with discs
/// `line` plays at `x`, every other square of the line being the opponent's.
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut x = 0;
    while x < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0u8;
            // Towards lower indices: opponent discs up to a player disc.
            let mut y = x as i32 - 1;
            let mut run = 0u8;
            while y >= 0 && line & (1 << y) == 0 {
                run += 1;
                y -= 1;
            }
            if y >= 0 {
                n += run;
            }
            let mut y = x + 1;
            let mut run = 0u8;
            while y < 8 && line & (1 << y) == 0 {
                run += 1;
                y += 1;
            }
            if y < 8 {
                n += run;
            }
            t[x][line] = n;
            line += 1;
        }
        x += 1;
    }
    t
};

/// Per square: its a1-h8 diagonal and its h1-a8 diagonal.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut t = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] =
            [ray(sq, 1, 1) | ray(sq, -1, -1) | bit(sq), ray(sq, -1, 1) | ray(sq, 1, -1) | bit(sq)];
        sq += 1;
    }
    t
};

/// Number of discs `p` flips by playing the last empty square `sq`, when every other square
/// is taken (the opponent owns everything `p` does not). Counts along the four lines with
/// table lookups: no flip generation, no population count.
#[inline(always)]
pub fn count_last_flip(p: u64, sq: usize) -> i32 {
    let (x, y) = (sq & 7, sq >> 3);
    let row = (p >> (sq & 56)) as u8 as usize;
    let col = ((p >> x) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let [d9, d7] = DIAGONALS[sq];
    let d9 = (p & d9).wrapping_mul(FILE_A) >> 56;
    let d7 = (p & d7).wrapping_mul(FILE_A) >> 56;
    (LINE_FLIPS[x][row]
        + LINE_FLIPS[y][col as usize]
        + LINE_FLIPS[x][d9 as usize]
        + LINE_FLIPS[x][d7 as usize]) as i32
}

/// Quadrant of each square as a one-hot 4-bit value (a1–d4, e1–h4, a5–d8, e5–h8).
pub static QUADRANT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let q = (sq % 8) / 4 + 2 * ((sq / 8) / 4);
        t[sq] = 1 << q;
        sq += 1;
    }
    t
};

/// Union of the quadrants whose parity bit is set, for each 4-bit parity value.
pub static PARITY_MASK: [u64; 16] = {
    let quads = [
        0x0000_0000_0f0f_0f0fu64,
        0x0000_0000_f0f0_f0f0,
        0x0f0f_0f0f_0000_0000,
        0xf0f0_f0f0_0000_0000,
    ];
    let mut t = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut q = 0;
        while q < 4 {
            if i & (1 << q) != 0 {
                t[i] |= quads[q];
            }
            q += 1;
        }
        i += 1;
    }
    t
};

/// The parity of the empty squares per quadrant (bit q set when quadrant q holds an odd count).
#[inline]
pub fn parity_of(empties: u64) -> u8 {
    let mut parity = 0u8;
    let mut e = empties;
    while e != 0 {
        parity ^= QUADRANT[e.trailing_zeros() as usize];
        e &= e - 1;
    }
    parity
}

/// Static move-ordering classes, best first (corners, then the inner squares, the A/B edge
/// squares, the second ring, the C squares next to corners, the X squares, and the centre).
pub const PRIORITY: [u64; 7] = [
    0x8100_0000_0000_0081, // corners
    0x0000_3c24_243c_0000, // inner ring around the centre (c3-f6 minus the centre)
    0x3c00_8181_8181_003c, // edges except C squares
    0x003c_4242_4242_3c00, // second ring except X squares
    0x4281_0000_0000_8142, // C squares
    0x0042_0000_0000_4200, // X squares
    0x0000_0018_1800_0000, // the centre (only empty in composed positions)
];

/// Final score for `p` when the game ends with `empties` empty squares: the disc difference,
/// with the empty squares given to the winner.
#[inline(always)]
pub fn final_score(p: u64, empties: u32) -> i32 {
    let np = p.count_ones() as i32;
    let no = 64 - empties as i32 - np;
    let d = np - no;
    if d > 0 {
        d + empties as i32
    } else if d < 0 {
        d - empties as i32
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn flips_slow(p: u64, o: u64, sq: usize) -> u64 {
        crate::reversi::bitboard::flips_slow(p, o, sq as u8)
    }

    fn random_board(rng: &mut Rng) -> (u64, u64) {
        let occupied = rng.next_u64() | rng.next_u64();
        let p = occupied & rng.next_u64();
        (p, occupied & !p)
    }

    #[test]
    fn flips_and_moves_match_a_square_by_square_walk() {
        let mut rng = Rng::new(11);
        for _ in 0..20_000 {
            let (p, o) = random_board(&mut rng);
            let mut m = 0;
            for sq in 0..64 {
                if (p | o) & bit(sq) == 0 {
                    let f = flips_slow(p, o, sq);
                    assert_eq!(flips(p, o, sq), f, "p={p:#x} o={o:#x} sq={sq}");
                    if f != 0 {
                        m |= bit(sq);
                    }
                }
            }
            assert_eq!(moves(p, o), m);
        }
    }

    #[test]
    fn flips_and_moves_match_the_rules_module() {
        use crate::reversi::bitboard;
        let mut rng = Rng::new(13);
        for _ in 0..20_000 {
            let (p, o) = random_board(&mut rng);
            assert_eq!(moves(p, o), bitboard::moves(p, o));
            for sq in 0..64u8 {
                if (p | o) & bit(sq as usize) == 0 {
                    assert_eq!(flips(p, o, sq as usize), bitboard::flips(p, o, sq));
                }
            }
        }
    }

    #[test]
    fn last_flip_count_matches_the_walk() {
        let mut rng = Rng::new(12);
        for _ in 0..20_000 {
            let sq = rng.below(64) as usize;
            let p = rng.next_u64() & !bit(sq);
            let o = !p & !bit(sq);
            assert_eq!(count_last_flip(p, sq), flips_slow(p, o, sq).count_ones() as i32);
        }
    }

    #[test]
    fn priority_classes_partition_the_board() {
        let all = PRIORITY.iter().fold(0u64, |a, &m| {
            assert_eq!(a & m, 0);
            a | m
        });
        assert_eq!(all, !0);
    }

    #[test]
    fn parity_masks_cover_their_quadrants() {
        assert_eq!(PARITY_MASK[15], !0);
        for sq in 0..64 {
            assert_ne!(PARITY_MASK[QUADRANT[sq] as usize] & bit(sq), 0);
        }
        assert_eq!(parity_of(bit(0) | bit(1) | bit(63)), 0b1000);
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        assert_eq!(final_score(0xff, 2), 8 - 54 - 2);
        assert_eq!(final_score(!0 >> 2, 2), 62 + 2);
        assert_eq!(final_score(!0 >> 32, 0), 0);
    }
}

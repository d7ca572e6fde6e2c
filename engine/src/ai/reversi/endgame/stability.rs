//! A lower bound on the stable discs of one side: discs that can never be flipped again.
//!
//! Three sources, all sound:
//! * edges: an exact table over the 3^8 edge configurations (an edge disc can only be
//!   flipped along its edge, so every sequence of placements on that edge is tried);
//! * full lines: a disc whose four lines (row, column, both diagonals) are full;
//! * contact: a disc that, in each of the four line directions, has the line full, the board
//!   edge next to it, or a stable disc of its own colour next to it; repeated until no change.
//!
//! The search uses it for the stability cutoff: the side to move can score at most
//! `64 - 2 * stable(opponent)`.

use std::sync::OnceLock;

use super::bits::{FILE_A, FILE_H, NOT_A, NOT_H, RANK_1, RANK_8};

const EDGES: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// `table[p * 256 + o]`: the discs of `p` on one 8-square line that no sequence of
/// placements on that line can flip.
fn edge_table() -> &'static [u8; 65536] {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    TABLE.get_or_init(build_edge_table)
}

/// The line after `mover` places a disc on the empty square `x` of the line: the new
/// `(mover, other)` discs.
fn play_on_line(mover: u8, other: u8, x: u32) -> (u8, u8) {
    let mut flipped = 0u8;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut y = x as i32 + step;
        while (0..8).contains(&y) && other & (1 << y) != 0 {
            run |= 1 << y;
            y += step;
        }
        if (0..8).contains(&y) && mover & (1 << y) != 0 {
            flipped |= run;
        }
    }
    (mover | flipped | (1 << x), other & !flipped)
}

fn build_edge_table() -> Box<[u8; 65536]> {
    let mut t = Box::new([0u8; 65536]);
    // Every configuration, fewest empties first, so that children are ready.
    let mut configs: Vec<(u8, u8)> = Vec::with_capacity(6561);
    for p in 0..=255u8 {
        for o in 0..=255u8 {
            if p & o == 0 {
                configs.push((p, o));
            }
        }
    }
    configs.sort_by_key(|&(p, o)| 8 - (p | o).count_ones());
    for (p, o) in configs {
        let empty = !(p | o);
        let mut stable = p;
        for x in 0..8 {
            if empty & (1 << x) != 0 {
                // `p` plays x, or the other side plays x: what stays of p's discs.
                let (np, no) = play_on_line(p, o, x);
                stable &= t[np as usize * 256 + no as usize];
                let (no, np) = play_on_line(o, p, x);
                stable &= t[np as usize * 256 + no as usize];
            }
        }
        t[p as usize * 256 + o as usize] = stable;
    }
    t
}

/// Column a packed into a byte, row y at bit y.
#[inline(always)]
fn file_a_to_byte(b: u64) -> usize {
    ((b & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Byte bit y → square (0, y).
static BYTE_TO_FILE_A: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut y = 0;
        while y < 8 {
            if i & (1 << y) != 0 {
                t[i] |= 1u64 << (8 * y);
            }
            y += 1;
        }
        i += 1;
    }
    t
};

/// Stable discs of `p` on the four edges (exact per edge).
#[inline]
fn edge_stable(t: &[u8; 65536], p: u64, o: u64) -> u64 {
    let top = t[(p & 0xff) as usize * 256 + (o & 0xff) as usize] as u64;
    let bottom = (t[(p >> 56) as usize * 256 + (o >> 56) as usize] as u64) << 56;
    let left = BYTE_TO_FILE_A[t[file_a_to_byte(p) * 256 + file_a_to_byte(o)] as usize];
    let right =
        BYTE_TO_FILE_A[t[file_a_to_byte(p >> 7) * 256 + file_a_to_byte(o >> 7)] as usize] << 7;
    top | bottom | left | right
}

/// Squares whose row, column, a1-h8 diagonal, h1-a8 diagonal are full, in that order.
#[inline]
pub fn full_lines(filled: u64) -> [u64; 4] {
    let t = filled & (filled >> 4);
    let t = t & (t >> 2);
    let t = t & (t >> 1);
    let rows = (t & FILE_A).wrapping_mul(0xff);

    let t = filled & (filled >> 32);
    let t = t & (t >> 16);
    let t = t & (t >> 8);
    let cols = (t & 0xff).wrapping_mul(FILE_A);

    let empty = !filled;
    // Occluded fills of the empty squares along each diagonal, both ways.
    let spread = |shift: u32, left_mask: u64, right_mask: u64| {
        let (mut l, mut pl) = (empty, left_mask);
        let (mut r, mut pr) = (empty, right_mask);
        l |= pl & (l << shift);
        r |= pr & (r >> shift);
        pl &= pl << shift;
        pr &= pr >> shift;
        l |= pl & (l << (2 * shift));
        r |= pr & (r >> (2 * shift));
        pl &= pl << (2 * shift);
        pr &= pr >> (2 * shift);
        l |= pl & (l << (4 * shift));
        r |= pr & (r >> (4 * shift));
        l | r
    };
    let diag9 = !spread(9, NOT_A, NOT_H);
    let diag7 = !spread(7, NOT_H, NOT_A);
    [rows, cols, diag9, diag7]
}

/// The stable discs of `p` (a subset of the truly stable ones).
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let [rows, cols, diag9, diag7] = full_lines(p | o);
    let mut stable = edge_stable(edge_table(), p, o) & p;
    stable |= p & rows & cols & diag9 & diag7;
    if stable == 0 {
        return 0;
    }
    loop {
        let h = rows | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H) | FILE_A | FILE_H;
        let v = cols | (stable << 8) | (stable >> 8) | RANK_1 | RANK_8;
        let d9 = diag9 | ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H) | EDGES;
        let d7 = diag7 | ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A) | EDGES;
        let next = stable | (p & h & v & d9 & d7);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Number of stable discs of `p`.
#[inline]
pub fn stable_count(p: u64, o: u64) -> i32 {
    stable_discs(p, o).count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::super::bits::{bit, flips, moves};
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn corners_and_full_boards_are_stable() {
        assert_eq!(stable_discs(bit(0), bit(9)), bit(0));
        let p = 0x0f0f_0f0f_0f0f_0f0f;
        assert_eq!(stable_discs(p, !p), p);
        assert_eq!(stable_discs(0, !0), 0);
        // A lone centre disc is not stable.
        assert_eq!(stable_discs(bit(27), bit(28)), 0);
    }

    #[test]
    fn a_filled_top_edge_is_stable() {
        let p = 0x0f;
        let o = 0xf0;
        assert_eq!(stable_discs(p, o), p);
        assert_eq!(stable_discs(o, p), o);
        // a1 b1 c1 for p, e1 for o, d1 empty: only the run from the corner is stable.
        assert_eq!(stable_discs(0x07, 0x10), 0x07);
        assert_eq!(stable_discs(0x06, 0x10), 0);
    }

    #[test]
    fn full_lines_of_a_full_board_are_everything() {
        assert_eq!(full_lines(!0), [!0; 4]);
        let [r, c, d9, d7] = full_lines(!bit(0));
        assert_eq!(r, !0xff);
        assert_eq!(c, !FILE_A);
        assert_eq!(d9, !0x8040_2010_0804_0201);
        assert_eq!(d7 & bit(0), 0);
        assert_eq!(d7, !bit(0));
    }

    /// Random playouts: a disc reported stable must never change colour afterwards, and the
    /// count never exceeds the discs of that side.
    #[test]
    fn stable_discs_never_flip_in_random_games() {
        let mut rng = Rng::new(5);
        for _ in 0..3000 {
            // Play random moves from the start position.
            let (mut p, mut o) = (bit(28) | bit(35), bit(27) | bit(36));
            let mut stable_now: Vec<(u64, u64)> = Vec::new(); // (stable of p-side, of o-side)
            let mut black_to_move = true;
            loop {
                let (black, white) = if black_to_move { (p, o) } else { (o, p) };
                let sb = stable_discs(black, white);
                let sw = stable_discs(white, black);
                assert_eq!(sb & !black, 0);
                assert_eq!(sw & !white, 0);
                for &(b0, w0) in &stable_now {
                    assert_eq!(b0 & !black, 0, "a stable black disc flipped");
                    assert_eq!(w0 & !white, 0, "a stable white disc flipped");
                }
                stable_now.push((sb, sw));
                let m = moves(p, o);
                if m == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    black_to_move = !black_to_move;
                    continue;
                }
                let n = m.count_ones() as u64;
                let mut mm = m;
                for _ in 0..rng.below(n) {
                    mm &= mm - 1;
                }
                let sq = mm.trailing_zeros() as usize;
                let f = flips(p, o, sq);
                let (np, no) = (o & !f, p | f | bit(sq));
                p = np;
                o = no;
                black_to_move = !black_to_move;
            }
        }
    }
}

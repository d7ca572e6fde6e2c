//! Special code for the last 1–4 empty squares: no move generation and no move list, the
//! empty squares are tried directly (after a cheap neighbour test), and the very last square
//! only counts flips.
//!
//! All functions are null-window searches (`beta = alpha + 1`) returning fail-soft scores for
//! the side to move `p` (`o` is the other side).

use super::bits::{bit, count_last_flip, final_score, flips, QUADRANT};
use super::search::Search;

/// Squares adjacent to each square (king moves).
pub static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dy = -1;
        while dy <= 1 {
            let mut dx = -1;
            while dx <= 1 {
                let (nx, ny) = (x + dx, y + dy);
                if (dx != 0 || dy != 0) && nx >= 0 && nx < 8 && ny >= 0 && ny < 8 {
                    t[sq] |= 1u64 << (ny * 8 + nx);
                }
                dx += 1;
            }
            dy += 1;
        }
        sq += 1;
    }
    t
};

/// Flips of `p` playing `x`, or 0 when `x` has no `o` neighbour (so is surely illegal).
#[inline(always)]
fn try_flips(p: u64, o: u64, x: usize) -> u64 {
    if NEIGHBOURS[x] & o != 0 {
        flips(p, o, x)
    } else {
        0
    }
}

const INF: i32 = 65;

impl Search<'_> {
    /// Exact score with one empty square `x`; `p` holds every other square it does not own
    /// to the opponent.
    #[inline(always)]
    pub(super) fn solve_1(&mut self, p: u64, x: usize) -> i32 {
        self.nodes += 1;
        let np = p.count_ones() as i32;
        let n = count_last_flip(p, x);
        if n > 0 {
            return 2 * (np + n) - 62;
        }
        let n = count_last_flip(!p & !bit(x), x);
        if n > 0 {
            return 2 * (np - n) - 64;
        }
        // Nobody can play: the empty square goes to the winner (the difference is odd).
        let d = 2 * np - 63;
        if d > 0 {
            d + 1
        } else {
            d - 1
        }
    }

    /// Two empty squares.
    pub(super) fn solve_2(&mut self, p: u64, o: u64, alpha: i32, x1: usize, x2: usize) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let f = try_flips(p, o, x1);
        if f != 0 {
            best = -self.solve_1(o & !f, x2);
            if best > alpha {
                return best;
            }
        }
        let f = try_flips(p, o, x2);
        if f != 0 {
            return best.max(-self.solve_1(o & !f, x1));
        }
        if best > -INF {
            return best;
        }
        // `p` passes.
        let mut best = INF;
        let f = try_flips(o, p, x1);
        if f != 0 {
            best = self.solve_1(p & !f, x2);
            if best <= alpha {
                return best;
            }
        }
        let f = try_flips(o, p, x2);
        if f != 0 {
            return best.min(self.solve_1(p & !f, x1));
        }
        if best < INF {
            best
        } else {
            final_score(p, 2)
        }
    }

    /// Three empty squares, tried in the given order.
    pub(super) fn solve_3(&mut self, p: u64, o: u64, alpha: i32, x: [usize; 3]) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for i in 0..3 {
            let f = try_flips(p, o, x[i]);
            if f != 0 {
                let (a, b) = rest2(x, i);
                let v = -self.solve_2(o & !f, p | f | bit(x[i]), -alpha - 1, a, b);
                if v > best {
                    if v > alpha {
                        return v;
                    }
                    best = v;
                }
            }
        }
        if best > -INF {
            return best;
        }
        let mut best = INF;
        for i in 0..3 {
            let f = try_flips(o, p, x[i]);
            if f != 0 {
                let (a, b) = rest2(x, i);
                let v = self.solve_2(p & !f, o | f | bit(x[i]), alpha, a, b);
                if v < best {
                    if v <= alpha {
                        return v;
                    }
                    best = v;
                }
            }
        }
        if best < INF {
            best
        } else {
            final_score(p, 3)
        }
    }

    /// Four empty squares: a stability cutoff when alpha is high enough, then squares alone
    /// in their quadrant region (odd parity) first.
    pub(super) fn solve_4(&mut self, p: u64, o: u64, alpha: i32) -> i32 {
        if let Some(bound) = self.stability_cut(p, o, alpha, 4) {
            self.nodes += 1;
            return bound;
        }
        let mut e = !(p | o);
        let mut sq = [0usize; 4];
        let mut parity = 0u8;
        for s in &mut sq {
            *s = e.trailing_zeros() as usize;
            parity ^= QUADRANT[*s];
            e &= e - 1;
        }
        // Stable partition: odd quadrants first.
        let mut x = [0usize; 4];
        let mut k = 0;
        for &s in sq.iter().filter(|&&s| parity & QUADRANT[s] != 0) {
            x[k] = s;
            k += 1;
        }
        for &s in sq.iter().filter(|&&s| parity & QUADRANT[s] == 0) {
            x[k] = s;
            k += 1;
        }
        self.solve_4_sorted(p, o, alpha, x)
    }

    fn solve_4_sorted(&mut self, p: u64, o: u64, alpha: i32, x: [usize; 4]) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for i in 0..4 {
            let f = try_flips(p, o, x[i]);
            if f != 0 {
                let v = -self.solve_3(o & !f, p | f | bit(x[i]), -alpha - 1, rest3(x, i));
                if v > best {
                    if v > alpha {
                        return v;
                    }
                    best = v;
                }
            }
        }
        if best > -INF {
            return best;
        }
        let mut best = INF;
        for i in 0..4 {
            let f = try_flips(o, p, x[i]);
            if f != 0 {
                let v = self.solve_3(p & !f, o | f | bit(x[i]), alpha, rest3(x, i));
                if v < best {
                    if v <= alpha {
                        return v;
                    }
                    best = v;
                }
            }
        }
        if best < INF {
            best
        } else {
            final_score(p, 4)
        }
    }
}

/// The two squares of `x` other than `x[i]`, in order.
#[inline(always)]
fn rest2(x: [usize; 3], i: usize) -> (usize, usize) {
    match i {
        0 => (x[1], x[2]),
        1 => (x[0], x[2]),
        _ => (x[0], x[1]),
    }
}

/// The three squares of `x` other than `x[i]`, in order.
#[inline(always)]
fn rest3(x: [usize; 4], i: usize) -> [usize; 3] {
    match i {
        0 => [x[1], x[2], x[3]],
        1 => [x[0], x[2], x[3]],
        2 => [x[0], x[1], x[3]],
        _ => [x[0], x[1], x[2]],
    }
}

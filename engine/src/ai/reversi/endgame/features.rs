//! The pattern indices of [`PatternEval`](crate::ai::reversi::eval::PatternEval), kept up to
//! date move by move (as Edax does) instead of being recomputed from the whole board: a
//! move changes only the indices of the patterns through the new disc and the flipped ones.
//!
//! An index is the base-3 number of a pattern instance's squares (0 empty, 1 own disc,
//! 2 opponent disc, the first square the lowest digit), so a square changing state adds a
//! multiple of its power of 3. Both points of view are kept, so that a move (which swaps
//! the side to move) is only additions.

use std::sync::OnceLock;

use crate::ai::reversi::board::Board;
use crate::ai::reversi::eval::pattern::{stage, Layout, N_SCALARS};
use crate::ai::reversi::eval::weights::Weights;

/// Most pattern instances (the layout has 46).
const MAX_INSTANCES: usize = 48;

/// Most pattern instances through one square.
const MAX_PER_SQUARE: usize = 8;

/// For each square, the instances through it and the square's power of 3 in each.
struct SquareTerms {
    terms: [[(u8, u16); MAX_PER_SQUARE]; 64],
    len: [u8; 64],
    /// Offset of each instance's table in a stage's weights.
    offsets: [u32; MAX_INSTANCES],
    instances: usize,
}

impl SquareTerms {
    fn build() -> SquareTerms {
        let layout = Layout::get();
        let mut t = SquareTerms {
            terms: [[(0, 0); MAX_PER_SQUARE]; 64],
            len: [0; 64],
            offsets: [0; MAX_INSTANCES],
            instances: layout.instances.len().min(MAX_INSTANCES),
        };
        for (i, (ty, sqs)) in layout.instances.iter().enumerate().take(MAX_INSTANCES) {
            t.offsets[i] = layout.offsets[*ty] as u32;
            let mut pow = 1u16;
            for &sq in sqs {
                let n = t.len[sq as usize] as usize;
                if n < MAX_PER_SQUARE {
                    t.terms[sq as usize][n] = (i as u8, pow);
                    t.len[sq as usize] += 1;
                }
                pow = pow.wrapping_mul(3);
            }
        }
        t
    }

    fn get() -> &'static SquareTerms {
        static TERMS: OnceLock<SquareTerms> = OnceLock::new();
        TERMS.get_or_init(SquareTerms::build)
    }

    #[inline]
    fn of(&self, sq: usize) -> &[(u8, u16)] {
        &self.terms[sq][..self.len[sq] as usize]
    }
}

/// The pattern indices of a position from both sides' points of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Features {
    /// `view[0]`: the side to move's discs are 1, the opponent's 2; `view[1]`: the reverse.
    view: [[u16; MAX_INSTANCES]; 2],
}

impl Features {
    /// The indices of the position where `p` is to move, from scratch.
    pub fn new(p: u64, o: u64) -> Features {
        let t = SquareTerms::get();
        let mut f = Features { view: [[0; MAX_INSTANCES]; 2] };
        for (bits, own, opp) in [(p, 1u16, 2u16), (o, 2, 1)] {
            let mut m = bits;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                for &(i, pow) in t.of(sq) {
                    f.view[0][i as usize] += own * pow;
                    f.view[1][i as usize] += opp * pow;
                }
            }
        }
        f
    }

    /// The indices after the side to move plays `sq` flipping `flips` (the opponent is to
    /// move next).
    #[inline]
    pub fn play(&self, sq: usize, flips: u64) -> Features {
        let t = SquareTerms::get();
        // The mover's view becomes the opponent's view and vice versa.
        let mut f = Features { view: [self.view[1], self.view[0]] };
        // The new disc is the mover's: empty -> 2 in the next side's view, -> 1 in the mover's.
        for &(i, pow) in t.of(sq) {
            f.view[0][i as usize] += 2 * pow;
            f.view[1][i as usize] += pow;
        }
        // Flipped discs go from the next side's (1) to the mover's (2) and back in the other view.
        let mut m = flips;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            for &(i, pow) in t.of(s) {
                f.view[0][i as usize] += pow;
                f.view[1][i as usize] -= pow;
            }
        }
        f
    }

    /// The indices after a pass.
    #[inline]
    pub fn pass(&self) -> Features {
        Features { view: [self.view[1], self.view[0]] }
    }

    /// The pattern evaluation of the position where `p` is to move, whose indices these are:
    /// exactly `PatternEval::eval` with the shipped weights.
    #[inline]
    pub fn eval(&self, p: u64, o: u64) -> i32 {
        let t = SquareTerms::get();
        let b = Board { p, o };
        let w = Weights::shipped().stage(stage(b.empties()));
        let mut sum: i32 = 0;
        for (&idx, &off) in self.view[0][..t.instances].iter().zip(&t.offsets[..t.instances]) {
            sum += w[off as usize + idx as usize] as i32;
        }
        let base = Layout::get().stage_len - N_SCALARS;
        for (k, f) in Layout::scalars(&b).iter().enumerate() {
            sum += w[base + k] as i32 * f;
        }
        sum.clamp(-6399, 6399)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::reversi::eval::{Evaluator, PatternEval};
    use crate::reversi::bitboard::{flips, moves};
    use crate::rng::Rng;

    #[test]
    fn every_instance_fits_the_tables() {
        let layout = Layout::get();
        assert!(layout.instances.len() <= MAX_INSTANCES);
        let mut through = [0usize; 64];
        for (_, sqs) in &layout.instances {
            for &sq in sqs {
                through[sq as usize] += 1;
            }
        }
        assert!(through.iter().all(|&n| n <= MAX_PER_SQUARE), "{through:?}");
    }

    #[test]
    fn incremental_indices_and_values_match_pattern_eval_along_random_games() {
        let pe = PatternEval::new();
        let mut rng = Rng::new(11);
        for _ in 0..200 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut f = Features::new(p, o);
            loop {
                assert_eq!(f, Features::new(p, o));
                assert_eq!(f.eval(p, o), pe.eval(&Board { p, o }));
                let legal = moves(p, o);
                if legal == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    f = f.pass();
                    (p, o) = (o, p);
                    continue;
                }
                let n = rng.below(legal.count_ones() as u64) as u32;
                let mut m = legal;
                for _ in 0..n {
                    m &= m - 1;
                }
                let sq = m.trailing_zeros() as u8;
                let fl = flips(p, o, sq);
                f = f.play(sq as usize, fl);
                (p, o) = (o & !fl, p | fl | (1u64 << sq));
            }
        }
    }
}

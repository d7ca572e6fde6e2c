//! Pattern evaluation: the sum, over pattern instances on the board, of a fitted weight for
//! the exact contents (empty / own / opponent) of the pattern's squares, plus a few scalar
//! features, with a separate set of weights for each game stage.
//!
//! Patterns (as in Logistello and Edax), each with all its distinct images under the 8
//! symmetries of the board sharing one table:
//! edge + 2 X squares (10 squares), 3x3 corner (9), rows/columns 2, 3 and 4 (8 each) and
//! the diagonals of length 8, 7, 6, 5 and 4. Scalar features: mobility difference,
//! potential mobility (frontier) difference and a constant.
//!
//! Scores are in hundredths of a disc of final margin for the side to move.

use std::sync::OnceLock;

use super::weights::Weights;
use super::Evaluator;
use crate::ai::reversi::board::Board;
use crate::reversi::bitboard::moves;

/// Number of game stages with their own weights (by discs on the board).
pub const N_STAGES: usize = 8;

/// One pattern type: its squares (for the instance at the top-left / top edge) in order.
struct PatternDef {
    name: &'static str,
    squares: &'static [(u8, u8)],
}

const PATTERN_DEFS: [PatternDef; 10] = [
    PatternDef {
        name: "edge+2x",
        squares: &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (1, 1), (6, 1)],
    },
    PatternDef {
        name: "corner3x3",
        squares: &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
    },
    PatternDef {
        name: "row2",
        squares: &[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)],
    },
    PatternDef {
        name: "row3",
        squares: &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)],
    },
    PatternDef {
        name: "row4",
        squares: &[(0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3), (7, 3)],
    },
    PatternDef {
        name: "diag8",
        squares: &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)],
    },
    PatternDef {
        name: "diag7",
        squares: &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)],
    },
    PatternDef { name: "diag6", squares: &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)] },
    PatternDef { name: "diag5", squares: &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)] },
    PatternDef { name: "diag4", squares: &[(0, 4), (1, 5), (2, 6), (3, 7)] },
];

/// Number of scalar features after the pattern tables.
pub const N_SCALARS: usize = 3;

/// The 8 symmetries of the board acting on (x, y).
fn symmetry(k: usize, (x, y): (u8, u8)) -> (u8, u8) {
    let (x, y) = if k & 4 != 0 { (y, x) } else { (x, y) };
    let x = if k & 1 != 0 { 7 - x } else { x };
    let y = if k & 2 != 0 { 7 - y } else { y };
    (x, y)
}

/// The pattern instances and the layout of the weight vector, computed once.
pub struct Layout {
    /// For each instance: its pattern type and its squares (0..64) in table order.
    pub instances: Vec<(usize, Vec<u8>)>,
    /// Offset of each pattern type's table in a stage's weights.
    pub offsets: Vec<usize>,
    /// Table size (3^squares) of each pattern type.
    pub sizes: Vec<usize>,
    /// For each pattern type, the permutations of its square order that map the pattern
    /// onto itself (mirror images), identity included.
    pub self_maps: Vec<Vec<Vec<usize>>>,
    /// Weights per stage: all tables, then the scalars.
    pub stage_len: usize,
}

impl Layout {
    fn build() -> Layout {
        let mut instances = Vec::new();
        let mut offsets = Vec::new();
        let mut sizes = Vec::new();
        let mut self_maps = Vec::new();
        let mut offset = 0;
        for (t, def) in PATTERN_DEFS.iter().enumerate() {
            let mut seen: Vec<Vec<u8>> = Vec::new();
            let mut maps: Vec<Vec<usize>> = Vec::new();
            for k in 0..8 {
                let sqs: Vec<u8> = def
                    .squares
                    .iter()
                    .map(|&p| {
                        let (x, y) = symmetry(k, p);
                        y * 8 + x
                    })
                    .collect();
                let mut set = sqs.clone();
                set.sort_unstable();
                if !seen.contains(&set) {
                    seen.push(set);
                    instances.push((t, sqs.clone()));
                }
                // Does symmetry k map the base pattern onto itself?
                let base: Vec<u8> = def.squares.iter().map(|&(x, y)| y * 8 + x).collect();
                let mut base_set = base.clone();
                base_set.sort_unstable();
                let mut img = sqs.clone();
                img.sort_unstable();
                if img == base_set {
                    let perm: Vec<usize> =
                        sqs.iter().map(|s| base.iter().position(|b| b == s).unwrap_or(0)).collect();
                    if !maps.contains(&perm) {
                        maps.push(perm);
                    }
                }
            }
            let size = 3usize.pow(def.squares.len() as u32);
            offsets.push(offset);
            sizes.push(size);
            self_maps.push(maps);
            offset += size;
        }
        Layout { instances, offsets, sizes, self_maps, stage_len: offset + N_SCALARS }
    }

    /// The shared layout.
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::build)
    }

    /// Names of the pattern types, for reports.
    pub fn pattern_names() -> impl Iterator<Item = &'static str> {
        PATTERN_DEFS.iter().map(|d| d.name)
    }

    /// The index, within a stage's weights, of every feature of `b`: one per pattern
    /// instance (`instances.len()` of them), written to `out`.
    #[inline]
    pub fn feature_indices(&self, b: &Board, out: &mut [usize]) {
        let mut cell = [0u8; 64];
        let mut own = b.p;
        while own != 0 {
            cell[own.trailing_zeros() as usize] = 1;
            own &= own - 1;
        }
        let mut opp = b.o;
        while opp != 0 {
            cell[opp.trailing_zeros() as usize] = 2;
            opp &= opp - 1;
        }
        for (slot, (t, sqs)) in out.iter_mut().zip(&self.instances) {
            let mut idx = 0usize;
            for &sq in sqs.iter().rev() {
                idx = idx * 3 + cell[sq as usize] as usize;
            }
            *slot = self.offsets[*t] + idx;
        }
    }

    /// The scalar features of `b` (mobility difference, frontier difference, 1).
    #[inline]
    pub fn scalars(b: &Board) -> [i32; N_SCALARS] {
        let mobility = moves(b.p, b.o).count_ones() as i32 - moves(b.o, b.p).count_ones() as i32;
        let empty = b.empty();
        let frontier = |d: u64| (neighbours(d) & empty).count_ones() as i32;
        // Empty squares next to the opponent are our potential moves, and vice versa.
        [mobility, frontier(b.o) - frontier(b.p), 1]
    }

    /// The canonical representative of table entry `idx` of pattern type `t` (the smallest
    /// index among its mirror images), so that mirror-image contents share one weight.
    pub fn canonical(&self, t: usize, idx: usize) -> usize {
        let n = PATTERN_DEFS[t].squares.len();
        let mut digits = [0usize; 10];
        let mut v = idx;
        for d in digits.iter_mut().take(n) {
            *d = v % 3;
            v /= 3;
        }
        let mut best = idx;
        for perm in &self.self_maps[t] {
            // Instance square i holds base square perm[i]; read the digits in that order.
            let mut img = 0usize;
            for i in (0..n).rev() {
                img = img * 3 + digits[perm[i]];
            }
            best = best.min(img);
        }
        best
    }
}

/// Squares next to any disc of `d` (8 directions, no wrap-around).
#[inline]
fn neighbours(d: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let h = ((d << 1) & NOT_A) | ((d >> 1) & NOT_H);
    let row = d | h;
    h | (row << 8) | (row >> 8)
}

/// The stage of a position by its number of empty squares.
#[inline]
pub fn stage(empties: u32) -> usize {
    ((60u32.saturating_sub(empties)) as usize / 8).min(N_STAGES - 1)
}

/// The fitted pattern evaluation.
#[derive(Clone, Copy)]
pub struct PatternEval {
    weights: &'static Weights,
    layout: &'static Layout,
}

impl Default for PatternEval {
    fn default() -> PatternEval {
        PatternEval::new()
    }
}

impl PatternEval {
    /// The evaluation with the shipped weights.
    pub fn new() -> PatternEval {
        PatternEval { weights: Weights::shipped(), layout: Layout::get() }
    }

    /// The evaluation with other weights (used while fitting).
    pub fn with_weights(weights: &'static Weights) -> PatternEval {
        PatternEval { weights, layout: Layout::get() }
    }
}

/// Most instances any layout has (room for the feature indices on the stack).
const MAX_INSTANCES: usize = 48;

impl Evaluator for PatternEval {
    #[inline]
    fn eval(&self, b: &Board) -> i32 {
        let w = self.weights.stage(stage(b.empties()));
        let mut idx = [0usize; MAX_INSTANCES];
        let n = self.layout.instances.len();
        self.layout.feature_indices(b, &mut idx[..n]);
        let mut sum: i32 = idx[..n].iter().map(|&i| w[i] as i32).sum();
        let base = self.layout.stage_len - N_SCALARS;
        for (k, f) in Layout::scalars(b).iter().enumerate() {
            sum += w[base + k] as i32 * f;
        }
        sum.clamp(-6399, 6399)
    }

    #[inline]
    fn terminal(&self, b: &Board) -> i32 {
        b.final_diff() * 100
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_has_the_expected_instances() {
        let l = Layout::get();
        let count = |t: usize| l.instances.iter().filter(|(k, _)| *k == t).count();
        // edge+2x, corner, rows 2-4: 4 each; diag8: 2; shorter diagonals: 4 each.
        let expected = [4, 4, 4, 4, 4, 2, 4, 4, 4, 4];
        for (t, &e) in expected.iter().enumerate() {
            assert_eq!(count(t), e, "pattern {t}");
        }
        assert!(l.instances.len() <= MAX_INSTANCES);
        assert_eq!(l.stage_len, 59049 + 19683 + 3 * 6561 + 6561 + 2187 + 729 + 243 + 81 + 3);
    }

    #[test]
    fn mirror_images_share_a_canonical_entry() {
        let l = Layout::get();
        // row2 has the left-right mirror: digits reversed.
        let idx = 1 + 2 * 3; // own on a2, opponent on b2
        let mirror = 3usize.pow(7) + 2 * 3usize.pow(6); // own on h2, opponent on g2
        assert_eq!(l.canonical(2, idx), l.canonical(2, mirror));
        assert_ne!(l.canonical(2, idx), l.canonical(2, 2 + 3));
        // The 3x3 corner is symmetric about its diagonal: b1 <-> a2.
        assert_eq!(l.canonical(1, 3), l.canonical(1, 27));
    }

    #[test]
    fn symmetric_boards_get_the_same_features() {
        // The features (as a multiset) of a board and of its mirror image are the same.
        let l = Layout::get();
        let b = Board { p: 0x0000_1038_0c00_0201, o: 0x0080_0804_3000_0100 };
        let mirror = |x: u64| -> u64 {
            let mut r = 0;
            for sq in 0..64 {
                if x >> sq & 1 == 1 {
                    r |= 1u64 << ((sq / 8) * 8 + 7 - sq % 8);
                }
            }
            r
        };
        let m = Board { p: mirror(b.p), o: mirror(b.o) };
        let n = l.instances.len();
        let (mut f1, mut f2) = (vec![0; n], vec![0; n]);
        l.feature_indices(&b, &mut f1);
        l.feature_indices(&m, &mut f2);
        let canon = |f: Vec<usize>| {
            let mut v: Vec<usize> = f
                .into_iter()
                .map(|i| {
                    let t = (0..l.offsets.len()).rev().find(|&t| l.offsets[t] <= i).unwrap();
                    l.offsets[t] + l.canonical(t, i - l.offsets[t])
                })
                .collect();
            v.sort_unstable();
            v
        };
        assert_eq!(canon(f1), canon(f2));
        assert_eq!(Layout::scalars(&b), Layout::scalars(&m));
    }
}

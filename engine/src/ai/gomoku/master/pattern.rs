//! Master's pattern lookups: the line table of [`crate::gomoku::line`], and its threat
//! classes.
//!
//! For every empty cell and every direction, Master's board keeps the cell's line key (the
//! ten cells around it, [`crate::gomoku::line`]'s one encoding). [`PatternTable`] is the
//! line foundation's table for the rule, one byte per key (both colours) for the hot path,
//! and for freestyle indexed by the inner eight cells only, small enough to stay in cache;
//! it maps each key to the [`Pat`] a stone of either colour would make there.
//!
//! [`combine`] folds the four directions of one cell into a [`P4`](p4) threat class, which
//! is what move generation, the threat solvers and the evaluation read.

use crate::gomoku::line::{cell, edges_are_outside, pattern, slot_shift, Key, KEY_BITS};
pub use crate::gomoku::line::{Pat, BLACK, EDGE, EMPTY, HALF, WHITE};
use crate::gomoku::Rule;
use crate::Color;
use std::sync::OnceLock;

/// The threat class of one empty cell for one colour, strongest first (smaller is stronger).
pub mod p4 {
    /// Renju: forbidden for black.
    pub const FORBID: u8 = 0;
    /// Makes five.
    pub const A_FIVE: u8 = 1;
    /// Makes an open four or a double four: wins unless the opponent has a four.
    pub const B_FLEX4: u8 = 2;
    /// Makes a four and an open three.
    pub const C_BLOCK4_FLEX3: u8 = 3;
    /// Makes a four plus a lesser three or two.
    pub const D_BLOCK4_PLUS: u8 = 4;
    /// Makes a four.
    pub const E_BLOCK4: u8 = 5;
    /// Makes two open threes.
    pub const F_FLEX3_2X: u8 = 6;
    /// Makes an open three plus something.
    pub const G_FLEX3_PLUS: u8 = 7;
    /// Makes an open three.
    pub const H_FLEX3: u8 = 8;
    /// Makes a blocked three plus something.
    pub const I_BLOCK3_PLUS: u8 = 9;
    /// Makes two open twos.
    pub const J_FLEX2_2X: u8 = 10;
    /// Makes a blocked three.
    pub const K_BLOCK3: u8 = 11;
    /// Makes an open two.
    pub const L_FLEX2: u8 = 12;
    /// Nothing in particular.
    pub const NONE: u8 = 13;
    /// Number of classes.
    pub const COUNT: usize = 14;

    /// Whether a move of this class makes at least a four (and is allowed).
    #[inline]
    pub const fn is_four(c: u8) -> bool {
        c >= A_FIVE && c <= E_BLOCK4
    }

    /// Whether a move of this class makes a four or an open three (and is allowed).
    #[inline]
    pub const fn is_threat(c: u8) -> bool {
        c >= A_FIVE && c <= H_FLEX3
    }
}

/// Folds the four line patterns of a cell into its threat class.
pub fn combine(pats: [u8; 4], renju_black: bool) -> u8 {
    let mut n = [0u8; 12];
    for p in pats {
        n[p as usize % 12] += 1;
    }
    let f5 = n[Pat::F5 as usize];
    let f4 = n[Pat::F4 as usize];
    let b4 = n[Pat::B4 as usize];
    let d4 = n[Pat::DoubleFour as usize];
    let f3 = n[Pat::F3 as usize];
    let b3 = n[Pat::B3 as usize];
    let f2 = n[Pat::F2 as usize];
    if f5 > 0 {
        return p4::A_FIVE;
    }
    if renju_black && (n[Pat::Overline as usize] > 0 || d4 > 0 || f4 + b4 >= 2 || f3 >= 2) {
        return p4::FORBID;
    }
    let fours = b4 + 2 * d4;
    if f4 > 0 || fours >= 2 {
        return p4::B_FLEX4;
    }
    if fours == 1 {
        return if f3 > 0 {
            p4::C_BLOCK4_FLEX3
        } else if b3 + f2 > 0 {
            p4::D_BLOCK4_PLUS
        } else {
            p4::E_BLOCK4
        };
    }
    if f3 >= 2 {
        return p4::F_FLEX3_2X;
    }
    if f3 == 1 {
        return if b3 + f2 > 0 { p4::G_FLEX3_PLUS } else { p4::H_FLEX3 };
    }
    if b3 > 0 && b3 + f2 >= 2 {
        return p4::I_BLOCK3_PLUS;
    }
    if f2 >= 2 {
        return p4::J_FLEX2_2X;
    }
    if b3 > 0 {
        return p4::K_BLOCK3;
    }
    if f2 > 0 {
        return p4::L_FLEX2;
    }
    p4::NONE
}

/// Line key -> pattern for black and for white, for one rule.
pub struct PatternTable {
    /// Black's Pat in the low four bits, white's in the high four (the line foundation's
    /// patterns; zero for keys that never occur), indexed by `(key >> shift) & mask`: the
    /// whole key, or for freestyle only the inner eight cells (the outermost cells never
    /// matter when overlines win), which keeps that table small enough to stay in cache.
    pats: Vec<u8>,
    shift: u32,
    mask: Key,
}

/// Both colours' patterns of a line key, packed as in [`PatternTable`].
fn both_pats(key: Key, rule: Rule) -> u8 {
    if edges_are_outside(key) {
        pattern(key, Color::Black, rule) as u8 | (pattern(key, Color::White, rule) as u8) << 4
    } else {
        0
    }
}

impl PatternTable {
    /// The table for `rule`, built on first use and shared afterwards.
    pub fn get(rule: Rule) -> &'static PatternTable {
        static TABLES: [OnceLock<PatternTable>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        TABLES[rule as usize].get_or_init(|| PatternTable::build(rule))
    }

    /// The pattern a stone of colour index `color_index` (0 black, 1 white) makes on a line
    /// with `key`.
    #[inline]
    pub fn pat(&self, key: Key, color_index: usize) -> u8 {
        (self.pats(key) >> (4 * color_index)) & 15
    }

    /// Both colours' patterns for a key: black's in the low four bits, white's in the high.
    #[inline]
    pub fn pats(&self, key: Key) -> u8 {
        self.pats[((key >> self.shift) & self.mask) as usize]
    }

    fn build(rule: Rule) -> PatternTable {
        if rule != Rule::Freestyle {
            let pats = (0..1 << KEY_BITS).map(|key| both_pats(key, rule)).collect();
            return PatternTable { pats, shift: 0, mask: (1 << KEY_BITS) - 1 };
        }
        let pats = (0..1 << 16)
            .map(|i: Key| {
                let mut key = i << 2;
                // An edge four cells out means an edge five cells out too.
                for k in [-HALF, HALF] {
                    let near = if k < 0 { k + 1 } else { k - 1 };
                    if cell(key, near) == EDGE {
                        key |= (EDGE as Key) << slot_shift(k);
                    }
                }
                both_pats(key, rule)
            })
            .collect();
        PatternTable { pats, shift: 2, mask: 0xFFFF }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freestyle_ignores_the_outermost_cells() {
        let t = PatternTable::get(Rule::Freestyle);
        for key in (0..1u32 << KEY_BITS).step_by(7) {
            let outer_free = cell(key, -HALF) != EDGE || cell(key, 1 - HALF) == EDGE;
            let outer_free = outer_free && (cell(key, HALF) != EDGE || cell(key, HALF - 1) == EDGE);
            if edges_are_outside(key) && outer_free {
                assert_eq!(both_pats(key, Rule::Freestyle), t.pats(key), "key {key:#x}");
            }
        }
    }

    #[test]
    fn combine_classes() {
        let f = |p: [Pat; 4], rb| combine(p.map(|p| p as u8), rb);
        use Pat::*;
        assert_eq!(f([F5, Dead, Dead, Dead], false), p4::A_FIVE);
        assert_eq!(f([F5, B4, B4, Dead], true), p4::A_FIVE);
        assert_eq!(f([B4, B4, Dead, Dead], false), p4::B_FLEX4);
        assert_eq!(f([B4, B4, Dead, Dead], true), p4::FORBID);
        assert_eq!(f([F3, F3, Dead, Dead], true), p4::FORBID);
        assert_eq!(f([F3, F3, Dead, Dead], false), p4::F_FLEX3_2X);
        assert_eq!(f([B4, F3, Dead, Dead], true), p4::C_BLOCK4_FLEX3);
        assert_eq!(f([Overline, Dead, Dead, Dead], true), p4::FORBID);
        assert_eq!(f([Overline, Dead, Dead, Dead], false), p4::NONE);
        assert_eq!(f([F2, F2, B1, Dead], false), p4::J_FLEX2_2X);
    }
}

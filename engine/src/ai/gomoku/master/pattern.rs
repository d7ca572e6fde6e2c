//! Line patterns, precomputed over line codes.
//!
//! For every empty cell and every direction, the board keeps a *line code*: the ten cells
//! around it on that line (five on each side), two bits each (empty, black, white, wall).
//! [`PatternTable`] maps each code to the [`Pat`] a stone of either colour would make there,
//! computed once per rule by a small memoised recursion over the code (a five point is a
//! cell that completes five through the centre; a four has one or two of them; a three can
//! become a four by one more stone; and so on down to ones).
//!
//! [`combine`] folds the four directions of one cell into a [`P4`] threat class, which is
//! what move generation, the threat solvers and the evaluation read.

use std::sync::OnceLock;

/// The rules as far as line shapes are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRule {
    /// Five or more in a row wins, for both sides.
    Freestyle,
    /// Exactly five wins, for both sides; an overline is nothing.
    Standard,
    /// Black needs exactly five and may not play double threes, double fours or overlines;
    /// white wins with five or more.
    Renju,
}

impl LineRule {
    fn index(self) -> usize {
        self as usize
    }
}

/// Cell contents as stored in line codes.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const WALL: u8 = 3;

/// Cells on each side of the centre in a line code.
pub const HALF: i32 = 5;
/// Bits in a line code.
pub const KEY_BITS: u32 = 20;

/// The bit position of the cell `offset` steps from the centre (`offset` in ±1..=±5).
#[inline]
pub const fn slot_shift(offset: i32) -> u32 {
    let slot = if offset < 0 { offset + HALF } else { offset + HALF - 1 };
    2 * slot as u32
}

/// What one stone at the centre makes on one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Pat {
    /// Nothing: no five can ever pass through here on this line.
    Dead = 0,
    /// One stone that could grow into a blocked two.
    B1,
    /// One stone that could grow into an open two.
    F1,
    /// A two that can become a blocked three.
    B2,
    /// A two that can become an open three.
    F2,
    /// A three that can become a (blocked) four.
    B3,
    /// A three that can become an open four.
    F3,
    /// A four with one five point.
    B4,
    /// A four with two five points (an open four, or two fours on one line where that is
    /// allowed).
    F4,
    /// Five in a row: a win.
    F5,
    /// Renju black only: two fours on one line (a forbidden double four).
    DoubleFour,
    /// More than five in a row where that does not win (standard; Renju black: forbidden).
    Overline,
}

impl Pat {
    const ALL: [Pat; 12] = [
        Pat::Dead,
        Pat::B1,
        Pat::F1,
        Pat::B2,
        Pat::F2,
        Pat::B3,
        Pat::F3,
        Pat::B4,
        Pat::F4,
        Pat::F5,
        Pat::DoubleFour,
        Pat::Overline,
    ];

    #[inline]
    pub fn from_u8(v: u8) -> Pat {
        Pat::ALL[v as usize % 12]
    }
}

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

/// Line code -> pattern for black and for white, for one rule.
pub struct PatternTable {
    /// `pats[code]`: black's Pat in the low four bits, white's in the high four.
    pats: Vec<u8>,
    /// Freestyle only: the same indexed by the inner eight cells (the outermost cells never
    /// matter when overlines win), small enough to stay in cache.
    inner: Option<Vec<u8>>,
}

/// The inner-eight-cell index of a line code.
#[inline]
const fn inner_index(code: u32) -> usize {
    ((code >> 2) & 0xFFFF) as usize
}

impl PatternTable {
    /// The table for `rule`, built on first use and shared afterwards.
    pub fn get(rule: LineRule) -> &'static PatternTable {
        static TABLES: [OnceLock<PatternTable>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        TABLES[rule.index()].get_or_init(|| PatternTable::build(rule))
    }

    /// The pattern a stone of colour `color` (BLACK or WHITE) makes on a line with `code`.
    #[inline]
    pub fn pat(&self, code: u32, color_index: usize) -> u8 {
        (self.pats(code) >> (4 * color_index)) & 15
    }

    /// Both colours' patterns for a code: black's in the low four bits, white's in the high.
    #[inline]
    pub fn pats(&self, code: u32) -> u8 {
        match &self.inner {
            Some(inner) => inner[inner_index(code)],
            None => self.pats[code as usize],
        }
    }

    fn build(rule: LineRule) -> PatternTable {
        let size = 1usize << KEY_BITS;
        let mut pats = vec![0u8; size];
        let mut memo = [vec![u8::MAX; size], vec![u8::MAX; size]];
        for (code, out) in pats.iter_mut().enumerate() {
            let code = code as u32;
            if !walls_are_outside(code) {
                continue;
            }
            for (ci, color) in [BLACK, WHITE].into_iter().enumerate() {
                let exact = match rule {
                    LineRule::Freestyle => false,
                    LineRule::Standard => true,
                    LineRule::Renju => color == BLACK,
                };
                let renju_black = rule == LineRule::Renju && color == BLACK;
                *out |= level(code, color, exact, renju_black, &mut memo[ci]) << (4 * ci);
            }
        }
        let inner = (rule == LineRule::Freestyle).then(|| {
            let mut inner = vec![0u8; 1 << 16];
            for (i, out) in inner.iter_mut().enumerate() {
                let mut code = (i as u32) << 2;
                // A wall four cells out means a wall five cells out too.
                for k in [-HALF, HALF] {
                    let near = if k < 0 { k + 1 } else { k - 1 };
                    if cell(code, near) == WALL {
                        code |= (WALL as u32) << slot_shift(k);
                    }
                }
                *out = pats[code as usize];
            }
            inner
        });
        PatternTable { pats, inner }
    }
}

#[inline]
fn cell(code: u32, offset: i32) -> u8 {
    ((code >> slot_shift(offset)) & 3) as u8
}

/// A wall never sits between the centre and a non-wall cell.
fn walls_are_outside(code: u32) -> bool {
    for sign in [-1, 1] {
        let mut wall = false;
        for k in 1..=HALF {
            let c = cell(code, sign * k);
            if wall && c != WALL {
                return false;
            }
            wall = c == WALL;
        }
    }
    true
}

enum Run {
    Short,
    Five,
    Over,
}

/// The run of `color` through the centre (the centre counts as `color`).
fn run(code: u32, color: u8, exact: bool) -> Run {
    let mut len = 1;
    for sign in [-1, 1] {
        let mut k = 1;
        while k <= HALF && cell(code, sign * k) == color {
            len += 1;
            k += 1;
        }
    }
    if len < 5 {
        Run::Short
    } else if len == 5 || !exact {
        Run::Five
    } else {
        Run::Over
    }
}

fn level(code: u32, color: u8, exact: bool, renju_black: bool, memo: &mut [u8]) -> u8 {
    let m = memo[code as usize];
    if m != u8::MAX {
        return m;
    }
    let v = compute_level(code, color, exact, renju_black, memo);
    memo[code as usize] = v;
    v
}

fn compute_level(code: u32, color: u8, exact: bool, renju_black: bool, memo: &mut [u8]) -> u8 {
    match run(code, color, exact) {
        Run::Five => return Pat::F5 as u8,
        Run::Over => return Pat::Overline as u8,
        Run::Short => {}
    }
    let empties = (1..=4).flat_map(|k| [-k, k]).filter(|&k| cell(code, k) == EMPTY);
    let mut five_points = [0i32; 4];
    let mut n = 0;
    for k in empties.clone() {
        let with = code | (color as u32) << slot_shift(k);
        if matches!(run(with, color, exact), Run::Five) {
            if n < five_points.len() {
                five_points[n] = k;
            }
            n += 1;
        }
    }
    if n >= 2 {
        let open_four = n == 2 && (five_points[0] - five_points[1]).abs() == 5;
        return if renju_black && !open_four { Pat::DoubleFour as u8 } else { Pat::F4 as u8 };
    }
    if n == 1 {
        return Pat::B4 as u8;
    }
    let mut best = Pat::Dead;
    for k in empties {
        let with = code | (color as u32) << slot_shift(k);
        let next = match Pat::from_u8(level(with, color, exact, renju_black, memo)) {
            Pat::F4 => Pat::F3,
            Pat::B4 => Pat::B3,
            Pat::F3 => Pat::F2,
            Pat::B3 => Pat::B2,
            Pat::F2 => Pat::F1,
            Pat::B2 => Pat::B1,
            _ => Pat::Dead,
        };
        best = best.max(next);
    }
    best as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a code from an 11-character picture centred on the middle character, which must
    /// be `*` (the cell being evaluated). `x` black, `o` white, `#` wall, `.` empty.
    fn code(picture: &str) -> u32 {
        let chars: Vec<char> = picture.chars().collect();
        assert_eq!(chars.len(), 11);
        assert_eq!(chars[5], '*');
        let mut code = 0;
        for (i, ch) in chars.iter().enumerate() {
            let offset = i as i32 - 5;
            if offset == 0 {
                continue;
            }
            let v = match ch {
                'x' => BLACK,
                'o' => WHITE,
                '#' => WALL,
                _ => EMPTY,
            } as u32;
            code |= v << slot_shift(offset);
        }
        code
    }

    fn black(rule: LineRule, picture: &str) -> Pat {
        Pat::from_u8(PatternTable::get(rule).pat(code(picture), 0))
    }

    fn white(rule: LineRule, picture: &str) -> Pat {
        Pat::from_u8(PatternTable::get(rule).pat(code(picture), 1))
    }

    #[test]
    fn fives_and_overlines() {
        assert_eq!(black(LineRule::Freestyle, "...xx*xx..."), Pat::F5);
        assert_eq!(black(LineRule::Freestyle, "..xxx*xx..."), Pat::F5);
        assert_eq!(black(LineRule::Standard, "..xxx*xx..."), Pat::Overline);
        assert_eq!(black(LineRule::Renju, "..xxx*xx..."), Pat::Overline);
        assert_eq!(white(LineRule::Renju, "..ooo*oo..."), Pat::F5);
        assert_eq!(white(LineRule::Standard, "..ooo*oo..."), Pat::Overline);
    }

    #[test]
    fn fours() {
        assert_eq!(black(LineRule::Freestyle, "....x*xx..."), Pat::F4);
        assert_eq!(black(LineRule::Freestyle, "...ox*xx..."), Pat::B4);
        assert_eq!(black(LineRule::Freestyle, "....x*x.x.."), Pat::B4);
        assert_eq!(black(LineRule::Freestyle, "..x.x*x.x.."), Pat::F4);
        assert_eq!(black(LineRule::Renju, "..x.x*x.x.."), Pat::DoubleFour);
        assert_eq!(black(LineRule::Standard, "x...x*xx..."), Pat::F4);
        // Filling the gap would make six: nothing in standard, a five in freestyle.
        assert_eq!(black(LineRule::Standard, ".xx.x*x...."), Pat::B3);
        assert_eq!(black(LineRule::Freestyle, ".xx.x*x...."), Pat::B4);
        assert_eq!(black(LineRule::Freestyle, "#####*xxx.."), Pat::B4);
    }

    #[test]
    fn threes_and_twos() {
        assert_eq!(black(LineRule::Freestyle, "....x*x...."), Pat::F3);
        assert_eq!(black(LineRule::Freestyle, "...ox*x...."), Pat::B3);
        assert_eq!(black(LineRule::Freestyle, "....x*.x..."), Pat::F3);
        assert_eq!(black(LineRule::Freestyle, ".....*x...."), Pat::F2);
        assert_eq!(black(LineRule::Freestyle, "....o*x...."), Pat::B2);
        assert_eq!(black(LineRule::Freestyle, "....o*....o"), Pat::B1);
        assert_eq!(black(LineRule::Freestyle, "....o*...o."), Pat::Dead);
        // Renju: this "three" can only become four by making an overline on one side.
        assert_eq!(black(LineRule::Freestyle, ".x.x.*x...."), Pat::F3);
        assert_eq!(black(LineRule::Renju, ".x.x.*x...."), Pat::B3);
        assert_eq!(black(LineRule::Freestyle, "....o*o...."), Pat::Dead);
    }

    #[test]
    fn freestyle_ignores_the_outermost_cells() {
        let t = PatternTable::get(LineRule::Freestyle);
        for code in (0..1u32 << KEY_BITS).step_by(7) {
            let outer_free = cell(code, -HALF) != WALL || cell(code, 1 - HALF) == WALL;
            let outer_free =
                outer_free && (cell(code, HALF) != WALL || cell(code, HALF - 1) == WALL);
            if walls_are_outside(code) && outer_free {
                assert_eq!(t.pats[code as usize], t.pats(code), "code {code:#x}");
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

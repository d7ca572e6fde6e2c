//! The one line foundation: what a line makes for a colour under a rule.
//!
//! Every Gomoku question of the form "what does this line make for this colour" is answered
//! here, once: the rules ([`super::renju`]'s forbidden points, [`super::shapes`]'s names),
//! Master's pattern table and the classic levels all read it.
//!
//! # Cell codes and line keys
//!
//! One cell-code set, two bits a cell: [`EMPTY`], [`BLACK`], [`WHITE`] and [`EDGE`] (off the
//! board; blocks a line like a stone of neither side). A *line key* is the ten cells around
//! a centre on one line, five each side, two bits each (20 bits, [`slot_shift`]); the centre
//! itself is left out, and is read as a stone of the colour asked about. The codes are
//! absolute (black / white), not relative (own / opponent): one key then answers for both
//! colours, which lets Master keep one key per cell and direction. "Own" is the colour
//! passed to each function. Keys are built one way, by [`key_of`] (`key_at` on the game's
//! board). A searcher that prefers keys relative to the side (own / opponent) codes its own
//! stones as black and reads them under the rule that gives its colour the same idea of a
//! five.
//!
//! # Fives: one rule encoding
//!
//! Which runs win is [`Rule::run_wins`] and nothing else: freestyle, five or more; standard,
//! exactly five; Renju, exactly five for black and five or more for white. A longer run
//! that does not win is an *overline*.
//!
//! # Five points and fours: the settled definitions
//!
//! A **five point** of a line is an empty cell, at most four from the centre, where one more
//! stone of the colour makes a winning run through the centre ([`five_points`]). A line has
//! at most two: one each side of the centre (a cell beyond the nearer one would not touch
//! the centre's run).
//!
//! The line's **fours** are counted from its five points ([`FourKind`]):
//! * one five point: a **four** (冲四);
//! * two five points five cells apart (`_XXXX_`): one **straight four** (活四 in the narrow
//!   sense), a single four with two ways to five;
//! * two five points otherwise (`X_XXX_X`, `XX_XX_XX`): **two fours in one line**.
//!
//! An **open four** (Master's `F4`, lookahead's "open four", the name [`super::Shape::OpenFour`])
//! is a four the opponent cannot stop with one stone: **two five points**, whether straight
//! or split. That is the definition that matters for play — one stone blocks only one five
//! point — and it is the right one for every side *allowed* to make it. The one exception
//! is black under Renju: two fours in one line are a forbidden double four
//! ([`Pat::DoubleFour`]), so black's only open four is the straight one. The older "two five
//! points five cells apart" reading (the shapes) named a split double four a mere four
//! although it wins exactly like a straight four; "two or more" (Master) and "two five
//! points" (lookahead) were right, and "or more" never happens (see [`five_points`]).
//!
//! # Threes and twos
//!
//! A line whose centre makes no four is an **open three** ([`Pat::F3`]) when one more stone
//! of the colour within four cells makes an open four, a **closed three** ([`Pat::B3`]) when
//! it makes only a four; an **open two** / **closed two** likewise one step further down,
//! and an open / closed one below that. [`pattern`] answers this by a small recursion,
//! remembered per rule, key and colour in one shared line table.

use std::sync::atomic::{AtomicU8, Ordering};

use super::board::{Board, DIRECTIONS};
use super::Rule;
use crate::{Color, Point};

/// An empty cell.
pub const EMPTY: u8 = 0;
/// A black stone.
pub const BLACK: u8 = 1;
/// A white stone.
pub const WHITE: u8 = 2;
/// Off the board: blocks a line like a stone of neither side.
pub const EDGE: u8 = 3;

/// The cell code of a stone of `color`.
#[inline]
pub const fn cell_of(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// Cells on each side of the centre in a line key.
pub const HALF: i32 = 5;
/// How far from the centre a five point (or any stone that builds a shape) can be.
pub const SPAN: i32 = 4;
/// Bits in a line key.
pub const KEY_BITS: u32 = 20;

/// The ten cells around a centre on one line, two bits each (see the module docs).
pub type Key = u32;

/// The bit position of the cell `offset` steps from the centre (`offset` in ±1..=±5).
#[inline]
pub const fn slot_shift(offset: i32) -> u32 {
    // Cells -5..=-1 take slots 0..=4, cells 1..=5 slots 5..=9.
    let slot = if offset < 0 { offset + HALF } else { offset + HALF - 1 };
    2 * slot as u32
}

/// The cell `offset` steps from the centre (`offset` in ±1..=±5).
#[inline]
pub const fn cell(key: Key, offset: i32) -> u8 {
    ((key >> slot_shift(offset)) & 3) as u8
}

/// The key with the empty cell at `offset` set to `code`.
#[inline]
pub const fn with(key: Key, offset: i32, code: u8) -> Key {
    key | (code as u32) << slot_shift(offset)
}

/// The key of the cells `cell_at(offset)` for offsets ±1..=±5: the one way keys are built.
#[inline]
pub fn key_of(mut cell_at: impl FnMut(i32) -> u8) -> Key {
    (-HALF..=HALF).filter(|&k| k != 0).fold(0, |key, k| with(key, k, cell_at(k)))
}

/// The key of the line through `p` along `(dx, dy)` on a board.
pub(crate) fn key_at(board: &Board, p: Point, (dx, dy): (i32, i32)) -> Key {
    let (x, y) = (p.x as i32, p.y as i32);
    key_of(|k| board.get(x + k * dx, y + k * dy))
}

/// The keys of the four lines through `p`, in [`DIRECTIONS`] order.
pub(crate) fn keys_at(board: &Board, p: Point) -> [Key; 4] {
    DIRECTIONS.map(|d| key_at(board, p, d))
}

/// The length of the run of `code` through the centre (the centre counts as `code`); a
/// run reaching the end of the key is reported as six (what lies beyond cannot shorten it).
#[inline]
pub fn centre_run(key: Key, code: u8) -> u32 {
    let mut len = 1;
    for sign in [-1, 1] {
        let mut k = 1;
        while k <= HALF && cell(key, sign * k) == code {
            len += 1;
            k += 1;
        }
    }
    len
}

/// Whether a stone of `color` on the centre is in a winning run.
#[inline]
pub fn wins(key: Key, color: Color, rule: Rule) -> bool {
    rule.run_wins(color, centre_run(key, cell_of(color)))
}

/// Whether a stone of `color` on the centre is in a run of six or more that does not win.
#[inline]
pub fn is_overline(key: Key, color: Color, rule: Rule) -> bool {
    let len = centre_run(key, cell_of(color));
    len > 5 && !rule.run_wins(color, len)
}

/// A set of offsets from the centre (−5..=5), as bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offsets(u16);

impl Offsets {
    /// No offsets.
    pub const NONE: Offsets = Offsets(0);

    #[inline]
    const fn bit(offset: i32) -> u16 {
        1 << (offset + HALF)
    }

    /// The set with `offset` added.
    #[inline]
    pub const fn with(self, offset: i32) -> Offsets {
        Offsets(self.0 | Self::bit(offset))
    }

    #[inline]
    pub const fn contains(self, offset: i32) -> bool {
        self.0 & Self::bit(offset) != 0
    }

    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The offsets, nearest-left first.
    pub fn iter(self) -> impl Iterator<Item = i32> {
        (-HALF..=HALF).filter(move |&k| self.contains(k))
    }
}

/// The empty cells where one more stone of `color` makes a winning run through the centre
/// (the centre counting as `color`; meaningful while the centre does not already win): at
/// most one each side, since only the first cell past the centre's own stones can join its
/// run.
#[inline]
pub fn five_points(key: Key, color: Color, rule: Rule) -> Offsets {
    let code = cell_of(color);
    let mut found = Offsets::NONE;
    for sign in [-1, 1] {
        // Only the first empty cell each way can join the centre's run.
        let mut k = 1;
        while k <= SPAN && cell(key, sign * k) == code {
            k += 1;
        }
        if k <= SPAN && cell(key, sign * k) == EMPTY && wins(with(key, sign * k, code), color, rule)
        {
            found = found.with(sign * k);
        }
    }
    found
}

/// What a line's five points make (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FourKind {
    /// No five point.
    None,
    /// One five point.
    Four,
    /// Two five points five cells apart: one four, two ways to five.
    Straight,
    /// Two five points otherwise: two fours in one line.
    Double,
}

impl FourKind {
    /// The kind of four the five points `five` make.
    pub fn of(five: Offsets) -> FourKind {
        let mut it = five.iter();
        match (it.next(), it.next()) {
            (None, _) => FourKind::None,
            (Some(_), None) => FourKind::Four,
            (Some(a), Some(b)) if b - a == 5 => FourKind::Straight,
            _ => FourKind::Double,
        }
    }

    /// How many fours the line counts (Renju's double-four rule).
    pub const fn fours(self) -> u32 {
        match self {
            FourKind::None => 0,
            FourKind::Four | FourKind::Straight => 1,
            FourKind::Double => 2,
        }
    }
}

/// What one stone of a colour at the centre makes on one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Pat {
    /// Nothing: no five can ever pass through here on this line.
    Dead = 0,
    /// One stone that could grow into a closed two.
    B1,
    /// One stone that could grow into an open two.
    F1,
    /// A closed two: one more stone makes at best a closed three.
    B2,
    /// An open two: one more stone can make an open three.
    F2,
    /// A closed three: one more stone makes at best a four.
    B3,
    /// An open three: one more stone can make an open four.
    F3,
    /// A four: one five point.
    B4,
    /// An open four: two five points (for Renju black only the straight four).
    F4,
    /// A winning run.
    F5,
    /// Renju black only: two fours in one line (a forbidden double four).
    DoubleFour,
    /// Six or more in a row where that does not win (standard; Renju black: forbidden).
    Overline,
}

impl Pat {
    /// Every pattern, in code order.
    pub const ALL: [Pat; 12] = [
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

    /// The pattern of a code (codes above the last wrap around).
    #[inline]
    pub fn from_u8(v: u8) -> Pat {
        Pat::ALL[v as usize % Pat::ALL.len()]
    }

    /// What a line is when one more stone makes `self` of it.
    const fn one_below(self) -> Pat {
        match self {
            Pat::F4 => Pat::F3,
            Pat::B4 => Pat::B3,
            Pat::F3 => Pat::F2,
            Pat::B3 => Pat::B2,
            Pat::F2 => Pat::F1,
            Pat::B2 => Pat::B1,
            _ => Pat::Dead,
        }
    }
}

/// The pattern a stone of `color` on the centre makes, by the recursion of the module docs:
/// the line table of `rule`, each entry worked out on first use and remembered for the
/// whole process (so a level that reads a few thousand lines never pays for a million).
#[inline]
pub fn pattern(key: Key, color: Color, rule: Rule) -> Pat {
    let (entry, shift) = entry(key, color, rule);
    let known = (entry.load(Ordering::Relaxed) >> shift) & 15;
    if known != 0 {
        return Pat::from_u8(known - 1);
    }
    let pat = Reader { color, rule, inert: Offsets::NONE }.compute(key);
    remember(entry, shift, pat as u8 + 1);
    pat
}

/// [`pattern`] where the cells in `inert` do not build shapes: a stone there may still be a
/// five point, but the threes and twos it would lead to do not count (the shapes exclude
/// cells that would win across another line: such a stone is a five, not a four).
pub fn pattern_building(key: Key, color: Color, rule: Rule, inert: Offsets) -> Pat {
    Reader { color, rule, inert }.pat(key)
}

/// The line table: for each rule and key, black's entry in the low four bits and white's in
/// the high four: 0 while not yet worked out, else the pattern + 1. Entries only ever gain knowledge, and every
/// writer writes the same value, so relaxed atomics suffice when searches share it.
static TABLE: [[AtomicU8; 1 << KEY_BITS]; 3] =
    [const { [const { AtomicU8::new(0) }; 1 << KEY_BITS] }; 3];

/// The table byte holding `key`'s entry for `color` under `rule`, and the entry's shift.
#[inline]
fn entry(key: Key, color: Color, rule: Rule) -> (&'static AtomicU8, u32) {
    let index = (key & ((1 << KEY_BITS) - 1)) as usize;
    (&TABLE[rule as usize][index], 4 * color.index() as u32)
}

/// Writes `value` into the entry at `shift`.
fn remember(entry: &AtomicU8, shift: u32, value: u8) {
    let _ = entry.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |byte| {
        Some(byte & !(15 << shift) | value << shift)
    });
}

/// The recursion behind [`pattern`].
struct Reader {
    color: Color,
    rule: Rule,
    inert: Offsets,
}

impl Reader {
    fn pat(&self, key: Key) -> Pat {
        if self.inert.is_empty() {
            pattern(key, self.color, self.rule)
        } else {
            self.compute(key)
        }
    }

    /// The empty cells near the centre where a stone builds this line's shapes.
    fn builders(&self, key: Key) -> impl Iterator<Item = i32> + '_ {
        (1..=SPAN)
            .flat_map(|k| [-k, k])
            .filter(move |&k| cell(key, k) == EMPTY && !self.inert.contains(k))
    }

    /// The pattern when the line is a five, an overline or has a four; `None` otherwise.
    fn four(&self, key: Key) -> Option<Pat> {
        let (color, rule) = (self.color, self.rule);
        if wins(key, color, rule) {
            return Some(Pat::F5);
        }
        if is_overline(key, color, rule) {
            return Some(Pat::Overline);
        }
        match FourKind::of(five_points(key, color, rule)) {
            FourKind::None => None,
            FourKind::Four => Some(Pat::B4),
            FourKind::Straight => Some(Pat::F4),
            FourKind::Double if rule == Rule::Renju && color == Color::Black => {
                Some(Pat::DoubleFour)
            }
            FourKind::Double => Some(Pat::F4),
        }
    }

    /// The pattern when it is at least a closed three; `None` otherwise.
    /// The full pattern: a four or better as it stands, else what the best stone more makes,
    /// one step down.
    fn compute(&self, key: Key) -> Pat {
        if let Some(pat) = self.four(key) {
            return pat;
        }
        let code = cell_of(self.color);
        self.builders(key)
            .map(|k| self.pat(with(key, k, code)).one_below())
            .max()
            .unwrap_or(Pat::Dead)
    }
}

/// Whether no edge cell sits between the centre and a cell on the board: the keys that
/// occur.
pub fn edges_are_outside(key: Key) -> bool {
    [-1, 1].into_iter().all(|sign| {
        (1..HALF).all(|k| cell(key, sign * k) != EDGE || cell(key, sign * (k + 1)) == EDGE)
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A key from an 11-character picture centred on the middle character, which must be
    /// `*` (the cell being read). `x` black, `o` white, `#` off the board, `.` empty.
    pub(crate) fn key(picture: &str) -> Key {
        let chars: Vec<char> = picture.chars().collect();
        assert_eq!(chars.len(), 11, "{picture}");
        assert_eq!(chars[5], '*', "{picture}");
        key_of(|k| match chars[(k + HALF) as usize] {
            'x' => BLACK,
            'o' => WHITE,
            '#' => EDGE,
            _ => EMPTY,
        })
    }

    fn black(rule: Rule, picture: &str) -> Pat {
        pattern(key(picture), Color::Black, rule)
    }

    fn white(rule: Rule, picture: &str) -> Pat {
        pattern(key(picture), Color::White, rule)
    }

    #[test]
    fn keys_are_built_one_way() {
        let k = key("#.xo.*x....");
        assert_eq!(cell(k, -5), EDGE);
        assert_eq!(cell(k, -3), BLACK);
        assert_eq!(cell(k, -2), WHITE);
        assert_eq!(cell(k, 1), BLACK);
        assert_eq!(cell(k, 5), EMPTY);
        assert_eq!(with(k, 2, WHITE), key("#.xo.*xo..."));
    }

    #[test]
    fn five_points_follow_the_rule() {
        let five = |rule, color, pic| five_points(key(pic), color, rule).iter().collect::<Vec<_>>();
        assert_eq!(five(Rule::Freestyle, Color::Black, "....x*xx..."), vec![-2, 3]);
        assert_eq!(five(Rule::Freestyle, Color::Black, "...ox*xx..."), vec![3]);
        // Filling -2 makes six: a five in freestyle, nothing in standard or for Renju black,
        // a five for Renju white.
        assert_eq!(five(Rule::Freestyle, Color::Black, ".xx.x*xx..."), vec![-2, 3]);
        assert_eq!(five(Rule::Standard, Color::Black, ".xx.x*xx..."), vec![3]);
        assert_eq!(five(Rule::Renju, Color::Black, ".xx.x*xx..."), vec![3]);
        assert_eq!(five(Rule::Renju, Color::White, ".oo.o*oo..."), vec![-2, 3]);
        assert_eq!(five(Rule::Freestyle, Color::Black, "....o*xx..."), Vec::<i32>::new());
    }

    #[test]
    fn four_kinds() {
        let kind = |pic| FourKind::of(five_points(key(pic), Color::Black, Rule::Freestyle));
        assert_eq!(kind("....x*xx..."), FourKind::Straight);
        assert_eq!(kind("...ox*xx..."), FourKind::Four);
        assert_eq!(kind("..x.x*x.x.."), FourKind::Double);
        assert_eq!(kind(".xx.x*.xx.."), FourKind::Double);
        assert_eq!(kind("....x*x...."), FourKind::None);
        assert_eq!(FourKind::Double.fours(), 2);
        assert_eq!(FourKind::Straight.fours(), 1);
    }

    #[test]
    fn fives_and_overlines() {
        assert_eq!(black(Rule::Freestyle, "...xx*xx..."), Pat::F5);
        assert_eq!(black(Rule::Freestyle, "..xxx*xx..."), Pat::F5);
        assert_eq!(black(Rule::Standard, "..xxx*xx..."), Pat::Overline);
        assert_eq!(black(Rule::Renju, "..xxx*xx..."), Pat::Overline);
        assert_eq!(white(Rule::Renju, "..ooo*oo..."), Pat::F5);
        assert_eq!(white(Rule::Standard, "..ooo*oo..."), Pat::Overline);
    }

    #[test]
    fn fours() {
        assert_eq!(black(Rule::Freestyle, "....x*xx..."), Pat::F4);
        assert_eq!(black(Rule::Freestyle, "...ox*xx..."), Pat::B4);
        assert_eq!(black(Rule::Freestyle, "....x*x.x.."), Pat::B4);
        assert_eq!(black(Rule::Freestyle, "..x.x*x.x.."), Pat::F4);
        assert_eq!(black(Rule::Renju, "..x.x*x.x.."), Pat::DoubleFour);
        assert_eq!(white(Rule::Renju, "..o.o*o.o.."), Pat::F4);
        assert_eq!(black(Rule::Standard, "x...x*xx..."), Pat::F4);
        // Filling the gap would make six: nothing in standard, a five in freestyle.
        assert_eq!(black(Rule::Standard, ".xx.x*x...."), Pat::B3);
        assert_eq!(black(Rule::Freestyle, ".xx.x*x...."), Pat::B4);
        assert_eq!(black(Rule::Freestyle, "#####*xxx.."), Pat::B4);
    }

    #[test]
    fn threes_and_twos() {
        assert_eq!(black(Rule::Freestyle, "....x*x...."), Pat::F3);
        assert_eq!(black(Rule::Freestyle, "...ox*x...."), Pat::B3);
        assert_eq!(black(Rule::Freestyle, "....x*.x..."), Pat::F3);
        assert_eq!(black(Rule::Freestyle, ".....*x...."), Pat::F2);
        assert_eq!(black(Rule::Freestyle, "....o*x...."), Pat::B2);
        assert_eq!(black(Rule::Freestyle, "....o*....o"), Pat::B1);
        assert_eq!(black(Rule::Freestyle, "....o*...o."), Pat::Dead);
        // Renju: this "three" can only become four by making an overline on one side.
        assert_eq!(black(Rule::Freestyle, ".x.x.*x...."), Pat::F3);
        assert_eq!(black(Rule::Renju, ".x.x.*x...."), Pat::B3);
        assert_eq!(black(Rule::Freestyle, "....o*o...."), Pat::Dead);
    }

    #[test]
    fn inert_cells_do_not_build() {
        let k = key("....x*x....");
        let all_but = |keep: &[i32]| {
            (1..=SPAN)
                .flat_map(|k| [-k, k])
                .filter(|k| !keep.contains(k))
                .fold(Offsets::NONE, Offsets::with)
        };
        assert_eq!(pattern_building(k, Color::Black, Rule::Freestyle, Offsets::NONE), Pat::F3);
        // Only -2 may build: x x * x makes a straight four with -3 or 2 free: still open.
        assert_eq!(pattern_building(k, Color::Black, Rule::Freestyle, all_but(&[-2])), Pat::F3);
        // Only -4 may build: x . x * x is a four with one five point.
        assert_eq!(pattern_building(k, Color::Black, Rule::Freestyle, all_but(&[-3])), Pat::B3);
        assert_eq!(pattern_building(k, Color::Black, Rule::Freestyle, all_but(&[])), Pat::Dead);
    }

    /// Every empty cell within reach whose stone makes a winning run through the centre.
    fn five_points_by_brute_force(key: Key, color: Color, rule: Rule) -> Offsets {
        (1..=SPAN)
            .flat_map(|k| [-k, k])
            .filter(|&k| cell(key, k) == EMPTY && wins(with(key, k, cell_of(color)), color, rule))
            .fold(Offsets::NONE, Offsets::with)
    }

    #[test]
    fn five_points_are_the_nearest_cells_and_the_table_agrees() {
        for rule in Rule::ALL {
            for key in (0..1u32 << KEY_BITS).step_by(97).filter(|&k| edges_are_outside(k)) {
                for color in [Color::Black, Color::White] {
                    let five = five_points(key, color, rule);
                    if !wins(key, color, rule) {
                        let brute = five_points_by_brute_force(key, color, rule);
                        assert_eq!(five, brute, "{key:#x}");
                    }
                    // Worked out, then remembered: the same answer.
                    let full = pattern(key, color, rule);
                    assert_eq!(pattern(key, color, rule), full, "{key:#x}");
                }
            }
        }
    }
}

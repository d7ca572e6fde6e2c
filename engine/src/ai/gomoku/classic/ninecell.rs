//! The nine-cell pattern scorer of seed article 002, used by the pattern level (level 3),
//! by the lookahead level (level 4) for its quiet moves, and by their playouts.
//!
//! For an empty point and a side, the article reads the nine cells centred on the point in
//! each of the four directions as a string ('1' own, '2' opponent, '0' empty, the point itself
//! counted as own; cells off the board are left out), and scores the first of its shapes that
//! the string contains: 连五 five, 活四 open four, 活三 open three, 冲四 four, 眠三 closed three,
//! 活二 open two, 眠二 closed two, 眠一 closed one. The four directions' scores are summed and
//! multiplied for combinations (three + two ×2, four + two ×4, two threes ×6, four + three
//! ×8). A string or a point that leaves two cells completing a five counts as the 活四 it
//! is, whether the two are apart on one line (X_XXX_X, see [`score_string`]) or on two lines
//! (四四, see [`evaluate_detail`]). Every point is scored for the computer (attack) and for
//! the opponent (defence); the larger of the two decides (all blocks of an opponent's 活四
//! alike, see [`deciding_score`]) and the article's sum of both breaks ties (see
//! [`choice_keys`]); a point where the computer makes a shape the article calls decisive
//! (活四, 冲四 + 活三) comes first (see [`choice_keys_weighted`]).
//!
//! The article matches strings; here each neighbourhood is matched once, the first time it is
//! met, and remembered in a table, so that scoring a point is four table look-ups.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::ai::gomoku::common::{self, code, Grid, DIRECTIONS, EMPTY};
use crate::{Color, Point};

/// The article's shapes, in the order it matches them, with their scores and strings.
pub const SHAPES: [(Shape, i64, &[&str]); 8] = [
    (Shape::Five, 10_000_000, &["11111"]),
    (Shape::OpenFour, 1_000_000, &["011110"]),
    (Shape::OpenThree, 10_000, &["001110", "011100", "010110", "011010"]),
    (Shape::Four, 8_000, &["11110", "01111", "10111", "11011", "11101"]),
    (Shape::ClosedThree, 1_000, &["001112", "010112", "011012", "211100", "211010"]),
    (Shape::OpenTwo, 800, &["001100", "011000", "000110"]),
    (Shape::ClosedTwo, 50, &["011200", "001120", "002110", "021100", "001010", "010100"]),
    (Shape::ClosedOne, 10, &["001200", "002100", "020100", "000210", "000120"]),
];

/// The article's shapes (棋型).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// 连五
    Five,
    /// 活四
    OpenFour,
    /// 活三
    OpenThree,
    /// 冲四
    Four,
    /// 眠三
    ClosedThree,
    /// 活二
    OpenTwo,
    /// 眠二
    ClosedTwo,
    /// 眠一
    ClosedOne,
}

/// What one direction's string scores, and which shapes the combination rules see in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineScore {
    pub score: i64,
    /// The article's `checkSituation` chain: 活三, else 冲四, else 活二 (0 = none of them).
    pub kind: u8,
    /// How many empty cells of the string would complete a five with the point (0, 1 or 2
    /// for "two or more").
    pub fives: u8,
}

const KIND_OPEN_THREE: u8 = 1;
const KIND_FOUR: u8 = 2;
const KIND_OPEN_TWO: u8 = 3;

/// Cell codes in a neighbourhood key (two bits per cell).
pub(super) const K_EMPTY: usize = 0;
pub(super) const K_OWN: usize = 1;
pub(super) const K_OPP: usize = 2;
const K_OFF: usize = 3;

/// The empty cells of `situation` that would complete a five ("11111"), at most two counted.
pub fn five_points_in(situation: &str) -> u8 {
    let cells = situation.as_bytes();
    let mut count = 0;
    for (i, &c) in cells.iter().enumerate() {
        if c == b'0' {
            let mut filled = cells.to_vec();
            filled[i] = b'1';
            if filled.windows(5).any(|w| w == b"11111") {
                count += 1;
            }
        }
    }
    count.min(2)
}

/// Scores the article's string for one direction (the point itself already in it as '1').
///
/// The article's 活四 is "011110": four in a row with both ends open, so that the opponent
/// cannot stop both fives ("活四 如果形成,棋局胜负基本确定"). Its strings miss the same threat when
/// the two fives are apart: "1011101" (X_XXX_X), "11011011", "111010111" read as a 冲四 (8,000)
/// although each leaves two cells that complete a five, as the open four does. A string with
/// two such cells is scored as the 活四 it is.
pub fn score_string(situation: &str) -> LineScore {
    let fives = five_points_in(situation);
    let mut score = SHAPES
        .iter()
        .find(|(_, _, strings)| strings.iter().any(|s| situation.contains(s)))
        .map_or(0, |&(_, score, _)| score);
    if fives >= 2 && score < SHAPES[1].1 {
        score = SHAPES[1].1;
    }
    let has = |shape: Shape| {
        SHAPES
            .iter()
            .find(|(s, _, _)| *s == shape)
            .is_some_and(|(_, _, strings)| strings.iter().any(|s| situation.contains(s)))
    };
    let kind = if has(Shape::OpenThree) {
        KIND_OPEN_THREE
    } else if has(Shape::Four) {
        KIND_FOUR
    } else if has(Shape::OpenTwo) {
        KIND_OPEN_TWO
    } else {
        0
    };
    LineScore { score, kind, fives }
}

/// The string of a neighbourhood key: eight cells (four before the point, four after),
/// two bits each, the nearest cells in the low bits of each half.
fn key_string(key: usize) -> String {
    let cell = |i: usize| (key >> (2 * i)) & 3;
    let mut s = String::with_capacity(9);
    let symbol = |c: usize| match c {
        K_EMPTY => Some('0'),
        K_OWN => Some('1'),
        K_OPP => Some('2'),
        _ => None,
    };
    // Cells 0..4 are before the point, nearest first; cells 4..8 after it, nearest first.
    for i in (0..4).rev() {
        s.extend(symbol(cell(i)));
    }
    s.push('1');
    for i in 4..8 {
        s.extend(symbol(cell(i)));
    }
    s
}

/// Every neighbourhood's score, matched on first use: entry 0 means "not matched yet",
/// otherwise `1 + fives * 36 + shape index (0..=8, 8 = none) * 4 + kind`.
static TABLE: [AtomicU8; 1 << 16] = [const { AtomicU8::new(0) }; 1 << 16];

/// The score of the neighbourhood `key`.
#[inline]
pub(super) fn lookup(key: usize) -> LineScore {
    let packed = TABLE[key].load(Ordering::Relaxed);
    let packed = if packed != 0 {
        packed
    } else {
        let line = score_string(&key_string(key));
        let shape = SHAPES.iter().position(|&(_, score, _)| score == line.score).unwrap_or(8);
        let packed = 1 + line.fives * 36 + (shape as u8) * 4 + line.kind;
        TABLE[key].store(packed, Ordering::Relaxed);
        packed
    };
    let (fives, rest) = ((packed - 1) / 36, (packed - 1) % 36);
    let shape = (rest / 4) as usize;
    LineScore { score: SHAPES.get(shape).map_or(0, |s| s.1), kind: rest % 4, fives }
}

/// The neighbourhood key of `p` along `(dx, dy)` seen by the side whose stones are `own`:
/// the cells at distance 1..=4 before the point in bits 0..8, after it in bits 8..16 (the
/// nearest first), each `K_EMPTY`, `K_OWN`, `K_OPP` or `K_OFF`.
#[inline]
pub(super) fn key(grid: &Grid, p: Point, (dx, dy): (i32, i32), own: u8) -> usize {
    let cell = |c: Option<u8>| match c {
        None => K_OFF,
        Some(EMPTY) => K_EMPTY,
        Some(c) if c == own => K_OWN,
        Some(_) => K_OPP,
    };
    let (x, y) = (p.x as i32, p.y as i32);
    let mut key = 0;
    for k in 1..=4 {
        key |= cell(grid.get(x - k * dx, y - k * dy)) << (2 * (k - 1));
        key |= cell(grid.get(x + k * dx, y + k * dy)) << (2 * (k + 3));
    }
    key
}

/// The article's `evaluate(point)`: the score of `color` playing the empty point `p`.
pub fn evaluate(grid: &Grid, p: Point, color: Color) -> i64 {
    evaluate_detail(grid, p, color).0
}

/// [`evaluate`], and whether the point makes one of the shapes the article calls decisive:
/// 连五 or 活四 in one direction, or 冲四 in one direction with 活三 in another.
///
/// Two fours in two directions (双冲四, 四四) leave two cells that each complete a five, the
/// very reason the article gives for a 活四 ("活四 如果形成,棋局胜负基本确定": one block cannot
/// stop both), yet none of its combination rules covers them: scored as written, such a
/// point makes 8,000 + 8,000 and, for the opponent, ranks below a 活三又活二. It is scored as
/// at least a 活四 and counts as decisive.
pub fn evaluate_detail(grid: &Grid, p: Point, color: Color) -> (i64, bool) {
    let own = code(color);
    evaluate_keys(DIRECTIONS.map(|d| key(grid, p, d, own)))
}

/// [`evaluate_detail`] of a point whose four neighbourhood keys (one per direction of
/// [`DIRECTIONS`], see [`key`]) are `keys`.
pub(super) fn evaluate_keys(keys: [usize; 4]) -> (i64, bool) {
    let mut decisive = false;
    let (mut score, mut threes, mut fours, mut twos, mut fives) = (0i64, 0, 0, 0, 0);
    for key in keys {
        let line = lookup(key);
        fives += line.fives;
        match line.kind {
            KIND_OPEN_THREE => threes += 1,
            KIND_FOUR => fours += 1,
            KIND_OPEN_TWO => twos += 1,
            _ => {}
        }
        score += line.score;
        decisive |= line.score >= SHAPES[1].1;
    }
    decisive |= fours > 0 && threes > 0;
    if threes > 0 && twos > 0 {
        score *= 2;
    }
    if fours > 0 && twos > 0 {
        score *= 4;
    }
    if threes > 1 {
        score *= 6;
    }
    if fours > 0 && threes > 0 {
        score *= 8;
    }
    if fives >= 2 {
        // Two fours in two directions (四四) leave two fives, as a 活四 does.
        decisive = true;
        score = score.max(SHAPES[1].1);
    }
    (score, decisive)
}

/// Every empty point with its value for `me` to play: its attack score plus its defence score.
pub fn score_points(grid: &Grid, me: Color) -> Vec<(Point, i64)> {
    score_points_weighted(grid, me, 1)
}

/// Like [`score_points`], with the attack score counted `attack_weight` times.
pub fn score_points_weighted(grid: &Grid, me: Color, attack_weight: i64) -> Vec<(Point, i64)> {
    grid.empties()
        .map(|p| (p, attack_weight * evaluate(grid, p, me) + evaluate(grid, p, me.opponent())))
        .collect()
}

/// Bits of a choice key below the deciding score, where the tie-break goes.
const KEY_SHIFT: u32 = 22;

/// Every empty point keyed for the engine's choice. The article adds a point's attack and
/// defence scores ("该点得分 = AI落子得分 + 对手落子得分"); taken alone, that sum lets two
/// middling scores (the computer's open two plus the opponent's open two) outrank the one
/// point that stops the opponent's strongest shape or makes the computer's own, so the scorer
/// drifts and loses to the win-array (37.5–43% over 48 games). Here the larger of the two
/// scores decides (the point that matters most to either side, as the article's own
/// predecessor, seed 001, chooses), and the article's sum breaks ties. Measured against
/// the win-array over 48 games: sum alone 42.7%, this key 67.7%.
pub fn choice_keys(grid: &Grid, me: Color) -> Vec<(Point, i64)> {
    choice_keys_weighted(grid, me, 1)
}

/// Like [`choice_keys`], with the attack score counted `attack_weight` times.
///
/// A point where the computer itself makes one of the shapes the article calls (nearly)
/// decisive, "冲四活三 如果形成,赢的可能性很大,活四 如果形成,棋局胜负基本确定,连五 形成就已经赢了。
/// 所以说,如果 AI 落的点能够形成这几种胜率很高的棋型的话,我们要给这个点评一个高分", outranks every
/// defence: the article's scores alone tie an own open four (1,000,000) with blocking the
/// opponent's open four, and rank an own four-three (≥ 144,000) below blocking an open three,
/// although the side that completes such a shape first wins (the opponent's five is already
/// handled before any scoring). Measured over 48 games against the win-array, seeds 1–4:
/// 67.7/52.1/49.0/47.9% without this rule, 70.8/57.3/53.1/53.1% with it.
pub fn choice_keys_weighted(grid: &Grid, me: Color, attack_weight: i64) -> Vec<(Point, i64)> {
    grid.empties().map(|p| (p, choice_key(grid, p, me, attack_weight))).collect()
}

/// The choice key of the empty point `p` for `me` (see [`choice_keys_weighted`]).
fn choice_key(grid: &Grid, p: Point, me: Color, attack_weight: i64) -> i64 {
    let (attack, decisive) = evaluate_detail(grid, p, me);
    let defence = evaluate(grid, p, me.opponent());
    key_of(attack_weight * attack, decisive, defence)
}

/// The choice key of a point where the computer scores `attack` (`decisive` if it makes a
/// decisive shape there) and the opponent `defence`.
pub(super) fn key_of(attack: i64, decisive: bool, defence: i64) -> i64 {
    let tie_break = (attack + defence).min((1 << (KEY_SHIFT + 2)) - 1) / 4;
    let tier = if decisive { DECISIVE } else { 0 };
    tier + (deciding_score(attack, defence) << KEY_SHIFT) + tie_break
}

/// The scorer's `k` best points for `me` with their choice keys, best first (board order
/// on ties), among the empty points within two lines of a stone: the scorer as a playout
/// policy, where a far point never wins a key and scoring it would only cost time. Empty on
/// an empty board.
pub fn best_points(grid: &Grid, me: Color, k: usize) -> Vec<(Point, i64)> {
    let near = common::near_stones(grid, 2);
    let mut keyed: Vec<(Point, i64)> = grid
        .empties()
        .filter(|p| near[p.index(grid.size())])
        .map(|p| (p, choice_key(grid, p, me, 1)))
        .collect();
    common::sort_scored(&mut keyed);
    keyed.truncate(k);
    keyed
}

/// The score that decides between points: the larger of `attack` and `defence`, except that
/// every point where the opponent would make a 活四 (an open four or more, short of a five:
/// 1,000,000 ≤ score < 10,000,000) counts the same, 1,000,000.
///
/// Such a point must be taken (the opponent's open three is blocked there, or its 活四 follows),
/// and when there are several — the two ends of an open three, or blocking points that also
/// stop a second shape of the opponent — the article's own rule, the sum of the computer's and
/// the opponent's scores ("该点得分 = AI落子得分 + 对手落子得分"), then picks among them, so the
/// block that also builds the computer's shapes is played. Before, the opponent's small side
/// shapes at each end (a 眠二 worth 50) decided which end was blocked, and the computer's own
/// score there (an open three worth 10,000) did not count. Against the win-array, 48 games per
/// seed, seeds 1–40: 55.6% mean without this rule, 56.6% with it.
pub fn deciding_score(attack: i64, defence: i64) -> i64 {
    let larger = attack.max(defence);
    let (open_four, five) = (SHAPES[1].1, SHAPES[0].1);
    if (open_four..five).contains(&larger) {
        open_four
    } else {
        larger
    }
}

/// The key bit of a point where the computer makes a decisive shape (above every score).
const DECISIVE: i64 = 1 << 60;

/// The deciding score of a choice key (for display).
pub fn key_score(key: i64) -> i64 {
    (key & (DECISIVE - 1)) >> KEY_SHIFT
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::common::test_util::position;
    use crate::gomoku::{notation::parse_point, Rule};

    #[test]
    fn strings_score_as_in_the_article() {
        // The article's worked example: 000111000 is an open three, 000210000 a closed one.
        assert_eq!(score_string("000111000").score, 10_000);
        assert_eq!(score_string("000210000").score, 10);
        assert_eq!(score_string("000010000").score, 0);
        assert_eq!(score_string("000111000").kind, KIND_OPEN_THREE);
        assert_eq!(score_string("211110000").score, 8_000);
        assert_eq!(score_string("211110000").kind, KIND_FOUR);
        assert_eq!(score_string("001111000").score, 1_000_000);
        assert_eq!(score_string("1111").score, 0, "a short edge string can hold no five");
    }

    #[test]
    fn keys_read_the_board_like_the_article() {
        // Row 8: black h8 i8, white k8; the point g8 for black reads ....[1]11 0 2 .
        let pos = position(15, Rule::Freestyle, "h8 k8 i8");
        let grid = Grid::from_position(&pos);
        let g8 = parse_point("g8", 15).unwrap();
        assert_eq!(key_string(key(&grid, g8, (1, 0), code(Color::Black))), "000011102");
        // At the left edge the string is shorter.
        let a8 = parse_point("a8", 15).unwrap();
        assert_eq!(key_string(key(&grid, a8, (1, 0), code(Color::Black))), "10000");
    }

    #[test]
    fn combination_multipliers_apply() {
        let pos = position(15, Rule::Freestyle, "h8 a1 i8 a3 k9 a5 k10");
        let grid = Grid::from_position(&pos);
        let k8 = parse_point("k8", 15).unwrap();
        // Row: h8 i8 _ k8 -> "0110 1" a split three; column: k8 k9 k10 an open three.
        let single = evaluate(&grid, k8, Color::Black);
        assert_eq!(single, (10_000 + 10_000) * 6, "two open threes: sum x6");
    }
}

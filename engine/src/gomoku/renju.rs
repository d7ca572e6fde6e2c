//! Black's forbidden moves under Renju, by the real (recursive) definition.
//!
//! With black's stone placed on the point:
//! * if it makes **exactly five** in some line, the move wins and is never forbidden;
//! * else if it makes six or more in a row it is an **overline**;
//! * else if it makes two or more **fours** it is a **double-four**. A line has a four when
//!   some empty cell would complete exactly five that includes the new stone; one line can
//!   hold two fours (`X X X _ X _ X X X`, `X X _ X X _ X X`), while a straight four
//!   (`_ X X X X _`: two completing cells five apart) is a single four;
//! * else if it makes two or more **threes** it is a **double-three**. A line (without a
//!   four) has a three when black can play some empty cell of it that makes a straight four
//!   including the new stone, and that cell is itself neither forbidden — checked
//!   recursively with both stones on the board — nor a five: a move that makes five is a
//!   five, not a four, so a "three" whose only straight four is made by a move that also
//!   completes five elsewhere is no three (Rapfi's convention).
//!
//! Only the four lines through the point are examined, five cells either side, by
//! [`super::line`]: its five points, its [`FourKind`]s and Renju's exact-five rule.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::board::{Board, DIRECTIONS};
use super::line::{self, FourKind, Key, Offsets, BLACK, EMPTY, SPAN};
use super::Rule;
use crate::{Color, Point};

/// Why a point is forbidden to black under Renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForbiddenKind {
    /// The move makes two or more threes at once.
    DoubleThree,
    /// The move makes two or more fours at once.
    DoubleFour,
    /// The move makes six or more in a row.
    Overline,
}

impl ForbiddenKind {
    /// The name in plain words: `double-three`, `double-four` or `overline`.
    pub const fn name(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "double-three",
            ForbiddenKind::DoubleFour => "double-four",
            ForbiddenKind::Overline => "overline",
        }
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How deep the "is the completing point itself forbidden?" check may nest. Beyond it a
/// point is taken as allowed; real positions need two or three levels at most.
const MAX_DEPTH: u32 = 6;

/// Black's five points on a line through the centre: exactly five, by the Renju rule.
fn five_points(key: Key) -> Offsets {
    line::five_points(key, Color::Black, Rule::Renju)
}

/// The cells of the line where a black stone makes a straight four through the centre.
fn straight_four_makers(key: Key) -> Offsets {
    (1..=SPAN)
        .flat_map(|k| [-k, k])
        .filter(|&k| {
            line::cell(key, k) == EMPTY
                && FourKind::of(five_points(line::with(key, k, BLACK))) == FourKind::Straight
        })
        .fold(Offsets::NONE, Offsets::with)
}

/// A quick necessary condition: every forbidden shape needs at least four other black
/// stones on the lines through `p` within five cells (a double-three needs four, an
/// overline five, a double-four six). Most empty points fail it and need no search.
pub(crate) fn may_be_forbidden(board: &Board, p: Point) -> bool {
    if board.at(p) != EMPTY {
        return false;
    }
    let (x, y) = (p.x as i32, p.y as i32);
    let mut black = 0;
    for (dx, dy) in DIRECTIONS {
        for t in (-5..=5).filter(|&t| t != 0) {
            if board.get(x + t * dx, y + t * dy) == BLACK {
                black += 1;
            }
        }
    }
    black >= 4
}

/// Whether black playing `p` (empty, on the board) is forbidden, and why. The board is
/// left as it was.
pub(crate) fn forbidden(board: &mut Board, p: Point) -> Option<ForbiddenKind> {
    if !may_be_forbidden(board, p) {
        return None;
    }
    forbidden_at(board, p, 0)
}

/// Whether a black stone on the empty `p` would make exactly five in some line.
fn makes_five(board: &Board, p: Point) -> bool {
    line::keys_at(board, p).iter().any(|&k| line::wins(k, Color::Black, Rule::Renju))
}

fn forbidden_at(board: &mut Board, p: Point, depth: u32) -> Option<ForbiddenKind> {
    board.set(p, BLACK);
    let verdict = judge(board, p, depth);
    board.set(p, EMPTY);
    verdict
}

/// The verdict for the black stone already placed on `p`.
fn judge(board: &mut Board, p: Point, depth: u32) -> Option<ForbiddenKind> {
    let keys = line::keys_at(board, p);
    if keys.iter().any(|&k| line::wins(k, Color::Black, Rule::Renju)) {
        return None;
    }
    if keys.iter().any(|&k| line::is_overline(k, Color::Black, Rule::Renju)) {
        return Some(ForbiddenKind::Overline);
    }

    let kinds = keys.map(|k| FourKind::of(five_points(k)));
    if kinds.iter().map(|k| k.fours()).sum::<u32>() >= 2 {
        return Some(ForbiddenKind::DoubleFour);
    }

    // Threes: cheap pattern pass first, the recursive check only when two lines qualify.
    let mut makers = [Offsets::NONE; 4];
    for ((m, &key), kind) in makers.iter_mut().zip(&keys).zip(kinds) {
        if kind == FourKind::None {
            *m = straight_four_makers(key);
        }
    }
    if makers.iter().filter(|m| !m.is_empty()).count() < 2 {
        return None;
    }
    let mut threes = 0;
    for (cells, d) in makers.iter().zip(DIRECTIONS) {
        let real = cells.iter().any(|t| {
            let q = Point::new((p.x as i32 + t * d.0) as u8, (p.y as i32 + t * d.1) as u8);
            !makes_five(board, q)
                && (depth >= MAX_DEPTH || forbidden_at(board, q, depth + 1).is_none())
        });
        if real {
            threes += 1;
            if threes >= 2 {
                return Some(ForbiddenKind::DoubleThree);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::line::{EDGE, WHITE};

    /// A line key from a picture of cells around the centre `*` (`X` black, `O` white, `|`
    /// off the board, anything else empty; cells not shown are empty).
    fn line_of(s: &str) -> Key {
        let cells: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        let centre = cells.iter().position(|&c| c == '*').unwrap() as i32;
        line::key_of(|k| match usize::try_from(centre + k).ok().and_then(|i| cells.get(i)) {
            Some('X') => BLACK,
            Some('O') => WHITE,
            Some('|') => EDGE,
            _ => EMPTY,
        })
    }

    fn four_count(key: Key) -> u32 {
        FourKind::of(five_points(key)).fours()
    }

    #[test]
    fn fours_in_a_line() {
        assert_eq!(four_count(line_of("_ X X * X _")), 1, "straight four");
        assert_eq!(four_count(line_of("O X X * X _")), 1, "closed four");
        assert_eq!(four_count(line_of("X X X _ * _ X X X")), 2);
        assert_eq!(four_count(line_of("X X _ * X _ X X")), 2);
        assert_eq!(four_count(line_of("_ X * X _ _")), 0, "three");
        assert_eq!(four_count(line_of("X _ X X * X _")), 1, "left cell would be six");
        assert_eq!(four_count(line_of("O X X * X O")), 0, "dead four");
    }

    #[test]
    fn straight_four_makers_find_threes() {
        let n = |s| straight_four_makers(line_of(s)).len();
        assert_eq!(n("_ _ X * X _ _"), 2);
        assert_eq!(n("_ X * _ X _"), 1);
        assert_eq!(n("O X * X _ _"), 0, "blocked three");
        assert_eq!(n("| X * X _ _"), 0, "three against the edge");
        assert_eq!(n("X _ X * X _ _"), 0, "filling either gap gives five, six or a closed four");
        assert_eq!(
            n("X _ * X X _ _"),
            0,
            "the gap makes five, the right side a four that six spoils"
        );
    }
}

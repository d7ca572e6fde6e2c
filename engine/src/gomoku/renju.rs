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
//! Only the four lines through the point are examined, a few cells either side.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::board::{Board, BLACK, DIRECTIONS, EDGE, EMPTY};
use crate::Point;

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

/// Cells either side of the centre kept in a [`Line`]: a completing cell is at most 4 away
/// and a run through it is examined up to 5 further.
const REACH: usize = 9;
const LEN: usize = 2 * REACH + 1;
const C: usize = REACH;

/// The cells of one line through the point, centred on it; off-board cells are `EDGE`.
type Line = [u8; LEN];

fn extract(board: &Board, p: Point, (dx, dy): (i32, i32)) -> Line {
    let mut line = [EDGE; LEN];
    for (i, cell) in line.iter_mut().enumerate() {
        let t = i as i32 - C as i32;
        *cell = board.get(p.x as i32 + t * dx, p.y as i32 + t * dy);
    }
    line
}

/// The ends (inclusive) of the run of black stones through `i` (`line[i]` is black).
fn run(line: &Line, i: usize) -> (usize, usize) {
    let mut lo = i;
    while lo > 0 && line[lo - 1] == BLACK {
        lo -= 1;
    }
    let mut hi = i;
    while hi + 1 < LEN && line[hi + 1] == BLACK {
        hi += 1;
    }
    (lo, hi)
}

/// Whether a black stone on the empty cell `i` makes exactly five that includes the centre.
/// A run reaching the end of the window is at least six long, so the window never hides
/// an overline.
fn completes_five(line: &mut Line, i: usize) -> bool {
    line[i] = BLACK;
    let (lo, hi) = run(line, i);
    line[i] = EMPTY;
    hi - lo + 1 == 5 && lo <= C && C <= hi && lo > 0 && hi + 1 < LEN
}

/// The empty cells that complete exactly five including the centre, nearest first in order.
fn completions(line: &mut Line) -> ([usize; 9], usize) {
    let mut found = [0; 9];
    let mut n = 0;
    for i in C - 4..=C + 4 {
        if line[i] == EMPTY && completes_five(line, i) {
            found[n] = i;
            n += 1;
        }
    }
    (found, n)
}

/// Whether two completing cells lie five apart: the four stones between them make a
/// straight four.
fn has_straight_pair(found: &[usize]) -> bool {
    found.iter().any(|&a| found.iter().any(|&b| b == a + 5))
}

/// The number of fours through the centre in this line.
fn four_count(line: &mut Line) -> u32 {
    let (found, n) = completions(line);
    let found = &found[..n];
    if has_straight_pair(found) {
        n as u32 - 1
    } else {
        n as u32
    }
}

/// The cells where a black stone would make a straight four through the centre.
fn straight_four_makers(line: &mut Line) -> ([usize; 9], usize) {
    let mut found = [0; 9];
    let mut n = 0;
    for i in C - 4..=C + 4 {
        if line[i] == EMPTY {
            line[i] = BLACK;
            let (c, m) = completions(line);
            line[i] = EMPTY;
            if has_straight_pair(&c[..m]) {
                found[n] = i;
                n += 1;
            }
        }
    }
    (found, n)
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
    DIRECTIONS.iter().any(|&d| {
        let (lo, hi) = board.run(p, d, BLACK);
        hi - lo + 1 == 5
    })
}

fn forbidden_at(board: &mut Board, p: Point, depth: u32) -> Option<ForbiddenKind> {
    board.set(p, BLACK);
    let verdict = judge(board, p, depth);
    board.set(p, EMPTY);
    verdict
}

/// The verdict for the black stone already placed on `p`.
fn judge(board: &mut Board, p: Point, depth: u32) -> Option<ForbiddenKind> {
    let mut lines = [[EDGE; LEN]; 4];
    let mut overline = false;
    for (line, d) in lines.iter_mut().zip(DIRECTIONS) {
        *line = extract(board, p, d);
        let (lo, hi) = run(line, C);
        match hi - lo + 1 {
            5 => return None,
            n if n > 5 => overline = true,
            _ => {}
        }
    }
    if overline {
        return Some(ForbiddenKind::Overline);
    }

    let mut fours = 0;
    let mut four_in = [false; 4];
    for (k, line) in lines.iter_mut().enumerate() {
        let n = four_count(line);
        four_in[k] = n > 0;
        fours += n;
    }
    if fours >= 2 {
        return Some(ForbiddenKind::DoubleFour);
    }

    // Threes: cheap pattern pass first, the recursive check only when two lines qualify.
    let mut makers = [([0usize; 9], 0usize); 4];
    let mut candidates = 0;
    for (k, line) in lines.iter_mut().enumerate() {
        if !four_in[k] {
            makers[k] = straight_four_makers(line);
            if makers[k].1 > 0 {
                candidates += 1;
            }
        }
    }
    if candidates < 2 {
        return None;
    }
    let mut threes = 0;
    for (k, (cells, n)) in makers.iter().enumerate() {
        let d = DIRECTIONS[k];
        let real = cells[..*n].iter().any(|&i| {
            let t = i as i32 - C as i32;
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

    fn line_of(s: &str) -> Line {
        // `s` is centred on C; '*' marks the centre stone.
        let mut line = [EMPTY; LEN];
        let cells: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        let centre = cells.iter().position(|&c| c == '*').unwrap();
        for (j, ch) in cells.iter().enumerate() {
            let i = C + j - centre;
            line[i] = match ch {
                'X' | '*' => BLACK,
                'O' => super::super::board::WHITE,
                '|' => EDGE,
                _ => EMPTY,
            };
        }
        line
    }

    #[test]
    fn fours_in_a_line() {
        assert_eq!(four_count(&mut line_of("_ X X * X _")), 1, "straight four");
        assert_eq!(four_count(&mut line_of("O X X * X _")), 1, "closed four");
        assert_eq!(four_count(&mut line_of("X X X _ * _ X X X")), 2);
        assert_eq!(four_count(&mut line_of("X X _ * X _ X X")), 2);
        assert_eq!(four_count(&mut line_of("_ X * X _ _")), 0, "three");
        assert_eq!(four_count(&mut line_of("X _ X X * X _")), 1, "left cell would be six");
        assert_eq!(four_count(&mut line_of("O X X * X O")), 0, "dead four");
    }

    #[test]
    fn straight_four_makers_find_threes() {
        let (_, n) = straight_four_makers(&mut line_of("_ _ X * X _ _"));
        assert_eq!(n, 2);
        let (_, n) = straight_four_makers(&mut line_of("_ X * _ X _"));
        assert_eq!(n, 1);
        let (_, n) = straight_four_makers(&mut line_of("O X * X _ _"));
        assert_eq!(n, 0, "blocked three");
        let (_, n) = straight_four_makers(&mut line_of("| X * X _ _"));
        assert_eq!(n, 0, "three against the edge");
        let (_, n) = straight_four_makers(&mut line_of("X _ X * X _ _"));
        assert_eq!(n, 0, "filling either gap gives five, six or a closed four");
        let (_, n) = straight_four_makers(&mut line_of("X _ * X X _ _"));
        assert_eq!(n, 0, "the gap makes five, the right side a four that six spoils");
    }
}

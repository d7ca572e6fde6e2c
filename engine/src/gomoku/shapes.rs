//! Naming the shapes (棋型) a stone makes: 连五, 活四, 冲四, 活三, 眠三, 活二, 眠二.
//!
//! The app shows these names for the last move ("d9: four + open three"). They are defined
//! by what one more stone in the same line could make, so they follow the rule's idea of a
//! five (an overline is not a five for black under Renju or for either side in standard):
//!
//! * **five** — the stone is part of a winning run;
//! * **open four** — two distinct points complete a five, five cells apart (`_XXXX_`);
//! * **four** — at least one point completes a five;
//! * **open three** / **closed three** — one more stone in the line makes an open four / only
//!   a four;
//! * **open two** / **closed two** — one more stone makes an open three / only a closed three.
//!
//! Only fives through the stone count, so a shape elsewhere on the same line is not named.
//! A move that makes five is a five, not a four: a point of the line where one more stone
//! would also complete a five across another line is not counted as making this line's
//! four or three (so `_XXX` whose open-four point wins elsewhere is a closed three, as in
//! [`super::renju`]). Renju's other finer point, that a three is "real" only if its four is
//! not forbidden, is left to [`super::renju`]; these names are descriptions, not rules.

use super::board::{cell_of, DIRECTIONS};
use super::{Position, Rule};
use crate::{Color, Point};

/// A named shape in one line through a stone, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// 连五: a winning run.
    Five,
    /// 活四: two ways to make five, with the four stones in a row.
    OpenFour,
    /// 冲四: one way (or two split ways) to make five.
    Four,
    /// 活三: one move from an open four.
    OpenThree,
    /// 眠三: one move from a four, but not from an open four.
    ClosedThree,
    /// 活二: one move from an open three.
    OpenTwo,
    /// 眠二: one move from a closed three only.
    ClosedTwo,
}

impl Shape {
    /// The shape's key, as used in the app's locale files (`pattern.open_three`).
    pub const fn key(self) -> &'static str {
        match self {
            Shape::Five => "five",
            Shape::OpenFour => "open_four",
            Shape::Four => "four",
            Shape::OpenThree => "open_three",
            Shape::ClosedThree => "closed_three",
            Shape::OpenTwo => "open_two",
            Shape::ClosedTwo => "closed_two",
        }
    }
}

/// How far along the line (each way) the reading looks: enough for a five through the
/// centre after three more stones, plus the cells that decide whether a run is an overline.
const REACH: i32 = 9;
/// Where the stones that build a shape may go: every five through the centre lies within it.
const SPAN: i32 = 4;
const LEN: usize = (2 * REACH + 1) as usize;
const CENTRE: i32 = REACH;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Own,
    Empty,
    Blocked,
}

/// The cells of one line through the centre, from the mover's point of view.
#[derive(Clone, Copy)]
struct Line {
    cells: [Cell; LEN],
    /// Empty cells where the mover's stone would complete a five across another line: a
    /// stone there is a five, so it does not build this line's shapes.
    wins_across: [bool; LEN],
    rule: Rule,
    color: Color,
}

impl Line {
    fn at(&self, i: i32) -> Cell {
        self.cells[i as usize]
    }

    fn with(&self, i: i32) -> Line {
        let mut line = *self;
        line.cells[i as usize] = Cell::Own;
        line
    }

    /// The empty points near the centre, as indices.
    fn empties(&self) -> impl Iterator<Item = i32> + '_ {
        (CENTRE - SPAN..=CENTRE + SPAN).filter(|&i| self.at(i) == Cell::Empty)
    }

    /// The empty points near the centre where a stone would not win across another line:
    /// the points that can turn this line into a stronger shape.
    fn builders(&self) -> impl Iterator<Item = i32> + '_ {
        self.empties().filter(|&i| !self.wins_across[i as usize])
    }

    /// Whether the centre stone is in a winning run.
    fn is_five(&self) -> bool {
        let mut lo = CENTRE;
        while lo > 0 && self.at(lo - 1) == Cell::Own {
            lo -= 1;
        }
        let mut hi = CENTRE;
        while hi + 1 < LEN as i32 && self.at(hi + 1) == Cell::Own {
            hi += 1;
        }
        self.rule.run_wins(self.color, (hi - lo + 1) as u32)
    }

    /// The four status: open four, four, or nothing.
    fn four(&self) -> Option<Shape> {
        let wins: Vec<i32> = self.empties().filter(|&i| self.with(i).is_five()).collect();
        match wins.as_slice() {
            [] => None,
            [_] => Some(Shape::Four),
            _ => {
                let open = wins.iter().any(|a| wins.iter().any(|b| b - a == 5));
                Some(if open { Shape::OpenFour } else { Shape::Four })
            }
        }
    }

    /// The three status: what the best next stone in the line makes.
    fn three(&self) -> Option<Shape> {
        let best = self.builders().filter_map(|i| self.with(i).four()).min()?;
        Some(if best == Shape::OpenFour { Shape::OpenThree } else { Shape::ClosedThree })
    }

    /// The two status, from the best three one more stone makes.
    fn two(&self) -> Option<Shape> {
        let best = self.builders().filter_map(|i| self.with(i).three()).min()?;
        Some(if best == Shape::OpenThree { Shape::OpenTwo } else { Shape::ClosedTwo })
    }

    /// The strongest shape through the centre.
    fn shape(&self) -> Option<Shape> {
        if self.is_five() {
            return Some(Shape::Five);
        }
        self.four().or_else(|| self.three()).or_else(|| self.two())
    }
}

/// The strongest shape the stone on `p` makes in each direction, strongest first.
///
/// Returns an empty list for an empty or off-board point, and for a stone that makes no
/// named shape (for example a lone stone).
pub fn shapes_at(position: &Position, p: Point) -> Vec<Shape> {
    let size = position.size() as i32;
    if !p.on_board(position.size()) {
        return Vec::new();
    }
    let Some(color) = position.stone(p) else {
        return Vec::new();
    };
    let rule = position.rule();
    let board = position.board();
    let own = cell_of(color);
    let mut shapes: Vec<Shape> = DIRECTIONS
        .iter()
        .filter_map(|&(dx, dy)| {
            let mut cells = [Cell::Blocked; LEN];
            let mut wins_across = [false; LEN];
            for (k, cell) in cells.iter_mut().enumerate() {
                let d = k as i32 - CENTRE;
                let (x, y) = (p.x as i32 + d * dx, p.y as i32 + d * dy);
                if (0..size).contains(&x) && (0..size).contains(&y) {
                    let q = Point::new(x as u8, y as u8);
                    *cell = match position.stone(q) {
                        None => Cell::Empty,
                        Some(c) if c == color => Cell::Own,
                        Some(_) => Cell::Blocked,
                    };
                    // Stones added along this line never touch the other lines through q.
                    wins_across[k] = *cell == Cell::Empty
                        && DIRECTIONS.iter().filter(|&&e| e != (dx, dy)).any(|&e| {
                            let (lo, hi) = board.run(q, e, own);
                            rule.run_wins(color, (hi - lo + 1) as u32)
                        });
                }
            }
            Line { cells, wins_across, rule, color }.shape()
        })
        .collect();
    shapes.sort();
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::notation::parse_moves;

    /// The shapes of the last stone after playing `moves` (alternating colours).
    fn last_shapes(rule: Rule, moves: &str) -> Vec<Shape> {
        let points = parse_moves(moves, 15).expect("test moves parse");
        let position = Position::from_moves(15, rule, &points).expect("test moves are legal");
        shapes_at(&position, *points.last().expect("at least one move"))
    }

    /// Black plays `black` in order while white answers far away on the bottom row.
    fn black_line(rule: Rule, black: &[&str]) -> Vec<Shape> {
        let far = ["a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1"];
        let mut moves = Vec::new();
        for (i, b) in black.iter().enumerate() {
            if i > 0 {
                moves.push(far[i - 1]);
            }
            moves.push(*b);
        }
        last_shapes(rule, &moves.join(" "))
    }

    #[test]
    fn each_shape_in_an_open_row() {
        use Shape::*;
        let f = Rule::Freestyle;
        assert_eq!(black_line(f, &["h8"]), Vec::<Shape>::new());
        assert_eq!(black_line(f, &["h8", "i8"]), vec![OpenTwo]);
        assert_eq!(black_line(f, &["h8", "j8"]), vec![OpenTwo], "split two");
        assert_eq!(black_line(f, &["h8", "i8", "j8"]), vec![OpenThree]);
        assert_eq!(black_line(f, &["h8", "i8", "k8"]), vec![OpenThree], "split three");
        assert_eq!(black_line(f, &["h8", "i8", "j8", "k8"]), vec![OpenFour]);
        assert_eq!(black_line(f, &["h8", "i8", "k8", "l8"]), vec![Four], "split four");
        assert_eq!(black_line(f, &["h8", "i8", "j8", "k8", "l8"]), vec![Five]);
    }

    #[test]
    fn blocked_and_edge_shapes_are_closed() {
        use Shape::*;
        // White on g8 blocks one end of black's h8-i8-j8.
        assert_eq!(last_shapes(Rule::Freestyle, "h8 g8 i8 a1 j8"), vec![ClosedThree]);
        assert_eq!(last_shapes(Rule::Freestyle, "h8 g8 i8 a1 j8 c1 k8"), vec![Four]);
        // Against the left edge: a8 b8 c8 can only grow to the right.
        assert_eq!(black_line(Rule::Freestyle, &["a8", "b8", "c8"]), vec![ClosedThree]);
        assert_eq!(black_line(Rule::Freestyle, &["a8", "b8"]), vec![ClosedTwo]);
        // Walled in on both sides with no room for five: nothing to name.
        assert_eq!(last_shapes(Rule::Freestyle, "h8 g8 i8 k8 j8"), Vec::<Shape>::new());
    }

    #[test]
    fn directions_are_named_separately_strongest_first() {
        use Shape::*;
        // h8 i8 j8 across plus h9 h10 up through h8, then h8's neighbour g8... built so the
        // last stone (h8) makes an open three across and an open three vertically.
        let shapes = black_line(Rule::Freestyle, &["i8", "j8", "h9", "h10", "h8"]);
        assert_eq!(shapes, vec![OpenThree, OpenThree]);
        let shapes = black_line(Rule::Freestyle, &["i8", "j8", "k8", "h9", "h10", "h8"]);
        assert_eq!(shapes, vec![OpenFour, OpenThree]);
    }

    #[test]
    fn overlines_follow_the_rule() {
        use Shape::*;
        let six = ["c8", "d8", "e8", "g8", "h8", "f8"];
        assert_eq!(black_line(Rule::Freestyle, &six), vec![Five]);
        assert_eq!(black_line(Rule::Standard, &six), Vec::<Shape>::new());
        // c8 and e8-h8 with white on i8: only d8 completes the line, and it makes six. That
        // is a four in freestyle but nothing for black under Renju (an overline is no five),
        // while the same stones are a four for white under Renju.
        let moves = "c8 i8 e8 a1 f8 c1 g8 e1 h8";
        assert_eq!(last_shapes(Rule::Freestyle, moves), vec![Four]);
        assert_eq!(last_shapes(Rule::Renju, moves), Vec::<Shape>::new());
        let white = "i8 c8 a1 e8 c1 f8 e1 g8 g1 h8";
        assert_eq!(last_shapes(Rule::Renju, white), vec![Four]);
    }

    #[test]
    fn empty_and_off_board_points_have_no_shapes() {
        let position = Position::new(15, Rule::Freestyle).expect("valid size");
        assert!(shapes_at(&position, Point::new(7, 7)).is_empty());
        assert!(shapes_at(&position, Point::new(20, 7)).is_empty());
    }

    #[test]
    fn a_point_that_wins_across_does_not_build_a_three() {
        use Shape::*;
        // Column e: e8 e9 and the last stone e10, white on e12, so only e7 would make an
        // open four; but e7 also completes f7 g7 h7 i7 across: a five, not a four. The
        // column is a closed three (e11 still makes a four); the row c10 d10 e10 is open,
        // and the diagonal e10 _ _ h7 an open two.
        let game = "f7 e12 g7 a1 h7 a3 e8 a5 e9 o1 c10 o3 d10 o5 i7 o15 e10";
        assert_eq!(last_shapes(Rule::Renju, game), vec![OpenThree, ClosedThree, OpenTwo]);
        assert_eq!(last_shapes(Rule::Freestyle, game), vec![OpenThree, ClosedThree, OpenTwo]);
        // Control: without i7 (a far stone instead), e7 is an ordinary point.
        let control = "f7 e12 g7 a1 h7 a3 e8 a5 e9 o1 c10 o3 d10 o5 m13 o15 e10";
        assert_eq!(last_shapes(Rule::Freestyle, control), vec![OpenThree, OpenThree, OpenTwo]);
    }

    #[test]
    fn white_shapes_are_read_for_white() {
        // White's g7-g8 (and black stones around) — the last stone is white's g9.
        assert_eq!(last_shapes(Rule::Freestyle, "h8 g8 h9 g7 a1 g9"), vec![Shape::OpenThree]);
    }
}

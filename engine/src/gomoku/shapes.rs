//! Naming the shapes (棋型) a stone makes: 连五, 活四, 冲四, 活三, 眠三, 活二, 眠二.
//!
//! The app shows these names for the last move ("d9: four + open three"). They are defined
//! by what one more stone in the same line could make, so they follow the rule's idea of a
//! five (an overline is not a five for black under Renju or for either side in standard):
//!
//! * **five** — the stone is part of a winning run;
//! * **open four** — two points complete a five (`_XXXX_`, or two fours in one line such as
//!   `X_XXX_X`: one stone cannot stop both), except for black under Renju, where only the
//!   straight four is open (two fours in one line are a double four, named a four);
//! * **four** — one point completes a five;
//! * **open three** / **closed three** — one more stone in the line makes an open four / only
//!   a four;
//! * **open two** / **closed two** — one more stone makes an open three / only a closed three.
//!
//! The names are [`super::line`]'s patterns ([`Pat`]); only fives through the stone count, so a shape elsewhere on the same line is not named.
//! A move that makes five is a five, not a four: a point of the line where one more stone
//! would also complete a five across another line is not counted as making this line's
//! four or three (so `_XXX` whose open-four point wins elsewhere is a closed three, as in
//! [`super::renju`]). Renju's other finer point, that a three is "real" only if its four is
//! not forbidden, is left to [`super::renju`]; these names are descriptions, not rules.

use super::board::DIRECTIONS;
use super::line::{self, Offsets, Pat, EMPTY, SPAN};
use super::Position;
use crate::Point;

/// A named shape in one line through a stone, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// 连五: a winning run.
    Five,
    /// 活四: two ways to make five (see [`super::line`] for the settled definition).
    OpenFour,
    /// 冲四: one way to make five (or, for Renju black, two fours in one line).
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

impl Shape {
    /// The name of a line pattern, if it has one.
    fn of(pat: Pat) -> Option<Shape> {
        Some(match pat {
            Pat::F5 => Shape::Five,
            Pat::F4 => Shape::OpenFour,
            Pat::B4 | Pat::DoubleFour => Shape::Four,
            Pat::F3 => Shape::OpenThree,
            Pat::B3 => Shape::ClosedThree,
            Pat::F2 => Shape::OpenTwo,
            Pat::B2 => Shape::ClosedTwo,
            Pat::Dead | Pat::B1 | Pat::F1 | Pat::Overline => return None,
        })
    }
}

/// The strongest shape the stone on `p` makes in each direction, strongest first.
///
/// Returns an empty list for an empty or off-board point, and for a stone that makes no
/// named shape (for example a lone stone).
pub fn shapes_at(position: &Position, p: Point) -> Vec<Shape> {
    let mut shapes: Vec<Shape> = shapes_by_direction(position, p).into_iter().flatten().collect();
    shapes.sort();
    shapes
}

/// The shape the stone on `p` makes along each of [`DIRECTIONS`] (in that order), `None`
/// where it makes none; all `None` for an empty or off-board point.
pub fn shapes_by_direction(position: &Position, p: Point) -> [Option<Shape>; 4] {
    if !p.on_board(position.size()) {
        return [None; 4];
    }
    let Some(color) = position.stone(p) else {
        return [None; 4];
    };
    let rule = position.rule();
    let board = position.board();
    DIRECTIONS.map(|(dx, dy)| {
        let key = line::key_at(board, p, (dx, dy));
        // Empty cells where the stone would win across another line: a five, not a
        // builder of this line's shapes. Stones added along this line never touch the
        // other lines through such a cell, so it is decided once.
        let inert = (1..=SPAN)
            .flat_map(|k| [-k, k])
            .filter(|&k| {
                line::cell(key, k) == EMPTY && {
                    let (x, y) = (p.x as i32 + k * dx, p.y as i32 + k * dy);
                    let q = Point::new(x as u8, y as u8);
                    DIRECTIONS
                        .iter()
                        .filter(|&&e| e != (dx, dy))
                        .any(|&e| line::wins(line::key_at(board, q, e), color, rule))
                }
            })
            .fold(Offsets::NONE, Offsets::with);
        Shape::of(line::pattern_building(key, color, rule, inert))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::notation::parse_moves;
    use crate::gomoku::Rule;

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
    fn two_fours_in_one_line_are_open_except_for_renju_black() {
        use Shape::*;
        // f8 h8 i8 j8 l8, last stone i8: g8 and k8 each make five; one stone cannot stop
        // both, so it is an open four (for Renju black it is a forbidden double four: the
        // line reads `Pat::DoubleFour`, which names a four).
        let split = ["f8", "h8", "j8", "l8", "i8"];
        assert_eq!(black_line(Rule::Freestyle, &split), vec![OpenFour]);
        assert_eq!(black_line(Rule::Standard, &split), vec![OpenFour]);
        let white = "a1 f8 c1 h8 e1 j8 g1 l8 i2 i8";
        assert_eq!(last_shapes(Rule::Renju, white), vec![OpenFour]);
        assert_eq!(Shape::of(Pat::DoubleFour), Some(Four));
    }

    #[test]
    fn white_shapes_are_read_for_white() {
        // White's g7-g8 (and black stones around) — the last stone is white's g9.
        assert_eq!(last_shapes(Rule::Freestyle, "h8 g8 h9 g7 a1 g9"), vec![Shape::OpenThree]);
    }
}

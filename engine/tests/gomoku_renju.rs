//! Renju forbidden points, one test per class, each with its control. Positions are set
//! up on 15x15 in board notation (columns a–o from the left, rows 1–15 from the bottom).
//! Stones are placed without rule checks so that any shape can be built; the point under
//! test is marked `*` in the diagrams, white stones far away only balance the count.

use tengen_engine::game::{EndReason, Game, GameConfig, GameKind, PlayerKind, Setup};
use tengen_engine::gomoku::notation::parse_moves;
use tengen_engine::gomoku::{ForbiddenKind, GomokuError, Position, Rule};
use tengen_engine::{Color, Move, Point};

/// Far-away white stones (every other point of rows 1 and 3) to balance the move count.
const FILLER: &str = "a1 c1 e1 g1 i1 k1 m1 o1 a3 c3 e3 g3 i3 k3 m3 o3";

fn pt(s: &str) -> Point {
    parse_moves(s, 15).unwrap()[0]
}

/// Black's stones, then as many white stones (from `white`, then `FILLER`) as black has:
/// black to move.
fn setup(rule: Rule, black: &str, white: &str) -> Position {
    let black = parse_moves(black, 15).unwrap();
    let mut white = parse_moves(white, 15).unwrap();
    white.extend(parse_moves(FILLER, 15).unwrap());
    let mut pos = Position::new(15, rule).unwrap();
    for (i, &b) in black.iter().enumerate() {
        assert!(pos.play_unchecked(b));
        assert!(pos.play_unchecked(white[i]));
    }
    assert_eq!(pos.side_to_move(), Color::Black);
    pos
}

fn renju(black: &str, white: &str) -> Position {
    setup(Rule::Renju, black, white)
}

#[test]
fn simple_double_three() {
    //  9 . . . . . . .
    //  8 . . X X * . .     f8 g8 *      open three along row 8
    //  7 . . . . X . .     h7
    //  6 . . . . X . .     h6           open three along column h
    //  5 . . . . . . .
    //    d e f g h i j
    let pos = renju("f8 g8 h7 h6", "");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::DoubleThree));
    // Control: one three alone is fine.
    let pos = renju("f8 g8 h7 a8", "");
    assert_eq!(pos.is_forbidden(pt("h8")), None);
    // A split three counts too:
    //  8 . . . X * _ X .   g8 * _ j8  (only i8 makes the straight four g8..j8)
    let pos = renju("g8 j8 h7 h6", "");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::DoubleThree));
}

#[test]
fn double_three_on_diagonals() {
    // Both diagonals through h8: f6 g7 * and j6 i7 *.
    // 10 . . . . . . .
    //  9 . . . . . . .
    //  8 . . . * . . .
    //  7 . . X . X . .     g7 i7
    //  6 . X . . . X .     f6 j6
    //    e f g h i j k
    let pos = renju("f6 g7 i7 j6", "");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::DoubleThree));
    assert!(pos.forbidden_points().contains(&(pt("h8"), ForbiddenKind::DoubleThree)));
}

#[test]
fn double_four_across_two_lines() {
    //  9 . . . . . . .
    //  8 O X X X * . .     d8 white, e8 f8 g8 black: a four along row 8 (i8 completes)
    //  7 . . . . X . .     h7
    //  6 . . . . X . .     h6
    //  5 . . . . X . .     h5
    //  4 . . . . O . .     h4 white: a four along column h (h9 completes)
    //    d e f g h i j
    let pos = renju("e8 f8 g8 h7 h6 h5", "d8 h4");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::DoubleFour));
    let mut p2 = pos.clone();
    assert_eq!(
        p2.play(pt("h8")),
        Err(GomokuError::Forbidden { point: pt("h8"), size: 15, kind: ForbiddenKind::DoubleFour })
    );
    // Control: a four and a three (4-3) is allowed.
    let pos = renju("e8 f8 g8 h7 h6 a5", "d8 h4");
    assert_eq!(pos.is_forbidden(pt("h8")), None);
    // The same shapes do not restrict white or the other rules.
    let std = setup(Rule::Standard, "e8 f8 g8 h7 h6 h5", "d8 h4");
    assert_eq!(std.is_forbidden(pt("h8")), None);
}

#[test]
fn double_four_in_one_line_three_gap_three() {
    //  8 . X X X _ * _ X X X .     b8 c8 d8 _ f8=* _ h8 i8 j8: e8 and g8 both make five
    //    a b c d e f g h i j k
    let pos = renju("b8 c8 d8 h8 i8 j8", "");
    assert_eq!(pos.is_forbidden(pt("f8")), Some(ForbiddenKind::DoubleFour));
    // Control: with j8 missing only e8 makes five: a single four.
    let pos = renju("b8 c8 d8 h8 i8 a5", "");
    assert_eq!(pos.is_forbidden(pt("f8")), None);
}

#[test]
fn double_four_in_one_line_two_gap_two_gap_two() {
    //  8 . . X X _ * X _ X X .     c8 d8 _ f8=* g8 _ i8 j8: e8 and h8 both make five
    //    a b c d e f g h i j k
    let pos = renju("c8 d8 g8 i8 j8", "");
    assert_eq!(pos.is_forbidden(pt("f8")), Some(ForbiddenKind::DoubleFour));
    // Control: a white stone on j8 spoils the right-hand four.
    let pos = renju("c8 d8 g8 i8 a5", "j8");
    assert_eq!(pos.is_forbidden(pt("f8")), None);
}

#[test]
fn overline() {
    //  8 . X X X X * X .     d8 e8 f8 g8 * i8: six in a row
    //    c d e f g h i j
    let pos = renju("d8 e8 f8 g8 i8", "");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::Overline));
    // Seven is an overline too: c8 d8 e8 * g8 h8 i8.
    let pos = renju("c8 d8 e8 g8 h8 i8", "");
    assert_eq!(pos.is_forbidden(pt("f8")), Some(ForbiddenKind::Overline));
    // Control: with a gap at i8 (d8 e8 f8 g8 * _ j8) the move makes exactly five and wins.
    let pos = renju("d8 e8 f8 g8 j8", "");
    assert_eq!(pos.is_forbidden(pt("h8")), None);
}

#[test]
fn overline_is_forbidden_even_with_a_four_elsewhere() {
    //  8 . X X X X * X .     row 8: six
    //  7 . . . . . X . .     h7
    //  6 . . . . . X . .     h6
    //  5 . . . . . X . .     h5: column h becomes a four (h9 or h4 completes)
    //    c d e f g h i j
    let pos = renju("d8 e8 f8 g8 i8 h7 h6 h5", "");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::Overline));
}

#[test]
fn false_double_three_blocked_by_white() {
    //  9 . . . . . . .
    //  8 . . X X * . .     f8 g8 *: a real three
    //  7 . . . . X . .     h7
    //  6 . . . . X . .     h6
    //  5 . . . . O . .     h5 white: h6 h7 * can never become a straight four
    //    d e f g h i j
    let pos = renju("f8 g8 h7 h6", "h5");
    assert_eq!(pos.is_forbidden(pt("h8")), None);
    // Control: white one point further away leaves the three open (h5 or h9 makes it).
    let pos = renju("f8 g8 h7 h6", "h4");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::DoubleThree));
}

#[test]
fn false_double_three_blocked_by_the_edge() {
    //  4 . . . . . . .
    //  3 . . X X * . .     f3 g3 *: a real three along row 3
    //  2 . . . . X . .     h2
    //  1 . . . . X . .     h1: h1 h2 * leans on the edge, no straight four possible
    //    d e f g h i j
    // (White fills rows 13 and 15 here instead of rows 1 and 3.)
    let black = parse_moves("f3 g3 h2 h1", 15).unwrap();
    let white = parse_moves("a15 c15 e15 g15", 15).unwrap();
    let mut pos = Position::new(15, Rule::Renju).unwrap();
    for (b, w) in black.iter().zip(&white) {
        assert!(pos.play_unchecked(*b) && pos.play_unchecked(*w));
    }
    assert_eq!(pos.is_forbidden(pt("h3")), None);
    // Control: one row up, the column three is open and the point is forbidden.
    let black = parse_moves("f4 g4 h3 h2", 15).unwrap();
    let mut pos = Position::new(15, Rule::Renju).unwrap();
    for (b, w) in black.iter().zip(&white) {
        assert!(pos.play_unchecked(*b) && pos.play_unchecked(*w));
    }
    assert_eq!(pos.is_forbidden(pt("h4")), Some(ForbiddenKind::DoubleThree));
}

#[test]
fn three_whose_completing_point_is_forbidden_does_not_count() {
    // 11 . . . . X . . .     i11
    // 10 . . . . X . . .     i10
    //  9 . . . . X . . .     i9
    //  8 . . X * _ X . .     g8 * _ j8: a split three; only i8 makes the straight four,
    //  7 . . . X X . . .     h7 i7      but i8 would make i6..i11 = six: an overline,
    //  6 . . . X X . . .     h6 i6      so this "three" is not a three.
    //  5 . . . . . . . .     h6 h7 *: a real three along column h (h5 / h9 complete it)
    //    e f g h i j k l
    let pos = renju("g8 j8 h7 h6 i7 i6 i9 i10 i11", "");
    assert_eq!(pos.is_forbidden(pt("i8")), Some(ForbiddenKind::Overline));
    assert_eq!(pos.is_forbidden(pt("h8")), None);
    // Control: without i9-i11, i8 is a four plus a three (allowed), so the row three is
    // real and h8 is a double-three.
    let pos = renju("g8 j8 h7 h6 i7 i6 a5 c5 e5", "");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::DoubleThree));
}

#[test]
fn completing_point_forbidden_as_double_four() {
    // Nested through a double-four: only i8 turns the row g8 * _ j8 into a straight four,
    // but column i holds i5 i6 i7 over a white i4, so i8 would also make a four there: a
    // double-four. The row three is false and h8 is a single three (column h), allowed.
    //  9 . . . . . . .
    //  8 . X * _ X . .     g8 * _ j8 (only i8 makes a straight four)
    //  7 . . X X . . .     h7 i7
    //  6 . . X X . . .     h6 i6
    //  5 . . . X . . .     i5
    //  4 . . . O . . .     i4 white
    //    f g h i j k l
    let pos = renju("g8 j8 h7 h6 i7 i6 i5", "i4");
    assert_eq!(pos.is_forbidden(pt("h8")), None, "the row three is false");
    let mut with_h8 = pos.clone();
    assert!(with_h8.play_unchecked(pt("h8")));
    assert!(with_h8.play_unchecked(pt("o15")));
    assert_eq!(with_h8.is_forbidden(pt("i8")), Some(ForbiddenKind::DoubleFour));
}

#[test]
fn exact_five_wins_despite_a_double_four() {
    //  9 . . . . . . . .
    //  8 . X X X X * . .     d8 e8 f8 g8 *: exactly five
    //  7 . . . . X X . .     g7 h7
    //  6 . . . X . X . .     f6 h6
    //  5 . . X . . X . .     e5 h5: fours along column h and the diagonal e5 f6 g7 *
    //    c d e f g h i j
    let mut pos = renju("d8 e8 f8 g8 h7 h6 h5 e5 f6 g7", "");
    assert_eq!(pos.is_forbidden(pt("h8")), None);
    pos.play(pt("h8")).unwrap();
    let win = pos.winner().expect("black wins");
    assert_eq!(win.color, Color::Black);
    let mut line = win.line.clone();
    line.sort();
    let mut want = parse_moves("d8 e8 f8 g8 h8", 15).unwrap();
    want.sort();
    assert_eq!(line, want);
    // Control: without d8 the same move is a double-four (in fact three fours).
    let pos = renju("a5 e8 f8 g8 h7 h6 h5 e5 f6 g7", "");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::DoubleFour));
}

#[test]
fn exact_five_wins_despite_a_double_three_or_overline() {
    // Row: d8..g8 + * = five; column h: h6 h7 and diagonal f6 g7: two threes.
    let pos = renju("d8 e8 f8 g8 h7 h6 f6 g7", "");
    assert_eq!(pos.is_forbidden(pt("h8")), None);
    // Control: white on d8 turns the five into a four; four + two threes (4-3-3) is still
    // a double-three.
    let pos = renju("a5 e8 f8 g8 h7 h6 f6 g7", "d8");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::DoubleThree));
    // Row five plus a column overline h5 h6 h7 * h9 h10 h11: the five wins.
    let mut pos = renju("d8 e8 f8 g8 h5 h6 h7 h9 h10 h11", "");
    assert_eq!(pos.is_forbidden(pt("h8")), None);
    pos.play(pt("h8")).unwrap();
    assert_eq!(pos.winner().map(|w| w.line.len()), Some(5));
}

#[test]
fn forbidden_points_lists_every_point_row_by_row() {
    let pos = renju("f8 g8 h7 h6", "");
    let all = pos.forbidden_points();
    for (p, k) in &all {
        assert_eq!(pos.is_forbidden(*p), Some(*k));
    }
    let empty_checked: Vec<_> =
        pos.empty_points().into_iter().filter(|&p| pos.is_forbidden(p).is_some()).collect();
    assert_eq!(all.iter().map(|(p, _)| *p).collect::<Vec<_>>(), empty_checked);
    assert!(all.iter().any(|(p, _)| *p == pt("h8")));
    // White to move: still black's forbidden points.
    let mut w = pos.clone();
    assert!(w.play_unchecked(pt("o8")));
    assert_eq!(w.side_to_move(), Color::White);
    assert_eq!(w.forbidden_points(), all, "o8 is far from every shape");
    assert_eq!(w.is_legal(pt("h8")), Ok(()), "white may play black's forbidden point");
}

/// The eight symmetries of the 15x15 square, as maps of points.
fn symmetries() -> [fn(Point) -> Point; 8] {
    const M: u8 = 14;
    [
        |p| p,
        |p| Point::new(M - p.x, p.y),
        |p| Point::new(p.x, M - p.y),
        |p| Point::new(M - p.x, M - p.y),
        |p| Point::new(p.y, p.x),
        |p| Point::new(M - p.y, p.x),
        |p| Point::new(p.y, M - p.x),
        |p| Point::new(M - p.y, M - p.x),
    ]
}

/// `moves` (alternating, black first) mapped by `sym`, placed without rule checks.
fn mapped(moves: &str, sym: fn(Point) -> Point) -> Position {
    let mut pos = Position::new(15, Rule::Renju).unwrap();
    for p in parse_moves(moves, 15).unwrap() {
        assert!(pos.play_unchecked(sym(p)));
    }
    pos
}

#[test]
fn a_three_whose_straight_four_is_also_a_five_is_no_three() {
    // 12 . . O . . . . .     e12 white
    // 11 . . . . . . . .
    // 10 X X * . . . . .     c10 d10 *: an open three along row 10
    //  9 . . X . . . . .     e9
    //  8 . . X . . . . .     e8: e8 e9 * can become a straight four only at e7 (e11 gives
    //  7 . . _ X X X X .     a closed four against e12), and e7 also completes e7-i7: a
    //    c d e f g h i j     five. A move that makes five is a five, not a four, so the
    //                        column is no three and e10 is allowed (as in Rapfi).
    let game = "f7 e12 g7 a1 h7 a3 e8 a5 e9 o1 c10 o3 d10 o5 i7 o15";
    // The same stones without the row: e7 is a plain point, the column a real three.
    let control = "c10 e12 d10 a1 e8 a3 e9 a5 m13 o1 m11 o3 o13 o5 o11 o15";
    for (k, sym) in symmetries().into_iter().enumerate() {
        let e10 = sym(pt("e10"));
        let pos = mapped(game, sym);
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(pos.is_forbidden(e10), None, "symmetry {k}");
        assert!(pos.forbidden_points().iter().all(|(p, _)| *p != e10), "symmetry {k}");
        let mut played = pos.clone();
        assert_eq!(played.play(e10), Ok(()), "symmetry {k}: the app must accept e10");
        let pos = mapped(control, sym);
        assert_eq!(pos.is_forbidden(e10), Some(ForbiddenKind::DoubleThree), "control {k}");
    }
    // The game itself replays under Renju, and e10 is legal after it.
    let moves = parse_moves(game, 15).unwrap();
    let mut pos = Position::from_moves(15, Rule::Renju, &moves).unwrap();
    assert_eq!(pos.play(pt("e10")), Ok(()));
}

#[test]
fn a_five_elsewhere_does_not_make_the_nested_three_real() {
    // Nested: the row three g8 * _ j8 becomes a straight four only at i8. There i8 would
    // also complete i4..i7 + i8 = five down column i: i8 is a five, not a straight four,
    // so the row is no three and h8 (with the column three h6 h7 *) is allowed.
    //  8 . X * _ X .     g8 * _ j8
    //  7 . . X X . .     h7 i7
    //  6 . . X X . .     h6 i6
    //  5 . . . X . .     i5
    //  4 . . . X . .     i4
    //    f g h i j k
    let pos = renju("g8 j8 h7 h6 i7 i6 i5 i4", "");
    assert_eq!(pos.is_forbidden(pt("h8")), None);
    // Control: white on i4 turns i8 into a four (not a five) plus the straight four: a
    // double-four, still no three (see completing_point_forbidden_as_double_four); with
    // i4 and i5 both empty i8 is a straight four plus a three: the row three is real.
    let pos = renju("g8 j8 h7 h6 i7 i6 a5 c5", "");
    assert_eq!(pos.is_forbidden(pt("h8")), Some(ForbiddenKind::DoubleThree));
}

/// A full board but for h8 (the centre), black to move, no five anywhere: black's h8 would
/// make six in a row (e8–j8), so under Renju black has no point left.
const ONLY_H8_LEFT: [&str; 15] = [
    "WBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBW",
    "WWBWBBB.BBWBWWB",
    "BBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWB",
    "WBWWBBWWBBWWBBW",
];

/// The points of one colour in a 15-row diagram (the top row first).
fn stones(diagram: &[&str; 15], colour: char) -> Vec<Point> {
    let mut out = Vec::new();
    for (y, row) in diagram.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c == colour {
                out.push(Point::new(x as u8, y as u8));
            }
        }
    }
    out
}

fn only_h8_left(rule: Rule) -> Position {
    let (black, white) = (stones(&ONLY_H8_LEFT, 'B'), stones(&ONLY_H8_LEFT, 'W'));
    assert_eq!((black.len(), white.len()), (112, 112));
    let mut pos = Position::new(15, rule).unwrap();
    for (b, w) in black.into_iter().zip(white) {
        assert!(pos.play_unchecked(b) && pos.play_unchecked(w));
    }
    pos
}

#[test]
fn black_with_only_forbidden_points_left_ends_the_game_in_a_draw() {
    let pos = only_h8_left(Rule::Renju);
    let h8 = pt("h8");
    assert_eq!(pos.empty_points(), vec![h8]);
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.winner(), None);
    assert_eq!(pos.is_forbidden(h8), Some(ForbiddenKind::Overline));
    assert!(pos.no_legal_point());
    assert!(pos.is_over(), "black cannot move and there is no pass: the game is over");
    assert!(pos.legal_points().is_empty());
    assert_eq!(pos.clone().play(h8), Err(GomokuError::GameOver));

    // Control: the same stones under the other rules leave black h8 (six wins freestyle).
    for rule in [Rule::Freestyle, Rule::Standard] {
        let pos = only_h8_left(rule);
        assert!(!pos.no_legal_point() && !pos.is_over(), "{rule:?}");
        assert_eq!(pos.legal_points(), vec![h8]);
    }
    // Control: white to move (white's last stone taken back) has its points.
    let mut white_to_move = only_h8_left(Rule::Renju);
    assert!(white_to_move.undo().is_some());
    assert_eq!(white_to_move.side_to_move(), Color::White);
    assert!(!white_to_move.no_legal_point());
}

#[test]
fn a_game_where_black_has_only_forbidden_points_left_is_drawn_and_saved_so() {
    let kind = GameKind::Gomoku { rule: Rule::Renju, size: 15 };
    let config = GameConfig::new(kind, PlayerKind::Human, PlayerKind::Human);
    let setup = Setup {
        black: stones(&ONLY_H8_LEFT, 'B'),
        white: stones(&ONLY_H8_LEFT, 'W'),
        to_move: Color::Black,
    };
    let mut game = Game::from_setup(config, setup).unwrap();
    let result = game.result().cloned().expect("the game is over");
    assert_eq!((result.winner, result.reason), (None, EndReason::NoMoves));
    assert!(game.play(Move::Place(pt("h8")), 0).is_err());
    // The save keeps the draw, and reading it back rechecks it against the stones.
    let back = Game::from_json(&game.to_json()).unwrap();
    assert_eq!(back.result(), Some(&result));
}

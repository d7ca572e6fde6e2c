//! Gomoku positions: sizes, legality, wins under the three rules, undo/redo and hashing.

use proptest::prelude::*;
use tengen_engine::gomoku::notation::parse_moves;
use tengen_engine::gomoku::{GomokuError, Position, Rule, MAX_SIZE, MIN_SIZE};
use tengen_engine::{Color, Point};

fn pts(s: &str, size: u8) -> Vec<Point> {
    parse_moves(s, size).unwrap()
}

/// Plays black's and white's moves alternately (black first) with full rule checks.
fn play_alternately(size: u8, rule: Rule, black: &str, white: &str) -> Position {
    let (b, w) = (pts(black, size), pts(white, size));
    let mut pos = Position::new(size, rule).unwrap();
    for i in 0..b.len().max(w.len()) {
        if let Some(&p) = b.get(i) {
            pos.play(p).unwrap();
        }
        if let Some(&p) = w.get(i) {
            pos.play(p).unwrap();
        }
    }
    pos
}

fn sorted(mut v: Vec<Point>) -> Vec<Point> {
    v.sort();
    v
}

#[test]
fn sizes() {
    for size in [MIN_SIZE, 15, 19, MAX_SIZE] {
        let pos = Position::new(size, Rule::Freestyle).unwrap();
        assert_eq!(pos.size(), size);
        assert_eq!(pos.empty_points().len(), size as usize * size as usize);
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(pos.hash(), 0);
    }
    for bad in [0, 4, 27, 255] {
        assert_eq!(
            Position::new(bad, Rule::Renju).unwrap_err(),
            GomokuError::BadSize { size: bad }
        );
    }
}

#[test]
fn illegal_moves() {
    let mut pos = Position::new(15, Rule::Standard).unwrap();
    pos.play(Point::new(7, 7)).unwrap();
    assert_eq!(
        pos.play(Point::new(7, 7)),
        Err(GomokuError::Occupied { point: Point::new(7, 7), size: 15 })
    );
    assert_eq!(
        pos.play(Point::new(15, 0)),
        Err(GomokuError::OffBoard { point: Point::new(15, 0), size: 15 })
    );
    assert_eq!(pos.stone(Point::new(7, 7)), Some(Color::Black));
    assert_eq!(pos.stone(Point::new(40, 7)), None);
    assert_eq!(pos.side_to_move(), Color::White);
    let msg = pos.play(Point::new(7, 7)).unwrap_err().to_string();
    assert!(msg.contains("h8"), "{msg}");
}

#[test]
fn no_moves_after_a_win() {
    let mut pos = play_alternately(15, Rule::Freestyle, "a1 b1 c1 d1 e1", "a3 b3 c3 d3");
    assert!(pos.is_over());
    assert_eq!(pos.play(Point::new(7, 7)), Err(GomokuError::GameOver));
    assert!(pos.legal_points().is_empty());
    // Undo reopens the game.
    pos.undo();
    assert!(!pos.is_over());
    assert!(pos.is_legal(Point::new(7, 7)).is_ok());
}

#[test]
fn exact_five_and_overline_under_each_rule() {
    // Black: d8 e8 f8 g8 i8, then h8 makes six (d8..i8); or d8..g8 then h8: exactly five.
    // The other side plays far away (every other point of row 1 or 15), one move fewer.
    let six_black = "d8 e8 f8 g8 i8 h8";
    let white_far = "a1 c1 e1 g1 i1";
    let five_black = "d8 e8 f8 g8 h8";

    for rule in Rule::ALL {
        // Exactly five: black wins under every rule, with exactly those five cells.
        let pos = play_alternately(15, rule, five_black, "a1 c1 e1 g1");
        let win = pos.winner().unwrap_or_else(|| panic!("{rule}: five wins"));
        assert_eq!(win.color, Color::Black);
        assert_eq!(sorted(win.line), sorted(pts(five_black, 15)));
    }

    // Black's six.
    let pos = play_alternately(15, Rule::Freestyle, six_black, white_far);
    let win = pos.winner().expect("freestyle: six wins");
    assert_eq!(sorted(win.line), sorted(pts(six_black, 15)), "the whole run");
    let pos = play_alternately(15, Rule::Standard, six_black, white_far);
    assert_eq!(pos.winner(), None, "standard: six wins for nobody");
    assert!(!pos.is_over());
    let mut pos = play_alternately(15, Rule::Renju, "d8 e8 f8 g8 i8", white_far);
    assert!(matches!(pos.play(pts("h8", 15)[0]), Err(GomokuError::Forbidden { .. })));

    // White's six: black plays far away (every other point of row 15).
    let black_far = "a15 c15 e15 g15 i15 k15";
    for (rule, wins) in [(Rule::Freestyle, true), (Rule::Standard, false), (Rule::Renju, true)] {
        let pos = play_alternately(15, rule, black_far, six_black);
        assert_eq!(pos.side_to_move(), Color::Black);
        match pos.winner() {
            Some(w) => {
                assert!(wins, "{rule}: white's six must not win");
                assert_eq!(w.color, Color::White);
                assert_eq!(w.line.len(), 6);
            }
            None => assert!(!wins, "{rule}: white's six must win"),
        }
    }
}

#[test]
fn winning_lines_on_edges_diagonals_and_corners() {
    // (size, black's line in play order, white's moves)
    let cases: &[(u8, &str, &str)] = &[
        // 5x5: the whole bottom edge, the left edge, both long diagonals (corner to corner).
        (5, "a1 b1 c1 d1 e1", "a3 b3 c3 d3"),
        (5, "a1 a2 a3 a4 a5", "c1 c2 c3 c4"),
        (5, "a1 b2 c3 d4 e5", "b1 c1 d1 e1"),
        (5, "a5 b4 c3 d2 e1", "a1 b1 c1 d1"),
        // 15x15: top edge ending in the corner, right edge, diagonals into corners.
        (15, "k15 l15 m15 n15 o15", "a1 c1 e1 g1"),
        (15, "o1 o2 o3 o4 o5", "a1 c1 e1 g1"),
        (15, "a15 b14 c13 d12 e11", "h8 j8 l8 n8"),
        (15, "o1 n2 m3 l4 k5", "h8 j8 a8 c8"),
        // 19x19 and 26x26: far corners and edges.
        (19, "s19 r18 q17 p16 o15", "a1 c1 e1 g1"),
        (19, "a1 a2 a3 a4 a5", "s1 s3 s5 s7"),
        (26, "z26 y26 x26 w26 v26", "a1 c1 e1 g1"),
        (26, "a26 b25 c24 d23 e22", "z1 x1 v1 t1"),
        (26, "z1 y2 x3 w4 v5", "a1 c1 e1 g1"),
        // A gap filled last, in the middle of a diagonal.
        (19, "j10 k11 m13 n14 l12", "a1 c1 e1 g1"),
    ];
    for &(size, black, white) in cases {
        for rule in Rule::ALL {
            let mut pos = play_alternately(size, rule, black, white);
            let win = pos.winner().unwrap_or_else(|| panic!("{size} {rule} {black}"));
            assert_eq!(win.color, Color::Black);
            assert_eq!(sorted(win.line), sorted(pts(black, size)), "{size} {rule} {black}");
            assert!(pos.is_over());
            pos.undo();
            assert_eq!(pos.winner(), None, "four is not a win");
        }
    }
}

#[test]
fn white_wins_too() {
    let pos = play_alternately(15, Rule::Renju, "a1 c1 e1 g1 o15", "h4 h5 h6 h7 h8");
    assert_eq!(pos.winner().map(|w| w.color), Some(Color::White));
}

#[test]
fn full_board_is_a_draw() {
    // Colour of (x, y) = parity of x/2 + y: rows read A A B B A, columns alternate, and
    // no diagonal is single-coloured, so nobody ever makes five.
    let mut pos = Position::new(5, Rule::Freestyle).unwrap();
    let black: Vec<Point> =
        (0..25).map(|i| Point::from_index(i, 5)).filter(|p| (p.x / 2 + p.y) % 2 == 0).collect();
    let white: Vec<Point> =
        (0..25).map(|i| Point::from_index(i, 5)).filter(|p| (p.x / 2 + p.y) % 2 == 1).collect();
    assert_eq!((black.len(), white.len()), (13, 12));
    for i in 0..13 {
        pos.play(black[i]).unwrap();
        if i < 12 {
            pos.play(white[i]).unwrap();
        }
    }
    assert!(pos.is_full());
    assert_eq!(pos.winner(), None);
    assert!(pos.is_over());
    assert_eq!(pos.play(Point::new(0, 0)), Err(GomokuError::GameOver));
}

#[test]
fn hash_depends_on_stones_not_order() {
    let a = play_alternately(15, Rule::Freestyle, "h8 j10", "i9 k11");
    let b = play_alternately(15, Rule::Freestyle, "j10 h8", "k11 i9");
    let c = play_alternately(15, Rule::Freestyle, "h8 k11", "i9 j10");
    assert_eq!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash(), "same points, other colours");
}

#[test]
fn play_clears_redo() {
    let mut pos = play_alternately(15, Rule::Renju, "h8 j10", "i9");
    pos.undo();
    pos.undo();
    assert_eq!(pos.redo_stack().len(), 2);
    pos.play(Point::new(0, 0)).unwrap();
    assert!(pos.redo_stack().is_empty());
    assert_eq!(pos.redo(), None);
}

/// Plays a random game from `choices` (indices into the empty points), skipping refused
/// moves; returns the hash after each move, starting with the empty board's.
fn random_game(pos: &mut Position, choices: &[u16]) -> Vec<u64> {
    let mut hashes = vec![pos.hash()];
    for &c in choices {
        if pos.is_over() {
            break;
        }
        let empty = pos.empty_points();
        let p = empty[c as usize % empty.len()];
        if pos.play(p).is_ok() {
            hashes.push(pos.hash());
        }
    }
    hashes
}

fn rule_strategy() -> impl Strategy<Value = Rule> {
    prop_oneof![Just(Rule::Freestyle), Just(Rule::Standard), Just(Rule::Renju)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn undo_all_gives_back_the_empty_board(
        size in prop_oneof![Just(5u8), Just(9u8), Just(15u8), Just(19u8), Just(26u8)],
        rule in rule_strategy(),
        choices in proptest::collection::vec(any::<u16>(), 0..120),
    ) {
        let mut pos = Position::new(size, rule).unwrap();
        let empty_hash = pos.hash();
        let hashes = random_game(&mut pos, &choices);
        prop_assert_eq!(hashes.len(), pos.moves().len() + 1);
        let played = pos.moves().to_vec();
        // Undo step by step: each hash comes back.
        for k in (0..played.len()).rev() {
            prop_assert_eq!(pos.undo(), Some(played[k]));
            prop_assert_eq!(pos.hash(), hashes[k]);
            prop_assert_eq!(pos.stone(played[k]), None);
        }
        prop_assert_eq!(pos.undo(), None);
        prop_assert_eq!(pos.hash(), empty_hash);
        prop_assert!(pos.moves().is_empty());
        prop_assert_eq!(pos.empty_points().len(), size as usize * size as usize);
        prop_assert_eq!(pos.side_to_move(), Color::Black);
    }

    #[test]
    fn redo_replays_what_was_undone(
        rule in rule_strategy(),
        choices in proptest::collection::vec(any::<u16>(), 0..80),
        back in 0usize..90,
    ) {
        let mut pos = Position::new(15, rule).unwrap();
        let hashes = random_game(&mut pos, &choices);
        let played = pos.moves().to_vec();
        let winner = pos.winner();
        let back = back.min(played.len());
        let mut undone = Vec::new();
        for _ in 0..back {
            undone.push(pos.undo().unwrap());
        }
        for k in 0..back {
            let p = pos.redo();
            prop_assert_eq!(p, undone.get(back - 1 - k).copied());
            prop_assert_eq!(pos.hash(), hashes[played.len() - back + k + 1]);
        }
        prop_assert_eq!(pos.redo(), None);
        prop_assert_eq!(pos.moves(), &played[..]);
        prop_assert_eq!(pos.winner(), winner);
        for (i, &p) in played.iter().enumerate() {
            let c = if i % 2 == 0 { Color::Black } else { Color::White };
            prop_assert_eq!(pos.stone(p), Some(c));
        }
    }

    #[test]
    fn renju_never_lets_black_play_a_forbidden_point(
        choices in proptest::collection::vec(any::<u16>(), 0..150),
    ) {
        let mut pos = Position::new(15, Rule::Renju).unwrap();
        random_game(&mut pos, &choices);
        let forbidden = pos.forbidden_points();
        for (p, kind) in forbidden {
            prop_assert_eq!(pos.is_forbidden(p), Some(kind));
            if pos.side_to_move() == Color::Black && !pos.is_over() {
                prop_assert!(pos.is_legal(p).is_err());
                prop_assert!(!pos.legal_points().contains(&p));
            }
        }
    }
}

//! Tactics for the Master level, on real `gomoku::Position`s: wins in one, blocks, VCF and
//! VCT positions, Renju traps, cancellation, progress and legality.
//!
//! Positions are drawn as text, top row first: `x` black, `o` white. Forced lines found by
//! the engine are checked independently by playing them on the `Position` and by a small
//! brute-force five-point counter written here.

use std::time::{Duration, Instant};

use tengen_engine::ai::gomoku::master::Master;
use tengen_engine::ai::{CancelFlag, Engine, Limits, Score, SearchInfo, SearchResult};
use tengen_engine::gomoku::{Position, Rule};
use tengen_engine::{Color, Move, Point};

/// Builds a position from a picture (rows padded to `size`), black and white alternating.
/// `to_move` must agree with the stone counts (black moves when the counts are equal).
fn position(rows: &[&str], size: u8, rule: Rule) -> Position {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let p = Point::new(x as u8, y as u8);
            match ch {
                'x' => black.push(p),
                'o' => white.push(p),
                _ => {}
            }
        }
    }
    assert!(
        black.len() == white.len() || black.len() == white.len() + 1,
        "picture has {} black and {} white stones",
        black.len(),
        white.len()
    );
    let mut pos = Position::new(size, rule).unwrap();
    for (i, &b) in black.iter().enumerate() {
        assert!(pos.play_unchecked(b));
        if let Some(&w) = white.get(i) {
            assert!(pos.play_unchecked(w));
        }
    }
    pos
}

fn search(pos: &Position, limits: Limits) -> SearchResult {
    let mut engine = Master::new(7);
    engine.search(pos, &limits, &CancelFlag::new(), &mut |_| {})
}

fn point(r: &SearchResult) -> Point {
    match r.best {
        Move::Place(p) => p,
        Move::Pass => panic!("master passed"),
    }
}

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

/// Whether `color` playing the empty point `at` makes a winning five under `pos`'s rule
/// (counted directly on the stones; independent of the engine).
fn makes_five(pos: &Position, color: Color, at: Point) -> bool {
    if pos.stone(at).is_some() || !at.on_board(pos.size()) {
        return false;
    }
    let exact = match pos.rule() {
        Rule::Freestyle => false,
        Rule::Standard => true,
        Rule::Renju => color == Color::Black,
    };
    let size = pos.size() as i32;
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        let mut len = 1;
        for sign in [-1, 1] {
            let (mut x, mut y) = (at.x as i32 + sign * dx, at.y as i32 + sign * dy);
            while x >= 0
                && y >= 0
                && x < size
                && y < size
                && pos.stone(Point::new(x as u8, y as u8)) == Some(color)
            {
                len += 1;
                x += sign * dx;
                y += sign * dy;
            }
        }
        if len == 5 || (len > 5 && !exact) {
            return true;
        }
    }
    false
}

fn five_points(pos: &Position, color: Color) -> Vec<Point> {
    pos.empty_points().into_iter().filter(|&q| makes_five(pos, color, q)).collect()
}

/// Plays a forced line for the side to move (its moves and the defender's only blocks),
/// checking every attacking move is a four, every reply the only block, and that the line
/// ends in a five or an unstoppable five threat.
fn check_forced_line(pos: &Position, line: &[Move]) {
    let mut pos = pos.clone();
    let attacker = pos.side_to_move();
    for (n, mv) in line.iter().enumerate() {
        let q = mv.point().expect("a placed stone");
        if n % 2 == 1 {
            assert_eq!(five_points(&pos, attacker), vec![q], "reply {n} is not the only block");
        }
        pos.play(q).unwrap_or_else(|e| panic!("move {n} of the line is illegal: {e}"));
        if n % 2 == 0 && pos.winner().is_none() {
            assert!(!five_points(&pos, attacker).is_empty(), "attacking move {n} is not a four");
        }
    }
    if pos.winner().is_some() {
        assert_eq!(pos.winner().unwrap().color, attacker);
        return;
    }
    // The attacker has just moved: two five points, or one the defender may not take.
    let fives = five_points(&pos, attacker);
    let defender_fives = five_points(&pos, attacker.opponent());
    assert!(defender_fives.is_empty(), "the defender has a five");
    assert!(
        fives.len() >= 2 || (fives.len() == 1 && pos.is_legal(fives[0]).is_err()),
        "the line does not end in an unstoppable threat"
    );
}

const EMPTY15: &str = "...............";

fn rows(custom: &[&'static str]) -> Vec<&'static str> {
    let mut v = custom.to_vec();
    while v.len() < 15 {
        v.push(EMPTY15);
    }
    v
}

#[test]
fn win_in_one_in_several_shapes() {
    // (picture, winning points) with black to move.
    let cases: Vec<(Vec<&str>, Vec<Point>)> = vec![
        (rows(&["", "", "....xxxx", "", "..o.o.o.o"]), vec![p(3, 2), p(8, 2)]),
        (rows(&["", "", "...xx.xx", "", "..o.o.o.o"]), vec![p(5, 2)]),
        (rows(&["", "", "...x.xxx", "", "..o.o.o.o"]), vec![p(4, 2)]),
        (rows(&["", "..x", "...x", "....x", ".....x", "", "oooo"]), vec![p(1, 0), p(6, 5)]),
        (rows(&["", "", "......x", "......x", "", "......x", "......x", "o.o.o.o"]), vec![p(6, 4)]),
    ];
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for (pic, wins) in &cases {
            let mut pos = position(pic, 15, rule);
            if pos.side_to_move() != Color::Black {
                pos.play_unchecked(p(14, 14));
            }
            let r = search(&pos, Limits::time(1000));
            let q = point(&r);
            assert!(wins.contains(&q), "{rule:?}: played {q:?}, wins are {wins:?}");
            assert_eq!(r.info.score, Score::Win(1));
            pos.play(q).unwrap();
            assert_eq!(pos.winner().map(|w| w.color), Some(Color::Black));
        }
    }
}

#[test]
fn blocks_a_four() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        // White's four on the diagonal; black has nothing.
        let pos = position(
            &rows(&["", ".x", "..o", "...o", "....o", ".....o", "", "x.....x...x"]),
            15,
            rule,
        );
        assert_eq!(pos.side_to_move(), Color::Black);
        let r = search(&pos, Limits::time(1000));
        assert_eq!(point(&r), p(6, 6), "{rule:?}");
    }
}

#[test]
fn blocks_an_open_three_or_counters_with_a_four() {
    // White's open three on row 5; black has no four to play: black must stop it.
    let pos = position(
        &rows(&["", "", "", "", "", "....ooo", "", "..x.....x", "x"]),
        15,
        Rule::Freestyle,
    );
    let r = search(&pos, Limits::time(1000));
    let q = point(&r);
    assert!([p(3, 5), p(7, 5), p(2, 5), p(8, 5)].contains(&q), "played {q:?}");
    let mut after = pos.clone();
    after.play(q).unwrap();
    // After the block, no white move makes an open four (two five points).
    for w in after.empty_points() {
        let mut t = after.clone();
        t.play(w).unwrap();
        assert!(five_points(&t, Color::White).len() < 2, "white still gets an open four at {w:?}");
    }

    // Same three, but black has its own VCF: black plays fours instead of blocking.
    let pos = position(
        &rows(&[
            "", "", "", "", "", "....ooo", "", "", "", "", "oxxx", "....x", "....x", "....x",
            "...o",
        ]),
        15,
        Rule::Freestyle,
    );
    let r = search(&pos, Limits::time(1000));
    assert!(matches!(r.info.score, Score::Win(_)), "{:?}", r.info.score);
    check_forced_line(&pos, &r.info.pv);
}

/// VCF positions with black to move; each has a known winning line of fours.
const VCF_POSITIONS: [&[&str]; 3] = [
    // Four at (7,7) or (7,9), the block, then the other point makes a double four.
    &[
        "o.o",
        "",
        "",
        "",
        "",
        "",
        "",
        "...oxxx",
        ".....o",
        "...oxxx",
        ".......x",
        ".......x",
        ".......o",
        "",
        "o.............o",
    ],
    // A chain: (7,7) four / (8,7); (7,8) four / (7,6); (8,8) four plus open three / (6,8);
    // then an open four on the anti-diagonal.
    &[
        "o.o...........o",
        "",
        "",
        "",
        "",
        "",
        "",
        "...oxxx..x",
        ".........xxo",
        ".......x",
        ".......x",
        ".......o",
        "",
        "",
        "o.............o",
    ],
    // A four-three: (7,7) fours the row and opens the column three.
    &[
        "o.o",
        "",
        "o",
        "",
        "",
        ".......x",
        ".......x",
        "...oxxx",
        "",
        "",
        "",
        "",
        "",
        "",
        "..............o",
    ],
];

/// A VCF position, black to move (white's turn is spent in a far corner).
fn vcf_position(pic: &[&'static str]) -> Position {
    let mut pos = position(&rows(pic), 15, Rule::Freestyle);
    if pos.side_to_move() != Color::Black {
        pos.play_unchecked(p(0, 14));
    }
    pos
}

#[test]
fn solves_vcf_positions() {
    for (n, pic) in VCF_POSITIONS.iter().enumerate() {
        let pos = vcf_position(pic);
        let r = search(&pos, Limits::time(1000));
        assert!(matches!(r.info.score, Score::Win(_)), "position {n}: {:?}", r.info.score);
        assert_eq!(r.info.pv.first(), Some(&r.best));
        check_forced_line(&pos, &r.info.pv);
    }
}

#[test]
fn multi_pv_reports_a_proven_win_in_line_one_for_every_n() {
    for (k, pic) in VCF_POSITIONS.iter().enumerate() {
        let pos = vcf_position(pic);
        let limits = Limits::time(1000);
        let single = search(&pos, limits.clone());
        for n in 1..=3 {
            let mut engine = Master::new(7);
            let lines = engine.search_multi(&pos, &limits, n, &CancelFlag::new(), &mut |_| {});
            assert_eq!(lines.len(), n, "position {k}");
            let first = &lines[0];
            assert!(matches!(first.score, Score::Win(_)), "position {k}, n {n}: {first:?}");
            assert_eq!((first.mv, first.score), (single.best, single.info.score), "position {k}");
            assert_eq!(first.pv.first(), Some(&first.mv));
            check_forced_line(&pos, &first.pv);
            for (i, l) in lines.iter().enumerate() {
                let Move::Place(q) = l.mv else { panic!("pass") };
                assert!(pos.is_legal(q).is_ok());
                assert!(lines[..i].iter().all(|o| o.mv != l.mv), "repeated move in {lines:?}");
            }
        }
    }
}

#[test]
fn solves_a_vct_position() {
    // Two open twos crossing: black wins by threes (the 3-3 at (6,7), or another threat).
    let pos = position(
        &rows(&[
            "",
            "",
            "",
            "",
            "......x",
            "......x",
            "",
            "........xx",
            "..........o",
            "..o",
            "...o",
            "o",
        ]),
        15,
        Rule::Freestyle,
    );
    assert_eq!(pos.side_to_move(), Color::Black);
    let r = search(&pos, Limits::time(1000));
    assert!(matches!(r.info.score, Score::Win(_)), "{:?}", r.info.score);
    let q = point(&r);
    // The move is a threat: after it black has a five point or an open-four point.
    let mut after = pos.clone();
    after.play(q).unwrap();
    let threat = !five_points(&after, Color::Black).is_empty()
        || after.empty_points().into_iter().any(|b| {
            let mut u = after.clone();
            // Give white a neutral move far away, then try black's open four.
            u.play_unchecked(p(14, 14));
            u.play_unchecked(b) && five_points(&u, Color::Black).len() >= 2
        });
    assert!(threat, "{q:?} is not a threat");
}

#[test]
fn renju_black_never_plays_a_forbidden_point() {
    // Black has shapes around (4,5) and (5,2)/(5,6) that tempt forbidden moves; whatever it
    // plays must be legal and never one of the forbidden points.
    let pic = rows(&["", "", "", ".....x", ".....x", "..xx.x", ".....o", "", "o..o....o", "", "o"]);
    let renju = position(&pic, 15, Rule::Renju);
    let r = search(&renju, Limits::time(1000));
    let q = point(&r);
    assert!(renju.is_legal(q).is_ok(), "played forbidden {q:?}");
    for (f, _) in renju.forbidden_points() {
        assert_ne!(q, f);
    }
}

#[test]
fn renju_double_three_and_double_four_traps() {
    // Black to move: (7,7) is a 3-3 for black and would win in freestyle.
    let pic = rows(&[
        "", "", "", "", "", ".......x", ".......x", "", "......x", ".....x", "", "", "o.o.o", "",
        "o",
    ]);
    let free = position(&pic, 15, Rule::Freestyle);
    let r = search(&free, Limits::time(1000));
    assert!(matches!(r.info.score, Score::Win(_)), "freestyle: {:?}", r.info.score);
    let renju = position(&pic, 15, Rule::Renju);
    assert!(renju.is_forbidden(p(7, 7)).is_some());
    let r = search(&renju, Limits::time(1000));
    let q = point(&r);
    assert_ne!(q, p(7, 7));
    assert!(renju.is_legal(q).is_ok());

    // A 4-4 point for black at (7,7): two broken fours crossing.
    let pic = rows(&[
        "", "", "", ".......x", ".......x", ".......x", "", "...xxx", "", "", "", "o.o.o.o", "",
        "o.o",
    ]);
    let renju = position(&pic, 15, Rule::Renju);
    assert!(renju.is_forbidden(p(7, 7)).is_some(), "the picture has no 4-4 at (7,7)");
    let r = search(&renju, Limits::time(1000));
    assert_ne!(point(&r), p(7, 7));
    assert!(renju.is_legal(point(&r)).is_ok());
}

#[test]
fn renju_white_wins_with_a_four_whose_block_is_forbidden() {
    let pic = rows(&[
        "o.............o",
        "",
        "",
        "",
        "",
        ".......x",
        ".......x",
        "......x.ooo.x",
        "......x",
        ".....x",
    ]);
    let pos = position(&pic, 15, Rule::Renju);
    assert_eq!(pos.side_to_move(), Color::White);
    assert!(pos.is_forbidden(p(7, 7)).is_some());
    let r = search(&pos, Limits::time(1000));
    assert!(matches!(r.info.score, Score::Win(_)), "{:?}", r.info.score);
    let mut after = pos.clone();
    after.play(point(&r)).unwrap();
    let fives = five_points(&after, Color::White);
    assert!(
        fives.len() >= 2 || (fives.len() == 1 && after.is_legal(fives[0]).is_err()),
        "white's move {:?} does not win at once",
        point(&r)
    );
    // The same stones under standard rules: (11,7) is just a four that black blocks.
    let std = position(&pic, 15, Rule::Standard);
    let r = search(&std, Limits::time(1000));
    assert!(!matches!(r.info.score, Score::Win(1..=3)), "{:?}", r.info.score);
}

#[test]
fn opening_moves() {
    let pos = Position::new(15, Rule::Renju).unwrap();
    let r = search(&pos, Limits::time(1000));
    assert_eq!(point(&r), p(7, 7));
    let mut pos = pos;
    pos.play(p(7, 7)).unwrap();
    for seed in 0..8 {
        let mut engine = Master::new(seed);
        let r = engine.search(&pos, &Limits::time(1000), &CancelFlag::new(), &mut |_| {});
        let q = point(&r);
        assert!(q.x.abs_diff(7) <= 1 && q.y.abs_diff(7) <= 1 && q != p(7, 7), "{q:?}");
    }
    let pos = Position::new(19, Rule::Freestyle).unwrap();
    assert_eq!(point(&search(&pos, Limits::depth(3))), p(9, 9));
}

fn midgame(rule: Rule) -> Position {
    let moves = [
        p(7, 7),
        p(8, 8),
        p(8, 6),
        p(6, 8),
        p(7, 9),
        p(9, 7),
        p(6, 6),
        p(9, 9),
        p(10, 10),
        p(5, 7),
        p(7, 5),
        p(6, 4),
        p(9, 6),
        p(8, 5),
    ];
    let mut pos = Position::new(15, rule).unwrap();
    for m in moves {
        pos.play(m).unwrap();
    }
    pos
}

#[test]
fn cancel_returns_promptly_with_a_legal_move() {
    // An early position: far from any proven result, so only the flag can end the search.
    let mut pos = Position::new(15, Rule::Freestyle).unwrap();
    for m in [p(7, 7), p(7, 8), p(8, 7), p(6, 7), p(8, 8), p(8, 6)] {
        pos.play(m).unwrap();
    }
    let cancel = CancelFlag::new();
    let flag = cancel.clone();
    let handle = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        let at = Instant::now();
        flag.cancel();
        at
    });
    let start = Instant::now();
    let mut engine = Master::new(3);
    let r = engine.search(&pos, &Limits::time(20_000), &cancel, &mut |_| {});
    let done = Instant::now();
    let cancelled_at = handle.join().unwrap();
    assert!(pos.is_legal(point(&r)).is_ok());
    assert!(done.duration_since(start) < Duration::from_secs(1), "took {:?}", done - start);
    // It really searched until the flag went up (no instant answer in this position).
    assert!(r.info.nodes > 0);
    assert!(
        done >= cancelled_at || matches!(r.info.score, Score::Win(_) | Score::Loss(_)),
        "returned before the cancel without a proven result: {:?}",
        r.info
    );
}

#[test]
fn progress_is_reported() {
    let pos = midgame(Rule::Standard);
    let mut infos: Vec<SearchInfo> = Vec::new();
    let mut engine = Master::new(5);
    let r =
        engine.search(&pos, &Limits::time(400), &CancelFlag::new(), &mut |i| infos.push(i.clone()));
    assert!(!infos.is_empty());
    let last = infos.last().unwrap();
    assert!(last.depth >= 1 && last.nodes > 0 && !last.pv.is_empty());
    assert!(!r.info.candidates.is_empty() && r.info.candidates.len() <= 12);
    assert_eq!(r.info.pv.first(), Some(&r.best));
}

#[test]
fn fixed_depth_is_deterministic_and_nodes_limit_works() {
    let pos = midgame(Rule::Renju);
    let a = search(&pos, Limits::depth(6));
    let b = search(&pos, Limits::depth(6));
    assert_eq!(a.best, b.best);
    assert_eq!(a.info.nodes, b.info.nodes);
    assert!(a.info.depth >= 1);
    let n = search(&pos, Limits::nodes(3000));
    assert!(pos.is_legal(point(&n)).is_ok());
    assert!(n.info.nodes <= 2 * 3000, "{}", n.info.nodes);
}

#[test]
fn plays_legal_moves_through_whole_games() {
    for (rule, seed) in [(Rule::Renju, 1), (Rule::Standard, 2), (Rule::Freestyle, 3)] {
        let mut pos = Position::new(15, rule).unwrap();
        let mut black = Master::new(seed);
        let mut white = Master::new(seed + 100);
        for _ in 0..80 {
            if pos.is_over() {
                break;
            }
            let engine = if pos.side_to_move() == Color::Black { &mut black } else { &mut white };
            let r = engine.search(&pos, &Limits::nodes(4000), &CancelFlag::new(), &mut |_| {});
            let q = point(&r);
            pos.play(q).unwrap_or_else(|e| panic!("{rule:?}: illegal {q:?}: {e}"));
        }
    }
}

#[test]
fn smallest_and_largest_boards() {
    for size in [5u8, 26] {
        let mut pos = Position::new(size, Rule::Standard).unwrap();
        let mut engine = Master::new(11);
        for _ in 0..12 {
            if pos.is_over() {
                break;
            }
            let r = engine.search(&pos, &Limits::depth(4), &CancelFlag::new(), &mut |_| {});
            let q = point(&r);
            pos.play(q).unwrap_or_else(|e| panic!("size {size}: illegal {q:?}: {e}"));
        }
        assert!(pos.moves().len() >= 9);
    }
}

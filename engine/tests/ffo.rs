//! FFO endgame tests #40–#49 (`../shared/data/ffo40-49.txt`, beside the checkout): the
//! solver must find the published exact score and one of the published best moves.
//! #40–#44 run in the normal test suite; #45–#49 are `#[ignore]`d (run them with
//! `cargo test --release -p tengen-engine --test ffo -- --ignored`). Master's multi-PV
//! must give the exact margins of the best moves (#40; #43, with two best moves, ignored).

use std::path::PathBuf;

use tengen_engine::ai::reversi::endgame::Solver;
use tengen_engine::ai::reversi::new_engine;
use tengen_engine::ai::{Bound, CancelFlag, Limits, ReversiLevel, Score};
use tengen_engine::reversi::{format_square, parse_board, parse_square, Position};
use tengen_engine::{Move, Point};

/// One test position with its published answer.
struct Case {
    pos: Position,
    score: i32,
    best: Vec<Point>,
}

fn data_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/ffo40-49.txt")
}

/// The position `#id` of the shared file, with its `score=` and `best=` fields.
fn load(id: u32) -> Case {
    let path = data_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the FFO test data {} cannot be read ({e}); it lives in the shared folder beside \
             the checkout",
            path.display()
        )
    });
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (position, comment) = line.split_once(';').expect("a `;` comment with the answer");
        let field = |key: &str| {
            comment
                .split_whitespace()
                .find_map(|f| f.strip_prefix(key))
                .unwrap_or_else(|| panic!("no {key} in {line}"))
        };
        if field("id=").parse::<u32>().expect("numeric id") != id {
            continue;
        }
        let pos = parse_board(position).expect("a valid board");
        let score = field("score=").trim_start_matches('+').parse().expect("numeric score");
        let best = field("best=").split(',').map(|m| parse_square(m).expect("a square")).collect();
        return Case { pos, score, best };
    }
    panic!("FFO position #{id} is missing from {}", path.display());
}

fn check(id: u32) {
    let case = load(id);
    let mut solver = Solver::new();
    let start = std::time::Instant::now();
    let r = solver.solve(&case.pos, &CancelFlag::new()).expect("not cancelled");
    let best = r.best.expect("a move");
    eprintln!(
        "#{id}: best {} score {:+} nodes {} in {:.3}s",
        format_square(best),
        r.score,
        r.nodes,
        start.elapsed().as_secs_f64()
    );
    assert_eq!(r.score, case.score, "FFO #{id}: wrong score");
    assert!(
        case.best.contains(&best),
        "FFO #{id}: {} is not among the best moves {:?}",
        format_square(best),
        case.best.iter().map(|&p| format_square(p)).collect::<Vec<_>>()
    );
    assert_eq!(r.pv.first().and_then(|m| m.point()), Some(best));
}

/// Master's multi-PV on FFO `#id` with `n` lines: line 1 has the published score and one of
/// the published moves, every line's exact score is what the solver finds after its move,
/// and the published best moves (when `n` covers them) are the lines of the best score.
fn check_multi_pv(id: u32, n: usize) {
    let case = load(id);
    let mut master = new_engine(ReversiLevel::Master, 1);
    let lines =
        master.search_multi(&case.pos, &Limits::time(60_000), n, &CancelFlag::new(), &mut |_| {});
    assert_eq!(lines.len(), n, "FFO #{id}: {lines:?}");
    assert_eq!(lines[0].score, Score::Exact(case.score), "FFO #{id}");
    let mut solver = Solver::new();
    for (i, l) in lines.iter().enumerate() {
        let Move::Place(p) = l.mv else { panic!("FFO #{id}: a pass line") };
        assert_eq!(l.bound, Bound::Exact);
        assert!(lines[..i].iter().all(|o| o.mv != l.mv), "FFO #{id}: {p:?} twice");
        let mut after = case.pos;
        after.play(p).unwrap();
        let sign = if after.must_pass() {
            after.pass().unwrap();
            1
        } else {
            -1
        };
        let solved = solver.solve(&after, &CancelFlag::new()).expect("not cancelled").score;
        assert_eq!(
            l.score,
            Score::Exact(sign * solved),
            "FFO #{id}: line {i} {}",
            format_square(p)
        );
        let is_best = case.best.contains(&p);
        assert_eq!(is_best, sign * solved == case.score, "FFO #{id}: {}", format_square(p));
        if i < case.best.len() {
            assert!(is_best, "FFO #{id}: line {i} {} is not a best move", format_square(p));
        }
    }
}

#[test]
fn multi_pv_ffo_40() {
    check_multi_pv(40, 3);
}
#[test]
#[ignore = "slow: run with --ignored in release"]
fn multi_pv_ffo_43() {
    // Two moves share the best score.
    check_multi_pv(43, 3);
}

#[test]
fn ffo_40() {
    check(40);
}
#[test]
fn ffo_41() {
    check(41);
}
#[test]
fn ffo_42() {
    check(42);
}
#[test]
fn ffo_43() {
    check(43);
}
#[test]
fn ffo_44() {
    check(44);
}
#[test]
#[ignore = "slow: run with --ignored in release"]
fn ffo_45() {
    check(45);
}
#[test]
#[ignore = "slow: run with --ignored in release"]
fn ffo_46() {
    check(46);
}
#[test]
#[ignore = "slow: run with --ignored in release"]
fn ffo_47() {
    check(47);
}
#[test]
#[ignore = "slow: run with --ignored in release"]
fn ffo_48() {
    check(48);
}
#[test]
#[ignore = "slow: run with --ignored in release"]
fn ffo_49() {
    check(49);
}

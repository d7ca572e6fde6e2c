//! Multi-PV of both Master engines as the live analysis uses it: the same first line as
//! the single-PV search at a fixed depth, N distinct moves best first, a proven win read
//! as "wins in k", every Reversi move's value (exact once the search reaches the end), and
//! the analysis loop ([`analyse`]) that deepens until it is stopped or everything is proven.

use tengen_engine::ai::analysis::{analyse, Outlook};
use tengen_engine::ai::gomoku::master::Master as GomokuMaster;
use tengen_engine::ai::reversi::master::Master as ReversiMaster;
use tengen_engine::ai::{Bound, CancelFlag, Engine, Limits, PvLine, Score, SearchInfo};
use tengen_engine::gomoku::notation::parse_moves;
use tengen_engine::gomoku::{Position as GomokuPosition, Rule};
use tengen_engine::reversi::Position as ReversiPosition;
use tengen_engine::{Color, Move, Point};

fn gomoku(moves: &str) -> GomokuPosition {
    let moves = parse_moves(moves, 15).unwrap();
    GomokuPosition::from_moves(15, Rule::Freestyle, &moves).unwrap()
}

/// A score as one number for ordering: wins first (shortest first), losses last.
fn rank(score: Score) -> i64 {
    match score {
        Score::Win(n) => (1 << 40) - i64::from(n),
        Score::Loss(n) => -(1 << 40) + i64::from(n),
        Score::Eval(v) | Score::Exact(v) => i64::from(v),
    }
}

/// Distinct moves, best first, each line starting with its move.
fn check_order(lines: &[PvLine]) {
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l.pv.first(), Some(&l.mv), "line {i}: {l:?}");
        assert!(lines[..i].iter().all(|o| o.mv != l.mv), "repeated move in {lines:?}");
        if i > 0 {
            assert!(rank(lines[i - 1].score) >= rank(l.score), "out of order: {lines:?}");
        }
    }
}

const MIDGAMES: [&str; 3] = ["h8 i9 j8 h10", "h8 h9 i8 g8 j9 i7", "h8 i9 i8 j8 g8 f8 h7"];
/// More quiet middle games (no forced win for either side).
const MORE: [&str; 3] = ["h8 i7 g9 j6 g7", "h8 h9 g9 i7 g7 g8", "h8 i9 h10 g9 j9 i8 i10"];

#[test]
fn gomoku_line_one_is_the_single_pv_answer_and_the_lines_are_distinct_and_ordered() {
    let mut bounded = 0;
    for moves in MIDGAMES.iter().chain(&MORE) {
        for depth in [3, 4, 5] {
            let pos = gomoku(moves);
            let limits = Limits::depth(depth);
            let cancel = CancelFlag::new();
            let single = GomokuMaster::new(3).search(&pos, &limits, &cancel, &mut |_| {});
            let lines = GomokuMaster::new(3).search_multi(&pos, &limits, 4, &cancel, &mut |_| {});
            assert_eq!(lines.len(), 4, "{moves}");
            check_order(&lines);
            // Line 1 is the single search's move with its score, exact.
            assert_eq!(lines[0].mv, single.best, "{moves} at depth {depth}: {lines:?}");
            assert_eq!(lines[0].score, single.info.score, "{moves} at depth {depth}: {lines:?}");
            assert_eq!(lines[0].bound, Bound::Exact);
            for l in &lines {
                let Move::Place(p) = l.mv else { panic!("a pass in Gomoku") };
                assert!(pos.is_legal(p).is_ok());
                assert_eq!(l.depth, depth, "{moves}: {l:?}");
            }
            // A later line is exact, or (its move rated above line 1 by its own search) a
            // lower bound at line 1's score.
            for l in &lines[1..] {
                match l.bound {
                    Bound::Exact => assert!(rank(l.score) <= rank(lines[0].score)),
                    Bound::Lower => {
                        assert_eq!(l.score, lines[0].score, "{moves}: {lines:?}");
                        bounded += 1;
                    }
                    Bound::Upper => panic!("an upper bound in {lines:?}"),
                }
            }
        }
    }
    // The case that made line 1 and the single search differ before: still met (and
    // bounded) on these positions.
    assert!(bounded > 0, "no later line outscored line 1 on these positions");
}

#[test]
fn gomoku_progress_keeps_naming_the_best_move_during_the_later_lines() {
    let pos = gomoku(MIDGAMES[1]);
    let mut reports: Vec<SearchInfo> = Vec::new();
    let lines = GomokuMaster::new(1).search_multi(
        &pos,
        &Limits::nodes(400_000),
        5,
        &CancelFlag::new(),
        &mut |i| reports.push(i.clone()),
    );
    assert_eq!(lines.len(), 5);
    // The first search has a fifth of the nodes; the reports beyond that come from lines 2
    // to 5 and all name the first search's move (a line's move), with the nodes growing.
    let first_budget = 400_000 / 5 + 1_024;
    let later: Vec<&SearchInfo> = reports.iter().filter(|r| r.nodes > first_budget).collect();
    assert!(!later.is_empty(), "no report during the later lines");
    let named = later[0].pv.first().copied().expect("a best move");
    assert!(lines.iter().any(|l| l.mv == named));
    assert!(later.iter().all(|r| r.pv.first() == Some(&named)));
    assert!(later.windows(2).all(|w| w[0].nodes <= w[1].nodes));
}

#[test]
fn a_proven_gomoku_win_reads_as_wins_in_k() {
    // Black (to move) has an open three on row 8 and makes an open four: a win in 3 plies,
    // two black stones.
    let pos = gomoku("h8 a1 i8 a3 j8 a5");
    assert_eq!(pos.side_to_move(), Color::Black);
    let lines = GomokuMaster::new(1).search_multi(
        &pos,
        &Limits::depth(3),
        3,
        &CancelFlag::new(),
        &mut |_| {},
    );
    check_order(&lines);
    assert_eq!(lines[0].score, Score::Win(3), "{lines:?}");
    assert_eq!(
        Outlook::gomoku(lines[0].score, Color::Black),
        Outlook::Wins { winner: Color::Black, moves: 2 }
    );
    let g = tengen_engine::game::Position::Gomoku(pos.clone());
    assert_eq!(Outlook::of(&g, lines[0].score), Outlook::Wins { winner: Color::Black, moves: 2 });
}

/// Plays the first legal move, then the k-th, ... (passing when forced) from the start until
/// `empties` squares are left.
fn reversi_endgame(seed: usize, empties: u32) -> ReversiPosition {
    let mut pos = ReversiPosition::initial();
    let mut k = seed;
    while pos.empties() > empties && !pos.is_game_over() {
        if pos.must_pass() {
            pos.pass().unwrap();
            continue;
        }
        let legal = pos.legal_points();
        k = k.wrapping_mul(31).wrapping_add(7);
        pos.play(legal[k % legal.len()]).unwrap();
    }
    pos
}

/// The exact final disc difference for the side to move, by plain minimax (empty squares
/// go to the winner, as the rules count them).
fn minimax(pos: &ReversiPosition) -> i32 {
    if pos.is_game_over() {
        let me = pos.count(pos.side_to_move()) as i32;
        let them = pos.count(pos.side_to_move().opponent()) as i32;
        let d = me - them;
        return d + d.signum() * pos.empties() as i32;
    }
    if pos.must_pass() {
        let mut p = *pos;
        p.pass().unwrap();
        return -minimax(&p);
    }
    pos.legal_points()
        .into_iter()
        .map(|q| {
            let mut p = *pos;
            p.play(q).unwrap();
            -minimax(&p)
        })
        .max()
        .unwrap()
}

fn move_value(pos: &ReversiPosition, q: Point) -> i32 {
    let mut p = *pos;
    p.play(q).unwrap();
    -minimax(&p)
}

#[test]
fn reversi_every_move_gets_its_exact_value_once_the_search_reaches_the_end() {
    let mut tested = 0;
    for seed in 0..12 {
        let pos = reversi_endgame(seed, 9);
        if pos.is_game_over() || pos.must_pass() {
            continue;
        }
        let legal = pos.legal_points();
        let mut engine = ReversiMaster::new(1);
        let lines = engine.search_multi(
            &pos,
            &Limits::depth(60),
            legal.len(),
            &CancelFlag::new(),
            &mut |_| {},
        );
        check_order(&lines);
        assert_eq!(lines.len(), legal.len());
        for l in &lines {
            let Move::Place(q) = l.mv else { panic!("pass with legal moves") };
            assert_eq!(l.score, Score::Exact(move_value(&pos, q)), "{q:?} in {pos:?}");
            assert_eq!(
                Outlook::reversi(l.score, pos.side_to_move()),
                Outlook::Exact { discs: move_value(&pos, q) }
            );
        }
        tested += 1;
    }
    assert!(tested >= 6, "only {tested} positions");
}

#[test]
fn reversi_every_move_at_a_fixed_depth_is_each_moves_own_search() {
    // In the midgame, each move's value is the value of the position after it searched one
    // disc less deep (each move searched alone, with the full window).
    let pos = reversi_endgame(5, 40);
    let legal = pos.legal_points();
    let mut engine = ReversiMaster::new(1);
    let lines =
        engine.search_multi(&pos, &Limits::depth(3), legal.len(), &CancelFlag::new(), &mut |_| {});
    check_order(&lines);
    assert_eq!(lines.len(), legal.len());
    let best = engine.search(&pos, &Limits::depth(3), &CancelFlag::new(), &mut |_| {});
    assert_eq!((lines[0].mv, lines[0].score), (best.best, best.info.score));
    for l in &lines {
        let Move::Place(q) = l.mv else { unreachable!() };
        let mut after = pos;
        after.play(q).unwrap();
        assert!(!after.must_pass() && !after.is_game_over());
        let r = ReversiMaster::new(1).search(
            &after,
            &Limits::depth(2),
            &CancelFlag::new(),
            &mut |_| {},
        );
        let (Score::Eval(v), Score::Eval(w)) = (l.score, r.info.score) else { panic!() };
        assert_eq!(v, -w, "{q:?}");
    }
}

#[test]
fn reversi_line_one_is_the_single_pv_answer_at_a_fixed_depth() {
    // Midgame positions, each move's value (every move) and the N best by exclusion: line 1
    // is what a fresh single-PV search at the same depth plays, with its score.
    for seed in 0..6 {
        let pos = reversi_endgame(seed, 40);
        if pos.is_game_over() || pos.must_pass() {
            continue;
        }
        let legal = pos.legal_points().len();
        for depth in [2, 3, 4] {
            let limits = Limits::depth(depth);
            let single =
                ReversiMaster::new(1).search(&pos, &limits, &CancelFlag::new(), &mut |_| {});
            for n in [legal, 2.min(legal)] {
                let lines = ReversiMaster::new(1).search_multi(
                    &pos,
                    &limits,
                    n,
                    &CancelFlag::new(),
                    &mut |_| {},
                );
                check_order(&lines);
                assert_eq!(
                    (lines[0].mv, lines[0].score),
                    (single.best, single.info.score),
                    "seed {seed}, depth {depth}, {n} lines: {lines:?}"
                );
            }
        }
    }
}

#[test]
fn analysis_deepens_until_cancelled_or_proven() {
    // Reversi near the end: the lines deepen, then every line is exact and analysis ends
    // by itself.
    let pos = reversi_endgame(2, 8);
    assert!(!pos.is_game_over() && !pos.must_pass());
    let legal = pos.legal_points().len();
    let mut engine = ReversiMaster::new(1);
    let mut depths = Vec::new();
    let last = analyse(&mut engine, &pos, legal, &CancelFlag::new(), &mut |_| {}, &mut |ls| {
        depths.push(ls[0].depth)
    });
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    assert!(depths.len() >= 2, "{depths:?}");
    assert!(last.iter().all(|l| matches!(l.score, Score::Exact(_))), "{last:?}");
    assert_eq!(last.len(), legal);

    // Gomoku: a cancel from the lines callback stops it after that depth.
    let pos = gomoku(MIDGAMES[0]);
    let cancel = CancelFlag::new();
    let mut engine = GomokuMaster::new(1);
    let mut calls = 0;
    let last = analyse(&mut engine, &pos, 3, &cancel, &mut |_| {}, &mut |ls| {
        calls += 1;
        assert_eq!(ls.len(), 3);
        if ls[0].depth >= 3 {
            cancel.cancel();
        }
    });
    assert_eq!(calls, 3);
    assert_eq!(last[0].depth, 3);
    check_order(&last);
}

//! The Reversi levels: legal moves, passes exactly when forced, seeded determinism,
//! obvious corners, cancellation.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use tengen_engine::ai::reversi::new_engine;
use tengen_engine::ai::{
    Bound, CancelFlag, Engine, Limits, PvLine, ReversiLevel, Score, SearchInfo, SearchResult,
};
use tengen_engine::reversi::Position;
use tengen_engine::rng::Rng;
use tengen_engine::{Color, Move, Point};

/// Quick limits for a level, so the tests run fast.
fn quick(level: ReversiLevel) -> Limits {
    match level {
        ReversiLevel::Greedy | ReversiLevel::Classic => Limits::default(),
        ReversiLevel::Strong => Limits::depth(3),
        ReversiLevel::Master => Limits::time(60),
    }
}

fn ask(engine: &mut dyn Engine<Position>, pos: &Position, limits: &Limits) -> SearchResult {
    let cancel = CancelFlag::new();
    engine.search(pos, limits, &cancel, &mut |_: &SearchInfo| {})
}

/// Plays `plies` random moves (passing when forced) from the start.
fn random_position(seed: u64, plies: usize) -> Position {
    let mut rng = Rng::new(seed);
    let mut pos = Position::initial();
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        if pos.must_pass() {
            pos.pass().unwrap();
            continue;
        }
        let moves = pos.legal_points();
        let p = *rng.choose(&moves).unwrap();
        pos.play(p).unwrap();
    }
    pos
}

/// Checks that `mv` is what the rules allow in `pos`: a pass exactly when forced, else a
/// legal move.
fn check_move(pos: &Position, mv: Move, level: ReversiLevel) {
    match mv {
        Move::Pass => assert!(pos.must_pass(), "{level:?} passed with legal moves in {pos:?}"),
        Move::Place(p) => {
            assert!(pos.is_legal(p), "{level:?} played illegal {p:?} in {pos:?}");
        }
    }
}

/// A position from 64 squares of `-XO`, a1 to h8. Board strings refuse positions no game
/// reaches; these are made up to test one idea each, so they are built directly.
fn made_up(squares: &str, side: Color) -> Position {
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in squares.chars().enumerate() {
        match c {
            'X' => black |= 1 << i,
            'O' => white |= 1 << i,
            _ => {}
        }
    }
    Position::from_bitboards(black, white, side).unwrap()
}

#[test]
fn every_level_passes_exactly_when_it_must() {
    // White to move has no move (black a1, white b1... only black can play c1).
    let must_pass = made_up(&format!("XO{}", "-".repeat(62)), Color::White);
    assert!(must_pass.must_pass());
    for level in ReversiLevel::ALL {
        let mut e = new_engine(level, 1);
        let r = ask(e.as_mut(), &must_pass, &quick(level));
        assert_eq!(r.best, Move::Pass, "{level:?}");
        let r = ask(e.as_mut(), &Position::initial(), &quick(level));
        check_move(&Position::initial(), r.best, level);
        assert_ne!(r.best, Move::Pass);
    }
}

/// Plays a whole game between two levels; checks every move; returns the moves.
fn play_game(a: ReversiLevel, b: ReversiLevel, seed: u64, opening: usize) -> Vec<Move> {
    let mut pos = random_position(seed, opening);
    let mut engines = [new_engine(a, seed), new_engine(b, seed + 1)];
    let mut moves = Vec::new();
    let mut turn = 0;
    while !pos.is_game_over() {
        let level = if turn == 0 { a } else { b };
        let r = ask(engines[turn].as_mut(), &pos, &quick(level));
        check_move(&pos, r.best, level);
        match r.best {
            Move::Pass => pos.pass().unwrap(),
            Move::Place(p) => {
                pos.play(p).unwrap();
            }
        }
        moves.push(r.best);
        turn = 1 - turn;
    }
    moves
}

#[test]
fn whole_games_are_legal_and_seeded_games_repeat() {
    let g1 = play_game(ReversiLevel::Greedy, ReversiLevel::Classic, 7, 4);
    let g2 = play_game(ReversiLevel::Greedy, ReversiLevel::Classic, 7, 4);
    assert_eq!(g1, g2, "same seeds, same game");
    let g3 = play_game(ReversiLevel::Strong, ReversiLevel::Greedy, 3, 2);
    assert_eq!(g3, play_game(ReversiLevel::Strong, ReversiLevel::Greedy, 3, 2));
}

#[test]
fn different_seeds_vary_among_equal_moves() {
    // From the start all four moves are equivalent by symmetry: different seeds must not
    // all pick the same one.
    for level in [ReversiLevel::Greedy, ReversiLevel::Classic, ReversiLevel::Strong] {
        let picks: std::collections::HashSet<String> = (0..12)
            .map(|s| {
                let mut e = new_engine(level, s);
                format!("{:?}", ask(e.as_mut(), &Position::initial(), &quick(level)).best)
            })
            .collect();
        assert!(picks.len() > 1, "{level:?} always plays {picks:?}");
    }
}

#[test]
fn greedy_and_classic_take_a_free_corner() {
    // Black can take a1, flipping the whole top edge; everything else is ordinary.
    let rows = [
        "-OOOOOOX", "--------", "--------", "---OX---", "---XO---", "--------", "--------",
        "--------",
    ];
    let pos = made_up(&rows.concat(), Color::Black);
    assert!(pos.is_legal(Point::new(0, 0)));
    assert!(pos.legal_points().len() > 3);
    for level in [ReversiLevel::Greedy, ReversiLevel::Classic] {
        let mut e = new_engine(level, 5);
        let r = ask(e.as_mut(), &pos, &quick(level));
        assert_eq!(r.best, Move::Place(Point::new(0, 0)), "{level:?}");
        // Hints: every legal move has a candidate.
        if level <= ReversiLevel::Classic {
            assert_eq!(r.info.candidates.len(), pos.legal_points().len());
        }
    }
}

/// Runs `search` with a flag raised 150 ms after it starts; its answer and time.
fn cancelled_after_150_ms<T>(search: impl FnOnce(&CancelFlag) -> T) -> (T, Duration) {
    let cancel = CancelFlag::new();
    let c2 = cancel.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        c2.cancel();
    });
    let start = Instant::now();
    let answer = search(&cancel);
    let took = start.elapsed();
    t.join().unwrap();
    (answer, took)
}

#[test]
fn cancel_returns_promptly_with_a_legal_move() {
    let pos = random_position(11, 20);
    for level in [ReversiLevel::Strong, ReversiLevel::Master] {
        let mut e = new_engine(level, 1);
        let (r, took) = cancelled_after_150_ms(|cancel| {
            e.search(&pos, &Limits::time(60_000), cancel, &mut |_: &SearchInfo| {})
        });
        check_move(&pos, r.best, level);
        assert!(took < Duration::from_millis(1500), "{level:?} took {took:?} after cancel");
    }
}

#[test]
fn progress_is_reported_during_long_searches() {
    let pos = random_position(12, 16);
    let mut e = new_engine(ReversiLevel::Strong, 1);
    let cancel = CancelFlag::new();
    let mut reports = 0;
    let r = e.search(&pos, &Limits::time(400), &cancel, &mut |_: &SearchInfo| reports += 1);
    check_move(&pos, r.best, ReversiLevel::Strong);
    assert!(reports >= 3, "only {reports} progress reports in 400 ms");
    assert!(r.info.depth >= 4 && !r.info.candidates.is_empty() && r.info.nodes > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn levels_never_play_illegal_moves(seed in 0u64..1_000_000, plies in 0usize..64) {
        let pos = random_position(seed, plies);
        prop_assume!(!pos.is_game_over());
        for level in ReversiLevel::ALL {
            let mut e = new_engine(level, seed);
            let r = ask(e.as_mut(), &pos, &quick(level));
            check_move(&pos, r.best, level);
            prop_assert_eq!(r.best == Move::Pass, pos.must_pass());
        }
    }
}

/// The exact value of `pos` for its side to move (empties to the winner).
fn exact(solver: &mut tengen_engine::ai::reversi::endgame::Solver, pos: &Position) -> i32 {
    let cancel = CancelFlag::new();
    solver.solve_bits(pos.player(), pos.opponent(), -64, 64, &cancel).unwrap().score
}

/// The exact value of playing `p` in `pos`, for the side to move in `pos`.
fn exact_after(
    solver: &mut tengen_engine::ai::reversi::endgame::Solver,
    pos: &Position,
    p: Point,
) -> i32 {
    let mut after = *pos;
    after.play(p).unwrap();
    if after.is_game_over() {
        let d = after.player().count_ones() as i32 - after.opponent().count_ones() as i32;
        let e = after.empties() as i32;
        -(d + d.signum() * e)
    } else if after.must_pass() {
        let mut again = after;
        again.pass().unwrap();
        exact(solver, &again)
    } else {
        -exact(solver, &after)
    }
}

/// Positions with at most 14 empties and a move to play, from random games (seeds
/// `seed * 7 + offset`), with their seed.
fn small_endgames(offset: u64) -> impl Iterator<Item = (u64, Position)> {
    (0..40u64)
        .map(move |seed| (seed, random_position(seed * 7 + offset, 46 + (seed % 5) as usize)))
        .filter(|(_, pos)| !pos.is_game_over() && !pos.must_pass() && pos.empties() <= 14)
}

#[test]
fn master_plays_a_perfect_move_in_the_endgame() {
    let mut solver = tengen_engine::ai::reversi::endgame::Solver::with_tt_bits(18);
    let mut tested = 0;
    for (seed, pos) in small_endgames(1) {
        let best = exact(&mut solver, &pos);
        let mut e = new_engine(ReversiLevel::Master, seed);
        let r = ask(e.as_mut(), &pos, &Limits::time(5_000));
        let Move::Place(p) = r.best else { panic!("master passed with moves") };
        let value = exact_after(&mut solver, &pos, p);
        assert_eq!(value, best, "master's move {p:?} in {pos:?}");
        tested += 1;
    }
    assert!(tested >= 10, "only {tested} positions tested");
}

#[test]
fn depth_and_node_limits_are_honoured() {
    let pos = random_position(21, 20);
    for level in ReversiLevel::ALL {
        let mut e = new_engine(level, 1);
        let r = ask(e.as_mut(), &pos, &Limits::depth(3));
        check_move(&pos, r.best, level);
        assert!((1..=3).contains(&r.info.depth), "{level:?} depth {}", r.info.depth);
        let mut e = new_engine(level, 1);
        let r = ask(e.as_mut(), &pos, &Limits::nodes(3_000));
        check_move(&pos, r.best, level);
        assert!(r.info.nodes <= 3_000 + 1_024, "{level:?} visited {} nodes", r.info.nodes);
    }
}

fn multi(level: ReversiLevel, seed: u64, pos: &Position, limits: &Limits, n: usize) -> Vec<PvLine> {
    let mut e = new_engine(level, seed);
    e.search_multi(pos, limits, n, &CancelFlag::new(), &mut |_: &SearchInfo| {})
}

/// A score as one number, larger is better (evaluations and exact margins are never mixed
/// in one list).
fn value(score: Score) -> i32 {
    match score {
        Score::Eval(v) | Score::Exact(v) => v,
        other => panic!("reversi score {other:?}"),
    }
}

/// The lines are distinct legal moves, best first, each an exact score whose line starts
/// with its move and replays legally (passes are left out of lines).
fn check_lines(pos: &Position, lines: &[PvLine]) {
    assert!(!lines.is_empty());
    for (i, l) in lines.iter().enumerate() {
        let Move::Place(p) = l.mv else { panic!("pass line with legal moves") };
        assert!(pos.is_legal(p), "line {i}: illegal {p:?}");
        assert!(lines[..i].iter().all(|o| o.mv != l.mv), "line {i} repeats {p:?}");
        assert_eq!(l.bound, Bound::Exact);
        assert_eq!(l.pv.first(), Some(&l.mv));
        if i > 0 {
            assert!(value(lines[i - 1].score) >= value(l.score), "lines out of order: {lines:?}");
        }
        let mut replay = *pos;
        for m in &l.pv {
            if replay.must_pass() {
                replay.pass().unwrap();
            }
            let Move::Place(q) = m else { panic!("pass in a line") };
            replay.play(*q).unwrap_or_else(|e| panic!("line {i}: {q:?} illegal ({e:?})"));
        }
    }
}

#[test]
fn multi_pv_line_one_is_the_single_pv_answer_and_every_line_is_exact() {
    let depth = 4;
    let mut tested = 0;
    for seed in 0..8u64 {
        let pos = random_position(seed * 13 + 5, 8 + 5 * seed as usize);
        if pos.is_game_over() || pos.must_pass() {
            continue;
        }
        for level in [ReversiLevel::Strong, ReversiLevel::Master] {
            let limits = Limits::depth(depth);
            // The plain search's single answer: Master's own single search is selective
            // (ProbCut) and its multi-PV is not, so both levels' lines are the strong level's.
            let single = ask(new_engine(ReversiLevel::Strong, seed).as_mut(), &pos, &limits);
            let lines = multi(level, seed, &pos, &limits, 3);
            check_lines(&pos, &lines);
            assert_eq!(lines.len(), pos.legal_points().len().min(3));
            assert_eq!(lines[0].score, single.info.score, "{level:?} in {pos:?}");
            if lines[0].mv != single.best {
                // Equal values: the single search's move is another line of the same
                // score, or every listed line ties.
                let same = lines.iter().find(|l| l.mv == single.best);
                let tie = same.map_or(lines.last().unwrap().score, |l| l.score);
                assert_eq!(tie, lines[0].score, "{level:?}: {:?} vs {lines:?}", single.best);
            }
            // Each line's score is the move's own value: minus the value of the position
            // after it, searched one disc less deep (a forced pass costs no depth).
            for l in &lines {
                assert_eq!(l.depth, depth);
                let Move::Place(p) = l.mv else { unreachable!() };
                let mut after = pos;
                after.play(p).unwrap();
                let sign = if after.must_pass() && !after.is_game_over() {
                    after.pass().unwrap();
                    1
                } else {
                    -1
                };
                assert!(!after.is_game_over(), "midgame positions only");
                let r = ask(
                    new_engine(ReversiLevel::Strong, 1).as_mut(),
                    &after,
                    &Limits::depth(depth - 1),
                );
                assert_eq!(
                    value(l.score),
                    sign * value(r.info.score),
                    "{level:?} {p:?} in {pos:?}"
                );
            }
            tested += 1;
        }
    }
    assert!(tested >= 10, "only {tested} positions tested");
}

#[test]
fn multi_pv_lists_every_move_when_asked_for_more() {
    for seed in [3u64, 4, 5] {
        let pos = random_position(seed, 30);
        if pos.is_game_over() || pos.must_pass() {
            continue;
        }
        let legal = pos.legal_points();
        for level in [ReversiLevel::Strong, ReversiLevel::Master] {
            let lines = multi(level, seed, &pos, &Limits::depth(3), legal.len() + 3);
            check_lines(&pos, &lines);
            assert_eq!(lines.len(), legal.len());
            assert!(legal.iter().all(|&p| lines.iter().any(|l| l.mv == Move::Place(p))));
        }
    }
    // A forced pass is the one line.
    let pos = (0..2000u64)
        .flat_map(|seed| (40..60).map(move |plies| random_position(seed, plies)))
        .find(|p| p.must_pass())
        .expect("a position with a forced pass");
    for level in [ReversiLevel::Strong, ReversiLevel::Master] {
        let lines = multi(level, 1, &pos, &Limits::depth(3), 3);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].mv, Move::Pass);
    }
}

#[test]
fn multi_pv_endgame_gives_the_exact_margins_of_the_n_best_moves() {
    let mut solver = tengen_engine::ai::reversi::endgame::Solver::with_tt_bits(18);
    let mut tested = 0;
    for (seed, pos) in small_endgames(3) {
        let n = 3;
        let lines = multi(ReversiLevel::Master, seed, &pos, &Limits::time(10_000), n);
        check_lines(&pos, &lines);
        let legal = pos.legal_points();
        assert_eq!(lines.len(), legal.len().min(n));
        assert_eq!(lines[0].score, Score::Exact(exact(&mut solver, &pos)), "{pos:?}");
        for l in &lines {
            let Move::Place(p) = l.mv else { unreachable!() };
            assert_eq!(
                l.score,
                Score::Exact(exact_after(&mut solver, &pos, p)),
                "{p:?} in {pos:?}"
            );
            assert_eq!(l.depth, pos.empties());
        }
        // No move left out is better than the last line.
        let last = value(lines.last().unwrap().score);
        for p in legal {
            if lines.iter().all(|l| l.mv != Move::Place(p)) {
                assert!(exact_after(&mut solver, &pos, p) <= last, "{p:?} left out in {pos:?}");
            }
        }
        tested += 1;
    }
    assert!(tested >= 10, "only {tested} positions tested");
}

/// Master's lines at every depth are in order (its play uses ProbCut, its multi-PV must
/// not: separate selective root searches can rank line 2 above line 1).
#[test]
fn master_multi_pv_lines_are_in_order_at_every_depth() {
    for plies in [20, 30] {
        let pos = random_position(11, plies);
        let mut e = new_engine(ReversiLevel::Master, 1);
        for depth in 1..=8 {
            let cancel = CancelFlag::new();
            let lines =
                e.search_multi(&pos, &Limits::depth(depth), 5, &cancel, &mut |_: &SearchInfo| {});
            check_lines(&pos, &lines);
        }
    }
}

#[test]
fn multi_pv_stops_when_cancelled() {
    // A midgame position, and one the exact solver takes on.
    for plies in [20, 40] {
        let pos = random_position(11, plies);
        assert!(!pos.is_game_over() && !pos.must_pass());
        let mut e = new_engine(ReversiLevel::Master, 1);
        let (lines, took) = cancelled_after_150_ms(|cancel| {
            e.search_multi(&pos, &Limits::time(60_000), 5, cancel, &mut |_: &SearchInfo| {})
        });
        assert!(took < Duration::from_millis(1500), "took {took:?} after cancel ({plies} plies)");
        check_lines(&pos, &lines);
    }
}

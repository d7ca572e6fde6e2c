//! The Reversi levels: legal moves, passes exactly when forced, seeded determinism,
//! obvious corners, cancellation.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use tengen_engine::ai::reversi::new_engine;
use tengen_engine::ai::{CancelFlag, Engine, Limits, ReversiLevel, SearchInfo, SearchResult};
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

#[test]
fn cancel_returns_promptly_with_a_legal_move() {
    let pos = random_position(11, 20);
    for level in [ReversiLevel::Strong, ReversiLevel::Master] {
        let mut e = new_engine(level, 1);
        let cancel = CancelFlag::new();
        let c2 = cancel.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(150));
            c2.cancel();
        });
        let start = Instant::now();
        let r = e.search(&pos, &Limits::time(60_000), &cancel, &mut |_: &SearchInfo| {});
        let took = start.elapsed();
        t.join().unwrap();
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

#[test]
fn master_plays_a_perfect_move_in_the_endgame() {
    let mut solver = tengen_engine::ai::reversi::endgame::Solver::with_tt_bits(18);
    let mut tested = 0;
    for seed in 0..40u64 {
        let pos = random_position(seed * 7 + 1, 46 + (seed % 5) as usize);
        if pos.is_game_over() || pos.must_pass() || pos.empties() > 14 {
            continue;
        }
        let best = exact(&mut solver, &pos);
        let mut e = new_engine(ReversiLevel::Master, seed);
        let r = ask(e.as_mut(), &pos, &Limits::time(5_000));
        let Move::Place(p) = r.best else { panic!("master passed with moves") };
        let mut after = pos;
        after.play(p).unwrap();
        let value = if after.is_game_over() {
            let d = after.player().count_ones() as i32 - after.opponent().count_ones() as i32;
            let e = after.empties() as i32;
            -(d + d.signum() * e)
        } else if after.must_pass() {
            let mut again = after;
            again.pass().unwrap();
            exact(&mut solver, &again)
        } else {
            -exact(&mut solver, &after)
        };
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

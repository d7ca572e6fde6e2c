//! The time a game review takes at the default budget (`ai::review::DEFAULT_REVIEW_TIME`
//! per position, `default_threads()` threads, as the app runs it): a 60-move Reversi game
//! (Strong at depth 4 against itself) and a 60-stone Gomoku game (seeded scattered stones
//! around the centre that make no five). Prints the wall time and the verdicts.
//!
//! `cargo run --release -p tengen-engine --example review_time [reversi|gomoku]`

use std::time::Instant;

use tengen_engine::ai::control::default_threads;
use tengen_engine::ai::review::{review, Verdict, DEFAULT_REVIEW_TIME};
use tengen_engine::ai::{AnyEngine, CancelFlag, GomokuLevel, Level, Limits, ReversiLevel};
use tengen_engine::game::Position;
use tengen_engine::gomoku::Rule;
use tengen_engine::rng::Rng;
use tengen_engine::{Move, Point};

fn reversi_game() -> (Position, Vec<Move>) {
    let start = Position::Reversi(tengen_engine::reversi::Position::initial());
    let mut engine = AnyEngine::new(Level::Reversi(ReversiLevel::Strong), 7);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    while !pos.is_over() {
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            engine.search(&pos, &Limits::depth(4), &CancelFlag::new(), &mut |_| {}).unwrap().best
        };
        pos.play(mv).unwrap();
        moves.push(mv);
    }
    (start, moves)
}

fn gomoku_game() -> (Position, Vec<Move>) {
    let start =
        Position::Gomoku(tengen_engine::gomoku::Position::new(15, Rule::Freestyle).unwrap());
    let mut rng = Rng::new(21);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    while moves.len() < 60 {
        let p = Point::new(3 + rng.below(9) as u8, 3 + rng.below(9) as u8);
        let mut next = pos.clone();
        if next.play(Move::Place(p)).is_ok() && !next.is_over() {
            pos = next;
            moves.push(Move::Place(p));
        }
    }
    (start, moves)
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "reversi".into());
    let (start, moves, level) = match which.as_str() {
        "gomoku" => {
            let (s, m) = gomoku_game();
            (s, m, Level::Gomoku(GomokuLevel::Master))
        }
        _ => {
            let (s, m) = reversi_game();
            (s, m, Level::Reversi(ReversiLevel::Master))
        }
    };
    let mut engine = AnyEngine::new(level, 1);
    engine.set_threads(default_threads());
    let limits = Limits { time: Some(DEFAULT_REVIEW_TIME), ..Limits::default() };
    let t = Instant::now();
    let r = review(&mut engine, &start, &moves, &limits, &CancelFlag::new(), &mut |_, _| {})
        .expect("the review runs");
    let wall = t.elapsed();
    let count = |v| r.plies.iter().filter(|p| p.verdict == v).count();
    let exact = r.plies.iter().filter(|p| p.lost.is_some()).count();
    println!(
        "{which}: {} plies reviewed in {:.1} s ({} threads, {} ms per position); good {}, inaccuracies {}, mistakes {}, blunders {}; exact {}",
        r.plies.len(),
        wall.as_secs_f64(),
        default_threads(),
        DEFAULT_REVIEW_TIME.as_millis(),
        count(Verdict::Good),
        count(Verdict::Inaccuracy),
        count(Verdict::Mistake),
        count(Verdict::Blunder),
        exact
    );
}

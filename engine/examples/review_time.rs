//! The time a game review takes at the default budget (`ai::review::DEFAULT_REVIEW_TIME`
//! per position, `default_threads()` threads, as the app runs it): a 60-move Reversi game
//! (Strong at depth 4 against itself) and a 60-stone Gomoku game played by programs (Master
//! against the forcing lookahead at a fixed depth, see `gomoku_played`). Prints the game, the
//! wall time and the verdicts.
//!
//! `cargo run --release -p tengen-engine --example review_time [reversi|gomoku]`

use std::time::Instant;

use tengen_engine::ai::control::default_threads;
use tengen_engine::ai::review::{review, Verdict, DEFAULT_REVIEW_TIME};
use tengen_engine::ai::{AnyEngine, CancelFlag, GomokuLevel, Level, Limits, ReversiLevel};
use tengen_engine::game::Position;
use tengen_engine::gomoku::Rule;
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

/// The search depth of each side in the played Gomoku game.
const GOMOKU_DEPTH: u32 = 4;
/// The number of stones in the Gomoku game reviewed.
const GOMOKU_STONES: usize = 60;
/// The last seed [`gomoku_game`] tries (seed 61 was the first to reach 60 stones with main
/// 16d89c0; a stronger Master ends more of these games early).
const GOMOKU_SEEDS: u64 = 256;

/// One Gomoku game as programs play it: Master (depth [`GOMOKU_DEPTH`], engine seed `seed`)
/// as Black against the forcing lookahead (seed article 004, same depth and seed) as White,
/// from h8; `None` when it ends before [`GOMOKU_STONES`] stones. Deterministic: fixed depths,
/// one thread, fixed seeds.
fn gomoku_played(seed: u64) -> Option<Vec<Move>> {
    let mut pos =
        Position::Gomoku(tengen_engine::gomoku::Position::new(15, Rule::Freestyle).unwrap());
    let mut black = AnyEngine::new(Level::Gomoku(GomokuLevel::Master), seed);
    let mut white = AnyEngine::new(Level::Gomoku(GomokuLevel::Lookahead), seed);
    let mut moves = vec![Move::Place(Point::new(7, 7))];
    pos.play(moves[0]).unwrap();
    while moves.len() < GOMOKU_STONES {
        let engine = if moves.len() % 2 == 0 { &mut black } else { &mut white };
        let limits = Limits::depth(GOMOKU_DEPTH);
        let mv = engine.search(&pos, &limits, &CancelFlag::new(), &mut |_| {}).ok()?.best;
        pos.play(mv).ok()?;
        moves.push(mv);
        if pos.is_over() {
            return None;
        }
    }
    Some(moves)
}

/// The first game of [`gomoku_played`] (seeds 1 to [`GOMOKU_SEEDS`]) that runs to 60 stones,
/// with its seed.
fn gomoku_game() -> (Position, Vec<Move>, u64) {
    let start =
        Position::Gomoku(tengen_engine::gomoku::Position::new(15, Rule::Freestyle).unwrap());
    for seed in 1..=GOMOKU_SEEDS {
        if let Some(moves) = gomoku_played(seed) {
            return (start, moves, seed);
        }
    }
    eprintln!("no game of seeds 1 to {GOMOKU_SEEDS} ran to {GOMOKU_STONES} stones");
    std::process::exit(1);
}

/// The line in the game's notation (`h8 i9 ...`), to show which game was reviewed.
fn record(start: &Position, moves: &[Move]) -> String {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for &mv in moves {
        out.push(pos.move_label(mv));
        pos.play(mv).unwrap();
    }
    out.join(" ")
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "reversi".into());
    let (start, moves, level) = match which.as_str() {
        "gomoku" => {
            let (s, m, seed) = gomoku_game();
            println!("gomoku: Master against Lookahead at depth {GOMOKU_DEPTH}, seed {seed}");
            (s, m, Level::Gomoku(GomokuLevel::Master))
        }
        _ => {
            let (s, m) = reversi_game();
            (s, m, Level::Reversi(ReversiLevel::Master))
        }
    };
    println!("{}", record(&start, &moves));
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

//! The player's time per move reaches every level ([`limits_for`]): the levels that follow
//! the clock search for about that long and no longer, the others stop at their own depth
//! whatever the time. Timing bounds are generous (a loaded machine only makes searches
//! slower, never faster); the node counts carry the proof.

use std::time::{Duration, Instant};

use tengen_engine::ai::{limits_for, AnyEngine, CancelFlag, Level, Limits, SearchInfo};
use tengen_engine::game::Position;
use tengen_engine::gomoku::{self, notation, Rule};
use tengen_engine::reversi;
use tengen_engine::rng::Rng;

const SHORT_MS: u64 = 300;
const LONG_MS: u64 = 1500;

/// A quiet Gomoku opening: no forcing win for either side, so every level has to think.
fn gomoku_opening() -> Position {
    let moves = notation::parse_moves("h8 i9 j8 h10", 15).unwrap();
    Position::Gomoku(gomoku::Position::from_moves(15, Rule::Freestyle, &moves).unwrap())
}

/// A Reversi middle game with 40 empties (20 seeded random moves from the start).
fn reversi_midgame() -> Position {
    let mut rng = Rng::new(3);
    let mut pos = reversi::Position::initial();
    for _ in 0..20 {
        let moves = pos.legal_points();
        pos.play(*rng.choose(&moves).unwrap()).unwrap();
    }
    Position::Reversi(pos)
}

/// What one search with the limits of a time per move took.
struct Thought {
    elapsed: Duration,
    nodes: u64,
}

fn think(level: Level, ms: u64) -> Thought {
    think_with(level, &limits_for(level, Duration::from_millis(ms)))
}

fn think_with(level: Level, limits: &Limits) -> Thought {
    let pos = match level {
        Level::Gomoku(_) => gomoku_opening(),
        Level::Reversi(_) => reversi_midgame(),
    };
    let mut engine = AnyEngine::new(level, 7);
    let start = Instant::now();
    let r = engine.search(&pos, limits, &CancelFlag::new(), &mut |_: &SearchInfo| {}).unwrap();
    Thought { elapsed: start.elapsed(), nodes: r.info.nodes }
}

#[test]
fn every_level_that_follows_the_clock_thinks_as_long_as_the_player_chose() {
    let levels: Vec<Level> = Level::all().filter(|l| l.follows_clock()).collect();
    assert_eq!(levels.len(), 3);
    for level in levels {
        let short = think(level, SHORT_MS);
        let long = think(level, LONG_MS);
        // Stops near the short time: its hard deadline less the margin, plus the time to
        // notice it and answer (generous for a loaded machine).
        assert!(
            short.elapsed < Duration::from_millis(SHORT_MS + 400),
            "{level}: {:?} for {SHORT_MS} ms",
            short.elapsed
        );
        // Uses the long time: no new iteration starts after 40-45% of it, so it thinks at
        // least about that long when the position keeps it busy.
        assert!(
            long.elapsed > Duration::from_millis(LONG_MS * 35 / 100),
            "{level}: only {:?} of {LONG_MS} ms",
            long.elapsed
        );
        assert!(
            long.nodes > short.nodes * 3 / 2,
            "{level}: {} nodes in {LONG_MS} ms, {} in {SHORT_MS} ms",
            long.nodes,
            short.nodes
        );
    }
}

#[test]
fn the_other_levels_are_bounded_by_their_own_depth() {
    let levels: Vec<Level> = Level::all().filter(|l| !l.follows_clock()).collect();
    assert_eq!(levels.len(), 6);
    // Two times far above what these searches need, so that a loaded machine cannot reach
    // the cap: the same search whatever the time (same seed, same nodes), done well within
    // the shorter time.
    const CAP_MS: u64 = 5_000;
    for level in levels {
        let short = think(level, CAP_MS);
        let long = think(level, 6 * CAP_MS);
        assert_eq!(short.nodes, long.nodes, "{level}");
        assert!(short.nodes > 0, "{level}");
        assert!(short.elapsed < Duration::from_millis(CAP_MS), "{level}: {:?}", short.elapsed);
    }
}

/// With only the game's time left (a Gomocup match clock), the search control spends a
/// twelfth of it, for every level that follows the clock.
#[test]
fn the_clock_levels_spend_a_share_of_the_time_left() {
    let limits = Limits { time_left: Some(Duration::from_millis(2400)), ..Limits::default() };
    for level in Level::all().filter(|l| l.follows_clock()) {
        let t = think_with(level, &limits);
        // 200 ms, where the default second applied before.
        assert!(t.elapsed < Duration::from_millis(600), "{level}: {:?}", t.elapsed);
        assert!(t.nodes > 0, "{level}");
    }
}

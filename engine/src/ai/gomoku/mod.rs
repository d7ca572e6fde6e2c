//! Gomoku levels, weakest first: the classic levels of the seed articles (five-tuple,
//! win-array, nine-cell patterns, the forcing-move lookahead: [`classic`]), and Master. The
//! forcing reading that the classic levels borrow is the service in [`threat`]; [`common`]
//! holds the flat board and the rule helpers both use.

pub mod classic;
pub mod common;
pub mod master;
pub mod threat;

use super::{Engine, GomokuLevel};
use crate::gomoku::Position;

pub use classic::{FiveTuple, Lookahead, Pattern, WinArray};

/// A fresh engine for `level`; `seed` fixes its random choices among equal moves.
pub fn new_engine(level: GomokuLevel, seed: u64) -> Box<dyn Engine<Position>> {
    match level {
        GomokuLevel::FiveTuple => Box::new(FiveTuple::new(seed)),
        GomokuLevel::WinArray => Box::new(WinArray::new(seed)),
        GomokuLevel::Pattern => Box::new(Pattern::new(seed)),
        GomokuLevel::Lookahead => Box::new(Lookahead::new(seed)),
        GomokuLevel::Master => Box::new(master::Master::new(seed)),
    }
}

#[cfg(test)]
mod tests {
    use super::common::test_util::position;
    use super::*;
    use crate::ai::control::limits_for;
    use crate::ai::{CancelFlag, Level, Limits, Score};
    use crate::gomoku::notation::parse_point;
    use crate::gomoku::{ForbiddenKind, Rule};
    use crate::Move;
    use std::time::{Duration, Instant};

    const CLASSIC: [GomokuLevel; 4] = [
        GomokuLevel::FiveTuple,
        GomokuLevel::WinArray,
        GomokuLevel::Pattern,
        GomokuLevel::Lookahead,
    ];

    #[test]
    fn no_level_plays_a_forbidden_point() {
        // Black to move: h8 would make two open threes (f8 g8 h8 and h8 h9 h10), the most
        // attractive point for every scorer, and forbidden under Renju.
        let pos = position(15, Rule::Renju, "f8 a1 g8 a3 h9 a5 h10 o15");
        let h8 = parse_point("h8", 15).unwrap();
        assert_eq!(pos.is_forbidden(h8), Some(ForbiddenKind::DoubleThree));
        let free = position(15, Rule::Freestyle, "f8 a1 g8 a3 h9 a5 h10 o15");
        for level in CLASSIC {
            let mut wants_h8 = false;
            for seed in 0..4 {
                let limits = Limits::time(100);
                let r =
                    new_engine(level, seed).search(&pos, &limits, &CancelFlag::new(), &mut |_| {});
                let Move::Place(p) = r.best else { panic!("{level:?} passed") };
                assert!(pos.is_legal(p).is_ok(), "{level:?} played {p:?}");
                assert!(r.info.candidates.iter().all(|c| c.mv != Move::Place(h8)));
                let f =
                    new_engine(level, seed).search(&free, &limits, &CancelFlag::new(), &mut |_| {});
                wants_h8 |= f.best == Move::Place(h8);
            }
            // The test is only meaningful if the point is attractive without the rule.
            if level != GomokuLevel::WinArray {
                assert!(wants_h8, "{level:?} does not even want h8 in freestyle");
            }
        }
    }

    #[test]
    fn every_level_plays_legal_moves_on_big_and_small_boards() {
        for (size, moves) in [(19u8, "j10 k11 k10 j11 l10"), (9, "e5 d4 e4"), (15, "")] {
            for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
                let pos = position(size, rule, moves);
                for level in CLASSIC {
                    let r = new_engine(level, 3).search(
                        &pos,
                        &Limits::time(100),
                        &CancelFlag::new(),
                        &mut |_| {},
                    );
                    let Move::Place(p) = r.best else { panic!("{level:?} passed") };
                    assert!(pos.is_legal(p).is_ok(), "{level:?} {size} {rule:?}: {p:?}");
                }
            }
        }
    }

    /// A quiet position (from an arena game, lookahead vs pattern): neither side has a
    /// forcing win, so a level that follows the clock uses its time on quiet moves.
    const QUIET: &str = "h8 f8 i11 g9 d6 f9 e9 f10 f7 f12 f11 g11 g10 i9 h10 h9 j9";

    /// The player's time reaches every classic level that follows the clock (the lookahead
    /// plays out quiet moves until 80% of it): a move of 150 ms and one of 600 ms each stop
    /// near their time.
    #[test]
    fn the_players_time_reaches_the_levels_that_follow_the_clock() {
        let pos = position(15, Rule::Freestyle, QUIET);
        let timed: Vec<GomokuLevel> =
            CLASSIC.into_iter().filter(|&l| Level::Gomoku(l).follows_clock()).collect();
        assert_eq!(timed, [GomokuLevel::Lookahead]);
        for level in timed {
            for (ms, at_least, at_most) in [(150, 100, 450), (600, 450, 1000)] {
                let clock = Instant::now();
                let limits = limits_for(Level::Gomoku(level), Duration::from_millis(ms));
                let r = new_engine(level, 7).search(&pos, &limits, &CancelFlag::new(), &mut |_| {});
                let took = clock.elapsed().as_millis();
                assert!((at_least..=at_most).contains(&took), "{level:?}, {ms} ms: {took} ms");
                assert!(matches!(r.info.score, Score::Eval(_)), "quiet: {:?}", r.info.score);
            }
        }
    }

    /// With only the game's time left (a Gomocup match clock), a classic level that follows
    /// the clock spends the search control's share of it (a twelfth: 200 ms of 2.4 s), not
    /// the default second.
    #[test]
    fn the_levels_that_follow_the_clock_spend_a_share_of_the_time_left() {
        let pos = position(15, Rule::Freestyle, QUIET);
        let limits = Limits { time_left: Some(Duration::from_millis(2_400)), ..Limits::default() };
        for level in CLASSIC.into_iter().filter(|&l| Level::Gomoku(l).follows_clock()) {
            let clock = Instant::now();
            new_engine(level, 7).search(&pos, &limits, &CancelFlag::new(), &mut |_| {});
            let took = clock.elapsed().as_millis();
            assert!((120..=600).contains(&took), "{level:?}: {took} ms");
        }
    }

    /// Levels 1–3 do not follow the clock: their effort is their own, whatever time the
    /// player gives, and small (the release figures are in `tengen bench --game gomoku`).
    #[test]
    fn the_levels_that_do_not_follow_the_clock_ignore_it() {
        let pos = position(15, Rule::Freestyle, QUIET);
        for level in CLASSIC.into_iter().filter(|&l| !Level::Gomoku(l).follows_clock()) {
            let run = |ms: u64| {
                let limits = limits_for(Level::Gomoku(level), Duration::from_millis(ms));
                new_engine(level, 5).search(&pos, &limits, &CancelFlag::new(), &mut |_| {})
            };
            let clock = Instant::now();
            let long = run(3_000);
            assert!(clock.elapsed().as_millis() < 1_000, "{level:?}: {:?}", clock.elapsed());
            assert_eq!(long.best, run(50).best, "{level:?}: the same move whatever the time");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// Random games: every classic level answers with a legal move (never a forbidden
        /// point under Renju), and the same seed gives the same move.
        #[test]
        fn random_positions_get_legal_moves(
            picks in proptest::collection::vec(0usize..10_000, 0..40),
            rule in proptest::sample::select(vec![Rule::Freestyle, Rule::Standard, Rule::Renju]),
            size in proptest::sample::select(vec![9u8, 15, 19]),
            seed in 0u64..1000,
        ) {
            let mut pos = crate::gomoku::Position::new(size, rule).unwrap();
            for pick in picks {
                let legal = pos.legal_points();
                if legal.is_empty() {
                    break;
                }
                pos.play(legal[pick % legal.len()]).unwrap();
                if pos.is_over() {
                    pos.undo();
                    break;
                }
            }
            for level in CLASSIC {
                let limits = Limits::nodes(2_000);
                let a = new_engine(level, seed).search(&pos, &limits, &CancelFlag::new(), &mut |_| {});
                let Move::Place(p) = a.best else { panic!("{level:?} passed") };
                proptest::prop_assert!(pos.is_legal(p).is_ok(), "{:?} played {:?}", level, p);
                let b = new_engine(level, seed).search(&pos, &limits, &CancelFlag::new(), &mut |_| {});
                proptest::prop_assert_eq!(a.best, b.best);
            }
        }
    }
}

//! Level 3: the nine-cell pattern scorer (seed article 002; the scorer is in
//! [`ninecell`](super::ninecell)).
//!
//! The computer opens at the centre (天元), always takes a five and blocks the opponent's five,
//! and otherwise plays the best point of the scorer.
//!
//! The article's scorer thinks one move ahead ("AI只能思考一步棋…后续还有很大的优化空间"), and
//! the ladder needs this level clearly above the win-array one, so two small steps follow
//! the scores: a short reading of both sides' forcing moves on a 2,000-node budget (see
//! [`threat::read_briefly`]), which plays a forcing win or stops the opponent's with the
//! best-scored point that holds; and, when neither side has one, two rounds of 20-move
//! playouts of this scorer from its 12 best points (see [`playout::monte_carlo`]). Neither
//! reads the clock, so the level stays reproducible for a seed.

use super::driver::{Choice, Classic, Driver, Turn};
use super::ninecell::{choice_keys, key_score};
use super::playout;
use crate::ai::gomoku::common::Grid;
use crate::ai::gomoku::threat::{self, Defence, Reading};
use crate::level::GomokuLevel;
use crate::{Color, Point};

/// Nodes of the short forcing reading (see [`threat::read_briefly`]).
const READ_NODES: u64 = 2_000;
/// How many of the best points are tried as defences against a forcing attack.
const DEFENCE_CANDIDATES: usize = 8;
/// How many of the best points the playouts compare.
const PLAYOUT_CANDIDATES: usize = 12;
/// The playouts that compare them (see `playout::Settings`).
const PLAYOUTS: playout::Settings = playout::Settings { plies: 20, keep_percent: 30, spread: 2 };
/// Rounds of playouts (each plays every candidate once).
const PLAYOUT_ROUNDS: u32 = 2;

/// The pattern scorer engine.
pub type Pattern = Driver<PatternLevel>;

/// The pattern level: the nine-cell scorer's choice keys, then a short reading of both
/// sides' forcing moves, then playouts.
#[derive(Debug, Default)]
pub struct PatternLevel;

impl Classic for PatternLevel {
    /// "AI先下,首子天元": the first stone goes on the centre.
    const OPENS_AT_CENTRE: bool = true;
    const PLAYS_FORCED: bool = true;
    const LEVEL: GomokuLevel = GomokuLevel::Pattern;

    fn keys(&mut self, grid: &Grid, me: Color) -> Vec<(Point, i64)> {
        choice_keys(grid, me)
    }

    /// The heat map shows the deciding score (the larger of attack and defence).
    fn shown(&self, key: i64) -> i64 {
        key_score(key)
    }

    fn choose(&mut self, turn: &mut Turn) -> Choice {
        let mut best = turn.pick_best();
        // The article's scorer thinks one move ahead ("AI只能思考一步棋"): a short reading of
        // both sides' forcing moves finds the wins and the defences it cannot see, and when
        // there are none, short playouts of the scorer itself compare its best points.
        let ranked = turn.best_points(DEFENCE_CANDIDATES);
        match threat::read_briefly(turn.pos, &ranked, Defence::RankedFirst, READ_NODES) {
            Reading::Win(p, _) | Reading::Defend(p) => best = Some(p),
            Reading::Quiet => {
                let tally = turn.playouts(best, PLAYOUT_CANDIDATES, PLAYOUTS, &mut |t, _| {
                    t.rounds >= PLAYOUT_ROUNDS
                });
                best = tally.best().or(best);
            }
            // No defence holds: the scorer's own choice is as good as any.
            Reading::Lost(..) => {}
        }
        Choice::play(best)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ninecell::*;
    use super::*;
    use crate::ai::gomoku::common::{code, sort_scored, test_util::position};
    use crate::ai::{CancelFlag, Engine, Limits};
    use crate::gomoku::{notation::parse_point, Rule};

    fn best(moves: &str, seed: u64) -> Point {
        let pos = position(15, Rule::Freestyle, moves);
        let r =
            Pattern::new(seed).search(&pos, &Limits::default(), &CancelFlag::new(), &mut |_| {});
        r.best.point().unwrap()
    }

    #[test]
    fn opens_at_the_centre() {
        assert_eq!(best("", 4), Point::new(7, 7));
    }

    #[test]
    fn takes_a_win_and_blocks_a_loss() {
        assert_eq!(best("h8 a1 i8 b1 j8 c1 k8 d1 a15", 1), parse_point("e1", 15).unwrap());
        let p = best("h8 a1 i8 a3 j8 a5 k8", 1);
        assert!(p == parse_point("g8", 15).unwrap() || p == parse_point("l8", 15).unwrap());
        // Black to move with white's four on column a: black must block a5 even with its
        // own open three.
        let p = best("h8 a1 i8 a2 j8 a3 n14 a4", 1);
        assert_eq!(p, parse_point("a5", 15).unwrap());
    }

    #[test]
    fn a_decisive_shape_of_its_own_comes_before_a_defence() {
        // Black to move: its open three h8 i8 j8 and white's open three c3 c4 c5. Blocking
        // white (c2/c6) and making black's open four (g8/k8) both score 1,000,000; the open
        // four wins first.
        let pos = position(15, Rule::Freestyle, "h8 c3 i8 c4 j8 c5");
        let grid = Grid::from_position(&pos);
        let k8 = parse_point("k8", 15).unwrap();
        let c6 = parse_point("c6", 15).unwrap();
        let (attack, decisive) = evaluate_detail(&grid, k8, Color::Black);
        assert!(decisive);
        let defence = evaluate(&grid, c6, Color::White);
        assert!(attack >= 1_000_000 && defence >= 1_000_000, "{attack} {defence}");
        for seed in 0..6 {
            let p = best("h8 c3 i8 c4 j8 c5", seed);
            assert!([parse_point("g8", 15).unwrap(), k8].contains(&p), "{p:?}");
        }
        // Black's k8 makes a four (g8 is white) and an open three (k9 k10) at once; it
        // scores below blocking white's open three, but wins first.
        let moves = "h8 g8 i8 c3 j8 c4 k9 c5 k10 o15";
        let pos = position(15, Rule::Freestyle, moves);
        let grid = Grid::from_position(&pos);
        let (attack, decisive) = evaluate_detail(&grid, k8, Color::Black);
        assert!(decisive);
        assert!(attack < evaluate(&grid, c6, Color::White), "{attack}");
        for seed in 0..6 {
            assert_eq!(best(moves, seed), k8);
        }
    }

    #[test]
    fn two_fives_apart_on_one_line_are_an_open_four() {
        // X_XXX_X: the article's strings see only the 冲四 "10111"; both gaps complete a five.
        assert_eq!(five_points_in("210111010"), 2);
        assert_eq!(score_string("210111010").score, 1_000_000);
        assert_eq!(score_string("11011011").score, 1_000_000);
        assert_eq!(score_string("111010111").score, 1_000_000);
        // One gap only: still the article's 冲四, and its open three where it says so.
        assert_eq!(five_points_in("211110000"), 1);
        assert_eq!(score_string("211110000").score, 8_000);
        assert_eq!(score_string("000111010").score, 10_000);
        assert_eq!(score_string("001111000").fives, 2);
        assert_eq!(score_string("000111000").fives, 0);
        // On the board: c8 e8 f8 i8 black; g8 makes c8 _ e8 f8 g8 _ i8 (fives at d8 and h8).
        let pos = position(15, Rule::Freestyle, "c8 a1 e8 a3 f8 a5 i8 a7");
        let grid = Grid::from_position(&pos);
        let g8 = parse_point("g8", 15).unwrap();
        let (score, decisive) = evaluate_detail(&grid, g8, Color::Black);
        assert!(decisive && score >= 1_000_000, "{score}");
        // The table keeps the count: the same string read through the cache.
        let line = lookup(key(&grid, g8, (1, 0), code(Color::Black)));
        assert_eq!((line.score, line.fives), (1_000_000, 2));
    }

    #[test]
    fn two_fours_in_two_directions_are_decisive_and_blocked() {
        // Black's k8 makes h8-k8 (g8 white) and k8-k11 (k12 white): two 冲四, fives at l8
        // and k7. The article's multipliers leave it at 8,000 + 8,000.
        let moves = "h8 g8 i8 k12 j8 a1 k9 a3 k10 a5 k11";
        let pos = position(15, Rule::Freestyle, moves);
        let grid = Grid::from_position(&pos);
        let k8 = parse_point("k8", 15).unwrap();
        let (score, decisive) = evaluate_detail(&grid, k8, Color::Black);
        assert!(decisive && score >= 1_000_000, "{score}");
        // One four alone is not decisive.
        let l8 = parse_point("l8", 15).unwrap();
        assert!(!evaluate_detail(&grid, l8, Color::Black).1);
        // White to move blocks the double four at its point.
        for seed in 0..6 {
            assert_eq!(best(moves, seed), k8);
        }
        // Black to move (one more white stone far away) plays it.
        for seed in 0..6 {
            assert_eq!(best(&format!("{moves} a9"), seed), k8);
        }
    }

    #[test]
    fn every_block_of_an_open_four_point_counts_alike() {
        assert_eq!(deciding_score(10_000, 1_000_050), 1_000_000);
        assert_eq!(deciding_score(10_000, 4_003_200), 1_000_000);
        assert_eq!(deciding_score(144_000, 21_600), 144_000);
        assert_eq!(deciding_score(0, 10_000_000), 10_000_000);
        // White to move; black's open three h8 i8 j8 is blocked at g8 or k8. Black's g6 makes
        // g8 worth 50 more to black (a 眠二), but k8 also makes white's open three k8-k10:
        // the article's sum picks k8.
        let moves = "h8 k9 i8 k10 g6 a1 j8";
        let pos = position(15, Rule::Freestyle, moves);
        let grid = Grid::from_position(&pos);
        let (g8, k8) = (parse_point("g8", 15).unwrap(), parse_point("k8", 15).unwrap());
        assert!(evaluate(&grid, g8, Color::Black) > evaluate(&grid, k8, Color::Black));
        assert!(evaluate(&grid, k8, Color::White) >= 10_000);
        for seed in 0..6 {
            assert_eq!(best(moves, seed), k8);
        }
    }

    #[test]
    fn answers_an_open_three() {
        // White to move; black has an open three h8 i8 j8: white blocks at g8 or k8.
        let p = best("h8 a1 i8 a3 j8", 6);
        assert!(
            [parse_point("g8", 15).unwrap(), parse_point("k8", 15).unwrap()].contains(&p),
            "{p:?}"
        );
    }

    /// The one-ply choice of the article's scorer in `moves`.
    fn one_ply(moves: &str) -> Point {
        let pos = position(15, Rule::Freestyle, moves);
        let mut scored = choice_keys(&Grid::from_position(&pos), pos.side_to_move());
        sort_scored(&mut scored);
        scored[0].0
    }

    #[test]
    fn reads_a_forcing_win_beyond_one_move() {
        // From an arena game: white to move wins by i11 (a four), then continuous fours;
        // the scorer alone prefers g9.
        let moves = "h8 f9 k8 g10 j8 i8 i9 g11 j7 j10 k7 h10 i10 h11 e8";
        assert_eq!(one_ply(moves), parse_point("g9", 15).unwrap());
        assert_eq!(best(moves, 1), parse_point("i11", 15).unwrap());
    }

    #[test]
    fn defends_against_a_forcing_attack_beyond_one_move() {
        // From an arena game: white to move; black threatens a forcing win that the scorer's
        // own choice d11 does not stop.
        let moves = "h8 f10 e11 e9 g11 f11 f12 f9 d10 c9 d9 h10 d12";
        let black_wins_after = |p: Point| {
            let mut pos = position(15, Rule::Freestyle, moves);
            pos.play(p).unwrap();
            let ranked: Vec<Point> = Vec::new();
            matches!(threat::read_briefly(&pos, &ranked, Defence::None, 100_000), Reading::Win(..))
        };
        let top = one_ply(moves);
        assert_eq!(top, parse_point("d11", 15).unwrap());
        assert!(black_wins_after(top));
        for seed in 0..4 {
            let p = best(moves, seed);
            assert!(!black_wins_after(p), "seed {seed}: {p:?}");
        }
    }

    #[test]
    fn quiet_moves_are_compared_by_playouts() {
        // From an arena game: white to move, and neither side has a short forcing win.
        let moves = "h8 f8 i11 g9 d6 f9 e9 f10 f7 f12 f11 g11 g10 i9 h10 h9 j9";
        let pos = position(15, Rule::Freestyle, moves);
        let mut scored = choice_keys(&Grid::from_position(&pos), pos.side_to_move());
        sort_scored(&mut scored);
        let ranked: Vec<Point> = scored.iter().take(DEFENCE_CANDIDATES).map(|&(p, _)| p).collect();
        let reading = threat::read_briefly(&pos, &ranked, Defence::RankedFirst, READ_NODES);
        assert_eq!(reading, Reading::Quiet);
        let top: Vec<Point> = scored.iter().take(PLAYOUT_CANDIDATES).map(|&(p, _)| p).collect();
        let choices: Vec<Point> = (0..8).map(|seed| best(moves, seed)).collect();
        // Reproducible for a seed, always among the compared points, and not always the
        // scorer's own first choice.
        assert_eq!(choices, (0..8).map(|seed| best(moves, seed)).collect::<Vec<_>>());
        assert!(choices.iter().all(|p| top.contains(p)), "{choices:?}");
        assert!(choices.iter().any(|&p| p != top[0]), "{choices:?}");
    }
}

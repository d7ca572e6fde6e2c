//! Level 1: five-tuple scoring (seed article 000).
//!
//! Every run of five consecutive cells (a "five-tuple") in the four directions is scored by
//! how many stones of each side it holds, using the article's table; the score is added to
//! each empty cell of the tuple, and the computer plays the empty cell with the largest sum.
//! The table prefers attack to defence (35/800/15000/800000 for the computer's own stones
//! against 15/400/1800/100000 for the opponent's), an empty tuple is worth 7 and a tuple
//! holding both colours is dead (0). The article's table is written for a computer that
//! moves second, so the roles are swapped when the computer moves first.

use super::driver::{Choice, Classic, Driver, Turn};
use crate::ai::gomoku::common::{code, Grid, DIRECTIONS};
use crate::level::GomokuLevel;
use crate::{Color, Point};

/// The five-tuple engine.
pub type FiveTuple = Driver<FiveTupleLevel>;

/// The five-tuple level: the article's tuple sums, and the point with the largest sum.
#[derive(Debug, Default)]
pub struct FiveTupleLevel;

/// The article's `chessScore`: the value of one tuple holding `first` stones of the side that
/// moved first (black) and `second` stones of the side that moves second (white).
pub fn tuple_score(first: u32, second: u32, computer_is_first: bool) -> i64 {
    // The article names its arguments after the player (first) and the computer (second).
    let (mut player, mut computer) = (first, second);
    if player > 0 && computer > 0 {
        return 0;
    }
    if player == 0 && computer == 0 {
        return 7;
    }
    // "This table assumes the computer moves second; swap the roles when it moves first."
    if computer_is_first {
        std::mem::swap(&mut player, &mut computer);
    }
    match (computer, player) {
        // Attack.
        (1, _) => 35,
        (2, _) => 800,
        (3, _) => 15_000,
        (4, _) => 800_000,
        // Defence.
        (_, 1) => 15,
        (_, 2) => 400,
        (_, 3) => 1_800,
        (_, 4) => 100_000,
        // A complete five: the game is over, nothing to gain here.
        _ => 0,
    }
}

/// The summed tuple scores of every empty cell, for the side to move in `grid` being
/// `computer`.
pub fn score_board(grid: &Grid, computer: Color) -> Vec<i64> {
    let n = grid.size() as i32;
    let computer_is_first = computer == Color::Black;
    let (black, white) = (code(Color::Black), code(Color::White));
    let mut score = vec![0i64; grid.size() as usize * grid.size() as usize];
    for (dx, dy) in DIRECTIONS {
        for y in 0..n {
            for x in 0..n {
                // The tuple starting at (x, y) must end on the board.
                let (ex, ey) = (x + 4 * dx, y + 4 * dy);
                if grid.get(ex, ey).is_none() {
                    continue;
                }
                let (mut first, mut second) = (0, 0);
                for k in 0..5 {
                    match grid.get(x + k * dx, y + k * dy) {
                        Some(c) if c == black => first += 1,
                        Some(c) if c == white => second += 1,
                        _ => {}
                    }
                }
                let value = tuple_score(first, second, computer_is_first);
                for k in 0..5 {
                    let (cx, cy) = (x + k * dx, y + k * dy);
                    score[(cy * n + cx) as usize] += value;
                }
            }
        }
    }
    score
}

impl Classic for FiveTupleLevel {
    const OPENS_AT_CENTRE: bool = false;
    const PLAYS_FORCED: bool = false;
    const LEVEL: GomokuLevel = GomokuLevel::FiveTuple;

    fn keys(&mut self, grid: &Grid, me: Color) -> Vec<(Point, i64)> {
        let scores = score_board(grid, me);
        grid.empties().map(|p| (p, scores[p.index(grid.size())])).collect()
    }

    fn choose(&mut self, turn: &mut Turn) -> Choice {
        Choice::play(turn.pick_best())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::common::test_util::position;
    use crate::ai::{CancelFlag, Engine, Limits};
    use crate::gomoku::{notation::parse_point, Rule};
    use crate::Move;

    fn best(moves: &str, seed: u64) -> Point {
        let pos = position(15, Rule::Freestyle, moves);
        let r =
            FiveTuple::new(seed).search(&pos, &Limits::default(), &CancelFlag::new(), &mut |_| {});
        r.best.point().unwrap()
    }

    #[test]
    fn table_matches_the_article() {
        // Computer second (white): the second count is the computer's.
        assert_eq!(tuple_score(0, 0, false), 7);
        assert_eq!(tuple_score(1, 1, false), 0);
        assert_eq!(tuple_score(0, 1, false), 35);
        assert_eq!(tuple_score(0, 4, false), 800_000);
        assert_eq!(tuple_score(3, 0, false), 1_800);
        assert_eq!(tuple_score(4, 0, false), 100_000);
        // Computer first: roles swapped.
        assert_eq!(tuple_score(3, 0, true), 15_000);
        assert_eq!(tuple_score(0, 2, true), 400);
    }

    #[test]
    fn opens_in_the_centre_region() {
        // Every point at least four cells from the edges lies in the most (20) tuples.
        for seed in 0..10 {
            let p = best("", seed);
            assert!((4..=10).contains(&p.x) && (4..=10).contains(&p.y), "{p:?}");
        }
    }

    #[test]
    fn completes_its_own_four_before_blocking() {
        // White (computer) has four on row 1, black has four on row 8: white wins.
        let p = best("h8 a1 i8 b1 j8 c1 k8 d1 a15", 3);
        assert_eq!(p, parse_point("e1", 15).unwrap());
    }

    #[test]
    fn blocks_an_open_four_threat() {
        // Black threatens h8-k8 (four); white must block at g8 or l8.
        let p = best("h8 a1 i8 a3 j8 a5 k8", 2);
        assert!(
            p == parse_point("g8", 15).unwrap() || p == parse_point("l8", 15).unwrap(),
            "{p:?}"
        );
    }

    #[test]
    fn deterministic_per_seed_and_reports_a_heat_map() {
        let pos = position(15, Rule::Freestyle, "h8 i9 h9");
        let mut calls = 0;
        let a = FiveTuple::new(9)
            .search(&pos, &Limits::default(), &CancelFlag::new(), &mut |_| calls += 1);
        let b = FiveTuple::new(9).search(&pos, &Limits::default(), &CancelFlag::new(), &mut |_| {});
        assert_eq!(a.best, b.best);
        assert_eq!(calls, 1);
        assert!(!a.info.candidates.is_empty());
        assert_eq!(a.info.candidates[0].score, a.info.score, "the best score is played");
        assert!(matches!(a.best, Move::Place(p) if pos.stone(p).is_none()));
    }
}

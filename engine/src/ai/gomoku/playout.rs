//! Playouts: a quick game played on from a candidate point by a level's own one-ply policy,
//! and a Monte-Carlo choice among candidates by the mean result of many such games.
//!
//! The lookahead uses it for its quiet moves (when neither side has a forcing attack): the
//! pattern scorer's choice plays both sides, at first as it would, then with some of its
//! moves drawn among its near-best points, so that one candidate is tried against many
//! plausible continuations rather than one.

use super::common::{code, five_points, makes_five, Grid, EMPTY};
use crate::gomoku::{Position, Rule};
use crate::rng::Rng;
use crate::{Color, Point};

/// Plays `first` for `me` on `grid`, then lets `policy` choose for both sides for up to
/// `plies` more moves; before asking the policy, each side takes its own five, else blocks
/// the other's. Returns `plies + 1 - k` when `me` completes a five on move `k` of the
/// playout (`first` is move 0), the negative of that when the opponent does, and 0 when
/// neither does (or the policy has no move). The grid is left as it was.
pub fn playout(
    grid: &mut Grid,
    me: Color,
    first: Point,
    plies: usize,
    rule: Rule,
    policy: &mut dyn FnMut(&Grid, Color) -> Option<Point>,
) -> i32 {
    let mut played = Vec::with_capacity(plies + 1);
    let mut result = 0;
    let mut side = me;
    let mut p = first;
    for k in 0..=plies {
        let wins = makes_five(grid, p, side, rule);
        grid.set(p, code(side));
        played.push(p);
        if wins {
            let v = (plies + 1 - k) as i32;
            result = if side == me { v } else { -v };
            break;
        }
        if k == plies {
            break;
        }
        side = side.opponent();
        let next = five_points(grid, side, rule)
            .first()
            .copied()
            .or_else(|| five_points(grid, side.opponent(), rule).first().copied())
            .or_else(|| policy(grid, side));
        match next {
            Some(q) if grid.at(q) == EMPTY => p = q,
            _ => break,
        }
    }
    for q in played {
        grid.set(q, EMPTY);
    }
    result
}

/// How the Monte-Carlo playouts are played.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Moves played after the candidate.
    pub plies: usize,
    /// After the first round, the chance in percent that a move is the policy's best point;
    /// otherwise it is drawn among the policy's three best points whose key is at least
    /// `1 / spread` of the best key.
    pub keep_percent: u64,
    /// See `keep_percent`.
    pub spread: i64,
}

/// The playouts so far: every candidate with the sum and count of its results.
#[derive(Clone, Debug)]
pub struct Tally {
    pub candidates: Vec<Point>,
    sums: Vec<i64>,
    counts: Vec<u32>,
    /// Moves played in all playouts, candidates included.
    pub nodes: u64,
    /// Complete rounds (one playout per candidate each).
    pub rounds: u32,
}

impl Tally {
    fn new(candidates: Vec<Point>) -> Tally {
        let n = candidates.len();
        Tally { candidates, sums: vec![0; n], counts: vec![0; n], nodes: 0, rounds: 0 }
    }

    /// The mean result of candidate `i`: a win counts 100 plus the moves it had to spare, a
    /// loss the negative of that, an open game 0.
    fn mean(&self, i: usize) -> Option<f64> {
        (self.counts[i] > 0).then(|| self.sums[i] as f64 / f64::from(self.counts[i]))
    }

    /// The candidate with the best mean; the earlier one on ties.
    pub fn best(&self) -> Option<Point> {
        let mut best: Option<(usize, f64)> = None;
        for i in 0..self.candidates.len() {
            if let Some(m) = self.mean(i) {
                if best.is_none_or(|(_, b)| m > b) {
                    best = Some((i, m));
                }
            }
        }
        best.map(|(i, _)| self.candidates[i])
    }

    /// Every candidate that has a result, with its mean rounded, best first.
    pub fn scores(&self) -> Vec<(Point, i64)> {
        let mut v: Vec<(Point, i64)> = (0..self.candidates.len())
            .filter_map(|i| self.mean(i).map(|m| (self.candidates[i], m.round() as i64)))
            .collect();
        v.sort_by_key(|&(_, m)| std::cmp::Reverse(m));
        v
    }
}

/// A policy's `k` best points for a side with their keys, best first.
pub type Ranked<'a> = dyn FnMut(&Grid, Color, usize) -> Vec<(Point, i64)> + 'a;

/// Plays rounds of playouts from every one of `candidates` (legal points for the side to
/// move in `pos`) until `stop` says so; `stop` is asked before every playout and sees the
/// tally so far. The first round follows `ranked`'s best point; later rounds vary the moves
/// as `settings` say, with `rng`, so a given seed and number of playouts always gives the
/// same tally.
pub fn monte_carlo(
    pos: &Position,
    candidates: Vec<Point>,
    settings: Settings,
    rng: &mut Rng,
    ranked: &mut Ranked,
    stop: &mut dyn FnMut(&Tally) -> bool,
) -> Tally {
    let (me, rule) = (pos.side_to_move(), pos.rule());
    let grid = &mut Grid::from_position(pos);
    let mut tally = Tally::new(candidates);
    if tally.candidates.is_empty() {
        return tally;
    }
    loop {
        for i in 0..tally.candidates.len() {
            if stop(&tally) {
                return tally;
            }
            let vary = tally.rounds > 0;
            let mut nodes = 1;
            let mut policy = |g: &Grid, side: Color| -> Option<Point> {
                nodes += 1;
                let best = ranked(g, side, 3);
                let &(first, top) = best.first()?;
                if !vary || rng.below(100) < settings.keep_percent {
                    return Some(first);
                }
                let close: Vec<Point> = best
                    .iter()
                    .filter(|&&(_, k)| k.saturating_mul(settings.spread) >= top)
                    .map(|&(p, _)| p)
                    .collect();
                rng.choose(&close).copied()
            };
            let c = tally.candidates[i];
            let v = playout(grid, me, c, settings.plies, rule, &mut policy);
            tally.sums[i] += i64::from(v.signum() * 100 + v);
            tally.counts[i] += 1;
            tally.nodes += nodes;
        }
        tally.rounds += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::common::test_util::position;
    use crate::ai::gomoku::pattern;
    use crate::gomoku::notation::parse_point;

    fn grid(moves: &str) -> Grid {
        Grid::from_position(&position(15, Rule::Freestyle, moves))
    }

    fn pt(s: &str) -> Point {
        parse_point(s, 15).unwrap()
    }

    #[test]
    fn a_playout_scores_a_quick_win_and_restores_the_grid() {
        // Black has an open three on row 8 (g8 h8 i8); white's stones are scattered.
        let mut g = grid("g8 a1 h8 a15 i8 o1");
        let before = g.clone();
        let mut policy = |gr: &Grid, c: Color| pattern::best_points(gr, c, 1).first().map(|x| x.0);
        // j8 makes an open four: white blocks one end, black completes the other (move 2).
        let v = playout(&mut g, Color::Black, pt("j8"), 10, Rule::Freestyle, &mut policy);
        assert_eq!(v, 10 + 1 - 2);
        assert_eq!(g, before);
        // Played as white there, j8 only blocks; black's best answer then does not lose at
        // once, and white never wins sooner than black could.
        let v = playout(&mut g, Color::White, pt("j8"), 10, Rule::Freestyle, &mut policy);
        assert!(v < 10, "white cannot win quickly here: {v}");
        assert_eq!(g, before);
    }

    #[test]
    fn a_playout_stops_when_the_policy_has_no_move() {
        let mut g = grid("h8");
        let v = playout(&mut g, Color::White, pt("a1"), 6, Rule::Freestyle, &mut |_, _| None);
        assert_eq!(v, 0);
        assert_eq!(g, grid("h8"));
    }

    fn choose(moves: &str, cands: &[&str], seed: u64, rounds: u32) -> Tally {
        let pos = position(15, Rule::Freestyle, moves);
        let cands = cands.iter().map(|s| pt(s)).collect();
        let settings = Settings { plies: 12, keep_percent: 30, spread: 2 };
        monte_carlo(
            &pos,
            cands,
            settings,
            &mut Rng::new(seed),
            &mut pattern::best_points,
            &mut |t| t.rounds >= rounds,
        )
    }

    #[test]
    fn monte_carlo_prefers_the_winning_candidate() {
        // Black to move with an open three g8 h8 i8: j8 or f8 wins, a far point does not.
        let t = choose("g8 a1 h8 a15 i8 o1", &["c3", "j8", "m13"], 3, 4);
        assert_eq!(t.best(), Some(pt("j8")));
        assert_eq!(t.rounds, 4);
        let scores = t.scores();
        assert_eq!(scores[0].0, pt("j8"));
        assert!(scores[0].1 > 100, "a sure win scores above 100: {scores:?}");
        assert!(t.nodes >= 12);
    }

    /// Every grid the policy was asked about in four rounds from two candidates.
    fn seen(seed: u64) -> Vec<Grid> {
        let pos = position(15, Rule::Freestyle, "h8 h9 i9 g7 j10 i8 g9 j8");
        let mut seen = Vec::new();
        let settings = Settings { plies: 8, keep_percent: 30, spread: 2 };
        monte_carlo(
            &pos,
            vec![pt("k8"), pt("f10")],
            settings,
            &mut Rng::new(seed),
            &mut |gr, c, k| {
                seen.push(gr.clone());
                pattern::best_points(gr, c, k)
            },
            &mut |t| t.rounds >= 4,
        );
        seen
    }

    #[test]
    fn monte_carlo_is_reproducible_and_varies_with_the_seed() {
        let a = seen(11);
        assert_eq!(a, seen(11));
        assert!(a.len() >= 2 * 4 * 4, "{}", a.len());
        assert_ne!(a, seen(12), "later rounds vary the playouts");
        // The first round is the policy's own choice: the same whatever the seed.
        let first_round = a.len() / 4;
        assert_eq!(a[..first_round / 2], seen(12)[..first_round / 2]);
    }

    #[test]
    fn monte_carlo_stops_when_asked() {
        let t = choose("h8 h9", &["g8", "i8"], 1, 0);
        assert_eq!(t.rounds, 0);
        assert_eq!(t.best(), None);
        assert!(t.scores().is_empty());
    }
}

//! Playouts: a quick game played on from a candidate point by a level's own one-ply policy,
//! and a Monte-Carlo choice among candidates by the mean result of many such games.
//!
//! The pattern and lookahead levels use it for their quiet moves (when neither side has a
//! forcing attack): the pattern scorer's choice plays both sides, at first as it would, then
//! with some of its moves drawn among its near-best points, so that one candidate is tried
//! against many plausible continuations rather than one.

use crate::ai::gomoku::common::{self, Grid, EMPTY};
use crate::gomoku::Position;
use crate::rng::Rng;
use crate::{Color, Point};

/// A board that playouts are played on, with a level's one-ply policy's view of it.
pub trait PlayoutBoard {
    /// The stones.
    fn grid(&self) -> &Grid;
    /// Puts a stone of `color` on the empty point `p`.
    fn place(&mut self, p: Point, color: Color);
    /// Takes the stone on `p` away.
    fn clear(&mut self, p: Point);
    /// Whether a stone of `color` on the empty point `p` completes a five under the rule.
    fn makes_five(&mut self, p: Point, color: Color) -> bool;
    /// The first empty point in board order where `color` completes a five.
    fn first_five(&mut self, color: Color) -> Option<Point>;
    /// The policy's `k` best points for `color` to play with their keys, best first.
    fn ranked(&mut self, color: Color, k: usize) -> Vec<(Point, i64)>;
}

/// The points a level compares by playouts: its own choice `first`, then the legal points
/// of `scored` (best first), `n` in all.
pub fn candidates(
    pos: &Position,
    first: Option<Point>,
    scored: &[(Point, i64)],
    n: usize,
) -> Vec<Point> {
    let mut cands: Vec<Point> = Vec::with_capacity(n);
    cands.extend(first);
    for &(p, _) in scored {
        if cands.len() >= n {
            break;
        }
        if !cands.contains(&p) && common::is_legal(pos, p) {
            cands.push(p);
        }
    }
    cands
}

/// Plays `first` for `me` on `board`, then lets `policy` choose for both sides for up to
/// `plies` more moves; before asking the policy, each side takes its own five, else blocks
/// the other's. Returns `plies + 1 - k` when `me` completes a five on move `k` of the
/// playout (`first` is move 0), the negative of that when the opponent does, and 0 when
/// neither does (or the policy has no move). The board is left as it was.
pub fn playout<B: PlayoutBoard + ?Sized>(
    board: &mut B,
    me: Color,
    first: Point,
    plies: usize,
    policy: &mut dyn FnMut(&mut B, Color) -> Option<Point>,
) -> i32 {
    let mut played = Vec::with_capacity(plies + 1);
    let mut result = 0;
    let mut side = me;
    let mut p = first;
    for k in 0..=plies {
        let wins = board.makes_five(p, side);
        board.place(p, side);
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
        let next = board
            .first_five(side)
            .or_else(|| board.first_five(side.opponent()))
            .or_else(|| policy(board, side));
        match next {
            Some(q) if board.grid().at(q) == EMPTY => p = q,
            _ => break,
        }
    }
    for q in played.into_iter().rev() {
        board.clear(q);
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

/// Plays rounds of playouts on `board` (holding the stones of `pos`) from every one of
/// `candidates` (legal points for the side to move in `pos`) until `stop` says so; `stop`
/// is asked before every playout and sees the tally so far. The first round follows the
/// board's best point; later rounds vary the moves as `settings` say, with `rng`, so a
/// given seed and number of playouts always gives the same tally.
pub fn monte_carlo<B: PlayoutBoard + ?Sized>(
    pos: &Position,
    board: &mut B,
    candidates: Vec<Point>,
    settings: Settings,
    rng: &mut Rng,
    stop: &mut dyn FnMut(&Tally) -> bool,
) -> Tally {
    let me = pos.side_to_move();
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
            let mut policy = |b: &mut B, side: Color| -> Option<Point> {
                nodes += 1;
                let best = b.ranked(side, 3);
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
            let v = playout(board, me, c, settings.plies, &mut policy);
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
    use crate::ai::gomoku::classic::ninecell;
    use crate::ai::gomoku::classic::scoreboard::ScoreBoard;
    use crate::ai::gomoku::common::test_util::position;
    use crate::ai::gomoku::common::{code, five_points, makes_five};
    use crate::gomoku::notation::parse_point;
    use crate::gomoku::Rule;

    /// A [`PlayoutBoard`] that reads the grid afresh each time, with the policy `F`
    /// (`F(grid, colour, k)` gives the `k` best points for `colour`).
    struct GridBoard<F> {
        grid: Grid,
        rule: Rule,
        policy: F,
    }

    impl<F: FnMut(&Grid, Color, usize) -> Vec<(Point, i64)>> PlayoutBoard for GridBoard<F> {
        fn grid(&self) -> &Grid {
            &self.grid
        }
        fn place(&mut self, p: Point, color: Color) {
            self.grid.set(p, code(color));
        }
        fn clear(&mut self, p: Point) {
            self.grid.set(p, EMPTY);
        }
        fn makes_five(&mut self, p: Point, color: Color) -> bool {
            makes_five(&self.grid, p, color, self.rule)
        }
        fn first_five(&mut self, color: Color) -> Option<Point> {
            five_points(&self.grid, color, self.rule).first().copied()
        }
        fn ranked(&mut self, color: Color, k: usize) -> Vec<(Point, i64)> {
            (self.policy)(&self.grid, color, k)
        }
    }

    type Policy = fn(&Grid, Color, usize) -> Vec<(Point, i64)>;

    /// The pattern scorer reading the grid afresh, on the stones of `moves`.
    fn board(moves: &str) -> GridBoard<Policy> {
        let pos = position(15, Rule::Freestyle, moves);
        GridBoard {
            grid: Grid::from_position(&pos),
            rule: Rule::Freestyle,
            policy: ninecell::best_points,
        }
    }

    fn pt(s: &str) -> Point {
        parse_point(s, 15).unwrap()
    }

    fn best<B: PlayoutBoard>(b: &mut B, c: Color) -> Option<Point> {
        b.ranked(c, 1).first().map(|x| x.0)
    }

    #[test]
    fn a_playout_scores_a_quick_win_and_restores_the_board() {
        // Black has an open three on row 8 (g8 h8 i8); white's stones are scattered.
        let mut b = board("g8 a1 h8 a15 i8 o1");
        let before = b.grid.clone();
        // j8 makes an open four: white blocks one end, black completes the other (move 2).
        let v = playout(&mut b, Color::Black, pt("j8"), 10, &mut best);
        assert_eq!(v, 10 + 1 - 2);
        assert_eq!(b.grid, before);
        // Played as white there, j8 only blocks; black's best answer then does not lose at
        // once, and white never wins sooner than black could.
        let v = playout(&mut b, Color::White, pt("j8"), 10, &mut best);
        assert!(v < 10, "white cannot win quickly here: {v}");
        assert_eq!(b.grid, before);
    }

    #[test]
    fn a_playout_stops_when_the_policy_has_no_move() {
        let mut b = board("h8");
        let v = playout(&mut b, Color::White, pt("a1"), 6, &mut |_, _| None);
        assert_eq!(v, 0);
        assert_eq!(b.grid, board("h8").grid);
    }

    fn choose(moves: &str, cands: &[&str], seed: u64, rounds: u32) -> Tally {
        let pos = position(15, Rule::Freestyle, moves);
        let cands = cands.iter().map(|s| pt(s)).collect();
        let settings = Settings { plies: 12, keep_percent: 30, spread: 2 };
        let mut b = board(moves);
        monte_carlo(&pos, &mut b, cands, settings, &mut Rng::new(seed), &mut |t| t.rounds >= rounds)
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
        let moves = "h8 h9 i9 g7 j10 i8 g9 j8";
        let pos = position(15, Rule::Freestyle, moves);
        let mut seen = Vec::new();
        let settings = Settings { plies: 8, keep_percent: 30, spread: 2 };
        let mut b = GridBoard {
            grid: Grid::from_position(&pos),
            rule: Rule::Freestyle,
            policy: |gr: &Grid, c: Color, k: usize| {
                seen.push(gr.clone());
                ninecell::best_points(gr, c, k)
            },
        };
        let cands = vec![pt("k8"), pt("f10")];
        monte_carlo(&pos, &mut b, cands, settings, &mut Rng::new(seed), &mut |t| t.rounds >= 4);
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

    /// The incremental score board plays exactly the playouts of the scorer reading the grid
    /// afresh: the same tallies, move counts included, under every rule.
    #[test]
    fn the_score_board_plays_the_same_playouts_as_the_scorer() {
        let moves = "h8 h9 i9 g7 j10 i8 g9 j8 k11 f9";
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let pos = position(15, rule, moves);
            let cands: Vec<Point> = ["k8", "f10", "l12", "g10", "e8"].map(pt).to_vec();
            let settings = Settings { plies: 20, keep_percent: 30, spread: 2 };
            let mut fresh =
                GridBoard { grid: Grid::from_position(&pos), rule, policy: ninecell::best_points };
            let mut incremental = ScoreBoard::new(&Grid::from_position(&pos), rule);
            let a = monte_carlo(
                &pos,
                &mut fresh,
                cands.clone(),
                settings,
                &mut Rng::new(5),
                &mut |t| t.rounds >= 6,
            );
            let b =
                monte_carlo(&pos, &mut incremental, cands, settings, &mut Rng::new(5), &mut |t| {
                    t.rounds >= 6
                });
            assert_eq!((a.scores(), a.nodes), (b.scores(), b.nodes), "{rule:?}");
            assert_eq!(incremental.grid(), &Grid::from_position(&pos));
        }
    }
}

//! The pattern scorer kept up to date stone by stone, for playouts.
//!
//! [`best_points`](super::ninecell::best_points) reads every point near the stones afresh: eight
//! neighbourhood keys per point, each built from eight cells, on every move of every playout.
//! A [`ScoreBoard`] keeps the keys of every point, direction and side, rewrites only the
//! keys a stone changes (four cells each way in four directions), and scores a point again
//! only after a stone has landed on one of its lines. Its choices are the scorer's own: the
//! same keys, the same order, the same ties (see the test against `best_points`).

use super::ninecell::{evaluate_keys, key, key_of, K_EMPTY, K_OPP, K_OWN};
use super::playout::PlayoutBoard;
use crate::ai::gomoku::common::{code, makes_five, Grid, DIRECTIONS, EMPTY};
use crate::gomoku::Rule;
use crate::{Color, Point};

/// One side's score of one point, as [`evaluate_detail`](super::ninecell::evaluate_detail) gives it,
/// and whether the side's stone there completes a five.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PointScore {
    score: i64,
    decisive: bool,
    five: bool,
}

/// A board with the pattern scorer's view of every point, updated on every stone.
#[derive(Clone, Debug)]
pub struct ScoreBoard {
    grid: Grid,
    rule: Rule,
    /// The neighbourhood key of every point, direction and side, at
    /// `(index * 4 + direction) * 2 + side`.
    keys: Vec<u16>,
    /// Each point's scores for black and white, at `index * 2 + side`, valid when `fresh`.
    scores: Vec<PointScore>,
    fresh: Vec<bool>,
    /// How many stones lie within two lines (in both coordinates) of each point.
    near: Vec<u8>,
}

impl ScoreBoard {
    /// The scorer's view of `grid` under `rule`.
    pub fn new(grid: &Grid, rule: Rule) -> ScoreBoard {
        let cells = grid.size() as usize * grid.size() as usize;
        let mut board = ScoreBoard {
            grid: Grid::empty(grid.size()),
            rule,
            keys: vec![0; cells * 8],
            scores: vec![PointScore::default(); cells * 2],
            fresh: vec![false; cells],
            near: vec![0; cells],
        };
        // Keys of the empty board (only the edges are set), then the stones one by one.
        let empty = board.grid.clone();
        for p in empty.points() {
            for (di, &d) in DIRECTIONS.iter().enumerate() {
                for color in [Color::Black, Color::White] {
                    let slot = board.slot(p.index(empty.size()), di, color);
                    board.keys[slot] = key(&empty, p, d, code(color)) as u16;
                }
            }
        }
        for p in grid.points() {
            if grid.at(p) != EMPTY {
                board.set(p, grid.at(p));
            }
        }
        board
    }

    #[inline]
    fn slot(&self, index: usize, direction: usize, color: Color) -> usize {
        (index * 4 + direction) * 2 + color.index()
    }

    /// Puts `value` (a stone code or [`EMPTY`]) on `q` and brings the keys, the stale marks
    /// and the near counts up to date.
    fn set(&mut self, q: Point, value: u8) {
        let size = self.grid.size();
        let was_stone = self.grid.at(q) != EMPTY;
        self.grid.set(q, value);
        self.fresh[q.index(size)] = false;
        for (di, (dx, dy)) in DIRECTIONS.into_iter().enumerate() {
            for k in 1..=4 {
                // `p = q + k d` sees `q` before it at distance `k` (bits 2(k-1)); `p = q - k d`
                // sees it after it (bits 2(k+3)).
                for (sign, shift) in [(1, 2 * (k - 1)), (-1, 2 * (k + 3))] {
                    let (x, y) = (q.x as i32 + sign * k * dx, q.y as i32 + sign * k * dy);
                    if self.grid.get(x, y).is_none() {
                        continue;
                    }
                    let index = Point::new(x as u8, y as u8).index(size);
                    self.fresh[index] = false;
                    for color in [Color::Black, Color::White] {
                        let cell = match value {
                            EMPTY => K_EMPTY,
                            v if v == code(color) => K_OWN,
                            _ => K_OPP,
                        } as u16;
                        let slot = self.slot(index, di, color);
                        self.keys[slot] = (self.keys[slot] & !(3 << shift)) | cell << shift;
                    }
                }
            }
        }
        let is_stone = value != EMPTY;
        if was_stone != is_stone {
            let n = size as i32;
            for y in (q.y as i32 - 2).max(0)..=(q.y as i32 + 2).min(n - 1) {
                for x in (q.x as i32 - 2).max(0)..=(q.x as i32 + 2).min(n - 1) {
                    let c = &mut self.near[(y * n + x) as usize];
                    *c = if is_stone { *c + 1 } else { *c - 1 };
                }
            }
        }
    }

    /// The scores of the empty point with index `i`, computed again if a stone has landed on
    /// one of its lines since they were last computed.
    #[inline]
    fn score(&mut self, i: usize, color: Color) -> PointScore {
        if !self.fresh[i] {
            let p = Point::from_index(i, self.grid.size());
            for side in [Color::Black, Color::White] {
                let keys = [0, 1, 2, 3].map(|di| self.keys[self.slot(i, di, side)] as usize);
                let (score, decisive) = evaluate_keys(keys);
                let five = keys.iter().any(|&k| own_run(k) >= 5)
                    && makes_five(&self.grid, p, side, self.rule);
                self.scores[i * 2 + side.index()] = PointScore { score, decisive, five };
            }
            self.fresh[i] = true;
        }
        self.scores[i * 2 + color.index()]
    }

    /// Whether the point with index `i` is empty and within two lines of a stone.
    #[inline]
    fn is_candidate(&self, i: usize) -> bool {
        self.near[i] > 0 && self.grid.at_index(i) == EMPTY
    }
}

/// The length of the run of own stones through the centre of a neighbourhood key (counting
/// the centre), as far as the key sees.
fn own_run(key: usize) -> usize {
    let side = |half: usize| (0..4).take_while(|k| (half >> (2 * k)) & 3 == K_OWN).count();
    1 + side(key & 0xff) + side(key >> 8)
}

impl PlayoutBoard for ScoreBoard {
    fn grid(&self) -> &Grid {
        &self.grid
    }

    fn place(&mut self, p: Point, color: Color) {
        self.set(p, code(color));
    }

    fn clear(&mut self, p: Point) {
        self.set(p, EMPTY);
    }

    fn makes_five(&mut self, p: Point, color: Color) -> bool {
        self.score(p.index(self.grid.size()), color).five
    }

    fn first_five(&mut self, color: Color) -> Option<Point> {
        // A five point always lies next to a stone, so among the candidates.
        let size = self.grid.size();
        (0..self.near.len())
            .find(|&i| self.is_candidate(i) && self.score(i, color).five)
            .map(|i| Point::from_index(i, size))
    }

    fn ranked(&mut self, me: Color, k: usize) -> Vec<(Point, i64)> {
        let size = self.grid.size();
        let mut best: Vec<(Point, i64)> = Vec::with_capacity(k + 1);
        for i in 0..self.near.len() {
            if !self.is_candidate(i) {
                continue;
            }
            let attack = self.score(i, me);
            let defence = self.score(i, me.opponent());
            let value = key_of(attack.score, attack.decisive, defence.score);
            // Board order on ties: a later point must be strictly better to move up.
            if best.len() == k && best.last().is_some_and(|&(_, v)| v >= value) {
                continue;
            }
            let at = best.iter().position(|&(_, v)| v < value).unwrap_or(best.len());
            best.insert(at, (Point::from_index(i, size), value));
            best.truncate(k);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::classic::ninecell::best_points;
    use crate::ai::gomoku::common::{five_points, test_util::position};
    use crate::rng::Rng;

    /// After every stone of random games, and after taking them back, the board ranks points,
    /// finds fives and keeps its grid exactly as the scorer reading the grid afresh does.
    #[test]
    fn agrees_with_the_scorer_read_afresh() {
        for (size, rule, seed) in [
            (15, Rule::Freestyle, 1),
            (15, Rule::Standard, 2),
            (15, Rule::Renju, 3),
            (9, Rule::Freestyle, 4),
            (19, Rule::Freestyle, 5),
        ] {
            let pos = position(size, rule, "");
            let mut grid = Grid::from_position(&pos);
            let mut board = ScoreBoard::new(&grid, rule);
            let mut rng = Rng::new(seed);
            let mut played = Vec::new();
            let mut color = Color::Black;
            for _ in 0..70 {
                let empties: Vec<Point> = grid.empties().collect();
                let p = empties[rng.below(empties.len() as u64) as usize];
                grid.set(p, code(color));
                board.place(p, color);
                played.push(p);
                color = color.opponent();
                for side in [Color::Black, Color::White] {
                    assert_eq!(board.ranked(side, 5), best_points(&grid, side, 5));
                    assert_eq!(
                        board.first_five(side),
                        five_points(&grid, side, rule).first().copied()
                    );
                }
                assert_eq!(board.grid(), &grid);
            }
            // Back to the start, with a fresh board built from a grid holding stones.
            let fresh = ScoreBoard::new(&grid, rule);
            assert_eq!(fresh.keys, board.keys);
            assert_eq!(fresh.near, board.near);
            while let Some(p) = played.pop() {
                grid.set(p, EMPTY);
                board.clear(p);
            }
            assert_eq!(board.ranked(Color::Black, 3), Vec::new(), "no stone: no candidate");
            assert_eq!(board.keys, ScoreBoard::new(&grid, rule).keys);
        }
    }

    #[test]
    fn the_run_through_a_key_counts_own_stones_next_to_the_centre() {
        // Before: own at distance 1 and 2, then the opponent; after: own at distance 1.
        let key = K_OWN | K_OWN << 2 | K_OPP << 4 | K_OWN << 8;
        assert_eq!(own_run(key), 4);
        assert_eq!(own_run(0), 1);
        assert_eq!(own_run(0x5555), 9);
    }
}

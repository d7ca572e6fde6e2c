//! Level 2: win-array weights (seed article 001).
//!
//! All "ways to win" (every run of five cells in the four directions) are enumerated once.
//! A way still open to one side (none of the other side's stones in it) carries that side's
//! progress, the number of its stones in it. Each empty point sums, over the ways through it,
//! a weight for the opponent's progress (200/400/2000/10000 for 1–4 stones: defence) and a
//! separate one for the computer's (220/420/2220/20000: attack). The computer plays the point
//! whose larger sum is largest, breaking ties by the other sum, as the article does. On an
//! empty board, where every sum is zero, it opens at the centre (see [`WinArrayLevel`]).
//!
//! The sums see one move ahead, so the level also reads its own forcing moves a little
//! (one four or open three, then up to four fours, on a 2,000-node budget: see
//! [`threat::read_briefly`]) and plays a forcing win when it finds one; it does not read
//! the opponent's. This lifts it above the five-tuple level it follows on the ladder
//! (`docs/BENCHMARKS.md`, "Gomoku ladder").

use super::driver::{Choice, Classic, Driver, Turn};
use crate::ai::gomoku::common::{code, Grid, DIRECTIONS};
use crate::ai::gomoku::threat::{self, Defence, Reading};
use crate::level::GomokuLevel;
use crate::{Color, Point};

/// Weights of the opponent's ("player's") progress of 0–4 stones in one way to win.
pub const PLAYER_WEIGHTS: [i64; 5] = [0, 200, 400, 2_000, 10_000];
/// Weights of the computer's own progress of 0–4 stones in one way to win.
pub const COMPUTER_WEIGHTS: [i64; 5] = [0, 220, 420, 2_220, 20_000];

/// Nodes of the short forcing reading (see [`threat::read_briefly`]).
const READ_NODES: u64 = 2_000;

/// The win-array engine.
pub type WinArray = Driver<WinArrayLevel>;

/// The win-array level: the article's sums, and a short reading of its own forcing moves.
#[derive(Debug, Default)]
pub struct WinArrayLevel {
    /// The ways to win of the board size last seen: five cell indices each.
    ways: Vec<[u16; 5]>,
    /// For each cell, the ways through it.
    through: Vec<Vec<u32>>,
    size: u8,
}

impl WinArrayLevel {
    /// Builds the win array ("赢法数组") for a board `size` cells wide.
    fn prepare(&mut self, size: u8) {
        if self.size == size {
            return;
        }
        self.size = size;
        self.ways = ways_to_win(size);
        self.through = vec![Vec::new(); size as usize * size as usize];
        for (k, way) in self.ways.iter().enumerate() {
            for &cell in way {
                self.through[cell as usize].push(k as u32);
            }
        }
    }

    /// The attack and defence sums of every cell (zero on occupied cells).
    pub fn sums(&mut self, grid: &Grid, computer: Color) -> Vec<(i64, i64)> {
        self.prepare(grid.size());
        let (mine, theirs) = (code(computer), code(computer.opponent()));
        // Progress of each side in each way; `None` once the other side has a stone there.
        let progress: Vec<(Option<usize>, Option<usize>)> = self
            .ways
            .iter()
            .map(|way| {
                let size = grid.size();
                let cells = way.iter().map(|&c| grid.at(Point::from_index(c as usize, size)));
                let (m, t) = cells.fold((0, 0), |(m, t), c| {
                    (m + usize::from(c == mine), t + usize::from(c == theirs))
                });
                (if t == 0 { Some(m) } else { None }, if m == 0 { Some(t) } else { None })
            })
            .collect();
        let mut sums = vec![(0, 0); self.through.len()];
        for p in grid.empties() {
            let i = p.index(grid.size());
            let (mut attack, mut defence) = (0, 0);
            for &k in &self.through[i] {
                let (m, t) = progress[k as usize];
                if let Some(m) = m {
                    attack += COMPUTER_WEIGHTS[m.min(4)];
                }
                if let Some(t) = t {
                    defence += PLAYER_WEIGHTS[t.min(4)];
                }
            }
            sums[i] = (attack, defence);
        }
        sums
    }
}

/// Every run of five cells on a board `size` cells wide, as cell indices.
pub fn ways_to_win(size: u8) -> Vec<[u16; 5]> {
    let n = size as i32;
    let mut ways = Vec::new();
    for (dx, dy) in DIRECTIONS {
        for y in 0..n {
            for x in 0..n {
                let (ex, ey) = (x + 4 * dx, y + 4 * dy);
                if ex < 0 || ey < 0 || ex >= n || ey >= n {
                    continue;
                }
                let mut way = [0u16; 5];
                for (k, cell) in way.iter_mut().enumerate() {
                    let k = k as i32;
                    *cell = ((y + k * dy) * n + x + k * dx) as u16;
                }
                ways.push(way);
            }
        }
    }
    ways
}

/// The article only ever moves second (the player clicks first, then `pcAI` answers), so it
/// leaves the first move open: there every way to win is empty, every sum is zero, and its
/// scan with a strict `>` from `max = 0` would keep the corner (0, 0); an even pick among the
/// 225 equal points would land on the edge more often than not. The computer that moves
/// first opens at the centre, the point in the most ways to win.
impl Classic for WinArrayLevel {
    const OPENS_AT_CENTRE: bool = true;
    const PLAYS_FORCED: bool = false;
    const LEVEL: GomokuLevel = GomokuLevel::WinArray;

    /// The larger of the two sums decides; the other breaks ties (as in the article).
    fn keys(&mut self, grid: &Grid, me: Color) -> Vec<(Point, i64)> {
        let sums = self.sums(grid, me);
        grid.empties()
            .map(|p| {
                let (a, d) = sums[p.index(grid.size())];
                (p, a.max(d) * (1 << 24) + a.min(d))
            })
            .collect()
    }

    /// The larger sum.
    fn shown(&self, key: i64) -> i64 {
        key >> 24
    }

    fn choose(&mut self, turn: &mut Turn) -> Choice {
        let mut best = turn.pick_best();
        if turn.grid.stones() > 0 {
            // The article's sums cannot see a win two moves away; a short reading of our
            // own forcing moves does, and the level takes it.
            let reading = threat::read_briefly(turn.pos, &[], Defence::None, READ_NODES);
            if let Reading::Win(p, _) = reading {
                best = Some(p);
            }
        }
        Choice::play(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::common::test_util::position;
    use crate::ai::{CancelFlag, Engine, Limits};
    use crate::gomoku::{notation::parse_point, Rule};

    fn best(moves: &str) -> Point {
        let pos = position(15, Rule::Freestyle, moves);
        let r = WinArray::new(5).search(&pos, &Limits::default(), &CancelFlag::new(), &mut |_| {});
        r.best.point().unwrap()
    }

    #[test]
    fn the_win_array_has_every_way() {
        // 15x15: 11*15 per straight direction, 11*11 per diagonal: 572 ways.
        assert_eq!(ways_to_win(15).len(), 572);
        assert_eq!(ways_to_win(5).len(), 12);
    }

    #[test]
    fn weights_follow_the_article() {
        let pos = position(15, Rule::Freestyle, "h8");
        let grid = Grid::from_position(&pos);
        let mut engine = WinArrayLevel::default();
        let sums = engine.sums(&grid, Color::White);
        // i8 is in 4 horizontal ways holding black's h8; its other ways are empty.
        let (attack, defence) = sums[parse_point("i8", 15).unwrap().index(15)];
        assert_eq!(defence, 4 * 200);
        assert_eq!(attack, 0, "every way through i8 that is empty counts zero progress");
        // A point far away has no progress at all.
        assert_eq!(sums[parse_point("a1", 15).unwrap().index(15)], (0, 0));
    }

    #[test]
    fn opens_at_the_centre() {
        for seed in 0..8 {
            let pos = position(15, Rule::Freestyle, "");
            let r = WinArray::new(seed).search(
                &pos,
                &Limits::default(),
                &CancelFlag::new(),
                &mut |_| {},
            );
            assert_eq!(r.best.point(), Some(Point::new(7, 7)));
        }
        // After one stone the sums decide: a neighbour of the opponent's stone (4 shared ways).
        let h8 = parse_point("h8", 15).unwrap();
        let p = best("h8");
        assert!(p != h8 && p.x.abs_diff(h8.x) <= 1 && p.y.abs_diff(h8.y) <= 1, "{p:?}");
    }

    #[test]
    fn completes_a_four_and_blocks_a_four() {
        // White (to move) has a1-d1: it wins at e1 rather than blocking.
        assert_eq!(best("h8 a1 i8 b1 j8 c1 k8 d1 a15"), parse_point("e1", 15).unwrap());
        let p = best("h8 a1 i8 a3 j8 a5 k8");
        assert!(p == parse_point("g8", 15).unwrap() || p == parse_point("l8", 15).unwrap());
    }

    #[test]
    fn takes_a_forcing_win_its_sums_miss() {
        // From an arena game: black to move wins by g14 (a four), then continuous fours;
        // the sums alone prefer g10.
        let moves = "h8 f10 e11 e9 g11 f11 f12 f9 d10 c9 d9 h10 d12 f8 f7 d11 g12 e12 g13 h14";
        let pos = position(15, Rule::Freestyle, moves);
        let grid = Grid::from_position(&pos);
        let sums = WinArrayLevel::default().sums(&grid, pos.side_to_move());
        let key = |p: Point| {
            let (a, d) = sums[p.index(15)];
            (a.max(d), a.min(d))
        };
        let by_sums = grid.empties().max_by_key(|&p| key(p)).unwrap();
        assert_eq!(by_sums, parse_point("g10", 15).unwrap());
        assert_eq!(best(moves), parse_point("g14", 15).unwrap());
    }
}

//! Cross-check of the fast, windowed Renju forbidden-point code against a slow reference
//! written independently from the definitions, on random crowded positions.
//!
//! The reference works on whole lines of the board:
//! * a **four** through `p` is a set of four black stones, including `p`, inside five
//!   consecutive cells whose fifth cell is empty and would make exactly five (the cells
//!   just outside the five are not black); fours are counted as distinct stone sets, so a
//!   straight four (two such windows over the same four stones) counts once;
//! * a **straight four** through `p` is four consecutive black stones including `p` with
//!   both neighbouring cells empty and each of them completing exactly five;
//! * a **three** through `p` in a line without a four: some empty cell of that line makes
//!   a straight four through `p`, is itself not forbidden (recursively) and does not make
//!   exactly five in any line (a move that makes five is a five, not a four).

use std::collections::BTreeSet;

use proptest::prelude::*;
use tengen_engine::gomoku::{ForbiddenKind, Position, Rule};
use tengen_engine::{Color, Point};

const N: i32 = 15;
const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const OFF: u8 = 3;

struct Grid(Vec<u8>);

impl Grid {
    fn get(&self, x: i32, y: i32) -> u8 {
        if x < 0 || y < 0 || x >= N || y >= N {
            OFF
        } else {
            self.0[(y * N + x) as usize]
        }
    }
    fn set(&mut self, x: i32, y: i32, v: u8) {
        self.0[(y * N + x) as usize] = v;
    }
    fn black_run(&self, x: i32, y: i32, (dx, dy): (i32, i32)) -> i32 {
        let mut n = 1;
        for s in [1, -1] {
            let mut k = 1;
            while self.get(x + s * k * dx, y + s * k * dy) == BLACK {
                n += 1;
                k += 1;
            }
        }
        n
    }
    /// Placing black on the empty (x, y) makes exactly five in direction d.
    fn makes_exact_five(&mut self, x: i32, y: i32, d: (i32, i32)) -> bool {
        self.set(x, y, BLACK);
        let five = self.black_run(x, y, d) == 5;
        self.set(x, y, EMPTY);
        five
    }
}

fn fours(g: &mut Grid, (px, py): (i32, i32), d: (i32, i32)) -> usize {
    let mut sets = BTreeSet::new();
    for start in -4..=0 {
        let cells: Vec<(i32, i32)> =
            (start..start + 5).map(|t| (px + t * d.0, py + t * d.1)).collect();
        let vals: Vec<u8> = cells.iter().map(|&(x, y)| g.get(x, y)).collect();
        let blacks = vals.iter().filter(|&&v| v == BLACK).count();
        let empties: Vec<usize> = (0..5).filter(|&i| vals[i] == EMPTY).collect();
        if blacks == 4 && empties.len() == 1 {
            let (ex, ey) = cells[empties[0]];
            if g.makes_exact_five(ex, ey, d) {
                let stones: Vec<(i32, i32)> =
                    cells.iter().copied().filter(|&(x, y)| g.get(x, y) == BLACK).collect();
                sets.insert(stones);
            }
        }
    }
    sets.len()
}

fn straight_four(g: &mut Grid, (px, py): (i32, i32), d: (i32, i32)) -> bool {
    (-3..=0).any(|start| {
        let all_black = (start..start + 4).all(|t| g.get(px + t * d.0, py + t * d.1) == BLACK);
        let (ax, ay) = (px + (start - 1) * d.0, py + (start - 1) * d.1);
        let (bx, by) = (px + (start + 4) * d.0, py + (start + 4) * d.1);
        all_black
            && g.get(ax, ay) == EMPTY
            && g.get(bx, by) == EMPTY
            && g.makes_exact_five(ax, ay, d)
            && g.makes_exact_five(bx, by, d)
    })
}

fn reference(g: &mut Grid, (x, y): (i32, i32), depth: u32) -> Option<ForbiddenKind> {
    if g.get(x, y) != EMPTY {
        return None;
    }
    g.set(x, y, BLACK);
    let verdict = (|| {
        let runs: Vec<i32> = DIRS.iter().map(|&d| g.black_run(x, y, d)).collect();
        if runs.contains(&5) {
            return None;
        }
        if runs.iter().any(|&r| r > 5) {
            return Some(ForbiddenKind::Overline);
        }
        let four_counts: Vec<usize> = DIRS.iter().map(|&d| fours(g, (x, y), d)).collect();
        if four_counts.iter().sum::<usize>() >= 2 {
            return Some(ForbiddenKind::DoubleFour);
        }
        let mut threes = 0;
        for (k, &d) in DIRS.iter().enumerate() {
            if four_counts[k] > 0 {
                continue;
            }
            let is_three = (-4..=4).any(|t| {
                let (qx, qy) = (x + t * d.0, y + t * d.1);
                if t == 0 || g.get(qx, qy) != EMPTY {
                    return false;
                }
                g.set(qx, qy, BLACK);
                let sf = straight_four(g, (x, y), d);
                let five = DIRS.iter().any(|&e| g.black_run(qx, qy, e) == 5);
                g.set(qx, qy, EMPTY);
                sf && !five && (depth >= 6 || reference(g, (qx, qy), depth + 1).is_none())
            });
            if is_three {
                threes += 1;
            }
        }
        (threes >= 2).then_some(ForbiddenKind::DoubleThree)
    })();
    g.set(x, y, EMPTY);
    verdict
}

fn grid_of(pos: &Position) -> Grid {
    let mut g = Grid(vec![EMPTY; (N * N) as usize]);
    for y in 0..N {
        for x in 0..N {
            let v = match pos.stone(Point::new(x as u8, y as u8)) {
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
                None => EMPTY,
            };
            g.set(x, y, v);
        }
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fast_forbidden_points_match_the_reference(
        // Stones inside an 8x8 block (random corner), black and white alternating, with
        // white skipping some turns by playing into the far corner region.
        corner in (0u8..=7, 0u8..=7),
        cells in proptest::collection::vec((0u8..8, 0u8..8, 0u8..10), 10..50),
    ) {
        let mut pos = Position::new(15, Rule::Renju).unwrap();
        for (dx, dy, w) in cells {
            let p = Point::new(corner.0 + dx, corner.1 + dy);
            if pos.stone(p).is_some() {
                continue;
            }
            // Black gets most stones: white sometimes "passes" by playing off in a corner.
            if pos.side_to_move() == Color::White && w < 4 {
                let far = if corner.0 < 4 { Point::new(14, 14 - w) } else { Point::new(0, w) };
                if pos.stone(far).is_none() {
                    pos.play_unchecked(far);
                }
            }
            pos.play_unchecked(p);
        }
        let mut g = grid_of(&pos);
        let mut want = Vec::new();
        for y in 0..N {
            for x in 0..N {
                if let Some(k) = reference(&mut g, (x, y), 0) {
                    want.push((Point::new(x as u8, y as u8), k));
                }
            }
        }
        prop_assert_eq!(pos.forbidden_points(), want);
    }
}

//! The forcing search's board: the stones, and what the search asks of them at every node
//! kept up to date on make and unmake (line keys, neighbour counts, the Zobrist hash, and
//! under Renju a position to ask about black's forbidden points). Built once per side of a
//! reading and copied for each of its searches.

use super::table::{line_key, threat_of, Threat, C_EMPTY, C_OPP, C_OWN};
use crate::ai::gomoku::common::{code, Grid, DIRECTIONS, EMPTY};
use crate::gomoku::{zobrist, Position, Rule};
use crate::{Color, Point};

/// Where the line key of the point with index `index`, direction `DIRECTIONS[di]` and colour
/// index `color` is kept in [`ThreatBoard`]'s `keys`.
#[inline(always)]
fn key_slot(index: usize, di: usize, color: usize) -> usize {
    (index * 4 + di) * 2 + color
}

/// The stones of one reading and what the forcing search asks of them.
#[derive(Clone, Debug)]
pub(super) struct ThreatBoard {
    pub(super) grid: Grid,
    rule: Rule,
    /// Under Renju, a position kept in step with `grid` to ask about black's forbidden points.
    renju: Option<Position>,
    /// For each colour and point (`color * size² + index`): how many of the colour's stones
    /// lie on its four lines at distance 1 (low nibble) and at distance 2 (high nibble),
    /// kept up to date by [`ThreatBoard::make`] and [`ThreatBoard::unmake`].
    neighbours: Vec<u8>,
    /// The [`line_key`] of every point, direction and colour, kept up to date by
    /// [`ThreatBoard::make`] and [`ThreatBoard::unmake`]: a threat is one table look-up.
    keys: Vec<u32>,
    /// The Zobrist hash of `grid`, kept up to date by [`ThreatBoard::make`] and
    /// [`ThreatBoard::unmake`].
    pub(super) hash: u64,
}

impl ThreatBoard {
    /// The board of `pos`.
    pub(super) fn new(pos: &Position) -> ThreatBoard {
        let grid = Grid::from_position(pos);
        let size = grid.size() as usize;
        let mut keys = vec![0; size * size * 8];
        for p in grid.points() {
            for (di, &d) in DIRECTIONS.iter().enumerate() {
                for color in [Color::Black, Color::White] {
                    keys[key_slot(p.index(grid.size()), di, color.index())] =
                        line_key(&grid, p, d, code(color)) as u32;
                }
            }
        }
        let mut board = ThreatBoard {
            rule: pos.rule(),
            renju: (pos.rule() == Rule::Renju).then(|| pos.clone()),
            grid,
            neighbours: vec![0; 2 * size * size],
            keys,
            hash: pos.hash(),
        };
        for p in board.grid.points().collect::<Vec<_>>() {
            for color in [Color::Black, Color::White] {
                if board.grid.at(p) == code(color) {
                    board.count_neighbours(p, color, 1);
                }
            }
        }
        board
    }

    /// What a stone of `color` on the empty point `p` makes along direction `DIRECTIONS[di]`.
    #[inline]
    pub(super) fn threat(&self, p: Point, color: Color, di: usize) -> Threat {
        let key = self.keys[key_slot(p.index(self.grid.size()), di, color.index())];
        threat_of(key as usize, self.rule.overline_wins(color))
    }

    /// Writes the cell `q` (now holding `value`, a stone code or [`EMPTY`]) into the line
    /// keys of the points whose lines run through it.
    fn update_keys(&mut self, q: Point, value: u8) {
        let size = self.grid.size();
        for (di, (dx, dy)) in DIRECTIONS.into_iter().enumerate() {
            for k in 1..=5 {
                // The shifts are `line::slot_shift(k)` and `slot_shift(-k)`, spelled out for the hot path.
                for (sign, shift) in [(-1, 2 * (k + 4)), (1, 2 * (5 - k))] {
                    // `p` sees `q` at distance `k`: after it (`p = q - k d`) or before it.
                    let (x, y) = (q.x as i32 + sign * k * dx, q.y as i32 + sign * k * dy);
                    if self.grid.get(x, y).is_none() {
                        continue;
                    }
                    let index = Point::new(x as u8, y as u8).index(size);
                    for c in 0..2 {
                        let cell = match value {
                            EMPTY => C_EMPTY,
                            v if usize::from(v) == c + 1 => C_OWN,
                            _ => C_OPP,
                        };
                        let key = &mut self.keys[key_slot(index, di, c)];
                        *key = (*key & !(3 << shift)) | u32::from(cell) << shift;
                    }
                }
            }
        }
    }

    /// The best threat over the four directions, and a rank for ordering moves.
    pub(super) fn threats(&mut self, p: Point, color: Color) -> (Threat, u32) {
        let (mut best, mut rank) = (Threat::None, 0);
        for di in 0..DIRECTIONS.len() {
            let t = self.threat(p, color, di);
            best = best.max(t);
            rank += [0, 10, 40, 1000, 10_000][t as usize];
        }
        (best, rank)
    }

    /// Whether `color` may play the empty point `p` (not forbidden for black under Renju).
    pub(super) fn can_play(&self, p: Point, color: Color) -> bool {
        if self.grid.at(p) != EMPTY {
            return false;
        }
        match &self.renju {
            Some(pos) if color == Color::Black => pos.is_forbidden(p).is_none(),
            _ => true,
        }
    }

    pub(super) fn make(&mut self, p: Point, color: Color) {
        self.hash ^= zobrist::key(p, color);
        self.grid.set(p, code(color));
        self.update_keys(p, code(color));
        self.count_neighbours(p, color, 1);
        if let Some(pos) = &mut self.renju {
            // The search alternates strictly, so the position's side to move is `color`.
            debug_assert_eq!(pos.side_to_move(), color);
            pos.play_unchecked(p);
        }
    }

    pub(super) fn unmake(&mut self, p: Point, color: Color) {
        self.hash ^= zobrist::key(p, color);
        self.grid.set(p, EMPTY);
        self.update_keys(p, EMPTY);
        self.count_neighbours(p, color, -1);
        if let Some(pos) = &mut self.renju {
            if pos.last_move() == Some(p) {
                pos.undo_unchecked();
            }
        }
    }

    /// Empty points within `dist` (1 or 2) cells along a line of a stone of `color`.
    pub(super) fn near(&self, color: Color, dist: i32) -> Vec<Point> {
        let size = self.grid.size();
        let n = size as usize * size as usize;
        let counts = &self.neighbours[color.index() * n..(color.index() + 1) * n];
        let mask = if dist >= 2 { 0xff } else { 0x0f };
        counts
            .iter()
            .enumerate()
            .filter(|&(i, &c)| c & mask != 0 && self.grid.at_index(i) == EMPTY)
            .map(|(i, _)| Point::from_index(i, size))
            .collect()
    }

    /// Adds `delta` (+1 or -1) to the neighbour counts around a stone of `color` on `q`.
    fn count_neighbours(&mut self, q: Point, color: Color, delta: i8) {
        let size = self.grid.size();
        let base = color.index() * size as usize * size as usize;
        for (dx, dy) in DIRECTIONS {
            for k in [-2, -1, 1, 2] {
                let (x, y) = (q.x as i32 + k * dx, q.y as i32 + k * dy);
                if self.grid.get(x, y).is_none() {
                    continue;
                }
                let unit: u8 = if k.abs() == 1 { 0x01 } else { 0x10 };
                let c = &mut self.neighbours[base + Point::new(x as u8, y as u8).index(size)];
                *c = if delta > 0 { c.wrapping_add(unit) } else { c.wrapping_sub(unit) };
            }
        }
    }

    /// The points where `color` would make a five.
    pub(super) fn five_points(&mut self, color: Color) -> Vec<Point> {
        let near = self.near(color, 1);
        near.into_iter()
            .filter(|&p| (0..DIRECTIONS.len()).any(|di| self.threat(p, color, di) == Threat::Five))
            .collect()
    }

    /// The attacker's forcing moves, most forcing first: fours only, or fours and threes.
    pub(super) fn attack_moves(&mut self, color: Color, fours_only: bool) -> Vec<Point> {
        let floor = if fours_only { Threat::Four } else { Threat::OpenThree };
        let mut moves: Vec<(Point, u32)> = Vec::new();
        for p in self.near(color, 2) {
            let (t, rank) = self.threats(p, color);
            if t >= floor && self.can_play(p, color) {
                moves.push((p, rank));
            }
        }
        moves.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        moves.into_iter().map(|(p, _)| p).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::common::test_util::position;
    use crate::rng::Rng;

    /// The line keys and neighbour counts kept up to date by make/unmake agree with the
    /// ones computed from scratch, after every move of a random sequence and after taking
    /// the moves back.
    #[test]
    fn incremental_state_matches_a_fresh_computation() {
        let check = |search: &ThreatBoard| {
            let size = search.grid.size();
            for p in search.grid.points() {
                for (di, &d) in DIRECTIONS.iter().enumerate() {
                    for color in [Color::Black, Color::White] {
                        let slot = key_slot(p.index(size), di, color.index());
                        let key = line_key(&search.grid, p, d, code(color)) as u32;
                        assert_eq!(search.keys[slot], key, "key of {p:?} dir {di}");
                    }
                }
            }
            for color in [Color::Black, Color::White] {
                for dist in [1, 2] {
                    let mut expected: Vec<Point> = search
                        .grid
                        .empties()
                        .filter(|p| {
                            DIRECTIONS.iter().any(|&(dx, dy)| {
                                (-dist..=dist).filter(|&k| k != 0).any(|k| {
                                    search.grid.get(p.x as i32 + k * dx, p.y as i32 + k * dy)
                                        == Some(code(color))
                                })
                            })
                        })
                        .collect();
                    let mut got = search.near(color, dist);
                    expected.sort();
                    got.sort();
                    assert_eq!(got, expected, "{color:?} within {dist}");
                }
            }
        };
        let pos = position(15, Rule::Freestyle, "h8 i9 a1 o15");
        let mut search = ThreatBoard::new(&pos);
        check(&search);
        let mut rng = Rng::new(3);
        let mut played = Vec::new();
        let mut color = Color::Black;
        for _ in 0..60 {
            let empties: Vec<Point> = search.grid.empties().collect();
            let p = empties[rng.below(empties.len() as u64) as usize];
            search.make(p, color);
            played.push((p, color));
            color = color.opponent();
            check(&search);
        }
        while let Some((p, c)) = played.pop() {
            search.unmake(p, c);
        }
        check(&search);
    }
}

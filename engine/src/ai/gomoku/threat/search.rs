//! The forcing search: a small AND/OR search over fours and open threes on a board that
//! keeps every point's line keys and neighbour counts up to date on make and unmake.

use std::time::Instant;

use super::table::{line_key, threat_of, Threat, C_EMPTY, C_OPP, C_OWN};
use super::tt::Tt;
use crate::ai::control::{Control, Poll};
use crate::ai::gomoku::common::{self, code, Grid, DIRECTIONS, EMPTY};
use crate::ai::SearchInfo;
use crate::gomoku::{zobrist, Position, Rule};
use crate::{Color, Point};

/// Nodes between two looks at the clock in the forcing reading (a power of two): a node
/// costs microseconds, so the reading stops within a fraction of a millisecond of its time.
/// The control of a reading should look at its own clock as often
/// ([`Control::check_every`]); [`Search`]'s earlier stop is looked at at this rate.
pub const CHECK_EVERY: u64 = 64;

/// Where the line key of the point with index `index`, direction `DIRECTIONS[di]` and colour
/// index `color` is kept in [`Search`]'s `keys`.
#[inline(always)]
fn key_slot(index: usize, di: usize, color: usize) -> usize {
    (index * 4 + di) * 2 + color
}

/// The state of one lookahead: the board, the rule, and the search's bookkeeping.
pub(super) struct Search<'a, 'c> {
    grid: Grid,
    rule: Rule,
    /// Under Renju, a position kept in step with `grid` to ask about black's forbidden points.
    renju: Option<Position>,
    /// For each colour and point (`color * size² + index`): how many of the colour's stones
    /// lie on its four lines at distance 1 (low nibble) and at distance 2 (high nibble),
    /// kept up to date by [`Search::make`] and [`Search::unmake`].
    neighbours: Vec<u8>,
    /// The [`line_key`] of every point, direction and colour, kept up to date by
    /// [`Search::make`] and [`Search::unmake`]: a threat is one table look-up.
    keys: Vec<u32>,
    /// The Zobrist hash of `grid`, kept up to date by [`Search::make`] and [`Search::unmake`].
    hash: u64,
    /// Proven results of attacker nodes, shared by every reading of one move.
    tt: &'a mut Tt,
    /// The nodes of this search (the control counts those of the whole move).
    pub(super) nodes: u64,
    /// The move's clock, node budget, cancel flag and progress reports.
    control: &'a mut Control<'c>,
    /// An earlier stop than the control's, for a part of the reading.
    until: Option<Instant>,
    pub(super) aborted: bool,
    pub(super) seldepth: u32,
    /// The attacker's first move of the last proven attack.
    pub(super) root_move: Option<Point>,
}

impl<'a, 'c> Search<'a, 'c> {
    /// A search of `pos` under `control`, stopping at `until` if that comes first.
    pub(super) fn new(
        pos: &Position,
        tt: &'a mut Tt,
        control: &'a mut Control<'c>,
        until: Option<Instant>,
    ) -> Search<'a, 'c> {
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
        let mut search = Search {
            rule: pos.rule(),
            renju: (pos.rule() == Rule::Renju).then(|| pos.clone()),
            grid,
            neighbours: vec![0; 2 * size * size],
            keys,
            hash: pos.hash(),
            tt,
            nodes: 0,
            control,
            until,
            aborted: false,
            seldepth: 0,
            root_move: None,
        };
        for p in search.grid.points().collect::<Vec<_>>() {
            for color in [Color::Black, Color::White] {
                if search.grid.at(p) == code(color) {
                    search.count_neighbours(p, color, 1);
                }
            }
        }
        search
    }

    /// Counts a node; whether the search must stop (time, nodes or cancel, as the control
    /// says, or `until`), remembering the answer.
    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        match self.control.poll() {
            Poll::Go => {}
            Poll::Stop => self.aborted = true,
            Poll::Report => {
                let mut info = SearchInfo { seldepth: self.seldepth, ..SearchInfo::default() };
                self.control.stamp(&mut info);
                self.control.send(&info);
            }
        }
        if let Some(until) = self.until {
            // The control looks at its own clock; the earlier stop is looked at as often.
            if self.nodes & (CHECK_EVERY - 1) == 0 && Instant::now() >= until {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// What a stone of `color` on the empty point `p` makes along direction `DIRECTIONS[di]`.
    #[inline]
    fn threat(&self, p: Point, color: Color, di: usize) -> Threat {
        let key = self.keys[key_slot(p.index(self.grid.size()), di, color.index())];
        threat_of(key as usize, common::overline_wins(self.rule, color))
    }

    /// Writes the cell `q` (now holding `value`, a stone code or [`EMPTY`]) into the line
    /// keys of the points whose lines run through it.
    fn update_keys(&mut self, q: Point, value: u8) {
        let size = self.grid.size();
        for (di, (dx, dy)) in DIRECTIONS.into_iter().enumerate() {
            for k in 1..=5 {
                for (sign, shift) in [(-1, 2 * (k + 4)), (1, 2 * (k - 1))] {
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
    fn threats(&mut self, p: Point, color: Color) -> (Threat, u32) {
        let (mut best, mut rank) = (Threat::None, 0);
        for di in 0..DIRECTIONS.len() {
            let t = self.threat(p, color, di);
            best = best.max(t);
            rank += [0, 10, 40, 1000, 10_000][t as usize];
        }
        (best, rank)
    }

    /// Whether `color` may play the empty point `p` (not forbidden for black under Renju).
    fn can_play(&self, p: Point, color: Color) -> bool {
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
    fn near(&self, color: Color, dist: i32) -> Vec<Point> {
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
    fn five_points(&mut self, color: Color) -> Vec<Point> {
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

    /// The attacker (`a`) to move: can it force a five within `depth` forcing moves (then
    /// up to `vcf` continuous fours)? `pending` is its last forcing move when that threat
    /// still stands (the defender answered it with a four of its own).
    pub(super) fn attacker(
        &mut self,
        a: Color,
        depth: u32,
        vcf: u32,
        ply: u32,
        pending: Option<Point>,
    ) -> bool {
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_budget() {
            return false;
        }
        let d = a.opponent();
        if !self.five_points(a).is_empty() {
            return true;
        }
        let threats = self.five_points(d);
        if !threats.is_empty() {
            // The defender's counter-four must be blocked first.
            if threats.len() > 1 || !self.can_play(threats[0], a) {
                return false;
            }
            let b = threats[0];
            self.make(b, a);
            let won = self.defender(a, depth, vcf, ply + 1, pending.unwrap_or(b));
            self.unmake(b, a);
            if won && ply == 0 {
                self.root_move = Some(b);
            }
            return won;
        }
        if depth == 0 && vcf == 0 {
            return false;
        }
        // A proven result stands for this position whatever the order of the moves to it;
        // the root is searched afresh for its move, and a pending threat changes the
        // defender's replies, so neither is cached.
        if ply == 0 || pending.is_some() {
            return self.attack_with_moves(a, depth, vcf, ply);
        }
        let key = Tt::key(self.hash, a, depth, vcf);
        if let Some(won) = self.tt.get(key) {
            return won;
        }
        let won = self.attack_with_moves(a, depth, vcf, ply);
        if !self.aborted {
            self.tt.put(key, won);
        }
        won
    }

    /// The attacker's forcing moves tried in turn (see [`Search::attacker`]).
    fn attack_with_moves(&mut self, a: Color, depth: u32, vcf: u32, ply: u32) -> bool {
        let fours_only = depth == 0;
        for m in self.attack_moves(a, fours_only) {
            self.make(m, a);
            let won = if fours_only {
                self.defender(a, 0, vcf - 1, ply + 1, m)
            } else {
                self.defender(a, depth - 1, vcf, ply + 1, m)
            };
            self.unmake(m, a);
            if won {
                if ply == 0 {
                    self.root_move = Some(m);
                }
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        false
    }

    /// The defender to move after the attacker `a`'s forcing move `threat`: does every
    /// defence lose?
    fn defender(&mut self, a: Color, depth: u32, vcf: u32, ply: u32, threat: Point) -> bool {
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_budget() {
            return false;
        }
        let d = a.opponent();
        if !self.five_points(d).is_empty() {
            return false;
        }
        let fives = self.five_points(a);
        if fives.len() > 1 {
            return true;
        }
        if let Some(&b) = fives.first() {
            if !self.can_play(b, d) {
                return true;
            }
            self.make(b, d);
            let won = self.attacker(a, depth, vcf, ply + 1, None);
            self.unmake(b, d);
            return won;
        }
        // No four: the threat must be an open three (a point on one of its lines makes an
        // open four). The defences: the points of those lines where the attacker would make
        // a four, and the defender's own fours.
        let mut open_four = false;
        let mut replies = Vec::new();
        for (di, dir) in DIRECTIONS.into_iter().enumerate() {
            for k in (-5..=5).filter(|&k| k != 0) {
                let (x, y) = (threat.x as i32 + k * dir.0, threat.y as i32 + k * dir.1);
                if self.grid.get(x, y) != Some(EMPTY) {
                    continue;
                }
                let p = Point::new(x as u8, y as u8);
                let t = self.threat(p, a, di);
                open_four |= t >= Threat::OpenFour;
                if t >= Threat::Four && !replies.contains(&p) {
                    replies.push(p);
                }
            }
        }
        if !open_four {
            return false;
        }
        for p in self.near(d, 2) {
            if self.threats(p, d).0 >= Threat::Four && !replies.contains(&p) {
                replies.push(p);
            }
        }
        for r in replies {
            if !self.can_play(r, d) {
                continue;
            }
            self.make(r, d);
            let won = self.attacker(a, depth, vcf, ply + 1, Some(threat));
            self.unmake(r, d);
            if !won || self.aborted {
                return false;
            }
        }
        true
    }

    /// Iterative deepening of `attacker` for `a` up to `max_moves` forcing moves; the
    /// attacker's first move and the depth when an attack is proven.
    #[cfg(test)]
    fn find_attack(&mut self, a: Color, max_moves: u32, vcf: u32) -> Option<(Point, u32)> {
        for depth in 1..=max_moves {
            self.root_move = None;
            if self.attacker(a, depth, vcf, 0, None) {
                return self.root_move.map(|m| (m, depth));
            }
            if self.aborted {
                break;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::common::test_util::position;
    use crate::ai::{CancelFlag, Limits};
    use crate::rng::Rng;

    /// Continuous fours read after the attack's forcing moves in these tests.
    const VCF: u32 = 6;

    /// The line keys and neighbour counts kept up to date by make/unmake agree with the
    /// ones computed from scratch, after every move of a random sequence and after taking
    /// the moves back.
    #[test]
    fn incremental_state_matches_a_fresh_computation() {
        let check = |search: &Search| {
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
        let cancel = CancelFlag::new();
        let mut progress = |_: &SearchInfo| {};
        let mut control = Control::fixed(&Limits::default(), &cancel, &mut progress);
        let pos = position(15, Rule::Freestyle, "h8 i9 a1 o15");
        let mut tt = Tt::new();
        let mut search = Search::new(&pos, &mut tt, &mut control, None);
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

    #[test]
    fn the_transposition_table_changes_no_result() {
        // Every position of an arena game (lookahead vs pattern), read for both sides with
        // and without the table: the same answers, in fewer nodes with it.
        let game = "h8 f10 e11 g10 f11 e12 g11 d11 e10 h10 g12 d9 f13 h11 e8 j13 i12 h13 h12 \
                    j12 j14 i11 k13 l12 j10 e9 g9 d10 d12 i13 k11 k14 b9 l11 l13 l10 k12 f8";
        let moves: Vec<&str> = game.split_whitespace().collect();
        let cancel = CancelFlag::new();
        let (mut with, mut without, mut wins) = (0, 0, 0);
        for k in (6..moves.len()).step_by(3) {
            let pos = position(15, Rule::Freestyle, &moves[..k].join(" "));
            for color in [Color::Black, Color::White] {
                let (mut table, mut none) = (Tt::new(), Tt::disabled());
                let mut progress = |_: &SearchInfo| {};
                let mut control = Control::fixed(&Limits::default(), &cancel, &mut progress);
                let mut cached = Search::new(&pos, &mut table, &mut control, None);
                let a = cached.find_attack(color, 2, VCF);
                let mut progress = |_: &SearchInfo| {};
                let mut control = Control::fixed(&Limits::default(), &cancel, &mut progress);
                let mut plain = Search::new(&pos, &mut none, &mut control, None);
                let b = plain.find_attack(color, 2, VCF);
                assert_eq!(a.is_some(), b.is_some(), "after {k} moves, {color:?}");
                with += cached.nodes;
                without += plain.nodes;
                wins += usize::from(a.is_some());
            }
        }
        assert!(wins > 0, "the game has forcing wins to find");
        assert!(with < without, "{with} nodes with the table, {without} without");
    }
}

//! VCF: victory by continuous fours.
//!
//! The attacker (the side to move) plays only fours; each four leaves the defender exactly
//! one reply, the five point. The attacker wins when it gets a five point the defender cannot
//! take away: two five points at once, an open four, or (Renju, attacker white) a five point
//! that is forbidden for black. Failed positions are cached by Zobrist hash and depth.

use std::time::Instant;

use super::board::Board;
use super::movegen::renju_black;
use super::pattern::p4;
use crate::ai::CancelFlag;

/// One remembered result of a threat search.
#[derive(Clone, Copy, Default)]
struct CacheEntry {
    key: u64,
    depth: i16,
    win: bool,
}

/// Hash -> result cache for a threat solver.
pub struct ThreatCache {
    entries: Vec<CacheEntry>,
}

impl ThreatCache {
    /// A cache with `2^bits` entries.
    pub fn new(bits: u32) -> ThreatCache {
        ThreatCache { entries: vec![CacheEntry::default(); 1 << bits] }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = CacheEntry::default());
    }

    /// A known result valid at `depth`: a win found with no more depth, or a failure with at
    /// least this depth.
    #[inline]
    pub fn probe(&self, key: u64, depth: i32) -> Option<bool> {
        let e = &self.entries[key as usize & (self.entries.len() - 1)];
        if e.key != key {
            return None;
        }
        if e.win && e.depth as i32 <= depth {
            Some(true)
        } else if !e.win && e.depth as i32 >= depth {
            Some(false)
        } else {
            None
        }
    }

    #[inline]
    pub fn store(&mut self, key: u64, depth: i32, win: bool) {
        let n = self.entries.len();
        self.entries[key as usize & (n - 1)] = CacheEntry { key, depth: depth as i16, win };
    }
}

/// Budget and stop conditions shared by the threat solvers.
pub struct Budget {
    /// Nodes visited so far by this solver.
    pub nodes: u64,
    /// Stop after this many nodes (per call).
    pub limit: u64,
    pub deadline: Option<Instant>,
    pub cancel: Option<CancelFlag>,
    /// Set when the budget ran out; the answer is then "no win found".
    pub aborted: bool,
}

impl Budget {
    pub fn new(limit: u64) -> Budget {
        Budget { nodes: 0, limit, deadline: None, cancel: None, aborted: false }
    }

    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        let out_of_nodes = self.nodes >= self.limit;
        let out_of_time = self.nodes & 255 == 0
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.cancel.as_ref().is_some_and(|c| c.is_cancelled()));
        if out_of_nodes || out_of_time {
            self.aborted = true;
        }
        self.aborted
    }
}

/// The VCF solver.
pub struct Vcf {
    cache: ThreatCache,
    /// The winning line of the last successful [`Vcf::solve`], attacker's move first.
    pub line: Vec<usize>,
    path: Vec<usize>,
    scratch: Vec<Vec<usize>>,
}

impl Vcf {
    pub fn new(cache_bits: u32) -> Vcf {
        Vcf {
            cache: ThreatCache::new(cache_bits),
            line: Vec::new(),
            path: Vec::new(),
            scratch: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.cache.clear();
    }

    /// Whether the side to move wins by continuous fours within `depth` plies. On success
    /// [`Vcf::line`] holds the moves, the final five included.
    pub fn solve(&mut self, board: &mut Board, depth: i32, budget: &mut Budget) -> bool {
        self.path.clear();
        self.line.clear();
        budget.aborted = false;
        self.attack(board, depth, budget, 0)
    }

    /// Records the current path (plus the final five, if any) as the winning line.
    fn found(&mut self, last: Option<usize>) -> bool {
        self.line.clear();
        self.line.extend_from_slice(&self.path);
        self.line.extend(last);
        true
    }

    fn attack(&mut self, board: &mut Board, depth: i32, budget: &mut Budget, level: usize) -> bool {
        if budget.tick() {
            return false;
        }
        let att = board.side();
        let def = att ^ 1;
        if let Some(f) = first_of_class(board, att, p4::A_FIVE) {
            return self.found(Some(f));
        }
        if self.scratch.len() <= level {
            self.scratch.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.scratch[level]);
        moves.clear();
        if board.has_five(def) {
            board.cells_of_class(def, p4::A_FIVE, &mut moves);
            if moves.len() != 1 || !p4::is_four(board.class(moves[0], att)) {
                self.scratch[level] = moves;
                return false;
            }
        } else {
            if let Some(f) = first_of_class(board, att, p4::B_FLEX4) {
                self.scratch[level] = moves;
                return self.found(Some(f));
            }
            four_moves(board, att, &mut moves);
        }
        if depth <= 0 || moves.is_empty() {
            self.scratch[level] = moves;
            return false;
        }
        let key = board.hash();
        if self.cache.probe(key, depth) == Some(false) {
            self.scratch[level] = moves;
            return false;
        }
        let mut win = false;
        for &m in moves.iter() {
            if self.try_four(board, m, depth, budget, level) {
                win = true;
                break;
            }
            if budget.aborted {
                break;
            }
        }
        self.scratch[level] = moves;
        if !win && !budget.aborted {
            self.cache.store(key, depth, false);
        }
        win
    }

    /// Plays four `m`, the forced block, and continues.
    fn try_four(
        &mut self,
        board: &mut Board,
        m: usize,
        depth: i32,
        budget: &mut Budget,
        level: usize,
    ) -> bool {
        let att = board.side();
        let def = att ^ 1;
        board.make(m);
        self.path.push(m);
        let result = if board.has_five(def) {
            false
        } else {
            let (n, f) = board.five_points_through(m, att);
            if n >= 2 {
                self.found(None)
            } else if n == 0 {
                false
            } else if renju_black(board, def) && board.is_forbidden(f) {
                self.found(None)
            } else {
                board.make(f);
                self.path.push(f);
                let r = self.attack(board, depth - 2, budget, level + 1);
                self.path.pop();
                board.unmake();
                r
            }
        };
        self.path.pop();
        board.unmake();
        result
    }
}

/// The first empty cell where colour `c` has class `class`.
pub fn first_of_class(board: &Board, c: usize, class: u8) -> Option<usize> {
    if board.count(c, class) == 0 {
        return None;
    }
    board.board_cells().iter().copied().find(|&i| board.class(i, c) == class)
}

/// The cells where colour `c` makes a four, strongest first.
pub fn four_moves(board: &Board, c: usize, out: &mut Vec<usize>) {
    out.clear();
    if !board.has_four_move(c) {
        return;
    }
    board.push_cells_of_classes(c, &[p4::C_BLOCK4_FLEX3, p4::D_BLOCK4_PLUS, p4::E_BLOCK4], out);
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{board_from, pad};
    use super::super::board::Board;
    use super::super::pattern::BLACK;
    use super::*;
    use crate::gomoku::Rule;

    /// Replays a VCF line: every attacker move is a four, every defender move the only
    /// block, and at the end the attacker has five, or an unstoppable five point.
    pub(crate) fn check_line(board: &mut Board, line: &[usize]) {
        let att = board.side();
        for (n, &m) in line.iter().enumerate() {
            assert!(board.is_empty(m), "move {n} on an occupied cell");
            if n % 2 == 0 {
                assert_eq!(board.side(), att);
                assert!(p4::is_four(board.class(m, att)), "attacker move {n} is not a four");
            } else {
                let mut fives = Vec::new();
                board.cells_of_class(att, p4::A_FIVE, &mut fives);
                assert_eq!(fives, vec![m], "defender move {n} is not the only block");
            }
            board.make(m);
        }
        let won = if line.len() % 2 == 1 {
            let last = *line.last().unwrap();
            board.unmake();
            let five = board.class(last, att) == p4::A_FIVE;
            board.make(last);
            five || board.count(att, p4::A_FIVE) >= 2 || {
                let mut f = Vec::new();
                board.cells_of_class(att, p4::A_FIVE, &mut f);
                renju_black(board, att ^ 1) && f.len() == 1 && board.is_forbidden(f[0])
            }
        } else {
            false
        };
        for _ in line {
            board.unmake();
        }
        assert!(won, "the line does not end in a win");
    }

    const DOUBLE_FOUR_VCF: [&str; 13] = [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...oxxx........",
        ".....o.........",
        "...oxxx........",
        ".......x.......",
        ".......x.......",
        ".......o.......",
    ];

    #[test]
    fn finds_a_vcf_ending_in_a_double_four() {
        // Black: four at (7,7) or (7,9), the forced block, then the other makes two fours.
        let mut b = board_from(&pad(&DOUBLE_FOUR_VCF), Rule::Freestyle, 0);
        let mut vcf = Vcf::new(12);
        assert!(vcf.solve(&mut b, 20, &mut Budget::new(100_000)));
        let line = vcf.line.clone();
        let pts: Vec<_> = line.iter().map(|&i| b.point(i)).collect();
        assert!(line.len() >= 3, "{pts:?}");
        check_line(&mut b, &line);
        // No depth: no four may be tried.
        assert!(!vcf.solve(&mut b, 0, &mut Budget::new(100_000)));
        // White, to move in the same position, has no VCF.
        let mut white = board_from(&pad(&DOUBLE_FOUR_VCF), Rule::Freestyle, 1);
        assert!(!vcf.solve(&mut white, 20, &mut Budget::new(100_000)));
    }

    #[test]
    fn no_vcf_without_fours() {
        let mut b = board_from(
            &pad(&["...............", "...............", "......x........", ".......x......."]),
            Rule::Freestyle,
            0,
        );
        let mut vcf = Vcf::new(12);
        assert!(!vcf.solve(&mut b, 20, &mut Budget::new(100_000)));
        let _ = BLACK;
    }

    #[test]
    fn renju_white_wins_on_a_forbidden_block() {
        // White's four (11,7) leaves black only (7,7), a double three for black.
        let rows = pad(&[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".......x.......",
            ".......x.......",
            "......x.ooo.x..",
            "......x........",
            ".....x.........",
        ]);
        let mut b = board_from(&rows, Rule::Renju, 1);
        let at = |b: &Board, x, y| b.index(crate::Point::new(x, y));
        assert!(b.is_forbidden(at(&b, 7, 7)));
        let mut vcf = Vcf::new(12);
        // Depth 1: a single four must already win.
        assert!(vcf.solve(&mut b, 1, &mut Budget::new(10_000)));
        assert_eq!(vcf.line, vec![at(&b, 11, 7)]);
        check_line(&mut b.clone(), &vcf.line.clone());
        // Without Renju the same four is simply blocked.
        let mut free = board_from(&rows, Rule::Standard, 1);
        assert!(!vcf.solve(&mut free, 1, &mut Budget::new(10_000)));
    }
}

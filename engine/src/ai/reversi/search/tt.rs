//! The transposition table: one entry per bucket, keyed by the full board (no collisions),
//! holding a lower and an upper bound of the position's value at some depth and the best
//! move found there. Shared by the threads of a search (Lazy SMP): each entry is four
//! atomic words, the board stored xor the data, so a half-written entry (two threads
//! storing at once) shows a board no search asks for and is ignored.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::ai::reversi::board::Board;

/// "No move" in an entry.
pub const NO_MOVE: u8 = 64;

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    p: u64,
    o: u64,
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// Depth the bounds are valid for (capped at the empties: deeper is the same).
    pub depth: u8,
    /// Best move found (or [`NO_MOVE`]).
    pub best: u8,
    age: u8,
}

/// One entry in memory: `p ^ data`, `o ^ data`, the bounds, and depth, move and age
/// (`data` is the xor of the last two words). All zero: empty.
#[derive(Default)]
struct Slot([AtomicU64; 4]);

impl Slot {
    #[inline]
    fn load(&self) -> Entry {
        let w = |i: usize| self.0[i].load(Ordering::Relaxed);
        let (bounds, rest) = (w(2), w(3));
        let data = bounds ^ rest;
        Entry {
            p: w(0) ^ data,
            o: w(1) ^ data,
            lower: bounds as u32 as i32,
            upper: (bounds >> 32) as u32 as i32,
            depth: rest as u8,
            best: (rest >> 8) as u8,
            age: (rest >> 16) as u8,
        }
    }

    #[inline]
    fn save(&self, e: &Entry) {
        let bounds = e.lower as u32 as u64 | (e.upper as u32 as u64) << 32;
        let rest = e.depth as u64 | (e.best as u64) << 8 | (e.age as u64) << 16;
        let data = bounds ^ rest;
        for (i, v) in [e.p ^ data, e.o ^ data, bounds, rest].into_iter().enumerate() {
            self.0[i].store(v, Ordering::Relaxed);
        }
    }
}

/// A fixed-size table of bounds. Its memory is taken by the first [`Table::new_search`] (a
/// searcher that never searches costs nothing) and given back by [`Table::release`].
pub struct Table {
    entries: Vec<Slot>,
    mask: usize,
    age: u8,
}

impl Table {
    /// A table of `2^bits` entries (32 bytes each).
    pub fn new(bits: u32) -> Table {
        let n = 1usize << bits;
        Table { entries: Vec::new(), mask: n - 1, age: 0 }
    }

    /// An empty table of the same size, not allocated yet.
    pub fn fresh(&self) -> Table {
        Table { entries: Vec::new(), mask: self.mask, age: 0 }
    }

    /// Bytes held now (0 before the first search and after [`Table::release`]).
    pub fn allocated_bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Slot>()
    }

    /// Takes the table's memory, empty, if it is not held yet. Until then probes find
    /// nothing and stores are dropped.
    pub fn allocate(&mut self) {
        if self.entries.is_empty() {
            self.entries = std::iter::repeat_with(Slot::default).take(self.mask + 1).collect();
        }
    }

    /// Forgets everything (the memory is kept if held).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|s| *s = Slot::default());
        self.age = 0;
    }

    /// Forgets everything and gives the memory back; the next search takes it again.
    pub fn release(&mut self) {
        self.entries = Vec::new();
        self.age = 0;
    }

    /// Marks the start of a new search: older entries are replaced first. Takes the
    /// table's memory if it is not held yet (probes and stores need it).
    pub fn new_search(&mut self) {
        self.allocate();
        self.age = self.age.wrapping_add(1);
    }

    /// The entry of `b`, if stored.
    #[inline]
    pub fn probe(&self, b: &Board) -> Option<Entry> {
        let e = self.entries.get(b.hash() as usize & self.mask)?.load();
        (e.p == b.p && e.o == b.o && (e.p | e.o) != 0).then_some(e)
    }

    /// Stores the result of a search of `b` at `depth` with window (`alpha`, `beta`) that
    /// returned `value` with best move `best`.
    #[inline]
    pub fn store(&self, b: &Board, depth: u32, alpha: i32, beta: i32, value: i32, best: u8) {
        let Some(cell) = self.entries.get(b.hash() as usize & self.mask) else { return };
        let slot = cell.load();
        let depth = depth.min(255) as u8;
        let same = slot.p == b.p && slot.o == b.o;
        if !same && slot.age == self.age && slot.depth > depth {
            return;
        }
        let (mut lower, mut upper) = if same && slot.depth == depth {
            (slot.lower, slot.upper)
        } else {
            (i32::MIN, i32::MAX)
        };
        if value > alpha {
            lower = lower.max(value);
        }
        if value < beta {
            upper = upper.min(value);
        }
        if lower > upper {
            // Inconsistent with an older bound (cannot happen with a consistent search);
            // keep the new information only.
            lower = if value > alpha { value } else { i32::MIN };
            upper = if value < beta { value } else { i32::MAX };
        }
        cell.save(&Entry { p: b.p, o: b.o, lower, upper, depth, best, age: self.age });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_stored_and_merged() {
        let mut t = Table::new(10);
        assert_eq!(t.allocated_bytes(), 0, "nothing is allocated before a search");
        t.new_search();
        assert_eq!(t.allocated_bytes(), 1024 * 32);
        let b = Board::initial();
        assert!(t.probe(&b).is_none());
        t.store(&b, 3, 0, 10, 20, 19); // fail high: lower bound 20
        let e = t.probe(&b).unwrap();
        assert_eq!((e.lower, e.upper, e.depth, e.best), (20, i32::MAX, 3, 19));
        t.store(&b, 3, 20, 30, 25, 26); // exact 25
        let e = t.probe(&b).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (25, 25, 26));
        t.store(&b, 5, 0, 10, -4, 37); // deeper fail low replaces the bounds
        let e = t.probe(&b).unwrap();
        assert_eq!((e.lower, e.upper, e.depth), (i32::MIN, -4, 5));
        assert!(t.probe(&b.pass()).is_none());
        t.clear();
        assert!(t.probe(&b).is_none());
    }

    #[test]
    fn threads_storing_at_once_never_show_a_torn_entry() {
        let mut t = Table::new(4); // 16 entries: the threads meet in every one
        t.new_search();
        let t = &t;
        let boards: Vec<Board> = {
            let mut v = vec![Board::initial()];
            for sq in crate::ai::reversi::board::squares(Board::initial().moves()) {
                let b = Board::initial().play(sq);
                v.extend(crate::ai::reversi::board::squares(b.moves()).map(|s| b.play(s)));
            }
            v
        };
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for k in 0..20_000usize {
                        let b = &boards[k % boards.len()];
                        // Each board's bounds follow from the board: a hit shows exactly them.
                        let v = (b.p.count_ones() * 100 + b.o.count_ones()) as i32;
                        t.store(b, 3, -1000, 1000, v, (b.p.trailing_zeros() % 64) as u8);
                        if let Some(e) = t.probe(b) {
                            assert_eq!((e.lower, e.upper, e.depth), (v, v, 3));
                        }
                    }
                });
            }
        });
    }
}

//! The solver's transposition table: exact positions (both bitboards are stored, so there
//! are no false hits), score bounds and the best move found.
//!
//! Endgame scores do not depend on the path, and the number of empty squares is fixed by the
//! position, so an entry is valid for any later search of the same position, including
//! searches of other root positions with the same solver.
//!
//! Buckets of two entries: the first keeps the entry with more empties (more work behind
//! it), the second is always replaced.

/// No move stored.
pub const NO_MOVE: u8 = 64;

/// One stored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub p: u64,
    pub o: u64,
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// Best (or refuting) move, or [`NO_MOVE`].
    pub mv: u8,
    /// Empty squares of the position (the work the entry stands for).
    pub empties: u8,
}

const EMPTY: Entry = Entry { p: 0, o: 0, lower: -64, upper: 64, mv: NO_MOVE, empties: 0 };

/// What a probe learnt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    pub mv: u8,
}

/// Two entries in one 64-byte cache line: a probe costs at most one memory access.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket([Entry; 2]);

/// A fixed-size table of `2^bits` entries (`2^(bits - 1)` buckets).
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
}

#[inline(always)]
fn hash(p: u64, o: u64) -> u64 {
    let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ o.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^ (h >> 31)
}

impl Table {
    /// A table of `2^bits` entries (32 bytes each, two per cache line); `bits` is clamped
    /// to 4..=28.
    pub fn new(bits: u32) -> Table {
        let bits = bits.clamp(4, 28);
        Table { buckets: vec![Bucket([EMPTY; 2]); 1 << (bits - 1)], mask: (1 << (bits - 1)) - 1 }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket([EMPTY; 2]));
    }

    #[inline(always)]
    fn bucket(&self, p: u64, o: u64) -> usize {
        hash(p, o) as usize & self.mask
    }

    /// Asks the processor to start loading the bucket of this position, so that a probe
    /// soon after does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = &self.buckets[self.bucket(p, o)] as *const Bucket as *const i8;
            // SAFETY: prefetching has no effect on program state; the address is in bounds.
            unsafe { core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    /// The bounds and move stored for this position, if any.
    #[inline]
    pub fn probe(&self, p: u64, o: u64) -> Option<Hit> {
        let i = self.bucket(p, o);
        for e in &self.buckets[i].0 {
            if e.p == p && e.o == o && e.empties != 0 {
                return Some(Hit { lower: e.lower as i32, upper: e.upper as i32, mv: e.mv });
            }
        }
        None
    }

    /// Records that the score of the position (with `empties` empty squares) searched with
    /// the window `(alpha, beta)` came out as `score` (fail-soft), with best move `mv`.
    #[inline]
    pub fn store(&mut self, p: u64, o: u64, empties: u32, window: (i32, i32), score: i32, mv: u8) {
        let (alpha, beta) = window;
        let (lower, upper) = if score <= alpha {
            (-64, score)
        } else if score >= beta {
            (score, 64)
        } else {
            (score, score)
        };
        let bucket = self.bucket(p, o);
        let empties = empties.max(1) as u8;
        let slots = &mut self.buckets[bucket].0;
        // Same position: tighten its bounds.
        for e in slots.iter_mut() {
            if e.p == p && e.o == o && e.empties != 0 {
                let (l, u) = (lower.max(e.lower as i32), upper.min(e.upper as i32));
                if l <= u {
                    e.lower = l as i8;
                    e.upper = u as i8;
                } else {
                    e.lower = lower as i8;
                    e.upper = upper as i8;
                }
                if mv != NO_MOVE {
                    e.mv = mv;
                }
                return;
            }
        }
        let new = Entry { p, o, lower: lower as i8, upper: upper as i8, mv, empties };
        if slots[0].empties <= empties {
            slots[1] = slots[0];
            slots[0] = new;
        } else {
            slots[1] = new;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_tightens_bounds() {
        let mut t = Table::new(8);
        assert_eq!(t.probe(1, 2), None);
        t.store(1, 2, 10, (0, 1), 4, 17); // fail high: score >= 4
        assert_eq!(t.probe(1, 2), Some(Hit { lower: 4, upper: 64, mv: 17 }));
        t.store(1, 2, 10, (6, 7), 6, NO_MOVE); // fail low: score <= 6
        assert_eq!(t.probe(1, 2), Some(Hit { lower: 4, upper: 6, mv: 17 }));
        t.store(1, 2, 10, (-64, 64), 5, 9);
        assert_eq!(t.probe(1, 2), Some(Hit { lower: 5, upper: 5, mv: 9 }));
        assert_eq!(t.probe(2, 1), None);
        t.clear();
        assert_eq!(t.probe(1, 2), None);
    }

    #[test]
    fn deeper_entries_survive_collisions() {
        let mut t = Table::new(4); // 8 buckets: many collisions
        t.store(100, 200, 20, (-64, 64), 2, 3);
        for k in 0..1000u64 {
            t.store(k * 7 + 1, k * 13 + 5, 6, (-64, 64), 0, 1);
        }
        assert_eq!(t.probe(100, 200), Some(Hit { lower: 2, upper: 2, mv: 3 }));
    }
}

//! The solver's transposition table: exact positions (both bitboards are stored, so there
//! are no false hits), score bounds and the best move found.
//!
//! Endgame scores do not depend on the path, and the number of empty squares is fixed by the
//! position, so an entry is valid for any later search of the same position, including
//! searches of other root positions with the same solver.
//!
//! Entries also record the selectivity level of the search that produced their bounds
//! ([`EXACT`] for the exact search; lower levels come from the selective ProbCut passes,
//! whose bounds are only likely). A search uses stored bounds only from its own level or
//! above, but it always tries the stored move first.
//!
//! Buckets of two entries: the first keeps the entry with more empties (more work behind
//! it), the second is always replaced.
//!
//! The threads of a parallel solve share one table ([`TableRef::Shared`]): each bucket has
//! a sequence lock in its cache line's spare bytes. A store takes it (odd while it writes);
//! a probe takes nothing: it reads the bucket's words and checks that the sequence did not
//! change meanwhile (else it counts as a miss), so probes do not write the cache line. A
//! search alone on the table holds it exclusively ([`TableRef::Own`]) and uses neither.

use std::cell::UnsafeCell;
use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

/// No move stored.
pub const NO_MOVE: u8 = 64;

/// The selectivity level of exact bounds (selective passes use `0..EXACT`).
pub const EXACT: u8 = 15;

/// One stored position. `repr(C)` with explicit padding: 24 bytes, every one written, so
/// that a shared table can read and write a bucket as words ([`Bucket::words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
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
    /// Selectivity level of the bounds ([`EXACT`]: proven).
    pub level: u8,
    pad: [u8; 3],
}

const _: () = assert!(std::mem::size_of::<[Entry; 2]>() == 6 * 8);
const _: () = assert!(std::mem::align_of::<Entry>() == std::mem::align_of::<AtomicU64>());

const EMPTY: Entry =
    Entry { p: 0, o: 0, lower: -64, upper: 64, mv: NO_MOVE, empties: 0, level: EXACT, pad: [0; 3] };

/// What a probe learnt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    pub mv: u8,
    /// Selectivity level of the bounds ([`EXACT`]: proven).
    pub level: u8,
}

impl Hit {
    /// The bounds if they are good enough for a search at selectivity `level`, else none
    /// (`-64..=64`).
    #[inline(always)]
    pub fn bounds(&self, level: u8) -> (i32, i32) {
        if self.level >= level {
            (self.lower, self.upper)
        } else {
            (-64, 64)
        }
    }
}

/// Two entries in one 64-byte cache line (with the sequence lock in the spare bytes): a
/// probe costs at most one memory access.
#[repr(C, align(64))]
struct Bucket {
    slots: UnsafeCell<[Entry; 2]>,
    /// Shared tables: odd while a store writes the slots, advanced by 2 per store.
    seq: AtomicU32,
}

impl Bucket {
    fn empty() -> Bucket {
        Bucket { slots: UnsafeCell::new([EMPTY; 2]), seq: AtomicU32::new(0) }
    }

    /// The slots as six words, for the threads of a shared table.
    #[inline(always)]
    fn words(&self) -> &[AtomicU64; 6] {
        // SAFETY: `[Entry; 2]` is 48 bytes (asserted above), aligned as `AtomicU64`, and
        // every byte of it is initialised (`repr(C)`, explicit padding); `AtomicU64` has the
        // layout of `u64`. Through `&Table` every access to the slots is an atomic one
        // through these words; the plain accesses take `&mut Table`, so they are ordered
        // with the threads' (spawned and joined by the solve that shares the table).
        unsafe { &*(self.slots.get() as *const [AtomicU64; 6]) }
    }

    /// The slots, read without a lock; `None` if a store ran meanwhile (a miss).
    #[inline]
    fn read(&self) -> Option<[Entry; 2]> {
        let before = self.seq.load(Ordering::Acquire);
        if before & 1 != 0 {
            return None;
        }
        let w = self.words();
        let words: [u64; 6] = std::array::from_fn(|i| w[i].load(Ordering::Relaxed));
        fence(Ordering::Acquire);
        if self.seq.load(Ordering::Relaxed) != before {
            return None;
        }
        // SAFETY: any 48 bytes are a valid `[Entry; 2]` (integers only); sizes asserted.
        Some(unsafe { std::mem::transmute::<[u64; 6], [Entry; 2]>(words) })
    }

    /// Runs `f` on the slots while holding the bucket's sequence lock.
    #[inline]
    fn update(&self, f: impl FnOnce(&mut [Entry; 2])) {
        let mut seq = self.seq.load(Ordering::Relaxed);
        loop {
            if seq & 1 == 0 {
                match self.seq.compare_exchange_weak(
                    seq,
                    seq.wrapping_add(1),
                    Ordering::Acquire,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => break,
                    Err(now) => seq = now,
                }
            } else {
                std::hint::spin_loop();
                seq = self.seq.load(Ordering::Relaxed);
            }
        }
        fence(Ordering::Release);
        let w = self.words();
        let words: [u64; 6] = std::array::from_fn(|i| w[i].load(Ordering::Relaxed));
        // SAFETY: as in `read`; the lock is held, so the words are one whole state.
        let mut slots = unsafe { std::mem::transmute::<[u64; 6], [Entry; 2]>(words) };
        f(&mut slots);
        // SAFETY: every byte of an `Entry` is initialised (explicit padding).
        let words = unsafe { std::mem::transmute::<[Entry; 2], [u64; 6]>(slots) };
        for (a, v) in w.iter().zip(words) {
            a.store(v, Ordering::Relaxed);
        }
        self.seq.store(seq.wrapping_add(2), Ordering::Release);
    }
}

// SAFETY: through `&Table` the slots are only read and written as atomic words, stores
// under their bucket's sequence lock (`probe_shared`, `store_shared`; `prefetch` only
// hints an address); the plain paths take `&mut Table`.
unsafe impl Sync for Table {}

/// A fixed-size table of `2^bits` entries (`2^(bits - 1)` buckets). Its memory is taken by
/// [`Table::allocate`], which every search calls first ([`super::search::Search::new`]), so
/// a solver that never solves costs nothing; [`Table::release`] gives it back.
pub struct Table {
    buckets: Vec<Bucket>,
    /// Buckets once allocated, less one.
    mask: usize,
}

#[inline(always)]
fn hash(p: u64, o: u64) -> u64 {
    let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ o.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^ (h >> 31)
}

/// Asks Linux to back the (not yet touched) memory `addr..addr + len` with 2 MiB pages
/// where it can: the table is probed at random, and with 4 KiB pages most probes of a
/// large table also miss the address-translation cache. Only a hint; errors are ignored.
#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: usize, len: usize) {
    const PAGE: usize = 4096;
    const MADV_HUGEPAGE: i32 = 14;
    extern "C" {
        fn madvise(addr: *mut core::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    let start = addr.next_multiple_of(PAGE);
    let end = (addr + len) / PAGE * PAGE;
    if end > start + (2 << 20) {
        // SAFETY: the range lies inside our own allocation, and MADV_HUGEPAGE changes
        // neither its contents nor its validity.
        unsafe { madvise(start as *mut core::ffi::c_void, end - start, MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: usize, _len: usize) {}

impl Table {
    /// A table of `2^bits` entries (32 bytes each, two per cache line); `bits` is clamped
    /// to 4..=28.
    pub fn new(bits: u32) -> Table {
        let bits = bits.clamp(4, 28);
        Table { buckets: Vec::new(), mask: (1usize << (bits - 1)) - 1 }
    }

    /// The bytes a table of `2^bits` entries takes (`bits` clamped as by [`Table::new`]).
    pub fn bytes_for(bits: u32) -> u64 {
        (1u64 << (bits.clamp(4, 28) - 1)) * std::mem::size_of::<Bucket>() as u64
    }

    /// Bytes held now (0 before the first search and after [`Table::release`]).
    pub fn allocated_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Takes the table's memory, empty, if it is not held yet. Probes and stores need it.
    /// If the system refuses the whole table, smaller ones are tried.
    pub fn allocate(&mut self) {
        while self.try_allocate().is_err() && self.mask > 0 {
            self.mask /= 2;
        }
    }

    /// Takes the table's memory at its full size, or says that the system refused it.
    pub fn try_allocate(&mut self) -> Result<(), std::collections::TryReserveError> {
        if self.buckets.is_empty() {
            let len = self.mask + 1;
            let mut buckets = Vec::new();
            buckets.try_reserve_exact(len)?;
            advise_huge_pages(buckets.as_mut_ptr() as usize, len * std::mem::size_of::<Bucket>());
            buckets.extend((0..len).map(|_| Bucket::empty()));
            self.buckets = buckets;
        }
        Ok(())
    }

    /// Forgets everything (the memory is kept if held).
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b.slots.get_mut() = [EMPTY; 2]);
    }

    /// Forgets everything and gives the memory back; the next search takes it again.
    pub fn release(&mut self) {
        self.buckets = Vec::new();
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
    pub fn probe(&mut self, p: u64, o: u64) -> Option<Hit> {
        let i = self.bucket(p, o);
        probe_in(self.buckets[i].slots.get_mut(), p, o)
    }

    /// [`Table::probe`] on a table other threads use too.
    #[inline]
    pub fn probe_shared(&self, p: u64, o: u64) -> Option<Hit> {
        probe_in(&self.buckets[self.bucket(p, o)].read()?, p, o)
    }

    /// [`Table::store`] on a table other threads use too.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store_shared(
        &self,
        p: u64,
        o: u64,
        empties: u32,
        level: u8,
        window: (i32, i32),
        score: i32,
        mv: u8,
    ) {
        self.buckets[self.bucket(p, o)]
            .update(|slots| store_in(slots, p, o, empties, level, window, score, mv))
    }

    /// Records that the score of the position (with `empties` empty squares) searched at
    /// selectivity `level` with the window `(alpha, beta)` came out as `score` (fail-soft),
    /// with best move `mv`. Bounds of a lower level than the stored ones are dropped (the
    /// move is kept only if none was stored); bounds of a higher level replace them.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        p: u64,
        o: u64,
        empties: u32,
        level: u8,
        window: (i32, i32),
        score: i32,
        mv: u8,
    ) {
        let bucket = self.bucket(p, o);
        let slots = self.buckets[bucket].slots.get_mut();
        store_in(slots, p, o, empties, level, window, score, mv);
    }
}

/// The table as one search uses it: alone (no locks) or shared with other threads.
pub enum TableRef<'a> {
    Own(&'a mut Table),
    Shared(&'a Table),
}

impl TableRef<'_> {
    /// The table itself (for prefetching).
    #[inline(always)]
    pub fn table(&self) -> &Table {
        match self {
            TableRef::Own(t) => t,
            TableRef::Shared(t) => t,
        }
    }

    /// See [`Table::prefetch`].
    #[inline(always)]
    pub fn prefetch(&self, p: u64, o: u64) {
        self.table().prefetch(p, o);
    }

    /// See [`Table::probe`].
    #[inline(always)]
    pub fn probe(&mut self, p: u64, o: u64) -> Option<Hit> {
        match self {
            TableRef::Own(t) => t.probe(p, o),
            TableRef::Shared(t) => t.probe_shared(p, o),
        }
    }

    /// See [`Table::store`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store(
        &mut self,
        p: u64,
        o: u64,
        empties: u32,
        level: u8,
        window: (i32, i32),
        score: i32,
        mv: u8,
    ) {
        match self {
            TableRef::Own(t) => t.store(p, o, empties, level, window, score, mv),
            TableRef::Shared(t) => t.store_shared(p, o, empties, level, window, score, mv),
        }
    }
}

/// The bounds and move stored in `slots` for this position, if any.
#[inline(always)]
fn probe_in(slots: &[Entry; 2], p: u64, o: u64) -> Option<Hit> {
    for e in slots {
        if e.p == p && e.o == o && e.empties != 0 {
            return Some(Hit {
                lower: e.lower as i32,
                upper: e.upper as i32,
                mv: e.mv,
                level: e.level,
            });
        }
    }
    None
}

/// [`Table::store`] into the bucket `slots`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn store_in(
    slots: &mut [Entry; 2],
    p: u64,
    o: u64,
    empties: u32,
    level: u8,
    window: (i32, i32),
    score: i32,
    mv: u8,
) {
    let (alpha, beta) = window;
    let (lower, upper) = if score <= alpha {
        (-64, score)
    } else if score >= beta {
        (score, 64)
    } else {
        (score, score)
    };
    let empties = empties.max(1) as u8;
    // Same position: tighten its bounds.
    for e in slots.iter_mut() {
        if e.p == p && e.o == o && e.empties != 0 {
            if level < e.level {
                if e.mv == NO_MOVE {
                    e.mv = mv;
                }
                return;
            }
            let (l, u) = if level > e.level {
                (lower, upper)
            } else {
                (lower.max(e.lower as i32), upper.min(e.upper as i32))
            };
            e.level = level;
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
    let new =
        Entry { p, o, lower: lower as i8, upper: upper as i8, mv, empties, level, pad: [0; 3] };
    if slots[0].empties <= empties {
        slots[1] = slots[0];
        slots[0] = new;
    } else {
        slots[1] = new;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_tightens_bounds() {
        let mut t = Table::new(8);
        assert_eq!(t.allocated_bytes(), 0, "nothing is allocated before a search");
        t.allocate();
        assert_eq!(t.allocated_bytes() as u64, Table::bytes_for(8));
        assert_eq!(t.probe(1, 2), None);
        t.store(1, 2, 10, EXACT, (0, 1), 4, 17); // fail high: score >= 4
        assert_eq!(t.probe(1, 2), Some(Hit { lower: 4, upper: 64, mv: 17, level: EXACT }));
        t.store(1, 2, 10, EXACT, (6, 7), 6, NO_MOVE); // fail low: score <= 6
        assert_eq!(t.probe(1, 2), Some(Hit { lower: 4, upper: 6, mv: 17, level: EXACT }));
        t.store(1, 2, 10, EXACT, (-64, 64), 5, 9);
        assert_eq!(t.probe(1, 2), Some(Hit { lower: 5, upper: 5, mv: 9, level: EXACT }));
        assert_eq!(t.probe(2, 1), None);
        t.clear();
        assert_eq!(t.probe(1, 2), None);
        t.store(1, 2, 10, EXACT, (-64, 64), 5, 9);
        t.release();
        assert_eq!(t.allocated_bytes(), 0);
        t.allocate();
        assert_eq!(t.probe(1, 2), None);
    }

    #[test]
    fn selective_bounds_never_override_exact_ones() {
        let mut t = Table::new(8);
        t.allocate();
        // A selective pass stores a bound: visible at its level, not to the exact search.
        t.store(1, 2, 20, 1, (0, 1), 8, 11);
        let hit = t.probe(1, 2).unwrap();
        assert_eq!((hit.mv, hit.level), (11, 1));
        assert_eq!(hit.bounds(1), (8, 64));
        assert_eq!(hit.bounds(0), (8, 64));
        assert_eq!(hit.bounds(EXACT), (-64, 64));
        // The exact search replaces the selective bounds (even looser ones) and move.
        t.store(1, 2, 20, EXACT, (-64, 64), 2, 12);
        let hit = t.probe(1, 2).unwrap();
        assert_eq!((hit.bounds(EXACT), hit.mv), ((2, 2), 12));
        // A later selective result leaves the exact entry alone.
        t.store(1, 2, 20, 2, (10, 11), 30, 13);
        let hit = t.probe(1, 2).unwrap();
        assert_eq!((hit.bounds(EXACT), hit.mv, hit.level), ((2, 2), 12, EXACT));
        // A higher selective level replaces a lower one's bounds instead of tightening them.
        t.store(3, 4, 20, 0, (0, 1), 8, 11);
        t.store(3, 4, 20, 1, (0, 1), -2, 5);
        let hit = t.probe(3, 4).unwrap();
        assert_eq!((hit.bounds(1), hit.mv), ((-64, -2), 5));
    }

    #[test]
    fn threads_storing_at_once_leave_whole_entries() {
        let mut t = Table::new(6); // 32 buckets: the threads meet in every one
        t.allocate();
        let t = &t;
        std::thread::scope(|s| {
            for id in 0..4u64 {
                s.spawn(move || {
                    for k in 0..20_000u64 {
                        let p = (k % 97) + 1;
                        let o = p * 31;
                        // Every store of a position has the same bounds: any entry found
                        // must show exactly them.
                        let score = (p % 60) as i32;
                        t.store_shared(p, o, 10, EXACT, (-64, 64), score, (p % 60) as u8);
                        if let Some(h) = t.probe_shared(p, o) {
                            assert_eq!((h.lower, h.upper, h.mv), (score, score, score as u8));
                        }
                        let _ = id;
                    }
                });
            }
        });
    }

    #[test]
    fn deeper_entries_survive_collisions() {
        let mut t = Table::new(4); // 8 buckets: many collisions
        t.allocate();
        t.store(100, 200, 20, EXACT, (-64, 64), 2, 3);
        for k in 0..1000u64 {
            t.store(k * 7 + 1, k * 13 + 5, 6, EXACT, (-64, 64), 0, 1);
        }
        assert_eq!(t.probe(100, 200), Some(Hit { lower: 2, upper: 2, mv: 3, level: EXACT }));
    }
}

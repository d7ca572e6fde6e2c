//! Transposition table: buckets of four 16-byte entries keyed by Zobrist hash, sized from a
//! memory budget, replacing the shallowest or oldest entry. Shared by the threads of one
//! search (Lazy SMP): entries are lockless ([`Entry`]).

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    None = 0,
    /// The true score is at most this.
    Upper = 1,
    /// The true score is at least this.
    Lower = 2,
    Exact = 3,
}

/// One stored search result: the key is stored xor the data, so a reader that catches a
/// half-written entry (another thread storing at the same time) sees a key that does not
/// match and ignores it (the lockless scheme of Hyatt and Mann). The data packs score (16
/// bits), move (16), depth (8), bound (8) and age (8).
#[derive(Default)]
#[repr(C)]
struct Entry {
    key_xor: AtomicU64,
    data: AtomicU64,
}

/// The fields of one entry's data.
#[derive(Clone, Copy)]
struct Data {
    score: i16,
    mv: u16,
    depth: i8,
    bound: u8,
    age: u8,
}

impl Data {
    #[inline]
    fn pack(self) -> u64 {
        self.score as u16 as u64
            | (self.mv as u64) << 16
            | (self.depth as u8 as u64) << 32
            | (self.bound as u64) << 40
            | (self.age as u64) << 48
    }

    #[inline]
    fn unpack(d: u64) -> Data {
        Data {
            score: d as u16 as i16,
            mv: (d >> 16) as u16,
            depth: (d >> 32) as u8 as i8,
            bound: (d >> 40) as u8,
            age: (d >> 48) as u8,
        }
    }
}

impl Entry {
    /// The entry's key and data as one consistent pair (a torn pair gives a key no search
    /// asks for).
    #[inline]
    fn load(&self) -> (u64, Data) {
        let d = self.data.load(Ordering::Relaxed);
        (self.key_xor.load(Ordering::Relaxed) ^ d, Data::unpack(d))
    }
}

/// A probe's answer.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub score: i32,
    pub mv: Option<usize>,
    pub depth: i32,
    pub bound: Bound,
}

const WAYS: usize = 4;
const NO_MOVE: u16 = u16::MAX;

/// The table. Its memory is taken on the first [`Tt::new_search`], not when it is made:
/// an engine that never searches costs nothing, and the allocation (zeroed pages from the
/// system, touched only as entries are stored) falls in the first move's time, where the
/// search clock sees it.
pub struct Tt {
    entries: Vec<Entry>,
    /// Buckets the table will have once allocated (a power of two, at least 1).
    buckets: usize,
    age: u8,
}

/// The number of buckets (a power of two, at least one) that fits in `bytes`.
fn buckets_for(bytes: usize) -> usize {
    let per_bucket = WAYS * std::mem::size_of::<Entry>();
    match (bytes / per_bucket).checked_ilog2() {
        Some(log) => 1 << log,
        None => 1,
    }
}

/// `len` zeroed entries straight from the allocator (the system's zero pages for a large
/// table: nothing is written, and untouched pages take no memory). `None` if the system
/// refuses.
fn zeroed_entries(len: usize) -> Option<Vec<Entry>> {
    let layout = std::alloc::Layout::array::<Entry>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size; `Entry` is plain integers (`repr(C)`), for
    // which all-zero bytes are a valid value (`Entry::default()`), and the pointer comes from
    // the global allocator with exactly the layout of a `Vec<Entry>` of capacity `len`.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut Entry;
        (!ptr.is_null()).then(|| Vec::from_raw_parts(ptr, len, len))
    }
}

impl Tt {
    /// A table using at most `bytes` of memory (at least one bucket), allocated on first use.
    pub fn with_bytes(bytes: usize) -> Tt {
        Tt { entries: Vec::new(), buckets: buckets_for(bytes), age: 0 }
    }

    /// Bytes the entries use once allocated.
    pub fn bytes(&self) -> usize {
        self.buckets * WAYS * std::mem::size_of::<Entry>()
    }

    /// Bytes the entries use now (0 until the first search, and after [`Tt::release`]).
    pub fn allocated_bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Forgets every entry. The memory goes back to the system and is taken again (already
    /// zeroed) by the next search, which is much faster than writing zeros over a large
    /// table.
    pub fn clear(&mut self) {
        self.release();
    }

    /// Gives the table's memory back; the next search allocates it again.
    pub fn release(&mut self) {
        self.entries = Vec::new();
        self.age = 0;
    }

    /// Takes the table's memory if it is not held yet. If the system refuses the whole
    /// table, smaller ones are tried (down to one bucket).
    fn allocate(&mut self) {
        while self.entries.is_empty() {
            match zeroed_entries(self.buckets * WAYS) {
                Some(entries) => self.entries = entries,
                None if self.buckets > 1 => self.buckets /= 2,
                None => {
                    self.entries = (0..WAYS).map(|_| Entry::default()).collect();
                }
            }
        }
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.allocate();
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 32) as usize & (self.buckets - 1)) * WAYS
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        if self.entries.is_empty() {
            return None;
        }
        let b = self.bucket(key);
        self.entries[b..b + WAYS]
            .iter()
            .map(Entry::load)
            .find(|(k, e)| *k == key && e.bound != 0)
            .map(|(_, e)| Hit {
                score: e.score as i32,
                mv: (e.mv != NO_MOVE).then_some(e.mv as usize),
                depth: e.depth as i32,
                bound: match e.bound {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => Bound::None,
                },
            })
    }

    /// Stores a result (nothing before the first [`Tt::new_search`] has taken the memory).
    /// Any thread may store while others probe.
    pub fn store(&self, key: u64, score: i32, mv: Option<usize>, depth: i32, bound: Bound) {
        if self.entries.is_empty() {
            return;
        }
        let b = self.bucket(key);
        let age = self.age;
        let mut victim = b;
        let mut old = None;
        let mut worst = i32::MAX;
        for i in b..b + WAYS {
            let (k, e) = self.entries[i].load();
            if k == key || e.bound == 0 {
                victim = i;
                old = Some((k, e));
                break;
            }
            let stale = if e.age == age { 0 } else { 64 };
            let worth = e.depth as i32 - stale;
            if worth < worst {
                worst = worth;
                victim = i;
                old = Some((k, e));
            }
        }
        let mv = match (mv, old) {
            (Some(m), _) => m as u16,
            (None, Some((k, e))) if k == key => e.mv,
            (None, _) => NO_MOVE,
        };
        let data = Data {
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            mv,
            depth: depth.clamp(-100, 100) as i8,
            bound: bound as u8,
            age,
        }
        .pack();
        let e = &self.entries[victim];
        e.data.store(data, Ordering::Relaxed);
        e.key_xor.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut tt = Tt::with_bytes(1 << 16);
        assert!(tt.bytes() <= 1 << 16);
        assert!(tt.bytes() > 1 << 15);
        assert_eq!(tt.allocated_bytes(), 0, "nothing is allocated before the first search");
        assert!(tt.probe(0xABCD_0000_1234).is_none());
        tt.new_search();
        assert_eq!(tt.allocated_bytes(), tt.bytes());
        tt.store(0xABCD_0000_1234, 55, Some(17), 6, Bound::Exact);
        let h = tt.probe(0xABCD_0000_1234).unwrap();
        assert_eq!((h.score, h.mv, h.depth, h.bound), (55, Some(17), 6, Bound::Exact));
        assert!(tt.probe(0xABCD_0000_1235).is_none());
        // Same bucket, many keys: the table keeps working and finds the latest.
        for k in 0..20u64 {
            tt.store(k << 1, k as i32, None, k as i32, Bound::Lower);
        }
        assert_eq!(tt.probe(19 << 1).unwrap().score, 19);
    }

    #[test]
    fn any_budget_gives_a_sane_size_without_spinning() {
        let bucket = WAYS * std::mem::size_of::<Entry>();
        assert_eq!(Tt::with_bytes(0).bytes(), bucket);
        assert_eq!(Tt::with_bytes(bucket * 3).bytes(), bucket * 2);
        assert_eq!(Tt::with_bytes(1 << 20).bytes(), 1 << 20);
        // The largest budgets: the old doubling loop wrapped and never ended on these.
        let huge = Tt::with_bytes(usize::MAX);
        assert!(huge.bytes().is_power_of_two());
        assert_eq!(huge.allocated_bytes(), 0);
    }

    #[test]
    fn threads_storing_at_once_never_show_a_torn_entry() {
        let mut tt = Tt::with_bytes(1 << 12); // 64 buckets: the threads meet in every one
        tt.new_search();
        let tt = &tt;
        std::thread::scope(|s| {
            for id in 0..4u64 {
                s.spawn(move || {
                    for k in 0..50_000u64 {
                        let key = (k % 211 + 1) << 32 | (id * 7 + k % 5);
                        // Each key's data follows from the key: a hit must show exactly it.
                        let score = (key % 1000) as i32;
                        tt.store(key, score, Some((key % 400) as usize), 3, Bound::Lower);
                        if let Some(h) = tt.probe(key) {
                            assert_eq!((h.score, h.mv), (score, Some((key % 400) as usize)));
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn release_gives_the_memory_back_and_clears() {
        let mut tt = Tt::with_bytes(1 << 16);
        tt.new_search();
        tt.store(42 << 32, 7, Some(3), 2, Bound::Lower);
        assert!(tt.probe(42 << 32).is_some());
        tt.release();
        assert_eq!(tt.allocated_bytes(), 0);
        assert!(tt.probe(42 << 32).is_none());
        tt.store(42 << 32, 8, None, 2, Bound::Upper);
        assert!(tt.probe(42 << 32).is_none(), "no memory, nothing stored");
        tt.new_search();
        tt.store(42 << 32, 8, None, 2, Bound::Upper);
        assert_eq!(tt.probe(42 << 32).unwrap().score, 8);
        tt.clear();
        assert!(tt.probe(42 << 32).is_none());
    }
}

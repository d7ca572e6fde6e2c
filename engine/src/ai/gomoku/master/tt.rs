//! Transposition table: buckets of four 16-byte entries keyed by Zobrist hash, sized from a
//! memory budget, replacing the shallowest or oldest entry.

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

/// One stored search result.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    score: i16,
    mv: u16,
    depth: i8,
    bound: u8,
    age: u8,
    _pad: u8,
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
                    self.entries = vec![Entry::default(); WAYS];
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
        self.entries[b..b + WAYS].iter().find(|e| e.key == key && e.bound != 0).map(|e| Hit {
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

    pub fn store(&mut self, key: u64, score: i32, mv: Option<usize>, depth: i32, bound: Bound) {
        self.allocate();
        let b = self.bucket(key);
        let age = self.age;
        let mut victim = b;
        let mut worst = i32::MAX;
        for i in b..b + WAYS {
            let e = &self.entries[i];
            if e.key == key || e.bound == 0 {
                victim = i;
                break;
            }
            let stale = if e.age == age { 0 } else { 64 };
            let worth = e.depth as i32 - stale;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let old = self.entries[victim];
        let mv = match mv {
            Some(m) => m as u16,
            None if old.key == key => old.mv,
            None => NO_MOVE,
        };
        self.entries[victim] = Entry {
            key,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            mv,
            depth: depth.clamp(-100, 100) as i8,
            bound: bound as u8,
            age,
            _pad: 0,
        };
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
    fn release_gives_the_memory_back_and_clears() {
        let mut tt = Tt::with_bytes(1 << 16);
        tt.new_search();
        tt.store(42 << 32, 7, Some(3), 2, Bound::Lower);
        assert!(tt.probe(42 << 32).is_some());
        tt.release();
        assert_eq!(tt.allocated_bytes(), 0);
        assert!(tt.probe(42 << 32).is_none());
        tt.store(42 << 32, 8, None, 2, Bound::Upper);
        assert_eq!(tt.probe(42 << 32).unwrap().score, 8);
        tt.clear();
        assert!(tt.probe(42 << 32).is_none());
    }
}

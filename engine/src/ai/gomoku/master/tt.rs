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

/// The table.
pub struct Tt {
    entries: Vec<Entry>,
    buckets: usize,
    age: u8,
}

impl Tt {
    /// A table using at most `bytes` of memory (at least one bucket).
    pub fn with_bytes(bytes: usize) -> Tt {
        let per_bucket = WAYS * std::mem::size_of::<Entry>();
        let mut buckets = 1usize;
        while buckets * 2 * per_bucket <= bytes {
            buckets *= 2;
        }
        Tt { entries: vec![Entry::default(); buckets * WAYS], buckets, age: 0 }
    }

    /// Bytes used by the entries.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
        self.age = 0;
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 32) as usize & (self.buckets - 1)) * WAYS
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
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
}

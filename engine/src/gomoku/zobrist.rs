//! Zobrist keys: one random 64-bit key per (point, colour), drawn from a fixed seed.
//!
//! One table covers the largest board; smaller boards use its top-left corner, so a point
//! has the same key on every size (positions of different sizes are never compared).

use std::sync::OnceLock;

use super::MAX_SIZE;
use crate::rng::Rng;
use crate::{Color, Point};

const SEED: u64 = 0x7465_6E67_656E_5A42; // "tengenZB"
const CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

fn table() -> &'static [[u64; 2]] {
    static TABLE: OnceLock<Vec<[u64; 2]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut rng = Rng::new(SEED);
        (0..CELLS).map(|_| [rng.next_u64(), rng.next_u64()]).collect()
    })
}

/// The key of a stone of `color` on `p` (`p` on a board of at most `MAX_SIZE`).
#[inline]
pub(crate) fn key(p: Point, color: Color) -> u64 {
    table()[p.index(MAX_SIZE)][color.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = table().iter().flatten().copied().collect();
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * CELLS);
    }
}

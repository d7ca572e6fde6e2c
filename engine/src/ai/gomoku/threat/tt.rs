//! The forcing search's transposition table.

use crate::Color;

/// Entries of the reading's transposition table (1 MiB).
const TT_ENTRIES: usize = 1 << 17;

/// Proven attacker results (a position, the attacker and its reach): forcing moves commute,
/// so the same position is reached by many orders. Direct-mapped; an entry is the key with
/// its lowest bit replaced by the result, 0 when empty.
pub(super) struct Tt {
    entries: Vec<u64>,
}

impl Tt {
    pub(super) fn new() -> Tt {
        Tt { entries: vec![0; TT_ENTRIES] }
    }

    /// The key of an attacker node: the board's hash salted with the attacker and reach.
    pub(super) fn key(hash: u64, a: Color, depth: u32, vcf: u32) -> u64 {
        let salt = (u64::from(depth) << 8 | u64::from(vcf) << 1 | a.index() as u64)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (hash ^ salt) | 1
    }

    /// A table that remembers nothing (to compare against in tests).
    #[cfg(test)]
    pub(super) fn disabled() -> Tt {
        Tt { entries: Vec::new() }
    }

    pub(super) fn get(&self, key: u64) -> Option<bool> {
        let entry = *self.entries.get((key >> 40) as usize % TT_ENTRIES)?;
        (entry | 1 == key).then_some(entry & 1 == 1)
    }

    pub(super) fn put(&mut self, key: u64, won: bool) {
        if let Some(entry) = self.entries.get_mut((key >> 40) as usize % TT_ENTRIES) {
            *entry = (key & !1) | u64::from(won);
        }
    }
}

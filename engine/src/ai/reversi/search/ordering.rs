//! Move ordering: hash move first; at larger depths the moves are sorted by a shallow
//! search, otherwise by the opponent's mobility (fewest replies first), corners, and, in
//! the endgame, parity (moves into regions with an odd number of empties first).

use crate::ai::reversi::board::Board;

/// The four quadrants, for parity.
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0f0f_0f0f, 0x0000_0000_f0f0_f0f0, 0x0f0f_0f0f_0000_0000, 0xf0f0_f0f0_0000_0000];
const CORNERS: u64 = 0x8100_0000_0000_0081;
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// Most legal moves a position can have (with room to spare).
pub const MAX_MOVES: usize = 40;

/// A list of moves with sort keys (larger key = tried earlier).
pub struct MoveList {
    items: [(i32, u8); MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// The moves of a bitboard, all with key 0.
    #[inline]
    pub fn new(moves: u64) -> MoveList {
        let mut items = [(0, 0u8); MAX_MOVES];
        let mut len = 0;
        let mut m = moves;
        while m != 0 && len < MAX_MOVES {
            items[len] = (0, m.trailing_zeros() as u8);
            m &= m - 1;
            len += 1;
        }
        MoveList { items, len }
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves and keys, mutable.
    #[inline]
    pub fn items_mut(&mut self) -> &mut [(i32, u8)] {
        &mut self.items[..self.len]
    }

    /// The moves in order.
    #[inline]
    pub fn squares(&self) -> impl Iterator<Item = u8> + '_ {
        self.items[..self.len].iter().map(|&(_, s)| s)
    }

    /// Sorts by key, largest first (stable).
    #[inline]
    pub fn sort(&mut self) {
        self.items[..self.len].sort_by_key(|&(k, _)| std::cmp::Reverse(k));
    }
}

/// Key for a move from cheap features: fewest opponent replies, corners, no X squares next
/// to empty corners, and parity when few empties remain.
#[inline]
pub fn cheap_key(b: &Board, sq: u8) -> i32 {
    let child = b.play(sq);
    let bit = 1u64 << sq;
    let replies = child.moves();
    let mut key = -(replies.count_ones() as i32) * 16;
    // Replies on corners are especially bad.
    key -= (replies & CORNERS).count_ones() as i32 * 32;
    if bit & CORNERS != 0 {
        key += 64;
    }
    if bit & X_SQUARES != 0 {
        key -= 24;
    }
    let empty = b.empty();
    if empty.count_ones() <= 18 {
        if let Some(q) = QUADRANTS.iter().find(|&&q| q & bit != 0) {
            if (empty & q).count_ones() & 1 == 1 {
                key += 12;
            }
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_holds_every_move_and_sorts() {
        let b = Board::initial();
        let mut list = MoveList::new(b.moves());
        assert_eq!(list.len(), 4);
        for (i, item) in list.items_mut().iter_mut().enumerate() {
            item.0 = i as i32;
        }
        list.sort();
        let sq: Vec<u8> = list.squares().collect();
        let mut expected: Vec<u8> = crate::ai::reversi::board::squares(b.moves()).collect();
        expected.reverse();
        assert_eq!(sq, expected);
    }

    #[test]
    fn corners_come_before_x_squares() {
        // Own discs: c3 c2 ... set up so that a1 (corner) and b2-adjacent X are legal:
        // own on c3, opponent on b2 -> a1 legal; own on f3, opponent on g2 -> h1 legal.
        let b = Board { p: (1 << 18) | (1 << 21), o: (1 << 9) | (1 << 14) | (1 << 20) };
        let moves = b.moves();
        assert!(moves & 1 != 0, "a1 is legal");
        assert!(cheap_key(&b, 0) > cheap_key(&b, 19), "corner before d3");
    }
}

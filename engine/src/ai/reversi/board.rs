//! The search's view of a position: the discs of the side to move and of the other side.
//!
//! Every Reversi level searches on [`Board`] (two `u64`s, `Copy`), built once from the
//! rules' [`Position`] and played forward with the raw bitboard functions.

use crate::reversi::bitboard::{flips, moves};
use crate::reversi::Position;
use crate::{Move, Point};

/// Discs of the side to move (`p`) and of its opponent (`o`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The side to move.
    pub p: u64,
    /// The other side.
    pub o: u64,
}

impl Board {
    /// The board of the rules' position, seen from its side to move.
    pub fn from_position(pos: &Position) -> Board {
        Board { p: pos.player(), o: pos.opponent() }
    }

    /// The standard starting position (black to move).
    pub const fn initial() -> Board {
        Board { p: (1 << 28) | (1 << 35), o: (1 << 27) | (1 << 36) }
    }

    /// Legal moves of the side to move.
    #[inline]
    pub fn moves(&self) -> u64 {
        moves(self.p, self.o)
    }

    /// Legal moves of the other side.
    #[inline]
    pub fn opponent_moves(&self) -> u64 {
        moves(self.o, self.p)
    }

    /// The board with a side that can move: this one, or the one after a forced pass;
    /// `None` when the game is over.
    pub fn to_mover(&self) -> Option<Board> {
        if self.moves() != 0 {
            Some(*self)
        } else if self.opponent_moves() != 0 {
            Some(self.pass())
        } else {
            None
        }
    }

    /// Empty squares.
    #[inline]
    pub const fn empty(&self) -> u64 {
        !(self.p | self.o)
    }

    /// Number of empty squares.
    #[inline]
    pub const fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The board after the side to move plays the legal square `sq`.
    #[inline]
    pub fn play(&self, sq: u8) -> Board {
        let f = flips(self.p, self.o, sq);
        debug_assert!(f != 0, "square {sq} is not a legal move");
        Board { p: self.o & !f, o: self.p | f | (1u64 << sq) }
    }

    /// The board after the side to move passes.
    #[inline]
    pub const fn pass(&self) -> Board {
        Board { p: self.o, o: self.p }
    }

    /// The final disc difference for the side to move in a finished game, empty squares
    /// going to the winner (the usual Othello scoring, as in the FFO test suite).
    #[inline]
    pub const fn final_diff(&self) -> i32 {
        let p = self.p.count_ones() as i32;
        let o = self.o.count_ones() as i32;
        let e = 64 - p - o;
        if p > o {
            p - o + e
        } else if p < o {
            p - o - e
        } else {
            0
        }
    }

    /// A well-mixed 64-bit hash of the board (for the transposition table).
    #[inline]
    pub fn hash(&self) -> u64 {
        let a = self.p.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let b = self.o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let h = a ^ b.rotate_left(31);
        h ^ (h >> 29)
    }
}

/// The move placing a disc on square `sq`.
#[inline]
pub fn square_move(sq: u8) -> Move {
    Move::Place(Point::new(sq % 8, sq / 8))
}

/// The square of a move (`None` for a pass).
#[inline]
pub fn square_of(mv: Move) -> Option<u8> {
    match mv {
        Move::Place(p) => Some(p.y * 8 + p.x),
        Move::Pass => None,
    }
}

/// The squares of a bitboard, lowest first.
#[inline]
pub fn squares(mut b: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let sq = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(sq)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_matches_the_rules() {
        assert_eq!(Board::initial(), Board::from_position(&Position::initial()));
        assert_eq!(Board::initial().moves().count_ones(), 4);
    }

    #[test]
    fn to_mover_passes_only_when_forced() {
        assert_eq!(Board::initial().to_mover(), Some(Board::initial()));
        // The side to move (b1) cannot flank a1 in the corner; a1 can play c1.
        let stuck = Board { p: 0b10, o: 0b1 };
        assert_eq!(stuck.moves(), 0);
        assert_eq!(stuck.to_mover(), Some(Board { p: 0b1, o: 0b10 }));
        assert_eq!(Board { p: 0b1, o: 0 }.to_mover(), None);
    }

    #[test]
    fn final_diff_gives_empties_to_the_winner() {
        let b = Board { p: 0b111, o: 0b1000 };
        assert_eq!(b.final_diff(), 3 - 1 + 60);
        assert_eq!(b.pass().final_diff(), -62);
        assert_eq!(Board { p: 1, o: 2 }.final_diff(), 0);
    }

    #[test]
    fn squares_lists_bits() {
        assert_eq!(squares(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
    }
}

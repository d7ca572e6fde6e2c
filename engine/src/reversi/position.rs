//! A Reversi position: the discs of both sides and the side to move.

use super::bitboard::{self, bit};
use super::error::ReversiError;
use crate::{Color, Point};

/// How a finished game came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The side with more discs, `None` for a draw.
    pub winner: Option<Color>,
    /// Black's discs at the end.
    pub black: u32,
    /// White's discs at the end.
    pub white: u32,
}

/// A Reversi position on 8x8 bitboards.
///
/// Stored as the discs of the side to move (`player`), of the other side (`opponent`) and
/// the colour to move, so that the search never swaps by colour. It is `Copy` (17 bytes of
/// state); [`Position::after`] and [`Position::after_pass`] return new positions by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    player: u64,
    opponent: u64,
    side: Color,
}

impl Default for Position {
    fn default() -> Position {
        Position::initial()
    }
}

/// The bitboard square of a point, or an error when it is off the board.
pub fn square_of(p: Point) -> Result<u8, ReversiError> {
    if p.on_board(8) {
        Ok(p.y * 8 + p.x)
    } else {
        Err(ReversiError::OffBoard { x: p.x, y: p.y })
    }
}

/// The point of a bitboard square (0..64).
#[inline]
pub const fn point_of(sq: u8) -> Point {
    Point { x: sq % 8, y: sq / 8 }
}

impl Position {
    /// The standard start: d4 and e5 white, d5 and e4 black, black to move.
    pub const fn initial() -> Position {
        let black = bit(3 * 8 + 4) | bit(4 * 8 + 3); // e4, d5
        let white = bit(3 * 8 + 3) | bit(4 * 8 + 4); // d4, e5
        Position { player: black, opponent: white, side: Color::Black }
    }

    /// A position from black's and white's discs; refuses discs on the same square.
    pub fn from_bitboards(black: u64, white: u64, side: Color) -> Result<Position, ReversiError> {
        if black & white != 0 {
            return Err(ReversiError::Overlap { count: bitboard::count(black & white) });
        }
        Ok(match side {
            Color::Black => Position { player: black, opponent: white, side },
            Color::White => Position { player: white, opponent: black, side },
        })
    }

    /// A position from the discs of the side to move and of the other side, unchecked:
    /// the caller guarantees they do not overlap (the search's fast path).
    #[inline]
    pub const fn from_player_opponent(player: u64, opponent: u64, side: Color) -> Position {
        Position { player, opponent, side }
    }

    /// Black's discs.
    #[inline]
    pub const fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.player,
            Color::White => self.opponent,
        }
    }

    /// White's discs.
    #[inline]
    pub const fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.opponent,
            Color::White => self.player,
        }
    }

    /// The colour to move.
    #[inline]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The discs of the side to move.
    #[inline]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the side not to move.
    #[inline]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The empty squares.
    #[inline]
    pub const fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Legal moves of the side to move, as a bitboard.
    #[inline]
    pub fn legal_moves(&self) -> u64 {
        bitboard::moves(self.player, self.opponent)
    }

    /// Legal moves of the side not to move, as a bitboard.
    #[inline]
    pub fn opponent_moves(&self) -> u64 {
        bitboard::moves(self.opponent, self.player)
    }

    /// Legal moves of the side to move, in square order (a1, b1, ... h8).
    pub fn legal_points(&self) -> Vec<Point> {
        bitboard::squares(self.legal_moves()).map(point_of).collect()
    }

    /// Whether `p` is a legal move for the side to move.
    pub fn is_legal(&self, p: Point) -> bool {
        square_of(p).is_ok_and(|sq| self.legal_moves() & bit(sq) != 0)
    }

    /// The disc on `p`; `None` when empty or off the board.
    pub fn stone(&self, p: Point) -> Option<Color> {
        let b = bit(square_of(p).ok()?);
        if self.black() & b != 0 {
            Some(Color::Black)
        } else if self.white() & b != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The discs that a move on square `sq` (0..64, empty) would flip; 0 if it is illegal.
    #[inline]
    pub fn flips(&self, sq: u8) -> u64 {
        bitboard::flips(self.player, self.opponent, sq)
    }

    /// The discs a disc of the side to move on `p` would flip, in square order; empty when
    /// the move is illegal or `p` is off the board.
    pub fn flipped_points(&self, p: Point) -> Vec<Point> {
        match square_of(p) {
            Ok(sq) if (self.player | self.opponent) & bit(sq) == 0 => {
                bitboard::squares(self.flips(sq)).map(point_of).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The position after the side to move plays square `sq`, flipping `flipped`
    /// (as computed by [`Position::flips`]). Unchecked fast path for the search.
    #[inline]
    pub const fn after_flips(&self, sq: u8, flipped: u64) -> Position {
        Position {
            player: self.opponent & !flipped,
            opponent: self.player | flipped | bit(sq),
            side: self.side.opponent(),
        }
    }

    /// The position after the side to move plays square `sq`. Unchecked fast path: `sq`
    /// must be a legal move (a bit of [`Position::legal_moves`]).
    #[inline]
    pub fn after(&self, sq: u8) -> Position {
        debug_assert!(self.legal_moves() & bit(sq) != 0, "square {sq} is not a legal move");
        self.after_flips(sq, self.flips(sq))
    }

    /// The position after the side to move passes. Unchecked fast path.
    #[inline]
    pub const fn after_pass(&self) -> Position {
        Position { player: self.opponent, opponent: self.player, side: self.side.opponent() }
    }

    /// Plays `p` for the side to move and returns the flipped discs.
    pub fn play(&mut self, p: Point) -> Result<u64, ReversiError> {
        let sq = square_of(p)?;
        self.play_square(sq)
    }

    /// Plays square `sq` (0..64) for the side to move and returns the flipped discs.
    pub fn play_square(&mut self, sq: u8) -> Result<u64, ReversiError> {
        if sq >= 64 {
            return Err(ReversiError::OffBoard { x: sq % 8, y: sq / 8 });
        }
        let square = point_of(sq);
        if (self.player | self.opponent) & bit(sq) != 0 {
            return Err(ReversiError::Occupied { square });
        }
        let flipped = self.flips(sq);
        if flipped == 0 {
            if self.is_game_over() {
                return Err(ReversiError::GameOver);
            }
            if self.legal_moves() == 0 {
                return Err(ReversiError::MustPass { side: self.side });
            }
            return Err(ReversiError::NoFlips { square });
        }
        *self = self.after_flips(sq, flipped);
        Ok(flipped)
    }

    /// Whether the side to move has no legal move while the opponent has one.
    #[inline]
    pub fn must_pass(&self) -> bool {
        self.legal_moves() == 0 && self.opponent_moves() != 0
    }

    /// Passes; allowed only when [`Position::must_pass`].
    pub fn pass(&mut self) -> Result<(), ReversiError> {
        if self.legal_moves() != 0 {
            return Err(ReversiError::CannotPass { side: self.side });
        }
        if self.opponent_moves() == 0 {
            return Err(ReversiError::GameOver);
        }
        *self = self.after_pass();
        Ok(())
    }

    /// Whether neither side can move.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.legal_moves() == 0 && self.opponent_moves() == 0
    }

    /// The number of discs of colour `c`.
    #[inline]
    pub fn count(&self, c: Color) -> u32 {
        match c {
            Color::Black => bitboard::count(self.black()),
            Color::White => bitboard::count(self.white()),
        }
    }

    /// The number of empty squares.
    #[inline]
    pub const fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The side to move's discs minus the other side's.
    #[inline]
    pub const fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The result, once neither side can move: disc counts and the side with more discs
    /// (empty squares go to nobody).
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_game_over() {
            return None;
        }
        let black = self.count(Color::Black);
        let white = self.count(Color::White);
        let winner = match black.cmp(&white) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        };
        Some(Outcome { winner, black, white })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Point {
        super::super::notation::parse_square(name).unwrap()
    }

    #[test]
    fn initial_position() {
        let pos = Position::initial();
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(pos.stone(sq("d4")), Some(Color::White));
        assert_eq!(pos.stone(sq("e5")), Some(Color::White));
        assert_eq!(pos.stone(sq("d5")), Some(Color::Black));
        assert_eq!(pos.stone(sq("e4")), Some(Color::Black));
        assert_eq!(pos.legal_points(), vec![sq("d3"), sq("c4"), sq("f5"), sq("e6")]);
        assert_eq!(pos.count(Color::Black), 2);
        assert_eq!(pos.empties(), 60);
        assert!(!pos.must_pass() && !pos.is_game_over() && pos.outcome().is_none());
    }

    #[test]
    fn play_flips_and_swaps_sides() {
        let mut pos = Position::initial();
        let flipped = pos.play(sq("f5")).unwrap();
        assert_eq!(flipped, bit(4 * 8 + 4)); // e5
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(pos.count(Color::Black), 4);
        assert_eq!(pos.count(Color::White), 1);
        assert_eq!(pos.stone(sq("e5")), Some(Color::Black));
    }

    #[test]
    fn illegal_moves_are_refused_without_change() {
        let mut pos = Position::initial();
        let before = pos;
        assert_eq!(pos.play(sq("d4")), Err(ReversiError::Occupied { square: sq("d4") }));
        assert_eq!(pos.play(sq("a1")), Err(ReversiError::NoFlips { square: sq("a1") }));
        assert_eq!(pos.play(Point::new(8, 0)), Err(ReversiError::OffBoard { x: 8, y: 0 }));
        assert_eq!(pos.play_square(64), Err(ReversiError::OffBoard { x: 0, y: 8 }));
        assert_eq!(pos.pass(), Err(ReversiError::CannotPass { side: Color::Black }));
        assert_eq!(pos, before);
    }

    #[test]
    fn forced_pass_and_game_over() {
        // A lone black disc on a1 and a lone white disc on h8: nobody can flip anything.
        let over = Position::from_bitboards(bit(0), bit(63), Color::Black).unwrap();
        assert!(over.is_game_over());
        assert!(!over.must_pass());
        let o = over.outcome().unwrap();
        assert_eq!((o.winner, o.black, o.white), (None, 1, 1));
        let mut p = over;
        assert_eq!(p.pass(), Err(ReversiError::GameOver));
        assert_eq!(p.play(sq("b1")), Err(ReversiError::GameOver));

        // Black a1, white b1; white to move has nothing, black can play c1.
        let mut pass = Position::from_bitboards(bit(0), bit(1), Color::White).unwrap();
        assert!(pass.must_pass());
        assert_eq!(pass.play(sq("c1")), Err(ReversiError::MustPass { side: Color::White }));
        pass.pass().unwrap();
        assert_eq!(pass.side_to_move(), Color::Black);
        assert_eq!(pass.legal_points(), vec![sq("c1")]);
        pass.play(sq("c1")).unwrap();
        let o = pass.outcome().unwrap();
        assert_eq!((o.winner, o.black, o.white), (Some(Color::Black), 3, 0));
    }

    #[test]
    fn from_bitboards_rejects_overlap() {
        assert_eq!(
            Position::from_bitboards(0b11, 0b10, Color::Black),
            Err(ReversiError::Overlap { count: 1 })
        );
        let p = Position::from_bitboards(0b01, 0b10, Color::White).unwrap();
        assert_eq!((p.black(), p.white(), p.player(), p.opponent()), (1, 2, 2, 1));
    }
}

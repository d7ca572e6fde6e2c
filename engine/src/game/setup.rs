//! Set-up positions (the board editor): stones placed by hand and a side to move, checked
//! against what a game can reach before a game starts from them.
//!
//! What is checked:
//! - every game: points on the board, each taken once;
//! - Gomoku (every rule): no five on the board (the game would be over); black moves first
//!   and the sides alternate, so black has as many stones as white (black to move) or one
//!   more (white to move), and the side to move follows from the counts;
//! - Renju, besides: no black overline (only a forbidden move makes one, and it ends the
//!   game). Black's double threes and fours already on the board are not refused: a legal
//!   order of moves may have made them (a forbidden shape is judged when its stone is
//!   played);
//! - Reversi: the four centre squares hold discs and every disc is joined to them (what
//!   every game keeps), and the side to move has a move, or neither side has (a finished
//!   game); when only the other side can move, the refusal says so, so the editor can offer
//!   that side.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{GameError, GameKind, Position};
use crate::gomoku::{self, Rule};
use crate::reversi::{self, notation::Unreachable};
use crate::{Color, Point};

/// A position set up by hand: the stones of each colour and the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Setup {
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    pub to_move: Color,
}

/// Why a set-up position is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("({}, {}) is off the board", point.x, point.y)]
    OffBoard { point: Point },
    #[error("({}, {}) holds more than one stone", point.x, point.y)]
    Overlap { point: Point },
    /// Gomoku: a five on the board (the game would already be over).
    #[error("{color} has five in a row: the game would be over")]
    Five { color: Color, line: Vec<Point> },
    /// Renju: black has six or more in a row, which only a forbidden move makes.
    #[error("black has an overline, which only a forbidden move makes")]
    Overline { line: Vec<Point> },
    /// Gomoku: black moves first and the sides alternate.
    #[error("{black} black and {white} white stones: black must have as many stones as white or one more")]
    Counts { black: usize, white: usize },
    /// Gomoku: the counts decide the side to move.
    #[error("with these stones it is {expected}'s move")]
    SideToMove { expected: Color },
    /// Reversi: a centre square is empty.
    #[error("the four centre squares d4, e4, d5 and e5 must hold discs")]
    CentreEmpty,
    /// Reversi: a disc is cut off from the centre.
    #[error("a disc is cut off from the centre: discs are only placed next to others")]
    CutOff,
    /// Reversi: the side to move has no move but the other side has.
    #[error("{color} has no move and must pass: {offer} is to move")]
    MustPass { color: Color, offer: Color },
    #[error(transparent)]
    Game(#[from] GameError),
}

impl SetupError {
    /// The refusal's stable code, as the UI's texts are keyed.
    pub const fn code(&self) -> &'static str {
        match self {
            SetupError::OffBoard { .. } => "off_board",
            SetupError::Overlap { .. } => "overlap",
            SetupError::Five { .. } => "five",
            SetupError::Overline { .. } => "overline",
            SetupError::Counts { .. } => "counts",
            SetupError::SideToMove { .. } => "side_to_move",
            SetupError::CentreEmpty => "centre_empty",
            SetupError::CutOff => "cut_off",
            SetupError::MustPass { .. } => "must_pass",
            SetupError::Game(_) => "bad_game",
        }
    }
}

impl Setup {
    /// The set-up of a position (its stones and side to move).
    pub fn of(position: &Position) -> Setup {
        let size = position.size();
        let mut setup =
            Setup { black: Vec::new(), white: Vec::new(), to_move: position.side_to_move() };
        for i in 0..size as usize * size as usize {
            let p = Point::from_index(i, size);
            match position.stone(p) {
                Some(Color::Black) => setup.black.push(p),
                Some(Color::White) => setup.white.push(p),
                None => {}
            }
        }
        setup
    }

    /// Gomoku: the stones as a move order that reaches them (black, white, black, …), for
    /// records that have no set-up (PSQ, move lists). Valid only for a checked set-up.
    pub fn as_moves(&self) -> Vec<Point> {
        let mut moves = Vec::with_capacity(self.black.len() + self.white.len());
        for (i, &b) in self.black.iter().enumerate() {
            moves.push(b);
            moves.extend(self.white.get(i));
        }
        moves
    }

    /// Checks the set-up for `kind` (see the module's list) and builds its position.
    pub fn validate(&self, kind: GameKind) -> Result<Position, SetupError> {
        let size = kind.size();
        let mut seen = vec![false; size as usize * size as usize];
        for &point in self.black.iter().chain(&self.white) {
            if !point.on_board(size) {
                return Err(SetupError::OffBoard { point });
            }
            let i = point.index(size);
            if std::mem::replace(&mut seen[i], true) {
                return Err(SetupError::Overlap { point });
            }
        }
        match kind {
            GameKind::Gomoku { rule, size } => self.validate_gomoku(rule, size),
            GameKind::Reversi => self.validate_reversi(),
        }
    }

    fn validate_gomoku(&self, rule: Rule, size: u8) -> Result<Position, SetupError> {
        let (black, white) = (self.black.len(), self.white.len());
        let expected = match black.checked_sub(white) {
            Some(0) => Color::Black,
            Some(1) => Color::White,
            _ => return Err(SetupError::Counts { black, white }),
        };
        if self.to_move != expected {
            return Err(SetupError::SideToMove { expected });
        }
        let mut pos = gomoku::Position::new(size, rule).map_err(GameError::from)?;
        for p in self.as_moves() {
            // The points are on the board and distinct (checked above).
            pos.play_unchecked(p);
        }
        for &p in self.black.iter().chain(&self.white) {
            if let Some(win) = pos.win_at(p, rule) {
                return Err(SetupError::Five { color: win.color, line: win.line });
            }
            if rule == Rule::Renju && pos.stone(p) == Some(Color::Black) {
                if let Some(win) = pos.win_at(p, Rule::Freestyle) {
                    return Err(SetupError::Overline { line: win.line });
                }
            }
        }
        Ok(Position::Gomoku(pos))
    }

    fn validate_reversi(&self) -> Result<Position, SetupError> {
        let bits = |points: &[Point]| points.iter().fold(0u64, |b, p| b | 1u64 << p.index(8));
        let (black, white) = (bits(&self.black), bits(&self.white));
        reversi::notation::check_reachable(black | white).map_err(|u| match u {
            Unreachable::CentreEmpty => SetupError::CentreEmpty,
            Unreachable::CutOff => SetupError::CutOff,
        })?;
        let pos = reversi::Position::from_bitboards(black, white, self.to_move)
            .map_err(GameError::from)?;
        if pos.must_pass() && !pos.is_game_over() {
            let color = self.to_move;
            return Err(SetupError::MustPass { color, offer: color.opponent() });
        }
        Ok(Position::Reversi(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::notation::parse_point;

    fn pts(s: &str, size: u8) -> Vec<Point> {
        s.split_whitespace().map(|p| parse_point(p, size).unwrap()).collect()
    }

    fn gomoku(black: &str, white: &str, to_move: Color) -> Setup {
        Setup { black: pts(black, 15), white: pts(white, 15), to_move }
    }

    const RENJU: GameKind = GameKind::Gomoku { rule: Rule::Renju, size: 15 };
    const FREE: GameKind = GameKind::Gomoku { rule: Rule::Freestyle, size: 15 };

    #[test]
    fn gomoku_refusals_name_their_reason() {
        let ok = gomoku("h8 h9", "a1", Color::White);
        let pos = ok.validate(RENJU).unwrap();
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(Setup::of(&pos), Setup { black: pts("h9 h8", 15), ..ok.clone() });
        assert_eq!(
            gomoku("h8", "a1 a2", Color::Black).validate(RENJU).err(),
            Some(SetupError::Counts { black: 1, white: 2 })
        );
        assert_eq!(
            gomoku("h8 h9 h10", "a1", Color::Black).validate(RENJU).err(),
            Some(SetupError::Counts { black: 3, white: 1 })
        );
        assert_eq!(
            gomoku("h8", "a1", Color::White).validate(RENJU).err(),
            Some(SetupError::SideToMove { expected: Color::Black })
        );
        let five = gomoku("a1 b2 c3 d4 e5", "o1 o2 o3 o4 o6", Color::Black);
        assert!(matches!(five.validate(FREE), Err(SetupError::Five { color: Color::Black, .. })));
        let white_five = gomoku("a1 b2 c3 d4 o15", "o1 o2 o3 o4 o5", Color::Black);
        let Err(SetupError::Five { color, line }) = white_five.validate(RENJU) else {
            panic!("white's five")
        };
        assert_eq!((color, line.len()), (Color::White, 5));
        let six = gomoku("a1 b1 c1 d1 e1 f1", "a5 b7 c9 d11 e13 o15", Color::Black);
        assert!(matches!(six.validate(RENJU), Err(SetupError::Overline { .. })));
        assert!(matches!(six.validate(FREE), Err(SetupError::Five { .. })));
        let standard = GameKind::Gomoku { rule: Rule::Standard, size: 15 };
        assert!(six.validate(standard).is_ok(), "an overline is no win under standard rules");
        let off = Setup { black: vec![Point::new(15, 0)], white: vec![], to_move: Color::White };
        assert!(matches!(off.validate(RENJU), Err(SetupError::OffBoard { .. })));
        let twice = gomoku("h8", "h8", Color::Black);
        assert!(matches!(twice.validate(RENJU), Err(SetupError::Overlap { .. })));
    }

    #[test]
    fn reversi_refusals_name_their_reason() {
        let sq = |s: &str| reversi::notation::parse_square(s).unwrap();
        let start = Setup {
            black: vec![sq("e4"), sq("d5")],
            white: vec![sq("d4"), sq("e5")],
            to_move: Color::Black,
        };
        assert!(start.validate(GameKind::Reversi).is_ok());
        let mut hole = start.clone();
        hole.white.pop();
        assert_eq!(hole.validate(GameKind::Reversi).err(), Some(SetupError::CentreEmpty));
        let mut far = start.clone();
        far.black.push(sq("a1"));
        assert_eq!(far.validate(GameKind::Reversi).err(), Some(SetupError::CutOff));
        // Black everywhere but a1 (empty) and b1 (white): white cannot move, black can (a1).
        let all = |skip: &[&str]| -> Vec<Point> {
            let skip: Vec<Point> = skip.iter().map(|s| sq(s)).collect();
            (0..64).map(|i| Point::from_index(i, 8)).filter(|p| !skip.contains(p)).collect()
        };
        let pass =
            Setup { black: all(&["a1", "b1"]), white: vec![sq("b1")], to_move: Color::White };
        assert_eq!(
            pass.validate(GameKind::Reversi).err(),
            Some(SetupError::MustPass { color: Color::White, offer: Color::Black })
        );
        // All black: neither side moves; a finished game is a position too.
        let over = Setup {
            black: vec![sq("e4"), sq("d5"), sq("e5"), sq("d4")],
            white: vec![],
            to_move: Color::White,
        };
        assert!(over.validate(GameKind::Reversi).unwrap().is_over());
    }
}

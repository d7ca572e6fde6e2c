//! A position of either game, with the few questions the session, the app and the arena ask
//! of both.

use super::{GameError, GameKind};
use crate::gomoku;
use crate::gomoku::notation::format_point;
use crate::reversi;
use crate::reversi::notation::format_square;
use crate::{Color, Move, Point};

#[derive(Clone, Debug)]
pub enum Position {
    Gomoku(gomoku::Position),
    Reversi(reversi::Position),
}

impl Position {
    /// The starting position of `kind`.
    pub fn new(kind: GameKind) -> Result<Position, GameError> {
        Ok(match kind {
            GameKind::Gomoku { rule, size } => Position::Gomoku(gomoku::Position::new(size, rule)?),
            GameKind::Reversi => Position::Reversi(reversi::Position::initial()),
        })
    }

    pub fn size(&self) -> u8 {
        match self {
            Position::Gomoku(p) => p.size(),
            Position::Reversi(_) => 8,
        }
    }

    pub fn side_to_move(&self) -> Color {
        match self {
            Position::Gomoku(p) => p.side_to_move(),
            Position::Reversi(p) => p.side_to_move(),
        }
    }

    pub fn stone(&self, p: Point) -> Option<Color> {
        match self {
            Position::Gomoku(g) => g.stone(p),
            Position::Reversi(r) => r.stone(p),
        }
    }

    /// Reversi: the legal moves of the side to move. Gomoku: empty (every empty point is a
    /// candidate; ask [`gomoku::Position::is_legal`] about one).
    pub fn legal_points(&self) -> Vec<Point> {
        match self {
            Position::Gomoku(_) => Vec::new(),
            Position::Reversi(r) => r.legal_points(),
        }
    }

    /// Whether the rules demand a pass now (Reversi only).
    pub fn must_pass(&self) -> bool {
        match self {
            Position::Gomoku(_) => false,
            Position::Reversi(r) => r.must_pass(),
        }
    }

    pub fn is_over(&self) -> bool {
        match self {
            Position::Gomoku(g) => g.is_over(),
            Position::Reversi(r) => r.is_game_over(),
        }
    }

    /// A point in the game's notation: `h8` on a 15x15 Gomoku board, `f5` in Reversi.
    pub fn point_label(&self, p: Point) -> String {
        match self {
            Position::Gomoku(g) => format_point(p, g.size()),
            Position::Reversi(_) => format_square(p),
        }
    }

    /// A move in the game's notation (`pass` for a pass).
    pub fn move_label(&self, mv: Move) -> String {
        match mv {
            Move::Place(p) => self.point_label(p),
            Move::Pass => "pass".to_string(),
        }
    }

    /// The column labels, left to right (the letters of [`Position::point_label`]).
    pub fn column_labels(&self) -> Vec<String> {
        let keep = |c: &char| c.is_ascii_alphabetic();
        (0..self.size())
            .map(|x| self.point_label(Point::new(x, 0)).chars().filter(keep).collect())
            .collect()
    }

    /// The row labels, top to bottom (the digits of [`Position::point_label`]).
    pub fn row_labels(&self) -> Vec<String> {
        let keep = |c: &char| c.is_ascii_digit();
        (0..self.size())
            .map(|y| self.point_label(Point::new(0, y)).chars().filter(keep).collect())
            .collect()
    }

    /// Whether `mv` can be played now, without playing it: the error [`Position::play`]
    /// would give (its [`GameError::illegal`] names the reason).
    pub fn check(&self, mv: Move) -> Result<(), GameError> {
        match (self, mv) {
            (Position::Gomoku(g), Move::Place(p)) => g.is_legal(p).map_err(GameError::from),
            (Position::Gomoku(_), Move::Pass) => Err(GameError::NoPassInGomoku),
            // A Reversi position is three words: trying the move on a copy is the check.
            (&Position::Reversi(mut r), Move::Place(p)) => {
                r.play(p).map(|_| ()).map_err(GameError::from)
            }
            (&Position::Reversi(mut r), Move::Pass) => r.pass().map_err(GameError::from),
        }
    }

    /// The discs `mv` would flip (Reversi); empty for Gomoku, a pass or an illegal move.
    pub fn flips(&self, mv: Move) -> Vec<Point> {
        match (self, mv) {
            (Position::Reversi(r), Move::Place(p)) => r.flipped_points(p),
            _ => Vec::new(),
        }
    }

    /// Plays one move, checking it against the rules.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        match (self, mv) {
            (Position::Gomoku(g), Move::Place(p)) => g.play(p).map_err(GameError::from),
            (Position::Gomoku(_), Move::Pass) => Err(GameError::NoPassInGomoku),
            (Position::Reversi(r), Move::Place(p)) => {
                r.play(p).map(|_| ()).map_err(GameError::from)
            }
            (Position::Reversi(r), Move::Pass) => r.pass().map_err(GameError::from),
        }
    }

    /// Plays again a move checked when it was first played (a game replaying its tree):
    /// Gomoku skips the rule checks; a taken point is still refused.
    pub(super) fn replay(&mut self, mv: Move) -> Result<(), GameError> {
        match (self, mv) {
            (Position::Gomoku(g), Move::Place(p)) => {
                let size = g.size();
                match g.play_unchecked(p) {
                    true => Ok(()),
                    false => Err(gomoku::GomokuError::Occupied { point: p, size }.into()),
                }
            }
            (pos, mv) => pos.play(mv),
        }
    }

    /// Gomoku: takes the last stone off (true); Reversi cannot (false).
    pub(super) fn take_back(&mut self) -> bool {
        match self {
            Position::Gomoku(g) => g.undo_unchecked().is_some(),
            Position::Reversi(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::IllegalReason;
    use crate::gomoku::{ForbiddenKind, Rule};

    fn reason(pos: &Position, mv: Move) -> Option<IllegalReason> {
        pos.check(mv).err().map(|e| e.illegal().expect("a move error names its reason"))
    }

    #[test]
    fn labels_follow_each_games_notation() {
        let g = Position::new(GameKind::Gomoku { rule: Rule::Renju, size: 15 }).unwrap();
        assert_eq!(g.point_label(Point::new(7, 7)), "h8");
        assert_eq!(g.move_label(Move::Pass), "pass");
        assert_eq!(g.column_labels().first().map(String::as_str), Some("a"));
        assert_eq!(g.column_labels().last().map(String::as_str), Some("o"));
        assert_eq!(g.row_labels().first().map(String::as_str), Some("15"));
        assert_eq!(g.row_labels().last().map(String::as_str), Some("1"));
        let r = Position::new(GameKind::Reversi).unwrap();
        assert_eq!(r.move_label(Move::Place(Point::new(5, 4))), "f5");
        assert_eq!(r.column_labels().concat(), "abcdefgh");
        assert_eq!(r.row_labels().concat(), "12345678");
    }

    #[test]
    fn check_names_why_a_move_is_illegal_without_playing_it() {
        let mut g = Position::new(GameKind::Gomoku { rule: Rule::Renju, size: 15 }).unwrap();
        assert_eq!(reason(&g, Move::Place(Point::new(7, 7))), None);
        assert_eq!(reason(&g, Move::Place(Point::new(15, 0))), Some(IllegalReason::OffBoard));
        assert_eq!(reason(&g, Move::Pass), Some(IllegalReason::CannotPass));
        // A double three for black at (7, 7): black h7? Build it: black on (5,7),(6,7) and
        // (7,5),(7,6), white far away.
        for (b, w) in [((5, 7), (0, 0)), ((6, 7), (0, 14)), ((7, 5), (14, 0)), ((7, 6), (14, 14))] {
            g.play(Move::Place(Point::new(b.0, b.1))).unwrap();
            g.play(Move::Place(Point::new(w.0, w.1))).unwrap();
        }
        assert_eq!(reason(&g, Move::Place(Point::new(0, 0))), Some(IllegalReason::Occupied));
        assert_eq!(
            reason(&g, Move::Place(Point::new(7, 7))),
            Some(IllegalReason::Forbidden(ForbiddenKind::DoubleThree))
        );
        assert_eq!(g.stone(Point::new(7, 7)), None, "checking plays nothing");

        let r = Position::new(GameKind::Reversi).unwrap();
        assert_eq!(reason(&r, Move::Place(Point::new(5, 4))), None);
        assert_eq!(reason(&r, Move::Place(Point::new(3, 3))), Some(IllegalReason::Occupied));
        assert_eq!(reason(&r, Move::Place(Point::new(0, 0))), Some(IllegalReason::NoFlips));
        assert_eq!(reason(&r, Move::Place(Point::new(8, 0))), Some(IllegalReason::OffBoard));
        assert_eq!(reason(&r, Move::Pass), Some(IllegalReason::CannotPass));
    }

    #[test]
    fn flips_are_the_discs_that_change_colour() {
        let r = Position::new(GameKind::Reversi).unwrap();
        let mv = Move::Place(Point::new(5, 4));
        let flips = r.flips(mv);
        let mut after = r.clone();
        after.play(mv).unwrap();
        let size = r.size();
        let changed: Vec<Point> = (0..64)
            .map(|i| Point::from_index(i, size))
            .filter(|&p| r.stone(p).is_some() && r.stone(p) != after.stone(p))
            .collect();
        assert_eq!(flips, changed);
        assert_eq!(flips.len(), 1);
        assert!(r.flips(Move::Place(Point::new(0, 0))).is_empty());
        assert!(r.flips(Move::Pass).is_empty());
    }
}

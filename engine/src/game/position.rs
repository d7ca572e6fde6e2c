//! A position of either game, with the few questions the session, the app and the arena ask
//! of both.

use super::{GameError, GameKind};
use crate::gomoku;
use crate::reversi;
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
}

//! A Gomoku position: board, side to move, history, redo stack and Zobrist hash.

use super::board::Board;
use super::line::{cell_of, BLACK, EMPTY, WHITE};
use super::win::win_through;
use super::{
    notation, renju, zobrist, ForbiddenKind, GomokuError, ReplayError, Rule, Win, MAX_SIZE,
    MIN_SIZE,
};
use crate::{Color, Point};

/// A Gomoku position with its move history and redo stack.
///
/// Black moves first; the side to move alternates. Under Renju, [`Position::play`] refuses
/// black's forbidden moves (see [`renju`]).
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    rule: Rule,
    moves: Vec<Point>,
    redo: Vec<Point>,
    hash: u64,
}

impl Position {
    /// An empty board `size` lines wide (`MIN_SIZE..=MAX_SIZE`).
    pub fn new(size: u8, rule: Rule) -> Result<Position, GomokuError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(GomokuError::BadSize { size });
        }
        Ok(Position { board: Board::new(size), rule, moves: Vec::new(), redo: Vec::new(), hash: 0 })
    }

    /// A new position after playing `moves` in order from the empty board.
    pub fn from_moves(size: u8, rule: Rule, moves: &[Point]) -> Result<Position, ReplayError> {
        let mut pos = Position::new(size, rule).map_err(|source| ReplayError {
            number: 0,
            text: String::new(),
            source,
        })?;
        for (i, &p) in moves.iter().enumerate() {
            pos.play(p).map_err(|source| ReplayError {
                number: i + 1,
                text: if p.on_board(size) {
                    notation::format_point(p, size)
                } else {
                    format!("({}, {})", p.x, p.y)
                },
                source,
            })?;
        }
        Ok(pos)
    }

    /// Lines per side.
    #[inline]
    pub fn size(&self) -> u8 {
        self.board.size()
    }

    /// The grid of stones.
    #[inline]
    pub(super) fn board(&self) -> &Board {
        &self.board
    }

    /// The [`super::line`] key of the line through `p` along `dir` (one of
    /// [`super::DIRECTIONS`]): the ten cells around it, off-board cells as edges.
    pub fn line_key(&self, p: Point, dir: (i32, i32)) -> super::line::Key {
        super::line::key_at(&self.board, p, dir)
    }

    /// The rule the game is played under.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Black on even move counts, white on odd.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        if self.moves.len() & 1 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The stone on `p`; `None` when empty or off the board.
    #[inline]
    pub fn stone(&self, p: Point) -> Option<Color> {
        match self.board.at(p) {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// The moves played, in order.
    #[inline]
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// The last move played.
    #[inline]
    pub fn last_move(&self) -> Option<Point> {
        self.moves.last().copied()
    }

    /// The moves that [`Position::redo`] would replay, the next one LAST.
    #[inline]
    pub fn redo_stack(&self) -> &[Point] {
        &self.redo
    }

    /// Whether `p` can be played now: on the board, empty, the game not over, and not
    /// forbidden to black under Renju.
    pub fn is_legal(&self, p: Point) -> Result<(), GomokuError> {
        let size = self.size();
        if self.is_over() {
            return Err(GomokuError::GameOver);
        }
        if !p.on_board(size) {
            return Err(GomokuError::OffBoard { point: p, size });
        }
        if self.board.at(p) != EMPTY {
            return Err(GomokuError::Occupied { point: p, size });
        }
        if self.side_to_move() == Color::Black {
            if let Some(kind) = self.is_forbidden(p) {
                return Err(GomokuError::Forbidden { point: p, size, kind });
            }
        }
        Ok(())
    }

    /// Plays `p` for the side to move after checking [`Position::is_legal`]; clears the
    /// redo stack.
    pub fn play(&mut self, p: Point) -> Result<(), GomokuError> {
        self.is_legal(p)?;
        self.place(p);
        self.redo.clear();
        Ok(())
    }

    /// Places a stone for the side to move WITHOUT the rule checks (game over, forbidden),
    /// keeping the redo stack; for searches that have checked legality themselves.
    /// Returns false (and does nothing) when `p` is off the board or taken.
    pub fn play_unchecked(&mut self, p: Point) -> bool {
        if self.board.at(p) != EMPTY {
            return false;
        }
        self.place(p);
        true
    }

    fn place(&mut self, p: Point) {
        let color = self.side_to_move();
        self.board.set(p, cell_of(color));
        self.hash ^= zobrist::key(p, color);
        self.moves.push(p);
    }

    fn take_back(&mut self) -> Option<Point> {
        let p = self.moves.pop()?;
        let color = self.side_to_move();
        self.board.set(p, EMPTY);
        self.hash ^= zobrist::key(p, color);
        Some(p)
    }

    /// Takes back the last move and keeps it for [`Position::redo`].
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.take_back()?;
        self.redo.push(p);
        Some(p)
    }

    /// Takes back the last move without touching the redo stack (pairs with
    /// [`Position::play_unchecked`] in searches).
    pub fn undo_unchecked(&mut self) -> Option<Point> {
        self.take_back()
    }

    /// Replays the most recently undone move.
    pub fn redo(&mut self) -> Option<Point> {
        let p = self.redo.pop()?;
        self.place(p);
        Some(p)
    }

    /// The Zobrist hash of the stones on the board (the side to move follows from them).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The win made by the last move, per the rule: exactly five under standard rules and
    /// for black under Renju, five or more otherwise. Only the last move is examined: a
    /// game stops at its first win (positions built with [`Position::play_unchecked`] must
    /// respect that too).
    pub fn winner(&self) -> Option<Win> {
        let p = self.last_move()?;
        let color = self.stone(p)?;
        win_through(&self.board, p, color, self.rule)
    }

    /// The win the stone on `p` stands in under `rule`, whichever stone was placed last (for
    /// checking a set-up position, where any stone may be part of a five).
    pub fn win_at(&self, p: Point, rule: Rule) -> Option<Win> {
        let color = self.stone(p)?;
        win_through(&self.board, p, color, rule)
    }

    /// Whether every point is taken.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.moves.len() == self.size() as usize * self.size() as usize
    }

    /// Whether the game has ended: a win, a full board (a draw), or black stuck under Renju
    /// (a draw: [`Position::no_legal_point`]).
    pub fn is_over(&self) -> bool {
        self.is_full() || self.winner().is_some() || self.no_legal_point()
    }

    /// Whether the game goes on but the side to move has no point it may take: under Renju,
    /// black to move with only forbidden points left (under the other rules every empty
    /// point is playable). Tengen has no pass, so the game is drawn there.
    pub fn no_legal_point(&self) -> bool {
        if self.rule != Rule::Renju || self.side_to_move() != Color::Black || self.is_full() {
            return false;
        }
        let size = self.size();
        let empty = || {
            (0..size as usize * size as usize)
                .map(move |i| Point::from_index(i, size))
                .filter(|&p| self.board.at(p) == EMPTY)
        };
        // Most empty points cannot be forbidden at all; only when none of those is left are
        // the rest examined one by one.
        if empty().any(|p| !renju::may_be_forbidden(&self.board, p)) || self.winner().is_some() {
            return false;
        }
        let mut scratch = self.board.clone();
        empty().all(|p| renju::forbidden(&mut scratch, p).is_some())
    }

    /// Whether black playing `p` would be forbidden under Renju, and why — whoever is to
    /// move. `None` under the other rules, and for taken or off-board points.
    pub fn is_forbidden(&self, p: Point) -> Option<ForbiddenKind> {
        if self.rule != Rule::Renju || !renju::may_be_forbidden(&self.board, p) {
            return None;
        }
        let mut scratch = self.board.clone();
        renju::forbidden(&mut scratch, p)
    }

    /// Every point forbidden to black under Renju, row by row from the top.
    pub fn forbidden_points(&self) -> Vec<(Point, ForbiddenKind)> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        let size = self.size();
        let mut scratch = self.board.clone();
        (0..size as usize * size as usize)
            .map(|i| Point::from_index(i, size))
            .filter_map(|p| renju::forbidden(&mut scratch, p).map(|k| (p, k)))
            .collect()
    }

    /// The empty points, row by row from the top.
    pub fn empty_points(&self) -> Vec<Point> {
        let size = self.size();
        (0..size as usize * size as usize)
            .map(|i| Point::from_index(i, size))
            .filter(|&p| self.board.at(p) == EMPTY)
            .collect()
    }

    /// The points the side to move may play (empty while the game goes on, minus black's
    /// forbidden points under Renju), row by row from the top.
    pub fn legal_points(&self) -> Vec<Point> {
        if self.is_over() {
            return Vec::new();
        }
        let mut scratch = self.board.clone();
        let check = self.rule == Rule::Renju && self.side_to_move() == Color::Black;
        self.empty_points()
            .into_iter()
            .filter(|&p| !check || renju::forbidden(&mut scratch, p).is_none())
            .collect()
    }
}

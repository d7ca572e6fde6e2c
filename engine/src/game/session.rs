//! [`Game`]: one game in progress, as the app and the CLI see it.

use serde::{Deserialize, Serialize};

use super::{EndReason, GameConfig, GameError, GameResult, PlayerKind, Position};
use crate::gomoku::{ForbiddenKind, GomokuError};
use crate::{Color, Move, Point};

/// The longest time one move is recorded as taking: a week. [`Game::play`] records longer
/// thinking as this much, and a file that says more is refused.
pub const MAX_MOVE_MS: u64 = 7 * 24 * 60 * 60 * 1000;

/// One move of the game: what was played, by whom, and how long it took.
/// Serialised as `{"kind":"place","x":7,"y":7,"color":"black","ms":812}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    #[serde(flatten)]
    pub mv: Move,
    pub color: Color,
    pub ms: u64,
}

/// A game in progress: configuration, position, history, redo stack and result.
///
/// The position is always the start position with `history` replayed; undo and redo move
/// records between `history` and the redo stack. Reversi passes are played automatically
/// when the rules force them and are recorded like moves (with `ms` 0).
#[derive(Clone, Debug)]
pub struct Game {
    config: GameConfig,
    position: Position,
    history: Vec<MoveRecord>,
    /// Undone records, the most recently undone last.
    redo: Vec<MoveRecord>,
    /// An ending the position cannot show: a resignation or a forbidden move.
    decided: Option<GameResult>,
    /// Cached result: `decided`, or what the position says.
    result: Option<GameResult>,
    /// Reversi: the discs the last move played or replayed flipped (empty after an undo).
    flipped: Vec<Point>,
}

impl Game {
    /// A new game at the starting position.
    pub fn new(config: GameConfig) -> Result<Game, GameError> {
        config.validate()?;
        Ok(Game {
            config,
            position: Position::new(config.kind)?,
            history: Vec::new(),
            redo: Vec::new(),
            decided: None,
            result: None,
            flipped: Vec::new(),
        })
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// Changes who plays each side (and the time per move) without touching the moves.
    pub fn set_players(&mut self, black: PlayerKind, white: PlayerKind) -> Result<(), GameError> {
        let config = GameConfig { black, white, ..self.config };
        config.validate()?;
        self.config = config;
        Ok(())
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn history(&self) -> &[MoveRecord] {
        &self.history
    }

    /// How many records an immediate redo sequence could bring back.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    pub fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }

    pub fn player(&self, color: Color) -> PlayerKind {
        self.config.player(color)
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Whether the side to move may play `mv` now, without playing it: the error
    /// [`Game::play`] would give ([`GameError::illegal`] names the reason).
    pub fn check(&self, mv: Move) -> Result<(), GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        self.position.check(mv)
    }

    /// Reversi: the discs the last move played (or replayed by redo) flipped; empty after
    /// an undo, and always in Gomoku.
    pub fn flipped(&self) -> &[Point] {
        &self.flipped
    }

    /// Plays `mv` for the side to move, taking `ms` milliseconds (at most [`MAX_MOVE_MS`] is
    /// recorded). Returns the records added: the move, then a Reversi pass if the rules
    /// force one.
    pub fn play(&mut self, mv: Move, ms: u64) -> Result<Vec<MoveRecord>, GameError> {
        let played = self.apply(mv, ms)?;
        self.redo.clear();
        Ok(played)
    }

    fn apply(&mut self, mv: Move, ms: u64) -> Result<Vec<MoveRecord>, GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        let color = self.side_to_move();
        let flipped = self.position.flips(mv);
        self.position.play(mv)?;
        self.flipped = flipped;
        let mut played = vec![MoveRecord { mv, color, ms: ms.min(MAX_MOVE_MS) }];
        if self.position.must_pass() {
            let color = self.side_to_move();
            self.position.play(Move::Pass)?;
            played.push(MoveRecord { mv: Move::Pass, color, ms: 0 });
        }
        self.history.extend_from_slice(&played);
        self.refresh_result();
        Ok(played)
    }

    /// Plays `mv` as a match between programs does: like [`Game::play`], except that black's
    /// forbidden point under Renju is not refused but ends the game as black's loss (the
    /// stone is not placed; [`Game::to_record`] ends with it). Returns the records added:
    /// none for such a loss.
    pub fn play_or_forfeit(&mut self, mv: Move, ms: u64) -> Result<Vec<MoveRecord>, GameError> {
        match self.play(mv, ms) {
            Err(GameError::Gomoku(GomokuError::Forbidden { point, kind, .. })) => {
                self.redo.clear();
                self.forfeit_forbidden(point, kind);
                Ok(Vec::new())
            }
            played => played,
        }
    }

    /// Takes back the last move (with an automatic pass that followed it, and a resignation
    /// after it). Returns the records taken back, the most recent first.
    pub fn undo(&mut self) -> Result<Vec<MoveRecord>, GameError> {
        let had_decision = self.decided.take().is_some();
        let mut undone = Vec::new();
        while let Some(rec) = self.history.pop() {
            undone.push(rec);
            if rec.mv != Move::Pass {
                break;
            }
        }
        if undone.is_empty() && !had_decision {
            return Err(GameError::NothingToUndo);
        }
        self.redo.extend(undone.iter().copied());
        self.rebuild()?;
        Ok(undone)
    }

    /// Plays the most recently undone move again. Returns the records added.
    pub fn redo(&mut self) -> Result<Vec<MoveRecord>, GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        // Passes come back by themselves when their move is replayed.
        while self.redo.last().is_some_and(|r| r.mv == Move::Pass) {
            self.redo.pop();
        }
        let rec = self.redo.pop().ok_or(GameError::NothingToRedo)?;
        let played = self.apply(rec.mv, rec.ms)?;
        if played.len() > 1 && self.redo.last().is_some_and(|r| r.mv == Move::Pass) {
            self.redo.pop();
        }
        Ok(played)
    }

    /// `color` resigns; the other side wins.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        self.decided = Some(self.resignation(color));
        self.refresh_result();
        Ok(())
    }

    /// The result of `color` resigning now.
    pub(super) fn resignation(&self, color: Color) -> GameResult {
        GameResult {
            winner: Some(color.opponent()),
            reason: EndReason::Resignation,
            line: Vec::new(),
            discs: self.disc_counts(),
            forbidden: None,
        }
    }

    /// The result of black playing the forbidden point `p`: under Renju black loses.
    pub(super) fn forfeit(p: Point, kind: ForbiddenKind) -> GameResult {
        GameResult {
            winner: Some(Color::White),
            reason: EndReason::Forbidden,
            line: vec![p],
            discs: None,
            forbidden: Some(kind),
        }
    }

    /// Records that black played the forbidden point `p` (found in a record from elsewhere):
    /// under Renju black loses. The stone is not placed.
    pub(super) fn forfeit_forbidden(&mut self, p: Point, kind: ForbiddenKind) {
        self.decided = Some(Game::forfeit(p, kind));
        self.refresh_result();
    }

    pub(super) fn decided(&self) -> Option<&GameResult> {
        self.decided.as_ref()
    }

    pub(super) fn set_decided(&mut self, decided: Option<GameResult>) {
        self.decided = decided;
        self.refresh_result();
    }

    pub(super) fn redo_stack(&self) -> &[MoveRecord] {
        &self.redo
    }

    pub(super) fn set_redo_stack(&mut self, redo: Vec<MoveRecord>) {
        self.redo = redo;
    }

    fn rebuild(&mut self) -> Result<(), GameError> {
        let mut position = Position::new(self.config.kind)?;
        for rec in &self.history {
            position.play(rec.mv)?;
        }
        self.position = position;
        self.flipped.clear();
        self.refresh_result();
        Ok(())
    }

    fn disc_counts(&self) -> Option<(u32, u32)> {
        match &self.position {
            Position::Gomoku(_) => None,
            Position::Reversi(r) => Some((r.count(Color::Black), r.count(Color::White))),
        }
    }

    fn refresh_result(&mut self) {
        self.result = self.decided.clone().or_else(|| match &self.position {
            Position::Gomoku(g) => {
                if let Some(win) = g.winner() {
                    Some(GameResult {
                        winner: Some(win.color),
                        reason: EndReason::Five,
                        line: win.line,
                        discs: None,
                        forbidden: None,
                    })
                } else if g.is_full() {
                    Some(GameResult {
                        winner: None,
                        reason: EndReason::BoardFull,
                        line: Vec::new(),
                        discs: None,
                        forbidden: None,
                    })
                } else {
                    None
                }
            }
            Position::Reversi(r) => {
                if !r.is_game_over() {
                    return None;
                }
                let (black, white) = (r.count(Color::Black), r.count(Color::White));
                let winner = match black.cmp(&white) {
                    std::cmp::Ordering::Greater => Some(Color::Black),
                    std::cmp::Ordering::Less => Some(Color::White),
                    std::cmp::Ordering::Equal => None,
                };
                Some(GameResult {
                    winner,
                    reason: EndReason::NoMoves,
                    line: Vec::new(),
                    discs: Some((black, white)),
                    forbidden: None,
                })
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameKind, IllegalReason};
    use crate::level::{Level, ReversiLevel};

    fn reversi() -> Game {
        let mut config =
            GameConfig::human_vs(GameKind::Reversi, Level::Reversi(ReversiLevel::Greedy));
        config.white = PlayerKind::Human;
        Game::new(config).unwrap()
    }

    #[test]
    fn the_last_move_knows_what_it_flipped() {
        let mut game = reversi();
        assert!(game.flipped().is_empty());
        let f5 = Move::Place(Point::new(5, 4));
        let expected = game.position().flips(f5);
        game.play(f5, 0).unwrap();
        assert_eq!(game.flipped(), expected.as_slice());
        assert_eq!(game.flipped(), &[Point::new(4, 4)]);
        // A refused move changes nothing.
        assert!(game.play(Move::Place(Point::new(0, 0)), 0).is_err());
        assert_eq!(game.flipped(), &[Point::new(4, 4)]);
        game.undo().unwrap();
        assert!(game.flipped().is_empty());
        game.redo().unwrap();
        assert_eq!(game.flipped(), &[Point::new(4, 4)]);
    }

    #[test]
    fn check_refuses_every_move_once_the_game_is_over() {
        let mut game = reversi();
        let f5 = Move::Place(Point::new(5, 4));
        assert_eq!(game.check(f5), Ok(()));
        assert_eq!(game.history().len(), 0, "checking plays nothing");
        game.resign(Color::Black).unwrap();
        let e = game.check(f5).unwrap_err();
        assert_eq!(e.illegal(), Some(IllegalReason::GameOver));
        assert_eq!(game.play(f5, 0).unwrap_err(), e);
    }
}

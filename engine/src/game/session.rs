//! [`Game`]: one game in progress, as the app and the CLI see it.

use serde::{Deserialize, Serialize};

use super::opening::{self, Choice, Opening, OpeningError, Phase, RenjuOpening, Role};
use super::tree::{NodeId, Tree, ROOT};
use super::{
    EndReason, ForfeitReason, GameConfig, GameError, GameResult, PlayerKind, Position, Setup,
    SetupError,
};
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

/// A game in progress: configuration, the start position (the usual one, or one set up in
/// the editor), the tree of every move tried ([`Tree`]), and the cursor: the node whose
/// position is shown and played from.
///
/// `history` is the path from the start to the cursor; undo and redo move the cursor along
/// the line shown, so nothing played is lost. Playing at an earlier position starts a
/// variation (or follows the move already there). Reversi passes are played automatically
/// when the rules force them and are nodes like moves (with `ms` 0); the cursor never rests
/// on a position that must pass.
#[derive(Clone, Debug)]
pub struct Game {
    config: GameConfig,
    /// The set-up the game starts from (`None`: the game's usual start).
    setup: Option<Setup>,
    start: Position,
    tree: Tree,
    cursor: NodeId,
    position: Position,
    history: Vec<MoveRecord>,
    /// Cached result: the cursor's decision (resignation, forbidden move), or what the
    /// position says.
    result: Option<GameResult>,
    /// Reversi: the discs the move to the cursor flipped (empty after stepping back).
    flipped: Vec<Point>,
    /// The time the side to move has spent on its move so far (the clock's state, saved
    /// with the game; 0 whenever the cursor moves).
    turn_ms: u64,
    /// The opening rule with the choices made (no rule for a set-up start).
    opening: Opening,
}

impl Game {
    /// A new game at the starting position.
    pub fn new(config: GameConfig) -> Result<Game, GameError> {
        config.validate()?;
        let start = Position::new(config.kind)?;
        Ok(Game::starting_at(config, None, start))
    }

    /// A new game from a position set up by hand, checked by [`Setup::validate`].
    pub fn from_setup(config: GameConfig, setup: Setup) -> Result<Game, SetupError> {
        config.validate()?;
        let start = setup.validate(config.kind)?;
        Ok(Game::starting_at(config, Some(setup), start))
    }

    fn starting_at(config: GameConfig, setup: Option<Setup>, start: Position) -> Game {
        let rule = if setup.is_none() { config.opening } else { opening::OpeningRule::None };
        let mut game = Game {
            opening: Opening::new(rule),
            config,
            setup,
            position: start.clone(),
            start,
            tree: Tree::new(),
            cursor: ROOT,
            history: Vec::new(),
            result: None,
            flipped: Vec::new(),
            turn_ms: 0,
        };
        game.refresh_result();
        game
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The set-up the game started from, if it did not start from the usual position.
    pub fn setup(&self) -> Option<&Setup> {
        self.setup.as_ref()
    }

    /// Changes who plays each side (and the time per move) without touching the moves.
    pub fn set_players(&mut self, black: PlayerKind, white: PlayerKind) -> Result<(), GameError> {
        let config = GameConfig { black, white, ..self.config };
        config.validate()?;
        self.config = config;
        Ok(())
    }

    /// The position shown (at the cursor).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The start position (the root of the tree).
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// The moves from the start to the position shown.
    pub fn history(&self) -> &[MoveRecord] {
        &self.history
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The node shown.
    pub fn cursor(&self) -> NodeId {
        self.cursor
    }

    /// The line shown: the path to the cursor and the remembered continuation after it.
    pub fn line(&self) -> Vec<NodeId> {
        self.tree.line_through(self.cursor)
    }

    /// How many records redo could bring back: the rest of the line shown.
    pub fn redo_len(&self) -> usize {
        let mut n = 0;
        let mut at = self.cursor;
        while let Some(next) = self.tree.next(at) {
            n += 1;
            at = next;
        }
        n
    }

    pub fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }

    /// Who plays `color` at the position shown: the settings' player of that colour, or,
    /// after an opening's choice of colours, the one who took it (the settings' `black` is
    /// the opening's first player).
    pub fn player(&self, color: Color) -> PlayerKind {
        self.config.player(match self.opening_phase().first {
            Color::Black => color,
            Color::White => color.opponent(),
        })
    }

    /// The player of an opening role: the settings' `black` is the first player.
    pub fn role_player(&self, role: Role) -> PlayerKind {
        match role {
            Role::First => self.config.black,
            Role::Second => self.config.white,
        }
    }

    /// Who acts now: the opening step's player during the opening, else the side to move's.
    pub fn acting_player(&self) -> PlayerKind {
        match self.opening_phase().step {
            Some(step) => self.role_player(step.role),
            None => self.player(self.side_to_move()),
        }
    }

    /// The opening rule and its choices.
    pub fn opening(&self) -> &Opening {
        &self.opening
    }

    /// The stones from the start to the position shown (Gomoku; Reversi has none).
    fn stones(&self) -> Vec<Point> {
        match self.position {
            Position::Gomoku(_) => self.history.iter().filter_map(|r| r.mv.point()).collect(),
            Position::Reversi(_) => Vec::new(),
        }
    }

    /// Where the opening stands at the position shown.
    pub fn opening_phase(&self) -> Phase {
        // Without a rule there are no steps: no need to gather the stones.
        let stones = if self.opening.rule().is_none() { Vec::new() } else { self.stones() };
        self.opening.phase(&stones)
    }

    /// The canonical Renju opening the line shown starts with (any Gomoku game, whatever
    /// its rules; not for a set-up start).
    pub fn opening_name(&self) -> Option<RenjuOpening> {
        if self.setup.is_some() || !matches!(self.position, Position::Gomoku(_)) {
            return None;
        }
        let stones: Vec<Point> = self
            .line()
            .iter()
            .take(3)
            .filter_map(|&id| self.tree.record(id).and_then(|r| r.mv.point()))
            .collect();
        opening::opening_name(self.position.size(), &stones)
    }

    /// Sets the opening (rule and choices, from a file) over the line shown, checking every
    /// step ([`Opening::replay`]); the settings take the rule.
    pub(super) fn set_opening(
        &mut self,
        rule: opening::OpeningRule,
        choices: &[Choice],
    ) -> Result<(), OpeningError> {
        let (size, board_rule) = match self.config.kind {
            super::GameKind::Gomoku { size, rule } => (size, rule),
            super::GameKind::Reversi if rule.is_none() && choices.is_empty() => return Ok(()),
            super::GameKind::Reversi => return Err(OpeningError::BadStones),
        };
        let stones: Vec<Point> = (self.line().iter())
            .filter_map(|&id| self.tree.record(id).and_then(|r| r.mv.point()))
            .collect();
        let rule = if self.setup.is_some() { opening::OpeningRule::None } else { rule };
        self.opening = Opening::replay(rule, size, board_rule, &stones, choices)?;
        self.config.opening = rule;
        Ok(())
    }

    /// Makes an opening choice at the position shown; a pick plays the picked stone (taking
    /// `ms`). Returns the records added.
    pub fn opening_choice(
        &mut self,
        choice: Choice,
        ms: u64,
    ) -> Result<Vec<MoveRecord>, GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        let Position::Gomoku(board) = &self.position else {
            return Err(OpeningError::Over.into());
        };
        let stones = self.stones();
        let mut opening = self.opening.clone();
        let pick = opening.choose(&stones, board, choice)?;
        let added = match pick {
            Some(p) => self.play_unchecked_opening(Move::Place(p), ms)?,
            None => Vec::new(),
        };
        self.opening = opening;
        Ok(added)
    }

    /// The result of the line shown, at the cursor.
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
        self.check_opening(mv)?;
        self.position.check(mv)
    }

    /// Whether the opening lets a stone go on `mv` now (its step and area).
    fn check_opening(&self, mv: Move) -> Result<(), GameError> {
        if self.opening.rule().is_none() {
            return Ok(());
        }
        let point = mv.point().ok_or(GameError::NoPassInGomoku)?;
        Ok(self.opening.check_stone(&self.stones(), self.position.size(), point)?)
    }

    /// Reversi: the discs the move to the cursor flipped; empty after stepping back, and
    /// always in Gomoku.
    pub fn flipped(&self) -> &[Point] {
        &self.flipped
    }

    /// Plays `mv` for the side to move at the position shown, taking `ms` milliseconds (at
    /// most [`MAX_MOVE_MS`] is recorded). A move already tried there is followed (keeping its
    /// record); a new one starts a variation when the position had a continuation. Returns
    /// the records of the step: the move, then a Reversi pass if the rules force one.
    pub fn play(&mut self, mv: Move, ms: u64) -> Result<Vec<MoveRecord>, GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        self.check_opening(mv)?;
        self.play_unchecked_opening(mv, ms)
    }

    /// [`Game::play`] without the opening's check (a pick is not a stone step).
    fn play_unchecked_opening(&mut self, mv: Move, ms: u64) -> Result<Vec<MoveRecord>, GameError> {
        let node = match self.tree.child_with(self.cursor, mv) {
            Some(node) => node,
            None => {
                self.position.check(mv)?;
                self.opening.forget_after(self.history.len());
                let color = self.side_to_move();
                let rec = MoveRecord { mv, color, ms: ms.min(MAX_MOVE_MS) };
                self.tree.add(self.cursor, rec)
            }
        };
        let from = self.history.len();
        self.goto(node)?;
        Ok(self.history[from..].to_vec())
    }

    /// Plays a program's answer as a match between programs does: a move, or the way the
    /// program failed to give one. A move is played as [`Game::play`] plays it, except that
    /// a move the rules refuse ends the game as the mover's loss: black's forbidden point
    /// under Renju by the rules ([`EndReason::Forbidden`]; the stone is not placed and
    /// [`Game::to_record`] ends with it), any other by forfeit
    /// ([`ForfeitReason::IllegalMove`]), and a failure by forfeit with its reason. Returns
    /// the records added (none when the answer lost), or the rules' refusal of an illegal
    /// move (the game is then over); [`GameError::GameOver`] changes nothing.
    pub fn play_or_forfeit(
        &mut self,
        answer: Result<Move, ForfeitReason>,
        ms: u64,
    ) -> Result<Vec<MoveRecord>, GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        let side = self.side_to_move();
        let (why, refused) = match answer.map(|mv| self.play(mv, ms)) {
            Ok(Err(GameError::Gomoku(GomokuError::Forbidden { point, kind, .. }))) => {
                self.forfeit_forbidden(point, kind);
                return Ok(Vec::new());
            }
            Ok(Err(refused)) => (ForfeitReason::IllegalMove, Err(refused)),
            Ok(played) => return played,
            Err(why) => (why, Ok(Vec::new())),
        };
        self.set_decided(Some(GameResult {
            reason: EndReason::Forfeit(why),
            ..self.resignation(side)
        }));
        refused
    }

    /// Takes back the last move (with an automatic pass that followed it, and a resignation
    /// after it): the cursor steps back, the move stays in the tree for redo. Returns the
    /// records taken back, the most recent first.
    pub fn undo(&mut self) -> Result<Vec<MoveRecord>, GameError> {
        let had_decision = self.tree.ended(self.cursor).is_some();
        self.tree.set_ended(self.cursor, None);
        let undone: Vec<MoveRecord> = match self.step_back_target() {
            Some(target) => {
                let from = self.tree.depth(target);
                let undone = self.history[from..].iter().rev().copied().collect();
                self.goto(target)?;
                undone
            }
            None if had_decision => {
                self.refresh_result();
                Vec::new()
            }
            None => return Err(GameError::NothingToUndo),
        };
        Ok(undone)
    }

    /// Plays the most recently undone move again: the cursor steps forward along the line
    /// shown. Returns the records added.
    pub fn redo(&mut self) -> Result<Vec<MoveRecord>, GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        let next = self.tree.next(self.cursor).ok_or(GameError::NothingToRedo)?;
        let from = self.history.len();
        self.goto(next)?;
        Ok(self.history[from..].to_vec())
    }

    /// Where one step back goes: before the last move, and before the pass it forced.
    fn step_back_target(&self) -> Option<NodeId> {
        let mut at = self.cursor;
        while self.is_pass(at) {
            at = self.tree.parent(at)?;
        }
        self.tree.parent(at)
    }

    /// Steps one move back along the line shown (a forced pass with it); false at the start.
    pub fn back(&mut self) -> bool {
        match self.step_back_target() {
            Some(target) => self.goto(target).is_ok(),
            None => false,
        }
    }

    /// Steps one move forward along the line shown, whatever the result; false at its end.
    pub fn forward(&mut self) -> bool {
        match self.tree.next(self.cursor) {
            Some(next) => self.goto(next).is_ok(),
            None => false,
        }
    }

    /// Shows the position after `ply` records of the line shown (0: the start; past its
    /// end: its last position). A ply whose move forces a pass shows the position after
    /// the pass.
    pub fn go_to_ply(&mut self, ply: usize) -> Result<(), GameError> {
        let line = self.line();
        let target = match ply.min(line.len()) {
            0 => ROOT,
            n => line[n - 1],
        };
        self.goto(target)
    }

    /// Shows the position at `node` (the line shown then goes through it). An unknown node
    /// is [`GameError::NoSuchNode`].
    pub fn goto(&mut self, node: NodeId) -> Result<(), GameError> {
        if !self.tree.contains(node) {
            return Err(GameError::NoSuchNode);
        }
        if node != self.cursor {
            if self.tree.parent(node) == Some(self.cursor) {
                self.step_into(node)?;
            } else {
                self.rebuild(node)?;
            }
        }
        // The cursor never rests where the rules force a pass: the pass node follows.
        while self.position.must_pass() {
            let pass = self.tree.child_with(self.cursor, Move::Pass);
            match pass {
                Some(pass) => self.step_into(pass)?,
                None => {
                    let rec = MoveRecord { mv: Move::Pass, color: self.side_to_move(), ms: 0 };
                    let pass = self.tree.add(self.cursor, rec);
                    self.step_into(pass)?;
                }
            }
        }
        self.tree.follow(self.cursor);
        self.refresh_result();
        Ok(())
    }

    /// Moves the cursor to its child `node`, playing the move (checked by the rules).
    fn step_into(&mut self, node: NodeId) -> Result<(), GameError> {
        let Some(&rec) = self.tree.record(node) else { return Err(GameError::NoSuchNode) };
        let flipped = self.position.flips(rec.mv);
        if let Err(e) = self.position.play(rec.mv) {
            // Only a move that was never accepted can fail: forget it.
            self.tree.remove(node);
            return Err(e);
        }
        if rec.mv != Move::Pass {
            self.flipped = flipped;
        }
        self.history.push(rec);
        self.cursor = node;
        self.turn_ms = 0;
        Ok(())
    }

    /// Shows `node` by replaying its path from the start (every move on it was checked when
    /// it entered the tree). One step back in Gomoku takes the stone off instead.
    fn rebuild(&mut self, node: NodeId) -> Result<(), GameError> {
        if self.tree.parent(self.cursor) == Some(node) && self.position.take_back() {
            self.history.pop();
            self.cursor = node;
            self.turn_ms = 0;
            self.flipped.clear();
            return Ok(());
        }
        let path = self.tree.path(node);
        let mut position = self.start.clone();
        let mut history = Vec::with_capacity(path.len());
        let mut flipped = Vec::new();
        for &id in &path {
            let Some(&rec) = self.tree.record(id) else { return Err(GameError::NoSuchNode) };
            if rec.mv != Move::Pass {
                flipped = position.flips(rec.mv);
            }
            position.replay(rec.mv)?;
            history.push(rec);
        }
        self.position = position;
        self.history = history;
        self.flipped = flipped;
        self.cursor = node;
        self.turn_ms = 0;
        Ok(())
    }

    fn is_pass(&self, node: NodeId) -> bool {
        self.tree.record(node).is_some_and(|r| r.mv == Move::Pass)
    }

    /// Makes the line through `node` the main line (the old main line stays a variation).
    pub fn promote(&mut self, node: NodeId) -> Result<(), GameError> {
        if !self.tree.contains(node) {
            return Err(GameError::NoSuchNode);
        }
        self.tree.promote(node);
        Ok(())
    }

    /// Deletes `node` and every move after it (a forced pass goes with the move that forced
    /// it). When the position shown was among them, the move before `node` is shown.
    pub fn delete(&mut self, node: NodeId) -> Result<(), GameError> {
        let mut node = node;
        while self.is_pass(node) {
            node = self.tree.parent(node).ok_or(GameError::NoSuchNode)?;
        }
        let parent = self.tree.parent(node).ok_or(GameError::NoSuchNode)?;
        if self.tree.is_ancestor(node, self.cursor) {
            self.goto(parent)?;
        }
        self.tree.remove(node);
        self.tree.follow(self.cursor);
        Ok(())
    }

    /// The clock at the position shown, stopped: each side's time left from the game's
    /// time control and the recorded time of each move to here ([`super::Clock::replay`];
    /// an opening rule's stones are placed off the clock), less the time already spent on
    /// the move to play ([`Game::turn_ms`]).
    pub fn clock(&self) -> super::Clock {
        let opening = match self.opening.rule().is_none() {
            true => 0,
            false => self.opening.opening_stones(&self.stones()),
        };
        let (control, turn) = (self.config.time_control, self.side_to_move());
        let clock = super::Clock::replay(control, &self.history, opening, turn);
        clock.with_spent(self.turn_ms)
    }

    /// The time the side to move has spent on its move so far (kept by whoever runs the
    /// clock, saved with the game so that a restart does not give it back).
    pub fn turn_ms(&self) -> u64 {
        self.turn_ms
    }

    /// Sets [`Game::turn_ms`] (at most [`MAX_MOVE_MS`]).
    pub fn set_turn_ms(&mut self, ms: u64) {
        self.turn_ms = ms.min(MAX_MOVE_MS);
    }

    /// `color` resigns; the other side wins.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        self.set_decided(Some(self.resignation(color)));
        Ok(())
    }

    /// The result of `color` resigning now.
    /// The side to move ran out of time ([`super::Clock::flagged`]) and loses the game here
    /// ([`EndReason::Time`]).
    pub fn lose_on_time(&mut self) -> Result<(), GameError> {
        if self.result.is_some() {
            return Err(GameError::GameOver);
        }
        let loser = self.side_to_move();
        self.set_decided(Some(GameResult { reason: EndReason::Time, ..self.resignation(loser) }));
        Ok(())
    }

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
        self.set_decided(Some(Game::forfeit(p, kind)));
    }

    /// The decision (resignation, forbidden move) at the position shown.
    pub(super) fn decided(&self) -> Option<&GameResult> {
        self.tree.ended(self.cursor)
    }

    pub(super) fn set_decided(&mut self, decided: Option<GameResult>) {
        self.tree.set_ended(self.cursor, decided);
        self.refresh_result();
    }

    fn disc_counts(&self) -> Option<(u32, u32)> {
        match &self.position {
            Position::Gomoku(_) => None,
            Position::Reversi(r) => Some((r.count(Color::Black), r.count(Color::White))),
        }
    }

    fn refresh_result(&mut self) {
        self.result = self.decided().cloned().or_else(|| match &self.position {
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
                } else if g.no_legal_point() {
                    Some(GameResult {
                        winner: None,
                        reason: EndReason::NoMoves,
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

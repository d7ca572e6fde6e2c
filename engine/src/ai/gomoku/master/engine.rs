//! Master as an [`Engine`] for [`Position`]: converts the position to the internal board
//! and checks every candidate against the position's own (exact) rules.

use std::time::Instant;

use super::board::Board;
use super::pattern::{LineRule, BLACK, WHITE};
use super::Master;
use crate::ai::{CancelFlag, Engine, Limits, SearchInfo, SearchResult};
use crate::gomoku::{Position, Rule};
use crate::{Color, Point};

/// The internal rule of a game rule.
pub fn line_rule(rule: Rule) -> LineRule {
    match rule {
        Rule::Freestyle => LineRule::Freestyle,
        Rule::Standard => LineRule::Standard,
        Rule::Renju => LineRule::Renju,
    }
}

/// The internal board of a position (stones in the order they were played).
pub fn board_of(pos: &Position) -> Board {
    let size = pos.size();
    let mut board = Board::new(size, line_rule(pos.rule()));
    let mut stones = Vec::with_capacity(pos.moves().len());
    for y in 0..size {
        for x in 0..size {
            let p = Point::new(x, y);
            match pos.stone(p) {
                Some(Color::Black) => stones.push((board.index(p), BLACK)),
                Some(Color::White) => stones.push((board.index(p), WHITE)),
                None => {}
            }
        }
    }
    board.setup(&stones, pos.side_to_move().index());
    board
}

impl Engine<Position> for Master {
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        // The move's time starts now: building the board may first build the rule's pattern
        // tables (tens of milliseconds, once per process).
        let start = Instant::now();
        let board = board_of(pos);
        let renju_black = pos.rule() == Rule::Renju && pos.side_to_move() == Color::Black;
        let allowed = |p: Point| !renju_black || pos.is_forbidden(p).is_none();
        self.think_from(start, board, &allowed, limits, cancel, progress)
    }

    fn clear(&mut self) {
        self.reset();
    }
}

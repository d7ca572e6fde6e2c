//! Win detection: scanning the four lines through the last stone.

use serde::{Deserialize, Serialize};

use super::board::{Board, DIRECTIONS};
use super::line::cell_of;
use super::Rule;
use crate::{Color, Point};

/// A won game: the winner and the cells of the winning run, in order along the line.
///
/// Under standard rules and for black under Renju the run has exactly five cells; under
/// freestyle and for white under Renju it is the whole run (five or more).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Win {
    pub color: Color,
    pub line: Vec<Point>,
}

/// The win made by the stone of `color` standing on `p`, if any.
pub(crate) fn win_through(board: &Board, p: Point, color: Color, rule: Rule) -> Option<Win> {
    let cell = cell_of(color);
    for d in DIRECTIONS {
        let (lo, hi) = board.run(p, d, cell);
        let len = (hi - lo + 1) as u32;
        if rule.run_wins(color, len) {
            let line = (lo..=hi)
                .map(|t| Point::new((p.x as i32 + t * d.0) as u8, (p.y as i32 + t * d.1) as u8))
                .collect();
            return Some(Win { color, line });
        }
    }
    None
}

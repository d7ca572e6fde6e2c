//! The threat table: what a stone on a point makes along one line (five, open four, four,
//! open three), read from [`crate::gomoku::line`]'s one pattern table.
//!
//! The forcing search keeps one key per point, direction and colour, *relative* to that
//! colour: its own stones are coded as black, the opponent's as white (the line
//! foundation's codes and layout, [`line::key_of`]). A key is then read as black's line
//! under the rule that matches the colour's idea of a five: freestyle's where an overline
//! wins for it, standard's (exactly five) where it does not. Black's forbidden points under
//! Renju are the reading's own business (`can_play`), not the table's.

use crate::ai::gomoku::common::{Grid, EMPTY};
use crate::gomoku::line::{self, Key, Pat};
use crate::gomoku::Rule;
use crate::{Color, Point};

/// What a stone placed on a point makes in one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Threat {
    None = 0,
    /// A three that can become an open four.
    OpenThree = 1,
    /// A four with one point to make five.
    Four = 2,
    /// A four with two points to make five (see [`line`] for the settled definition).
    OpenFour = 3,
    /// A winning five.
    Five = 4,
}

impl Threat {
    /// The threat of a line pattern (`None` below a closed three).
    #[inline]
    const fn of(pat: Option<Pat>) -> Threat {
        match pat {
            Some(Pat::F5) => Threat::Five,
            Some(Pat::F4 | Pat::DoubleFour) => Threat::OpenFour,
            Some(Pat::B4) => Threat::Four,
            Some(Pat::F3) => Threat::OpenThree,
            _ => Threat::None,
        }
    }
}

/// An empty cell in a relative key.
pub(super) const C_EMPTY: u8 = line::EMPTY;
/// A stone of the colour the key is for.
pub(super) const C_OWN: u8 = line::BLACK;
/// A stone of the other colour.
pub(super) const C_OPP: u8 = line::WHITE;
/// Off the board.
pub(super) const C_OFF: u8 = line::EDGE;

/// The threat of the relative key `key` (see [`line_key`]) for a colour for which a run of
/// six or more wins (`overline_wins`) or not.
#[inline]
pub fn threat_of(key: usize, overline_wins: bool) -> Threat {
    let rule = if overline_wins { Rule::Freestyle } else { Rule::Standard };
    Threat::of(line::threat_pattern(key as Key, Color::Black, rule))
}

/// The relative key of `p` along `(dx, dy)` for the side whose stones are `own`: the line
/// foundation's key with `own` coded as black and the other colour as white.
#[inline]
pub fn line_key(grid: &Grid, p: Point, (dx, dy): (i32, i32), own: u8) -> usize {
    let (x, y) = (p.x as i32, p.y as i32);
    line::key_of(|k| match grid.get(x + k * dx, y + k * dy) {
        None => C_OFF,
        Some(EMPTY) => C_EMPTY,
        Some(c) if c == own => C_OWN,
        Some(_) => C_OPP,
    }) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_lines() {
        let key = |s: &str| {
            // s: 11 chars, index 5 is the point ('.' there), x = own, o = opp, - = empty, # off.
            let cells: Vec<u8> = s
                .chars()
                .map(|c| match c {
                    'x' => C_OWN,
                    'o' => C_OPP,
                    '#' => C_OFF,
                    _ => C_EMPTY,
                })
                .collect();
            line::key_of(|k| cells[(k + 5) as usize]) as usize
        };
        assert_eq!(threat_of(key("--xxx.x----"), true), Threat::Five);
        assert_eq!(threat_of(key("-xxxx.x----"), true), Threat::Five);
        assert_eq!(threat_of(key("-xxxx.x----"), false), Threat::None, "six is no five");
        assert_eq!(threat_of(key("---xx.x----"), true), Threat::OpenFour);
        assert_eq!(threat_of(key("--oxx.x----"), true), Threat::Four);
        assert_eq!(threat_of(key("--x-x.x----"), true), Threat::Four);
        assert_eq!(threat_of(key("---x-.x-x--"), true), Threat::OpenThree);
        assert_eq!(threat_of(key("----x.x----"), true), Threat::OpenThree);
        assert_eq!(threat_of(key("---x-.x----"), true), Threat::OpenThree);
        assert_eq!(threat_of(key("---ox.x----"), true), Threat::None, "closed three");
        assert_eq!(threat_of(key("#####.xx---"), true), Threat::None);
        assert_eq!(threat_of(key("#####.xxx--"), true), Threat::Four);
        assert_eq!(threat_of(key("--x-x.x-x--"), false), Threat::OpenFour, "two fours");
    }
}

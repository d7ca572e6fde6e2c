//! The threat table: what a stone on a point makes along one line (five, open four, four,
//! open three), from the ten cells around it, classified once and remembered.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::ai::gomoku::common::{Grid, EMPTY};
use crate::Point;

/// What a stone placed on a point makes in one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Threat {
    None = 0,
    /// A three that can become an open four.
    OpenThree = 1,
    /// A four with one point to make five.
    Four = 2,
    /// A four with two (or more) points to make five.
    OpenFour = 3,
    /// A winning five.
    Five = 4,
}

pub(super) const C_EMPTY: u8 = 0;
pub(super) const C_OWN: u8 = 1;
pub(super) const C_OPP: u8 = 2;
pub(super) const C_OFF: u8 = 3;

/// Memoised line classification, shared by every engine of the process: the ten cells
/// around a point (five each side, two bits each) map to the [`Threat`] a stone there makes,
/// one table for rules where an overline wins and one where it does not. An entry holds
/// `1 + threat`, or 0 until it is first needed.
static THREATS: [[AtomicU8; 1 << 20]; 2] =
    [[const { AtomicU8::new(0) }; 1 << 20], [const { AtomicU8::new(0) }; 1 << 20]];

/// The threat of the neighbourhood `key` (see [`line_key`]).
#[inline]
pub fn threat_of(key: usize, overline_wins: bool) -> Threat {
    let cell = &THREATS[usize::from(overline_wins)][key];
    let v = cell.load(Ordering::Relaxed);
    if v != 0 {
        return from_u8(v - 1);
    }
    let t = classify_key(key, overline_wins);
    cell.store(t as u8 + 1, Ordering::Relaxed);
    t
}

fn from_u8(v: u8) -> Threat {
    match v {
        1 => Threat::OpenThree,
        2 => Threat::Four,
        3 => Threat::OpenFour,
        4 => Threat::Five,
        _ => Threat::None,
    }
}

/// Whether the run of own stones through the centre (index 5) is a winning five.
fn centre_five(line: &[u8; 11], overline_wins: bool) -> bool {
    let (mut lo, mut hi) = (5, 5);
    while lo > 0 && line[lo - 1] == C_OWN {
        lo -= 1;
    }
    while hi < 10 && line[hi + 1] == C_OWN {
        hi += 1;
    }
    let len = hi - lo + 1;
    len == 5 || (len > 5 && overline_wins)
}

/// Number of empty cells that would complete a five through the centre.
fn five_points(line: &mut [u8; 11], overline_wins: bool) -> usize {
    let mut n = 0;
    for q in 0..11 {
        if line[q] == C_EMPTY {
            line[q] = C_OWN;
            n += usize::from(centre_five(line, overline_wins));
            line[q] = C_EMPTY;
        }
    }
    n
}

/// Classifies a neighbourhood key with the stone placed on its centre.
fn classify_key(key: usize, overline_wins: bool) -> Threat {
    let mut line = [C_OFF; 11];
    for k in 1..=5 {
        line[5 - k] = ((key >> (2 * (k - 1))) & 3) as u8;
        line[5 + k] = ((key >> (2 * (k + 4))) & 3) as u8;
    }
    line[5] = C_OWN;
    if centre_five(&line, overline_wins) {
        return Threat::Five;
    }
    match five_points(&mut line, overline_wins) {
        0 => {}
        1 => return Threat::Four,
        _ => return Threat::OpenFour,
    }
    for q in 0..11 {
        if line[q] == C_EMPTY {
            line[q] = C_OWN;
            let open_four = five_points(&mut line, overline_wins) >= 2;
            line[q] = C_EMPTY;
            if open_four {
                return Threat::OpenThree;
            }
        }
    }
    Threat::None
}

/// The neighbourhood key of `p` along `(dx, dy)` for the side whose stones are `own`:
/// cells at distance 1..=5 before the point in bits 0..10, after it in bits 10..20.
#[inline]
pub fn line_key(grid: &Grid, p: Point, (dx, dy): (i32, i32), own: u8) -> usize {
    let cell = |c: Option<u8>| -> usize {
        match c {
            None => C_OFF as usize,
            Some(EMPTY) => C_EMPTY as usize,
            Some(c) if c == own => C_OWN as usize,
            Some(_) => C_OPP as usize,
        }
    };
    let (x, y) = (p.x as i32, p.y as i32);
    let mut key = 0;
    for k in 1..=5 {
        key |= cell(grid.get(x - k * dx, y - k * dy)) << (2 * (k - 1));
        key |= cell(grid.get(x + k * dx, y + k * dy)) << (2 * (k + 4));
    }
    key
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
            let mut key = 0usize;
            for k in 1..=5 {
                key |= (cells[5 - k] as usize) << (2 * (k - 1));
                key |= (cells[5 + k] as usize) << (2 * (k + 4));
            }
            key
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
    }
}

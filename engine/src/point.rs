//! Board coordinates and moves, shared by both games.
//!
//! A [`Point`] is 0-based with `x` counted from the left and `y` from the top, as the UI
//! lays out its grid. Each game's notation module converts to and from its own notation
//! (Gomoku counts rows from the bottom, Reversi from the top).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    #[inline]
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Row-major index on a board `size` cells wide.
    #[inline]
    pub const fn index(self, size: u8) -> usize {
        self.y as usize * size as usize + self.x as usize
    }

    /// The inverse of [`Point::index`].
    #[inline]
    pub const fn from_index(index: usize, size: u8) -> Point {
        Point { x: (index % size as usize) as u8, y: (index / size as usize) as u8 }
    }

    /// Whether the point lies on a square board `size` cells wide.
    #[inline]
    pub const fn on_board(self, size: u8) -> bool {
        self.x < size && self.y < size
    }
}

/// One move: a stone placed on a point, or (Reversi only) a pass.
///
/// Serialised as `{"kind":"place","x":7,"y":7}` or `{"kind":"pass"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Move {
    Place(Point),
    Pass,
}

impl Move {
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Place(p) => Some(p),
            Move::Pass => None,
        }
    }
}

impl From<Point> for Move {
    fn from(p: Point) -> Move {
        Move::Place(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips() {
        for size in [5u8, 8, 15, 19, 26] {
            for i in 0..(size as usize * size as usize) {
                let p = Point::from_index(i, size);
                assert!(p.on_board(size));
                assert_eq!(p.index(size), i);
            }
            assert!(!Point::new(size, 0).on_board(size));
        }
    }

    #[test]
    fn move_json_shape() {
        let m = Move::Place(Point::new(7, 3));
        let s = serde_json::to_string(&m).unwrap();
        assert_eq!(s, r#"{"kind":"place","x":7,"y":3}"#);
        assert_eq!(serde_json::from_str::<Move>(&s).unwrap(), m);
        assert_eq!(serde_json::to_string(&Move::Pass).unwrap(), r#"{"kind":"pass"}"#);
    }
}

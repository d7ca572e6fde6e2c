//! Board notation, as in Renju diagrams: columns lettered from the left, `a` onwards with
//! `i` included (`a`–`o` on 15x15, up to `z` on 26x26); rows numbered from the BOTTOM,
//! starting at 1. So `a1` is the bottom-left corner and `h8` the centre of a 15x15 board.
//!
//! A [`Point`] counts rows from the top, so row `r` is `y = size - r`.

use thiserror::Error;

use crate::Point;

/// A point or move list that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// Not a column letter followed by a row number.
    #[error("{text:?} is not a point: expected a column letter and a row number, like h8")]
    Malformed { text: String },
    /// A well-formed point outside the board.
    #[error("{text:?} is off the {size}x{size} board (columns a to {last_col}, rows 1 to {size})")]
    OffBoard { text: String, size: u8, last_col: char },
    /// One entry of a move list is bad.
    #[error("move {number} ({text:?}): {source}")]
    InList {
        /// 1-based position of the entry in the list.
        number: usize,
        text: String,
        #[source]
        source: Box<NotationError>,
    },
}

/// The notation of an on-board point: `(7, 7)` on 15x15 is `h8`.
pub fn format_point(p: Point, size: u8) -> String {
    let col = (b'a' + p.x.min(25)) as char;
    let row = size as i32 - p.y as i32;
    format!("{col}{row}")
}

/// Reads a point like `h8` (either case, surrounding spaces ignored).
pub fn parse_point(s: &str, size: u8) -> Result<Point, NotationError> {
    let text = s.trim();
    let malformed = || NotationError::Malformed { text: text.to_string() };
    let mut chars = text.chars();
    let col = chars.next().ok_or_else(malformed)?.to_ascii_lowercase();
    let digits = chars.as_str();
    if !col.is_ascii_lowercase()
        || digits.is_empty()
        || digits.len() > 3
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(malformed());
    }
    let row: u32 = digits.parse().map_err(|_| malformed())?;
    let x = col as u32 - 'a' as u32;
    if x >= size as u32 || row == 0 || row > size as u32 {
        let last_col = (b'a' + size.clamp(1, 26) - 1) as char;
        return Err(NotationError::OffBoard { text: text.to_string(), size, last_col });
    }
    Ok(Point::new(x as u8, (size as u32 - row) as u8))
}

/// Reads a move list: points separated by spaces and/or commas (`h8 i9, j10`).
pub fn parse_moves(s: &str, size: u8) -> Result<Vec<Point>, NotationError> {
    s.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| {
            parse_point(t, size).map_err(|e| NotationError::InList {
                number: i + 1,
                text: t.to_string(),
                source: Box::new(e),
            })
        })
        .collect()
}

/// Writes a move list separated by single spaces (`h8 i9 j10`).
pub fn format_moves(moves: &[Point], size: u8) -> String {
    moves.iter().map(|&p| format_point(p, size)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_centre() {
        assert_eq!(format_point(Point::new(7, 7), 15), "h8");
        assert_eq!(parse_point("h8", 15), Ok(Point::new(7, 7)));
        assert_eq!(parse_point("a1", 15), Ok(Point::new(0, 14)));
        assert_eq!(parse_point("A15", 15), Ok(Point::new(0, 0)));
        assert_eq!(parse_point("o1", 15), Ok(Point::new(14, 14)));
        assert_eq!(parse_point("i9", 15), Ok(Point::new(8, 6)), "i is a column");
        assert_eq!(parse_point(" z26 ", 26), Ok(Point::new(25, 0)));
        assert_eq!(format_point(Point::new(25, 25), 26), "z1");
    }

    #[test]
    fn bad_points() {
        for bad in ["", "h", "8", "8h", "h-1", "h8x", "hh8", "é8", "h 8", "h00000000000000001"] {
            assert!(
                matches!(parse_point(bad, 15), Err(NotationError::Malformed { .. })),
                "{bad:?}"
            );
        }
        for off in ["p1", "a0", "a16", "z26"] {
            assert!(matches!(parse_point(off, 15), Err(NotationError::OffBoard { .. })), "{off}");
        }
    }

    #[test]
    fn move_list_errors_name_the_entry() {
        assert_eq!(
            parse_moves("H8, i9,,j10\n k11", 15),
            Ok(vec![Point::new(7, 7), Point::new(8, 6), Point::new(9, 5), Point::new(10, 4)])
        );
        assert_eq!(parse_moves("  ", 15), Ok(vec![]));
        match parse_moves("h8 i9 q3 j10", 15) {
            Err(NotationError::InList { number: 3, text, .. }) => assert_eq!(text, "q3"),
            other => panic!("{other:?}"),
        }
        let msg = parse_moves("h8 x", 15).unwrap_err().to_string();
        assert!(msg.contains("move 2") && msg.contains("\"x\""), "{msg}");
    }
}

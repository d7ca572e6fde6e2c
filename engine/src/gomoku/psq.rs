//! Piskvork's PSQ game records.
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0
//! 8,8,0
//! 9,7,1200
//! ```
//! A header with the board size, then one `x,y,ms` line per move: `x` the column counted
//! from the LEFT, `y` the row counted from the TOP, both from 1, and the milliseconds the
//! move took. Piskvork appends other lines after the moves (engine names, `-1`); reading
//! stops at the first line that is not a move (does not start with a digit or has no
//! comma). A line that does look like a move must be a valid one.

use thiserror::Error;

use super::{MAX_SIZE, MIN_SIZE};
use crate::Point;

/// A Gomoku game as stored in a PSQ file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsqRecord {
    /// Lines per side.
    pub size: u8,
    /// The moves in order, each with the milliseconds it took.
    pub moves: Vec<(Point, u64)>,
}

/// Why a PSQ text could not be read. Line numbers count from 1.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PsqError {
    /// Nothing but blank lines.
    #[error("the record is empty")]
    Empty,
    /// The first line is not a Piskvork header.
    #[error("line {line}: expected a header like \"Piskvorky 15x15, 11:11, 0\", found {text:?}")]
    BadHeader { line: usize, text: String },
    /// The header's board is not square or not 5 to 26 lines wide.
    #[error(
        "line {line}: boards must be square with {MIN_SIZE} to {MAX_SIZE} lines, not {text:?}"
    )]
    BadSize { line: usize, text: String },
    /// A line that starts like a move is not `x,y` or `x,y,ms` with whole numbers.
    #[error("line {line}: expected a move \"x,y,ms\", found {text:?}")]
    BadMove { line: usize, text: String },
    /// A move outside the board (coordinates count from 1).
    #[error("line {line}: the move {x},{y} is off the {size}x{size} board")]
    OffBoard { line: usize, x: u64, y: u64, size: u8 },
    /// A point played twice.
    #[error("line {line}: the point {x},{y} was already played")]
    Duplicate { line: usize, x: u8, y: u8 },
}

/// Reads a PSQ record.
pub fn read_psq(text: &str) -> Result<PsqRecord, PsqError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let (line, header) = lines.by_ref().find(|(_, l)| !l.is_empty()).ok_or(PsqError::Empty)?;
    let size = parse_header(line, header)?;
    let mut moves: Vec<(Point, u64)> = Vec::new();
    let mut taken = vec![false; size as usize * size as usize];
    for (line, l) in lines {
        let looks_like_move = l.starts_with(|c: char| c.is_ascii_digit()) && l.contains(',');
        if !looks_like_move {
            break;
        }
        let bad = || PsqError::BadMove { line, text: l.to_string() };
        let fields: Vec<&str> = l.split(',').map(str::trim).collect();
        if !(2..=3).contains(&fields.len()) {
            return Err(bad());
        }
        let mut nums = [0u64; 3];
        for (n, f) in nums.iter_mut().zip(&fields) {
            if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            *n = f.parse().map_err(|_| bad())?;
        }
        let [x, y, ms] = nums;
        if x == 0 || y == 0 || x > size as u64 || y > size as u64 {
            return Err(PsqError::OffBoard { line, x, y, size });
        }
        let p = Point::new(x as u8 - 1, y as u8 - 1);
        let cell = &mut taken[p.index(size)];
        if *cell {
            return Err(PsqError::Duplicate { line, x: x as u8, y: y as u8 });
        }
        *cell = true;
        moves.push((p, ms));
    }
    Ok(PsqRecord { size, moves })
}

/// `Piskvorky WxH, ...`: the size, which must be square and in range.
fn parse_header(line: usize, header: &str) -> Result<u8, PsqError> {
    let bad = || PsqError::BadHeader { line, text: header.to_string() };
    let rest = header.strip_prefix("Piskvorky").ok_or_else(bad)?;
    if !rest.starts_with(' ') {
        return Err(bad());
    }
    let rest = rest.trim_start();
    // What follows the first comma (time control, game flags) is not needed.
    let dims = rest.split_once(',').map_or(rest, |(dims, _)| dims).trim();
    let (w, h) = dims.split_once('x').ok_or_else(bad)?;
    let number = |s: &str| -> Option<u32> {
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            None
        } else {
            s.parse().ok()
        }
    };
    let (w, h) = (number(w).ok_or_else(bad)?, number(h).ok_or_else(bad)?);
    if w != h || w < MIN_SIZE as u32 || w > MAX_SIZE as u32 {
        return Err(PsqError::BadSize { line, text: dims.to_string() });
    }
    Ok(w as u8)
}

/// Writes a PSQ record the way Piskvork does (`Piskvorky N x N, 11:11, 0` header).
pub fn write_psq(record: &PsqRecord) -> String {
    let n = record.size;
    let mut out = format!("Piskvorky {n}x{n}, 11:11, 0\n");
    for (p, ms) in &record.moves {
        out.push_str(&format!("{},{},{}\n", p.x as u32 + 1, p.y as u32 + 1, ms));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_piskvork_output_with_trailing_lines() {
        let text = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,9,1530\n  9,11,20\npbrain-x.exe\n-1\n";
        let r = read_psq(text).unwrap();
        assert_eq!(r.size, 20);
        assert_eq!(
            r.moves,
            vec![(Point::new(9, 9), 0), (Point::new(10, 8), 1530), (Point::new(8, 10), 20)]
        );
    }

    #[test]
    fn header_errors() {
        for (text, want_size) in [
            ("Piskvork 15x15, 11:11, 0\n", false),
            ("Piskvorky15x15\n", false),
            ("Piskvorky 15*15\n", false),
            ("Piskvorky 15x\n", false),
            ("Piskvorky 15x16, 1:1, 0\n", true),
            ("Piskvorky 4x4\n", true),
            ("Piskvorky 27x27\n", true),
        ] {
            let e = read_psq(text).unwrap_err();
            match e {
                PsqError::BadSize { line: 1, .. } => assert!(want_size, "{text}"),
                PsqError::BadHeader { line: 1, .. } => assert!(!want_size, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        assert_eq!(read_psq(" \n\n"), Err(PsqError::Empty));
    }

    #[test]
    fn move_errors_name_the_line() {
        let h = "Piskvorky 15x15, 11:11, 0\n";
        assert!(matches!(
            read_psq(&format!("{h}8,8,0\n8,x,0\n")),
            Err(PsqError::BadMove { line: 3, .. })
        ));
        assert!(matches!(
            read_psq(&format!("{h}8,8,0,4\n")),
            Err(PsqError::BadMove { line: 2, .. })
        ));
        assert!(matches!(
            read_psq(&format!("{h}8,8,0\n16,1,0\n")),
            Err(PsqError::OffBoard { line: 3, x: 16, y: 1, size: 15 })
        ));
        assert!(matches!(
            read_psq(&format!("{h}8,0,0\n")),
            Err(PsqError::OffBoard { line: 2, .. })
        ));
        assert!(matches!(
            read_psq(&format!("{h}8,8,0\n9,9,0\n8,8,5\n")),
            Err(PsqError::Duplicate { line: 4, x: 8, y: 8 })
        ));
    }
}

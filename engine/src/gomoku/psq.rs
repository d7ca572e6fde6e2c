//! Piskvork's PSQ game records.
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0
//! 8,8,0
//! 9,7,1200
//! ```
//! A header with the board size, then one `x,y,ms` line per move: `x` the column counted
//! from the LEFT, `y` the row counted from the TOP, both from 1, and the milliseconds the
//! move took. The moves end at the first line that is not a move (does not start with a
//! digit or has no comma); a line that does look like a move must be a valid one.
//!
//! The rule. Piskvork keeps no rule in a PSQ file: its `savePsq` writes the header, the
//! moves, then (for tournament and command-line games) the two players' names, one a line
//! (`homo-1`/`homo-2` for people, else the brain's file name), then the game's error code
//! (`-1`, `0`, …). When it opens a file it reads the two lines after the moves as the
//! players (`homo-…` is a person, anything else a brain to run) and ignores the rest. So
//! Tengen writes the rule after those two lines, where Piskvork never looks:
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0
//! 8,8,0
//! 9,7,1200
//! homo-1
//! homo-2
//! rule renju
//! ```
//! and reads a `rule NAME` line (`freestyle`, `standard` or `renju`, any case) anywhere
//! after the moves. A file without one (every file Piskvork writes) has no rule.

use thiserror::Error;

use super::{Rule, MAX_SIZE, MIN_SIZE};
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
    /// A `rule` line after the moves that names no rule, or a second one.
    #[error(
        "line {line}: expected one line \"rule freestyle\", \"rule standard\" or \"rule renju\", found {text:?}"
    )]
    BadRule { line: usize, text: String },
}

/// The trailer line that names the rule: `rule renju`.
const RULE_KEY: &str = "rule";

/// Reads a PSQ record (a rule line after the moves is checked but not returned).
pub fn read_psq(text: &str) -> Result<PsqRecord, PsqError> {
    read_psq_with_rule(text).map(|(record, _)| record)
}

/// Reads a PSQ record and the rule it names after its moves, if any (see the module notes).
pub fn read_psq_with_rule(text: &str) -> Result<(PsqRecord, Option<Rule>), PsqError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let (line, header) = lines.by_ref().find(|(_, l)| !l.is_empty()).ok_or(PsqError::Empty)?;
    let size = parse_header(line, header)?;
    let mut moves: Vec<(Point, u64)> = Vec::new();
    let mut taken = vec![false; size as usize * size as usize];
    let mut rule = None;
    let mut trailer = false;
    for (line, l) in lines {
        let looks_like_move = l.starts_with(|c: char| c.is_ascii_digit()) && l.contains(',');
        trailer |= !looks_like_move;
        if trailer {
            if let Some(found) = read_rule_line(line, l)? {
                if rule.is_some() {
                    return Err(PsqError::BadRule { line, text: l.to_string() });
                }
                rule = Some(found);
            }
            continue;
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
    Ok((PsqRecord { size, moves }, rule))
}

/// A trailer line: `Some(rule)` for `rule NAME`, `None` for any other line (a player's
/// name, the error code); an error for a `rule` line that names no rule.
fn read_rule_line(line: usize, l: &str) -> Result<Option<Rule>, PsqError> {
    let mut words = l.split_whitespace();
    if !words.next().is_some_and(|w| w.eq_ignore_ascii_case(RULE_KEY)) {
        return Ok(None);
    }
    let bad = || PsqError::BadRule { line, text: l.to_string() };
    let name = words.next().ok_or_else(bad)?;
    if words.next().is_some() {
        return Err(bad());
    }
    name.parse::<Rule>().map(Some).map_err(|_| bad())
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

/// Writes a PSQ record the way Piskvork does (`Piskvorky N x N, 11:11, 0` header), with no
/// rule.
pub fn write_psq(record: &PsqRecord) -> String {
    let n = record.size;
    let mut out = format!("Piskvorky {n}x{n}, 11:11, 0\n");
    for (p, ms) in &record.moves {
        out.push_str(&format!("{},{},{}\n", p.x as u32 + 1, p.y as u32 + 1, ms));
    }
    out
}

/// [`write_psq`], then the two player lines Piskvork reads after the moves (`homo-1`,
/// `homo-2`: it opens the game between two people) and `rule NAME`, which Piskvork ignores
/// and [`read_psq_with_rule`] reads back.
pub fn write_psq_with_rule(record: &PsqRecord, rule: Rule) -> String {
    let mut out = write_psq(record);
    out.push_str(&format!("homo-1\nhomo-2\n{RULE_KEY} {}\n", rule.name()));
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
    fn the_rule_is_read_from_the_trailer() {
        let h = "Piskvorky 15x15, 11:11, 0\n8,8,0\n";
        let rule = |text: &str| read_psq_with_rule(text).map(|(_, r)| r);
        assert_eq!(rule(h), Ok(None));
        assert_eq!(rule(&format!("{h}pbrain-a.exe\npbrain-b.exe\n-1\n")), Ok(None));
        assert_eq!(rule(&format!("{h}homo-1\nhomo-2\nrule renju\n")), Ok(Some(Rule::Renju)));
        assert_eq!(rule(&format!("{h}RULE  Standard \r\n")), Ok(Some(Rule::Standard)));
        assert_eq!(rule(&format!("{h}x\nrule freestyle\n-1\n")), Ok(Some(Rule::Freestyle)));
        for (bad, at) in
            [("rule", 3), ("rule caro", 3), ("rule renju 4", 3), ("rule renju\nrule renju", 4)]
        {
            assert!(
                matches!(rule(&format!("{h}{bad}\n")), Err(PsqError::BadRule { line, .. }) if line == at),
                "{bad:?}"
            );
        }
        // A "rule" line in the header's place is no trailer: it is a bad header.
        assert!(matches!(rule("rule renju\n"), Err(PsqError::BadHeader { .. })));
        // "rules" or "ruler" are other words (names), not the rule line.
        assert_eq!(rule(&format!("{h}rules\n")), Ok(None));
        let record = read_psq(h).unwrap();
        for r in Rule::ALL {
            let text = write_psq_with_rule(&record, r);
            assert_eq!(read_psq_with_rule(&text), Ok((record.clone(), Some(r))));
            assert!(text.starts_with(&write_psq(&record)));
        }
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

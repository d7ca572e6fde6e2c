//! Opening sets for the arena: the built-in balanced Gomoku openings and opening files.

use tengen_engine::gomoku::{self, Position, Rule};
use tengen_engine::{reversi, Point};

/// Built-in Gomoku openings: stones as offsets from the centre, black first, alternating.
/// Black's centre stone with a white stone next to it, and three-stone openings whose third
/// (black) stone stays two points away, so that neither side starts with a won game for
/// these engines. Each is played with both colours by the arena anyway.
pub const GOMOKU_OPENINGS: &[&[(i8, i8)]] = &[
    // Two stones.
    &[(0, 0), (1, 0)],
    &[(0, 0), (1, 1)],
    &[(0, 0), (2, 0)],
    &[(0, 0), (2, 1)],
    &[(0, 0), (2, 2)],
    &[(0, 0), (-1, 2)],
    &[(0, 0), (3, 0)],
    &[(0, 0), (3, 1)],
    &[(0, 0), (1, 3)],
    // Three stones, white's stone directly next to the centre.
    &[(0, 0), (0, -1), (2, 0)],
    &[(0, 0), (0, -1), (2, 1)],
    &[(0, 0), (0, -1), (2, 2)],
    &[(0, 0), (0, -1), (1, 2)],
    &[(0, 0), (0, -1), (0, 2)],
    &[(0, 0), (0, -1), (2, -2)],
    &[(0, 0), (0, -1), (-2, 1)],
    // Three stones, white's stone diagonally next to the centre.
    &[(0, 0), (1, -1), (-1, -1)],
    &[(0, 0), (1, -1), (-2, 0)],
    &[(0, 0), (1, -1), (0, 2)],
    &[(0, 0), (1, -1), (2, 2)],
    &[(0, 0), (1, -1), (-2, 2)],
    &[(0, 0), (1, -1), (2, 1)],
    &[(0, 0), (1, -1), (-1, 2)],
    &[(0, 0), (1, -1), (0, -2)],
];

/// The built-in openings placed on a board `size` cells wide (at least 9).
pub fn builtin_gomoku(size: u8) -> Vec<Vec<Point>> {
    let c = (size / 2) as i16;
    GOMOKU_OPENINGS
        .iter()
        .map(|stones| {
            stones
                .iter()
                .map(|&(dx, dy)| Point::new((c + dx as i16) as u8, (c + dy as i16) as u8))
                .collect()
        })
        .collect()
}

/// Errors reading an opening file.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    #[error("cannot read the openings file: {0}")]
    Io(#[from] std::io::Error),
    #[error("line {line} of the openings file: {message}")]
    Bad { line: usize, message: String },
    #[error("the openings file holds no opening")]
    Empty,
}

/// Reads Gomoku openings, one per line in board notation ("h8 h9 j10"); blank lines and
/// lines starting with '#' are skipped. Each opening must be playable under `rule`.
pub fn parse_gomoku(text: &str, size: u8, rule: Rule) -> Result<Vec<Vec<Point>>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: String| OpeningError::Bad { line: i + 1, message };
        let moves = gomoku::notation::parse_moves(line, size).map_err(|e| bad(e.to_string()))?;
        let mut pos = Position::new(size, rule).map_err(|e| bad(e.to_string()))?;
        for &p in &moves {
            pos.play(p).map_err(|e| bad(e.to_string()))?;
        }
        if pos.is_over() {
            return Err(bad("the opening already ends the game".to_string()));
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

/// Every Reversi opening of `plies` moves from the initial position (passes cannot occur
/// this early), in move-generation order. Four plies give 244 openings.
pub fn reversi_openings(plies: usize) -> Vec<Vec<Point>> {
    fn walk(
        pos: &reversi::Position,
        line: &mut Vec<Point>,
        plies: usize,
        out: &mut Vec<Vec<Point>>,
    ) {
        if line.len() == plies {
            out.push(line.clone());
            return;
        }
        for p in pos.legal_points() {
            let mut next = *pos;
            if next.play(p).is_ok() {
                line.push(p);
                walk(&next, line, plies, out);
                line.pop();
            }
        }
    }
    let mut out = Vec::new();
    walk(&reversi::Position::initial(), &mut Vec::new(), plies, &mut out);
    out
}

/// Reads Reversi openings, one transcript per line ("f5d6c3d3"); '#' lines are skipped.
pub fn parse_reversi(text: &str) -> Result<Vec<Vec<Point>>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (moves, pos) = reversi::notation::replay_transcript(line)
            .map_err(|e| OpeningError::Bad { line: i + 1, message: e.to_string() })?;
        if pos.is_game_over() {
            return Err(OpeningError::Bad {
                line: i + 1,
                message: "the opening already ends the game".to_string(),
            });
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_openings_are_distinct_and_playable() {
        for size in [15u8, 19] {
            let openings = builtin_gomoku(size);
            assert!(openings.len() >= 20);
            for (i, o) in openings.iter().enumerate() {
                let mut pos = Position::new(size, Rule::Renju).unwrap();
                for &p in o {
                    pos.play(p).unwrap();
                }
                assert!(!pos.is_over());
                assert!(!openings[..i].contains(o), "opening {i} repeats");
            }
        }
    }

    #[test]
    fn reversi_four_ply_openings() {
        // Perft(4) of Reversi is 244.
        let o = reversi_openings(4);
        assert_eq!(o.len(), 244);
        assert!(o.iter().all(|l| l.len() == 4));
        let text = "# x\nf5d6c3d3\n";
        assert_eq!(parse_reversi(text).unwrap().len(), 1);
        assert!(parse_reversi("f5f5").is_err());
    }

    #[test]
    fn parses_opening_files() {
        let text = "# comment\nh8 h9\n\nh8 i9 j10\n";
        let o = parse_gomoku(text, 15, Rule::Freestyle).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].len(), 3);
        assert!(matches!(
            parse_gomoku("h8 h8", 15, Rule::Freestyle),
            Err(OpeningError::Bad { line: 1, .. })
        ));
        assert!(matches!(parse_gomoku("# none", 15, Rule::Freestyle), Err(OpeningError::Empty)));
        assert!(parse_gomoku("z99", 15, Rule::Freestyle).is_err());
    }
}

//! `tengen forbidden`: black's forbidden points under Renju after a sequence of moves.

use tengen_engine::gomoku::notation::{format_point, parse_moves};
use tengen_engine::gomoku::{
    GomokuError, NotationError, Position, ReplayError, Rule, DEFAULT_SIZE,
};

use super::{outln, CmdResult};

#[derive(clap::Args)]
pub struct Args {
    /// The moves so far in board notation, black first, e.g. "h8 h9 i8" (columns from
    /// the left with i included, rows from the bottom; spaces or commas between moves).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Board size (lines per side, 5 to 26).
    #[arg(long, default_value_t = DEFAULT_SIZE)]
    pub size: u8,
    /// Append the kind of each forbidden point (double-three, double-four, overline).
    #[arg(long)]
    pub verbose: bool,
}

/// Why the moves could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum ForbiddenError {
    #[error(transparent)]
    Size(#[from] GomokuError),
    #[error("cannot read the moves: {0}")]
    Notation(#[from] NotationError),
    #[error("cannot play the moves under Renju: {0}")]
    Replay(#[from] ReplayError),
}

pub fn run(args: Args) -> CmdResult {
    for line in forbidden_lines(&args)? {
        outln!("{line}")?;
    }
    Ok(())
}

/// One line per point forbidden to black, row by row from the top, left to right.
pub fn forbidden_lines(args: &Args) -> Result<Vec<String>, ForbiddenError> {
    Position::new(args.size, Rule::Renju)?;
    let moves = parse_moves(&args.moves, args.size)?;
    let pos = Position::from_moves(args.size, Rule::Renju, &moves)?;
    Ok(pos
        .forbidden_points()
        .into_iter()
        .map(|(p, kind)| {
            let name = format_point(p, args.size);
            if args.verbose {
                format!("{name} ({kind})")
            } else {
                name
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(moves: &str, verbose: bool) -> Result<Vec<String>, ForbiddenError> {
        forbidden_lines(&Args { moves: moves.to_string(), size: 15, verbose })
    }

    #[test]
    fn none_at_the_start() {
        assert_eq!(lines("", false).unwrap(), Vec::<String>::new());
        assert_eq!(lines("h8 h9", false).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn double_three_after_real_moves() {
        // Black f8 g8 h7 h6; white far away. h8 (row f8 g8 * and column h6 h7 *) is a
        // double-three.
        let out = lines("f8 a1 g8 c1 h7 e1 h6", true).unwrap();
        assert!(out.contains(&"h8 (double-three)".to_string()), "{out:?}");
        // White to move: still black's points, same list.
        let out2 = lines("f8 a1 g8 c1 h7 e1 h6 o15 a15", true).unwrap();
        assert!(out2.contains(&"h8 (double-three)".to_string()), "{out2:?}");
        let plain = lines("f8 a1 g8 c1 h7 e1 h6", false).unwrap();
        assert!(plain.contains(&"h8".to_string()));
        assert!(plain.iter().all(|l| !l.contains(' ')));
    }

    #[test]
    fn sorted_from_the_top() {
        let out = lines("f8 a1 g8 c1 h7 e1 h6", false).unwrap();
        let pts: Vec<_> = out
            .iter()
            .map(|s| tengen_engine::gomoku::notation::parse_point(s, 15).unwrap())
            .collect();
        let mut sorted = pts.clone();
        sorted.sort_by_key(|p| (p.y, p.x));
        assert_eq!(pts, sorted);
    }

    #[test]
    fn bad_input() {
        assert!(matches!(lines("h8 z99", false), Err(ForbiddenError::Notation(_))));
        assert!(matches!(lines("h8 h8", false), Err(ForbiddenError::Replay(_))));
        let e = forbidden_lines(&Args { moves: String::new(), size: 40, verbose: false });
        assert!(matches!(e, Err(ForbiddenError::Size(_))));
    }
}

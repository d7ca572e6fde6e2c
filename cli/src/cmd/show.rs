//! `tengen show`: a board as text after a sequence of moves.

use tengen_engine::gomoku::notation::{format_moves, format_point, parse_moves};
use tengen_engine::gomoku::{
    GomokuError, NotationError, Position, ReplayError, Rule, DEFAULT_SIZE,
};
use tengen_engine::reversi;
use tengen_engine::{Color, Point};

use super::CmdResult;

/// Which game's board to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameName {
    Gomoku,
    Reversi,
}

#[derive(clap::Args)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameName::Gomoku)]
    pub game: GameName,
    /// The moves from the start. Gomoku: board notation, black first, e.g. "h8 i9 j10".
    /// Reversi: a transcript such as "f5d6c3" (passes implicit).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Gomoku board size (lines per side, 5 to 26).
    #[arg(long, default_value_t = DEFAULT_SIZE)]
    pub size: u8,
    /// Gomoku rule: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
}

/// Why the board could not be shown.
#[derive(Debug, thiserror::Error)]
pub enum ShowError {
    #[error(transparent)]
    Setup(#[from] GomokuError),
    #[error("cannot read the moves: {0}")]
    Notation(#[from] NotationError),
    #[error("cannot play the moves: {0}")]
    Replay(#[from] ReplayError),
    #[error("cannot read the reversi transcript: {0}")]
    Reversi(#[from] reversi::NotationError),
}

pub fn run(args: Args) -> CmdResult {
    let text = show(&args)?;
    std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes())?;
    Ok(())
}

/// The text `tengen show` prints.
pub fn show(args: &Args) -> Result<String, ShowError> {
    match args.game {
        GameName::Gomoku => {
            Position::new(args.size, args.rule)?;
            let moves = parse_moves(&args.moves, args.size)?;
            let pos = Position::from_moves(args.size, args.rule, &moves)?;
            Ok(render_gomoku(&pos))
        }
        GameName::Reversi => {
            let (_, pos) = reversi::replay_transcript(&args.moves)?;
            Ok(reversi::board_text(&pos))
        }
    }
}

/// The board with row numbers on the left (1 at the bottom), column letters along the
/// bottom, `X` black, `O` white, `.` empty, the last move in brackets, then a status line.
pub fn render_gomoku(pos: &Position) -> String {
    let size = pos.size();
    let last = pos.last_move();
    let mut out = String::new();
    for y in 0..size {
        out.push_str(&format!("{:>2}", size - y));
        for x in 0..size {
            let p = Point::new(x, y);
            let before = if Some(p) == last {
                '['
            } else if x > 0 && Some(Point::new(x - 1, y)) == last {
                ']'
            } else {
                ' '
            };
            out.push(before);
            out.push(match pos.stone(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
        }
        if Some(Point::new(size - 1, y)) == last {
            out.push(']');
        }
        out.push('\n');
    }
    out.push_str("  ");
    for x in 0..size {
        out.push(' ');
        out.push((b'a' + x) as char);
    }
    out.push('\n');
    out.push_str(&status(pos));
    out.push('\n');
    out
}

fn status(pos: &Position) -> String {
    let size = pos.size();
    let rule = pos.rule();
    let moves = pos.moves().len();
    let last = pos.last_move().map(|p| format!(", last {}", format_point(p, size)));
    let last = last.unwrap_or_default();
    if let Some(win) = pos.winner() {
        format!(
            "{rule}, {moves} moves{last}: {} wins with {}",
            win.color,
            format_moves(&win.line, size)
        )
    } else if pos.is_full() {
        format!("{rule}, {moves} moves{last}: a draw, the board is full")
    } else if pos.no_legal_point() {
        format!("{rule}, {moves} moves{last}: a draw, black has only forbidden points left")
    } else {
        format!("{rule}, {moves} moves{last}: {} to move", pos.side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(moves: &str, size: u8, rule: Rule) -> Args {
        Args { game: GameName::Gomoku, moves: moves.to_string(), size, rule }
    }

    #[test]
    fn small_board() {
        let text = show(&args("c3 b2 a1", 5, Rule::Freestyle)).unwrap();
        let want = [
            " 5 . . . . .",
            " 4 . . . . .",
            " 3 . . X . .",
            " 2 . O . . .",
            " 1[X]. . . .",
            "   a b c d e",
            "freestyle, 3 moves, last a1: white to move",
            "",
        ]
        .join("\n");
        assert_eq!(text, want);
    }

    #[test]
    fn last_move_on_the_right_edge_and_a_win() {
        let text = show(&args("a5 a4 b5 b4 c5 c4 d5 d4 e5", 5, Rule::Standard)).unwrap();
        let first = text.lines().next().unwrap();
        assert_eq!(first, " 5 X X X X[X]");
        assert!(text.ends_with("black wins with a5 b5 c5 d5 e5\n"), "{text}");
    }

    #[test]
    fn errors() {
        assert!(matches!(show(&args("h8 h8", 15, Rule::Renju)), Err(ShowError::Replay(_))));
        assert!(matches!(show(&args("h8 q1", 15, Rule::Renju)), Err(ShowError::Notation(_))));
        assert!(matches!(show(&args("", 4, Rule::Renju)), Err(ShowError::Setup(_))));
        let bad = Args { game: GameName::Reversi, ..args("f5 a1", 15, Rule::Renju) };
        assert!(matches!(show(&bad), Err(ShowError::Reversi(_))));
    }

    #[test]
    fn reversi_board() {
        let a = Args { game: GameName::Reversi, ..args("F5d6", 15, Rule::Renju) };
        let text = show(&a).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  a b c d e f g h");
        // After f5 d6, black's legal moves (*) include c4, c5 and c6.
        assert_eq!(lines[4], "4 . . * O X . . .");
        assert_eq!(lines[5], "5 . . * O X X . .");
        assert_eq!(lines[6], "6 . . * O . . . .");
        assert!(text.ends_with("(black 3, white 3)\n"), "{text}");
    }
}

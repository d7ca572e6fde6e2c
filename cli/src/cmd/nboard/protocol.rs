//! The NBoard protocol (version 2): the commands NBoard sends, one per line, and the lines
//! the engine answers with.
//!
//! Commands: `nboard 2`, `set depth N` (1-60), `set game GGF`, `set contempt N`,
//! `move MOVE[/eval/time]`, `hint N`, `go`, `ping N`, `learn`, `analyze`, `quit`.
//! Answers: `set myname NAME`, `pong N`, `status TEXT`, `nodestats NODES SECONDS`,
//! `search PV EVAL 0 DEPTH` (hints), `=== MOVE/EVAL/TIME` (the move), `learned`,
//! `analysis K EVAL` (the analysis of the position after K moves).
//! Evaluations are in discs from the side to move's point of view; a depth of `100%` says
//! the evaluation is an exact solve, `100%W` a proven win, draw or loss (the sign counts).

use tengen_engine::ai::{PvLine, Score};
use tengen_engine::reversi::format_square;
use tengen_engine::reversi::ggf::{self, MoveText, MoveTextError};
use tengen_engine::Move;

/// The deepest `set depth` NBoard sends (a whole game).
pub const MAX_DEPTH: u32 = 60;
/// The most moves `hint` lists (more than any position has).
pub const MAX_HINTS: u32 = 64;

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `nboard N`: the protocol version; answered with `set myname`.
    Nboard(u32),
    /// `set depth N`: the midgame search depth (the endgame depth is the engine's choice).
    SetDepth(u32),
    /// `set game GGF`: all further commands are about the end of this game.
    SetGame(String),
    /// `set contempt N`: the value of a draw, in centi-discs (Tengen has no use for it).
    SetContempt(i32),
    /// `move MOVE[/eval/time]`: the move is played in the current game.
    Move(MoveText),
    /// `hint N`: evaluate the N best moves, without the game's clock.
    Hint(u32),
    /// `go`: the move the engine would play, within the depth and the clock.
    Go,
    /// `ping N`: stop thinking, then answer `pong N`.
    Ping(String),
    /// `learn`: add the game to the book (answered `learned`; Tengen has no book).
    Learn,
    /// `analyze`: a retrograde analysis of the game.
    Analyze,
    /// `quit`.
    Quit,
    /// An empty line.
    Empty,
}

impl Command {
    /// Whether the command needs the engine or the game, so that a search still running
    /// must be stopped (and its answer sent) first. Settings apply to the next search.
    pub fn stops_the_search(&self) -> bool {
        !matches!(
            self,
            Command::Nboard(_)
                | Command::SetDepth(_)
                | Command::SetContempt(_)
                | Command::Learn
                | Command::Empty
        )
    }
}

/// Why a line is not a command; the line is ignored (the protocol says so) and the
/// engine says why on stderr.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("unknown command \"{0}\"")]
    Unknown(String),
    #[error("unknown setting \"set {0}\"")]
    UnknownSetting(String),
    #[error("{command} needs {what}")]
    Missing { command: &'static str, what: &'static str },
    #[error("{command}: \"{text}\" is not {what}")]
    BadNumber { command: &'static str, text: String, what: &'static str },
    #[error("move {text}: {source}")]
    BadMove {
        text: String,
        #[source]
        source: MoveTextError,
    },
}

/// A whole number in `range`, or why not.
fn number<T: std::str::FromStr + PartialOrd>(
    command: &'static str,
    text: &str,
    range: std::ops::RangeInclusive<T>,
    what: &'static str,
) -> Result<T, CommandError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(CommandError::Missing { command, what });
    }
    text.parse::<T>().ok().filter(|n| range.contains(n)).ok_or_else(|| CommandError::BadNumber {
        command,
        text: text.to_string(),
        what,
    })
}

/// Splits off the first word of `s` (after leading spaces) and the rest, trimmed.
fn word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, ""),
    }
}

/// Reads one line of the GUI.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let (name, rest) = word(line);
    Ok(match name.to_ascii_lowercase().as_str() {
        "" => Command::Empty,
        "nboard" => Command::Nboard(number("nboard", rest, 0..=u32::MAX, "a version number")?),
        "set" => {
            let (setting, value) = word(rest);
            match setting.to_ascii_lowercase().as_str() {
                "depth" => Command::SetDepth(number(
                    "set depth",
                    value,
                    1..=MAX_DEPTH,
                    "a depth from 1 to 60",
                )?),
                "game" if value.is_empty() => {
                    return Err(CommandError::Missing { command: "set game", what: "a GGF game" })
                }
                "game" => Command::SetGame(value.to_string()),
                "contempt" => Command::SetContempt(number(
                    "set contempt",
                    value,
                    i32::MIN..=i32::MAX,
                    "a whole number",
                )?),
                "" => return Err(CommandError::Missing { command: "set", what: "a setting" }),
                _ => return Err(CommandError::UnknownSetting(setting.to_string())),
            }
        }
        "move" if rest.is_empty() => {
            return Err(CommandError::Missing { command: "move", what: "a move such as F5" })
        }
        "move" => Command::Move(
            ggf::parse_move(rest)
                .map_err(|source| CommandError::BadMove { text: rest.to_string(), source })?,
        ),
        "hint" => Command::Hint(number("hint", rest, 1..=u32::MAX, "a count of at least 1")?),
        "go" => Command::Go,
        "ping" => Command::Ping(word(rest).0.to_string()),
        "learn" => Command::Learn,
        "analyze" => Command::Analyze,
        "quit" => Command::Quit,
        _ => return Err(CommandError::Unknown(name.to_string())),
    })
}

/// A move as the GUI reads it: `F5`, or `PA` for a pass.
pub fn move_text(mv: Move) -> String {
    match mv {
        Move::Place(p) => format_square(p).to_ascii_uppercase(),
        Move::Pass => "PA".to_string(),
    }
}

/// A score in discs for the side to move: the evaluation (hundredths of a disc), the exact
/// margin, or +1/-1 for a proven win/loss whose margin is unknown (with `100%W`).
pub fn eval_text(score: Score) -> String {
    let discs = match score {
        Score::Eval(v) => f64::from(v) / 100.0,
        Score::Exact(v) => f64::from(v),
        Score::Win(_) => 1.0,
        Score::Loss(_) => -1.0,
    };
    format!("{discs:.2}")
}

/// The depth field of a `search` line: `100%` for an exact score, `100%W` for a proven
/// win/loss, else the depth searched.
fn depth_text(line: &PvLine) -> String {
    match line.score {
        Score::Exact(_) => "100%".to_string(),
        Score::Win(_) | Score::Loss(_) => "100%W".to_string(),
        Score::Eval(_) => line.depth.to_string(),
    }
}

/// A hint line: `search PV EVAL 0 DEPTH`, the PV written without spaces (`F5D6C3`).
pub fn search_line(line: &PvLine) -> String {
    let pv: String = if line.pv.is_empty() {
        move_text(line.mv)
    } else {
        line.pv.iter().map(|&m| move_text(m)).collect()
    };
    format!("search {pv} {} 0 {}", eval_text(line.score), depth_text(line))
}

/// The answer to `go`: `=== MOVE/EVAL/TIME` (time in seconds).
pub fn move_line(mv: Move, score: Score, seconds: f64) -> String {
    format!("=== {}/{}/{seconds:.2}", move_text(mv), eval_text(score))
}

/// `nodestats NODES SECONDS`, sent after each search.
pub fn nodestats_line(nodes: u64, seconds: f64) -> String {
    format!("nodestats {nodes} {seconds:.2}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_engine::ai::Bound;
    use tengen_engine::Point;

    #[test]
    fn reads_the_commands() {
        assert_eq!(parse("nboard 2"), Ok(Command::Nboard(2)));
        assert_eq!(parse("  set depth 12 "), Ok(Command::SetDepth(12)));
        assert_eq!(
            parse("set game (;GM[Othello]BO[8 - *];)"),
            Ok(Command::SetGame("(;GM[Othello]BO[8 - *];)".into()))
        );
        assert_eq!(parse("set contempt -50"), Ok(Command::SetContempt(-50)));
        let f5 = Move::Place(Point::new(5, 4));
        assert_eq!(
            parse("move F5/-1.5/2"),
            Ok(Command::Move(MoveText { mv: f5, eval: Some(-1.5), seconds: Some(2.0) }))
        );
        assert_eq!(parse("move PA"), Ok(Command::Move(MoveText::new(Move::Pass))));
        assert_eq!(parse("hint 3"), Ok(Command::Hint(3)));
        assert_eq!(parse("go"), Ok(Command::Go));
        assert_eq!(parse("ping 17"), Ok(Command::Ping("17".into())));
        assert_eq!(parse("learn"), Ok(Command::Learn));
        assert_eq!(parse("analyze"), Ok(Command::Analyze));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse("   "), Ok(Command::Empty));
    }

    #[test]
    fn refuses_bad_lines_in_words() {
        assert_eq!(parse("fly"), Err(CommandError::Unknown("fly".into())));
        assert_eq!(parse("set colour red"), Err(CommandError::UnknownSetting("colour".into())));
        for bad in ["set depth 0", "set depth 61", "set depth x", "hint 0", "hint -2", "nboard x"] {
            assert!(matches!(parse(bad), Err(CommandError::BadNumber { .. })), "{bad}");
        }
        for missing in ["set depth", "set game", "move", "hint", "set"] {
            assert!(matches!(parse(missing), Err(CommandError::Missing { .. })), "{missing}");
        }
        let e = parse("move Z9").unwrap_err();
        assert!(matches!(e, CommandError::BadMove { .. }));
        assert!(e.to_string().starts_with("move Z9: expected a square"), "{e}");
    }

    #[test]
    fn writes_the_answers() {
        let f5 = Move::Place(Point::new(5, 4));
        let d6 = Move::Place(Point::new(3, 5));
        assert_eq!(move_line(f5, Score::Eval(-150), 1.234), "=== F5/-1.50/1.23");
        assert_eq!(move_line(Move::Pass, Score::Exact(4), 0.0), "=== PA/4.00/0.00");
        let line = |score, depth| PvLine {
            mv: f5,
            score,
            bound: Bound::Exact,
            depth,
            seldepth: depth,
            pv: vec![f5, d6],
        };
        assert_eq!(search_line(&line(Score::Eval(25), 9)), "search F5D6 0.25 0 9");
        assert_eq!(search_line(&line(Score::Exact(-6), 20)), "search F5D6 -6.00 0 100%");
        assert_eq!(search_line(&line(Score::Win(18), 18)), "search F5D6 1.00 0 100%W");
        assert_eq!(nodestats_line(35805, 0.5), "nodestats 35805 0.50");
        assert!(Command::Go.stops_the_search() && !Command::SetDepth(3).stops_the_search());
    }
}

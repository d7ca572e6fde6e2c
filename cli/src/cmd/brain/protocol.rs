//! The Gomocup (Piskvork) brain protocol: one command per line from the manager.

use tengen_engine::Point;

/// One line sent by the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: a new game on an n x n board.
    Start(u32),
    /// `RECTSTART w,h`: a rectangular board (not supported by Tengen).
    RectStart(u32, u32),
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain moves first on an empty board.
    Begin,
    /// `TURN x,y`: the opponent played x,y; the brain must answer.
    Turn(Point),
    /// `BOARD`: a whole position follows as stone lines, then `DONE`.
    Board,
    /// `x,y,field` inside BOARD: 1 = own stone, 2 = opponent's, 3 = continuous-game marker.
    Stone(Point, u8),
    /// `DONE`: the end of a BOARD (the brain must answer) or of a YXBOARD (it must not).
    Done,
    /// `YXBOARD` (Yixin-Board): a whole position follows as for BOARD, then `DONE`; the
    /// brain only sets it up, without answering.
    YxBoard,
    /// `YXSHOWFORBID` (Yixin-Board): the points forbidden to black, as `FORBID xxyy...`.
    YxShowForbid,
    /// `YXHASHCLEAR` (Yixin-Board): forget the search tables.
    YxHashClear,
    /// `YXNBEST n` (Yixin-Board): search the n best moves.
    YxNBest(u32),
    /// `TAKEBACK x,y`: the last stone, on x,y, is taken back.
    TakeBack(Point),
    /// `INFO key value`.
    Info(Info),
    /// `END`: quit at once.
    End,
    /// `ABOUT`: tell who we are.
    About,
    /// Anything else: the command word.
    Unknown(String),
}

/// The INFO keys the brain understands; others are kept as `Other`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// Milliseconds per move (0 = play as fast as possible).
    TimeoutTurn(u64),
    /// Milliseconds for the whole game (0 = no limit).
    TimeoutMatch(u64),
    /// Milliseconds left for the rest of the game.
    TimeLeft(u64),
    /// Bytes of memory allowed (0 = no limit).
    MaxMemory(u64),
    /// Rule: a bitmask of 1 = exactly five, 2 = continuous game, 4 = Renju, 8 = caro
    /// (Gomocup), except that Yixin-Board sends 2 alone for Renju (see `session`).
    Rule(u32),
    /// Search threads the brain may use (0 is taken as 1).
    ThreadNum(u64),
    /// Any other key, with its value.
    Other(String, String),
}

/// A line the brain cannot understand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("{0} needs coordinates x,y")]
    Point(String),
    #[error("{0} needs a number")]
    Number(String),
    #[error("bad stone line \"{0}\" (expected x,y,field)")]
    Stone(String),
    #[error("INFO needs a key and a value")]
    MissingInfo,
}

fn parse_point(word: &str, rest: &str) -> Result<Point, ParseError> {
    let bad = || ParseError::Point(word.to_string());
    let (x, y) = rest.trim().split_once(',').ok_or_else(bad)?;
    let x: u8 = x.trim().parse().map_err(|_| bad())?;
    let y: u8 = y.trim().parse().map_err(|_| bad())?;
    Ok(Point::new(x, y))
}

fn parse_number<T: std::str::FromStr>(word: &str, text: &str) -> Result<T, ParseError> {
    text.trim().parse().map_err(|_| ParseError::Number(word.to_string()))
}

/// Parses one line (without its line ending). Command words are case-insensitive.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    Ok(match upper.as_str() {
        "START" => Command::Start(parse_number(&upper, rest)?),
        "RECTSTART" => {
            let (w, h) = rest.split_once(',').ok_or(ParseError::Number(upper.clone()))?;
            Command::RectStart(parse_number(&upper, w)?, parse_number(&upper, h)?)
        }
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" => Command::Turn(parse_point(&upper, rest)?),
        "BOARD" => Command::Board,
        "DONE" => Command::Done,
        "YXBOARD" => Command::YxBoard,
        "YXSHOWFORBID" => Command::YxShowForbid,
        "YXHASHCLEAR" => Command::YxHashClear,
        "YXNBEST" => Command::YxNBest(parse_number(&upper, rest)?),
        "TAKEBACK" => Command::TakeBack(parse_point(&upper, rest)?),
        "END" => Command::End,
        "ABOUT" => Command::About,
        "INFO" => {
            let (key, value) =
                rest.split_once(char::is_whitespace).ok_or(ParseError::MissingInfo)?;
            let value = value.trim();
            let key_lower = key.to_ascii_lowercase();
            Command::Info(match key_lower.as_str() {
                "timeout_turn" => Info::TimeoutTurn(parse_number(key, value)?),
                "timeout_match" => Info::TimeoutMatch(parse_number(key, value)?),
                "time_left" => Info::TimeLeft(parse_number(key, value)?),
                "max_memory" => Info::MaxMemory(parse_number(key, value)?),
                "rule" => Info::Rule(parse_number(key, value)?),
                "thread_num" => Info::ThreadNum(parse_number(key, value)?),
                _ => Info::Other(key_lower, value.to_string()),
            })
        }
        _ if word.contains(',') => {
            let mut parts = line.split(',').map(str::trim);
            let bad = || ParseError::Stone(line.to_string());
            let x = parts.next().and_then(|s| s.parse::<u8>().ok()).ok_or_else(bad)?;
            let y = parts.next().and_then(|s| s.parse::<u8>().ok()).ok_or_else(bad)?;
            let f = parts.next().and_then(|s| s.parse::<u8>().ok()).ok_or_else(bad)?;
            if parts.next().is_some() {
                return Err(bad());
            }
            Command::Stone(Point::new(x, y), f)
        }
        _ => Command::Unknown(word.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_game_commands() {
        assert_eq!(parse("START 15"), Ok(Command::Start(15)));
        assert_eq!(parse("start 20\r"), Ok(Command::Start(20)));
        assert_eq!(parse("RECTSTART 15,20"), Ok(Command::RectStart(15, 20)));
        assert_eq!(parse("RESTART"), Ok(Command::Restart));
        assert_eq!(parse("BEGIN"), Ok(Command::Begin));
        assert_eq!(parse("TURN 7,8"), Ok(Command::Turn(Point::new(7, 8))));
        assert_eq!(parse("TURN  10 , 3"), Ok(Command::Turn(Point::new(10, 3))));
        assert_eq!(parse("BOARD"), Ok(Command::Board));
        assert_eq!(parse("7,7,1"), Ok(Command::Stone(Point::new(7, 7), 1)));
        assert_eq!(parse("8, 9, 2"), Ok(Command::Stone(Point::new(8, 9), 2)));
        assert_eq!(parse("DONE"), Ok(Command::Done));
        assert_eq!(parse("TAKEBACK 3,4"), Ok(Command::TakeBack(Point::new(3, 4))));
        assert_eq!(parse("END"), Ok(Command::End));
        assert_eq!(parse("ABOUT"), Ok(Command::About));
        assert_eq!(parse("YXBOARD"), Ok(Command::YxBoard));
        assert_eq!(parse("yxshowforbid"), Ok(Command::YxShowForbid));
        assert_eq!(parse("YXHASHCLEAR"), Ok(Command::YxHashClear));
        assert_eq!(parse("YXNBEST 3"), Ok(Command::YxNBest(3)));
        assert_eq!(parse("YXNBEST x"), Err(ParseError::Number("YXNBEST".into())));
    }

    #[test]
    fn parses_info() {
        assert_eq!(parse("INFO timeout_turn 5000"), Ok(Command::Info(Info::TimeoutTurn(5000))));
        assert_eq!(
            parse("INFO timeout_match 180000"),
            Ok(Command::Info(Info::TimeoutMatch(180000)))
        );
        assert_eq!(parse("INFO time_left 1234"), Ok(Command::Info(Info::TimeLeft(1234))));
        assert_eq!(parse("INFO max_memory 83886080"), Ok(Command::Info(Info::MaxMemory(83886080))));
        assert_eq!(parse("INFO rule 4"), Ok(Command::Info(Info::Rule(4))));
        assert_eq!(parse("INFO thread_num 2"), Ok(Command::Info(Info::ThreadNum(2))));
        assert_eq!(
            parse("INFO folder C:\\tmp dir"),
            Ok(Command::Info(Info::Other("folder".into(), "C:\\tmp dir".into())))
        );
    }

    #[test]
    fn rejects_malformed_lines_without_panicking() {
        assert_eq!(parse("TURN 7"), Err(ParseError::Point("TURN".into())));
        assert_eq!(parse("TURN a,b"), Err(ParseError::Point("TURN".into())));
        assert_eq!(parse("TURN 300,1"), Err(ParseError::Point("TURN".into())));
        assert_eq!(parse("START x"), Err(ParseError::Number("START".into())));
        assert_eq!(parse("INFO rule"), Err(ParseError::MissingInfo));
        assert!(matches!(parse("INFO rule x"), Err(ParseError::Number(_))));
        assert!(matches!(parse("1,2"), Err(ParseError::Stone(_))));
        assert!(matches!(parse("1,2,3,4"), Err(ParseError::Stone(_))));
        assert_eq!(parse("SWAP2BOARD"), Ok(Command::Unknown("SWAP2BOARD".into())));
        assert_eq!(parse(""), Ok(Command::Unknown(String::new())));
    }
}

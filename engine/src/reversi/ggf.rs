//! GGF (Generic Game Format) records of Othello games, as GGS writes them and as NBoard
//! sends them to engines (`set game (;GM[Othello]...;)`).
//!
//! A record is one node between `(;` and `;)`: tags `KEY[value]` with `\` escaping `]` and
//! `\`. The tags read here:
//!
//! - `GM[Othello]` the game (any other game is refused), `TY[8]` its type (a board size
//!   other than 8, or anti-Othello `a`, is refused; `r`, `k` and `s` change nothing here);
//! - `BO[8 <64 squares> <side>]` the start position (`-` empty, `*` black, `O` white; the
//!   side to move `*` or `O`), any legal-looking position, not only the standard one;
//! - `B[move/eval/time]` and `W[...]` the moves: a square such as `d3` or `PA` for a pass,
//!   then an optional evaluation and an optional time in seconds (`B[d3//0.5]`);
//! - `PB`/`PW` the players, `TI` both clocks or `TB`/`TW` each one, as
//!   `main/increment/extension`, each `[[hh:]mm:]ss`.
//!
//! Everything else (`PC`, `DT`, `RE`, ratings, comments, komi moves, unknown tags) is
//! skipped. The input is untrusted: its length is bounded ([`MAX_GGF_BYTES`]), every move
//! is replayed and must be legal for the colour that plays it, and anything malformed is a
//! [`GgfError`] that says what and where.

use std::fmt::Write as _;
use std::time::Duration;

use super::bitboard::bit;
use super::error::ReversiError;
use super::notation::{format_square, parse_square};
use super::position::Position;
use crate::{Color, Move};

/// The longest record read (a full game with evaluations and times is about 1.5 KiB).
pub const MAX_GGF_BYTES: usize = 64 * 1024;

/// The longest clock accepted, so that times stay far from [`Duration`]'s limits.
const MAX_CLOCK_SECONDS: f64 = 1e7;

/// Why a GGF record was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GgfError {
    #[error("the record is longer than {limit} bytes")]
    TooLong { limit: usize },
    #[error("the record is malformed at byte {at}: {reason}")]
    Malformed { at: usize, reason: &'static str },
    #[error("the record is a game of {game}, not Othello")]
    NotOthello { game: String },
    #[error("the board is {size}x{size}; only 8x8 Othello is played")]
    BoardSize { size: String },
    #[error("the game type {kind} is not played (anti-Othello has other rules)")]
    Unsupported { kind: String },
    #[error("the record has no start position BO[...]")]
    NoBoard,
    #[error("the record has two start positions BO[...]")]
    TwoBoards,
    #[error("a move comes before the start position BO[...]")]
    MoveBeforeBoard,
    #[error("the start position BO[{text}] cannot be read: {reason}")]
    BadBoard { text: String, reason: String },
    #[error("{tag}[{text}] is not a clock: expected main/increment/extension, each [[hh:]mm:]ss")]
    BadClock { tag: String, text: String },
    #[error("move {index} ({text}) is not a move: {source}")]
    BadMove {
        index: usize,
        text: String,
        #[source]
        source: MoveTextError,
    },
    #[error("move {index} ({text}) cannot be played: {source}")]
    IllegalMove {
        index: usize,
        text: String,
        #[source]
        source: MoveError,
    },
}

/// Why the text of one move (`f5`, `PA`, `d3/-1.5/2.25`) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    #[error("expected a square such as f5, or PA for a pass")]
    BadSquare,
    #[error("the evaluation \"{0}\" is not a number")]
    BadEval(String),
    #[error("the time \"{0}\" is not a number of seconds")]
    BadTime(String),
    #[error("expected at most move/eval/time")]
    TooManyParts,
}

/// Why a move cannot be played in the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("it is {to_move}'s turn, not {color}'s")]
    OutOfTurn { color: Color, to_move: Color },
    #[error(transparent)]
    Rules(#[from] ReversiError),
}

/// One move as written in a record: the move, and the evaluation and time (seconds) that
/// may come with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveText {
    pub mv: Move,
    pub eval: Option<f64>,
    pub seconds: Option<f64>,
}

impl MoveText {
    /// A bare move, without evaluation or time.
    pub fn new(mv: Move) -> MoveText {
        MoveText { mv, eval: None, seconds: None }
    }
}

/// A move of the game with the colour that played it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    pub color: Color,
    pub text: MoveText,
}

/// A clock: the main time, the increment added per move, and the extension (GGS's time
/// after the main time, not used for planning here).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub main: Duration,
    pub increment: Duration,
    pub extension: Duration,
}

/// An Othello game: the players, the clocks, the start position and the moves, all legal.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    pub black: String,
    pub white: String,
    /// Black's and white's clocks ([`Color::index`]), when the record gives them.
    pub clocks: [Option<Clock>; 2],
    moves: Vec<GgfMove>,
    /// The start position, then the position after each move.
    positions: Vec<Position>,
}

impl Default for GgfGame {
    fn default() -> GgfGame {
        GgfGame::new(Position::initial())
    }
}

impl GgfGame {
    /// A game from `start` with no moves yet.
    pub fn new(start: Position) -> GgfGame {
        GgfGame {
            black: String::new(),
            white: String::new(),
            clocks: [None; 2],
            moves: Vec::new(),
            positions: vec![start],
        }
    }

    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> &[GgfMove] {
        &self.moves
    }

    /// The position after the last move.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// Every position of the game: the start, then the one after each move (passes
    /// included), so position `k` is the one after `k` moves.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays `text` for `color` (`None`: the side to move). A disc placed by the side that
    /// is not to move while the side to move must pass records that pass first (records and
    /// GUIs often leave forced passes out); anything else out of turn or against the rules
    /// is refused and the game is unchanged.
    pub fn play(&mut self, color: Option<Color>, text: MoveText) -> Result<(), MoveError> {
        let mut pos = *self.position();
        let mut forced_pass = None;
        let to_move = pos.side_to_move();
        if matches!(text.mv, Move::Place(_))
            && pos.must_pass()
            && color.is_none_or(|c| c != to_move)
        {
            pos = pos.after_pass();
            forced_pass = Some(GgfMove { color: to_move, text: MoveText::new(Move::Pass) });
        }
        let to_move = pos.side_to_move();
        let color = color.unwrap_or(to_move);
        if color != to_move {
            return Err(MoveError::OutOfTurn { color, to_move });
        }
        match text.mv {
            Move::Pass => pos.pass()?,
            Move::Place(p) => {
                if pos.is_game_over() {
                    return Err(ReversiError::GameOver.into());
                }
                pos.play(p)?;
            }
        }
        if let Some(pass) = forced_pass {
            self.moves.push(pass);
            self.positions.push(self.position().after_pass());
        }
        self.moves.push(GgfMove { color, text });
        self.positions.push(pos);
        Ok(())
    }

    /// The time left on `color`'s clock after the moves recorded: the main time, plus the
    /// increment per move played, less the times the moves took (a move without a time
    /// counts 0). `None` when the record gives no clock for `color`.
    pub fn time_left(&self, color: Color) -> Option<Duration> {
        let clock = self.clocks[color.index()]?;
        let own = self.moves.iter().filter(|m| m.color == color);
        let (played, used) = own
            .fold((0u32, 0.0f64), |(n, t), m| (n + 1, t + m.text.seconds.unwrap_or(0.0).max(0.0)));
        let total = clock.main + clock.increment.saturating_mul(played);
        let used = Duration::try_from_secs_f64(used.min(MAX_CLOCK_SECONDS)).unwrap_or_default();
        Some(total.saturating_sub(used))
    }

    /// The record as GGF text, which [`parse`] reads back to the same game.
    pub fn to_ggf(&self) -> String {
        let mut s = String::from("(;GM[Othello]PC[Tengen]");
        let _ = write!(s, "PB[{}]PW[{}]", escape(&self.black), escape(&self.white));
        match self.clocks {
            [Some(b), Some(w)] if b == w => {
                let _ = write!(s, "TI[{}]", format_clock(&b));
            }
            [b, w] => {
                for (tag, clock) in [("TB", b), ("TW", w)] {
                    if let Some(c) = clock {
                        let _ = write!(s, "{tag}[{}]", format_clock(&c));
                    }
                }
            }
        }
        s.push_str("TY[8]BO[8 ");
        for sq in 0..64u8 {
            s.push(if self.start().black() & bit(sq) != 0 {
                '*'
            } else if self.start().white() & bit(sq) != 0 {
                'O'
            } else {
                '-'
            });
            if sq % 8 == 7 {
                s.push(' ');
            }
        }
        s.push(side_char(self.start().side_to_move()));
        s.push(']');
        for m in &self.moves {
            let tag = if m.color == Color::Black { 'B' } else { 'W' };
            let _ = write!(s, "{tag}[{}]", format_move(&m.text));
        }
        s.push_str(";)");
        s
    }
}

fn side_char(c: Color) -> char {
    match c {
        Color::Black => '*',
        Color::White => 'O',
    }
}

/// Writes a move as GGF does: `f5`, `pa`, then `/eval` and `/time` when known (`d3//0.5`).
pub fn format_move(m: &MoveText) -> String {
    let mut s = match m.mv {
        Move::Place(p) => format_square(p),
        Move::Pass => "pa".to_string(),
    };
    if m.eval.is_some() || m.seconds.is_some() {
        s.push('/');
        if let Some(e) = m.eval {
            let _ = write!(s, "{e}");
        }
        if let Some(t) = m.seconds {
            let _ = write!(s, "/{t}");
        }
    }
    s
}

/// Reads a move as GGF and NBoard write it: a square (`F5`, `f5`) or `PA`/`pass`, then
/// optionally `/eval` and `/time` in seconds, either of which may be empty (`d3//0.5`).
pub fn parse_move(text: &str) -> Result<MoveText, MoveTextError> {
    let mut parts = text.trim().split('/');
    let square = parts.next().unwrap_or("").trim();
    let mv = if square.eq_ignore_ascii_case("pa") || square.eq_ignore_ascii_case("pass") {
        Move::Pass
    } else {
        Move::Place(parse_square(square).map_err(|_| MoveTextError::BadSquare)?)
    };
    let eval = match parts.next().map(str::trim) {
        None | Some("") => None,
        Some(e) => Some(parse_finite(e).ok_or_else(|| MoveTextError::BadEval(e.to_string()))?),
    };
    let seconds = match parts.next().map(str::trim) {
        None | Some("") => None,
        Some(t) => Some(
            parse_seconds(t)
                .map(|d| d.as_secs_f64())
                .ok_or_else(|| MoveTextError::BadTime(t.to_string()))?,
        ),
    };
    if parts.next().is_some() {
        return Err(MoveTextError::TooManyParts);
    }
    Ok(MoveText { mv, eval, seconds })
}

/// A finite number (`inf`/`NaN` refused).
fn parse_finite(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// `[[hh:]mm:]ss` (seconds may have a fraction; a `,` and what follows, GGS's clock
/// options, is ignored), at least 0 and at most [`MAX_CLOCK_SECONDS`].
fn parse_seconds(s: &str) -> Option<Duration> {
    let s = s.split(',').next().unwrap_or("").trim();
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    let mut total = 0.0f64;
    for (i, p) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let v = if last {
            parse_finite(p)?
        } else {
            // Hours and minutes are whole numbers.
            p.parse::<u32>().ok()? as f64
        };
        if v < 0.0 {
            return None;
        }
        total = total * 60.0 + v;
    }
    if total > MAX_CLOCK_SECONDS {
        return None;
    }
    Duration::try_from_secs_f64(total).ok()
}

fn parse_clock(tag: &str, text: &str) -> Result<Clock, GgfError> {
    let bad = || GgfError::BadClock { tag: tag.to_string(), text: text.to_string() };
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() > 3 {
        return Err(bad());
    }
    let part = |i: usize| match parts.get(i).map(|p| p.trim()) {
        None | Some("") => Some(Duration::ZERO),
        Some(p) => parse_seconds(p),
    };
    Ok(Clock {
        main: part(0).ok_or_else(bad)?,
        increment: part(1).ok_or_else(bad)?,
        extension: part(2).ok_or_else(bad)?,
    })
}

/// `[h:]mm:ss` with the fraction of a second kept when there is one.
fn format_duration(d: Duration) -> String {
    let total = d.as_secs_f64();
    let minutes = (total / 60.0).floor();
    let seconds = total - minutes * 60.0;
    if seconds.fract() == 0.0 {
        format!("{minutes}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:06.3}")
    }
}

fn format_clock(c: &Clock) -> String {
    format!(
        "{}/{}/{}",
        format_duration(c.main),
        format_duration(c.increment),
        format_duration(c.extension)
    )
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// Reads the start position `8 <64 squares> <side>` (whitespace anywhere between).
fn parse_board(text: &str) -> Result<Position, GgfError> {
    let bad = |reason: String| GgfError::BadBoard { text: text.to_string(), reason };
    let rest = text.trim_start();
    let size_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let size = &rest[..size_end];
    if size != "8" {
        if size.parse::<u32>().is_ok() {
            return Err(GgfError::BoardSize { size: size.to_string() });
        }
        return Err(bad(format!("\"{size}\" is not a board size")));
    }
    let cells: Vec<char> = rest[size_end..].chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() != 65 {
        return Err(bad(format!(
            "expected 64 squares and the side to move, found {} characters",
            cells.len()
        )));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (sq, &c) in cells[..64].iter().enumerate() {
        match c {
            '-' | '.' => {}
            '*' | 'X' | 'x' => black |= bit(sq as u8),
            'O' | 'o' => white |= bit(sq as u8),
            _ => return Err(bad(format!("square {} is '{c}', not '-', '*' or 'O'", sq + 1))),
        }
    }
    let side = match cells[64] {
        '*' | 'X' | 'x' => Color::Black,
        'O' | 'o' => Color::White,
        c => return Err(bad(format!("the side to move is '{c}', not '*' or 'O'"))),
    };
    Position::from_bitboards(black, white, side).map_err(|e| bad(e.to_string()))
}

/// Checks `TY[...]`: the board size (digits first, if any) must be 8, and anti-Othello
/// (`a`) is refused.
fn check_type(text: &str) -> Result<(), GgfError> {
    let t = text.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let size = &t[..digits_end];
    if !size.is_empty() && size != "8" {
        return Err(GgfError::BoardSize { size: size.to_string() });
    }
    if t[digits_end..].contains(['a', 'A']) {
        return Err(GgfError::Unsupported { kind: t.to_string() });
    }
    Ok(())
}

/// One tag of the record: its key (upper case) and its unescaped value.
struct Tag {
    key: String,
    value: String,
}

/// Splits the inside of `(; ... ;)` into tags.
fn tags(text: &str, offset: usize) -> Result<Vec<Tag>, GgfError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let malformed = |at: usize, reason| GgfError::Malformed { at: offset + at, reason };
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let key_start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        if i == key_start {
            return Err(malformed(i, "expected a tag such as BO[...]"));
        }
        let key = text[key_start..i].to_ascii_uppercase();
        if i >= bytes.len() || bytes[i] != b'[' {
            return Err(malformed(i, "expected '[' after the tag's name"));
        }
        i += 1;
        let mut value = String::new();
        let mut closed = false;
        let mut chars = text[i..].char_indices();
        while let Some((j, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, e)) => value.push(e),
                    None => break,
                },
                ']' => {
                    i += j + 1;
                    closed = true;
                    break;
                }
                c => value.push(c),
            }
        }
        if !closed {
            return Err(malformed(key_start, "a tag's value has no closing ']'"));
        }
        out.push(Tag { key, value });
    }
    Ok(out)
}

/// Reads a GGF record of an 8x8 Othello game (see the module's documentation).
pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
    if text.len() > MAX_GGF_BYTES {
        return Err(GgfError::TooLong { limit: MAX_GGF_BYTES });
    }
    let start = text.len() - text.trim_start().len();
    let body = text.trim();
    let inner = body
        .strip_prefix("(;")
        .ok_or(GgfError::Malformed { at: start, reason: "a record starts with \"(;\"" })?;
    let inner = inner.strip_suffix(";)").ok_or(GgfError::Malformed {
        at: start + body.len(),
        reason: "a record ends with \";)\" (only one game is read)",
    })?;
    let mut game: Option<GgfGame> = None;
    let mut clocks: [Option<Clock>; 2] = [None; 2];
    let (mut black, mut white) = (String::new(), String::new());
    let mut index = 0;
    for tag in tags(inner, start + 2)? {
        match tag.key.as_str() {
            "GM" => {
                let g = tag.value.trim();
                if !g.eq_ignore_ascii_case("othello") && !g.eq_ignore_ascii_case("reversi") {
                    return Err(GgfError::NotOthello { game: g.to_string() });
                }
            }
            "TY" => check_type(&tag.value)?,
            "BO" => {
                if game.is_some() {
                    return Err(GgfError::TwoBoards);
                }
                game = Some(GgfGame::new(parse_board(&tag.value)?));
            }
            "PB" => black = tag.value,
            "PW" => white = tag.value,
            "TI" => {
                let c = parse_clock("TI", &tag.value)?;
                clocks = [Some(c); 2];
            }
            "TB" => clocks[0] = Some(parse_clock("TB", &tag.value)?),
            "TW" => clocks[1] = Some(parse_clock("TW", &tag.value)?),
            "B" | "W" => {
                index += 1;
                let g = game.as_mut().ok_or(GgfError::MoveBeforeBoard)?;
                let color = if tag.key == "B" { Color::Black } else { Color::White };
                let text = tag.value;
                let m = match parse_move(&text) {
                    Ok(m) => m,
                    Err(source) => return Err(GgfError::BadMove { index, text, source }),
                };
                if let Err(source) = g.play(Some(color), m) {
                    return Err(GgfError::IllegalMove { index, text, source });
                }
            }
            _ => {} // PC, DT, RE, RB, RW, KB, KW, KM, C and anything unknown
        }
    }
    let mut game = game.ok_or(GgfError::NoBoard)?;
    game.black = black;
    game.white = white;
    game.clocks = clocks;
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point;

    const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

    fn sq(s: &str) -> Move {
        Move::Place(parse_square(s).unwrap())
    }

    #[test]
    fn reads_nboards_record() {
        let text = format!(
            "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]\
             TI[15:00]TY[8]{START}B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)"
        );
        let g = parse(&text).unwrap();
        assert_eq!(g.start(), &Position::initial());
        assert_eq!(g.moves().len(), 8);
        assert_eq!(g.moves()[0], GgfMove { color: Color::Black, text: MoveText::new(sq("f5")) });
        assert_eq!((g.black.as_str(), g.white.as_str()), ("./mEdax", "chris"));
        let fifteen = Clock { main: Duration::from_secs(900), ..Clock::default() };
        assert_eq!(g.clocks, [Some(fifteen); 2]);
        assert_eq!(g.position().side_to_move(), Color::Black);
        // The same game through the transcript reader.
        let (_, pos) = super::super::notation::replay_transcript("f5f6d3c5e6f7e7f4").unwrap();
        assert_eq!(g.position(), &pos);
    }

    #[test]
    fn round_trips_with_evals_times_passes_and_clocks() {
        let text = format!(
            "(;GM[Othello]PB[a\\]b]PW[c\\\\d]TB[5:00/2/1:00]TW[1:02:03.5]TY[8r]{START}\
             B[d3/0.5/1.25]W[c5//2]B[F6/-3];)"
        );
        let g = parse(&text).unwrap();
        assert_eq!((g.black.as_str(), g.white.as_str()), ("a]b", "c\\d"));
        assert_eq!(
            g.clocks[0],
            Some(Clock {
                main: Duration::from_secs(300),
                increment: Duration::from_secs(2),
                extension: Duration::from_secs(60)
            })
        );
        assert_eq!(g.clocks[1].unwrap().main, Duration::from_secs_f64(3723.5));
        assert_eq!(g.moves()[1].text, MoveText { mv: sq("c5"), eval: None, seconds: Some(2.0) });
        let again = parse(&g.to_ggf()).unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn passes_explicit_and_forced() {
        // Column a black, b1 white, white to move: white has no move and must pass.
        let mut black = 0u64;
        let mut white = 0u64;
        for y in 0..8u8 {
            black |= bit(y * 8); // column a black
        }
        white |= bit(1); // b1 white
        let pos = Position::from_bitboards(black, white, Color::White).unwrap();
        assert!(pos.must_pass(), "{pos}");
        let board: String = (0..64u8)
            .map(|s| {
                if black & bit(s) != 0 {
                    '*'
                } else if white & bit(s) != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        // Black's c1 takes b1 and ends the game.
        let explicit = parse(&format!("(;GM[Othello]BO[8 {board} O]W[PA]B[c1];)")).unwrap();
        let forced = parse(&format!("(;GM[Othello]BO[8 {board} O]B[c1];)")).unwrap();
        assert_eq!(explicit, forced, "a forced pass left out is recorded");
        assert_eq!(explicit.moves()[0].text.mv, Move::Pass);
        assert_eq!(explicit.positions(), [pos, pos.after_pass(), *explicit.position()]);
        assert!(explicit.position().is_game_over());
        assert_eq!(parse(&explicit.to_ggf()).unwrap(), explicit);
        // A pass while a move exists, and a move after the end, are refused.
        let e = parse(&format!("(;GM[Othello]{START}B[pa];)")).unwrap_err();
        assert!(
            matches!(
                &e,
                GgfError::IllegalMove {
                    index: 1,
                    source: MoveError::Rules(ReversiError::CannotPass { .. }),
                    ..
                }
            ),
            "{e:?}"
        );
        let e = parse(&format!("(;GM[Othello]BO[8 {board} O]B[c1]W[d1];)")).unwrap_err();
        assert!(matches!(&e, GgfError::IllegalMove { index: 2, .. }), "{e:?}");
    }

    #[test]
    fn illegal_and_out_of_turn_moves_are_refused() {
        let e = parse(&format!("(;GM[Othello]{START}B[a1];)")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "move 1 (a1) cannot be played: a1 is not a legal move: it flips no disc"
        );
        let e = parse(&format!("(;GM[Othello]{START}W[d3];)")).unwrap_err();
        assert_eq!(e.to_string(), "move 1 (d3) cannot be played: it is black's turn, not white's");
        let e = parse(&format!("(;GM[Othello]{START}B[f5]W[z9];)")).unwrap_err();
        assert!(matches!(&e, GgfError::BadMove { index: 2, source: MoveTextError::BadSquare, .. }));
        let e = parse(&format!("(;GM[Othello]{START}B[f5/x];)")).unwrap_err();
        assert!(matches!(&e, GgfError::BadMove { source: MoveTextError::BadEval(_), .. }));
        let e = parse(&format!("(;GM[Othello]{START}B[f5/1/2/3];)")).unwrap_err();
        assert!(matches!(&e, GgfError::BadMove { source: MoveTextError::TooManyParts, .. }));
    }

    #[test]
    fn malformed_records_are_refused_in_words() {
        type Check = fn(&GgfError) -> bool;
        let cases: [(&str, Check); 10] = [
            ("GM[Othello]BO[8 x]", |e| matches!(e, GgfError::Malformed { at: 0, .. })),
            ("(;GM[Othello]", |e| matches!(e, GgfError::Malformed { .. })),
            ("(;GM[Othello;)", |e| matches!(e, GgfError::Malformed { .. })),
            ("(;GM[Othello] 5[x];)", |e| matches!(e, GgfError::Malformed { at: 14, .. })),
            ("(;GM Othello;)", |e| matches!(e, GgfError::Malformed { .. })),
            ("(;GM[Chess];)", |e| matches!(e, GgfError::NotOthello { .. })),
            ("(;GM[Othello];)", |e| matches!(e, GgfError::NoBoard)),
            ("(;GM[Othello]B[f5];)", |e| matches!(e, GgfError::MoveBeforeBoard)),
            ("(;GM[Othello]BO[8 --- *];)", |e| matches!(e, GgfError::BadBoard { .. })),
            ("(;GM[Othello]TI[5:xx];)", |e| matches!(e, GgfError::BadClock { .. })),
        ];
        for (text, ok) in cases {
            let e = parse(text).unwrap_err();
            assert!(ok(&e), "{text}: {e:?}");
            assert!(!e.to_string().is_empty());
        }
        let e = parse(&format!("(;GM[Othello]{START}{START};)")).unwrap_err();
        assert_eq!(e, GgfError::TwoBoards);
        let e = parse(&format!("(;GM[Othello]TY[8a]{START};)")).unwrap_err();
        assert!(matches!(e, GgfError::Unsupported { .. }));
        let e = parse(&format!("(;GM[Othello]TI[-1:00]{START};)")).unwrap_err();
        assert!(matches!(e, GgfError::BadClock { .. }), "{e:?}");
        let e = parse(&format!("(;GM[Othello]TI[1e300]{START};)")).unwrap_err();
        assert!(matches!(e, GgfError::BadClock { .. }), "{e:?}");
        // Unknown tags and comments are skipped.
        let g = parse(&format!("(;GM[Othello]XX[?]C[a comment\\]]{START}KB[f5/1];)")).unwrap();
        assert!(g.moves().is_empty());
        // Too long.
        let long = format!("(;GM[Othello]C[{}]{START};)", "x".repeat(MAX_GGF_BYTES));
        assert_eq!(parse(&long), Err(GgfError::TooLong { limit: MAX_GGF_BYTES }));
    }

    #[test]
    fn a_10x10_board_is_refused() {
        let board = format!("BO[10 {} *]", "-".repeat(100));
        let e = parse(&format!("(;GM[Othello]TY[10]{board};)")).unwrap_err();
        assert_eq!(e, GgfError::BoardSize { size: "10".into() });
        let e = parse(&format!("(;GM[Othello]{board};)")).unwrap_err();
        assert_eq!(e, GgfError::BoardSize { size: "10".into() });
        assert_eq!(e.to_string(), "the board is 10x10; only 8x8 Othello is played");
    }

    #[test]
    fn a_non_standard_start_is_kept() {
        // The cross start (d4, e4 white; d5, e5 black) with white to move.
        let board =
            "BO[8 -------- -------- -------- ---OO--- ---**--- -------- -------- -------- O]";
        let g = parse(&format!("(;GM[Othello]{board}W[e6];)")).unwrap();
        assert_eq!(g.start().side_to_move(), Color::White);
        assert_eq!(g.start().stone(Point::new(3, 3)), Some(Color::White));
        assert_eq!(g.position().side_to_move(), Color::Black);
        assert_eq!(parse(&g.to_ggf()).unwrap(), g);
    }

    #[test]
    fn time_left_counts_increments_and_move_times() {
        let text = format!("(;GM[Othello]TI[1:00/2]{START}B[f5//10.5]W[d6//3]B[c3//1];)");
        let g = parse(&text).unwrap();
        // Black: 60 + 2 * 2 - 11.5; white: 60 + 2 - 3.
        assert_eq!(g.time_left(Color::Black), Some(Duration::from_secs_f64(52.5)));
        assert_eq!(g.time_left(Color::White), Some(Duration::from_secs(59)));
        let g = parse(&format!("(;GM[Othello]{START}B[f5//1000];)")).unwrap();
        assert_eq!(g.time_left(Color::Black), None);
        // A clock run out stays at zero.
        let g = parse(&format!("(;GM[Othello]TB[0:05]{START}B[f5//10];)")).unwrap();
        assert_eq!(g.time_left(Color::Black), Some(Duration::ZERO));
    }

    #[test]
    fn no_edit_of_a_record_makes_the_reader_panic() {
        let good =
            format!("(;GM[Othello]PB[x]TI[1:00/2/3]TY[8]{START}B[f5/1.5/2]W[d6//1:01]B[c3];)");
        assert!(parse(&good).is_ok());
        let chars: Vec<char> = good.chars().collect();
        let mut tried = 0;
        for i in 0..=chars.len() {
            let cut: String = chars[..i].iter().collect();
            let _ = parse(&cut);
            for c in ['[', ']', '\\', ';', '(', ')', '\u{e9}', '/', ':', '-', '9', 'a', ' '] {
                let mut edited = chars.clone();
                if i < edited.len() {
                    edited[i] = c;
                } else {
                    edited.push(c);
                }
                let edited: String = edited.into_iter().collect();
                let _ = parse(&edited);
                tried += 1;
            }
        }
        assert!(tried > 1000);
    }

    #[test]
    fn move_texts() {
        assert_eq!(parse_move("F5"), Ok(MoveText::new(sq("f5"))));
        assert_eq!(parse_move(" pa "), Ok(MoveText::new(Move::Pass)));
        assert_eq!(
            parse_move("d3/-1.25/0:01.5"),
            Ok(MoveText { mv: sq("d3"), eval: Some(-1.25), seconds: Some(1.5) })
        );
        assert_eq!(parse_move("e6/nan"), Err(MoveTextError::BadEval("nan".into())));
        assert_eq!(parse_move("e6//-1"), Err(MoveTextError::BadTime("-1".into())));
        assert_eq!(parse_move(""), Err(MoveTextError::BadSquare));
        let m = MoveText { mv: sq("d3"), eval: None, seconds: Some(0.5) };
        assert_eq!(format_move(&m), "d3//0.5");
        assert_eq!(parse_move(&format_move(&m)), Ok(m));
    }
}

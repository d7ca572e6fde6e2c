//! Reversi records: square names (`f5`), game transcripts (`f5d6c3d3...`) and the
//! 64-character board string.
//!
//! Columns a–h run from the left (x 0–7) and rows 1–8 from the top (y 0–7), the Othello
//! convention, so a1 is the top-left corner.

use super::bitboard::bit;
use super::error::{NotationError, ReversiError};
use super::position::Position;
use crate::{Color, Point};

/// The name of a square, like `f5`. Points off the board are written as `?`.
pub fn format_square(p: Point) -> String {
    if p.on_board(8) {
        format!("{}{}", (b'a' + p.x) as char, p.y + 1)
    } else {
        "?".to_string()
    }
}

/// Reads a square name like `f5` (either case, surrounding spaces ignored).
pub fn parse_square(s: &str) -> Result<Point, NotationError> {
    let text = s.trim();
    square_from_chars(text).ok_or_else(|| NotationError::BadSquare { text: text.to_string() })
}

fn square_from_chars(text: &str) -> Option<Point> {
    let mut chars = text.chars();
    let (c, r) = (chars.next()?, chars.next()?);
    if chars.next().is_some() {
        return None;
    }
    let x = match c.to_ascii_lowercase() {
        c @ 'a'..='h' => c as u8 - b'a',
        _ => return None,
    };
    let y = match r {
        r @ '1'..='8' => r as u8 - b'1',
        _ => return None,
    };
    Some(Point::new(x, y))
}

/// Reads a transcript such as `f5d6c3d3` (either case; spaces between moves allowed;
/// passes implicit) and checks it by replaying it from the initial position, passing
/// automatically whenever the side to move has no legal move.
///
/// Errors name the 1-based move number and its text.
pub fn parse_transcript(s: &str) -> Result<Vec<Point>, NotationError> {
    replay_transcript(s).map(|(moves, _)| moves)
}

/// Like [`parse_transcript`], also returning the final position (with any pass that is
/// forced after the last move already made).
pub fn replay_transcript(s: &str) -> Result<(Vec<Point>, Position), NotationError> {
    let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut pos = Position::initial();
    let mut moves = Vec::with_capacity(chars.len() / 2);
    for (i, pair) in chars.chunks(2).enumerate() {
        let index = i + 1;
        let text: String = pair.iter().collect();
        let p =
            square_from_chars(&text).ok_or(NotationError::BadMove { index, text: text.clone() })?;
        if pos.is_game_over() {
            return Err(NotationError::IllegalMove { index, text, source: ReversiError::GameOver });
        }
        if pos.must_pass() {
            pos = pos.after_pass();
        }
        pos.play(p).map_err(|source| NotationError::IllegalMove { index, text, source })?;
        moves.push(p);
    }
    if pos.must_pass() {
        pos = pos.after_pass();
    }
    Ok((moves, pos))
}

/// Plays a list of moves from the initial position, passing automatically when forced.
pub fn replay(moves: &[Point]) -> Result<Position, ReversiError> {
    let mut pos = Position::initial();
    for &p in moves {
        if pos.is_game_over() {
            return Err(ReversiError::GameOver);
        }
        if pos.must_pass() {
            pos = pos.after_pass();
        }
        pos.play(p)?;
    }
    if pos.must_pass() {
        pos = pos.after_pass();
    }
    Ok(pos)
}

/// Writes moves as a transcript, lower case, passes implicit: `f5d6c3`.
pub fn write_transcript(moves: &[Point]) -> String {
    moves.iter().map(|&p| format_square(p)).collect()
}

/// Reads a board string: 64 squares row-major from a1 to h8 (`-` empty, `X` black,
/// `O` white; `.` and lower case also accepted), a space, then `X` or `O` for the side to
/// move. Surrounding spaces are ignored. A board no game can reach is refused
/// ([`NotationError::Impossible`]): the four centre squares start with discs and discs are
/// never removed, and each disc is placed next to one already there, so every disc is
/// joined to the centre through discs touching by a side or a corner.
pub fn parse_board(s: &str) -> Result<Position, NotationError> {
    let text = s.trim();
    let mut chars = text.chars();
    let (mut black, mut white) = (0u64, 0u64);
    for sq in 0..64u8 {
        let Some(c) = chars.next() else {
            return Err(NotationError::TooShort { found: sq as usize });
        };
        match c {
            '-' | '.' => {}
            'X' | 'x' => black |= bit(sq),
            'O' | 'o' => white |= bit(sq),
            _ => return Err(NotationError::BadCell { index: sq as usize + 1, found: c }),
        }
    }
    let rest: String = chars.collect();
    let side = match rest.strip_prefix(|c: char| c.is_whitespace()).map(str::trim_start) {
        Some("X" | "x") => Color::Black,
        Some("O" | "o") => Color::White,
        _ => return Err(NotationError::BadSide { found: rest }),
    };
    check_reachable(black | white).map_err(|u| NotationError::Impossible { reason: u.reason() })?;
    // Each square holds one disc, so the bitboards never overlap.
    Ok(Position::from_player_opponent(
        if side == Color::Black { black } else { white },
        if side == Color::Black { white } else { black },
        side,
    ))
}

/// The squares d4, e4, d5 and e5.
const CENTRE: [u8; 4] = [27, 28, 35, 36];

/// Why no game reaches a set of occupied squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unreachable {
    /// A centre square is empty (they start with discs, and discs are never removed).
    CentreEmpty,
    /// A disc is cut off from the centre (each disc is placed next to one already there).
    CutOff,
}

impl Unreachable {
    pub const fn reason(self) -> &'static str {
        match self {
            Unreachable::CentreEmpty => "the four centre squares d4, e4, d5 and e5 must hold discs",
            Unreachable::CutOff => {
                "a disc is cut off from the centre (discs are only placed next to others)"
            }
        }
    }
}

/// Refuses discs no game can reach: the centre not full, or a disc cut off from it.
pub fn check_reachable(occupied: u64) -> Result<(), Unreachable> {
    if CENTRE.iter().any(|&sq| occupied & bit(sq) == 0) {
        return Err(Unreachable::CentreEmpty);
    }
    let mut joined = CENTRE.iter().fold(0, |b, &sq| b | bit(sq));
    let mut todo = CENTRE.to_vec();
    while let Some(sq) = todo.pop() {
        let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
        for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
            let (nx, ny) = (x + dx, y + dy);
            if !(0..8).contains(&nx) || !(0..8).contains(&ny) {
                continue;
            }
            let next = (ny * 8 + nx) as u8;
            if occupied & bit(next) != 0 && joined & bit(next) == 0 {
                joined |= bit(next);
                todo.push(next);
            }
        }
    }
    if joined != occupied {
        return Err(Unreachable::CutOff);
    }
    Ok(())
}

/// Writes a position as a board string: 64 squares a1..h8, a space, `X` or `O`.
pub fn format_board(pos: &Position) -> String {
    let mut s = String::with_capacity(66);
    for sq in 0..64u8 {
        s.push(if pos.black() & bit(sq) != 0 {
            'X'
        } else if pos.white() & bit(sq) != 0 {
            'O'
        } else {
            '-'
        });
    }
    s.push_str(match pos.side_to_move() {
        Color::Black => " X",
        Color::White => " O",
    });
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        for y in 0..8 {
            for x in 0..8 {
                let p = Point::new(x, y);
                assert_eq!(parse_square(&format_square(p)), Ok(p));
            }
        }
        assert_eq!(format_square(Point::new(5, 4)), "f5");
        assert_eq!(parse_square("A1"), Ok(Point::new(0, 0)));
        assert_eq!(parse_square("h8"), Ok(Point::new(7, 7)));
        for bad in ["", "i1", "a0", "a9", "a", "a12", "1a", "é5"] {
            assert!(matches!(parse_square(bad), Err(NotationError::BadSquare { .. })), "{bad}");
        }
    }

    #[test]
    fn transcript_is_replayed() {
        let moves = parse_transcript("F5d6C3").unwrap();
        assert_eq!(write_transcript(&moves), "f5d6c3");
        let (_, pos) = replay_transcript("f5d6c3").unwrap();
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(replay(&moves), Ok(pos));
    }

    #[test]
    fn transcript_errors_name_the_move() {
        assert_eq!(
            parse_transcript("f5d6z3"),
            Err(NotationError::BadMove { index: 3, text: "z3".into() })
        );
        assert_eq!(
            parse_transcript("f5d"),
            Err(NotationError::BadMove { index: 2, text: "d".into() })
        );
        assert!(matches!(
            parse_transcript("f5f5"),
            Err(NotationError::IllegalMove { index: 2, source: ReversiError::Occupied { .. }, .. })
        ));
        let e = parse_transcript("f5a1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "move 2 (a1) cannot be played: a1 is not a legal move: it flips no disc"
        );
    }

    #[test]
    fn board_string_round_trips() {
        let pos = Position::initial();
        let s = format_board(&pos);
        assert_eq!(s, "---------------------------OX------XO--------------------------- X");
        assert_eq!(parse_board(&s), Ok(pos));
        assert_eq!(
            parse_board("  ---------------------------ox------xo--------------------------- x\n"),
            Ok(pos)
        );
    }

    #[test]
    fn impossible_boards_are_refused() {
        let start = format_board(&Position::initial());
        let set = |s: &str, i: usize, c: &str| {
            let mut t = s.to_string();
            t.replace_range(i..i + 1, c);
            t
        };
        // The centre emptied, a disc far from the others, an empty board.
        for bad in [
            set(&start, 27, "-"),
            set(&start, 0, "X"),
            set(&start, 9, "O"),
            format!("{} X", "-".repeat(64)),
        ] {
            assert!(matches!(parse_board(&bad), Err(NotationError::Impossible { .. })), "{bad}");
        }
        // Joined through corners is fine: b2 touches c3, which touches d4.
        let joined = set(&set(&start, 18, "X"), 9, "O");
        assert!(parse_board(&joined).is_ok(), "{joined}");
        let full = format!("{}{} X", "X".repeat(40), "O".repeat(24));
        assert!(parse_board(&full).is_ok());
    }

    #[test]
    fn board_string_errors_name_the_character() {
        assert_eq!(parse_board("--X"), Err(NotationError::TooShort { found: 3 }));
        let mut s = format_board(&Position::initial());
        s.replace_range(9..10, "#");
        assert_eq!(parse_board(&s), Err(NotationError::BadCell { index: 10, found: '#' }));
        let s = format_board(&Position::initial());
        assert!(matches!(parse_board(&s[..64]), Err(NotationError::BadSide { .. })));
        assert!(matches!(
            parse_board(&format!("{} Z", &s[..64])),
            Err(NotationError::BadSide { .. })
        ));
        assert!(matches!(
            parse_board(&format!("{}X", &s[..64])),
            Err(NotationError::BadSide { .. })
        ));
    }
}

//! A plain-text picture of a Reversi position, for the command line.

use super::bitboard::bit;
use super::position::Position;
use crate::Color;

/// The board as text: columns a–h across the top, rows 1–8 down the left, `X` black,
/// `O` white, `.` empty, `*` a legal move of the side to move; then a status line.
///
/// ```text
///   a b c d e f g h
/// 1 . . . . . . . .
/// ...
/// X to move (black 2, white 2)
/// ```
pub fn board_text(pos: &Position) -> String {
    let legal = pos.legal_moves();
    let mut s = String::from("  a b c d e f g h\n");
    for y in 0..8u8 {
        s.push(char::from(b'1' + y));
        for x in 0..8u8 {
            let b = bit(y * 8 + x);
            s.push(' ');
            s.push(if pos.black() & b != 0 {
                'X'
            } else if pos.white() & b != 0 {
                'O'
            } else if legal & b != 0 {
                '*'
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    let (black, white) = (pos.count(Color::Black), pos.count(Color::White));
    let mark = |c: Color| if c == Color::Black { 'X' } else { 'O' };
    let status = match pos.outcome() {
        Some(o) => match o.winner {
            Some(w) => format!("game over: {w} wins"),
            None => "game over: draw".to_string(),
        },
        None if pos.must_pass() => format!("{} must pass", mark(pos.side_to_move())),
        None => format!("{} to move", mark(pos.side_to_move())),
    };
    s.push_str(&format!("{status} (black {black}, white {white})\n"));
    s
}

impl std::fmt::Display for Position {
    /// The same picture as [`board_text`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&board_text(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_board_text() {
        let text = board_text(&Position::initial());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  a b c d e f g h");
        assert_eq!(lines[3], "3 . . . * . . . .");
        assert_eq!(lines[4], "4 . . * O X . . .");
        assert_eq!(lines[5], "5 . . . X O * . .");
        assert_eq!(lines[6], "6 . . . . * . . .");
        assert_eq!(lines[9], "X to move (black 2, white 2)");
        assert_eq!(Position::initial().to_string(), text);
    }
}

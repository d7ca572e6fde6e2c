//! Reversi on 8x8 bitboards: move generation, flips, passes, perft and records.
//!
//! Square index = `y * 8 + x`; a1 = `Point(0, 0)` is the top-left corner, h8 the
//! bottom-right (rows numbered from the top, the Othello convention).
//!
//! - [`bitboard`]: raw fast functions (move generation, flips, bit helpers) for the AI;
//! - [`position`]: [`Position`], the rules (play, pass, game end, outcome);
//! - [`perft`]: move-path counting;
//! - [`notation`]: squares, transcripts and board strings;
//! - [`text`]: the board as text for the command line;
//! - [`ggf`]: GGF game records (what NBoard sends engines);
//! - [`error`]: the error types.

pub mod bitboard;
pub mod error;
pub mod ggf;
pub mod notation;
pub mod perft;
pub mod position;
pub mod text;

pub use error::{NotationError, ReversiError};
pub use notation::{
    format_board, format_square, parse_board, parse_square, parse_transcript, replay,
    replay_transcript, write_transcript,
};
pub use perft::perft;
pub use position::{point_of, square_of, Outcome, Position};
pub use text::board_text;

//! The forcing reading (seed article 004's "prediction"), a service the classic levels
//! borrow: [`read`] and [`read_briefly`] look for either side's forcing attack and for a
//! defence against the opponent's. It imports no level.
//!
//! The prediction is a small AND/OR search over forcing moves (`search.rs`):
//! * the attacker plays a move making a five, a four or an open three (only fours once the
//!   nominal depth is used up: a short run of continuous fours, as the forced replies are
//!   single moves);
//! * the defender must block a four on its five point; against an open three it may play any
//!   point that would give the attacker a four there, or a four of its own, which the
//!   attacker then has to block;
//! * the attack succeeds when the defender cannot stop a five.
//!
//! Both sides' attacks are read one depth at a time in turn (ours at depth 1, theirs at
//! depth 1, ours at depth 2, ...), so that when the clock stops the reading, the short
//! attacks of both sides have been seen. Reading ours to the full depth first and theirs
//! only with the time left made the lookahead level miss three-move attacks of the opponent
//! at 200 ms per move: against the pattern level (48 games, seeds 1 and 2) 60.4% and 67.7%
//! before, 78.1% and 76.0% after.
//!
//! The board (`board.rs`) keeps, for every point, direction and colour, the key of the line through it
//! and, for every point, how many stones of each colour lie near it on its lines; both are
//! updated on make and unmake, so classifying a point is one look-up in the threat table
//! ([`table`]; 3.5 times less CPU on `tengen bench --game gomoku --level lookahead` for the
//! same nodes). Forcing moves commute, so the same position is met by many move orders: a
//! transposition table (`tt.rs`) keeps the proven result of every attacker node, shared by
//! all the readings of one move (the bench reads 26,230 nodes instead of 60,103).
//!
//! Under Renju black never plays a forbidden point in the reading.

mod board;
mod read;
mod search;
pub mod table;
mod tt;

pub use read::{read, read_briefly, Defence, Reach, ReadResult, Reading, BRIEF_REACH};
pub use search::CHECK_EVERY;
pub use table::{line_key, threat_of, Threat};

//! The forcing reading (seed article 004's "prediction"), a service the classic levels
//! borrow: [`read`] and [`read_briefly`] look for either side's forcing attack and for a
//! defence against the opponent's. It imports no level above the classic ones' needs: the
//! reading is Master's forcing search ([`crate::ai::gomoku::master::vcf`],
//! [`crate::ai::gomoku::master::vct`] on [`crate::ai::gomoku::master::board`]), the one
//! forcing search of the Gomoku AI.
//!
//! * The attacker plays fours and moves that make an open four possible (open threes);
//!   after its nominal forcing moves, only fours (the threat solver's tail).
//! * The defender must block a four on its five point; against an open three it may play
//!   any point that takes the open four away, or a four of its own.
//! * The attack succeeds when the defender cannot stop a five.
//!
//! Both sides' attacks are read one depth at a time in turn (ours at depth 1, theirs at
//! depth 1, ours at depth 2, ...), so that when the clock stops the reading, the short
//! attacks of both sides have been seen. Reading ours to the full depth first and theirs
//! only with the time left made the lookahead level miss three-move attacks of the opponent
//! at 200 ms per move: against the pattern level (48 games, seeds 1 and 2) 60.4% and 67.7%
//! before, 78.1% and 76.0% after.
//!
//! Under Renju black never plays a forbidden point in the reading (Master's board never
//! offers one), and the reading's own first move is checked against the game's rules.

mod read;

pub use read::{read, read_briefly, Defence, Reach, ReadResult, Reading, BRIEF_REACH};

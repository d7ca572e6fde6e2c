//! Reversi on 8x8 bitboards: move generation, flips, passes, perft and records.
//! (Filled in by the foundation work.)

/// A Reversi position.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    _placeholder: (),
}

//! Gomoku and Renju: board, rules, forbidden points, notation and PSQ records.
//! (Filled in by the foundation work.)

/// A Gomoku position with its move history.
#[derive(Clone, Debug)]
pub struct Position {
    _placeholder: (),
}

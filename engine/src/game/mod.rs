//! The game session shared by the app and the CLI.

/// A position of either game.
#[derive(Clone, Debug)]
pub enum Position {
    Gomoku(crate::gomoku::Position),
    Reversi(crate::reversi::Position),
}

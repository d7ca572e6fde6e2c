//! Tengen's engine: the rules of Gomoku/Renju and Reversi, game records, the game session
//! shared by the app and the command-line tool, and the computer players.
//!
//! No Tauri dependency lives here; the app and the CLI are thin layers over this crate.

pub mod ai;
pub mod child;
pub mod coach;
pub mod color;
pub mod game;
pub mod gomocup;
pub mod gomoku;
pub mod io;
pub mod level;
pub mod memory;
pub mod nboard;
pub mod point;
pub mod reversi;
pub mod rng;

pub use color::Color;
pub use point::{Move, Point};

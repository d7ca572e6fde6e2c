//! What the game tests share: two-player configurations and moves in board notation.

#![allow(dead_code)]

use tengen_engine::game::{GameConfig, GameKind, PlayerKind};
use tengen_engine::gomoku::{notation, Rule};
use tengen_engine::Move;

/// Two people playing Gomoku under `rule` on 15x15.
pub fn gomoku(rule: Rule) -> GameConfig {
    GameConfig {
        kind: GameKind::Gomoku { rule, size: 15 },
        black: PlayerKind::Human,
        white: PlayerKind::Human,
        time_per_move_ms: 1000,
        time_control: Default::default(),
        opening: Default::default(),
    }
}

/// Two people playing Reversi.
pub fn reversi() -> GameConfig {
    GameConfig { kind: GameKind::Reversi, ..gomoku(Rule::Freestyle) }
}

/// A 15x15 move in board notation (`h8`).
pub fn at(s: &str) -> Move {
    Move::Place(notation::parse_point(s, 15).unwrap())
}

//! The ladder of levels, weakest first, and their facts: the game, the command-line name,
//! the strength order, and whether the level follows the player's time per move.
//!
//! This module sits below `game` and `ai`: both read it, it reads neither. The limits a
//! level searches with for a time per move are `ai::limits_for`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GomokuLevel {
    /// Five-tuple scoring (seed article 000).
    FiveTuple,
    /// Win-array weights (seed article 001).
    WinArray,
    /// Nine-cell pattern scorer (seed article 002).
    Pattern,
    /// Forcing-move lookahead (seed article 004).
    Lookahead,
    /// Threat-space search with alpha-beta.
    Master,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReversiLevel {
    /// Seed 003's evaluation, one or two plies.
    Greedy,
    /// Seed 003's alpha-beta with its depth schedule.
    Classic,
    /// PVS with fitted pattern evaluation.
    Strong,
    /// Strong plus exact endgame solving.
    Master,
}

/// A level of either game, e.g. `gomoku master`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "game", content = "level", rename_all = "lowercase")]
pub enum Level {
    Gomoku(GomokuLevel),
    Reversi(ReversiLevel),
}

impl GomokuLevel {
    pub const ALL: [GomokuLevel; 5] = [
        GomokuLevel::FiveTuple,
        GomokuLevel::WinArray,
        GomokuLevel::Pattern,
        GomokuLevel::Lookahead,
        GomokuLevel::Master,
    ];
    pub const fn name(self) -> &'static str {
        match self {
            GomokuLevel::FiveTuple => "fivetuple",
            GomokuLevel::WinArray => "winarray",
            GomokuLevel::Pattern => "pattern",
            GomokuLevel::Lookahead => "lookahead",
            GomokuLevel::Master => "master",
        }
    }
}

impl ReversiLevel {
    pub const ALL: [ReversiLevel; 4] =
        [ReversiLevel::Greedy, ReversiLevel::Classic, ReversiLevel::Strong, ReversiLevel::Master];
    pub const fn name(self) -> &'static str {
        match self {
            ReversiLevel::Greedy => "greedy",
            ReversiLevel::Classic => "classic",
            ReversiLevel::Strong => "strong",
            ReversiLevel::Master => "master",
        }
    }
}

/// The game a level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LevelGame {
    Gomoku,
    Reversi,
}

impl LevelGame {
    pub const fn name(self) -> &'static str {
        match self {
            LevelGame::Gomoku => "gomoku",
            LevelGame::Reversi => "reversi",
        }
    }
}

impl Level {
    /// Every level, Gomoku first, each game's weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        GomokuLevel::ALL
            .into_iter()
            .map(Level::Gomoku)
            .chain(ReversiLevel::ALL.into_iter().map(Level::Reversi))
    }

    pub const fn game(self) -> LevelGame {
        match self {
            Level::Gomoku(_) => LevelGame::Gomoku,
            Level::Reversi(_) => LevelGame::Reversi,
        }
    }

    pub const fn game_name(self) -> &'static str {
        self.game().name()
    }

    /// The level's place on its game's ladder: 0 for the weakest, each level above is
    /// stronger than the ones below it.
    pub fn strength(self) -> usize {
        match self {
            Level::Gomoku(l) => GomokuLevel::ALL.iter().position(|&x| x == l),
            Level::Reversi(l) => ReversiLevel::ALL.iter().position(|&x| x == l),
        }
        .unwrap_or(0)
    }

    /// Whether the level searches for as long as the player's time per move allows (and
    /// plays better with more time). The other levels search to a fixed depth of their
    /// own (Reversi's strong level: 6 plies, to the end from 12 empties), in milliseconds,
    /// and take the player's time only as the most they may use.
    pub const fn follows_clock(self) -> bool {
        matches!(
            self,
            Level::Gomoku(GomokuLevel::Lookahead | GomokuLevel::Master)
                | Level::Reversi(ReversiLevel::Master)
        )
    }

    pub const fn name(self) -> &'static str {
        match self {
            Level::Gomoku(l) => l.name(),
            Level::Reversi(l) => l.name(),
        }
    }

    /// Parses a level name within one game (`"master"` with `"reversi"`).
    pub fn parse_for(game: &str, name: &str) -> Result<Level, ParseLevelError> {
        Level::all()
            .find(|l| l.game_name() == game && l.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| ParseLevelError(format!("{game} {name}")))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.game_name(), self.name())
    }
}

/// Accepts `"gomoku master"`, `"gomoku:master"` or `"gomoku/master"`.
impl FromStr for Level {
    type Err = ParseLevelError;
    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        let mut parts = s.trim().splitn(2, [' ', ':', '/']);
        match (parts.next(), parts.next()) {
            (Some(game), Some(name)) => Level::parse_for(game, name),
            _ => Err(ParseLevelError(s.to_string())),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level \"{0}\" (run `tengen levels` for the list)")]
pub struct ParseLevelError(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for l in Level::all() {
            assert_eq!(l.to_string().parse::<Level>().unwrap(), l);
            assert_eq!(Level::parse_for(l.game_name(), l.name()).unwrap(), l);
        }
        assert!("gomoku nonsense".parse::<Level>().is_err());
        assert!("master".parse::<Level>().is_err());
    }

    #[test]
    fn strength_follows_the_ladder_of_each_game() {
        for game in [LevelGame::Gomoku, LevelGame::Reversi] {
            let ladder: Vec<Level> = Level::all().filter(|l| l.game() == game).collect();
            let ranks: Vec<usize> = ladder.iter().map(|l| l.strength()).collect();
            assert_eq!(ranks, (0..ladder.len()).collect::<Vec<_>>(), "{}", game.name());
        }
        assert!(
            Level::Gomoku(GomokuLevel::Master).strength()
                > Level::Gomoku(GomokuLevel::Lookahead).strength()
        );
    }

    #[test]
    fn the_strongest_levels_of_each_game_follow_the_clock() {
        let timed: Vec<String> =
            Level::all().filter(|l| l.follows_clock()).map(|l| l.to_string()).collect();
        assert_eq!(timed, ["gomoku lookahead", "gomoku master", "reversi master"]);
        // A level that follows the clock has none but such levels above it.
        for l in Level::all().filter(|l| l.follows_clock()) {
            assert!(Level::all()
                .filter(|m| m.game() == l.game() && m.strength() > l.strength())
                .all(|m| m.follows_clock()));
        }
    }
}

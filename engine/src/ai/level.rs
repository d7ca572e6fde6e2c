//! The ladder of levels, weakest first, with their command-line names.

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

impl Level {
    /// Every level, Gomoku first, each game's weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        GomokuLevel::ALL
            .into_iter()
            .map(Level::Gomoku)
            .chain(ReversiLevel::ALL.into_iter().map(Level::Reversi))
    }

    pub const fn game_name(self) -> &'static str {
        match self {
            Level::Gomoku(_) => "gomoku",
            Level::Reversi(_) => "reversi",
        }
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
}

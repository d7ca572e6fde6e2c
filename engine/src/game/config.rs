//! What kind of game is played, and by whom.

use serde::{Deserialize, Serialize};

use thiserror::Error;

use super::opening::OpeningRule;
use super::{GameError, TimeControl, TimeControlError};
use crate::gomoku::{self, Rule};
use crate::level::Level;
use crate::Color;

/// The shortest time per move a game may be configured with (the one set of limits for the
/// app, its saves and the CLI's games: [`GameConfig::validate`]).
pub const MIN_TIME_PER_MOVE_MS: u64 = 100;
/// The longest time per move.
pub const MAX_TIME_PER_MOVE_MS: u64 = 60_000;

/// The time per move a new game gets unless told otherwise.
pub const DEFAULT_TIME_PER_MOVE_MS: u64 = 1000;
/// The times per move a player is offered to choose from, shortest first: from the shortest
/// to the longest allowed, so the choices and [`GameConfig::validate`] are one range.
pub const TIME_PER_MOVE_CHOICES_MS: [u64; 8] = [
    MIN_TIME_PER_MOVE_MS,
    500,
    DEFAULT_TIME_PER_MOVE_MS,
    2000,
    5000,
    10_000,
    30_000,
    MAX_TIME_PER_MOVE_MS,
];
/// The Gomoku board a new game gets unless told otherwise.
pub const DEFAULT_GOMOKU_SIZE: u8 = 15;
/// The Gomoku board sizes a player is offered (any size from `gomoku::MIN_SIZE` to
/// `gomoku::MAX_SIZE` is valid; these are the usual ones).
pub const GOMOKU_SIZE_CHOICES: [u8; 6] = [9, 11, 13, DEFAULT_GOMOKU_SIZE, 17, 19];

/// Which part of a [`GameConfig`] is out of range, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    #[error("the board size must be from {min} to {max}, not {size}", min = gomoku::MIN_SIZE, max = gomoku::MAX_SIZE)]
    Size { size: u8 },
    #[error("the time per move must be from {MIN_TIME_PER_MOVE_MS} to {MAX_TIME_PER_MOVE_MS} ms, not {ms}")]
    TimePerMove { ms: u64 },
    #[error("the clock: {0}")]
    TimeControl(TimeControlError),
    #[error("{color} is set to the {level} level, which does not play {game}")]
    Level { color: Color, level: Level, game: &'static str },
    /// The external engine's protocol plays another game (Gomocup: Gomoku, NBoard: Reversi);
    /// only the engine list knows an engine's protocol, so its owner (the app) checks this.
    #[error("{color} is set to an external engine that does not play {game}")]
    External { color: Color, game: &'static str },
    /// An opening rule for another game or rule: any but `none` needs Gomoku, Soosõrv needs
    /// Renju on a board with a centre line (odd size).
    #[error("the opening rule {} does not fit this game", .rule.code())]
    Opening { rule: OpeningRule },
}

impl ConfigError {
    /// The name of the configuration field at fault, as the UI and the save file spell it
    /// (`size`, `timePerMoveMs`, `timeControl`, `black` or `white`).
    pub fn field(&self) -> &'static str {
        match self {
            ConfigError::Size { .. } => "size",
            ConfigError::TimePerMove { .. } => "timePerMoveMs",
            ConfigError::TimeControl(_) => "timeControl",
            ConfigError::Level { color: Color::Black, .. } => "black",
            ConfigError::Level { color: Color::White, .. } => "white",
            ConfigError::External { color: Color::Black, .. } => "black",
            ConfigError::External { color: Color::White, .. } => "white",
            ConfigError::Opening { .. } => "opening",
        }
    }
}

/// The game and its variant. Serialised as `{"game":"gomoku","rule":"renju","size":15}` or
/// `{"game":"reversi"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum GameKind {
    Gomoku { rule: Rule, size: u8 },
    Reversi,
}

impl GameKind {
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Gomoku { .. } => "gomoku",
            GameKind::Reversi => "reversi",
        }
    }

    /// The board's width (and height).
    pub const fn size(self) -> u8 {
        match self {
            GameKind::Gomoku { size, .. } => size,
            GameKind::Reversi => 8,
        }
    }
}

/// Who plays one side. Serialised as `{"type":"human"}`,
/// `{"type":"computer","level":{"game":"gomoku","level":"master"}}` or
/// `{"type":"external","id":3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PlayerKind {
    Human,
    Computer {
        level: Level,
    },
    /// An external engine (a Gomocup brain for Gomoku, an NBoard engine for Reversi): `id` names an engine of the app's engine list (the user
    /// added it on this machine; a game from elsewhere never starts a program by itself, so
    /// whoever loads a game decides what an unknown id becomes).
    External {
        id: u32,
    },
}

impl PlayerKind {
    pub const fn is_human(self) -> bool {
        matches!(self, PlayerKind::Human)
    }

    /// The external engine's id, if an external engine plays this side.
    pub const fn external(self) -> Option<u32> {
        match self {
            PlayerKind::External { id } => Some(id),
            _ => None,
        }
    }
}

/// Everything needed to start a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameConfig {
    pub kind: GameKind,
    pub black: PlayerKind,
    pub white: PlayerKind,
    /// Thinking time per move for the levels that search by time, when the game has no
    /// clock (with one, the computer plans from its clock).
    pub time_per_move_ms: u64,
    /// The game's clock (none in settings and saves from before clocks).
    #[serde(default)]
    pub time_control: TimeControl,
    /// The opening rule (Gomoku). With a rule other than `none`, `black` is the first
    /// player and `white` the second until the opening's choice of colours
    /// ([`super::Game::player`] maps them). Left out of the JSON when `none`, as before.
    #[serde(default, skip_serializing_if = "OpeningRule::is_none")]
    pub opening: OpeningRule,
}

impl GameConfig {
    /// `black` against `white`, one second per move, no clock, no opening rule.
    pub fn new(kind: GameKind, black: PlayerKind, white: PlayerKind) -> GameConfig {
        GameConfig {
            kind,
            black,
            white,
            time_per_move_ms: DEFAULT_TIME_PER_MOVE_MS,
            time_control: TimeControl::None,
            opening: OpeningRule::None,
        }
    }

    /// Human (black) against a computer level (white), one second per move.
    pub fn human_vs(kind: GameKind, level: Level) -> GameConfig {
        GameConfig::new(kind, PlayerKind::Human, PlayerKind::Computer { level })
    }

    pub fn player(&self, color: Color) -> PlayerKind {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Checks the board size, the time, the clock, that every computer level plays this game,
    /// and that the opening rule fits it (an external engine's game is its list's to check).
    pub fn validate(&self) -> Result<(), GameError> {
        if let GameKind::Gomoku { size, .. } = self.kind {
            if !(gomoku::MIN_SIZE..=gomoku::MAX_SIZE).contains(&size) {
                return Err(GameError::BadConfig(ConfigError::Size { size }));
            }
        }
        let rule = self.opening;
        let fits = match self.kind {
            _ if rule.is_none() => true,
            // A Gomocup brain knows no opening rule: it cannot take a role in one (and Reversi
            // has none).
            _ if self.black.external().is_some() || self.white.external().is_some() => false,
            GameKind::Gomoku { rule: board, size } if rule.needs_renju() => {
                board == Rule::Renju && size % 2 == 1
            }
            GameKind::Gomoku { .. } => true,
            GameKind::Reversi => false,
        };
        if !fits {
            return Err(GameError::BadConfig(ConfigError::Opening { rule }));
        }
        let ms = self.time_per_move_ms;
        if !(MIN_TIME_PER_MOVE_MS..=MAX_TIME_PER_MOVE_MS).contains(&ms) {
            return Err(GameError::BadConfig(ConfigError::TimePerMove { ms }));
        }
        self.time_control
            .validate()
            .map_err(|e| GameError::BadConfig(ConfigError::TimeControl(e)))?;
        for color in Color::BOTH {
            match self.player(color) {
                PlayerKind::Computer { level } if level.game_name() != self.kind.name() => {
                    let game = self.kind.name();
                    return Err(GameError::BadConfig(ConfigError::Level { color, level, game }));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{GomokuLevel, ReversiLevel};

    fn config(size: u8, ms: u64) -> GameConfig {
        let kind = GameKind::Gomoku { rule: Rule::Renju, size };
        GameConfig {
            time_per_move_ms: ms,
            ..GameConfig::human_vs(kind, Level::Gomoku(GomokuLevel::Pattern))
        }
    }

    fn field(c: &GameConfig) -> Option<&'static str> {
        match c.validate() {
            Ok(()) => None,
            Err(GameError::BadConfig(e)) => Some(e.field()),
            Err(e) => panic!("not a configuration error: {e}"),
        }
    }

    #[test]
    fn every_offered_choice_is_valid_and_the_choices_span_the_range() {
        let times = TIME_PER_MOVE_CHOICES_MS;
        assert_eq!(
            (times[0], times[times.len() - 1]),
            (MIN_TIME_PER_MOVE_MS, MAX_TIME_PER_MOVE_MS)
        );
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        assert!(times.contains(&DEFAULT_TIME_PER_MOVE_MS));
        for ms in times {
            assert_eq!(field(&config(15, ms)), None, "{ms} ms");
        }
        assert!(GOMOKU_SIZE_CHOICES.windows(2).all(|w| w[0] < w[1]));
        assert!(GOMOKU_SIZE_CHOICES.contains(&DEFAULT_GOMOKU_SIZE));
        for size in GOMOKU_SIZE_CHOICES {
            assert_eq!(field(&config(size, 1000)), None, "{size}");
        }
    }

    #[test]
    fn the_limits_are_inclusive_and_name_the_field() {
        for ms in [MIN_TIME_PER_MOVE_MS, 1000, MAX_TIME_PER_MOVE_MS] {
            assert_eq!(field(&config(15, ms)), None, "{ms} ms");
        }
        for ms in [0, 50, MIN_TIME_PER_MOVE_MS - 1, MAX_TIME_PER_MOVE_MS + 1, 600_000, u64::MAX] {
            assert_eq!(field(&config(15, ms)), Some("timePerMoveMs"), "{ms} ms");
        }
        for size in [gomoku::MIN_SIZE, gomoku::MAX_SIZE] {
            assert_eq!(field(&config(size, 1000)), None, "{size}");
        }
        for size in [0, gomoku::MIN_SIZE - 1, gomoku::MAX_SIZE + 1, u8::MAX] {
            assert_eq!(field(&config(size, 1000)), Some("size"), "{size}");
        }
        let mut c = config(15, 1000);
        c.black = PlayerKind::Computer { level: Level::Reversi(ReversiLevel::Greedy) };
        assert_eq!(field(&c), Some("black"));
        let mut c = GameConfig::human_vs(GameKind::Reversi, Level::Gomoku(GomokuLevel::Master));
        assert_eq!(field(&c), Some("white"));
        c.white = PlayerKind::Computer { level: Level::Reversi(ReversiLevel::Master) };
        assert_eq!(field(&c), None);
        // An external engine may play either game (NBoard engines play Reversi).
        c.black = PlayerKind::External { id: 1 };
        assert_eq!(field(&c), None);
        let e = ConfigError::External { color: Color::Black, game: "Reversi" };
        assert_eq!(e.field(), "black");
        assert_eq!(e.to_string(), "black is set to an external engine that does not play Reversi");
        c.black = PlayerKind::Human;
        let mut g = config(15, 1000);
        g.white = PlayerKind::External { id: 1 };
        assert_eq!(field(&g), None);
        assert_eq!(g.white.external(), Some(1));
        assert_eq!(g.black.external(), None);
        c.opening = OpeningRule::Swap2;
        assert_eq!(field(&c), Some("opening"), "no opening rule for Reversi");
        c.opening = OpeningRule::None;
        c.time_control = TimeControl::PerMove { move_ms: 0 };
        assert_eq!(field(&c), Some("timeControl"));
    }

    #[test]
    fn settings_from_before_clocks_open_without_one() {
        let old = r#"{"kind":{"game":"reversi"},"black":{"type":"human"},"white":{"type":"human"},"timePerMoveMs":1000}"#;
        let c: GameConfig = serde_json::from_str(old).unwrap();
        assert_eq!(c.time_control, TimeControl::None);
        let timed = GameConfig { time_control: TimeControl::CHOICES[7], ..c };
        let text = serde_json::to_string(&timed).unwrap();
        assert_eq!(serde_json::from_str::<GameConfig>(&text).unwrap(), timed);
    }

    #[test]
    fn an_external_player_round_trips_through_json() {
        let kind = PlayerKind::External { id: 7 };
        let text = serde_json::to_string(&kind).unwrap();
        assert_eq!(text, r#"{"type":"external","id":7}"#);
        assert_eq!(serde_json::from_str::<PlayerKind>(&text).unwrap(), kind);
    }

    #[test]
    fn opening_rules_fit_their_games_and_old_settings_have_none() {
        let with = |rule, size, opening| GameConfig {
            opening,
            ..GameConfig::human_vs(
                GameKind::Gomoku { rule, size },
                Level::Gomoku(GomokuLevel::Master),
            )
        };
        for rule in Rule::ALL {
            for opening in [OpeningRule::None, OpeningRule::Swap, OpeningRule::Swap2] {
                assert_eq!(field(&with(rule, 15, opening)), None, "{rule:?} {opening:?}");
            }
            let soosorv = field(&with(rule, 15, OpeningRule::Soosorv8));
            assert_eq!(soosorv.is_none(), rule == Rule::Renju, "{rule:?}");
        }
        assert_eq!(field(&with(Rule::Renju, 16, OpeningRule::Soosorv8)), Some("opening"));
        for (rule, opening) in
            [(Rule::Freestyle, OpeningRule::Swap2), (Rule::Renju, OpeningRule::Soosorv8)]
        {
            let mut brain = with(rule, 15, opening);
            brain.white = PlayerKind::External { id: 1 };
            assert_eq!(field(&brain), Some("opening"), "an external engine plays no {opening:?}");
        }
        let mut json = serde_json::to_value(with(Rule::Renju, 15, OpeningRule::None)).unwrap();
        json.as_object_mut().unwrap().remove("opening");
        let old: GameConfig = serde_json::from_value(json).unwrap();
        assert_eq!(old.opening, OpeningRule::None);
    }
}

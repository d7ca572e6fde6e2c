//! The facts the UI shows but does not decide — the levels (names, games, strength order,
//! whether they follow the clock), the default settings and game, the offered times per move
//! and board sizes with their limits — written once, here, from the engine's own constants.
//!
//! The UI reads them from `ui/js/facts.generated.js`, which [`module`] writes: the page has
//! them at its first paint without a round trip, and the test below fails when the file
//! differs from what Rust would write. To rewrite it:
//! `TENGEN_WRITE_FACTS=1 cargo test -p tengen-app --lib facts`.

use serde::Serialize;
use tengen_engine::game::opening::{OpeningRule, MAX_OFFERS};
use tengen_engine::game::{
    GameConfig, TimeControl, DEFAULT_GOMOKU_SIZE, DEFAULT_TIME_PER_MOVE_MS, GOMOKU_SIZE_CHOICES,
    MAX_TIME_PER_MOVE_MS, MIN_TIME_PER_MOVE_MS, TIME_PER_MOVE_CHOICES_MS, URGENT_MS,
};
use tengen_engine::gomoku::{Rule, MAX_SIZE, MIN_SIZE};
use tengen_engine::level::Level;

use crate::session::default_config;
use crate::storage::{Settings, DEFAULT_ENGINE_MEMORY_MIB, ENGINE_MEMORY_MIB};

/// Where the UI's copy lives, from the crate's folder.
pub const MODULE_PATH: &str = "../ui/js/facts.generated.js";

/// One computer level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelFact {
    /// `gomoku` or `reversi`.
    pub game: &'static str,
    /// The level's name (`pattern`, `master`, …), as `GameConfig` spells it.
    pub level: &'static str,
    /// 1 for the weakest level of its game.
    pub rank: usize,
    /// Whether the level thinks for the player's time per move (the others search to their
    /// own fixed depth).
    pub follows_clock: bool,
}

/// One opening rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpeningFact {
    pub rule: OpeningRule,
    /// Only with the Renju rule (on a board with a centre line).
    pub renju_only: bool,
}

/// A range of numbers with the values offered in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Choices<T> {
    pub min: T,
    pub max: T,
    pub default: T,
    /// What the start panel offers, smallest first.
    pub offered: Vec<T>,
}

/// The clocks the start panel offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockFacts {
    /// The time controls offered, in the order shown (no clock first).
    pub offered: Vec<TimeControl>,
    /// A clock with less time left than this is shown as urgent.
    pub urgent_ms: u64,
}

/// Everything the UI takes from Rust before any game exists.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Facts {
    /// Every level, each game's weakest first.
    pub levels: Vec<LevelFact>,
    /// The Gomoku rules, in the engine's order.
    pub rules: Vec<Rule>,
    /// The opening rules, each with whether it needs Renju.
    pub openings: Vec<OpeningFact>,
    /// Soosõrv: the most 5th moves the white player may ask for.
    pub max_offers: u8,
    pub time_per_move_ms: Choices<u64>,
    pub gomoku_sizes: Choices<u8>,
    pub time_controls: ClockFacts,
    /// The engine memory the settings offer, in MiB.
    pub engine_memory_mib: Choices<u32>,
    pub default_settings: Settings,
    /// The game of a first start.
    pub default_config: GameConfig,
}

impl From<Level> for LevelFact {
    fn from(level: Level) -> LevelFact {
        LevelFact {
            game: level.game_name(),
            level: level.name(),
            rank: level.strength() + 1,
            follows_clock: level.follows_clock(),
        }
    }
}

/// The facts, from the engine and the app's defaults.
pub fn facts() -> Facts {
    Facts {
        levels: Level::all().map(LevelFact::from).collect(),
        rules: Rule::ALL.to_vec(),
        openings: OpeningRule::ALL
            .iter()
            .map(|&rule| OpeningFact { rule, renju_only: rule.needs_renju() })
            .collect(),
        max_offers: MAX_OFFERS,
        time_per_move_ms: Choices {
            min: MIN_TIME_PER_MOVE_MS,
            max: MAX_TIME_PER_MOVE_MS,
            default: DEFAULT_TIME_PER_MOVE_MS,
            offered: TIME_PER_MOVE_CHOICES_MS.to_vec(),
        },
        gomoku_sizes: Choices {
            min: MIN_SIZE,
            max: MAX_SIZE,
            default: DEFAULT_GOMOKU_SIZE,
            offered: GOMOKU_SIZE_CHOICES.to_vec(),
        },
        time_controls: ClockFacts { offered: TimeControl::CHOICES.to_vec(), urgent_ms: URGENT_MS },
        engine_memory_mib: Choices {
            min: ENGINE_MEMORY_MIB[0],
            max: ENGINE_MEMORY_MIB[ENGINE_MEMORY_MIB.len() - 1],
            default: DEFAULT_ENGINE_MEMORY_MIB,
            offered: ENGINE_MEMORY_MIB.to_vec(),
        },
        default_settings: Settings::default(),
        default_config: default_config(),
    }
}

/// The text of `ui/js/facts.generated.js`.
pub fn module() -> String {
    let json = serde_json::to_string_pretty(&facts()).unwrap_or_else(|e| {
        // Plain data with string keys always serialises; say so in the file if it did not.
        format!("null /* {e} */")
    });
    format!(
        "// Generated from src-tauri/src/facts.rs by its test; do not edit. To rewrite:\n\
         // TENGEN_WRITE_FACTS=1 cargo test -p tengen-app --lib facts\n\
         export const FACTS = Object.freeze({json});\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_uis_copy_is_what_rust_writes() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(MODULE_PATH);
        let want = module();
        if std::env::var_os("TENGEN_WRITE_FACTS").is_some() {
            std::fs::write(&path, &want).expect("write the facts module");
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "{} differs from the facts Rust gives; rewrite it with \
             TENGEN_WRITE_FACTS=1 cargo test -p tengen-app --lib facts",
            path.display()
        );
    }

    #[test]
    fn the_facts_agree_with_the_engines_limits() {
        let f = facts();
        assert_eq!(f.levels.len(), Level::all().count());
        assert_eq!(
            f.levels[0],
            LevelFact { game: "gomoku", level: "fivetuple", rank: 1, follows_clock: false }
        );
        for l in Level::all() {
            let fact = f.levels.iter().find(|x| (x.game, x.level) == (l.game_name(), l.name()));
            assert_eq!(fact.map(|x| x.follows_clock), Some(l.follows_clock()), "{l}");
        }
        let ranks: Vec<usize> =
            f.levels.iter().filter(|l| l.game == "reversi").map(|l| l.rank).collect();
        assert_eq!(ranks, [1, 2, 3, 4]);
        let t = &f.time_per_move_ms;
        assert_eq!((t.offered[0], t.offered[t.offered.len() - 1]), (t.min, t.max));
        // Every offered game is one the engine accepts.
        for &ms in &t.offered {
            let config = GameConfig { time_per_move_ms: ms, ..default_config() };
            assert!(config.validate().is_ok(), "{ms} ms");
        }
        for &time_control in &f.time_controls.offered {
            let config = GameConfig { time_control, ..default_config() };
            assert!(config.validate().is_ok(), "{time_control:?}");
        }
        assert!(f.default_config.validate().is_ok());
        assert_eq!(f.default_settings.last_config, None);
        // Every offered engine memory is one the settings accept, the default among them.
        let m = &f.engine_memory_mib;
        assert!(
            m.offered.contains(&m.default) && m.default == f.default_settings.engine_memory_mib
        );
        for &mib in &m.offered {
            let s = Settings { engine_memory_mib: mib, ..Settings::default() };
            assert!(s.validate().is_ok(), "{mib} MiB");
        }
        let text = module();
        assert!(text.contains("\"followsClock\": true") && text.contains("\"offered\""));
    }
}

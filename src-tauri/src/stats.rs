//! Wins, losses and draws of the human against each computer level, per game and rule,
//! kept in `stats.json` in the app data directory.

use serde::{Deserialize, Serialize};
use tengen_engine::ai::Level;
use tengen_engine::game::{Game, GameKind, PlayerKind};
use tengen_engine::gomoku::Rule;
use tengen_engine::Color;

/// The statistics file's name in the data directory.
pub const STATS_FILE: &str = "stats.json";

/// One line of the table: the human's results against one level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsRow {
    pub game: String,
    /// The Gomoku rule; `null` for Reversi.
    pub rule: Option<String>,
    pub level: String,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// The whole table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Stats(pub Vec<StatsRow>);

impl StatsRow {
    /// The row's key: game, rule and level.
    fn key(&self) -> (&str, Option<&str>, &str) {
        (&self.game, self.rule.as_deref(), &self.level)
    }

    /// Whether the row names a level and rule that exist, spelt as [`Stats::record`] spells
    /// them (a row under another spelling would never be counted again).
    fn check(&self) -> Result<(), String> {
        let level = Level::parse_for(&self.game, &self.level)
            .ok()
            .filter(|l| l.name() == self.level)
            .ok_or_else(|| format!("unknown level {} {}", self.game, self.level))?;
        let rule_fits = match (level, self.rule.as_deref()) {
            (Level::Gomoku(_), Some(r)) => Rule::ALL.iter().any(|rule| rule.name() == r),
            (Level::Reversi(_), None) => true,
            _ => false,
        };
        if !rule_fits {
            return Err(format!("the rule {:?} does not fit {}", self.rule, self.game));
        }
        Ok(())
    }
}

impl Stats {
    /// Reads the statistics file's text, checking every row (a known level and rule, each
    /// once): a file from disk is not trusted.
    pub fn from_json(text: &str) -> Result<Stats, String> {
        let stats: Stats = serde_json::from_str(text).map_err(|e| e.to_string())?;
        for (i, row) in stats.0.iter().enumerate() {
            row.check().map_err(|e| format!("row {}: {e}", i + 1))?;
            if stats.0[..i].iter().any(|r| r.key() == row.key()) {
                return Err(format!("row {}: {} {} is listed twice", i + 1, row.game, row.level));
            }
        }
        Ok(stats)
    }

    /// Counts the result of `game` when it is over and one human played one computer
    /// level; answers whether anything was counted.
    pub fn record(&mut self, game: &Game) -> bool {
        let Some(result) = game.result() else { return false };
        let (human, level) = match (game.player(Color::Black), game.player(Color::White)) {
            (PlayerKind::Human, PlayerKind::Computer { level }) => (Color::Black, level),
            (PlayerKind::Computer { level }, PlayerKind::Human) => (Color::White, level),
            _ => return false,
        };
        let (name, rule) = match game.config().kind {
            GameKind::Gomoku { rule, .. } => ("gomoku", Some(rule.name().to_string())),
            GameKind::Reversi => ("reversi", None),
        };
        let key = (name, rule.as_deref(), level.name());
        let pos = self.0.iter().position(|r| r.key() == key);
        let row = match pos {
            Some(i) => &mut self.0[i],
            None => {
                self.0.push(StatsRow {
                    game: name.to_string(),
                    rule,
                    level: level.name().to_string(),
                    wins: 0,
                    losses: 0,
                    draws: 0,
                });
                let last = self.0.len() - 1;
                &mut self.0[last]
            }
        };
        let count = match result.winner {
            Some(c) if c == human => &mut row.wins,
            Some(_) => &mut row.losses,
            None => &mut row.draws,
        };
        *count = count.saturating_add(1);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_engine::ai::GomokuLevel;
    use tengen_engine::game::GameConfig;

    fn game(black: PlayerKind, white: PlayerKind) -> Game {
        Game::new(GameConfig {
            kind: GameKind::Gomoku { rule: Rule::Renju, size: 15 },
            black,
            white,
            time_per_move_ms: 1000,
            time_control: Default::default(),
            opening: Default::default(),
        })
        .unwrap()
    }

    #[test]
    fn counts_the_humans_results_per_level() {
        let cpu = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::Pattern) };
        let mut stats = Stats::default();
        let mut g = game(PlayerKind::Human, cpu);
        assert!(!stats.record(&g), "an unfinished game counts nothing");
        g.resign(Color::Black).unwrap();
        assert!(stats.record(&g));
        let mut g = game(cpu, PlayerKind::Human);
        g.resign(Color::Black).unwrap();
        assert!(stats.record(&g));
        assert_eq!(stats.0.len(), 1);
        let row = &stats.0[0];
        assert_eq!(
            (row.game.as_str(), row.rule.as_deref(), row.level.as_str()),
            ("gomoku", Some("renju"), "pattern")
        );
        assert_eq!((row.wins, row.losses, row.draws), (1, 1, 0));
        let mut g = game(PlayerKind::Human, PlayerKind::Human);
        g.resign(Color::Black).unwrap();
        assert!(!stats.record(&g), "human against human is not counted");
        let json = serde_json::to_string(&stats).unwrap();
        assert_eq!(Stats::from_json(&json).unwrap(), stats);
    }

    #[test]
    fn a_stored_table_is_checked_row_by_row() {
        let row = |game: &str, rule: Option<&str>, level: &str| {
            serde_json::json!([{ "game": game, "rule": rule, "level": level,
                                 "wins": 1, "losses": 2, "draws": 3 }])
            .to_string()
        };
        assert!(Stats::from_json(&row("gomoku", Some("renju"), "master")).is_ok());
        assert!(Stats::from_json(&row("reversi", None, "strong")).is_ok());
        for bad in [
            row("gomoku", Some("renju"), "grandmaster"),
            row("gomoku", Some("RENJU"), "master"),
            row("gomoku", Some("renju"), "Master"),
            row("gomoku", None, "master"),
            row("reversi", Some("renju"), "master"),
            row("chess", None, "master"),
            r#"[{"game":"gomoku","rule":"renju","level":"master","wins":-1,"losses":0,"draws":0}]"#
                .to_string(),
            r#"{"wins": 3}"#.to_string(),
        ] {
            assert!(Stats::from_json(&bad).is_err(), "{bad}");
        }
        let one = row("reversi", None, "greedy");
        let twice = format!("[{0},{0}]", &one[1..one.len() - 1]);
        assert!(Stats::from_json(&twice).unwrap_err().contains("twice"), "{twice}");
    }

    #[test]
    fn counts_stop_at_the_largest_number_instead_of_overflowing() {
        let cpu = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::Pattern) };
        let mut stats = Stats::from_json(
            r#"[{"game":"gomoku","rule":"renju","level":"pattern","wins":4294967295,"losses":0,"draws":0}]"#,
        )
        .unwrap();
        let mut g = game(PlayerKind::Human, cpu);
        g.resign(Color::White).unwrap();
        assert!(stats.record(&g));
        assert_eq!(stats.0[0].wins, u32::MAX);
    }
}

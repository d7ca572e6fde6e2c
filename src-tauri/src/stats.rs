//! Wins, losses and draws of the human against each computer level, per game and rule,
//! kept in `stats.json` in the app data directory.

use serde::{Deserialize, Serialize};
use tengen_engine::game::{Game, GameKind, PlayerKind};
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

impl Stats {
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
        let pos =
            self.0.iter().position(|r| r.game == name && r.rule == rule && r.level == level.name());
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
        match result.winner {
            Some(c) if c == human => row.wins += 1,
            Some(_) => row.losses += 1,
            None => row.draws += 1,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_engine::ai::{GomokuLevel, Level};
    use tengen_engine::game::GameConfig;
    use tengen_engine::gomoku::Rule;

    fn game(black: PlayerKind, white: PlayerKind) -> Game {
        Game::new(GameConfig {
            kind: GameKind::Gomoku { rule: Rule::Renju, size: 15 },
            black,
            white,
            time_per_move_ms: 1000,
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
        assert_eq!(serde_json::from_str::<Stats>(&json).unwrap(), stats);
    }
}

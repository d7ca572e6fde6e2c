//! Saving and opening games: our versioned JSON, Piskvork PSQ (Gomoku) and the standard
//! transcript (Reversi).

use serde::{Deserialize, Serialize};

use super::{EndReason, Game, GameConfig, GameKind, GameResult, MoveRecord, PlayerKind};
use super::{Position, SaveError};
use crate::gomoku::{self, psq, Rule};
use crate::reversi;
use crate::{Color, Move, Point};

/// The `format` field of a Tengen save file.
pub const SAVE_FORMAT: &str = "tengen";
/// The newest save format version this build writes and reads.
pub const SAVE_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SaveFile {
    format: String,
    version: u32,
    config: GameConfig,
    moves: Vec<MoveRecord>,
    #[serde(default)]
    redo: Vec<MoveRecord>,
    /// A resignation or forbidden-move loss, which the moves alone do not show.
    #[serde(default)]
    ended: Option<GameResult>,
}

impl Game {
    /// The game as our versioned JSON save format.
    pub fn to_json(&self) -> String {
        let file = SaveFile {
            format: SAVE_FORMAT.to_string(),
            version: SAVE_VERSION,
            config: *self.config(),
            moves: self.history().to_vec(),
            redo: self.redo_stack().to_vec(),
            ended: self.decided().cloned(),
        };
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(&file).unwrap_or_default()
    }

    /// Reads our JSON save format, replaying and so checking every move.
    pub fn from_json(text: &str) -> Result<Game, SaveError> {
        #[derive(Deserialize)]
        struct Header {
            format: String,
            version: u32,
        }
        let header: Header =
            serde_json::from_str(text).map_err(|e| SaveError::Json(e.to_string()))?;
        if header.format != SAVE_FORMAT {
            return Err(SaveError::Json(format!("the format is \"{}\"", header.format)));
        }
        if header.version > SAVE_VERSION {
            return Err(SaveError::NewerVersion(header.version));
        }
        let file: SaveFile =
            serde_json::from_str(text).map_err(|e| SaveError::Json(e.to_string()))?;
        let mut game = Game::new(file.config)?;
        replay(&mut game, file.moves.iter().map(|r| (r.mv, r.ms)))?;
        // The redo stack is kept only if it still replays from here.
        let mut probe = game.clone();
        let redo_ok = file
            .redo
            .iter()
            .rev()
            .filter(|r| r.mv != Move::Pass)
            .all(|r| probe.play(r.mv, r.ms).is_ok());
        if redo_ok {
            game.set_redo_stack(file.redo);
        }
        if let Some(ended) = file.ended {
            if matches!(ended.reason, EndReason::Resignation | EndReason::Forbidden)
                && !game.is_over()
            {
                game.set_decided(Some(ended));
            }
        }
        Ok(game)
    }

    /// The game as a record: PSQ for Gomoku, the move transcript for Reversi.
    pub fn to_record(&self) -> String {
        let placed = self.history().iter().filter_map(|r| r.mv.point().map(|p| (p, r.ms)));
        match self.config().kind {
            GameKind::Gomoku { size, .. } => {
                psq::write_psq(&psq::PsqRecord { size, moves: placed.collect() })
            }
            GameKind::Reversi => {
                let points: Vec<Point> = placed.map(|(p, _)| p).collect();
                reversi::notation::write_transcript(&points)
            }
        }
    }

    /// The file extension that suits [`Game::to_record`].
    pub fn record_extension(&self) -> &'static str {
        match self.config().kind {
            GameKind::Gomoku { .. } => "psq",
            GameKind::Reversi => "txt",
        }
    }

    /// Opens a file in any format we read, detecting which: our JSON, PSQ, a Reversi
    /// transcript, or a Gomoku move list in board notation (`h8 i9 j10`). Records carry no
    /// players or Gomoku rule, so those come from `template` when it is the same game
    /// (otherwise human against human, freestyle).
    pub fn open(text: &str, template: &GameConfig) -> Result<Game, SaveError> {
        let trimmed = text.trim_start_matches('\u{feff}').trim();
        if trimmed.starts_with('{') {
            return Game::from_json(trimmed);
        }
        let players = |kind: GameKind| {
            let same = std::mem::discriminant(&kind) == std::mem::discriminant(&template.kind);
            let (black, white) = if same {
                (template.black, template.white)
            } else {
                (PlayerKind::Human, PlayerKind::Human)
            };
            GameConfig { kind, black, white, time_per_move_ms: template.time_per_move_ms }
        };
        let template_rule = match template.kind {
            GameKind::Gomoku { rule, .. } => rule,
            GameKind::Reversi => Rule::Freestyle,
        };
        if trimmed.to_ascii_lowercase().starts_with("piskvorky") {
            let record = psq::read_psq(trimmed)?;
            let kind = GameKind::Gomoku { rule: template_rule, size: record.size };
            let mut game = Game::new(players(kind))?;
            replay(&mut game, record.moves.iter().map(|&(p, ms)| (Move::Place(p), ms)))?;
            return Ok(game);
        }
        if let GameKind::Gomoku { size, rule } = template.kind {
            if let Ok(points) = gomoku::notation::parse_moves(trimmed, size) {
                let mut game = Game::new(players(GameKind::Gomoku { rule, size }))?;
                replay(&mut game, points.into_iter().map(|p| (Move::Place(p), 0)))?;
                return Ok(game);
            }
        }
        match reversi::notation::parse_transcript(trimmed) {
            Ok(points) => {
                let mut game = Game::new(players(GameKind::Reversi))?;
                replay(&mut game, points.into_iter().map(|p| (Move::Place(p), 0)))?;
                Ok(game)
            }
            Err(e) if looks_like_transcript(trimmed) => Err(e.into()),
            Err(_) => Err(SaveError::UnknownFormat),
        }
    }
}

fn looks_like_transcript(text: &str) -> bool {
    !text.is_empty()
        && text.chars().all(|c| {
            c.is_ascii_whitespace() || matches!(c.to_ascii_lowercase(), 'a'..='h' | '1'..='8')
        })
}

/// Plays recorded moves into `game`, skipping recorded passes (they are replayed by the
/// rules). Under Renju a forbidden move by black ends the game as a loss for black.
fn replay(game: &mut Game, moves: impl Iterator<Item = (Move, u64)>) -> Result<(), SaveError> {
    for (index, (mv, ms)) in moves.enumerate() {
        if mv == Move::Pass {
            continue;
        }
        if let (Position::Gomoku(g), Move::Place(p)) = (game.position(), mv) {
            if g.side_to_move() == Color::Black && g.stone(p).is_none() {
                if let Some(kind) = g.is_forbidden(p) {
                    game.forfeit_forbidden(p, kind);
                    return Ok(());
                }
            }
        }
        game.play(mv, ms).map_err(|source| SaveError::BadMove { index: index + 1, source })?;
    }
    Ok(())
}

//! Saving and opening games: our versioned JSON, Piskvork PSQ (Gomoku) and the standard
//! transcript (Reversi).

use serde::{Deserialize, Serialize};

use super::{EndReason, Game, GameConfig, GameError, GameKind, GameResult, MoveRecord};
use super::{PlayerKind, Position, SaveError, MAX_MOVE_MS};
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

    /// Reads our JSON save format, rechecking every stored fact: the settings
    /// ([`GameConfig::validate`]), every move and its time, the colours and the Reversi
    /// passes (exactly where the rules force them), the redo list, and the result: one the
    /// moves give is recomputed from them; a resignation or a Renju forbidden-move loss,
    /// which the moves cannot show, is accepted only where it could have happened.
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
        replay_saved(&mut game, file.moves.iter(), |index, source| SaveError::BadMove {
            index,
            source,
        })?;
        let mut probe = game.clone();
        replay_saved(&mut probe, file.redo.iter().rev(), |index, source| SaveError::BadRedo {
            index,
            source,
        })?;
        game.set_redo_stack(file.redo);
        if let Some(ended) = file.ended {
            check_ended(&game, &ended)?;
            if matches!(ended.reason, EndReason::Resignation | EndReason::Forbidden) {
                game.set_decided(Some(ended));
            }
        }
        Ok(game)
    }

    /// The game as a record: PSQ for Gomoku, the move transcript for Reversi.
    ///
    /// The PSQ names the rule after the moves (see [`psq`]), and a Renju game lost by a
    /// forbidden move ends with that move, as Piskvork records it.
    pub fn to_record(&self) -> String {
        let placed = self.history().iter().filter_map(|r| r.mv.point().map(|p| (p, r.ms)));
        match self.config().kind {
            GameKind::Gomoku { size, rule } => {
                let mut moves: Vec<(Point, u64)> = placed.collect();
                if let Some(GameResult { reason: EndReason::Forbidden, line, .. }) = self.decided()
                {
                    moves.extend(line.first().map(|&p| (p, 0)));
                }
                psq::write_psq_with_rule(&psq::PsqRecord { size, moves }, rule)
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
    /// players, so those come from `template` when it is the same game (otherwise human
    /// against human). A PSQ that names its rule (as Tengen writes them) is replayed under
    /// it; other Gomoku records under the template's rule (freestyle for a Reversi
    /// template), and a record that cannot be replayed under it is refused, never cut.
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
            let (record, stored) = psq::read_psq_with_rule(trimmed)?;
            let rule = stored.unwrap_or(template_rule);
            let kind = GameKind::Gomoku { rule, size: record.size };
            let mut game = Game::new(players(kind))?;
            let chosen = stored.is_none().then_some(rule);
            replay_record(&mut game, &record.moves, chosen)?;
            return Ok(game);
        }
        if let GameKind::Gomoku { size, rule } = template.kind {
            if let Ok(points) = gomoku::notation::parse_moves(trimmed, size) {
                let mut game = Game::new(players(GameKind::Gomoku { rule, size }))?;
                let moves: Vec<(Point, u64)> = points.into_iter().map(|p| (p, 0)).collect();
                replay_record(&mut game, &moves, Some(rule))?;
                return Ok(game);
            }
        }
        match reversi::notation::parse_transcript(trimmed) {
            Ok(points) => {
                let mut game = Game::new(players(GameKind::Reversi))?;
                let moves: Vec<(Point, u64)> = points.into_iter().map(|p| (p, 0)).collect();
                replay_record(&mut game, &moves, None)?;
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

/// Plays a save's records into `game`, each exactly as stored: its colour, its time, and
/// a Reversi pass only where the rules force one (they play it themselves, so a stored
/// pass must match the one already played). `bad` wraps a refused move with its 1-based
/// number.
fn replay_saved<'a>(
    game: &mut Game,
    records: impl Iterator<Item = &'a MoveRecord>,
    bad: impl Fn(usize, GameError) -> SaveError,
) -> Result<(), SaveError> {
    let start = game.history().len();
    let mut count = 0;
    for (i, rec) in records.enumerate() {
        let index = i + 1;
        count = index;
        check_time(index, rec.ms)?;
        if let Some(forced) = game.history().get(start + i) {
            if forced != rec {
                let what = if rec.mv == Move::Pass {
                    "the forced pass is recorded with another colour or time".to_string()
                } else {
                    format!("{} had to pass here", forced.color)
                };
                return Err(SaveError::Mismatch { index, what });
            }
            continue;
        }
        if rec.color != game.side_to_move() {
            let what = format!("it is {}'s move, recorded as {}'s", game.side_to_move(), rec.color);
            return Err(SaveError::Mismatch { index, what });
        }
        game.play(rec.mv, rec.ms).map_err(|source| bad(index, source))?;
    }
    if game.history().len() > start + count {
        let what = "the file leaves out the pass the rules force after the last move".to_string();
        return Err(SaveError::Mismatch { index: count + 1, what });
    }
    Ok(())
}

/// Refuses a move time beyond [`MAX_MOVE_MS`].
fn check_time(index: usize, ms: u64) -> Result<(), SaveError> {
    if ms > MAX_MOVE_MS {
        return Err(SaveError::BadTime { index, ms });
    }
    Ok(())
}

/// Plays a record's moves (PSQ, a move list, a transcript) into `game`; passes are the
/// rules' business. Under Renju a forbidden move by black ends the game as a loss for
/// black, so it may only be the last move. `chosen` is the rule a Gomoku record that names
/// none is replayed under, named in the error when a move cannot be played.
fn replay_record(
    game: &mut Game,
    moves: &[(Point, u64)],
    chosen: Option<Rule>,
) -> Result<(), SaveError> {
    for (i, &(p, ms)) in moves.iter().enumerate() {
        let index = i + 1;
        check_time(index, ms)?;
        if let Position::Gomoku(g) = game.position() {
            let black = g.side_to_move() == Color::Black && !g.is_over();
            if let Some(kind) = g.is_forbidden(p).filter(|_| black && g.stone(p).is_none()) {
                let more = moves.len() - index;
                if more > 0 {
                    let point = gomoku::notation::format_point(p, g.size());
                    return Err(SaveError::MovesAfterForbidden { index, point, kind, more });
                }
                game.forfeit_forbidden(p, kind);
                return Ok(());
            }
        }
        game.play(Move::Place(p), ms).map_err(|source| match chosen {
            Some(rule) => SaveError::NotUnderRule { index, rule, source },
            None => SaveError::BadMove { index, source },
        })?;
    }
    Ok(())
}

/// Checks a save's stored result against its moves (`game`, replayed): a result the moves
/// give must be the one they give; a resignation must come while the game goes on, with
/// the other side winning; a forbidden-move loss must be black's, under Renju, on a point
/// that is forbidden now.
fn check_ended(game: &Game, ended: &GameResult) -> Result<(), SaveError> {
    let bad = |why: &str| Err(SaveError::BadResult(why.to_string()));
    let over_by_moves = game.result().is_some();
    match ended.reason {
        EndReason::Five | EndReason::NoMoves | EndReason::BoardFull => {
            if game.result() != Some(ended) {
                return bad("the moves do not end the game that way");
            }
        }
        EndReason::Resignation => {
            if over_by_moves {
                return bad("a resignation after the moves had already ended the game");
            }
            let Some(winner) = ended.winner else {
                return bad("a resignation without a winner");
            };
            if *ended != game.resignation(winner.opponent()) {
                return bad(
                    "a resignation must name only the winner, the side that did not resign",
                );
            }
        }
        EndReason::Forbidden => {
            if over_by_moves {
                return bad("a forbidden move after the moves had already ended the game");
            }
            let Position::Gomoku(g) = game.position() else {
                return bad("a forbidden move in Reversi");
            };
            let [p] = ended.line[..] else {
                return bad("a forbidden move must name its one point");
            };
            let kind = if g.side_to_move() == Color::Black && g.stone(p).is_none() {
                g.is_forbidden(p)
            } else {
                None
            };
            match kind {
                Some(kind) if *ended == Game::forfeit(p, kind) => {}
                _ => return bad("the point is not forbidden to black there"),
            }
        }
    }
    Ok(())
}

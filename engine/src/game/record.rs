//! Saving and opening games: our versioned JSON, Piskvork PSQ (Gomoku) and the standard
//! transcript (Reversi).

use serde::{Deserialize, Serialize};

use super::opening::{Choice, OpeningRule};
use super::tree::{NodeId, ROOT};
use super::{EndReason, Game, GameConfig, GameError, GameKind, GameResult, MoveRecord};
use super::{PlayerKind, Position, SaveError, Setup, MAX_MOVE_MS};
use crate::ai::review::{Review, ReviewError};
use crate::gomoku::{self, psq, Rule};
use crate::reversi;
use crate::{Color, Move, Point};

/// The `format` field of a Tengen save file.
pub const SAVE_FORMAT: &str = "tengen";
/// The newest save format version this build writes and reads: 2 holds the whole game tree
/// and a set-up start; 1 (the moves to the position shown and a redo list) still opens.
pub const SAVE_VERSION: u32 = 2;

/// The most moves (nodes of the tree) a save may hold.
pub const MAX_SAVED_NODES: usize = 50_000;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SaveFile {
    format: String,
    version: u32,
    config: GameConfig,
    /// Version 1: the moves to the position shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    moves: Vec<MoveRecord>,
    /// Version 1: the moves undone, the next one last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    redo: Vec<MoveRecord>,
    /// A resignation or forbidden-move loss, which the moves alone do not show: at the
    /// position shown (version 1) or at the start (version 2).
    #[serde(default)]
    ended: Option<GameResult>,
    /// Version 2: the position set up by hand the game starts from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    setup: Option<Setup>,
    /// Version 2: the tree, each node after its parent (numbered from 1 in this order; 0 is
    /// the start), children in order (the main line first).
    #[serde(default)]
    nodes: Vec<SavedNode>,
    /// Version 2: the node shown.
    #[serde(default)]
    current: usize,
    /// The time the side to move has spent on its move so far, when the game has a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn_ms: Option<u64>,
    /// The review of the main line ([`crate::ai::review`]), read apart from the rest
    /// ([`Game::stored_review`]): a review that does not fit never refuses the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    review: Option<serde_json::Value>,
    /// The opening's choices (the rule is the settings'), in order, over the line shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    opening: Vec<Choice>,
}

#[derive(Serialize, Deserialize)]
struct SavedNode {
    parent: usize,
    #[serde(flatten)]
    rec: MoveRecord,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ended: Option<GameResult>,
}

/// What kind of text [`Game::open_text`] recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// Tengen's JSON save.
    Json,
    /// A Piskvork PSQ record.
    Psq,
    /// A Gomoku move list in board notation (`h8 i9 j10`).
    MoveList,
    /// A Reversi transcript (`f5d6c3`).
    Transcript,
    /// A Reversi board string (64 squares and the side to move), perhaps with a transcript
    /// on the next line.
    Board,
}

impl RecordKind {
    /// The kind's stable code (`json`, `psq`, `move_list`, `transcript`, `board`).
    pub const fn code(self) -> &'static str {
        match self {
            RecordKind::Json => "json",
            RecordKind::Psq => "psq",
            RecordKind::MoveList => "move_list",
            RecordKind::Transcript => "transcript",
            RecordKind::Board => "board",
        }
    }
}

impl Game {
    /// The game as our versioned JSON save format: the whole tree.
    pub fn to_json(&self) -> String {
        self.to_json_with_review(None)
    }

    /// [`Game::to_json`] with the review of its main line.
    pub fn to_json_with_review(&self, review: Option<&Review>) -> String {
        let tree = self.tree();
        let order = tree.preorder();
        let mut number = vec![0usize; order.iter().max().map_or(1, |&m| m + 1)];
        for (i, &id) in order.iter().enumerate() {
            number[id] = i + 1;
        }
        let nodes = order
            .iter()
            .filter_map(|&id| {
                Some(SavedNode {
                    parent: tree.parent(id).map_or(0, |p| number.get(p).copied().unwrap_or(0)),
                    rec: *tree.record(id)?,
                    ended: tree.ended(id).cloned(),
                })
            })
            .collect();
        let file = SaveFile {
            format: SAVE_FORMAT.to_string(),
            version: SAVE_VERSION,
            config: *self.config(),
            moves: Vec::new(),
            redo: Vec::new(),
            ended: tree.ended(ROOT).cloned(),
            setup: self.setup().cloned(),
            nodes,
            current: number.get(self.cursor()).copied().unwrap_or(0),
            turn_ms: Some(self.turn_ms()).filter(|&ms| ms > 0),
            review: review.and_then(|r| serde_json::to_value(r).ok()),
            opening: self.opening().choices(),
        };
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(&file).unwrap_or_default()
    }

    /// Reads our JSON save format (either version), rechecking every stored fact: the
    /// settings ([`GameConfig::validate`]), the set-up ([`Setup::validate`]), every move
    /// and its time replayed through the rules, the colours and the Reversi passes (only
    /// where the rules force them), and each result: one the moves give is recomputed from
    /// them; a resignation or a Renju forbidden-move loss, which the moves cannot show, is
    /// accepted only where it could have happened.
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
        if header.version < 2 {
            return from_version_1(file);
        }
        file.config.validate()?;
        // The moves are replayed without the opening, which is then rebuilt over them and
        // rechecked step by step.
        let config = GameConfig { opening: OpeningRule::None, ..file.config };
        let mut game = match file.setup {
            Some(setup) => Game::from_setup(config, setup)?,
            None => Game::new(config)?,
        };
        if file.nodes.len() > MAX_SAVED_NODES {
            return Err(SaveError::TooManyMoves { limit: MAX_SAVED_NODES });
        }
        // ids[i]: the game's node for the file's node i.
        let mut ids: Vec<NodeId> = Vec::with_capacity(file.nodes.len() + 1);
        ids.push(ROOT);
        // The decisions, checked once every move is in (moves may follow one, from the time
        // before it was taken).
        let mut decisions: Vec<(usize, NodeId, GameResult)> = Vec::new();
        decisions.extend(file.ended.map(|ended| (0, ROOT, ended)));
        for (i, node) in file.nodes.iter().enumerate() {
            let index = i + 1;
            let mismatch = |what: String| SaveError::Mismatch { index, what };
            let Some(&parent) = ids.get(node.parent) else {
                return Err(mismatch("it comes before the move it follows".to_string()));
            };
            check_time(index, node.rec.ms)?;
            game.goto(parent).map_err(|source| SaveError::BadMove { index, source })?;
            let forced = game.cursor() != parent;
            let id = match node.rec.mv {
                Move::Pass if forced && game.tree().record(game.cursor()) == Some(&node.rec) => {
                    game.cursor()
                }
                Move::Pass if forced => {
                    return Err(mismatch(
                        "the forced pass is recorded with another colour or time".to_string(),
                    ))
                }
                Move::Place(_) if forced => {
                    return Err(mismatch(format!("{} had to pass here", game.side_to_move())))
                }
                mv => {
                    if node.rec.color != game.side_to_move() {
                        let what = format!(
                            "it is {}'s move, recorded as {}'s",
                            game.side_to_move(),
                            node.rec.color
                        );
                        return Err(mismatch(what));
                    }
                    if game.tree().child_with(parent, mv).is_some() {
                        return Err(mismatch("the same move twice at one position".to_string()));
                    }
                    game.play(mv, node.rec.ms)
                        .map_err(|source| SaveError::BadMove { index, source })?;
                    game.tree()
                        .child_with(parent, mv)
                        .ok_or(SaveError::BadMove { index, source: GameError::NoSuchNode })?
                }
            };
            if let Some(ended) = &node.ended {
                if game.cursor() != id {
                    return Err(mismatch("a result before the pass the rules force".to_string()));
                }
                decisions.push((index, id, ended.clone()));
            }
            ids.push(id);
        }
        for (index, id, ended) in decisions {
            game.goto(id).map_err(|source| SaveError::BadMove { index, source })?;
            settle_ended(&mut game, ended)?;
        }
        let current = *ids.get(file.current).ok_or(SaveError::Mismatch {
            index: file.current,
            what: "the position shown is not in the file".to_string(),
        })?;
        game.goto(current).map_err(|source| SaveError::BadMove { index: file.current, source })?;
        game.set_opening(file.config.opening, &file.opening).map_err(SaveError::Opening)?;
        if let Some(ms) = file.turn_ms {
            check_time(file.current, ms)?;
            game.set_turn_ms(ms);
        }
        Ok(game)
    }

    /// The review saved in `text` (this game's JSON save), checked against the game's main
    /// line by [`Review::fit`]: `None` when there is none, an error when it does not fit
    /// (the caller drops it and says so).
    pub fn stored_review(&self, text: &str) -> Option<Result<Review, ReviewError>> {
        #[derive(Deserialize)]
        struct Stored {
            #[serde(default)]
            review: Option<serde_json::Value>,
        }
        let trimmed = text.trim_start_matches('\u{feff}').trim();
        let value = serde_json::from_str::<Stored>(trimmed).ok()?.review?;
        let moves = self.main_line_moves();
        Some(
            serde_json::from_value::<Review>(value)
                .map_err(|e| ReviewError::Malformed(e.to_string()))
                .and_then(|r| r.fit(self.start_position(), &moves)),
        )
    }

    /// The moves of the main line.
    pub fn main_line_moves(&self) -> Vec<Move> {
        self.main_line_records().0.iter().map(|r| r.mv).collect()
    }

    /// The records of the main line, and the decision that ends it (if any).
    fn main_line_records(&self) -> (Vec<MoveRecord>, Option<&GameResult>) {
        let tree = self.tree();
        let line = tree.main_line();
        let records = line.iter().filter_map(|&id| tree.record(id).copied()).collect();
        (records, tree.ended(line.last().copied().unwrap_or(ROOT)))
    }

    /// The game as a record: PSQ for Gomoku, the move transcript for Reversi; the main
    /// line only (these formats have no variations).
    ///
    /// The PSQ names the rule after the moves (see [`psq`]), and a Renju game lost by a
    /// forbidden move ends with that move, as Piskvork records it. A set-up start is written
    /// as moves that reach it (Gomoku) or as the board string on the first line (Reversi).
    pub fn to_record(&self) -> String {
        let (records, decided) = self.main_line_records();
        let placed = records.iter().filter_map(|r| r.mv.point().map(|p| (p, r.ms)));
        match self.config().kind {
            GameKind::Gomoku { size, rule } => {
                let setup = self.setup().map(Setup::as_moves).unwrap_or_default();
                let mut moves: Vec<(Point, u64)> = setup.into_iter().map(|p| (p, 0)).collect();
                moves.extend(placed);
                if let Some(GameResult { reason: EndReason::Forbidden, line, .. }) = decided {
                    moves.extend(line.first().map(|&p| (p, 0)));
                }
                psq::write_psq_with_rule(&psq::PsqRecord { size, moves }, rule)
            }
            GameKind::Reversi => {
                let points: Vec<Point> = placed.map(|(p, _)| p).collect();
                self.reversi_text(&points)
            }
        }
    }

    /// Reversi: the transcript of `points`, after the start's board string when the game
    /// was set up.
    fn reversi_text(&self, points: &[Point]) -> String {
        let transcript = reversi::notation::write_transcript(points);
        match self.start_position() {
            Position::Reversi(start) if self.setup().is_some() => {
                format!("{}\n{}", reversi::notation::format_board(start), transcript)
            }
            _ => transcript,
        }
    }

    /// The moves of `records` as text others read: a Gomoku move list (`h8 i9 j10`, a
    /// set-up start as moves that reach it) or a Reversi transcript.
    fn moves_text(&self, records: &[MoveRecord]) -> String {
        let points: Vec<Point> = records.iter().filter_map(|r| r.mv.point()).collect();
        match self.config().kind {
            GameKind::Gomoku { size, .. } => {
                let mut moves = self.setup().map(Setup::as_moves).unwrap_or_default();
                moves.extend(points);
                gomoku::notation::format_moves(&moves, size)
            }
            GameKind::Reversi => self.reversi_text(&points),
        }
    }

    /// The line shown as text to copy (see [`Game::open_text`], which reads it back).
    pub fn line_text(&self) -> String {
        let tree = self.tree();
        let records: Vec<MoveRecord> =
            self.line().iter().filter_map(|&id| tree.record(id).copied()).collect();
        self.moves_text(&records)
    }

    /// The position shown as text to copy: the Reversi board string, or the Gomoku moves
    /// that lead to it.
    pub fn position_text(&self) -> String {
        match self.position() {
            Position::Reversi(r) => reversi::notation::format_board(r),
            Position::Gomoku(_) => self.moves_text(self.history()),
        }
    }

    /// The file extension that suits [`Game::to_record`].
    pub fn record_extension(&self) -> &'static str {
        match self.config().kind {
            GameKind::Gomoku { .. } => "psq",
            GameKind::Reversi => "txt",
        }
    }

    /// [`Game::open_text`] without saying what was recognised.
    pub fn open(text: &str, template: &GameConfig) -> Result<Game, SaveError> {
        Game::open_text(text, template).map(|(game, _)| game)
    }

    /// Opens text in any format we read, detecting which: our JSON, PSQ, a Gomoku move list
    /// in board notation (`h8 i9 j10`), a Reversi board string (with a transcript on the
    /// next line, perhaps) or a Reversi transcript. Records carry no players, so those come
    /// from `template` when it is the same game (otherwise human against human). A PSQ that
    /// names its rule (as Tengen writes them) is replayed under it; other Gomoku records
    /// under the template's rule (freestyle for a Reversi template), and a record that
    /// cannot be replayed under it is refused, never cut.
    pub fn open_text(text: &str, template: &GameConfig) -> Result<(Game, RecordKind), SaveError> {
        let trimmed = text.trim_start_matches('\u{feff}').trim();
        if trimmed.starts_with('{') {
            return Ok((Game::from_json(trimmed)?, RecordKind::Json));
        }
        let players = |kind: GameKind| {
            let same = std::mem::discriminant(&kind) == std::mem::discriminant(&template.kind);
            let (black, white) = if same {
                (template.black, template.white)
            } else {
                (PlayerKind::Human, PlayerKind::Human)
            };
            // These records hold no clock and no opening phase: the stones are plain moves.
            GameConfig {
                kind,
                black,
                white,
                time_per_move_ms: template.time_per_move_ms,
                time_control: Default::default(),
                opening: OpeningRule::None,
            }
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
            return Ok((game, RecordKind::Psq));
        }
        if let GameKind::Gomoku { size, rule } = template.kind {
            if let Ok(points) = gomoku::notation::parse_moves(trimmed, size) {
                let mut game = Game::new(players(GameKind::Gomoku { rule, size }))?;
                let moves: Vec<(Point, u64)> = points.into_iter().map(|p| (p, 0)).collect();
                replay_record(&mut game, &moves, Some(rule))?;
                return Ok((game, RecordKind::MoveList));
            }
        }
        let (first, rest) = trimmed.split_once('\n').unwrap_or((trimmed, ""));
        if looks_like_board(first) {
            let start = reversi::notation::parse_board(first)?;
            let setup = Setup::of(&Position::Reversi(start));
            let mut game = Game::from_setup(players(GameKind::Reversi), setup)?;
            let points = reversi::notation::parse_transcript(rest.trim())?;
            let moves: Vec<(Point, u64)> = points.into_iter().map(|p| (p, 0)).collect();
            replay_record(&mut game, &moves, None)?;
            return Ok((game, RecordKind::Board));
        }
        match reversi::notation::parse_transcript(trimmed) {
            Ok(points) => {
                let mut game = Game::new(players(GameKind::Reversi))?;
                let moves: Vec<(Point, u64)> = points.into_iter().map(|p| (p, 0)).collect();
                replay_record(&mut game, &moves, None)?;
                Ok((game, RecordKind::Transcript))
            }
            Err(e) if looks_like_transcript(trimmed) => Err(e.into()),
            Err(_) => Err(SaveError::UnknownFormat),
        }
    }
}

/// A version 1 save: the moves to the position shown, then the redo list as the line's
/// continuation.
fn from_version_1(file: SaveFile) -> Result<Game, SaveError> {
    // Version 1 had no opening rules.
    let mut game = Game::new(GameConfig { opening: OpeningRule::None, ..file.config })?;
    replay_saved(&mut game, file.moves.iter(), |index, source| SaveError::BadMove {
        index,
        source,
    })?;
    let shown = game.cursor();
    replay_saved(&mut game, file.redo.iter().rev(), |index, source| SaveError::BadRedo {
        index,
        source,
    })?;
    game.goto(shown).map_err(|source| SaveError::BadMove { index: 0, source })?;
    if let Some(ended) = file.ended {
        settle_ended(&mut game, ended)?;
    }
    Ok(game)
}

/// Checks a stored result at the position shown and keeps it when the moves cannot show it
/// (a resignation, a forbidden move).
fn settle_ended(game: &mut Game, ended: GameResult) -> Result<(), SaveError> {
    check_ended(game, &ended)?;
    if matches!(
        ended.reason,
        EndReason::Resignation | EndReason::Forbidden | EndReason::Forfeit(_) | EndReason::Time
    ) {
        game.set_decided(Some(ended));
    }
    Ok(())
}

/// Whether a line starts like a Reversi board string (64 squares of `-.XxOo`).
fn looks_like_board(line: &str) -> bool {
    let line = line.trim();
    line.len() >= 64
        && line.chars().take(64).all(|c| matches!(c, '-' | '.' | 'X' | 'x' | 'O' | 'o'))
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
        EndReason::Resignation | EndReason::Forfeit(_) => {
            if over_by_moves {
                return bad("a resignation after the moves had already ended the game");
            }
            let Some(winner) = ended.winner else {
                return bad("a resignation without a winner");
            };
            let resigned = game.resignation(winner.opponent());
            if *ended != (GameResult { reason: ended.reason, ..resigned }) {
                return bad(
                    "a resignation must name only the winner, the side that did not resign",
                );
            }
        }
        EndReason::Time => {
            // Only the side to move has a running clock.
            if over_by_moves || !game.config().time_control.is_timed() {
                return bad("a loss on time after the end of the game or without a clock");
            }
            let loser = game.side_to_move();
            if *ended != (GameResult { reason: EndReason::Time, ..game.resignation(loser) }) {
                return bad("a loss on time must name the side to move as the loser");
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

//! The events the backend sends to the UI: their names and payloads (see the IPC contract).

use serde::Serialize;
use tengen_engine::ai::{Candidate, Score};
use tengen_engine::game::EndReason;
use tengen_engine::gomoku::ForbiddenKind;
use tengen_engine::{Color, Point};

/// A full [`crate::snapshot::Snapshot`] after every change.
pub const SNAPSHOT: &str = "snapshot";
/// Live search progress, at most ten times a second.
pub const AI_PROGRESS: &str = "ai-progress";
/// A move was played, and by whom.
pub const MOVE_PLAYED: &str = "move-played";
/// The game has ended.
pub const GAME_OVER: &str = "game-over";
/// The game review changed (`review::ReviewView`): sent once per change, never with every
/// snapshot.
pub const REVIEW: &str = "review";
/// A review evaluated one more position.
pub const REVIEW_PROGRESS: &str = "review-progress";

/// Payload of `review-progress`: `done` positions of `total` (the moves and the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewProgress {
    pub run: u64,
    pub done: usize,
    pub total: usize,
}

/// A point as the UI reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Xy {
    pub x: u8,
    pub y: u8,
}

impl From<Point> for Xy {
    fn from(p: Point) -> Xy {
        Xy { x: p.x, y: p.y }
    }
}

/// A candidate move with its score.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoredPoint {
    pub x: u8,
    pub y: u8,
    pub score: Score,
}

impl ScoredPoint {
    /// The candidates that place a stone or disc, with their scores.
    pub fn list(candidates: &[Candidate]) -> Vec<ScoredPoint> {
        candidates
            .iter()
            .filter_map(|c| c.mv.point().map(|p| ScoredPoint { x: p.x, y: p.y, score: c.score }))
            .collect()
    }
}

/// Payload of `ai-progress`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AiProgress {
    pub generation: u64,
    pub color: Color,
    /// `"move"` when the computer chooses its move, `"hint"` when it looks for a hint.
    pub purpose: &'static str,
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub score: Score,
    /// The principal variation in the game's notation.
    pub pv: Vec<String>,
    pub candidates: Vec<ScoredPoint>,
}

/// Who played a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum By {
    Human,
    Computer,
}

/// Payload of `move-played` (a pass has `pass: true` and x = y = 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MovePlayed {
    pub generation: u64,
    pub x: u8,
    pub y: u8,
    pub pass: bool,
    pub color: Color,
    pub by: By,
}

/// Payload of `game-over`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameOver {
    pub winner: Option<Color>,
    /// `five`, `forbidden`, `no_moves`, `resignation` or `board_full`.
    pub reason: EndReason,
    /// Renju: which forbidden move black made (`double_three`, ...), when the reason is
    /// `forbidden`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<ForbiddenKind>,
    pub line: Vec<Xy>,
}

/// Something the UI should announce once (`snapshot.notice`), e.g. a Reversi pass
/// (`{"code":"pass","params":{"color":"white"}}`) or a settings file that was reset.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Notice {
    pub code: &'static str,
    pub params: serde_json::Value,
}

//! Game review in the app: the `review` command starts or cancels
//! [`tengen_engine::ai::review::review`] of the main line on the blocking pool (Master of
//! the game, the settings' search threads: all cores but one by default), sends
//! `review-progress` after each position and the small `review` event ([`ReviewView`])
//! once when the review changes (started, finished, cancelled, cut by a change of the main
//! line, opened with a game). Never with every snapshot.
//!
//! Decisions: a review is refused while the computer chooses its move (its search has the
//! cores) and while the board editor is open; live analysis pauses while a review runs
//! (`analysis::computer_busy`). Moves played during a review do not stop it: its plies that
//! still describe the main line are kept when it ends ([`Review::keep_prefix`]), as after
//! any change of the main line (a new move at the end keeps them all; promote, delete or a
//! new move earlier cut them at the change).

use serde::{Deserialize, Serialize};
use serde_json::json;
use tauri::{AppHandle, Emitter, Manager, Runtime};
use tengen_engine::ai::analysis::Outlook;
use tengen_engine::ai::review::{self, Review, ReviewError, Verdict, DEFAULT_REVIEW_TIME};
use tengen_engine::ai::{CancelFlag, GomokuLevel, Level, Limits, ReversiLevel};
use tengen_engine::game::{GameKind, Position};
use tengen_engine::{Color, Move, Point};

use crate::error::{AppError, AppResult};
use crate::events::{self, Notice, ReviewProgress};
use crate::runtime::AppState;
use crate::session::{Purpose, Session};

/// What the `review` command does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewAction {
    /// Reviews the main line (nothing new if a review runs).
    Start,
    /// Stops the review under way (the last review, if any, stays).
    Cancel,
    /// Answers with the review as it is.
    Get,
}

/// A review under way.
#[derive(Clone, Debug)]
pub struct ReviewRun {
    pub run: u64,
    pub cancel: CancelFlag,
    /// Positions evaluated, of `total`.
    pub done: usize,
    pub total: usize,
}

/// The review's part of the session.
#[derive(Clone, Debug)]
pub struct ReviewState {
    /// The review of the main line's first moves (all of them, unless the line changed).
    pub review: Option<Review>,
    pub running: Option<ReviewRun>,
    /// Bumped whenever `review` or `running` changes: the page is sent [`ReviewView`] when
    /// it differs from `sent`.
    pub version: u64,
    sent: u64,
    runs: u64,
    /// Per position (tests make it shorter).
    pub limits: Limits,
}

impl Default for ReviewState {
    fn default() -> ReviewState {
        ReviewState {
            review: None,
            running: None,
            version: 0,
            sent: 0,
            runs: 0,
            limits: Limits { time: Some(DEFAULT_REVIEW_TIME), ..Limits::default() },
        }
    }
}

/// One reviewed move as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlyView {
    /// 1-based, as the move list's `data-ply`.
    pub ply: usize,
    pub color: Color,
    pub verdict: Verdict,
    /// The move played and the engine's best move, in the game's notation.
    pub played: String,
    pub best: String,
    /// Where the best move is on the board (none for a pass), for the page to mark it.
    pub best_point: Option<Point>,
    pub best_is_played: bool,
    /// The mover's outlook before (with the best move) and after the move played.
    pub before: Outlook,
    pub after: Outlook,
    /// Reversi, exact: the discs the move lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<i32>,
    /// The graph's value after the move, for Black: Gomoku the win chance (0 to 1), Reversi
    /// the disc difference.
    pub value: f64,
}

/// Payload of the `review` event and answer of the `review` command.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewView {
    pub version: u64,
    /// `gomoku` or `reversi` (what the graph's values are).
    pub game: &'static str,
    pub running: bool,
    pub done: usize,
    pub total: usize,
    pub plies: Vec<PlyView>,
}

/// The graph's value of `after` (the mover's outlook) for Black.
fn value_for_black(game: &GameKind, color: Color, after: Outlook) -> f64 {
    match game {
        GameKind::Gomoku { .. } => {
            let own = after.win_rate(color);
            if color == Color::Black {
                own
            } else {
                1.0 - own
            }
        }
        GameKind::Reversi => {
            let own = match after {
                Outlook::Discs { tenths } => f64::from(tenths) / 10.0,
                Outlook::Exact { discs } => f64::from(discs),
                Outlook::Wins { winner, .. } if winner == color => 64.0,
                Outlook::Wins { .. } => -64.0,
                Outlook::Chance { permille } => (f64::from(permille) / 1000.0 - 0.5) * 128.0,
            };
            if color == Color::Black {
                own
            } else {
                -own
            }
        }
    }
}

impl Session {
    /// The review as the page shows it (labels from the main line's positions).
    pub fn review_view(&self) -> ReviewView {
        let kind = self.game.config().kind;
        let r = &self.review;
        let mut plies = Vec::new();
        if let Some(review) = &r.review {
            let mut pos: Position = self.game.start_position().clone();
            for (i, p) in review.plies.iter().enumerate() {
                plies.push(PlyView {
                    ply: i + 1,
                    color: p.color,
                    verdict: p.verdict,
                    played: pos.move_label(p.played),
                    best: pos.move_label(p.best),
                    best_point: match p.best {
                        Move::Place(point) => Some(point),
                        Move::Pass => None,
                    },
                    best_is_played: p.best == p.played,
                    before: p.before,
                    after: p.after,
                    lost: p.lost,
                    value: value_for_black(&kind, p.color, p.after),
                });
                if pos.play(p.played).is_err() {
                    break;
                }
            }
        }
        ReviewView {
            version: r.version,
            game: match kind {
                GameKind::Gomoku { .. } => "gomoku",
                GameKind::Reversi => "reversi",
            },
            running: r.running.is_some(),
            done: r.running.as_ref().map_or(0, |run| run.done),
            total: r.running.as_ref().map_or(0, |run| run.total),
            plies,
        }
    }

    /// Keeps the plies of the review that still describe the main line (called after every
    /// change of the session).
    pub fn trim_review(&mut self) {
        if let Some(review) = &mut self.review.review {
            let before = review.plies.len();
            review.keep_prefix(&self.game.main_line_moves());
            if review.plies.len() != before {
                self.review.version += 1;
            }
        }
    }

    /// Takes a review stored with the game just loaded, or says why it was dropped.
    pub fn take_stored_review(&mut self, stored: Option<Result<Review, ReviewError>>) {
        self.review.version += 1;
        self.review.review = None;
        match stored {
            Some(Ok(r)) => self.review.review = Some(r),
            Some(Err(e)) => {
                self.notice = Some(Notice {
                    code: "review_dropped",
                    params: json!({ "detail": e.to_string() }),
                })
            }
            None => {}
        }
    }

    /// Cancels the review under way, if any.
    pub fn cancel_review(&mut self) {
        if let Some(run) = self.review.running.take() {
            run.cancel.cancel();
            self.review.version += 1;
        }
    }

    /// What a review of the main line needs, marking it as running; `None` when one runs.
    fn review_plan(&mut self) -> AppResult<Option<Plan>> {
        if self.editor.is_some() {
            return Err(AppError::Editing);
        }
        if matches!(&self.thinking, Some(t) if t.purpose == Purpose::Move) {
            return Err(AppError::ComputerThinking);
        }
        if self.review.running.is_some() {
            return Ok(None);
        }
        let moves = self.game.main_line_moves();
        if moves.is_empty() {
            return Err(AppError::invalid("review", "the game has no moves yet".to_string()));
        }
        let level = match self.game.config().kind {
            GameKind::Gomoku { .. } => Level::Gomoku(GomokuLevel::Master),
            GameKind::Reversi => Level::Reversi(ReversiLevel::Master),
        };
        self.review.runs += 1;
        let cancel = CancelFlag::new();
        let total = moves.len() + 1;
        self.review.running =
            Some(ReviewRun { run: self.review.runs, cancel: cancel.clone(), done: 0, total });
        self.review.version += 1;
        let mut engine = (self.engine_factory)(level, 0x7e4_7e11, self.settings.engine_memory());
        engine.set_threads(self.settings.search_threads());
        Ok(Some(Plan {
            run: self.review.runs,
            start: self.game.start_position().clone(),
            moves,
            limits: self.review.limits.clone(),
            cancel,
            engine,
        }))
    }

    /// Records progress of run `run`; false when it is no longer the current run.
    fn review_progress(&mut self, run: u64, done: usize) -> bool {
        match &mut self.review.running {
            Some(r) if r.run == run => {
                r.done = done;
                true
            }
            _ => false,
        }
    }

    /// Takes the result of run `run` (if it is still the current one).
    fn review_finished(&mut self, run: u64, result: Result<Review, String>) {
        if !matches!(&self.review.running, Some(r) if r.run == run) {
            return;
        }
        self.review.running = None;
        self.review.version += 1;
        match result {
            Ok(r) => {
                self.review.review = Some(r);
                self.trim_review();
            }
            Err(detail) => {
                self.notice =
                    Some(Notice { code: "review_failed", params: json!({ "detail": detail }) })
            }
        }
    }

    /// The view to send, once per change.
    fn review_news(&mut self) -> Option<ReviewView> {
        if self.review.version == self.review.sent {
            return None;
        }
        self.review.sent = self.review.version;
        Some(self.review_view())
    }
}

/// Everything a run needs.
struct Plan {
    run: u64,
    start: Position,
    moves: Vec<Move>,
    limits: Limits,
    cancel: CancelFlag,
    engine: tengen_engine::ai::AnyEngine,
}

/// Sends the `review` event if the review changed since it was last sent.
pub fn sync<R: Runtime>(app: &AppHandle<R>) {
    let Some(state) = app.try_state::<AppState>() else { return };
    let news = state.lock().review_news();
    if let Some(view) = news {
        let _ = app.emit(events::REVIEW, view);
    }
}

/// The `review` command's work: start, cancel or read the review.
pub fn act<R: Runtime>(app: &AppHandle<R>, action: ReviewAction) -> AppResult<ReviewView> {
    let state = app
        .try_state::<AppState>()
        .ok_or_else(|| AppError::Internal("the app is starting".into()))?;
    match action {
        ReviewAction::Get => return Ok(state.lock().review_view()),
        ReviewAction::Cancel => state.lock().cancel_review(),
        ReviewAction::Start => {
            let plan = state.lock().review_plan()?;
            if let Some(plan) = plan {
                launch(app.clone(), plan);
            }
        }
    }
    sync(app);
    // Analysis pauses while a review runs and resumes after.
    crate::analysis::sync(app);
    let view = state.lock().review_view();
    Ok(view)
}

/// Runs `plan` on a background thread (`worker::spawn_background`).
fn launch<R: Runtime>(app: AppHandle<R>, plan: Plan) {
    crate::worker::spawn_background("tengen-review", move || {
        let Plan { run, start, moves, limits, cancel, mut engine } = plan;
        let mut progress = |done: usize, total: usize| {
            let current = app
                .try_state::<AppState>()
                .is_some_and(|state| state.lock().review_progress(run, done));
            if current {
                let _ = app.emit(events::REVIEW_PROGRESS, ReviewProgress { run, done, total });
            }
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            review::review(&mut engine, &start, &moves, &limits, &cancel, &mut progress)
        }));
        let result = match result {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(ReviewError::Cancelled)) => return,
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("the engine failed".to_string()),
        };
        let Some(state) = app.try_state::<AppState>() else { return };
        state.lock().review_finished(run, result);
        // Saves the game with its review, sends the `review` event (and a failure's notice
        // in the snapshot) and resumes analysis.
        crate::runtime::publish_snapshot(&app);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_values_are_for_black() {
        let gomoku = GameKind::Gomoku { rule: tengen_engine::gomoku::Rule::Freestyle, size: 15 };
        let c = Outlook::Chance { permille: 700 };
        assert!((value_for_black(&gomoku, Color::Black, c) - 0.7).abs() < 1e-9);
        assert!((value_for_black(&gomoku, Color::White, c) - 0.3).abs() < 1e-9);
        let e = Outlook::Exact { discs: 6 };
        assert_eq!(value_for_black(&GameKind::Reversi, Color::White, e), -6.0);
        let d = Outlook::Discs { tenths: -35 };
        assert_eq!(value_for_black(&GameKind::Reversi, Color::Black, d), -3.5);
    }
}

//! Live analysis: a multi-PV search without end, and its scores as players read them.
//!
//! [`analyse`] runs [`Engine::search_multi`] at depth 1, 2, 3, ... until it is cancelled
//! or every line is proven, and hands over the N lines of each completed depth; progress
//! reports keep coming in between (the engine's, at most 100 ms apart).
//!
//! [`Outlook`] is the one conversion of a [`Score`] into what a player reads: in Gomoku the
//! side to move's chance of winning, or "Black wins in 7" once a forced win is proven; in
//! Reversi the expected final disc difference, exact once the solver reached the end.

use serde::{Deserialize, Serialize};

use super::{CancelFlag, Engine, Limits, PvLine, Score, SearchInfo};
use crate::Color;

/// Gomoku Master's evaluation units per logistic unit: a position that Master evaluates at
/// `v` for the side to move is won by that side with probability `1 / (1 + e^(-v / K))`.
/// This is the scale of the texel fit that made the evaluation's values
/// (`engine/examples/fit_gomoku_eval/main.rs table`: the scale that best fits the evaluation
/// before it to the results of Master's self-play games, K = 490, then the values fitted at
/// that scale; the header of `master/eval_sets.rs` gives it).
pub const GOMOKU_LOGISTIC_SCALE: f64 = 490.0;

/// Deepest depth [`analyse`] asks for.
pub const MAX_ANALYSIS_DEPTH: u32 = 64;

/// The time each depth of [`analyse`] may take: in effect none (analysis ends when it is
/// cancelled), but a time limit makes the engines run their sub-searches (Gomoku's root
/// threat solvers) in short slices that report progress, as in a timed game.
pub const ANALYSIS_TIME: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// A score as a player reads it, always from the point of view of the side to move in the
/// analysed position (after the line's move is played).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Outlook {
    /// Gomoku: the side to move's chance of winning, in tenths of a percent (0 to 1000).
    Chance { permille: u16 },
    /// A proven win for `winner` with `moves` more stones of its own (the winning one
    /// included).
    Wins { winner: Color, moves: u32 },
    /// Reversi: the expected final disc difference for the side to move, in tenths of a disc.
    Discs { tenths: i32 },
    /// Reversi: the exact final disc difference for the side to move with perfect play.
    Exact { discs: i32 },
}

impl Outlook {
    /// What a Gomoku `score` for `mover` means.
    pub fn gomoku(score: Score, mover: Color) -> Outlook {
        match score {
            Score::Win(n) => Outlook::Wins { winner: mover, moves: n.div_ceil(2).max(1) },
            Score::Loss(n) => Outlook::Wins { winner: mover.opponent(), moves: (n / 2).max(1) },
            Score::Eval(v) | Score::Exact(v) => {
                let p = 1.0 / (1.0 + (-(v as f64) / GOMOKU_LOGISTIC_SCALE).exp());
                Outlook::Chance { permille: (p * 1000.0).round().clamp(0.0, 1000.0) as u16 }
            }
        }
    }

    /// What a Reversi `score` (hundredths of a disc, or the exact margin) for `mover` means.
    pub fn reversi(score: Score, mover: Color) -> Outlook {
        match score {
            Score::Exact(d) => Outlook::Exact { discs: d },
            Score::Eval(v) => Outlook::Discs { tenths: (v as f64 / 10.0).round() as i32 },
            // Reversi levels report proven results as exact margins; a bare win or loss
            // (none today) still reads as who wins.
            Score::Win(n) => Outlook::Wins { winner: mover, moves: n.div_ceil(2).max(1) },
            Score::Loss(n) => Outlook::Wins { winner: mover.opponent(), moves: (n / 2).max(1) },
        }
    }

    /// What `score` for the side to move of `pos` means.
    pub fn of(pos: &crate::game::Position, score: Score) -> Outlook {
        match pos {
            crate::game::Position::Gomoku(p) => Outlook::gomoku(score, p.side_to_move()),
            crate::game::Position::Reversi(p) => Outlook::reversi(score, p.side_to_move()),
        }
    }

    /// The side to move's chance of winning (0 to 1): the Gomoku chance, 1 or 0 for a
    /// proven result, and for Reversi 1, ½ or 0 by the sign of the disc difference.
    pub fn win_rate(self, mover: Color) -> f64 {
        match self {
            Outlook::Chance { permille } => permille as f64 / 1000.0,
            Outlook::Wins { winner, .. } => f64::from(u8::from(winner == mover)),
            Outlook::Discs { tenths: d } | Outlook::Exact { discs: d } => match d.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            },
        }
    }

    /// Whether the value is proven (a forced win or an exact endgame margin).
    pub fn proven(self) -> bool {
        matches!(self, Outlook::Wins { .. } | Outlook::Exact { .. })
    }
}

/// Whether a line's score is proven: nothing deeper will change it.
fn proven(score: Score) -> bool {
    matches!(score, Score::Win(_) | Score::Loss(_) | Score::Exact(_))
}

/// Analyses `pos` without end: [`Engine::search_multi`] for the `n` best moves at depth 1,
/// 2, 3, ... (the engine's table carries each depth over to the next), `lines` after each
/// completed depth, `progress` in between. Stops when `cancel` is raised (the depth then
/// under way is dropped), when every line is proven, when the engine stops deepening (a
/// level with its own depth cap), or at [`MAX_ANALYSIS_DEPTH`]. Returns the last lines.
pub fn analyse<P>(
    engine: &mut dyn Engine<P>,
    pos: &P,
    n: usize,
    cancel: &CancelFlag,
    progress: &mut dyn FnMut(&SearchInfo),
    lines: &mut dyn FnMut(&[PvLine]),
) -> Vec<PvLine> {
    let mut last: Vec<PvLine> = Vec::new();
    for depth in 1..=MAX_ANALYSIS_DEPTH {
        if cancel.is_cancelled() {
            break;
        }
        let limits = Limits { depth: Some(depth), time: Some(ANALYSIS_TIME), ..Limits::default() };
        let found = engine.search_multi(pos, &limits, n.max(1), cancel, progress);
        if cancel.is_cancelled() || found.is_empty() {
            break;
        }
        lines(&found);
        let deepest = found.iter().map(|l| l.depth).max().unwrap_or(0);
        // The engine stops deepening when its lines stay shallower than asked (a book
        // move, a level with a depth cap, a position with one sensible move).
        let done = found.iter().all(|l| proven(l.score))
            || deepest + 2 < depth
            || found[0].mv == crate::Move::Pass;
        last = found;
        if done {
            break;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomoku_scores_read_as_chances_and_forced_wins() {
        assert_eq!(
            Outlook::gomoku(Score::Eval(0), Color::Black),
            Outlook::Chance { permille: 500 }
        );
        // One logistic unit: 73.1%.
        assert_eq!(
            Outlook::gomoku(Score::Eval(GOMOKU_LOGISTIC_SCALE as i32), Color::White),
            Outlook::Chance { permille: 731 }
        );
        assert_eq!(
            Outlook::gomoku(Score::Eval(-(GOMOKU_LOGISTIC_SCALE as i32)), Color::White),
            Outlook::Chance { permille: 269 }
        );
        // A win in 13 plies is 7 stones of the winner's; a loss in 6 plies is 3 of the
        // opponent's.
        assert_eq!(
            Outlook::gomoku(Score::Win(13), Color::Black),
            Outlook::Wins { winner: Color::Black, moves: 7 }
        );
        assert_eq!(
            Outlook::gomoku(Score::Loss(6), Color::Black),
            Outlook::Wins { winner: Color::White, moves: 3 }
        );
        assert_eq!(Outlook::gomoku(Score::Win(1), Color::White).win_rate(Color::White), 1.0);
        assert_eq!(Outlook::gomoku(Score::Loss(2), Color::White).win_rate(Color::White), 0.0);
    }

    #[test]
    fn reversi_scores_read_as_disc_differences() {
        assert_eq!(Outlook::reversi(Score::Eval(350), Color::Black), Outlook::Discs { tenths: 35 });
        assert_eq!(Outlook::reversi(Score::Eval(-44), Color::Black), Outlook::Discs { tenths: -4 });
        let exact = Outlook::reversi(Score::Exact(-6), Color::White);
        assert_eq!(exact, Outlook::Exact { discs: -6 });
        assert!(exact.proven() && !Outlook::Discs { tenths: 60 }.proven());
        assert_eq!(exact.win_rate(Color::White), 0.0);
    }
}

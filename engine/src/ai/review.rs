//! Game review: the engine's verdict on every move of a line.
//!
//! [`review`] evaluates every position of the line (the engine's best move and its score at
//! a per-position budget, the last position first, so the engine's table carries what it
//! learnt near the end back to the earlier positions), then judges each move by what it
//! cost its player, both values read as [`Outlook`]s from the mover's point of view:
//!
//! * **Gomoku** (and whenever a value is a proven win or loss): the drop in the mover's
//!   chance of winning ([`Outlook::win_rate`]): an inaccuracy from [`INACCURACY_DROP`], a
//!   mistake from [`MISTAKE_DROP`], a blunder from [`BLUNDER_DROP`] (lichess's steps). A
//!   move that throws away a proven win is a blunder, whatever the chances after it.
//! * **Reversi**: the disc difference lost (an inaccuracy from [`INACCURACY_DISCS`] discs,
//!   a mistake from [`MISTAKE_DISCS`], a blunder from [`BLUNDER_DISCS`]); once the solver
//!   reaches the end within the budget both values are exact and so is the loss ("this move
//!   lost 6 discs"); a move that turns an exact win into a draw or a loss is a blunder, one
//!   that turns a draw into a loss at least a mistake.
//!
//! The engine's own best move is always good. Forced passes are good and cost no search.
//! The review is pure data: the app runs it, saves it with the game ([`Review::fit`] checks
//! a stored one against the game's line and recomputes its verdicts) and shows it.

use serde::{Deserialize, Serialize};

use super::analysis::Outlook;
use super::{AiError, AnyEngine, CancelFlag, Limits};
use crate::game::{GameError, Position};
use crate::{Color, Move};

/// Win-chance drop (0 to 1) from which a move is an inaccuracy.
pub const INACCURACY_DROP: f64 = 0.10;
/// Win-chance drop from which a move is a mistake.
pub const MISTAKE_DROP: f64 = 0.20;
/// Win-chance drop from which a move is a blunder.
pub const BLUNDER_DROP: f64 = 0.30;
/// Reversi: discs lost from which a move is an inaccuracy.
pub const INACCURACY_DISCS: i32 = 3;
/// Reversi: discs lost from which a move is a mistake.
pub const MISTAKE_DISCS: i32 = 6;
/// Reversi: discs lost from which a move is a blunder.
pub const BLUNDER_DISCS: i32 = 10;

/// Time per position at the default: 61 positions of a 60-move game in about 30 s on one
/// thread; Reversi Master solves exactly from 20 empties at this budget
/// ([`super::reversi::master::solve_from`]).
pub const DEFAULT_REVIEW_TIME: std::time::Duration = std::time::Duration::from_millis(500);

/// The longest line reviewed (and the most plies a stored review may hold): every point of
/// the largest Gomoku board, more than any Reversi game with its passes.
pub const MAX_REVIEW_PLIES: usize = 26 * 26;

/// What a move cost its player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Verdict {
    /// The verdict's stable code (`good`, `inaccuracy`, `mistake`, `blunder`).
    pub const fn code(self) -> &'static str {
        match self {
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlyReview {
    /// The move played (its ply is its place in [`Review::plies`], from 1).
    pub played: Move,
    /// Who played it.
    pub color: Color,
    /// The engine's best move in the position before (a forced pass: the pass).
    pub best: Move,
    /// The position before, with the best move, from the mover's point of view.
    pub before: Outlook,
    /// The position after the move played, from the mover's point of view.
    pub after: Outlook,
    /// What it cost; recomputed from `before` and `after` whenever a review is read.
    pub verdict: Verdict,
    /// Reversi, both values exact: the discs the move lost (0 for a best move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost: Option<i32>,
}

/// The review of a line: one [`PlyReview`] per move, in order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Review {
    pub plies: Vec<PlyReview>,
}

/// Why a review could not be made or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    #[error("the review was cancelled")]
    Cancelled,
    #[error("a review covers at most {limit} moves")]
    TooLong { limit: usize },
    #[error("move {ply} cannot be played: {source}")]
    BadMove { ply: usize, source: GameError },
    #[error(transparent)]
    Engine(#[from] AiError),
    /// A stored review that is not one.
    #[error("the review cannot be read: {0}")]
    Malformed(String),
    /// A stored review that does not fit the game it came with.
    #[error("the review does not fit the game at move {ply}: {what}")]
    Mismatch { ply: usize, what: &'static str },
}

/// `o`, read from the other side's point of view.
fn for_other(o: Outlook) -> Outlook {
    match o {
        Outlook::Chance { permille } => Outlook::Chance { permille: 1000 - permille.min(1000) },
        Outlook::Discs { tenths } => Outlook::Discs { tenths: -tenths },
        Outlook::Exact { discs } => Outlook::Exact { discs: -discs },
        wins @ Outlook::Wins { .. } => wins,
    }
}

/// A disc value in tenths of a disc, when the outlook has one.
fn tenths(o: Outlook) -> Option<i32> {
    match o {
        Outlook::Discs { tenths } => Some(tenths),
        Outlook::Exact { discs } => Some(discs * 10),
        _ => None,
    }
}

/// The verdict on a move whose position was worth `before` (with the best move) and is
/// worth `after` once it is played, both from `mover`'s point of view.
pub fn verdict(before: Outlook, after: Outlook, mover: Color) -> Verdict {
    let won = |o: Outlook| matches!(o, Outlook::Wins { winner, .. } if winner == mover);
    if won(before) && !won(after) {
        return Verdict::Blunder;
    }
    if let (Outlook::Exact { discs: b }, Outlook::Exact { discs: a }) = (before, after) {
        if b > 0 && a <= 0 {
            return Verdict::Blunder;
        }
        if b == 0 && a < 0 {
            return by_discs((b - a) * 10).max(Verdict::Mistake);
        }
    }
    if let (Some(b), Some(a)) = (tenths(before), tenths(after)) {
        return by_discs(b - a);
    }
    // In whole tenths of a percent, as the chances are stored.
    let drop = ((before.win_rate(mover) - after.win_rate(mover)) * 1000.0).round() / 1000.0;
    if drop >= BLUNDER_DROP {
        Verdict::Blunder
    } else if drop >= MISTAKE_DROP {
        Verdict::Mistake
    } else if drop >= INACCURACY_DROP {
        Verdict::Inaccuracy
    } else {
        Verdict::Good
    }
}

/// The verdict on losing `tenths` tenths of a disc.
fn by_discs(tenths: i32) -> Verdict {
    if tenths >= BLUNDER_DISCS * 10 {
        Verdict::Blunder
    } else if tenths >= MISTAKE_DISCS * 10 {
        Verdict::Mistake
    } else if tenths >= INACCURACY_DISCS * 10 {
        Verdict::Inaccuracy
    } else {
        Verdict::Good
    }
}

/// The review of `played` with its two values.
fn judge(played: Move, color: Color, best: Move, before: Outlook, after: Outlook) -> PlyReview {
    let verdict = if played == best { Verdict::Good } else { verdict(before, after, color) };
    let lost = match (before, after) {
        (Outlook::Exact { discs: b }, Outlook::Exact { discs: a }) => Some((b - a).max(0)),
        _ => None,
    };
    PlyReview { played, color, best, before, after, verdict, lost }
}

/// What a finished position is worth to its side to move.
fn final_outlook(pos: &Position) -> Outlook {
    match pos {
        // The last stone won (the side to move lost) or filled the board (a draw).
        Position::Gomoku(g) => match g.winner() {
            Some(_) => Outlook::of(pos, super::Score::Loss(0)),
            None => Outlook::of(pos, super::Score::Eval(0)),
        },
        Position::Reversi(r) => Outlook::of(
            pos,
            super::Score::Exact(super::reversi::board::Board::from_position(r).final_diff()),
        ),
    }
}

/// The positions of the line `moves` from `start` (the start first), every move checked.
fn positions(start: &Position, moves: &[Move]) -> Result<Vec<Position>, ReviewError> {
    if moves.len() > MAX_REVIEW_PLIES {
        return Err(ReviewError::TooLong { limit: MAX_REVIEW_PLIES });
    }
    let mut out = Vec::with_capacity(moves.len() + 1);
    let mut pos = start.clone();
    out.push(pos.clone());
    for (i, &mv) in moves.iter().enumerate() {
        pos.play(mv).map_err(|source| ReviewError::BadMove { ply: i + 1, source })?;
        out.push(pos.clone());
    }
    Ok(out)
}

/// Reviews the line `moves` from `start` with `engine` (set up by the caller: its level,
/// threads and table, which is kept from one position to the next) at `limits` per
/// position. `progress(done, total)` after each position evaluated; stops with
/// [`ReviewError::Cancelled`] soon after `cancel` is raised.
pub fn review(
    engine: &mut AnyEngine,
    start: &Position,
    moves: &[Move],
    limits: &Limits,
    cancel: &CancelFlag,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    let positions = positions(start, moves)?;
    let total = positions.len();
    // The value of each position for its side to move, and the engine's best move there.
    let mut values: Vec<(Outlook, Move)> =
        vec![(Outlook::Chance { permille: 500 }, Move::Pass); total];
    for i in (0..total).rev() {
        if cancel.is_cancelled() {
            return Err(ReviewError::Cancelled);
        }
        let pos = &positions[i];
        values[i] = if pos.is_over() {
            (final_outlook(pos), Move::Pass)
        } else if pos.must_pass() && i + 1 < total {
            (for_other(values[i + 1].0), Move::Pass)
        } else {
            let r = engine.search(pos, limits, cancel, &mut |_| {})?;
            if cancel.is_cancelled() {
                return Err(ReviewError::Cancelled);
            }
            (Outlook::of(pos, r.info.score), r.best)
        };
        progress(total - i, total);
    }
    let plies = moves
        .iter()
        .enumerate()
        .map(|(i, &played)| {
            let color = positions[i].side_to_move();
            let (before, best) = values[i];
            let after = values[i + 1].0;
            let after =
                if positions[i + 1].side_to_move() == color { after } else { for_other(after) };
            judge(played, color, best, before, after)
        })
        .collect();
    Ok(Review { plies })
}

/// Whether a stored outlook is one a review can give.
fn plausible(o: Outlook) -> bool {
    match o {
        Outlook::Chance { permille } => permille <= 1000,
        Outlook::Wins { moves, .. } => moves as usize <= MAX_REVIEW_PLIES,
        Outlook::Discs { tenths } => tenths.abs() <= 640,
        Outlook::Exact { discs } => discs.abs() <= 64,
    }
}

impl Review {
    /// A stored review checked against the line `moves` from `start` (untrusted input): at
    /// most as many plies as the line, each the line's move by the side to move, a best
    /// move legal there, values in range; the verdicts and losses are recomputed from the
    /// values. The first misfit refuses the whole review.
    pub fn fit(self, start: &Position, moves: &[Move]) -> Result<Review, ReviewError> {
        if self.plies.len() > moves.len() {
            return Err(ReviewError::Mismatch {
                ply: moves.len() + 1,
                what: "it is longer than the game",
            });
        }
        let positions = positions(start, &moves[..self.plies.len()])?;
        let plies = self
            .plies
            .into_iter()
            .zip(&positions)
            .enumerate()
            .map(|(i, (p, pos))| {
                let ply = i + 1;
                let misfit = |what| Err(ReviewError::Mismatch { ply, what });
                if p.played != moves[i] {
                    return misfit("another move was played");
                }
                if p.color != pos.side_to_move() {
                    return misfit("another side was to move");
                }
                if pos.check(p.best).is_err() {
                    return misfit("the best move is not legal there");
                }
                if !plausible(p.before) || !plausible(p.after) {
                    return misfit("a value is out of range");
                }
                Ok(judge(p.played, p.color, p.best, p.before, p.after))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Review { plies })
    }

    /// Keeps the plies that still describe the line `moves` (its first moves, unchanged)
    /// and drops the rest: what a change of the main line leaves valid.
    pub fn keep_prefix(&mut self, moves: &[Move]) {
        let same = self.plies.iter().zip(moves).take_while(|(p, &mv)| p.played == mv).count();
        self.plies.truncate(same);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::reversi::endgame::Solver;
    use crate::ai::{Level, ReversiLevel};
    use crate::gomoku::Rule;
    use crate::level::GomokuLevel;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    fn chance(permille: u16) -> Outlook {
        Outlook::Chance { permille }
    }

    #[test]
    fn win_chance_drops_give_the_verdicts() {
        assert_eq!(verdict(chance(600), chance(510), B), Verdict::Good);
        assert_eq!(verdict(chance(600), chance(500), B), Verdict::Inaccuracy);
        assert_eq!(verdict(chance(600), chance(401), B), Verdict::Inaccuracy);
        assert_eq!(verdict(chance(600), chance(400), B), Verdict::Mistake);
        assert_eq!(verdict(chance(600), chance(300), B), Verdict::Blunder);
        // A better value after the move (a shallower search before) is good.
        assert_eq!(verdict(chance(300), chance(700), W), Verdict::Good);
        // Walking into a proven loss from even chances.
        let lost = Outlook::Wins { winner: W, moves: 3 };
        assert_eq!(verdict(chance(500), lost, B), Verdict::Blunder);
        // Already lost: nothing more to lose.
        assert_eq!(verdict(lost, lost, B), Verdict::Good);
    }

    #[test]
    fn throwing_away_a_proven_win_is_a_blunder_and_a_slower_win_is_not() {
        let win = |moves| Outlook::Wins { winner: W, moves };
        assert_eq!(verdict(win(3), chance(950), W), Verdict::Blunder);
        assert_eq!(verdict(win(3), win(6), W), Verdict::Good);
        let exact = |discs| Outlook::Exact { discs };
        assert_eq!(verdict(exact(2), exact(0), B), Verdict::Blunder);
        assert_eq!(verdict(exact(0), exact(-2), B), Verdict::Mistake);
    }

    #[test]
    fn reversi_verdicts_count_discs() {
        let discs = |tenths| Outlook::Discs { tenths };
        assert_eq!(verdict(discs(40), discs(11), B), Verdict::Good);
        assert_eq!(verdict(discs(40), discs(10), B), Verdict::Inaccuracy);
        assert_eq!(verdict(discs(40), discs(-20), B), Verdict::Mistake);
        assert_eq!(verdict(discs(40), discs(-60), B), Verdict::Blunder);
        let exact = |discs| Outlook::Exact { discs };
        assert_eq!(verdict(exact(-4), exact(-10), W), Verdict::Mistake);
        let p = judge(Move::Pass, W, Move::Pass, exact(-4), exact(-10));
        assert_eq!((p.verdict, p.lost), (Verdict::Good, Some(6)));
    }

    fn gomoku_line(names: &str) -> (Position, Vec<Move>) {
        let start = Position::Gomoku(crate::gomoku::Position::new(15, Rule::Freestyle).unwrap());
        let moves = names
            .split_whitespace()
            .map(|n| Move::Place(crate::gomoku::notation::parse_point(n, 15).unwrap()))
            .collect();
        (start, moves)
    }

    #[test]
    fn ignoring_a_four_is_a_blunder_and_the_block_was_better() {
        // Black makes a four h8-k8 (g8 blocked); white plays far away instead of l8.
        let (start, moves) = gomoku_line("h8 g8 i8 h9 j8 g9 k8 o15 l8");
        let mut engine = AnyEngine::new(Level::Gomoku(GomokuLevel::Master), 1);
        let mut reports = Vec::new();
        let r = review(
            &mut engine,
            &start,
            &moves,
            &Limits::time(200),
            &CancelFlag::new(),
            &mut |done, total| reports.push((done, total)),
        )
        .unwrap();
        assert_eq!(r.plies.len(), moves.len());
        assert_eq!(reports.last(), Some(&(moves.len() + 1, moves.len() + 1)));
        let ignored = &r.plies[7];
        assert_eq!(ignored.color, W);
        assert_eq!(ignored.verdict, Verdict::Blunder);
        assert_eq!(ignored.best, moves[8]);
        assert_eq!(ignored.after, Outlook::Wins { winner: B, moves: 1 });
        // The winning five is the best move, and good.
        assert_eq!(r.plies[8].verdict, Verdict::Good);
        // A stored review reads back the same, and a line changed after ply 3 keeps 3.
        let back = r.clone().fit(&start, &moves).unwrap();
        assert_eq!(back, r);
        let mut cut = r.clone();
        let mut other = moves.clone();
        other[3] = moves[7];
        cut.keep_prefix(&other);
        assert_eq!(cut.plies.len(), 3);
    }

    #[test]
    fn a_stored_review_that_does_not_fit_is_refused_and_verdicts_are_recomputed() {
        let (start, moves) = gomoku_line("h8 g8 i8");
        let ply = |played, color, best, verdict| PlyReview {
            played,
            color,
            best,
            before: chance(600),
            after: chance(250),
            verdict,
            lost: None,
        };
        let good = Review {
            plies: vec![
                ply(moves[0], B, moves[1], Verdict::Good),
                ply(moves[1], W, moves[2], Verdict::Good),
            ],
        };
        // The stored "good" was a 35% drop: recomputed as a blunder.
        let fitted = good.clone().fit(&start, &moves).unwrap();
        assert!(fitted.plies.iter().all(|p| p.verdict == Verdict::Blunder));
        let misfit = |r: Review| r.fit(&start, &moves).unwrap_err();
        let mut longer = good.clone();
        longer.plies.extend(good.plies.iter().cloned().cycle().take(2));
        assert!(matches!(misfit(longer), ReviewError::Mismatch { ply: 4, .. }));
        let mut wrong_move = good.clone();
        wrong_move.plies[1].played = moves[2];
        assert!(matches!(misfit(wrong_move), ReviewError::Mismatch { ply: 2, .. }));
        let mut wrong_colour = good.clone();
        wrong_colour.plies[0].color = W;
        assert!(matches!(misfit(wrong_colour), ReviewError::Mismatch { ply: 1, .. }));
        let mut taken = good.clone();
        taken.plies[1].best = moves[0];
        assert!(matches!(misfit(taken), ReviewError::Mismatch { ply: 2, .. }));
        let mut range = good.clone();
        range.plies[0].after = chance(1001);
        assert!(matches!(misfit(range), ReviewError::Mismatch { ply: 1, .. }));
    }

    /// A Reversi position with `empties` empty squares, reached by always playing the
    /// lowest legal square.
    fn reversi_endgame(empties: u32) -> crate::reversi::Position {
        let mut p = crate::reversi::Position::initial();
        while p.empties() > empties && !p.is_game_over() {
            match p.legal_points().first() {
                Some(&pt) => {
                    p.play(pt).unwrap();
                }
                None => p.pass().unwrap(),
            }
        }
        if p.must_pass() {
            p.pass().unwrap();
        }
        p
    }

    #[test]
    fn an_exact_reversi_review_counts_the_discs_a_move_lost() {
        let mut solver = Solver::new();
        let cancel = CancelFlag::new();
        // The first of these endgames with a move worse than the best one.
        let (pos, best, worst, worst_value) = (10..=16)
            .find_map(|empties| {
                let pos = reversi_endgame(empties);
                let best = solver.solve(&pos, &cancel)?.score;
                // The worst move, by the solver's value of each child from the mover's side.
                let (worst, value) = pos
                    .legal_points()
                    .into_iter()
                    .map(|pt| {
                        let mut child = pos;
                        child.play(pt).unwrap();
                        let v = if child.is_game_over() {
                            crate::ai::reversi::board::Board::from_position(&child).final_diff()
                        } else if child.must_pass() {
                            child.pass().unwrap();
                            solver.solve(&child, &cancel).unwrap().score
                        } else {
                            -solver.solve(&child, &cancel).unwrap().score
                        };
                        (pt, v)
                    })
                    .min_by_key(|&(_, v)| v)?;
                (value < best).then_some((pos, best, worst, value))
            })
            .expect("an endgame with a losing move");
        let mut engine = AnyEngine::new(Level::Reversi(ReversiLevel::Master), 1);
        let start = Position::Reversi(pos);
        let r = review(
            &mut engine,
            &start,
            &[Move::Place(worst)],
            &Limits::time(2000),
            &cancel,
            &mut |_, _| {},
        )
        .unwrap();
        let ply = &r.plies[0];
        assert_eq!(ply.before, Outlook::Exact { discs: best });
        assert_eq!(ply.after, Outlook::Exact { discs: worst_value });
        assert_eq!(ply.lost, Some(best - worst_value));
        assert_eq!(ply.verdict, verdict(ply.before, ply.after, ply.color));
    }

    #[test]
    fn a_cancelled_review_says_so() {
        let (start, moves) = gomoku_line("h8 g8 i8");
        let mut engine = AnyEngine::new(Level::Gomoku(GomokuLevel::Master), 1);
        let cancel = CancelFlag::new();
        cancel.cancel();
        let r = review(&mut engine, &start, &moves, &Limits::time(100), &cancel, &mut |_, _| {});
        assert_eq!(r, Err(ReviewError::Cancelled));
        let bad = [moves[0], moves[0]];
        let r = review(
            &mut engine,
            &start,
            &bad,
            &Limits::depth(1),
            &CancelFlag::new(),
            &mut |_, _| {},
        );
        assert!(matches!(r, Err(ReviewError::BadMove { ply: 2, .. })));
    }
}

//! Level 4: forcing-move lookahead (seed article 004, "今後幾步預測法").
//!
//! The article's prediction method: try a move that makes a shape the opponent must answer
//! (a four or an open three), let the opponent answer as it must, and look again; if a
//! winning point appears (four-three, double three, double four) the attack wins. When there
//! is no attack, swap the roles and predict the opponent's forcing moves the same way, to
//! defend in time. Otherwise play the best point of the pattern scorer (level 3).
//!
//! The forcing reading itself is the service in [`threat`](crate::ai::gomoku::threat).
//!
//! When neither side has a forcing attack, the level compares the pattern scorer's best
//! quiet points (its own choice first, then the next best by the scorer's key, 12 in all) by
//! playouts (`playout.rs`): from each point the scorer plays both sides on for 20 moves,
//! first as it would, then in further rounds with 70% of its moves drawn among its near-best
//! points, until 80% of the move's time (16 rounds when the limits give no time); the point
//! with the best mean result is played, and the heat map shows those means. This replaced a
//! setup reading (the first quiet point after which the level would have a forcing win if
//! the opponent passed, or else the opponent's such point): against the pattern level at
//! 200 ms per move, balanced openings, seeds 1–8, 77.7% with the setup reading, and see
//! "Lookahead round 9" in `git show 5aeae9f:docs/BENCHMARKS.md` for the playouts. Reading
//! the setups first and playing out only the rest of the time scored far worse (52.7%
//! against a pattern level with playouts of its own, where playouts alone scored 81.9%).
//!
//! Under Renju black never plays a forbidden point, neither in the game nor in the forcing
//! reading. The playouts ignore forbidden points: they only rank the candidates, and those
//! are all legal.

use std::time::Instant;

use super::driver::{self, Choice, Classic, Driver, Turn};
use super::ninecell::{choice_keys_weighted, key_score};
use super::playout;
use crate::ai::gomoku::common::{self, Grid};
use crate::ai::gomoku::threat::{read, Defence, Reach, Reading};
use crate::ai::{Candidate, Score, SearchInfo};
use crate::gomoku::Position;
use crate::level::GomokuLevel;
use crate::{Color, Move, Point};

/// Default nominal depth in plies when the limits give none: five forcing moves of our own
/// ("建議預測量在5步以內", at most five steps), with the replies between them.
pub const DEFAULT_DEPTH: u32 = 9;
/// The deepest nominal depth the level reads, whatever the limits say.
pub const MAX_DEPTH: u32 = 9;
/// Extra continuous fours read after the nominal depth.
pub const VCF_EXTENSION: u32 = 6;
/// The share of the move's time after which the reading of both sides' attacks stops, to
/// leave the rest to the search for a defence.
const READING_SHARE: f64 = 2.0 / 3.0;
/// How many times the pattern scorer's attack score counts in quiet moves (measured: 2
/// scored better against the pattern level than 1 or 3).
const ATTACK_WEIGHT: i64 = 2;
/// How many of the best quiet points are compared by playouts.
const QUIET_CANDIDATES: usize = 12;
/// The playouts that compare quiet points (see `playout::Settings`).
const QUIET_PLAYOUTS: playout::Settings =
    playout::Settings { plies: 20, keep_percent: 30, spread: 2 };
/// The share of the move's time by which the playouts stop.
const QUIET_TIME_SHARE: f64 = 0.8;
/// Rounds of playouts when the limits give a depth or nodes but no time (reproducible).
const QUIET_ROUNDS: u32 = 16;
/// How many of the pattern scorer's best points are tried as defences.
const DEFENCE_CANDIDATES: usize = 12;

/// The forcing-move lookahead engine.
pub type Lookahead = Driver<LookaheadLevel>;

/// The lookahead level: the nine-cell scorer's keys leaning to attack, both sides' forcing
/// moves read on the clock, and playouts for quiet moves.
#[derive(Debug, Default)]
pub struct LookaheadLevel;

/// What the quiet-move playouts know so far, for the progress reports (the control fills in
/// the nodes and the time).
fn quiet_info(pos: &Position, tally: &playout::Tally, seldepth: u32, depth: u32) -> SearchInfo {
    let scores = tally.scores();
    SearchInfo {
        depth,
        seldepth,
        score: Score::Eval(scores.first().map_or(0, |&(_, s)| driver::clamp_score(s))),
        pv: scores.first().map(|&(p, _)| Move::Place(p)).into_iter().collect(),
        candidates: driver::candidates(pos, &scores),
        ..SearchInfo::default()
    }
}

impl Classic for LookaheadLevel {
    const OPENS_AT_CENTRE: bool = true;
    const PLAYS_FORCED: bool = true;
    const LEVEL: GomokuLevel = GomokuLevel::Lookahead;

    /// The lookahead reads the opponent's forcing moves itself, so its quiet moves lean to
    /// attack ("進攻不成的話就得考慮防守了": attack first, defend when needed). Points are keyed
    /// as the pattern level chooses them (the larger of attack and defence decides), so the
    /// reading adds to the pattern level's own judgement.
    fn keys(&mut self, grid: &Grid, me: Color) -> Vec<(Point, i64)> {
        choice_keys_weighted(grid, me, ATTACK_WEIGHT)
    }

    fn shown(&self, key: i64) -> i64 {
        key_score(key)
    }

    fn choose(&mut self, turn: &mut Turn) -> Choice {
        let (pos, limits) = (turn.pos, turn.limits);
        let plies = limits.depth.unwrap_or(DEFAULT_DEPTH).clamp(1, MAX_DEPTH);
        let max_moves = plies.div_ceil(2);
        // 1–2. Our own forcing attack ("如果出現了‘四三’、‘雙三’或‘雙四’等制勝點") and the
        // opponent's, as if we passed ("將自己和對手調換一下位置"), then a defence if needed.
        let ranked = turn.best_points(DEFENCE_CANDIDATES);
        let reach = Reach { moves: max_moves, vcf: VCF_EXTENSION };
        let outcome =
            read(pos, &ranked, reach, Defence::TheirMoveFirst, turn.control, READING_SHARE);
        let seldepth = outcome.seldepth;
        let (best, score) = match outcome.reading {
            Reading::Win(m, depth) => {
                let score = Score::Win(2 * depth - 1);
                turn.candidates.retain(|c| c.mv != Move::Place(m));
                turn.candidates.insert(0, Candidate { mv: Move::Place(m), score });
                (Some(m), Some(score))
            }
            Reading::Quiet => {
                // 3. No attack either way: a quiet point, chosen by playouts of the
                // pattern scorer from the best of them: for a share of the move's time,
                // or a fixed number of rounds when the limits give no time.
                let own = turn.pick_best();
                let quiet_deadline = turn.control.clock().deadline_at(QUIET_TIME_SHARE);
                let mut counted = 0;
                let mut rounds_shown = 0;
                let tally =
                    turn.playouts(own, QUIET_CANDIDATES, QUIET_PLAYOUTS, &mut |t, control| {
                        control.add_nodes(t.nodes - counted);
                        counted = t.nodes;
                        if t.rounds > rounds_shown {
                            rounds_shown = t.rounds;
                            control.info = quiet_info(pos, t, seldepth, plies);
                        }
                        if control.check() {
                            return true;
                        }
                        if t.rounds == 0 {
                            return false;
                        }
                        match quiet_deadline {
                            Some(deadline) => Instant::now() >= deadline,
                            None => t.rounds >= QUIET_ROUNDS,
                        }
                    });
                turn.control.add_nodes(tally.nodes - counted);
                let shown = tally.scores();
                if !shown.is_empty() {
                    turn.candidates = driver::candidates(pos, &shown);
                }
                let best = tally.best().or(own);
                let score = shown.first().map_or(0, |&(_, s)| driver::clamp_score(s));
                (best, Some(Score::Eval(score)))
            }
            Reading::Defend(p) => (Some(p), None),
            Reading::Lost(their_move, depth) => {
                let best = if common::is_legal(pos, their_move) {
                    Some(their_move)
                } else {
                    turn.pick_best()
                };
                (best, Some(Score::Loss(2 * depth)))
            }
        };
        Choice { best, score, depth: plies, seldepth, nodes: Some(turn.control.nodes()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::control::Control;
    use crate::ai::gomoku::common::test_util::position;
    use crate::ai::{CancelFlag, Engine, Limits, SearchResult};
    use crate::gomoku::{notation::parse_point, Rule};

    fn search(moves: &str, limits: Limits) -> SearchResult {
        let pos = position(15, Rule::Freestyle, moves);
        Lookahead::new(7).search(&pos, &limits, &CancelFlag::new(), &mut |_| {})
    }

    fn pt(s: &str) -> Point {
        parse_point(s, 15).unwrap()
    }

    #[test]
    fn takes_a_win_and_blocks_a_four() {
        let r = search("h8 a1 i8 b1 j8 c1 k8 d1 a15", Limits::default());
        assert_eq!(r.best, Move::Place(pt("e1")));
        let r = search("h8 a1 i8 a3 j8 a5 k8", Limits::default());
        assert!([Move::Place(pt("g8")), Move::Place(pt("l8"))].contains(&r.best));
    }

    #[test]
    fn finds_a_four_three() {
        // Black to move: a closed three h8 i8 j8 (g8 is white) and a two k9 k10. k8 makes a
        // four on row 8 and an open three in column k at once; after the forced l8 the
        // column becomes an open four.
        let r = search("h8 g8 i8 a1 j8 a3 k9 a5 k10 a7", Limits::default());
        assert!(matches!(r.info.score, Score::Win(_)), "{:?}", r.info.score);
        assert_eq!(r.best, Move::Place(pt("k8")));
        assert_eq!(r.info.candidates[0].mv, r.best);
    }

    #[test]
    fn defends_against_a_forcing_attack() {
        // White to move. Black has an open three in column h (h7 h8 h9): only h6 and h10
        // stop it (after h5 or h11 black still makes an open four).
        let r = search("h8 a1 h9 a3 h7", Limits::default());
        let p = r.best.point().unwrap();
        assert!([pt("h6"), pt("h10")].contains(&p), "{p:?}");
    }

    #[test]
    fn quiet_moves_are_compared_by_playouts() {
        // From an arena game (lookahead vs pattern, seed 1): white to move, and neither side
        // has a forcing win within the level's reading.
        let moves = "h8 f8 i11 g9 d6 f9 e9 f10 f7 f12 f11 g11 g10 i9 h10 h9 j9";
        let pos = position(15, Rule::Freestyle, moves);
        let cancel = CancelFlag::new();
        let mut quiet = |_: &SearchInfo| {};
        let mut control = Control::fixed(&Limits::default(), &cancel, &mut quiet);
        let reach = Reach { moves: 5, vcf: VCF_EXTENSION };
        let white = read(&pos, &[], reach, Defence::None, &mut control, 1.0);
        assert_eq!(white.reading, Reading::Quiet, "no forcing win for white");
        let r = search(moves, Limits::depth(DEFAULT_DEPTH));
        // Reproducible without a clock: a fresh engine with the same seed agrees.
        let again = search(moves, Limits::depth(DEFAULT_DEPTH));
        assert_eq!(
            (&r.best, &r.info.candidates, r.info.nodes),
            (&again.best, &again.info.candidates, again.info.nodes)
        );
        let p = r.best.point().unwrap();
        assert!(pos.is_legal(p).is_ok());
        // The heat map holds the compared points with their playout means, best first, and
        // the move is the best of them.
        let scores: Vec<i32> = r
            .info
            .candidates
            .iter()
            .map(|c| match c.score {
                Score::Eval(s) => s,
                other => panic!("{other:?}"),
            })
            .collect();
        assert!((2..=QUIET_CANDIDATES).contains(&scores.len()), "{scores:?}");
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert!(scores.iter().all(|s| s.abs() <= 100 + 21), "{scores:?}");
        assert_eq!(r.info.candidates[0].mv, r.best);
        assert_eq!(r.info.score, Score::Eval(scores[0]));
        // Every candidate had QUIET_ROUNDS playouts of up to 20 moves each.
        assert!(r.info.nodes >= (QUIET_ROUNDS as usize * scores.len()) as u64, "{}", r.info.nodes);
    }

    #[test]
    fn respects_node_limits_and_cancel() {
        let cancel = CancelFlag::new();
        cancel.cancel();
        let pos = position(15, Rule::Freestyle, "h8 i9 h9 h10 i8 g8 j8");
        let r = Lookahead::new(1).search(&pos, &Limits::default(), &cancel, &mut |_| {});
        assert!(pos.is_legal(r.best.point().unwrap()).is_ok());
        let r = search("h8 i9 h9 h10 i8 g8 j8", Limits::nodes(10));
        assert!(r.info.nodes <= 15, "{}", r.info.nodes);
    }
}

//! The one skeleton of the classic levels. Each level is its scoring and its policy (a
//! [`Classic`]); the [`Driver`] runs the rest, the same for all of them: copy the board,
//! score every empty point, sort the points best first (board order on ties), show the best
//! of them on the heat map, open on the centre and take or block a five if the level does,
//! else ask the level's policy, then assemble the result and report it once.

use std::time::Instant;

use super::playout::{self, Tally};
use super::scoreboard::ScoreBoard;
use crate::ai::control::{self, Control};
use crate::ai::gomoku::common::{self, five_points, is_legal, Grid, EMPTY};
use crate::ai::{CancelFlag, Candidate, Engine, Limits, Score, SearchInfo, SearchResult};
use crate::gomoku::Position;
use crate::level::{GomokuLevel, Level};
use crate::rng::Rng;
use crate::{Color, Move, Point};

/// How many candidates a search reports for the heat map.
pub const REPORTED_CANDIDATES: usize = 16;

/// Nodes between two looks at the clock in a classic level's control (a power of two): a
/// playout move or a scoring costs microseconds, so a level stops within a fraction of a
/// millisecond of its time.
const CHECK_EVERY: u64 = 64;

/// A classic level: its scoring ([`Classic::keys`]) and its policy ([`Classic::choose`]).
pub trait Classic {
    /// Whether the level's first stone goes on the centre (天元) of an empty board.
    const OPENS_AT_CENTRE: bool;
    /// Whether the level takes its own five, else blocks the opponent's, before its policy
    /// is asked (see [`forced_move`]).
    const PLAYS_FORCED: bool;
    /// The level on the ladder. Its facts say whether it thinks for the time the limits
    /// give ([`Level::follows_clock`]: a [`Control::new`], on [`control::DEFAULT_TIME`] when
    /// they give none); otherwise its effort is its own and the control has no clock unless
    /// the limits set one ([`Control::fixed`]).
    const LEVEL: GomokuLevel;

    /// The scoring: every empty point of `grid` with its key for `me` to play there
    /// (higher is better).
    fn keys(&mut self, grid: &Grid, me: Color) -> Vec<(Point, i64)>;

    /// The score a key shows on the heat map and as the score of the move.
    fn shown(&self, key: i64) -> i64 {
        key
    }

    /// The policy: the move to play, with the points keyed best first in `turn`.
    fn choose(&mut self, turn: &mut Turn) -> Choice;
}

/// A classic level as an engine: the level and the random source of its tie-breaks.
pub struct Driver<L> {
    level: L,
    rng: Rng,
}

impl<L: Classic + Default> Driver<L> {
    /// A new engine; `seed` fixes its choices among equal moves.
    pub fn new(seed: u64) -> Driver<L> {
        Driver { level: L::default(), rng: Rng::new(seed) }
    }
}

/// The callback that stops playouts: it sees the tally so far and the move's control.
pub type PlayoutStop<'s> = dyn FnMut(&Tally, &mut Control) -> bool + 's;

/// What a level's policy sees of the move being chosen.
pub struct Turn<'a, 'c> {
    pub pos: &'a Position,
    pub grid: Grid,
    /// Every empty point with its key, best first (board order on ties).
    pub keyed: Vec<(Point, i64)>,
    /// The heat map reported with the move (the best keyed points unless the policy
    /// changes it).
    pub candidates: Vec<Candidate>,
    pub rng: &'a mut Rng,
    pub limits: &'a Limits,
    /// The move's clock, node budget, cancel flag and progress reports.
    pub control: &'a mut Control<'c>,
}

impl Turn<'_, '_> {
    /// The best legal point by key, chosen at random among legal points of equal key; any
    /// legal point when no keyed point is legal.
    pub fn pick_best(&mut self) -> Option<Point> {
        pick_best(self.pos, &mut self.keyed, self.rng).or_else(|| any_legal(self.pos, &self.grid))
    }

    /// The `n` best keyed points.
    pub fn best_points(&self, n: usize) -> Vec<Point> {
        self.keyed.iter().take(n).map(|&(p, _)| p).collect()
    }

    /// Compares `own` and the next best legal keyed points, `n` in all, by playouts of the
    /// nine-cell scorer (see [`playout::monte_carlo`]) until `stop` says so; `stop` sees
    /// the tally and the move's control.
    pub fn playouts(
        &mut self,
        own: Option<Point>,
        n: usize,
        settings: playout::Settings,
        stop: &mut PlayoutStop,
    ) -> Tally {
        let cands = playout::candidates(self.pos, own, &self.keyed, n);
        let mut rng = Rng::new(self.rng.next_u64());
        let mut board = ScoreBoard::new(&self.grid, self.pos.rule());
        let control = &mut *self.control;
        playout::monte_carlo(self.pos, &mut board, cands, settings, &mut rng, &mut |t| {
            stop(t, control)
        })
    }
}

/// A policy's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move (any legal point is played if `None`).
    pub best: Option<Point>,
    /// Its score; `None` for the shown score of its key.
    pub score: Option<Score>,
    /// The nominal depth and the deepest ply read.
    pub depth: u32,
    pub seldepth: u32,
    /// The nodes searched; `None` for the number of points scored.
    pub nodes: Option<u64>,
}

impl Choice {
    /// A one-ply choice of `best`, scored by its key.
    pub fn play(best: Option<Point>) -> Choice {
        Choice { best, score: None, depth: 1, seldepth: 1, nodes: None }
    }
}

impl<L: Classic + Send> Engine<Position> for Driver<L> {
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let mut control = if Level::Gomoku(L::LEVEL).follows_clock() {
            Control::new(limits, cancel, progress)
        } else {
            Control::fixed(limits, cancel, progress)
        }
        .started_at(start)
        .check_every(CHECK_EVERY);
        let grid = Grid::from_position(pos);
        let mut keyed = self.level.keys(&grid, pos.side_to_move());
        common::sort_scored(&mut keyed);
        let shown: Vec<(Point, i64)> =
            keyed.iter().map(|&(p, k)| (p, self.level.shown(k))).collect();
        let mut candidates = self::candidates(pos, &shown);
        let opening = if L::OPENS_AT_CENTRE { centre_opening(pos, &grid) } else { None };
        let forced = match opening {
            Some(centre) => Some((centre, Score::Eval(0))),
            None if L::PLAYS_FORCED => forced_move(pos, &grid),
            None => None,
        };
        let (choice, grid, keyed) = match forced {
            Some((p, score)) => {
                (Choice { score: Some(score), ..Choice::play(Some(p)) }, grid, keyed)
            }
            None => {
                let mut turn = Turn {
                    pos,
                    grid,
                    keyed,
                    candidates,
                    rng: &mut self.rng,
                    limits,
                    control: &mut control,
                };
                let choice = self.level.choose(&mut turn);
                candidates = turn.candidates;
                (choice, turn.grid, turn.keyed)
            }
        };
        let best = choice.best.or_else(|| any_legal(pos, &grid));
        let score = choice.score.unwrap_or_else(|| {
            let key = best.and_then(|b| keyed.iter().find(|&&(p, _)| p == b));
            Score::Eval(key.map_or(0, |&(_, k)| clamp_score(self.level.shown(k))))
        });
        let nodes = choice.nodes.unwrap_or(keyed.len() as u64);
        let best = best.map(Move::Place).unwrap_or(Move::Pass);
        let elapsed = control.elapsed();
        let info = SearchInfo {
            depth: choice.depth,
            seldepth: choice.seldepth,
            nodes,
            nps: control::nps(nodes, elapsed),
            elapsed_ms: elapsed.as_millis() as u64,
            score,
            pv: if best == Move::Pass { Vec::new() } else { vec![best] },
            candidates,
        };
        control.send(&info);
        SearchResult { best, info }
    }
}

/// The centre (天元) when the board is empty and the centre may be played: the first stone
/// of the levels that open there.
pub fn centre_opening(pos: &Position, grid: &Grid) -> Option<Point> {
    let centre = grid.centre();
    (grid.stones() == 0 && is_legal(pos, centre)).then_some(centre)
}

/// The move every sensible level must play at once, if any: its own five, or else the block
/// of the opponent's five (the first legal block when there are several: the game is lost
/// anyway). `None` when neither side threatens to win on the next move.
pub fn forced_move(pos: &Position, grid: &Grid) -> Option<(Point, Score)> {
    let me = pos.side_to_move();
    let rule = pos.rule();
    if let Some(&p) = five_points(grid, me, rule).iter().find(|&&p| is_legal(pos, p)) {
        return Some((p, Score::Win(1)));
    }
    let threats = five_points(grid, me.opponent(), rule);
    let score = if threats.len() > 1 { Score::Loss(2) } else { Score::Eval(0) };
    threats.into_iter().find(|&p| is_legal(pos, p)).map(|p| (p, score))
}

/// Sorts `scored` best first and picks the best legal point, choosing at random among legal
/// points of equal score. Scores must be comparable (higher is better).
pub fn pick_best(pos: &Position, scored: &mut [(Point, i64)], rng: &mut Rng) -> Option<Point> {
    common::sort_scored(scored);
    let first = scored.iter().position(|&(p, _)| is_legal(pos, p))?;
    let top = scored[first].1;
    let ties: Vec<Point> = scored[first..]
        .iter()
        .take_while(|&&(_, s)| s == top)
        .filter(|&&(p, _)| is_legal(pos, p))
        .map(|&(p, _)| p)
        .collect();
    rng.choose(&ties).copied()
}

/// The legal points among the best of `scored` (sorted best first), as heat-map candidates.
pub fn candidates(pos: &Position, scored: &[(Point, i64)]) -> Vec<Candidate> {
    scored
        .iter()
        .filter(|&&(p, _)| is_legal(pos, p))
        .take(REPORTED_CANDIDATES)
        .map(|&(p, s)| Candidate { mv: Move::Place(p), score: Score::Eval(clamp_score(s)) })
        .collect()
}

/// A score in the `i32` range of [`Score::Eval`].
pub fn clamp_score(s: i64) -> i32 {
    s.clamp(i32::MIN as i64 + 1, i32::MAX as i64) as i32
}

/// Any legal point, for the (theoretical) case that a level found nothing better.
pub fn any_legal(pos: &Position, grid: &Grid) -> Option<Point> {
    let centre = grid.centre();
    if grid.at(centre) == EMPTY && is_legal(pos, centre) {
        return Some(centre);
    }
    grid.empties().find(|&p| is_legal(pos, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::common::makes_five;
    use crate::ai::gomoku::common::test_util::position;
    use crate::gomoku::Rule;

    #[test]
    fn forced_move_wins_first_then_blocks() {
        // Black has four in a row on row 8; white has three on row 1. Black to move wins.
        let pos = position(15, Rule::Freestyle, "h8 a1 i8 b1 j8 c1 k8 d1");
        let grid = Grid::from_position(&pos);
        let (p, score) = forced_move(&pos, &grid).unwrap();
        assert!(makes_five(&grid, p, Color::Black, Rule::Freestyle));
        assert_eq!(score, Score::Win(1));
        // White to move must block black's open four at one end.
        let pos = position(15, Rule::Freestyle, "h8 a1 i8 b1 j8 c1 k8");
        let grid = Grid::from_position(&pos);
        let (p, _) = forced_move(&pos, &grid).unwrap();
        assert!(makes_five(&grid, p, Color::Black, Rule::Freestyle));
        let quiet = position(15, Rule::Freestyle, "h8 a1");
        assert_eq!(forced_move(&quiet, &Grid::from_position(&quiet)), None);
    }

    #[test]
    fn pick_best_breaks_ties_at_random_but_deterministically() {
        let pos = position(15, Rule::Freestyle, "h8");
        let mut scored: Vec<(Point, i64)> =
            Grid::from_position(&pos).empties().map(|p| (p, (p.x % 3) as i64)).collect();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..40 {
            let a = pick_best(&pos, &mut scored.clone(), &mut Rng::new(seed)).unwrap();
            let b = pick_best(&pos, &mut scored, &mut Rng::new(seed)).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.x % 3, 2);
            seen.insert(a);
        }
        assert!(seen.len() > 5, "ties are broken in varied ways");
    }

    /// A level that keys every point by its column and lets the driver do the rest.
    #[derive(Default)]
    struct Columns;

    impl Classic for Columns {
        const OPENS_AT_CENTRE: bool = true;
        const PLAYS_FORCED: bool = true;
        const LEVEL: GomokuLevel = GomokuLevel::FiveTuple;

        fn keys(&mut self, grid: &Grid, _me: Color) -> Vec<(Point, i64)> {
            grid.empties().map(|p| (p, i64::from(p.x))).collect()
        }

        fn shown(&self, key: i64) -> i64 {
            key * 10
        }

        fn choose(&mut self, turn: &mut Turn) -> Choice {
            Choice::play(turn.pick_best())
        }
    }

    fn run(moves: &str) -> SearchResult {
        let pos = position(15, Rule::Freestyle, moves);
        let mut reports = 0;
        let r = Driver::<Columns>::new(1).search(
            &pos,
            &Limits::default(),
            &CancelFlag::new(),
            &mut |_| reports += 1,
        );
        assert_eq!(reports, 1, "the result is reported once");
        r
    }

    #[test]
    fn the_driver_opens_takes_fives_and_asks_the_policy() {
        let centre = run("");
        assert_eq!(centre.best, Move::Place(Point::new(7, 7)));
        assert_eq!(centre.info.score, Score::Eval(0));
        // Black to move with four on row 8 wins at g8 or l8, whatever the keys say.
        let win = run("h8 a1 i8 a2 j8 a3 k8 a4");
        assert_eq!(win.info.score, Score::Win(1));
        assert!(matches!(win.best, Move::Place(p) if p.y == 7 && (p.x == 6 || p.x == 11)));
        // A quiet position: the policy's best column (o), scored by its shown key.
        let quiet = run("h8 a1");
        assert_eq!(quiet.best.point().map(|p| p.x), Some(14));
        assert_eq!(quiet.info.score, Score::Eval(140));
        assert_eq!(quiet.info.candidates.len(), REPORTED_CANDIDATES);
        assert_eq!(quiet.info.candidates[0].score, Score::Eval(140));
        assert_eq!(quiet.info.nodes, 15 * 15 - 2, "one node per point scored");
        assert_eq!(quiet.info.pv, vec![quiet.best]);
    }
}

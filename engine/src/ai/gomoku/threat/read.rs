//! The forcing reading the classic levels borrow: both sides' forcing attacks read in turn,
//! and a defence against the opponent's (seed article 004's prediction), answered by
//! Master's threat solvers ([`Vcf`], [`Vct`]) on Master's board.

use std::time::Instant;

use crate::ai::control::Control;
use crate::ai::gomoku::common;
use crate::ai::gomoku::master::board::Board;
use crate::ai::gomoku::master::engine::board_of;
use crate::ai::gomoku::master::vcf::{four_moves, Budget, Vcf};
use crate::ai::gomoku::master::vct::{Vct, VCF_TAIL};
use crate::ai::{CancelFlag, Limits, SearchInfo};
use crate::gomoku::Position;
use crate::Point;

/// How far [`read`] looks: forcing moves (fours and open threes) of the attacker, then
/// continuous fours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The attacker's forcing moves at most.
    pub moves: u32,
    /// Continuous fours read after them in a run of fours only (after open threes, the
    /// threat solver's own tail of [`VCF_TAIL`] plies applies).
    pub vcf: u32,
}

impl Reach {
    /// Plies of the continuous-four solver: every forcing move a four, then the extra fours.
    fn vcf_plies(self) -> i32 {
        2 * (self.moves + self.vcf) as i32 - 1
    }
}

/// Whether [`read`] also reads the opponent's attacks, and in which order it tries the
/// defences against one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defence {
    /// Only our own attacks are read.
    None,
    /// The first move of their attack first, then the ranked points, then our fours.
    TheirMoveFirst,
    /// The ranked points first (the level's own judgement picks among the defences), then
    /// the first move of their attack, then our fours.
    RankedFirst,
}

/// What reading both sides' forcing moves found for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// A forcing win of ours: its first move, and the reading depth (forcing moves) at
    /// which it was found.
    Win(Point, u32),
    /// The opponent has a forcing win if we let it; this point stops every attack of its
    /// that the reading sees.
    Defend(Point),
    /// The opponent's forcing win (its first move and reading depth) that no tried point
    /// stops.
    Lost(Point, u32),
    /// Neither side has a forcing attack within the reach (or the budget ran out first).
    Quiet,
}

/// A [`Reading`] with the work it took.
#[derive(Clone, Copy, Debug)]
pub struct ReadResult {
    pub reading: Reading,
    pub nodes: u64,
    pub seldepth: u32,
}

/// Plies of the threat solver for reading depth `depth`: `depth + 1` threats, then its
/// tail of fours. The old reading of the classic levels let the attacker answer a
/// counter-four and keep its threat pending without counting a move; Master's solver counts
/// that answer, so one threat more finds what the old reading found at `depth` (two arena
/// positions in `classic/pattern.rs`'s tests need it).
fn vct_plies(depth: u32) -> i32 {
    2 * (depth.max(1) + 1) as i32
}

/// Cache bits of the threat solvers for a reading of `nodes` nodes at most: about one entry
/// per node, between 2^10 and 2^14 (a reading of the lookahead takes a few thousand nodes;
/// filling a larger table would cost the short readings more than the reading itself).
fn cache_bits(nodes: u64) -> u32 {
    (u64::BITS - nodes.leading_zeros()).clamp(10, 14)
}

/// The threat solvers' caches for one attacker. Their entries are keyed by the stones
/// alone, so an attacker after a pass (the opponent's reading) and the same attacker after
/// our move (the check of a defence) each get their own.
struct Solvers {
    vcf: Vcf,
    vct: Vct,
}

impl Solvers {
    fn new(bits: u32) -> Solvers {
        Solvers { vcf: Vcf::new(bits), vct: Vct::new(bits) }
    }
}

/// One reading: the move's control, the earlier stop of the attack reading, and the work.
struct Reader<'a, 'c> {
    control: &'a mut Control<'c>,
    cancel: CancelFlag,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
}

impl Reader<'_, '_> {
    /// Runs `solve` on what is left of the move's budget, stopping at `until` or the
    /// control's deadline, whichever comes first. With a clock, the solver runs in slices
    /// of at most the control's report interval, and is run again after each report (its
    /// caches keep what the stopped run proved); without one it runs once, so that a
    /// reading on a node budget stays reproducible.
    fn run<T>(
        &mut self,
        until: Option<Instant>,
        mut solve: impl FnMut(&mut Budget) -> Option<T>,
    ) -> Option<T> {
        if self.stopped {
            return None;
        }
        let stop = match (until, self.control.deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        loop {
            if self.control.check() {
                self.stopped = true;
                return None;
            }
            let mut budget = Budget::new(self.control.nodes_left());
            budget.cancel = Some(self.cancel.clone());
            budget.deadline =
                stop.map(|s| s.min(Instant::now() + crate::ai::control::REPORT_EVERY));
            let found = solve(&mut budget);
            self.nodes += budget.nodes;
            self.control.add_nodes(budget.nodes);
            if found.is_some() || !budget.aborted {
                return found;
            }
            // Out of nodes, time or cancelled (the control says so at the loop's head;
            // `until` is ours), or only the slice ended: then go on after a report.
            if stop.is_some_and(|s| Instant::now() >= s) {
                self.stopped = true;
                return None;
            }
        }
    }

    /// The side to move's forcing win on `board` within `depth` forcing moves of `reach`:
    /// its first move. The run of fours is read at the first depth only (its plies cover
    /// the whole reach); then threats within `2 depth` plies, with the threat solver's tail
    /// of fours after them.
    fn attack(
        &mut self,
        board: &mut Board,
        solvers: &mut Solvers,
        reach: Reach,
        depth: u32,
        until: Option<Instant>,
    ) -> Option<Point> {
        let Solvers { vcf, vct } = solvers;
        if depth <= 1 {
            let plies = reach.vcf_plies();
            let line =
                self.run(until, |budget| vcf.solve(board, plies, budget).then(|| vcf.line.clone()));
            if let Some(line) = line.filter(|line| !line.is_empty()) {
                self.seldepth = self.seldepth.max(line.len() as u32);
                return Some(board.point(line[0]));
            }
        }
        let plies = vct_plies(depth);
        self.seldepth = self.seldepth.max((plies + VCF_TAIL) as u32);
        self.run(until, |budget| vct.solve(board, plies, budget)).map(|m| board.point(m))
    }

    /// The opponent's forcing win after our move `p`, read to `depth` forcing moves.
    fn refutes(
        &mut self,
        board: &mut Board,
        solvers: &mut Solvers,
        reach: Reach,
        depth: u32,
        p: Point,
    ) -> bool {
        board.make(board.index(p));
        let mut lost = false;
        for d in [1, depth] {
            lost = self.attack(board, solvers, reach, d, None).is_some();
            if lost || self.stopped || d == depth {
                break;
            }
        }
        board.unmake();
        lost
    }
}

/// Seed 004's prediction for the side to move in `pos`: its own forcing attack, and the
/// opponent's as if it passed ("將自己和對手調換一下位置"), read one depth at a time in turn, up
/// to `reach`: when the budget stops the reading, both sides' short attacks have been seen,
/// and an attack of theirs shorter than any of ours is met before ours is tried. Against an
/// attack of theirs, the defence is the first point, in the `defence` order of their
/// attack's first move, `ranked` (the level's own best points, best first) and our fours,
/// after which their attack (read one forcing move deeper) fails. With [`Defence::None`]
/// only our own attacks are read.
///
/// The reading is Master's: its continuous-four and threat solvers on its board (built
/// from `pos`). `control` limits the whole reading (time, nodes, cancel) and sends its
/// progress reports; the reading of the attacks stops at `reading_share` of the move's
/// time, to leave the rest to the search for a defence.
pub fn read(
    pos: &Position,
    ranked: &[Point],
    reach: Reach,
    defence: Defence,
    control: &mut Control,
    reading_share: f64,
) -> ReadResult {
    let me = pos.side_to_move();
    let mut ours = board_of(pos);
    let mut theirs = (defence != Defence::None).then(|| {
        let mut board = ours.clone();
        board.pass();
        board
    });
    let bits = cache_bits(control.nodes_left());
    let mut our_solvers = Solvers::new(bits);
    let mut their_solvers = theirs.as_ref().map(|_| Solvers::new(bits));
    let reading_until = control.clock().deadline_at(reading_share);
    let cancel = control.cancel_flag().clone();
    let mut reader = Reader { control, cancel, nodes: 0, seldepth: 0, stopped: false };
    let (mut attack, mut threat) = (None, None);
    'reading: for depth in reach.moves.min(1)..=reach.moves {
        let found = reader.attack(&mut ours, &mut our_solvers, reach, depth, reading_until);
        // Our own move must be legal in the game (Master's board judges Renju by its lines).
        if let Some(m) = found.filter(|&m| common::is_legal(pos, m)) {
            attack = Some((m, depth));
            break 'reading;
        }
        if let (Some(board), Some(solvers)) = (theirs.as_mut(), their_solvers.as_mut()) {
            if reader.stopped {
                break 'reading;
            }
            if let Some(m) = reader.attack(board, solvers, reach, depth, reading_until) {
                threat = Some((m, depth));
                break 'reading;
            }
        }
        if reader.stopped {
            break 'reading;
        }
    }
    let reading = match (attack, threat) {
        (Some((m, depth)), _) => Reading::Win(m, depth),
        (None, None) => Reading::Quiet,
        (None, Some((their_move, found_at))) => {
            // A defence must hold against every attack we can read, not only the shortest
            // one found.
            let depth = (found_at + 1).min(reach.moves).max(found_at);
            let mut tries: Vec<Point> = Vec::new();
            if defence == Defence::RankedFirst {
                tries.extend(ranked.iter().copied());
                tries.push(their_move);
            } else {
                tries.push(their_move);
                tries.extend(ranked.iter().copied());
            }
            let mut fours = Vec::new();
            four_moves(&ours, me.index(), &mut fours);
            tries.extend(fours.iter().map(|&i| ours.point(i)));
            let mut seen = Vec::new();
            tries.retain(|&p| {
                let new = !seen.contains(&p) && common::is_legal(pos, p);
                seen.push(p);
                new
            });
            let mut checks = Solvers::new(bits);
            let mut safe = None;
            for &p in &tries {
                let lost = reader.refutes(&mut ours, &mut checks, reach, depth, p);
                if reader.stopped {
                    break;
                }
                if !lost {
                    safe = Some(p);
                    break;
                }
            }
            match safe {
                Some(p) => Reading::Defend(p),
                None => Reading::Lost(their_move, depth),
            }
        }
    };
    ReadResult { reading, nodes: reader.nodes, seldepth: reader.seldepth }
}

/// How far the classic levels read (see [`read_briefly`]): one forcing move, then
/// continuous fours.
pub const BRIEF_REACH: Reach = Reach { moves: 1, vcf: 4 };

/// A [`read`] to [`BRIEF_REACH`] on a budget of `node_limit` nodes and no clock, so that a
/// level that uses it stays reproducible and fast: the classic levels' check for a short
/// forcing win (theirs or ours) that their one-ply scores cannot see.
pub fn read_briefly(
    pos: &Position,
    ranked: &[Point],
    defence: Defence,
    node_limit: u64,
) -> Reading {
    let cancel = CancelFlag::new();
    let mut quiet = |_: &SearchInfo| {};
    // No clock: the node budget ends the reading.
    let mut control = Control::fixed(&Limits::nodes(node_limit), &cancel, &mut quiet);
    read(pos, ranked, BRIEF_REACH, defence, &mut control, 1.0).reading
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::common::test_util::position;
    use crate::gomoku::notation::parse_point;
    use crate::gomoku::Rule;

    fn pt(s: &str) -> Point {
        parse_point(s, 15).unwrap()
    }

    /// `read` of `moves` on a budget of `nodes` nodes and no clock.
    fn read_nodes(rule: Rule, moves: &str, defence: Defence, nodes: u64) -> ReadResult {
        let pos = position(15, rule, moves);
        let cancel = CancelFlag::new();
        let mut quiet = |_: &SearchInfo| {};
        let mut control = Control::fixed(&Limits::nodes(nodes), &cancel, &mut quiet);
        read(&pos, &[], Reach { moves: 3, vcf: 6 }, defence, &mut control, 1.0)
    }

    #[test]
    fn reads_our_win_and_a_defence_against_theirs() {
        // Black to move has an open three h7 h8 h9: h6 or h10 makes an open four.
        let win = read_nodes(Rule::Freestyle, "h8 a1 h9 a3 h7 a5", Defence::None, 100_000);
        assert!(matches!(win.reading, Reading::Win(p, 1) if [pt("h6"), pt("h10")].contains(&p)));
        // White to move against it: only h6 and h10 stop it (after h5 or h11 black still
        // makes an open four); white has no attack of its own.
        let moves = "h8 a1 h9 a3 h7";
        let quiet = read_nodes(Rule::Freestyle, moves, Defence::None, 100_000);
        assert_eq!(quiet.reading, Reading::Quiet);
        let defend = read_nodes(Rule::Freestyle, moves, Defence::TheirMoveFirst, 100_000);
        assert!(
            matches!(defend.reading, Reading::Defend(p) if [pt("h6"), pt("h10")].contains(&p)),
            "{defend:?}"
        );
    }

    #[test]
    fn the_node_budget_bounds_the_reading_and_keeps_it_reproducible() {
        // From an arena game: white wins by threats, two forcing moves deep.
        let moves = "h8 f9 k8 g10 j8 i8 i9 g11 j7 j10 k7 h10 i10 h11 e8";
        let full = read_nodes(Rule::Freestyle, moves, Defence::TheirMoveFirst, 1_000_000);
        assert_eq!(full.reading, Reading::Win(pt("i11"), 1), "{full:?}");
        for budget in [1, 10, 100, full.nodes - 1] {
            let cut = read_nodes(Rule::Freestyle, moves, Defence::TheirMoveFirst, budget);
            assert!(cut.nodes <= budget, "{} nodes on a budget of {budget}", cut.nodes);
            assert_eq!(cut.reading, Reading::Quiet, "budget {budget}");
            let again = read_nodes(Rule::Freestyle, moves, Defence::TheirMoveFirst, budget);
            assert_eq!((cut.reading, cut.nodes), (again.reading, again.nodes));
        }
    }

    #[test]
    fn a_cancelled_reading_stops_at_once() {
        let pos =
            position(15, Rule::Freestyle, "h8 f9 k8 g10 j8 i8 i9 g11 j7 j10 k7 h10 i10 h11 e8");
        let cancel = CancelFlag::new();
        cancel.cancel();
        let mut quiet = |_: &SearchInfo| {};
        let mut control = Control::new(&Limits::time(10_000), &cancel, &mut quiet);
        let r =
            read(&pos, &[], Reach { moves: 5, vcf: 6 }, Defence::TheirMoveFirst, &mut control, 1.0);
        assert_eq!(r.reading, Reading::Quiet);
        assert_eq!(r.nodes, 0);
    }

    #[test]
    fn renju_black_never_starts_on_a_forbidden_point() {
        // Black to move: h8 makes two open threes, a win in freestyle and forbidden under
        // Renju.
        let moves = "f8 a1 g8 a3 h9 a5 h10 o15";
        let free = read_nodes(Rule::Freestyle, moves, Defence::None, 100_000);
        assert!(matches!(free.reading, Reading::Win(..)), "{free:?}");
        let pos = position(15, Rule::Renju, moves);
        let renju = read_nodes(Rule::Renju, moves, Defence::TheirMoveFirst, 100_000);
        if let Reading::Win(p, _) | Reading::Defend(p) = renju.reading {
            assert!(pos.is_forbidden(p).is_none(), "{renju:?}");
            assert_ne!(p, pt("h8"));
        }
    }
}

//! The forcing reading the classic levels borrow: both sides' forcing attacks read in turn,
//! and a defence against the opponent's (seed article 004's prediction).

use super::board::ThreatBoard;
use super::search::Search;
use super::tt::Tt;
use crate::ai::control::Control;
use crate::ai::gomoku::common::{self, Grid, EMPTY};
use crate::ai::{CancelFlag, Limits, SearchInfo};
use crate::gomoku::{Position, Rule};
use crate::Point;

/// A point as far as possible from every stone, for the Renju "pass" trick.
fn far_point(grid: &Grid) -> Option<Point> {
    let stones: Vec<Point> = grid.points().filter(|&p| grid.at(p) != EMPTY).collect();
    grid.empties().max_by_key(|p| {
        stones
            .iter()
            .map(|s| (s.x as i32 - p.x as i32).abs().max((s.y as i32 - p.y as i32).abs()))
            .min()
            .unwrap_or(0)
    })
}

/// How far [`read`] looks: forcing moves (fours and open threes) of the attacker, then
/// continuous fours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The attacker's forcing moves at most.
    pub moves: u32,
    /// Continuous fours read after them.
    pub vcf: u32,
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
    /// A forcing win of ours: its first move, and its length in forcing moves.
    Win(Point, u32),
    /// The opponent has a forcing win if we let it; this point stops every attack of its
    /// that the reading sees.
    Defend(Point),
    /// The opponent's forcing win (its first move and length) that no tried point stops.
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

/// Seed 004's prediction for the side to move in `pos`: its own forcing attack, and the
/// opponent's as if it passed ("將自己和對手調換一下位置"), read one depth at a time in turn, up
/// to `reach`: when the budget stops the reading, both sides' short attacks have been seen,
/// and an attack of theirs shorter than any of ours is met before ours is tried. Against an
/// attack of theirs, the defence is the first point, in the `defence` order of their
/// attack's first move, `ranked` (the level's own best points, best first) and our fours,
/// after which their attack (read one forcing move deeper) fails. With [`Defence::None`]
/// only our own attacks are read.
///
/// `control` limits the whole reading (time, nodes, cancel) and sends its progress reports;
/// the reading of the attacks stops at `reading_share` of the move's time, to leave the
/// rest to the search for a defence.
pub fn read(
    pos: &Position,
    ranked: &[Point],
    reach: Reach,
    defence: Defence,
    control: &mut Control,
    reading_share: f64,
) -> ReadResult {
    // Each side's board is built once and copied for each depth.
    let ours = ThreatBoard::new(pos);
    let (me, opp) = (pos.side_to_move(), pos.side_to_move().opponent());
    let (mut nodes, mut seldepth) = (0, 0);
    let mut null = pos.clone();
    let null_ok = defence != Defence::None
        && match (pos.rule(), far_point(&ours.grid)) {
            // Renju needs a position with black's stones to ask about forbidden points, and
            // positions cannot pass: our "pass" is a stone of ours as far from the fight as
            // possible (it stays on the search's board too, so that the board and the position
            // always agree on which points are empty).
            (Rule::Renju, Some(far)) => null.play_unchecked(far),
            (Rule::Renju, None) => false,
            _ => true,
        };
    let (mut attack, mut threat) = (None, None);
    let mut tt = Tt::new();
    let reading_until = control.clock().deadline_at(reading_share);
    let theirs = null_ok.then(|| {
        if pos.rule() == Rule::Renju {
            ThreatBoard::new(&null)
        } else {
            ours.clone()
        }
    });
    let mut sides = vec![(&ours, me)];
    sides.extend(theirs.as_ref().map(|board| (board, opp)));
    'reading: for depth in reach.moves.min(1)..=reach.moves {
        for (i, &(board, side)) in sides.iter().enumerate() {
            let mut search = Search::new(board.clone(), &mut tt, control, reading_until);
            let found = search.attacker(side, depth, reach.vcf, 0, None);
            nodes += search.nodes;
            seldepth = seldepth.max(search.seldepth);
            let aborted = search.aborted;
            if found && !aborted {
                let first = search.root_move.map(|m| (m, depth));
                if i == 0 {
                    attack = first;
                } else {
                    threat = first;
                }
            }
            if aborted || attack.is_some() || threat.is_some() {
                break 'reading;
            }
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
            let mut search = Search::new(ours, &mut tt, control, None);
            tries.extend(search.board.attack_moves(me, true));
            let mut seen = Vec::new();
            tries.retain(|&p| {
                let new = !seen.contains(&p) && common::is_legal(pos, p);
                seen.push(p);
                new
            });
            let mut safe = None;
            for &p in &tries {
                search.board.make(p, me);
                search.root_move = None;
                let lost = search.attacker(opp, depth, reach.vcf, 0, None);
                search.board.unmake(p, me);
                if search.aborted {
                    break;
                }
                if !lost {
                    safe = Some(p);
                    break;
                }
            }
            nodes += search.nodes;
            seldepth = seldepth.max(search.seldepth);
            match safe {
                Some(p) => Reading::Defend(p),
                None => Reading::Lost(their_move, depth),
            }
        }
    };
    ReadResult { reading, nodes, seldepth }
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

//! The computer in an opening: as the proposer it places stones it judges balanced (near a
//! 50% win chance for black by a short Master search, chosen among seeded random candidates
//! for variety); as the chooser it takes the colour it judges better, and in Soosõrv it plays
//! its 4th move, declares, offers and picks by the same judgment.

use std::time::Duration;

use super::{check_offer, names, Action, Choice, RenjuOpening, Role, Step};
use crate::ai::analysis::Outlook;
use crate::ai::{gomoku_engine, CancelFlag, Engine, GomokuLevel, Limits};
use crate::game::{Game, GameError, Position};
use crate::gomoku;
use crate::rng::Rng;
use crate::{Color, Move, Point};

/// The stones of a line from the start (black, white, black, ...) as one key for all 8
/// symmetries of the board: the least of each symmetry's sorted black and white stones
/// (`None` on a board without a centre). Two openings are the same up to symmetry when their
/// keys are equal: what the variety of proposals is counted by.
pub fn symmetry_key(size: u8, stones: &[Point]) -> Option<(Vec<Point>, Vec<Point>)> {
    let turned = |s: usize| {
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (i, &p) in stones.iter().enumerate() {
            let side = if i % 2 == 0 { &mut black } else { &mut white };
            side.push(names::transform(s, p, size)?);
        }
        black.sort_unstable();
        white.sort_unstable();
        Some((black, white))
    };
    (0..8).map(turned).collect::<Option<Vec<_>>>()?.into_iter().min()
}

/// One thing the computer does in the opening: place a stone, or make a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    Stone(Point),
    Choose(Choice),
}

/// How many candidate placements the proposer weighs.
const CANDIDATES: usize = 6;
/// A position this close to even (black's chance) is handed on rather than chosen in Swap2.
const EVEN: f64 = 0.12;
/// The memory of the judging search (bytes).
const MEMORY: usize = 16 << 20;

/// The computer's judgment: a Master search of a share of the time per move.
pub struct Judge {
    engine: Box<dyn Engine<gomoku::Position>>,
    limits: Limits,
    rng: Rng,
}

impl Judge {
    /// A judge that spends at most `budget` on one decision (and `seed` for variety).
    pub fn new(seed: u64, budget: Duration) -> Judge {
        let per = budget / (CANDIDATES as u32 + 2);
        Judge {
            engine: gomoku_engine(GomokuLevel::Master, seed, Some(MEMORY)),
            limits: Limits { time: Some(per.max(Duration::from_millis(5))), ..Limits::default() },
            rng: Rng::new(seed),
        }
    }

    /// Black's chance of winning in `pos` by a short search.
    pub fn black_chance(&mut self, pos: &gomoku::Position) -> f64 {
        if let Some(win) = pos.winner() {
            return f64::from(u8::from(win.color == Color::Black));
        }
        let r = self.engine.search(pos, &self.limits, &CancelFlag::new(), &mut |_| {});
        let mover = pos.side_to_move();
        let p = Outlook::gomoku(r.info.score, mover).win_rate(mover);
        if mover == Color::Black {
            p
        } else {
            1.0 - p
        }
    }

    /// The best move for the side to move.
    fn best(&mut self, pos: &gomoku::Position) -> Option<Point> {
        let r = self.engine.search(pos, &self.limits, &CancelFlag::new(), &mut |_| {});
        r.best.point()
    }
}

/// What the computer does now, as the player of the opening's current step: every step in
/// a row that is its own (three stones, a choice and two stones, ...). Empty when the
/// opening is over. Each act is legal when applied in order with [`apply`].
pub fn computer_acts(game: &Game, judge: &mut Judge) -> Result<Vec<Act>, GameError> {
    let mut game = game.clone();
    let Some(first) = game.opening_phase().step else { return Ok(Vec::new()) };
    let mut acts = Vec::new();
    while let Some(step) = game.opening_phase().step.filter(|s| s.role == first.role) {
        let Position::Gomoku(pos) = game.position() else { break };
        let next = decide(&game, pos, step, judge);
        for &act in &next {
            apply(&mut game, act, 0)?;
        }
        acts.extend(next);
    }
    Ok(acts)
}

/// Applies one act to the game (a stone as a move, a choice as an opening choice).
pub fn apply(game: &mut Game, act: Act, ms: u64) -> Result<(), GameError> {
    match act {
        Act::Stone(p) => game.play(Move::Place(p), ms).map(|_| ()),
        Act::Choose(choice) => game.opening_choice(choice, ms).map(|_| ()),
    }
}

fn decide(game: &Game, pos: &gomoku::Position, step: Step, judge: &mut Judge) -> Vec<Act> {
    let phase = game.opening_phase();
    let size = pos.size();
    let chooser_color = |take_black: bool| {
        let color = if take_black { Color::Black } else { Color::White };
        Act::Choose(Choice::Take { color })
    };
    match step.action {
        // Soosõrv's 4th stone is white's best move, not a proposal.
        Action::Place { color: Color::White, within: None }
            if game.opening().rule().needs_renju() && pos.moves().len() == 3 =>
        {
            judge.best(pos).map(Act::Stone).into_iter().collect()
        }
        Action::Place { .. } => {
            let stones = proposal_length(game, step.role);
            propose(game, pos, stones, judge).into_iter().map(Act::Stone).collect()
        }
        Action::ChooseColor => vec![chooser_color(judge.black_chance(pos) >= 0.5)],
        Action::ChooseColorOrPlaceTwo => {
            let black = judge.black_chance(pos);
            if (black - 0.5).abs() > EVEN {
                vec![chooser_color(black > 0.5)]
            } else {
                vec![Act::Choose(Choice::PlaceTwo)]
            }
        }
        Action::Declare { max } => {
            // Fewer offers favour white; a position black likes gets the fewest.
            let black = judge.black_chance(pos);
            let count = if black > 0.55 { 1 } else { 2 + judge.rng.below(2) as u8 };
            vec![Act::Choose(Choice::Declare { count: count.min(max) })]
        }
        Action::Offer { made, of } => offers(pos, &phase.offers, (of - made) as usize, judge, size)
            .into_iter()
            .map(|point| Act::Choose(Choice::Offer { point }))
            .collect(),
        Action::Pick => {
            let mut best: Option<(f64, Point)> = None;
            for &p in &phase.offers {
                let mut after = pos.clone();
                if after.play(p).is_err() {
                    continue;
                }
                let black = judge.black_chance(&after);
                if best.is_none_or(|(b, _)| black < b) {
                    best = Some((black, p));
                }
            }
            best.map(|(_, point)| Act::Choose(Choice::Pick { point })).into_iter().collect()
        }
    }
}

/// How many stones in a row the role places from here.
fn proposal_length(game: &Game, role: Role) -> usize {
    let mut game = game.clone();
    let mut n = 0;
    while let Some(Step { role: r, action: Action::Place { .. } }) = game.opening_phase().step {
        if r != role {
            break;
        }
        let Position::Gomoku(pos) = game.position() else { break };
        // Any legal point keeps the count going; the first empty one near the centre does.
        let Some(p) = pos.legal_points().into_iter().find(|&p| game.check(Move::Place(p)).is_ok())
        else {
            break;
        };
        if game.play(Move::Place(p), 0).is_err() {
            break;
        }
        n += 1;
    }
    n.max(1)
}

/// `count` stones from `pos` that leave a position near even: among seeded candidates (the
/// canonical openings in a random orientation for the first three stones, random nearby
/// points otherwise), the one whose black chance is closest to ½.
fn propose(game: &Game, pos: &gomoku::Position, count: usize, judge: &mut Judge) -> Vec<Point> {
    let size = pos.size();
    let mut best: Option<(f64, Vec<Point>)> = None;
    for _ in 0..CANDIDATES {
        let candidate = if pos.moves().is_empty() && count == 3 {
            let opening = RenjuOpening::ALL[judge.rng.below(26) as usize];
            let s = judge.rng.below(8) as usize;
            opening
                .stones(size)
                .map(|st| st.iter().filter_map(|&p| names::transform(s, p, size)).collect())
                .unwrap_or_default()
        } else {
            random_stones(game, count, &mut judge.rng)
        };
        let mut after = game.clone();
        if candidate.len() != count
            || candidate.iter().any(|&p| after.play(Move::Place(p), 0).is_err())
        {
            continue;
        }
        let Position::Gomoku(end) = after.position() else { continue };
        let gap = (judge.black_chance(end) - 0.5).abs();
        if best.as_ref().is_none_or(|(g, _)| gap < *g) {
            best = Some((gap, candidate));
        }
    }
    best.map(|(_, c)| c).unwrap_or_else(|| random_stones(game, count, &mut judge.rng))
}

/// `count` random legal stones for the game's next steps, each within two lines of a stone
/// already placed (or of the centre) and within the step's area.
fn random_stones(game: &Game, count: usize, rng: &mut Rng) -> Vec<Point> {
    let mut game = game.clone();
    let mut out = Vec::new();
    for _ in 0..count {
        let Position::Gomoku(pos) = game.position() else { break };
        let size = pos.size();
        let centre = Point::new(size / 2, size / 2);
        let anchors: Vec<Point> =
            if pos.moves().is_empty() { vec![centre] } else { pos.moves().to_vec() };
        let near: Vec<Point> = pos
            .legal_points()
            .into_iter()
            .filter(|p| anchors.iter().any(|a| a.x.abs_diff(p.x).max(a.y.abs_diff(p.y)) <= 2))
            .filter(|&p| game.check(Move::Place(p)).is_ok())
            .collect();
        let Some(&p) = rng.choose(&near) else { break };
        if game.play(Move::Place(p), 0).is_err() {
            break;
        }
        out.push(p);
    }
    out
}

/// Soosõrv: black's `count` offers: its best moves by the search's order, then nearby
/// points, each one an offer [`check_offer`] accepts.
fn offers(
    pos: &gomoku::Position,
    made: &[Point],
    count: usize,
    judge: &mut Judge,
    size: u8,
) -> Vec<Point> {
    let lines =
        judge.engine.search_multi(pos, &judge.limits, count + 4, &CancelFlag::new(), &mut |_| {});
    let centre = Point::new(size / 2, size / 2);
    let mut near = pos.legal_points();
    near.sort_by_key(|p| p.x.abs_diff(centre.x).max(p.y.abs_diff(centre.y)));
    let ranked = lines.iter().filter_map(|l| l.mv.point()).chain(near);
    let mut all = made.to_vec();
    let mut out = Vec::new();
    for p in ranked {
        if out.len() == count {
            break;
        }
        if check_offer(pos, &all, p).is_ok() {
            all.push(p);
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetry_key_is_the_same_for_the_8_symmetries_and_tells_colours_apart() {
        let stones = [Point::new(7, 7), Point::new(8, 7), Point::new(9, 9)];
        let key = symmetry_key(15, &stones).unwrap();
        for s in 0..8 {
            let turned: Vec<Point> =
                stones.iter().map(|&p| names::transform(s, p, 15).unwrap()).collect();
            assert_eq!(symmetry_key(15, &turned).as_ref(), Some(&key), "symmetry {s}");
        }
        // The same points with the colours swapped are another position.
        let swapped = [Point::new(8, 7), Point::new(7, 7), Point::new(9, 9)];
        assert_ne!(symmetry_key(15, &swapped), Some(key));
        assert_eq!(symmetry_key(14, &stones), None, "an even board has no centre");
    }
}

//! The coach's Reversi facts: corners given away, a forced pass, and parity in the endgame.
//!
//! Parity is the endgame solver's notion ([`crate::ai::reversi::endgame`]): the board's four
//! quadrants are its regions, and a move into a region with an odd number of empty squares
//! keeps parity (the mover can answer the opponent's last move there).

use super::Fact;
use crate::ai::reversi::endgame::{parity_of, PARITY_MASK, QUADRANT};
use crate::reversi::bitboard::{bit, squares, CORNERS};
use crate::reversi::{point_of, square_of, Position, ReversiError};
use crate::Point;

/// Parity is spoken of from this many empty squares down (before the move).
pub const PARITY_EMPTIES: u32 = 16;

/// The facts about `p` played in `before` (see [`super::explain`]).
pub fn explain(before: &Position, p: Point) -> Result<Vec<Fact>, ReversiError> {
    let mover = before.side_to_move();
    let them = mover.opponent();
    let mut after = *before;
    after.play(p)?;
    let mut facts = Vec::new();
    if after.is_game_over() {
        return Ok(facts);
    }
    let given = after.legal_moves() & CORNERS & !before.opponent_moves();
    if given != 0 {
        facts.push(Fact::GivesCorner {
            color: them,
            corners: squares(given).map(point_of).collect(),
        });
    }
    if after.must_pass() {
        facts.push(Fact::MustPass { color: them });
    }
    let sq = square_of(p)?;
    let moves = before.legal_moves();
    let odd = PARITY_MASK[parity_of(before.empty()) as usize];
    if before.empties() <= PARITY_EMPTIES && moves.count_ones() > 1 && moves & odd == bit(sq) {
        let q = QUADRANT[sq as usize].trailing_zeros() as u8;
        let (x, y) = (q % 2 * 4, q / 2 * 4);
        facts.push(Fact::KeepsParity {
            color: mover,
            point: p,
            from: Point::new(x, y),
            to: Point::new(x + 3, y + 3),
        });
    }
    Ok(facts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::parse_square;
    use crate::rng::Rng;

    /// Every position of a few seeded random games, with each legal move and the facts the
    /// coach gives about it.
    fn every_move(games: u64, mut check: impl FnMut(&Position, Point, &[Fact])) {
        for seed in 0..games {
            let mut rng = Rng::new(seed);
            let mut pos = Position::initial();
            while !pos.is_game_over() {
                if pos.must_pass() {
                    pos.pass().unwrap();
                    continue;
                }
                let moves = pos.legal_points();
                for &p in &moves {
                    check(&pos, p, &explain(&pos, p).unwrap());
                }
                pos.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
            }
        }
    }

    #[test]
    fn corners_given_and_forced_passes_follow_their_definitions() {
        let (mut corners, mut passes) = (0, 0);
        every_move(40, |pos, p, facts| {
            let mut after = *pos;
            after.play(p).unwrap();
            let them = pos.side_to_move().opponent();
            let given: Vec<Point> = squares(after.legal_moves() & CORNERS & !pos.opponent_moves())
                .map(point_of)
                .collect();
            let said = facts.iter().find_map(|f| match f {
                Fact::GivesCorner { color, corners } => Some((*color, corners.clone())),
                _ => None,
            });
            let over = after.is_game_over();
            assert_eq!(said, (!given.is_empty() && !over).then_some((them, given)), "{p:?}");
            let pass = facts.contains(&Fact::MustPass { color: them });
            assert_eq!(pass, after.must_pass(), "{p:?}");
            corners += usize::from(said.is_some());
            passes += usize::from(pass);
        });
        assert!(corners > 0 && passes > 0, "{corners} corners given, {passes} passes");
    }

    #[test]
    fn the_only_parity_move_is_named_with_its_quadrant() {
        let mut said = 0;
        every_move(40, |pos, p, facts| {
            let moves = pos.legal_moves();
            let odd = PARITY_MASK[parity_of(pos.empty()) as usize];
            let bit_p = bit(square_of(p).unwrap());
            let expected = pos.empties() <= PARITY_EMPTIES
                && moves.count_ones() > 1
                && moves & odd == bit_p
                && !pos.after(square_of(p).unwrap()).is_game_over();
            let region = facts.iter().find_map(|f| match f {
                Fact::KeepsParity { color, point, from, to } => Some((*color, *point, *from, *to)),
                _ => None,
            });
            assert_eq!(region.is_some(), expected, "{p:?}");
            if let Some((color, point, from, to)) = region {
                said += 1;
                assert_eq!((color, point), (pos.side_to_move(), p));
                // The quadrant holding the move: a 4x4 block from a corner square of it.
                assert_eq!((to.x - from.x, to.y - from.y), (3, 3));
                assert_eq!((from.x % 4, from.y % 4), (0, 0));
                assert!((from.x..=to.x).contains(&p.x) && (from.y..=to.y).contains(&p.y));
            }
        });
        assert!(said > 0, "the games have an only parity move somewhere");
    }

    #[test]
    fn the_first_moves_say_nothing_and_an_illegal_move_is_an_error() {
        for p in Position::initial().legal_points() {
            assert_eq!(explain(&Position::initial(), p).unwrap(), Vec::new());
        }
        assert!(explain(&Position::initial(), parse_square("a1").unwrap()).is_err());
    }
}

//! The coach's Gomoku facts: the shapes the last stone made and how to stop them, the double
//! threats it prepares, and the side to move's forced win.

use super::{Block, Combo, Fact, Forcing};
use crate::ai::control::Control;
use crate::ai::gomoku::threat::{self, Defence, Reach, Reading};
use crate::ai::{CancelFlag, Limits, SearchInfo};
use crate::gomoku::line::{self, Key, Pat, EMPTY, SPAN};
use crate::gomoku::{shapes_by_direction, GomokuError, Position, Shape, DIRECTIONS};
use crate::{Color, Point};

/// How far the forced-win readings look: continuous fours only, then fours and open threes.
const VCF_REACH: Reach = Reach { moves: 0, vcf: 16 };
const VCT_REACH: Reach = Reach { moves: 3, vcf: 8 };
/// The most moves (both sides) of a winning line shown.
const MAX_LINE: usize = 40;
/// The most double-threat points named.
const MAX_THREATS: usize = 3;

/// The facts about `p` played in `before` (see [`super::explain`]); `nodes` bounds each
/// forcing reading.
pub fn explain(before: &Position, p: Point, nodes: u64) -> Result<Vec<Fact>, GomokuError> {
    let mut after = before.clone();
    after.play(p)?;
    if after.is_over() {
        return Ok(Vec::new());
    }
    let mut facts = shape_facts(&after, p);
    facts.extend(threats(&after, p));
    facts.extend(forced_win(&after, nodes));
    Ok(facts)
}

/// The point `k` cells from `p` along `d`, if it is on the board.
fn step(pos: &Position, p: Point, (dx, dy): (i32, i32), k: i32) -> Option<Point> {
    let (x, y) = (p.x as i32 + k * dx, p.y as i32 + k * dy);
    let size = pos.size() as i32;
    ((0..size).contains(&x) && (0..size).contains(&y)).then(|| Point::new(x as u8, y as u8))
}

/// The outermost stones of `color`'s shape through `p` along `d`: stones reached from `p`
/// over at most one empty cell in all, within [`SPAN`].
fn extent(key: Key, color: Color, d: (i32, i32), p: Point, pos: &Position) -> (Point, Point) {
    let code = line::cell_of(color);
    let mut gap = false;
    let mut ends = [0, 0];
    for (end, sign) in ends.iter_mut().zip([-1, 1]) {
        for k in 1..=SPAN {
            match line::cell(key, sign * k) {
                c if c == code => *end = sign * k,
                EMPTY if !gap && k < SPAN && line::cell(key, sign * (k + 1)) == code => gap = true,
                _ => break,
            }
        }
    }
    let at = |k| step(pos, p, d, k).unwrap_or(p);
    (at(ends[0]), at(ends[1]))
}

/// A block at `q` for the side to move of `pos` (the defender).
fn block(pos: &Position, q: Point) -> Block {
    let forbidden = if pos.side_to_move() == Color::Black { pos.is_forbidden(q) } else { None };
    Block { point: q, forbidden }
}

/// The empty cells of the line `key` through `p` along `d` where the defender's stone turns
/// `color`'s open three into something less, weakest line first: the best blocks, then the
/// weaker ones.
fn three_blocks(pos: &Position, p: Point, d: (i32, i32), key: Key) -> (Vec<Block>, Vec<Block>) {
    let color = pos.stone(p).unwrap_or(Color::Black);
    let defender = line::cell_of(color.opponent());
    let mut found: Vec<(Pat, Point)> = (1..=SPAN)
        .flat_map(|k| [-k, k])
        .filter(|&k| line::cell(key, k) == EMPTY)
        .filter_map(|k| {
            let left = line::pattern(line::with(key, k, defender), color, pos.rule());
            (left < Pat::F3).then(|| step(pos, p, d, k)).flatten().map(|q| (left, q))
        })
        .collect();
    found.sort();
    let best = found.first().map(|f| f.0);
    let (blocks, weaker): (Vec<_>, Vec<_>) = found.into_iter().partition(|f| Some(f.0) == best);
    let named = |list: Vec<(Pat, Point)>| list.into_iter().map(|(_, q)| block(pos, q)).collect();
    (named(blocks), named(weaker))
}

/// The points where one more stone of `color` makes five.
fn five_points(pos: &Position, color: Color) -> Vec<Point> {
    let size = pos.size();
    (0..size as usize * size as usize)
        .map(|i| Point::from_index(i, size))
        .filter(|&q| {
            pos.stone(q).is_none()
                && DIRECTIONS.iter().any(|&d| line::wins(pos.line_key(q, d), color, pos.rule()))
        })
        .collect()
}

/// The shapes the stone on `p` made, each with how to stop it.
fn shape_facts(pos: &Position, p: Point) -> Vec<Fact> {
    let Some(color) = pos.stone(p) else { return Vec::new() };
    let mut facts = Vec::new();
    for (d, shape) in DIRECTIONS.into_iter().zip(shapes_by_direction(pos, p)) {
        let key = pos.line_key(p, d);
        let (from, to) = extent(key, color, d, p, pos);
        let points = || -> Vec<Point> {
            line::five_points(key, color, pos.rule())
                .iter()
                .filter_map(|k| step(pos, p, d, k))
                .collect()
        };
        match shape {
            Some(Shape::OpenFour) => {
                facts.push(Fact::OpenFour { color, from, to, points: points() })
            }
            Some(Shape::Four) => {
                if let Some(&q) = points().first() {
                    facts.push(Fact::Four { color, from, to, defence: block(pos, q) });
                }
            }
            Some(Shape::OpenThree) => {
                let (blocks, weaker) = three_blocks(pos, p, d, key);
                facts.push(Fact::OpenThree { color, from, to, blocks, weaker });
            }
            _ => {}
        }
    }
    // Strongest first: fours before threes.
    facts.sort_by_key(|f| match f {
        Fact::OpenFour { .. } => 0,
        Fact::Four { .. } => 1,
        _ => 2,
    });
    facts
}

/// What one more stone of `color` on the empty point `q` makes at once, if two threats.
fn combo_at(pos: &Position, q: Point, color: Color) -> Option<Combo> {
    let (mut fours, mut threes) = (0, 0);
    for d in DIRECTIONS {
        match line::pattern(pos.line_key(q, d), color, pos.rule()) {
            Pat::F5 => return None,
            Pat::F4 | Pat::B4 => fours += 1,
            Pat::DoubleFour => fours += 2,
            Pat::F3 => threes += 1,
            _ => {}
        }
    }
    match (fours, threes) {
        (2.., _) => Some(Combo::DoubleFour),
        (1, 1..) => Some(Combo::FourThree),
        (0, 2..) => Some(Combo::DoubleThree),
        _ => None,
    }
}

/// The points on the lines through `p` where its colour would make two threats at once (and
/// may play: never a forbidden point for black), strongest first.
fn threats(pos: &Position, p: Point) -> Vec<Fact> {
    let Some(color) = pos.stone(p) else { return Vec::new() };
    let mut found: Vec<(Combo, Point)> = Vec::new();
    for d in DIRECTIONS {
        for k in (1..=SPAN).flat_map(|k| [-k, k]) {
            let Some(q) = step(pos, p, d, k).filter(|&q| pos.stone(q).is_none()) else {
                continue;
            };
            let allowed = color == Color::White || pos.is_forbidden(q).is_none();
            if let Some(combo) = combo_at(pos, q, color).filter(|_| allowed) {
                if !found.iter().any(|f| f.1 == q) {
                    found.push((combo, q));
                }
            }
        }
    }
    found.sort();
    found.truncate(MAX_THREATS);
    found.into_iter().map(|(combo, point)| Fact::Threatens { color, point, combo }).collect()
}

/// The forcing reading's winning first move for the side to move of `pos`, within `reach`
/// and `nodes`.
fn winning_move(pos: &Position, reach: Reach, nodes: u64) -> Option<Point> {
    let cancel = CancelFlag::new();
    let mut quiet = |_: &SearchInfo| {};
    let mut control = Control::fixed(&Limits::nodes(nodes), &cancel, &mut quiet);
    match threat::read(pos, &[], reach, Defence::None, &mut control, 1.0).reading {
        Reading::Win(p, _) => Some(p),
        _ => None,
    }
}

/// The side to move's forced win, if the reading proves one within `nodes` per reading.
fn forced_win(pos: &Position, nodes: u64) -> Option<Fact> {
    let color = pos.side_to_move();
    if let Some(&five) = five_points(pos, color).iter().find(|&&q| pos.is_legal(q).is_ok()) {
        return Some(Fact::ForcedWin { color, by: Forcing::Vcf, line: vec![five] });
    }
    // The opponent's four must be blocked first: the reading knows that, and so a win found
    // here starts with the block when there is one.
    let (by, reach, first) = [(Forcing::Vcf, VCF_REACH), (Forcing::Vct, VCT_REACH)]
        .into_iter()
        .find_map(|(by, reach)| winning_move(pos, reach, nodes).map(|p| (by, reach, p)))?;
    Some(Fact::ForcedWin { color, by, line: winning_line(pos, first, reach, nodes) })
}

/// A winning line from `first` for the side to move: the defender blocks each four on its
/// five point and each open three on its best block; the attacker's next move is read again.
/// Stops at five, or where the defender cannot block (a forbidden point), or where the
/// budget does not prove the next move.
fn winning_line(pos: &Position, first: Point, reach: Reach, nodes: u64) -> Vec<Point> {
    let attacker = pos.side_to_move();
    let mut pos = pos.clone();
    let mut line = Vec::new();
    let mut next = Some(first);
    while let Some(p) = next.take() {
        if line.len() >= MAX_LINE || pos.play(p).is_err() {
            break;
        }
        line.push(p);
        if pos.is_over() {
            break;
        }
        let fours = five_points(&pos, attacker);
        let reply = match fours.first() {
            Some(&q) => Some(q),
            None => DIRECTIONS
                .into_iter()
                .zip(shapes_by_direction(&pos, p))
                .filter(|(_, s)| *s == Some(Shape::OpenThree))
                .flat_map(|(d, _)| {
                    let (blocks, weaker) = three_blocks(&pos, p, d, pos.line_key(p, d));
                    blocks.into_iter().chain(weaker)
                })
                .find(|b| b.forbidden.is_none())
                .map(|b| b.point),
        };
        let Some(r) = reply else { break };
        if pos.play(r).is_err() {
            break;
        }
        line.push(r);
        if pos.is_over() {
            break;
        }
        next = five_points(&pos, attacker)
            .first()
            .copied()
            .or_else(|| winning_move(&pos, reach, nodes));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::notation::{format_point, parse_moves, parse_point};
    use crate::gomoku::{ForbiddenKind, Rule};

    const NODES: u64 = 20_000;

    /// The facts about the last of `moves` (alternating colours, black first).
    fn facts(rule: Rule, moves: &str) -> Vec<Fact> {
        let points = parse_moves(moves, 15).expect("test moves parse");
        let (last, earlier) = points.split_last().expect("a move");
        let before = Position::from_moves(15, rule, earlier).expect("legal");
        explain(&before, *last, NODES).expect("the last move is legal")
    }

    fn pt(s: &str) -> Point {
        parse_point(s, 15).unwrap()
    }

    fn names(points: &[Point]) -> Vec<String> {
        points.iter().map(|&p| format_point(p, 15)).collect()
    }

    fn block_names(blocks: &[Block]) -> Vec<String> {
        names(&blocks.iter().map(|b| b.point).collect::<Vec<_>>())
    }

    #[test]
    fn an_open_three_names_its_stones_and_its_blocks() {
        // White f6 g6 h6 in the open row 6; black far away.
        let f = facts(Rule::Freestyle, "a15 f6 c15 g6 e15 h6");
        let Some(Fact::OpenThree { color, from, to, blocks, weaker }) = f.first() else {
            panic!("{f:?}");
        };
        assert_eq!(*color, Color::White);
        assert_eq!(names(&[*from, *to]), ["f6", "h6"]);
        // Either end point leaves a closed three; the far points do not stop it at all.
        assert_eq!(block_names(blocks), ["e6", "i6"]);
        assert!(weaker.is_empty(), "{weaker:?}");
    }

    #[test]
    fn a_three_against_a_stone_has_weaker_blocks() {
        // Black g6 h6 i6 with white on e6: `O . X X X . .`.
        let f = facts(Rule::Freestyle, "g6 e6 h6 a15 i6");
        let Some(Fact::OpenThree { blocks, weaker, .. }) = f.first() else { panic!("{f:?}") };
        // j6 leaves `O . X X X O`: nothing; f6 and k6 leave a closed three.
        assert_eq!(block_names(blocks), ["j6"]);
        assert_eq!(block_names(weaker), ["f6", "k6"]);
    }

    #[test]
    fn a_four_has_one_defence_and_an_open_four_two_points() {
        let f = facts(Rule::Freestyle, "h8 h7 i8 i7 j8 a1 k8");
        assert!(
            matches!(&f[0], Fact::OpenFour { points, .. } if names(points) == ["g8", "l8"]),
            "{f:?}"
        );
        let f = facts(Rule::Freestyle, "h8 g8 i8 i7 j8 a1 k8");
        let Fact::Four { color, from, to, defence } = &f[0] else { panic!("{f:?}") };
        assert_eq!((*color, names(&[*from, *to])), (Color::Black, vec!["h8".into(), "k8".into()]));
        assert_eq!(names(&[defence.point]), ["l8"]);
        assert_eq!(defence.forbidden, None);
    }

    #[test]
    fn renju_says_when_blacks_only_defence_is_forbidden() {
        // White's four g9 h9 _ j9 k9 can only be stopped on i9, where black would make two
        // open threes (i9 i10 i11 up the column, i9 h8 g7 down the diagonal).
        let moves = "i10 g9 i11 h9 h8 j9 g7 k9";
        let four = |rule| {
            facts(rule, moves).into_iter().find_map(|x| match x {
                Fact::Four { color, defence, .. } => Some((color, defence)),
                _ => None,
            })
        };
        let (color, defence) = four(Rule::Renju).expect("white made a four");
        assert_eq!((color, names(&[defence.point])), (Color::White, vec!["i9".to_string()]));
        assert_eq!(defence.forbidden, Some(ForbiddenKind::DoubleThree));
        let (_, defence) = four(Rule::Freestyle).expect("the same four");
        assert_eq!(defence.forbidden, None, "only Renju forbids it");
    }

    #[test]
    fn a_four_three_point_is_named() {
        // Black h8 i8 j8 (closed by white g8) and k9 k10: k8 would make a four (h8-k8) and
        // an open three (k8-k10) at once.
        let f = facts(Rule::Freestyle, "h8 g8 i8 a1 k9 a3 k10 a5 j8");
        let threat = f.iter().find_map(|x| match x {
            Fact::Threatens { point, combo, .. } => Some((names(&[*point]), *combo)),
            _ => None,
        });
        assert_eq!(threat, Some((vec!["k8".to_string()], Combo::FourThree)), "{f:?}");
    }

    #[test]
    fn a_forced_win_is_found_with_a_line_that_ends_in_five() {
        // White to move after black's quiet a15; white has g7 h7 i7 (open) and j9 j10: a
        // simple VCF/VCT for white.
        let moves = "a1 g7 a3 h7 a5 i7 o1 j9 o3 j10 a15";
        let f = facts(Rule::Freestyle, moves);
        let Some(Fact::ForcedWin { color, line, .. }) =
            f.iter().find(|x| matches!(x, Fact::ForcedWin { .. }))
        else {
            panic!("{f:?}")
        };
        assert_eq!(*color, Color::White);
        // Replaying the line from the position ends the game with white's five.
        let mut pos =
            Position::from_moves(15, Rule::Freestyle, &parse_moves(moves, 15).unwrap()).unwrap();
        for &p in line {
            pos.play(p).unwrap();
        }
        assert_eq!(pos.winner().map(|w| w.color), Some(Color::White), "{:?}", names(line));
    }

    #[test]
    fn a_quiet_position_has_no_facts_and_a_won_game_none() {
        assert!(facts(Rule::Freestyle, "h8 i9 a1").is_empty());
        assert!(facts(Rule::Freestyle, "h8 a1 i8 a2 j8 a3 k8 a4 l8").is_empty(), "five ends it");
    }

    /// The cost of the coach over every move of an arena game (lookahead vs pattern), at
    /// the app's budget: `cargo test --release -p tengen-engine --lib coach::gomoku::tests::cost
    /// -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement"]
    fn cost_over_a_game() {
        let game = "h8 f10 e11 g10 f11 e12 g11 d11 e10 h10 g12 d9 f13 h11 e8 j13 i12 h13 h12 \
                    j12 j14 i11 k13 l12 j10 e9 g9 d10 d12 i13 k11 k14 b9 l11 l13 l10 k12 f8";
        let points = parse_moves(game, 15).unwrap();
        let (mut total, mut worst, mut wins) =
            (std::time::Duration::ZERO, (std::time::Duration::ZERO, 0), 0);
        for k in 1..=points.len() {
            let before = Position::from_moves(15, Rule::Freestyle, &points[..k - 1]).unwrap();
            let clock = std::time::Instant::now();
            let f = explain(&before, points[k - 1], 20_000).unwrap();
            let took = clock.elapsed();
            total += took;
            worst = worst.max((took, k));
            wins += f.iter().filter(|x| matches!(x, Fact::ForcedWin { .. })).count();
        }
        println!(
            "{} moves: {total:?} in all, worst {:?} (move {}), {wins} forced wins",
            points.len() - 1,
            worst.0,
            worst.1
        );
    }

    #[test]
    fn an_illegal_move_is_a_typed_error() {
        let before = Position::from_moves(15, Rule::Freestyle, &[pt("h8")]).unwrap();
        assert!(explain(&before, pt("h8"), NODES).is_err());
    }
}

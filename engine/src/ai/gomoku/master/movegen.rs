//! Threat-aware move generation and ordering.
//!
//! * the side to move has a five point: the win;
//! * the opponent has a four: only its five point (or, with two, nothing helps);
//! * the opponent can make an open four or a double four next move (an open three etc.):
//!   the moves that take that chance away, plus the side's own fours;
//! * otherwise every empty cell near the stones, ordered by pattern value.
//!
//! Under Renju, black's forbidden points are never generated.

use super::board::Board;
use super::pattern::{p4, EDGE};
use crate::gomoku::Rule;

/// Ordering weights of the mover's own threat class.
const ATTACK: [i32; p4::COUNT] = [
    -1_000_000, 1_000_000, 200_000, 60_000, 25_000, 14_000, 40_000, 12_000, 8_000, 2_500, 2_200,
    1_000, 900, 0,
];
/// Ordering weights of the opponent's threat class at the same cell (blocking it).
const DEFEND: [i32; p4::COUNT] =
    [0, 500_000, 100_000, 30_000, 12_000, 3_000, 20_000, 6_000, 4_000, 1_200, 1_000, 400, 350, 0];

/// The situation at a node, decided before any move is tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Situation {
    /// The side to move wins in this many plies, whatever the opponent does.
    Win(u32),
    /// The side to move loses in this many plies, whatever it does.
    Loss(u32),
    /// Moves were generated.
    Moves,
}

/// Whether the side to move is black under Renju (forbidden points apply to it).
#[inline]
pub fn renju_black(board: &Board, side: usize) -> bool {
    side == 0 && board.rule() == Rule::Renju
}

/// The ordering score of empty cell `i` for the side to move.
#[inline]
pub fn move_score(board: &Board, i: usize) -> i32 {
    let me = board.side();
    ATTACK[board.class(i, me) as usize] + DEFEND[board.class(i, me ^ 1) as usize]
}

/// Generates the moves worth searching into `out` (unsorted scores attached), or decides the
/// node outright.
pub fn generate(board: &mut Board, out: &mut Vec<(usize, i32)>) -> Situation {
    out.clear();
    let me = board.side();
    let opp = me ^ 1;
    if board.has_five(me) {
        return Situation::Win(1);
    }
    let mut scratch = Vec::new();
    if board.has_five(opp) {
        board.five_points(opp, &mut scratch);
        if scratch.len() >= 2 {
            return Situation::Loss(2);
        }
        let f = scratch[0];
        if renju_black(board, me) && board.is_forbidden(f) {
            return Situation::Loss(2);
        }
        out.push((f, 0));
        return Situation::Moves;
    }
    if board.has_flex4(me) {
        return Situation::Win(3);
    }
    if board.has_flex4(opp) {
        defences(board, &mut scratch);
        for &i in &scratch {
            out.push((i, move_score(board, i)));
        }
        own_fours(board, me, out);
        if out.is_empty() {
            return Situation::Loss(4);
        }
        return Situation::Moves;
    }
    let rb = renju_black(board, me);
    for &i in board.board_cells() {
        if board.is_empty(i) && board.is_near(i) && !(rb && board.is_forbidden(i)) {
            out.push((i, move_score(board, i)));
        }
    }
    if out.is_empty() {
        // An empty board (or nothing near): take the centre-most empty cell.
        let centre = board.size() / 2;
        let mut best: Option<(usize, usize)> = None;
        for &i in board.board_cells() {
            if board.is_empty(i) && !(rb && board.is_forbidden(i)) {
                let p = board.point(i);
                let d = (p.x as usize).abs_diff(centre) + (p.y as usize).abs_diff(centre);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, i));
                }
            }
        }
        if let Some((_, i)) = best {
            out.push((i, 0));
        }
    }
    Situation::Moves
}

/// Adds the cells where colour `c` (the side to move) makes a four, not already in `out`.
pub fn own_fours(board: &Board, c: usize, out: &mut Vec<(usize, i32)>) {
    if !board.has_four_move(c) {
        return;
    }
    for &i in board.board_cells() {
        let class = board.class(i, c);
        if p4::is_four(class) && !out.iter().any(|&(j, _)| j == i) {
            out.push((i, move_score(board, i)));
        }
    }
}

/// The moves of the side to move that leave the opponent without an open-four or
/// double-four point. Called when the opponent has such points and no four.
pub fn defences(board: &Board, out: &mut Vec<usize>) {
    out.clear();
    let me = board.side();
    let opp = me ^ 1;
    let mut flex = Vec::new();
    board.cells_of_class(opp, p4::B_FLEX4, &mut flex);
    let mut cands: Vec<usize> = Vec::with_capacity(32);
    for &f in &flex {
        if !cands.contains(&f) {
            cands.push(f);
        }
        for d in 0..4 {
            let p = board.pat(f, opp, d);
            if !super::eval::is_four_pat(p) {
                continue;
            }
            let step = board.dir_step(d);
            for sign in [-1isize, 1] {
                for k in 1..=5isize {
                    let j = (f as isize + sign * k * step) as usize;
                    if board.cell(j) == EDGE {
                        break;
                    }
                    if board.is_empty(j) && !cands.contains(&j) {
                        cands.push(j);
                    }
                }
            }
        }
    }
    let rb = renju_black(board, me);
    for i in cands {
        if rb && board.is_forbidden(i) {
            continue;
        }
        if board.is_defence(i, &flex) {
            out.push(i);
        }
    }
}

/// Sorts generated moves best first (stable: equal scores keep board order).
pub fn sort(moves: &mut [(usize, i32)]) {
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::board_from;
    use super::*;
    use crate::Point;

    const EMPTY15: &str = "...............";

    fn rows(custom: &[&'static str]) -> Vec<&'static str> {
        let mut v: Vec<&str> = custom.to_vec();
        while v.len() < 15 {
            v.push(EMPTY15);
        }
        v
    }

    #[test]
    fn facing_a_four_only_the_block() {
        let mut b = board_from(
            &rows(&["...............", "xoooo..........", "..x.x.x........"]),
            Rule::Freestyle,
            0,
        );
        let mut out = Vec::new();
        assert_eq!(generate(&mut b, &mut out), Situation::Moves);
        assert_eq!(out.len(), 1);
        assert_eq!(b.point(out[0].0), Point::new(5, 1));
        // An open four cannot be stopped.
        let mut open = board_from(&rows(&["", ".oooo", "..x.x.x"]), Rule::Freestyle, 0);
        assert_eq!(generate(&mut open, &mut out), Situation::Loss(2));
    }

    #[test]
    fn facing_an_open_three_defences_and_fours() {
        let mut b = board_from(
            &rows(&[
                "...............",
                "...............",
                "....ooo........",
                "...............",
                "oxxx...........",
            ]),
            Rule::Freestyle,
            0,
        );
        let mut out = Vec::new();
        assert_eq!(generate(&mut b, &mut out), Situation::Moves);
        let pts: Vec<Point> = out.iter().map(|&(i, _)| b.point(i)).collect();
        // The three's ends (the far points do not stop an open four here), plus black's fours.
        for p in [Point::new(3, 2), Point::new(7, 2), Point::new(4, 4), Point::new(5, 4)] {
            assert!(pts.contains(&p), "{p:?} missing from {pts:?}");
        }
        assert!(!pts.contains(&Point::new(2, 2)) && !pts.contains(&Point::new(8, 2)));
        assert!(!pts.contains(&Point::new(10, 10)));
        assert!(!pts.contains(&Point::new(5, 3)));
    }

    #[test]
    fn own_open_four_chance_is_a_win() {
        let mut b = board_from(
            &rows(&[
                "...............",
                "...............",
                "....xxx........",
                "..........o....",
                ".o.o..........",
            ]),
            Rule::Freestyle,
            0,
        );
        let mut out = Vec::new();
        assert_eq!(generate(&mut b, &mut out), Situation::Win(3));
    }

    /// With no five point and no open-four point for either side, `generate` decides nothing
    /// and finds moves: the search's frontier nodes rely on it to skip generating (see
    /// `Searcher::pvs`). Random games under each rule, every position until a five.
    #[test]
    fn a_quiet_position_is_never_decided() {
        use crate::rng::Rng;
        for (seed, rule) in [(21, Rule::Freestyle), (22, Rule::Standard), (23, Rule::Renju)] {
            let mut rng = Rng::new(seed);
            let (mut quiet, mut loud) = (0, 0);
            let mut out = Vec::new();
            for _game in 0..40 {
                let mut b = Board::new(15, rule);
                for _ in 0..120 {
                    let me = b.side();
                    let decided = b.has_five(me)
                        || b.has_five(me ^ 1)
                        || b.has_flex4(me)
                        || b.has_flex4(me ^ 1);
                    let situation = generate(&mut b, &mut out);
                    if decided {
                        loud += 1;
                    } else {
                        quiet += 1;
                        assert_eq!(situation, Situation::Moves, "{rule:?} {:?}", b.history());
                        assert!(!out.is_empty(), "{rule:?} {:?}", b.history());
                    }
                    if b.has_five(0) || b.has_five(1) || out.is_empty() {
                        break;
                    }
                    // Mostly a generated move, so that threats grow and get answered.
                    let m = if rng.below(4) == 0 {
                        let empty: Vec<usize> =
                            b.board_cells().iter().copied().filter(|&i| b.is_empty(i)).collect();
                        *rng.choose(&empty).unwrap()
                    } else {
                        rng.choose(&out).unwrap().0
                    };
                    if renju_black(&b, me) && b.is_forbidden(m) {
                        break;
                    }
                    b.make(m);
                }
            }
            assert!(quiet > 500 && loud > 50, "{rule:?}: {quiet} quiet, {loud} decided");
        }
    }
}

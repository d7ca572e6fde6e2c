//! Shallow searches of the fitted pattern evaluation ([`PatternEval`]), the solver's
//! estimate of a position's final score: it orders the moves of nodes with many empty
//! squares and predicts the exact score for the selective (ProbCut) passes.
//!
//! Values are in hundredths of a disc for the side to move, like the evaluation's; a
//! finished game is worth its exact final score (times 100).

use crate::ai::reversi::board::Board;
use crate::ai::reversi::eval::{Evaluator, PatternEval};

use super::bits::{bit, final_score, flips, moves};
use super::features::Features;

/// One disc in [`MidEval`] units.
pub const DISC: i32 = 100;

/// Larger than any value.
const INF: i32 = 100 * DISC;

/// The pattern evaluation and alpha-beta on it.
#[derive(Clone, Copy)]
pub struct MidEval {
    eval: PatternEval,
}

impl Default for MidEval {
    fn default() -> MidEval {
        MidEval::new()
    }
}

impl MidEval {
    /// The evaluation with the shipped weights.
    pub fn new() -> MidEval {
        MidEval { eval: PatternEval::new() }
    }

    /// Static value of a position where `p` is to move (someone may still move or not).
    #[inline]
    pub fn value(&self, p: u64, o: u64) -> i32 {
        self.eval.eval(&Board { p, o })
    }

    /// Fail-soft alpha-beta of `depth` plies on the evaluation (a pass is a ply), counting
    /// the positions evaluated or expanded in `nodes`.
    pub fn search(
        &self,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> i32 {
        if depth == 0 {
            *nodes += 1;
            return self.value(p, o);
        }
        self.search_with(&Features::new(p, o), p, o, depth, alpha, beta, nodes)
    }

    /// [`MidEval::search`] with the pattern indices `f` of the position, updated move by
    /// move on the way down.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_with(
        &self,
        f: &Features,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> i32 {
        *nodes += 1;
        if depth == 0 {
            return f.eval(p, o);
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, (!(p | o)).count_ones()) * DISC;
            }
            return -self.search_with(&f.pass(), o, p, depth - 1, -beta, -alpha, nodes);
        }
        // Children in fastest-first order when they are searched further (cheap, and it
        // makes the cutoffs come early).
        let mut order = [(0u64, 0u32, 0u8); 64];
        let mut len = 0;
        let mut m = legal;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let fl = flips(p, o, sq);
            // The opponent's mobility after the move: fewest first.
            let key = if depth >= 2 { moves(o & !fl, p | fl | bit(sq)).count_ones() } else { 0 };
            order[len] = (fl, key, sq as u8);
            len += 1;
        }
        if depth >= 2 {
            order[..len].sort_unstable_by_key(|&(_, key, _)| key);
        }
        let mut best = -INF;
        for &(fl, _, sq) in &order[..len] {
            let sq = sq as usize;
            let child = f.play(sq, fl);
            let v = -self.search_with(
                &child,
                o & !fl,
                p | fl | bit(sq),
                depth - 1,
                -beta,
                -alpha,
                nodes,
            );
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Plain negamax over every move, no pruning.
    fn minimax(e: &MidEval, p: u64, o: u64, depth: u32) -> i32 {
        if depth == 0 {
            return e.value(p, o);
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, (!(p | o)).count_ones()) * DISC;
            }
            return -minimax(e, o, p, depth - 1);
        }
        let mut best = -INF;
        let mut m = legal;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(p, o, sq);
            best = best.max(-minimax(e, o & !f, p | f | bit(sq), depth - 1));
        }
        best
    }

    #[test]
    fn alpha_beta_matches_minimax_inside_the_window_and_bounds_it_outside() {
        let e = MidEval::new();
        let mut rng = Rng::new(7);
        for _ in 0..40 {
            let empties = 12 + rng.below(20) as u32;
            let (p, o) = super::super::tests::random_endgame(&mut rng, empties);
            for depth in 0..=3 {
                let truth = minimax(&e, p, o, depth);
                let mut nodes = 0;
                assert_eq!(e.search(p, o, depth, -INF, INF, &mut nodes), truth);
                for (a, b) in [(truth - 50, truth + 50), (truth, truth + 1), (truth - 1, truth)] {
                    let v = e.search(p, o, depth, a, b, &mut nodes);
                    if truth <= a {
                        assert!(v <= a && v >= truth, "fail low {v} vs {truth} in ({a}, {b})");
                    } else if truth >= b {
                        assert!(v >= b && v <= truth, "fail high {v} vs {truth} in ({a}, {b})");
                    } else {
                        assert_eq!(v, truth);
                    }
                }
            }
        }
    }

    #[test]
    fn finished_games_are_worth_their_exact_score() {
        // Black everywhere but one white disc: nobody can move.
        let (p, o) = (!bit(0), bit(0));
        let mut nodes = 0;
        assert_eq!(MidEval::new().search(p, o, 2, -INF, INF, &mut nodes), 62 * DISC);
    }
}

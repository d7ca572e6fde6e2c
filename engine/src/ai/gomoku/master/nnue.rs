//! The learned correction on top of the table evaluation: a small efficiently updated
//! network over the cells' line-pattern sets.
//!
//! Each colour has an accumulator of [`NN_D`] numbers, the sum over its empty cells of one
//! learned vector per line-pattern set ([`super::eval::set_id`]; forbidden points count as
//! the all-dead set, whose vector is zero). The board updates it as cells change set, like the
//! table sums. The evaluation feeds the side to move's accumulator and the opponent's through
//! a clipped ReLU, one hidden layer of [`NN_H`] clipped ReLUs and one output, scaled to
//! evaluation units and added to the table's value. The weights are trained on the results of
//! Master's own games (`fit_gomoku_eval nn`, engine/examples/fit_gomoku_eval/nn.rs); figures
//! in docs/BENCHMARKS.md ("Master's evaluation").

// `NN_D`, `NN_H`, `NN_SCALE`, `NN_Q` and the weights, as `fit_gomoku_eval nn` wrote them: the
// set vectors and first biases in 1/`NN_Q` units, the layers after them in floats.
include!("nn_weights.rs");

/// One colour's accumulator, in 1/[`NN_Q`] units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acc(pub [i32; NN_D]);

impl Default for Acc {
    fn default() -> Acc {
        Acc([0; NN_D])
    }
}

impl Acc {
    /// Moves one cell of the accumulator from set `old` to set `new`.
    #[inline(always)]
    pub fn update(&mut self, new: u16, old: u16) {
        let n = &NN_EMB[new as usize * NN_D..(new as usize + 1) * NN_D];
        let o = &NN_EMB[old as usize * NN_D..(old as usize + 1) * NN_D];
        for i in 0..NN_D {
            self.0[i] += n[i] as i32 - o[i] as i32;
        }
    }
}

/// The network's correction for the side to move (accumulator `me`) against `opp`, in
/// evaluation units.
#[inline]
pub fn correction(me: &Acc, opp: &Acc) -> i32 {
    let mut x = [0f32; 2 * NN_D];
    let q = 1.0 / NN_Q as f32;
    for i in 0..NN_D {
        x[i] = (me.0[i] + NN_B0[i]).clamp(0, NN_Q) as f32 * q;
        x[NN_D + i] = (opp.0[i] + NN_B0[i]).clamp(0, NN_Q) as f32 * q;
    }
    let mut out = NN_B2;
    for j in 0..NN_H {
        let row = &NN_W1[j * 2 * NN_D..(j + 1) * 2 * NN_D];
        let mut z = NN_B1[j];
        for i in 0..2 * NN_D {
            z += row[i] * x[i];
        }
        out += NN_W2[j] * z.clamp(0.0, 1.0);
    }
    (out * NN_SCALE).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::gomoku::master::eval::SETS;

    #[test]
    fn one_vector_per_set_and_the_all_dead_set_counts_nothing() {
        assert_eq!(NN_EMB.len(), SETS * NN_D);
        assert!(NN_EMB[..NN_D].iter().all(|&v| v == 0));
    }

    #[test]
    fn the_update_moves_a_cell_between_sets_and_back() {
        let mut a = Acc::default();
        a.update(17, 0);
        assert_eq!(
            &a.0[..],
            &NN_EMB[17 * NN_D..18 * NN_D].iter().map(|&v| v as i32).collect::<Vec<_>>()[..]
        );
        a.update(900, 17);
        a.update(0, 900);
        assert_eq!(a, Acc::default());
    }
}

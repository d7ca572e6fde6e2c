//! ProbCut for the selective passes: a shallow search of the pattern evaluation predicts
//! the exact score, and a node whose prediction lies far enough outside the window is cut
//! without being searched.
//!
//! The prediction error was measured with `calibrate.rs` (exact scores of 60–150
//! positions per size from noisy games of the evaluation against itself): its standard
//! deviation is about 8–12 discs for the depth-2 search and 7–10 for depth 4, growing with
//! the empty squares; odd depths under-estimate and even depths over-estimate the side to
//! move by 1–4 discs. A selective pass at confidence `t` cuts when the prediction is more
//! than `t` standard deviations beyond the window.

use super::midgame::{MidEval, DISC};

/// Fewest empty squares at which a selective pass tries a cut. On FFO #40–#44, 8 / 10 /
/// 14 took 141.8 / 156.0 / 188.9 M nodes, but from 8 the evaluation searches cost more
/// time than the nodes saved.
pub const PROBCUT_MIN: u32 = 10;

/// The confidence (in hundredths of a standard deviation) of each selective level,
/// loosest first; the table's `EXACT` level is above all of them. One pass at 1.0 sigma
/// measured best on FFO #45/#48/#49 (887 M nodes against 1,323 M at 0.8 and 1,027 M at
/// 1.25, and 895 M for two passes at 1.0 and 1.5); on #40–#44, 1.25 was better (131.5 M
/// against 156.0 M), 0.5 / 1.5 / 2.0 worse or no better (186.7 / 145.8 / 172.9 M).
pub const CONFIDENCE: [i32; 1] = [100];

/// From this many empties the predicting search looks 4 plies deep, below 2 (depth 2
/// everywhere: 166.4 M nodes on FFO #40–#44 against 156.0 M; depth 4 from 16: 161.3 M).
const DEEP_PREDICTION_MIN: u32 = 18;

/// Depth of the predicting search at `n` empties.
#[inline]
fn depth(n: u32) -> u32 {
    if n >= DEEP_PREDICTION_MIN {
        4
    } else {
        2
    }
}

/// Mean and standard deviation of `exact - predicted` (in [`DISC`] units) for the depth
/// `d` prediction at `n` empties, from the calibration.
#[inline]
fn error(d: u32, n: u32) -> (i32, i32) {
    let n = n as i32;
    if d >= 4 {
        (100 + 10 * (n - 10), 450 + 28 * n)
    } else {
        (80 + 15 * (n - 10), 750 + 20 * n)
    }
}

/// The cut for a null-window search `(alpha, alpha + 1)` at `n` empties and confidence
/// `t` (hundredths): `Some(alpha + 1)` if the score is predicted above alpha, `Some(alpha)`
/// if predicted at most alpha, `None` when the prediction is not confident. `nodes` counts
/// the evaluation search's positions.
pub fn try_cut(
    mid: &MidEval,
    p: u64,
    o: u64,
    alpha: i32,
    n: u32,
    t: i32,
    nodes: &mut u64,
) -> Option<i32> {
    let d = depth(n);
    let (mean, sigma) = error(d, n);
    let margin = sigma * t / 100;
    // The static value tells which side is worth testing.
    let guess = mid.value(p, o);
    if guess + mean >= alpha * DISC {
        // Cut high if predicted exact >= alpha + 1 with confidence.
        let bound = (alpha + 1) * DISC - mean + margin;
        if bound < 64 * DISC && mid.search(p, o, d, bound - 1, bound, nodes) >= bound {
            return Some(alpha + 1);
        }
    } else {
        let bound = alpha * DISC - mean - margin;
        if bound > -64 * DISC && mid.search(p, o, d, bound, bound + 1, nodes) <= bound {
            return Some(alpha);
        }
    }
    None
}

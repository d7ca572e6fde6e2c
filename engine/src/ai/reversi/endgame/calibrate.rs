//! Measures how well shallow searches of the pattern evaluation predict the exact score
//! (the ProbCut statistics used by `probcut.rs`). Run with
//! `cargo test --release -p tengen-engine --lib calibrate -- --ignored --nocapture`.

use super::bits::{bit, flips, moves};
use super::midgame::{MidEval, DISC};
use super::search::Search;
use super::tt::Table;
use crate::ai::CancelFlag;
use crate::rng::Rng;

/// A position with `empties` empty squares from a noisy game of the evaluation against
/// itself (closer to real endgames than random play).
pub(super) fn played_endgame(rng: &mut Rng, mid: &MidEval, empties: u32) -> (u64, u64) {
    loop {
        let (mut p, mut o) = (bit(28) | bit(35), bit(27) | bit(36));
        loop {
            if (!(p | o)).count_ones() == empties {
                return (p, o);
            }
            let mut m = moves(p, o);
            if m == 0 {
                if moves(o, p) == 0 {
                    break;
                }
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            let mut best = (i32::MIN, 0u64, 0usize);
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(p, o, sq);
                let v = -mid.value(o & !f, p | f | bit(sq)) + rng.below(600) as i32;
                if v > best.0 {
                    best = (v, f, sq);
                }
            }
            let (_, f, sq) = best;
            let (np, no) = (o & !f, p | f | bit(sq));
            p = np;
            o = no;
        }
    }
}

#[test]
#[ignore]
fn print_prediction_errors() {
    let mid = MidEval::new();
    let mut rng = Rng::new(11);
    let cancel = CancelFlag::new();
    let mut tt = Table::new(20);
    for empties in [10u32, 12, 14, 16, 18, 20] {
        let count = if empties >= 18 { 60 } else { 150 };
        let mut sums = [(0f64, 0f64); 7];
        for _ in 0..count {
            let (p, o) = played_endgame(&mut rng, &mid, empties);
            let mut pv = Vec::new();
            let exact = Search::new(&mut tt, &cancel).pvs(p, o, -64, 64, &mut pv);
            for (d, s) in sums.iter_mut().enumerate() {
                let mut nodes = 0;
                let v = mid.search(p, o, d as u32, -10_000, 10_000, &mut nodes);
                let err = (exact * DISC - v) as f64 / DISC as f64;
                s.0 += err;
                s.1 += err * err;
            }
        }
        let line: Vec<String> = sums
            .iter()
            .map(|&(s, q)| {
                let n = count as f64;
                let mean = s / n;
                format!("{:+.2}/{:.2}", mean, (q / n - mean * mean).sqrt())
            })
            .collect();
        println!("empties {empties}: mean/sigma by depth 0..6: {}", line.join(" "));
    }
}

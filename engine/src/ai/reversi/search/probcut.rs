//! ProbCut for the midgame search (Buro's): at a null-window node with `depth` plies left,
//! a search [`shallow`] plies deep predicts the value of the deep search. When the
//! prediction lies more than [`CONFIDENCE`] standard deviations of its error above the
//! window, the node is cut high without its deep search; more than that below, it is cut
//! low.
//!
//! The error model, `deep - shallow` ~ N([`error`]), was measured by `tests::calibrate`
//! below (400 positions from noisy games of the pattern evaluation against itself, 14 to 48
//! empties, each searched with the full window at every depth from 0 to 10; in hundredths of
//! a disc):
//! - searches of the same parity differ little on average (55 to 156 for even depths, −59 to
//!   26 for odd ones), those of different parity a lot (an odd depth rates the side to move
//!   3–4.5 discs higher than an even one), so the shallow depth keeps the deep one's parity,
//!   as Edax's does;
//! - the standard deviation grows with the gap between the depths: 334–424 at 2 plies,
//!   435–547 at 4, 521–619 at 6, 697 at 8;
//! - and with the game's phase (the same test over 600 positions, for the depths that
//!   [`shallow`] pairs): 227–308 at 39 to 48 empties, 284–480 at 27 to 36 and 432–770 at 15
//!   to 24, about 0.7 and 1.5 times the middle phase's. [`error`] scales it by [`phase`].
//!
//! The endgame solver's ProbCut (`endgame::probcut`) predicts exact scores instead, with its
//! own measured model.

/// The largest value (a 64-disc win, in the pattern evaluation's hundredths of a disc): a
/// bound beyond it cannot be met, so its shallow search is not run.
pub const MOST: i32 = 6_400;

/// Fewest plies left at which a node tries a cut.
pub const MIN_DEPTH: u32 = 3;

/// The cut's confidence, in hundredths of a standard deviation of the prediction's error.
/// 0.8 against 1.2: SPRT (0, 10) at 100 ms a move in self-play, +24 ± 13 Elo over 2,020
/// games (three runs pooled, LLR 3.98; docs/BENCHMARKS.md, "Reversi move times"). 0.6
/// against 0.8 leaned the other way: −18 ± 20 over 920 games, stopped at LLR −2.23.
pub const CONFIDENCE: i32 = 80;

/// The predicting search's depth for a node `depth` plies from its horizon: about half of
/// it, of the same parity (3 → 1, 4 → 2, 5 → 3, 6 → 2, 8 → 4, 10 → 4, 12 → 6).
#[inline]
pub fn shallow(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// Mean and standard deviation of `deep - shallow` for a search `depth` plies deep predicted
/// by one `shallow` plies deep in a position with `empties` empty squares, in hundredths of
/// a disc (a fit of the calibration's figures).
#[inline]
pub fn error(shallow: u32, depth: u32, empties: u32) -> (i32, i32) {
    let mean = if depth.is_multiple_of(2) { 90 } else { 30 };
    let gap = depth.saturating_sub(shallow) as i32;
    (mean, (280 + 33 * gap) * phase(empties) / 100)
}

/// The prediction's spread at `empties` empty squares, in percent of its spread at 31 or 32:
/// about 150 at 19 and 69 at 44, linear between and beyond, from 60 to 170.
#[inline]
pub fn phase(empties: u32) -> i32 {
    let e = empties as i32;
    let f = if e <= 31 { 100 + (63 - 2 * e) * 41 / 20 } else { 100 - (2 * e - 63) * 13 / 10 };
    f.clamp(60, 170)
}

/// The bounds on the shallow search's value that cut a node with `empties` empty squares and
/// the window (`alpha`, `alpha + 1`) searched `depth` plies deep: above `high` it is cut
/// high, at or below `low` it is cut low.
#[inline]
pub fn bounds(alpha: i32, depth: u32, empties: u32) -> (u32, i32, i32) {
    let d = shallow(depth);
    let (mean, sigma) = error(d, depth, empties);
    let margin = sigma * CONFIDENCE / 100;
    (d, alpha + 1 - mean + margin, alpha - mean - margin)
}

#[cfg(test)]
mod tests {
    use crate::ai::control::Control;
    use crate::ai::reversi::board::{squares, Board};
    use crate::ai::reversi::eval::PatternEval;
    use crate::ai::reversi::search::pvs::tests::random_board;
    use crate::ai::reversi::search::pvs::{Searcher, INF};
    use crate::ai::{CancelFlag, Limits, SearchInfo};
    use crate::rng::Rng;

    /// The full-window value of `b` searched `depth` plies deep, and the nodes it took.
    fn search(s: &mut Searcher<PatternEval>, b: &Board, depth: u32) -> (i32, u64) {
        let cancel = CancelFlag::new();
        let mut sink = |_: &SearchInfo| {};
        let mut ctrl = Control::fixed(&Limits::default(), &cancel, &mut sink);
        let v = s.pvs(b, depth, -INF, INF, 0, &mut ctrl);
        (v, ctrl.nodes())
    }

    fn searcher(probcut: bool, bits: u32) -> Searcher<PatternEval> {
        let mut s = Searcher::new(PatternEval::new(), bits);
        s.probcut = probcut;
        s
    }

    /// `n` positions, every third ply from 12 to 46 of noisy games: six random opening
    /// moves, then the best move by a 2-ply search, or a random one 15% of the time.
    fn positions(rng: &mut Rng, n: usize) -> Vec<Board> {
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = Board::initial();
            let mut s = searcher(false, 16);
            let mut ply = 0;
            while let Some(to_move) = b.to_mover() {
                b = to_move;
                let m = b.moves();
                if (12..=46).contains(&ply) && ply % 3 == 0 && out.len() < n {
                    out.push(b);
                }
                let list: Vec<u8> = squares(m).collect();
                let sq = if ply < 6 || rng.below(100) < 15 {
                    list[rng.below(list.len() as u64) as usize]
                } else {
                    let mut best = (i32::MIN, list[0]);
                    for &q in &list {
                        let v = -search(&mut s, &b.play(q), 2).0;
                        if v > best.0 {
                            best = (v, q);
                        }
                    }
                    best.1
                };
                b = b.play(sq);
                ply += 1;
            }
        }
        out
    }

    /// Searched to the end of the game, the value is the exact margin with or without
    /// ProbCut (it never cuts there).
    #[test]
    fn exact_searches_are_left_alone() {
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let b = random_board(&mut rng, 48);
            if b.moves() == 0 {
                continue;
            }
            let with = search(&mut searcher(true, 16), &b, b.empties()).0;
            let without = search(&mut searcher(false, 16), &b, b.empties()).0;
            assert_eq!(with, without, "{b:?}");
        }
    }

    /// At depth 8 ProbCut searches a fraction of the tree, and its values stay close to the
    /// full search's.
    #[test]
    fn it_cuts_most_of_the_tree_and_stays_close() {
        let mut rng = Rng::new(4);
        let (mut full_nodes, mut cut_nodes, mut diff, mut worst) = (0, 0, 0, 0);
        let boards = positions(&mut rng, 36);
        for b in &boards {
            let (v0, n0) = search(&mut searcher(false, 16), b, 8);
            let (v1, n1) = search(&mut searcher(true, 16), b, 8);
            full_nodes += n0;
            cut_nodes += n1;
            diff += (v1 - v0).abs();
            worst = worst.max((v1 - v0).abs());
        }
        let mean = diff / boards.len() as i32;
        eprintln!("nodes {cut_nodes} of {full_nodes}; mean difference {mean}, worst {worst}");
        // Measured: 14% of the nodes, a mean difference of 85 (under a disc), the worst 768
        // (with one spread for every phase: 16%, 98 and 768; at a confidence of 1.2: 30%, 52
        // and 768; at 0: a mean difference of 250).
        assert!(cut_nodes * 2 < full_nodes, "{cut_nodes} nodes of {full_nodes}");
        assert!(mean < 150, "a mean difference of {mean} hundredths of a disc");
    }

    #[test]
    #[ignore = "a measurement (several minutes), not a check"]
    fn calibrate() {
        // Run with `cargo test --release -p tengen-engine --lib probcut -- --ignored
        // --nocapture`.
        let mut rng = Rng::new(99);
        let max = 10u32;
        let values: Vec<(u32, Vec<i32>)> = positions(&mut rng, 600)
            .iter()
            .map(|b| {
                let mut s = searcher(false, 18);
                (b.empties(), (0..=max).map(|d| search(&mut s, b, d).0).collect())
            })
            .collect();
        // The mean and spread of `deep - shallow` over `values` with `empties` kept.
        let spread =
            |values: &[(u32, Vec<i32>)], depth: u32, d: u32, keep: &dyn Fn(u32) -> bool| {
                let diffs: Vec<f64> = values
                    .iter()
                    .filter(|(empties, _)| *empties > depth && keep(*empties))
                    .map(|(_, v)| f64::from(v[depth as usize] - v[d as usize]))
                    .collect();
                let n = diffs.len() as f64;
                let mean = diffs.iter().sum::<f64>() / n;
                let sd = (diffs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
                format!("{n} positions, mean {mean:.0}, sd {sd:.0}")
            };
        // By the gap between the depths: the first 400 positions, every phase.
        for depth in 3..=max {
            for d in 0..=4.min(depth - 1) {
                let s = spread(&values[..400], depth, d, &|_| true);
                eprintln!("depth {depth} from {d}: {s}");
            }
        }
        // By the phase, for the depths that `shallow` pairs: all 600.
        for depth in 3..=max {
            let d = super::shallow(depth);
            for (lo, hi) in [(14, 25), (26, 37), (38, 50)] {
                let s = spread(&values, depth, d, &|e| (lo..=hi).contains(&e));
                eprintln!("depth {depth} from {d}, {lo} to {hi} empties: {s}");
            }
        }
    }
}

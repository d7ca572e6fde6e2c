//! Fits the weights of Master's Gomoku evaluation (`MOVER`, `OTHER` and `TEMPO` in
//! `engine/src/ai/gomoku/master/eval.rs`) to game results, texel-style.
//!
//! The shipped weights were made with these steps (about 35 minutes on the shared 2-core
//! machine, nearly all of it the self-play games; the binary was main at 27461da, with the
//! hand-set weights that `LINE_VALUE`, `CLASS_BONUS` and `TEMPO` below keep):
//! ```text
//! python3 scripts/random-openings.py 7 600 > op1.txt
//! python3 scripts/random-openings.py 8 2400 | grep -vxFf op1.txt > op2.txt   # 2,363 new
//! split -n l/2 -d op1.txt op1-; split -n l/2 -d op2.txt op2-
//! A="tengen arena --game gomoku --rule freestyle --size 15 --black master --white master --time-per-move 30 --quiet"
//! $A --games 600 --openings op1-00 --out g1 --seed 11 & $A --games 600 --openings op1-01 --out g2 --seed 12
//! $A --games 2400 --openings op2-00 --out g3 --seed 21 & $A --games 2400 --openings op2-01 --out g4 --seed 22
//! cargo build --release -p tengen-engine --example fit_gomoku_eval
//! target/release/examples/fit_gomoku_eval g1 g2 g3 g4
//! ```
//! Every position of every game after the first six plies where neither side can make a five
//! or an open four is a sample, labelled with the game's result for the side to move (the
//! evaluation is only asked about such positions: the search resolves the others). The
//! evaluation is linear in its weights, so the fit is a logistic regression: first the scale
//! `K` that best fits the hand-set weights, then the weights at that scale (Newton steps with
//! a line search, a very small ridge towards the hand-set weights; a weight that comes out
//! negative is held at zero and the rest fitted again, as cell values cannot be negative).
//! Every tenth game is held out. The entries the quiet samples never show (five points and
//! open-four points) keep their hand-set values. It prints the fit with separate tables for
//! the side to move and for the other side (the shipped form), and, for comparison, one table
//! for both with the side to move's worth `ratio` times as much.

use std::path::Path;

use tengen_engine::ai::gomoku::master::board::Board;
use tengen_engine::ai::gomoku::master::eval;
use tengen_engine::ai::gomoku::master::pattern::p4;
use tengen_engine::gomoku::psq::read_psq;
use tengen_engine::gomoku::{Position, Rule};

/// The hand-set weights the fit starts from (Master's evaluation before the fit: one table,
/// the side to move's cells worth 5/4 as much, plus a tempo).
const LINE_VALUE: [f64; 12] = [0., 1., 3., 4., 12., 14., 34., 36., 90., 160., 0., 0.];
const CLASS_BONUS: [f64; 14] = [0., 0., 120., 80., 40., 0., 60., 20., 0., 10., 10., 0., 0., 0.];
const TEMPO: f64 = 10.0;

/// The fitted line patterns (B1..B4) and classes (C_BLOCK4_FLEX3..L_FLEX2).
const LINES: std::ops::RangeInclusive<usize> = 1..=7;
const CLASSES: std::ops::RangeInclusive<usize> = 3..=12;
const N_LINES: usize = 7;
const N_CLASSES: usize = 10;
/// Weights, then tempo.
const N: usize = N_LINES + N_CLASSES + 1;

struct Sample {
    /// Feature counts of the side to move and of the opponent.
    me: [f64; N],
    opp: [f64; N],
    /// The table fit's features: how many empty cells of each line-pattern set
    /// ([`table::set_id`]) the side to move has, and the opponent.
    me_sets: Vec<(u16, u16)>,
    opp_sets: Vec<(u16, u16)>,
    /// The table evaluation in force (without the network), and the whole evaluation in
    /// force, in units.
    table: f64,
    full: f64,
    /// 1 win, 0.5 draw, 0 loss for the side to move.
    y: f64,
    holdout: bool,
}

fn counts(b: &Board, c: usize) -> [f64; N] {
    let mut x = [0.0; N];
    for &i in b.board_cells() {
        if !b.is_empty(i) {
            continue;
        }
        let class = b.class(i, c) as usize;
        if class == p4::FORBID as usize {
            continue;
        }
        for d in 0..4 {
            let p = b.pat(i, c, d) as usize % 12;
            if LINES.contains(&p) {
                x[p - 1] += 1.0;
            }
        }
        if CLASSES.contains(&class) {
            x[N_LINES + class - 3] += 1.0;
        }
    }
    x
}

fn hand_set() -> [f64; N] {
    let mut w = [0.0; N];
    for p in LINES {
        w[p - 1] = LINE_VALUE[p];
    }
    for c in CLASSES {
        w[N_LINES + c - 3] = CLASS_BONUS[c];
    }
    w[N - 1] = TEMPO;
    w
}

/// The evaluation's features: `ratio` times the mover's counts minus the opponent's, and 1
/// for the tempo; with `ratio` 0, the mover's and the opponent's counts apart (separate
/// weights for each side).
fn features(s: &Sample, ratio: f64) -> Vec<f64> {
    if ratio == 0.0 {
        let mut x: Vec<f64> = s.me[..N - 1].to_vec();
        x.extend(s.opp[..N - 1].iter().map(|v| -v));
        x.push(1.0);
        return x;
    }
    let mut x: Vec<f64> = s.me[..N - 1].iter().zip(&s.opp).map(|(m, o)| ratio * m - o).collect();
    x.push(1.0);
    x
}

/// The fixed part of the evaluation the fit does not touch (zero on quiet samples).
fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

/// Mean cross-entropy over the samples selected by `holdout`.
fn loss(samples: &[Sample], w: &[f64], ratio: f64, k: f64, holdout: bool) -> f64 {
    let mut sum = 0.0;
    let mut n = 0.0;
    for s in samples.iter().filter(|s| s.holdout == holdout) {
        let p = sigmoid(dot(w, &features(s, ratio)) / k).clamp(1e-9, 1.0 - 1e-9);
        sum -= s.y * p.ln() + (1.0 - s.y) * (1.0 - p).ln();
        n += 1.0;
    }
    sum / n
}

/// The rule the games were played under: the environment's `RULE` (freestyle, standard or
/// renju), freestyle by default.
fn rule() -> Rule {
    match std::env::var("RULE") {
        Ok(r) => r.parse().expect("RULE is freestyle, standard or renju"),
        Err(_) => Rule::Freestyle,
    }
}

fn read_games(dirs: &[String]) -> Vec<Sample> {
    let rule = rule();
    let mut samples = Vec::new();
    let mut game = 0usize;
    let (mut wins, mut draws) = (0usize, 0usize);
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(Path::new(dir))
            .expect("readable directory")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "psq"))
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("readable file");
            let rec = match read_psq(&text) {
                Ok(rec) => rec,
                Err(e) => {
                    eprintln!("skipped {}: {e}", f.display());
                    continue;
                }
            };
            let moves: Vec<_> = rec.moves.iter().map(|m| m.0).collect();
            let pos = match Position::from_moves(rec.size, rule, &moves) {
                Ok(pos) => pos,
                Err(e) => {
                    eprintln!("skipped {}: {e}", f.display());
                    continue;
                }
            };
            // The winner is the side that made the last move, if it made five.
            let winner = pos.winner().map(|_| (moves.len() - 1) % 2);
            match winner {
                Some(_) => wins += 1,
                None => draws += 1,
            }
            let holdout = game % 10 == 9;
            game += 1;
            let mut b = Board::new(rec.size, rule);
            for (ply, &p) in moves.iter().enumerate() {
                if ply >= 6 {
                    let me = b.side();
                    let quiet =
                        (0..2).all(|c| b.count(c, p4::A_FIVE) == 0 && b.count(c, p4::B_FLEX4) == 0);
                    if quiet {
                        let y = match winner {
                            Some(w) if w == me => 1.0,
                            Some(_) => 0.0,
                            None => 0.5,
                        };
                        samples.push(Sample {
                            me: counts(&b, me),
                            opp: counts(&b, me ^ 1),
                            me_sets: table::set_counts(&b, me),
                            opp_sets: table::set_counts(&b, me ^ 1),
                            table: eval::table_evaluate(&b) as f64,
                            full: eval::evaluate(&b) as f64,
                            y,
                            holdout,
                        });
                    }
                }
                b.make(b.index(p));
            }
        }
    }
    eprintln!("{game} games ({wins} won, {draws} drawn), {} quiet samples", samples.len());
    samples
}

/// Solves `a x = b` (small, dense, symmetric positive definite) by Gaussian elimination.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap();
        a.swap(col, piv);
        b.swap(col, piv);
        let (top, rest) = a.split_at_mut(col + 1);
        let pivot = &top[col];
        for (off, row) in rest.iter_mut().enumerate() {
            let f = row[col] / pivot[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot[col..]) {
                *x -= f * p;
            }
            b[col + 1 + off] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    x
}

/// Newton steps on the training samples, ridge `lambda` towards `prior`; weights that come
/// out negative are fixed at zero and the rest fitted again (cell values cannot be negative),
/// the tempo excepted.
fn fit(samples: &[Sample], ratio: f64, k: f64, prior: &[f64], lambda: f64) -> Vec<f64> {
    let m = prior.len();
    let mut fixed = vec![false; m];
    loop {
        let w = fit_free(samples, ratio, k, prior, lambda, &fixed);
        let neg: Vec<usize> = (0..m - 1).filter(|&i| !fixed[i] && w[i] < 0.0).collect();
        if neg.is_empty() {
            return w;
        }
        // Fix the most negative one and go again.
        let worst = *neg.iter().min_by(|&&a, &&b| w[a].total_cmp(&w[b])).unwrap();
        fixed[worst] = true;
    }
}

fn fit_free(
    samples: &[Sample],
    ratio: f64,
    k: f64,
    prior: &[f64],
    lambda: f64,
    fixed: &[bool],
) -> Vec<f64> {
    let m = prior.len();
    let mut w = prior.to_vec();
    for i in 0..m {
        if fixed[i] {
            w[i] = 0.0;
        }
    }
    let n = samples.iter().filter(|s| !s.holdout).count() as f64;
    for _ in 0..12 {
        let mut g = vec![0.0; m];
        let mut h = vec![vec![0.0; m]; m];
        for s in samples.iter().filter(|s| !s.holdout) {
            let x = features(s, ratio);
            let p = sigmoid(dot(&w, &x) / k);
            let r = (p - s.y) / k;
            let q = p * (1.0 - p) / (k * k);
            for i in 0..m {
                g[i] += r * x[i] / n;
                for j in 0..m {
                    h[i][j] += q * x[i] * x[j] / n;
                }
            }
        }
        for i in 0..m {
            g[i] += lambda * (w[i] - prior[i]);
            h[i][i] += lambda;
            if fixed[i] {
                g[i] = 0.0;
                h[i].fill(0.0);
                for row in h.iter_mut() {
                    row[i] = 0.0;
                }
                h[i][i] = 1.0;
            }
        }
        let step = solve(h, g);
        // Backtracking: halve the step until the penalised training loss does not rise.
        let objective = |w: &[f64]| {
            let ridge: f64 = (0..m).map(|i| (w[i] - prior[i]).powi(2)).sum::<f64>() * lambda / 2.0;
            loss(samples, w, ratio, k, false) + ridge
        };
        let before = objective(&w);
        let mut t = 1.0;
        loop {
            let trial: Vec<f64> = (0..m).map(|i| w[i] - t * step[i]).collect();
            if objective(&trial) <= before || t < 1e-4 {
                w = trial;
                break;
            }
            t /= 2.0;
        }
    }
    w
}

/// A full table in eval.rs's units (quarters): the 12 line patterns, then the 14 classes,
/// with the fitted entries of `w` and the hand-set entries times `fixed` elsewhere.
fn table(w: &[f64], fixed: f64) -> String {
    let mut t: Vec<i64> = LINE_VALUE
        .iter()
        .chain(CLASS_BONUS.iter())
        .map(|v| (v * fixed * 4.0).round() as i64)
        .collect();
    for p in LINES {
        t[p] = (w[p - 1] * 4.0).round() as i64;
    }
    for c in CLASSES {
        t[12 + c] = (w[N_LINES + c - 3] * 4.0).round() as i64;
    }
    t.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(",")
}

mod nn;

/// The scale `K` in `range` (in steps of 10) whose training loss `loss(K)` is lowest, as
/// (loss, K).
fn best_scale(range: std::ops::RangeInclusive<u32>, loss: impl Fn(f64) -> f64) -> (f64, f64) {
    range.step_by(10).map(|k| (loss(k as f64), k as f64)).fold((f64::MAX, 0.0), |best, x| {
        if x.0 < best.0 {
            x
        } else {
            best
        }
    })
}

fn main() {
    let mut dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.first().is_some_and(|a| a == "nn") {
        dirs.remove(0);
        let samples = read_games(&dirs);
        nn::fit(&samples);
        return;
    }
    if dirs.first().is_some_and(|a| a == "table") {
        dirs.remove(0);
        let samples = read_games(&dirs);
        table::fit(&samples);
        return;
    }
    let samples = read_games(&dirs);
    let w0 = hand_set();
    // The scale of the hand-set weights.
    let best = best_scale(20..=3000, |k| loss(&samples, &w0, 1.25, k, false));
    let k = best.1;
    println!(
        "K = {k}: hand-set weights, train {:.5}, holdout {:.5}",
        best.0,
        loss(&samples, &w0, 1.25, k, true)
    );
    let lambda: f64 = std::env::var("LAMBDA").ok().and_then(|v| v.parse().ok()).unwrap_or(1e-6);
    {
        // Separate weights for the mover's cells and the opponent's.
        let mut prior: Vec<f64> = w0[..N - 1].iter().map(|v| v * 1.25).collect();
        prior.extend_from_slice(&w0[..N - 1]);
        prior.push(w0[N - 1]);
        let w = fit(&samples, 0.0, k, &prior, lambda);
        let r = |v: &[f64]| v.iter().map(|v| v.round() as i64).collect::<Vec<_>>();
        println!(
            "split: train {:.5}, holdout {:.5}\n  mover {:?}\n  other {:?}\n  tempo {:.1}",
            loss(&samples, &w, 0.0, k, false),
            loss(&samples, &w, 0.0, k, true),
            r(&w[..N - 1]),
            r(&w[N - 1..2 * N - 2]),
            w[2 * N - 2]
        );
        println!(
            "  MOVER lines+classes [{}]  OTHER [{}]  TEMPO {}",
            table(&w[..N - 1], 1.25),
            table(&w[N - 1..2 * N - 2], 1.0),
            w[2 * N - 2].round()
        );
    }
    for ratio in [1.0, 1.1, 1.25, 1.4] {
        println!(
            "ratio {ratio}, hand-set weights: holdout {:.5}",
            loss(&samples, &w0, ratio, k, true)
        );
        let w = fit(&samples, ratio, k, &w0, lambda);
        println!(
            "ratio {ratio}: train {:.5}, holdout {:.5}\n  lines {:?}\n  classes {:?}\n  tempo {:.1}",
            loss(&samples, &w, ratio, k, false),
            loss(&samples, &w, ratio, k, true),
            w[..N_LINES].iter().map(|v| v.round() as i64).collect::<Vec<_>>(),
            w[N_LINES..N - 1].iter().map(|v| v.round() as i64).collect::<Vec<_>>(),
            w[N - 1]
        );
        let mover: Vec<f64> = w[..N - 1].iter().map(|v| v * ratio).collect();
        println!(
            "  MOVER lines+classes [{}]  OTHER [{}]  TEMPO {}",
            table(&mover, ratio),
            table(&w[..N - 1], 1.0),
            w[N - 1].round()
        );
    }
}

/// The table fit (`fit_gomoku_eval table DIR...`): one value per set of four line patterns
/// (the cell's patterns in its four directions, in any order), for the side to move and for
/// the other side, fitted to the games' results from the evaluation in force as the prior.
/// It prints the losses and writes the table as Rust source to the file `OUT` names
/// (default `eval_sets.rs`).
mod table {
    use super::Sample;
    use std::sync::OnceLock;
    use tengen_engine::ai::gomoku::master::board::Board;
    use tengen_engine::ai::gomoku::master::eval::{cell_value, set_id, SETS};
    use tengen_engine::ai::gomoku::master::pattern::{combine, p4};

    /// The empty cells of colour `c` by their pattern set (the all-dead set left out: it is
    /// worth nothing), as (set, count) pairs.
    pub fn set_counts(b: &Board, c: usize) -> Vec<(u16, u16)> {
        let mut n = vec![0u16; SETS];
        for &i in b.board_cells() {
            if !b.is_empty(i) || b.class(i, c) == p4::FORBID {
                continue;
            }
            let pats = [b.pat(i, c, 0), b.pat(i, c, 1), b.pat(i, c, 2), b.pat(i, c, 3)];
            n[set_id(&pats) as usize] += 1;
        }
        n[0] = 0;
        n.iter().enumerate().filter(|(_, &k)| k > 0).map(|(id, &k)| (id as u16, k)).collect()
    }

    /// The four patterns of each set.
    fn members() -> &'static Vec<[u8; 4]> {
        static M: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
        M.get_or_init(|| {
            let mut m = vec![[0u8; 4]; SETS];
            for a in 0..12u8 {
                for b in a..12 {
                    for c in b..12 {
                        for d in c..12 {
                            let p = [a, b, c, d];
                            m[set_id(&p) as usize] = p;
                        }
                    }
                }
            }
            m
        })
    }

    const TEMPO: usize = 2 * SETS;

    /// The evaluation of a sample with weights `w` (quarters; the tempo in units).
    fn eval(w: &[f64], s: &Sample) -> f64 {
        let me: f64 = s.me_sets.iter().map(|&(id, k)| w[id as usize] * k as f64).sum();
        let opp: f64 = s.opp_sets.iter().map(|&(id, k)| w[SETS + id as usize] * k as f64).sum();
        (me - opp) / 4.0 + w[TEMPO]
    }

    fn sigmoid(v: f64) -> f64 {
        1.0 / (1.0 + (-v).exp())
    }

    fn loss(samples: &[Sample], w: &[f64], k: f64, holdout: bool) -> f64 {
        let (mut sum, mut n) = (0.0, 0.0);
        for s in samples.iter().filter(|s| s.holdout == holdout) {
            let p = sigmoid(eval(w, s) / k).clamp(1e-9, 1.0 - 1e-9);
            sum -= s.y * p.ln() + (1.0 - s.y) * (1.0 - p).ln();
            n += 1.0;
        }
        sum / n
    }

    /// Full-batch Adam on the training samples, a ridge of `lambda` (per squared quarter)
    /// towards `prior`; only the sets seen `min_seen` times or more move; cell values stay
    /// at or above zero.
    fn adam(samples: &[Sample], prior: &[f64], k: f64, lambda: f64, free: &[bool]) -> Vec<f64> {
        let m = prior.len();
        let mut w = prior.to_vec();
        let (mut m1, mut m2) = (vec![0.0; m], vec![0.0; m]);
        let train: Vec<&Sample> = samples.iter().filter(|s| !s.holdout).collect();
        let n = train.len() as f64;
        let (b1, b2, lr) = (0.9f64, 0.999f64, 4.0);
        for t in 1..=600 {
            let mut g = vec![0.0; m];
            for s in &train {
                let p = sigmoid(eval(&w, s) / k);
                let r = (p - s.y) / k / n;
                for &(id, c) in &s.me_sets {
                    g[id as usize] += r * c as f64 / 4.0;
                }
                for &(id, c) in &s.opp_sets {
                    g[SETS + id as usize] -= r * c as f64 / 4.0;
                }
                g[TEMPO] += r;
            }
            for i in 0..m {
                if !free[i] {
                    continue;
                }
                let gi = g[i] + lambda * (w[i] - prior[i]);
                m1[i] = b1 * m1[i] + (1.0 - b1) * gi;
                m2[i] = b2 * m2[i] + (1.0 - b2) * gi * gi;
                let mh = m1[i] / (1.0 - b1.powi(t));
                let vh = m2[i] / (1.0 - b2.powi(t));
                w[i] -= lr * mh / (vh.sqrt() + 1e-12);
                if i != TEMPO && w[i] < 0.0 {
                    w[i] = 0.0;
                }
            }
        }
        w
    }

    pub fn fit(samples: &[Sample]) {
        let sets = members();
        let mut prior = vec![0.0; 2 * SETS + 1];
        for (id, pats) in sets.iter().enumerate() {
            let v = cell_value(pats, combine(*pats, false));
            prior[id] = v.mover as f64;
            prior[SETS + id] = v.other as f64;
        }
        prior[0] = 0.0;
        prior[SETS] = 0.0;
        prior[TEMPO] = tengen_engine::ai::gomoku::master::eval::TEMPO as f64;
        // The scale that best fits the evaluation in force.
        let best = super::best_scale(100..=2000, |k| loss(samples, &prior, k, false));
        let k = best.1;
        println!(
            "table fit: K = {k}; in force: train {:.5}, holdout {:.5}",
            best.0,
            loss(samples, &prior, k, true)
        );
        let min_seen: usize =
            std::env::var("MIN_SEEN").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
        let mut seen = vec![0usize; 2 * SETS + 1];
        for s in samples.iter().filter(|s| !s.holdout) {
            for &(id, _) in &s.me_sets {
                seen[id as usize] += 1;
            }
            for &(id, _) in &s.opp_sets {
                seen[SETS + id as usize] += 1;
            }
        }
        let mut free: Vec<bool> = seen.iter().map(|&n| n >= min_seen).collect();
        free[0] = false;
        free[SETS] = false;
        free[TEMPO] = true;
        // Sets whose class makes the position non-quiet (five and open-four points) never
        // appear in the samples: they keep the values in force.
        for (id, pats) in sets.iter().enumerate() {
            let c = combine(*pats, false);
            if c == p4::A_FIVE || c == p4::B_FLEX4 {
                free[id] = false;
                free[SETS + id] = false;
            }
        }
        println!(
            "{} of {} weights free (seen in {min_seen}+ training samples)",
            free.iter().filter(|&&f| f).count(),
            free.len()
        );
        let lambdas: Vec<f64> = std::env::var("LAMBDAS")
            .ok()
            .map(|v| v.split(',').filter_map(|x| x.parse().ok()).collect())
            .unwrap_or_else(|| vec![1e-7, 1e-8, 1e-9]);
        let mut chosen: Option<(f64, Vec<f64>)> = None;
        for lambda in lambdas {
            let w = adam(samples, &prior, k, lambda, &free);
            let (tr, ho) = (loss(samples, &w, k, false), loss(samples, &w, k, true));
            println!("lambda {lambda:e}: train {tr:.5}, holdout {ho:.5}, tempo {:.1}", w[TEMPO]);
            if chosen.as_ref().is_none_or(|c| ho < c.0) {
                chosen = Some((ho, w));
            }
        }
        let (ho, w) = chosen.expect("at least one lambda");
        let out = std::env::var("OUT").unwrap_or_else(|_| "eval_sets.rs".into());
        let mut text = String::new();
        text.push_str(&format!(
            "// Written by `fit_gomoku_eval table` (engine/examples/fit_gomoku_eval/main.rs): holdout\n\
             // cross-entropy {ho:.5} at K = {k}. Per line-pattern set: [side to move, other side],\n\
             // in quarters of an evaluation unit.\n"
        ));
        text.push_str(&format!("pub const TEMPO: i32 = {};\n", w[TEMPO].round() as i64));
        text.push_str(&format!("pub const SET_VALUES: [[u16; 2]; {SETS}] = [\n"));
        for id in 0..SETS {
            let q = |x: f64| x.round().clamp(0.0, 16383.0) as u16;
            text.push_str(&format!("    [{}, {}],\n", q(w[id]), q(w[SETS + id])));
        }
        text.push_str("];\n");
        std::fs::write(&out, text).expect("writable OUT");
        println!("wrote {out}");
    }
}

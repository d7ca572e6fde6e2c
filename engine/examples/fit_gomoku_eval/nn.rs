//! The network fit (`fit_gomoku_eval nn DIR...`): the weights of the correction the network
//! adds to the table evaluation (`engine/src/ai/gomoku/master/nnue.rs`), trained on the same
//! quiet samples as the table, with the table in force held fixed.
//!
//! Each colour's empty cells are summed into an accumulator of `D` numbers (one learned vector
//! per line-pattern set); the side to move's and the opponent's go through a clipped ReLU, one
//! hidden layer of `H` clipped ReLUs and one output, `SCALE` units of evaluation each. The loss
//! is the cross-entropy of the game's result against the win chance of the table plus the
//! correction (at the scale `K` that best fits the table), plus `REG` times the squared
//! correction (in `SCALE` units), which keeps the correction small where the data say little.
//! Minibatch Adam (`LR`, weight decay `WD`, batches of `BATCH`) for `EPOCHS` epochs from a fixed
//! seed; the epoch with the best holdout loss is written as Rust source to `OUT` (default
//! `nn_weights.rs`). Environment: `RULE` (the games' rule: freestyle, standard or renju;
//! freestyle), `D` (8), `H` (16), `EPOCHS` (10), `LR` (1e-3), `WD` (1e-4), `BATCH` (256),
//! `REG` (0.003).

use super::Sample;
use tengen_engine::ai::gomoku::master::eval::SETS;

/// Evaluation units per unit of the network's output.
const SCALE: f32 = 100.0;
/// The engine's accumulator scale (1/`Q` units), and the bound on the set vectors' entries.
const Q: f32 = 256.0;
const EMB_MAX: f32 = 0.56;

fn env<T: std::str::FromStr>(k: &str, d: T) -> T {
    std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d)
}

#[derive(Clone)]
struct Net {
    d: usize,
    h: usize,
    emb: Vec<f32>, // SETS * d
    b0: Vec<f32>,  // d
    w1: Vec<f32>,  // h * 2d
    b1: Vec<f32>,  // h
    w2: Vec<f32>,  // h
    b2: f32,
}

impl Net {
    fn params(&mut self) -> Vec<&mut [f32]> {
        vec![
            &mut self.emb,
            &mut self.b0,
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            std::slice::from_mut(&mut self.b2),
        ]
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn uniform(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

struct Fwd {
    a: [Vec<f32>; 2],
    z1: Vec<f32>,
    h1: Vec<f32>,
    out: f32,
}

fn forward(n: &Net, s: &Sample) -> Fwd {
    let d = n.d;
    let mut a = [n.b0.clone(), n.b0.clone()];
    for (side, list) in [&s.me_sets, &s.opp_sets].into_iter().enumerate() {
        for &(id, k) in list {
            let e = &n.emb[id as usize * d..(id as usize + 1) * d];
            for (x, w) in a[side].iter_mut().zip(e) {
                *x += k as f32 * w;
            }
        }
    }
    let x: Vec<f32> = a[0].iter().chain(&a[1]).map(|v| v.clamp(0.0, 1.0)).collect();
    let mut z1 = n.b1.clone();
    for (j, z) in z1.iter_mut().enumerate() {
        *z += n.w1[j * 2 * d..(j + 1) * 2 * d].iter().zip(&x).map(|(w, v)| w * v).sum::<f32>();
    }
    let h1: Vec<f32> = z1.iter().map(|v| v.clamp(0.0, 1.0)).collect();
    let out = n.b2 + n.w2.iter().zip(&h1).map(|(w, v)| w * v).sum::<f32>();
    Fwd { a, z1, h1, out }
}

fn sigmoid(v: f32) -> f32 {
    1.0 / (1.0 + (-v).exp())
}

fn ce(p: f32, y: f32) -> f32 {
    let p = p.clamp(1e-7, 1.0 - 1e-7);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

fn loss(n: &Net, samples: &[&Sample], k: f32) -> f32 {
    let mut sum = 0.0f64;
    for s in samples {
        let f = forward(n, s);
        sum += ce(sigmoid((s.table as f32 + SCALE * f.out) / k), s.y as f32) as f64;
    }
    (sum / samples.len() as f64) as f32
}

fn grad(n: &Net, s: &Sample, k: f32, reg: f32, g: &mut Net) {
    let d = n.d;
    let f = forward(n, s);
    let p = sigmoid((s.table as f32 + SCALE * f.out) / k);
    // Cross-entropy, plus `reg` times the squared correction (in units of SCALE).
    let dout = (p - s.y as f32) / k * SCALE + 2.0 * reg * f.out;
    g.b2 += dout;
    let x: Vec<f32> = f.a[0].iter().chain(&f.a[1]).map(|v| v.clamp(0.0, 1.0)).collect();
    let mut dx = vec![0.0f32; 2 * d];
    for j in 0..n.h {
        g.w2[j] += dout * f.h1[j];
        if f.z1[j] <= 0.0 || f.z1[j] >= 1.0 {
            continue;
        }
        let dz = dout * n.w2[j];
        g.b1[j] += dz;
        let row = &n.w1[j * 2 * d..(j + 1) * 2 * d];
        let grow = &mut g.w1[j * 2 * d..(j + 1) * 2 * d];
        for ((gw, xi), (dxi, w)) in grow.iter_mut().zip(&x).zip(dx.iter_mut().zip(row)) {
            *gw += dz * xi;
            *dxi += dz * w;
        }
    }
    for side in 0..2 {
        let list = if side == 0 { &s.me_sets } else { &s.opp_sets };
        // Through the clipped ReLU: only the accumulator entries inside (0, 1) pass.
        let da: Vec<f32> = f.a[side]
            .iter()
            .zip(&dx[side * d..(side + 1) * d])
            .map(|(&a, &g)| if a > 0.0 && a < 1.0 { g } else { 0.0 })
            .collect();
        for (b, v) in g.b0.iter_mut().zip(&da) {
            *b += v;
        }
        for &(id, c) in list {
            let ge = &mut g.emb[id as usize * d..(id as usize + 1) * d];
            for (e, v) in ge.iter_mut().zip(&da) {
                *e += c as f32 * v;
            }
        }
    }
}

pub fn fit(samples: &[Sample]) {
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.holdout).collect();
    let hold: Vec<&Sample> = samples.iter().filter(|s| s.holdout).collect();
    // The scale of the table evaluation.
    let table_loss = |k: f32, set: &[&Sample]| {
        set.iter().map(|s| ce(sigmoid(s.table as f32 / k), s.y as f32) as f64).sum::<f64>()
            / set.len() as f64
    };
    let best = super::best_scale(100..=2000, |k| table_loss(k as f32, &train));
    let k = best.1 as f32;
    println!(
        "K = {k}; table: train {:.5}, holdout {:.5}; {} train, {} holdout",
        best.0,
        table_loss(k, &hold),
        train.len(),
        hold.len()
    );
    println!(
        "compiled-in network: holdout {:.5}",
        hold.iter().map(|s| ce(sigmoid(s.full as f32 / k), s.y as f32) as f64).sum::<f64>()
            / hold.len() as f64
    );
    {
        let n = hold.len() as f64;
        let mad = hold.iter().map(|s| (s.full - s.table).abs()).sum::<f64>() / n;
        let sd = (hold.iter().map(|s| s.table.powi(2)).sum::<f64>() / n).sqrt();
        println!("compiled-in correction: mean |c| {mad:.1}; table eval rms {sd:.1}");
    }
    let d: usize = env("D", 8);
    let h: usize = env("H", 16);
    let epochs: usize = env("EPOCHS", 10);
    let lr: f32 = env("LR", 1e-3);
    let wd: f32 = env("WD", 1e-4);
    let batch: usize = env("BATCH", 256);
    let reg: f32 = env("REG", 0.003);
    let mut rng = Rng(0x9E3779B97F4A7C15);
    let mut net = Net {
        d,
        h,
        emb: (0..SETS * d).map(|_| (rng.uniform() - 0.5) * 0.02).collect(),
        b0: vec![0.3; d],
        w1: (0..h * 2 * d).map(|_| (rng.uniform() - 0.5) * 2.0 / (2.0 * d as f32).sqrt()).collect(),
        b1: vec![0.3; h],
        w2: (0..h).map(|_| (rng.uniform() - 0.5) * 0.02).collect(),
        b2: 0.0,
    };
    for i in 0..d {
        net.emb[i] = 0.0; // set 0 (all dead) is never counted
    }
    let zero = |n: &Net| {
        let mut z = n.clone();
        for p in z.params() {
            p.fill(0.0);
        }
        z
    };
    let mut m1 = zero(&net);
    let mut m2 = zero(&net);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut best_net = (loss(&net, &hold, k), net.clone());
    println!("start: holdout {:.5}", best_net.0);
    let mut t = 0i32;
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for chunk in order.chunks(batch) {
            let mut g = zero(&net);
            for &i in chunk {
                grad(&net, train[i], k, reg, &mut g);
            }
            t += 1;
            let (b1, b2) = (0.9f32, 0.999f32);
            let bs = chunk.len() as f32;
            let mut pn = net.params();
            let mut pg = g.params();
            let mut pm1 = m1.params();
            let mut pm2 = m2.params();
            for q in 0..pn.len() {
                for i in 0..pn[q].len() {
                    let gi = pg[q][i] / bs + wd * pn[q][i];
                    pm1[q][i] = b1 * pm1[q][i] + (1.0 - b1) * gi;
                    pm2[q][i] = b2 * pm2[q][i] + (1.0 - b2) * gi * gi;
                    let mh = pm1[q][i] / (1.0 - b1.powi(t));
                    let vh = pm2[q][i] / (1.0 - b2.powi(t));
                    pn[q][i] -= lr * mh / (vh.sqrt() + 1e-8);
                }
                pg[q].fill(0.0);
            }
            drop(pn);
            net.emb[..d].fill(0.0);
            // Bounded, so that the engine's 16-bit vectors hold them.
            for e in net.emb.iter_mut() {
                *e = e.clamp(-EMB_MAX, EMB_MAX);
            }
        }
        let (tr, ho) = (loss(&net, &train, k), loss(&net, &hold, k));
        let mad = hold.iter().map(|s| forward(&net, s).out.abs()).sum::<f32>() / hold.len() as f32;
        println!(
            "epoch {epoch}: train {tr:.5}, holdout {ho:.5}, mean |correction| {:.1}",
            mad * SCALE
        );
        if ho < best_net.0 {
            best_net = (ho, net.clone());
        }
    }
    let (ho, n) = best_net;
    let out = std::env::var("OUT").unwrap_or_else(|_| "nn_weights.rs".into());
    let q = Q;
    let mut text = format!(
        "// Written by `fit_gomoku_eval nn` (engine/examples/fit_gomoku_eval/nn.rs): holdout\n\
         // cross-entropy {ho:.5} at K = {k} (the table alone {:.5}). Set vectors and first\n\
         // biases in 1/NN_Q units, the layers after them in floats.\n",
        table_loss(k, &hold)
    );
    text.push_str(&format!("pub const NN_D: usize = {d};\npub const NN_H: usize = {h};\n"));
    text.push_str(&format!("pub const NN_SCALE: f32 = {SCALE:?};\npub const NN_Q: i32 = {q};\n"));
    // Rows of `width` numbers, one per line.
    let rows = |v: Vec<String>, width: usize| {
        v.chunks(width).map(|r| format!("    {},\n", r.join(", "))).collect::<String>()
    };
    let ints = |v: &[f32]| {
        v.iter().map(|x| ((x * q).round() as i32).clamp(-32767, 32767).to_string()).collect()
    };
    let floats = |v: &[f32]| v.iter().map(|x| format!("{x:?}")).collect();
    text.push_str(&format!(
        "pub static NN_EMB: [i16; {}] = [\n{}];\n",
        SETS * d,
        rows(ints(&n.emb), d)
    ));
    text.push_str(&format!("pub const NN_B0: [i32; {d}] = [\n{}];\n", rows(ints(&n.b0), d)));
    text.push_str(&format!(
        "pub static NN_W1: [f32; {}] = [\n{}];\n",
        h * 2 * d,
        rows(floats(&n.w1), 2 * d)
    ));
    text.push_str(&format!("pub const NN_B1: [f32; {h}] = [\n{}];\n", rows(floats(&n.b1), h)));
    text.push_str(&format!("pub const NN_W2: [f32; {h}] = [\n{}];\n", rows(floats(&n.w2), h)));
    text.push_str(&format!("pub const NN_B2: f32 = {:?};\n", n.b2));
    std::fs::write(&out, text).expect("writable OUT");
    println!("wrote {out}");
}

//! Fits the Reversi pattern evaluation (`engine/src/ai/reversi/eval/weights.bin`) and
//! measures it against seed 003's evaluation.
//!
//! The shipped weights were made with these steps (about 25 minutes on the shared 2-core
//! machine, most of it step 1):
//! ```text
//! EX=target/release/examples/fit_reversi_eval
//! cargo build --release -p tengen-engine --example fit_reversi_eval
//! # 1. positions from games: 2-10 random opening moves, then a 2-ply PVS on seed 003's
//! #    eval with 8% random moves; at 12 empties the game is solved exactly and finished
//! #    perfectly; every position is labelled with that exact final margin (side to move).
//! #    (The shipped data: 7,500 games, 448,703 positions.)
//! nice $EX gen /tmp/rv1.bin 7500 1 12
//! # 2. ridge least squares (conjugate gradient, mirror-image entries tied), 8 stages, on
//! #    the game results.
//! LAMBDA=200 nice $EX fit /tmp/w_l200.bin /tmp/rv1.bin
//! # 3. temporal-difference rounds: targets = the previous fit's value of the position
//! #    TD_K moves later in the same game (the exact label once in the solved part).
//! TD_WEIGHTS=/tmp/w_l200.bin LAMBDA=30 nice $EX fit /tmp/w_td1.bin /tmp/rv1.bin
//! TD_WEIGHTS=/tmp/w_td1.bin LAMBDA=30 nice $EX fit /tmp/w_td2.bin /tmp/rv1.bin
//! TD_K=4 TD_WEIGHTS=/tmp/w_td2.bin LAMBDA=30 nice $EX fit /tmp/w_td3.bin /tmp/rv1.bin
//! cp /tmp/w_td3.bin engine/src/ai/reversi/eval/weights.bin
//! # 4. equal-depth match: PVS with the fitted weights against PVS with seed 003's eval.
//! nice $EX match 4 160 [weights.bin]
//! # 5. level-against-level games (4-ply openings, colours alternated), with move times.
//! nice $EX arena classic greedy 40 1000
//! ```
//! `fit` prints the hold-out error per stage (every 10th game held out) next to the best
//! per-stage linear fit of seed 003's evaluation. Everything is seeded and deterministic.

use std::io::Write;
use std::time::Instant;

use tengen_engine::ai::control::Control;
use tengen_engine::ai::reversi::board::{squares, Board};
use tengen_engine::ai::reversi::eval::pattern::{stage, Layout, N_SCALARS, N_STAGES};
use tengen_engine::ai::reversi::eval::seed::seed_eval;
use tengen_engine::ai::reversi::eval::weights::Weights;
use tengen_engine::ai::reversi::eval::{Evaluator, PatternEval, SeedEval};
use tengen_engine::ai::reversi::new_engine;
use tengen_engine::ai::reversi::search::pvs::{Searcher, INF};
use tengen_engine::ai::reversi::search::PvsEngine;
use tengen_engine::ai::{CancelFlag, Limits, ReversiLevel, SearchInfo};
use tengen_engine::reversi::Position;
use tengen_engine::rng::Rng;
use tengen_engine::{Color, Move};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("gen") => gen(&args[1..]),
        Some("fit") => fit(&args[1..]),
        Some("match") => play_match(&args[1..]),
        Some("arena") => arena(&args[1..]),
        _ => Err("usage: fit_reversi_eval gen OUT GAMES SEED [SOLVE_EMPTIES] [PLAYER_WEIGHTS] | fit OUT DATA... | match DEPTH GAMES [WEIGHTS] | arena LEVEL_A LEVEL_B GAMES TIME_MS".into()),
    };
    if let Err(e) = r {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, what: &str) -> Res<T> {
    args.get(i)
        .ok_or_else(|| format!("missing {what}"))?
        .parse()
        .map_err(|_| format!("bad {what}").into())
}

fn quiet_control<'a>(cancel: &'a CancelFlag, sink: &'a mut dyn FnMut(&SearchInfo)) -> Control<'a> {
    Control::fixed(&Limits::default(), cancel, sink)
}

fn load_weights(path: &str) -> Res<&'static Weights> {
    let bytes = std::fs::read(path)?;
    Ok(Box::leak(Box::new(Weights::from_bytes(&bytes)?)))
}

/// Best move of `b` by a `depth`-ply PVS with `eval`.
fn pick<E: Evaluator>(s: &mut Searcher<E>, b: &Board, depth: u32) -> u8 {
    let cancel = CancelFlag::new();
    let mut sink = |_: &SearchInfo| {};
    let mut ctrl = quiet_control(&cancel, &mut sink);
    let order: Vec<u8> = squares(b.moves()).collect();
    let mut best = order[0];
    for d in 1..=depth {
        if let Some(r) = s.root(b, &order, d, &mut ctrl) {
            best = r.best;
        }
    }
    best
}

// ---------------------------------------------------------------- data generation

fn gen(args: &[String]) -> Res<()> {
    let out: String = arg(args, 0, "output file")?;
    let games: usize = arg(args, 1, "number of games")?;
    let seed: u64 = arg(args, 2, "seed")?;
    let solve_at: u32 = args.get(3).map(|s| s.parse()).transpose()?.unwrap_or(12);
    let player_weights = args.get(4).map(|p| load_weights(p)).transpose()?;
    let mut rng = Rng::new(seed);
    let mut seed_player = Searcher::new(SeedEval, 16);
    let mut pattern_player =
        player_weights.map(|w| Searcher::new(PatternEval::with_weights(w), 18));
    let mut solver =
        Searcher::new(PatternEval::with_weights(Box::leak(Box::new(Weights::zero()))), 20);
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out)?);
    let start = Instant::now();
    let mut count = 0usize;
    for g in 0..games {
        // (board, side flag) of every position with a move to make.
        let mut record: Vec<(Board, bool)> = Vec::new();
        let mut b = Board::initial();
        let mut side = false;
        let random_plies = 2 + rng.below(9) as usize;
        let mut ply = 0;
        loop {
            if b.empties() <= solve_at {
                break;
            }
            let m = b.moves();
            if m == 0 {
                if b.opponent_moves() == 0 {
                    break;
                }
                b = b.pass();
                side = !side;
                continue;
            }
            record.push((b, side));
            let list: Vec<u8> = squares(m).collect();
            let sq = if ply < random_plies || rng.below(100) < 8 {
                list[rng.below(list.len() as u64) as usize]
            } else if let Some(p) = pattern_player.as_mut() {
                pick(p, &b, 3)
            } else {
                pick(&mut seed_player, &b, 2)
            };
            b = b.play(sq);
            side = !side;
            ply += 1;
        }
        // Solve exactly and finish the game perfectly.
        let cancel = CancelFlag::new();
        let mut sink = |_: &SearchInfo| {};
        let mut ctrl = quiet_control(&cancel, &mut sink);
        let mut value_for_false: Option<i32> = None;
        loop {
            let m = b.moves();
            if m == 0 {
                if b.opponent_moves() == 0 {
                    let v = b.final_diff();
                    value_for_false.get_or_insert(if side { -v } else { v });
                    break;
                }
                b = b.pass();
                side = !side;
                continue;
            }
            let order: Vec<u8> = squares(m).collect();
            let r = solver.root(&b, &order, 60, &mut ctrl).ok_or("solver stopped")?;
            let v = r.value / 100;
            value_for_false.get_or_insert(if side { -v } else { v });
            record.push((b, side));
            b = b.play(r.best);
            side = !side;
        }
        let v = value_for_false.unwrap_or(0);
        for (pos, s) in &record {
            let label = if *s { -v } else { v };
            file.write_all(&pos.p.to_le_bytes())?;
            file.write_all(&pos.o.to_le_bytes())?;
            file.write_all(&[label as i8 as u8])?;
            count += 1;
        }
        if (g + 1) % 500 == 0 {
            eprintln!(
                "{} games, {} positions, {:.1}s",
                g + 1,
                count,
                start.elapsed().as_secs_f64()
            );
        }
    }
    file.flush()?;
    eprintln!("done: {games} games, {count} positions in {:.1}s", start.elapsed().as_secs_f64());
    Ok(())
}

// ---------------------------------------------------------------- fitting

struct Sample {
    board: Board,
    target: f32,
    game: usize,
}

fn read_samples(paths: &[String]) -> Res<Vec<Sample>> {
    let mut v = Vec::new();
    for p in paths {
        let bytes = std::fs::read(p)?;
        // A game's positions are consecutive with growing disc counts.
        let mut game = v.last().map_or(0, |s: &Sample| s.game + 1);
        let mut last_discs = 99;
        for c in bytes.chunks_exact(17) {
            let p = u64::from_le_bytes(c[0..8].try_into()?);
            let o = u64::from_le_bytes(c[8..16].try_into()?);
            let discs = (p | o).count_ones();
            if discs <= last_discs {
                game += 1;
            }
            last_discs = discs;
            v.push(Sample { board: Board { p, o }, target: c[16] as i8 as f32, game });
        }
    }
    Ok(v)
}

fn fit(args: &[String]) -> Res<()> {
    let out: String = arg(args, 0, "output file")?;
    let mut samples = read_samples(&args[1..])?;
    if let Ok(path) = std::env::var("TD_WEIGHTS") {
        let k: usize = std::env::var("TD_K").ok().and_then(|s| s.parse().ok()).unwrap_or(6);
        td_targets(&mut samples, PatternEval::with_weights(load_weights(&path)?), k);
    }
    let layout = Layout::get();
    let n_inst = layout.instances.len();
    let stage_len = layout.stage_len;
    let n_pat = stage_len - N_SCALARS;
    eprintln!("{} samples, {} instances, {} weights per stage", samples.len(), n_inst, stage_len);

    // Canonical parameter of every table entry.
    let mut canon = vec![0u32; n_pat];
    for t in 0..layout.offsets.len() {
        for i in 0..layout.sizes[t] {
            canon[layout.offsets[t] + i] = (layout.offsets[t] + layout.canonical(t, i)) as u32;
        }
    }
    // Hold out every 10th game.
    let is_test = |s: &Sample| s.game.is_multiple_of(10);
    let row = n_inst + N_SCALARS;
    let mut idx: Vec<u32> = Vec::with_capacity(samples.len() * row);
    let mut sval: Vec<f32> = Vec::with_capacity(samples.len() * N_SCALARS);
    let mut y: Vec<f32> = Vec::new();
    let mut test: Vec<&Sample> = Vec::new();
    let mut tmp = vec![0usize; n_inst];
    for s in &samples {
        if is_test(s) {
            test.push(s);
            continue;
        }
        let base = stage(s.board.empties()) * stage_len;
        layout.feature_indices(&s.board, &mut tmp);
        for &i in &tmp {
            idx.push((base + canon[i] as usize) as u32);
        }
        for (k, f) in Layout::scalars(&s.board).iter().enumerate() {
            idx.push((base + n_pat + k) as u32);
            sval.push(*f as f32);
        }
        y.push(s.target);
    }
    let n = y.len();
    let dim = N_STAGES * stage_len;
    let lambda: f32 = std::env::var("LAMBDA").ok().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let iters: usize = std::env::var("ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(120);
    eprintln!("{n} training samples, {} test, lambda {lambda}", test.len());

    // X v
    let xv = |v: &[f32], out: &mut [f32]| {
        for (r, o) in out.iter_mut().enumerate() {
            let ids = &idx[r * row..(r + 1) * row];
            let mut s = 0f32;
            for &i in &ids[..n_inst] {
                s += v[i as usize];
            }
            for k in 0..N_SCALARS {
                s += v[ids[n_inst + k] as usize] * sval[r * N_SCALARS + k];
            }
            *o = s;
        }
    };
    // X^T u
    let xtu = |u: &[f32], out: &mut [f32]| {
        out.iter_mut().for_each(|x| *x = 0.0);
        for (r, &ur) in u.iter().enumerate() {
            let ids = &idx[r * row..(r + 1) * row];
            for &i in &ids[..n_inst] {
                out[i as usize] += ur;
            }
            for k in 0..N_SCALARS {
                out[ids[n_inst + k] as usize] += ur * sval[r * N_SCALARS + k];
            }
        }
    };
    // Conjugate gradient on (X^T X + lambda I) w = X^T y.
    let mut w = vec![0f32; dim];
    let mut rvec = vec![0f32; dim];
    xtu(&y, &mut rvec);
    let mut p = rvec.clone();
    let mut rr: f64 = rvec.iter().map(|&x| (x as f64) * (x as f64)).sum();
    let mut tmp_n = vec![0f32; n];
    let mut ap = vec![0f32; dim];
    let t0 = Instant::now();
    for it in 0..iters {
        xv(&p, &mut tmp_n);
        xtu(&tmp_n, &mut ap);
        for (a, &pi) in ap.iter_mut().zip(&p) {
            *a += lambda * pi;
        }
        let pap: f64 = p.iter().zip(&ap).map(|(&a, &b)| a as f64 * b as f64).sum();
        if pap <= 0.0 {
            break;
        }
        let alpha = rr / pap;
        for i in 0..dim {
            w[i] += (alpha * p[i] as f64) as f32;
            rvec[i] -= (alpha * ap[i] as f64) as f32;
        }
        let rr_new: f64 = rvec.iter().map(|&x| (x as f64) * (x as f64)).sum();
        let beta = rr_new / rr;
        rr = rr_new;
        for i in 0..dim {
            p[i] = rvec[i] + (beta * p[i] as f64) as f32;
        }
        if it % 20 == 0 {
            xv(&w, &mut tmp_n);
            let mse: f64 =
                tmp_n.iter().zip(&y).map(|(&a, &b)| ((a - b) as f64).powi(2)).sum::<f64>()
                    / n as f64;
            eprintln!(
                "iter {it}: train rmse {:.3} discs ({:.1}s)",
                mse.sqrt(),
                t0.elapsed().as_secs_f64()
            );
        }
    }
    // Expand to every entry and quantise to hundredths.
    let mut data = vec![0i16; dim];
    for s in 0..N_STAGES {
        for i in 0..n_pat {
            let v = w[s * stage_len + canon[i] as usize];
            data[s * stage_len + i] = (v * 100.0).round().clamp(-32000.0, 32000.0) as i16;
        }
        for k in 0..N_SCALARS {
            let v = w[s * stage_len + n_pat + k];
            data[s * stage_len + n_pat + k] = (v * 100.0).round().clamp(-32000.0, 32000.0) as i16;
        }
    }
    let weights = Weights::from_vec(data)?;
    std::fs::write(&out, weights.to_bytes())?;
    eprintln!("wrote {out}");

    // Hold-out comparison with seed 003's evaluation (best linear fit per stage, on the
    // training data, so the seed eval gets its best possible scale).
    let mut seed_fit = vec![(0f64, 0f64, 0f64, 0f64, 0f64); N_STAGES]; // sx, sy, sxx, sxy, n
    for (r, s) in samples.iter().filter(|s| !is_test(s)).enumerate() {
        let _ = r;
        let x = seed_x(&s.board);
        let e = &mut seed_fit[stage(s.board.empties())];
        e.0 += x;
        e.1 += s.target as f64;
        e.2 += x * x;
        e.3 += x * s.target as f64;
        e.4 += 1.0;
    }
    let coef: Vec<(f64, f64)> = seed_fit
        .iter()
        .map(|&(sx, sy, sxx, sxy, n)| {
            let d = n * sxx - sx * sx;
            if n < 2.0 || d.abs() < 1e-9 {
                (0.0, if n > 0.0 { sy / n } else { 0.0 })
            } else {
                let a = (n * sxy - sx * sy) / d;
                (a, (sy - a * sx) / n)
            }
        })
        .collect();
    let leaked: &'static Weights = Box::leak(Box::new(weights));
    let pe = PatternEval::with_weights(leaked);
    let mut err = [(0f64, 0f64, 0usize); N_STAGES];
    for s in &test {
        let st = stage(s.board.empties());
        let pv = pe.eval(&s.board) as f64 / 100.0;
        let (a, b0) = coef[st];
        let sv = a * seed_x(&s.board) + b0;
        let t = s.target as f64;
        err[st].0 += (pv - t).powi(2);
        err[st].1 += (sv - t).powi(2);
        err[st].2 += 1;
    }
    println!("stage  empties   test-positions  rmse(pattern)  rmse(seed003, fitted scale)");
    let (mut tp, mut ts, mut tn) = (0.0, 0.0, 0usize);
    for (st, &(p, s, n)) in err.iter().enumerate() {
        let hi = 60 - st * 8;
        let lo = if st == N_STAGES - 1 { 0 } else { hi - 7 };
        if n > 0 {
            println!(
                "{st:>5}  {lo:>2}-{hi:<2}    {n:>14}  {:>13.2}  {:>13.2}",
                (p / n as f64).sqrt(),
                (s / n as f64).sqrt()
            );
        }
        tp += p;
        ts += s;
        tn += n;
    }
    if tn > 0 {
        println!(
            "all              {tn:>14}  {:>13.2}  {:>13.2}",
            (tp / tn as f64).sqrt(),
            (ts / tn as f64).sqrt()
        );
    }
    Ok(())
}

/// Exactly labelled positions: at most this many empties (the generator solved them).
const EXACT_EMPTIES: u32 = 12;

/// Temporal-difference targets: a position's target becomes the evaluation (by `eval`,
/// an earlier fit) of the position `k` moves later in the same game, for its side to move,
/// or that position's exact label once it is in the solved part. Less noisy than the final
/// result, which carries every later mistake of the weak players that made the data.
fn td_targets(samples: &mut [Sample], eval: PatternEval, k: usize) {
    let n = samples.len();
    let mut new_targets = Vec::with_capacity(n);
    for t in 0..n {
        let s = &samples[t];
        if s.board.empties() <= EXACT_EMPTIES {
            new_targets.push(s.target);
            continue;
        }
        // Walk k positions forward, tracking whose side each one is.
        let mut sign = 1.0f32;
        let mut cur = t;
        let mut target = s.target;
        for _ in 0..k {
            let next = cur + 1;
            if next >= n || samples[next].game != s.game {
                break;
            }
            let (a, b) = (samples[cur].board, samples[next].board);
            if b.o & a.p == a.p {
                sign = -sign;
            }
            cur = next;
            let nb = samples[cur].board;
            if nb.empties() <= EXACT_EMPTIES {
                target = sign * samples[cur].target;
                break;
            }
            target = sign * eval.eval(&nb) as f32 / 100.0;
        }
        new_targets.push(target);
    }
    for (s, t) in samples.iter_mut().zip(new_targets) {
        s.target = t;
    }
}

fn seed_x(b: &Board) -> f64 {
    if b.moves() == 0 && b.opponent_moves() == 0 {
        (b.p.count_ones() as f64 - b.o.count_ones() as f64) * 100.0
    } else {
        seed_eval(b.p, b.o) as f64
    }
}

// ---------------------------------------------------------------- equal-depth match

/// Every distinct sequence of 4 plies from the start (244 of them), in square order.
fn openings4() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    fn rec(b: Board, line: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if line.len() == 4 {
            out.push(line.clone());
            return;
        }
        for sq in squares(b.moves()) {
            line.push(sq);
            rec(b.play(sq), line, out);
            line.pop();
        }
    }
    rec(Board::initial(), &mut Vec::new(), &mut out);
    out
}

fn play_match(args: &[String]) -> Res<()> {
    let depth: u32 = arg(args, 0, "depth")?;
    let games: usize = arg(args, 1, "number of games")?;
    let pattern = match args.get(2) {
        Some(p) => PatternEval::with_weights(load_weights(p)?),
        None => PatternEval::new(),
    };
    let openings = openings4();
    let (mut score, mut played) = (0.0f64, 0usize);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut disc_sum = 0i64;
    let start = Instant::now();
    for g in 0..games {
        let opening =
            &openings[(g / 2) * openings.len() / games.div_ceil(2).max(1) % openings.len()];
        let pattern_first = g % 2 == 0;
        let mut a = PvsEngine::new(pattern, g as u64);
        let mut bse = PvsEngine::new(SeedEval, g as u64);
        let mut b = Board::initial();
        for &sq in opening {
            b = b.play(sq);
        }
        // Ply parity: after 4 plies black is to move again; "first" = black.
        let mut pattern_to_move = pattern_first;
        loop {
            let m = b.moves();
            if m == 0 {
                if b.opponent_moves() == 0 {
                    break;
                }
                b = b.pass();
                pattern_to_move = !pattern_to_move;
                continue;
            }
            let cancel = CancelFlag::new();
            let mut sink = |_: &SearchInfo| {};
            let mut ctrl = Control::fixed(&Limits::depth(depth), &cancel, &mut sink);
            let sq = if pattern_to_move {
                a.iterate(&b, depth, &mut ctrl).best
            } else {
                bse.iterate(&b, depth, &mut ctrl).best
            };
            b = b.play(sq);
            pattern_to_move = !pattern_to_move;
        }
        // b's side to move: pattern iff pattern_to_move.
        let diff = if pattern_to_move { b.final_diff() } else { -b.final_diff() };
        disc_sum += diff as i64;
        played += 1;
        match diff.signum() {
            1 => {
                wins += 1;
                score += 1.0
            }
            0 => {
                draws += 1;
                score += 0.5
            }
            _ => losses += 1,
        }
    }
    let _ = INF;
    println!(
        "depth {depth}: pattern eval vs seed 003 eval, {played} games: +{wins} ={draws} -{losses}, score {:.1}%, mean disc margin {:+.1} ({:.0}s)",
        100.0 * score / played.max(1) as f64,
        disc_sum as f64 / played.max(1) as f64,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

// ---------------------------------------------------------------- level arena

fn parse_level(s: &str) -> Res<ReversiLevel> {
    ReversiLevel::ALL
        .into_iter()
        .find(|l| l.name() == s)
        .ok_or_else(|| format!("unknown level {s}").into())
}

/// Plays GAMES games between two levels (each 4-ply opening twice, colours swapped) with
/// TIME_MS per move; prints the score of the first level and each level's move times.
fn arena(args: &[String]) -> Res<()> {
    let a: String = arg(args, 0, "first level")?;
    let b: String = arg(args, 1, "second level")?;
    let (la, lb) = (parse_level(&a)?, parse_level(&b)?);
    let games: usize = arg(args, 2, "number of games")?;
    let time_ms: u64 = arg(args, 3, "time per move")?;
    let openings = openings4();
    let limits = Limits::time(time_ms);
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut cpu_times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut disc_sum = 0i64;
    let start = Instant::now();
    for g in 0..games {
        let opening =
            &openings[(g / 2) * openings.len() / games.div_ceil(2).max(1) % openings.len()];
        let mut pos = Position::initial();
        for &sq in opening {
            pos.play(tengen_engine::Point::new(sq % 8, sq / 8))?;
        }
        // Engine 0 is level A; A plays black in even games.
        let mut engines = [new_engine(la, 1000 + g as u64), new_engine(lb, 2000 + g as u64)];
        let a_color = if g % 2 == 0 { Color::Black } else { Color::White };
        while !pos.is_game_over() {
            let who = if pos.side_to_move() == a_color { 0 } else { 1 };
            let cancel = CancelFlag::new();
            let t = Instant::now();
            let c = thread_cpu_ns();
            let r = engines[who].search(&pos, &limits, &cancel, &mut |_: &SearchInfo| {});
            times[who].push(t.elapsed().as_secs_f64() * 1000.0);
            cpu_times[who].push(thread_cpu_ns().saturating_sub(c) as f64 / 1e6);
            match r.best {
                Move::Pass => pos.pass()?,
                Move::Place(p) => {
                    pos.play(p)?;
                }
            }
        }
        let o = pos.outcome().ok_or("game not over")?;
        let (mine, theirs) =
            if a_color == Color::Black { (o.black, o.white) } else { (o.white, o.black) };
        disc_sum += mine as i64 - theirs as i64;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => wins += 1,
            std::cmp::Ordering::Equal => draws += 1,
            std::cmp::Ordering::Less => losses += 1,
        }
    }
    let n = (wins + draws + losses) as f64;
    println!(
        "{a} vs {b}, {} games, {time_ms} ms/move: {a} +{wins} ={draws} -{losses}, score {:.1}%, mean disc margin {:+.1} ({:.0}s)",
        wins + draws + losses,
        100.0 * (wins as f64 + 0.5 * draws as f64) / n.max(1.0),
        disc_sum as f64 / n.max(1.0),
        start.elapsed().as_secs_f64()
    );
    for (name, (t, c)) in [&a, &b].into_iter().zip(times.iter_mut().zip(cpu_times.iter_mut())) {
        for (kind, t) in [("wall", t), ("cpu", c)] {
            t.sort_by(|x, y| x.total_cmp(y));
            if let Some(&max) = t.last() {
                let mean = t.iter().sum::<f64>() / t.len() as f64;
                let p99 = t[(t.len() * 99 / 100).min(t.len() - 1)];
                println!(
                    "  {name} {kind}: {} moves, mean {mean:.1} ms, p99 {p99:.1} ms, max {max:.1} ms",
                    t.len()
                );
            }
        }
    }
    Ok(())
}

/// CPU time of this thread in nanoseconds (Linux; 0 elsewhere). Wall-clock times on a
/// shared machine include waiting for a core, so both are reported.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
        .unwrap_or(0)
}

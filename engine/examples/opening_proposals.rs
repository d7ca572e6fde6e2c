//! How balanced and how varied the computer's opening proposals are
//! (`game::opening::computer`): for each rule it asks for N proposals, each by a fresh
//! `Judge` with its own seed and the app's budget (the time per move, 1 s by default), as
//! the app does, then judges each proposed position once more with a longer Master search
//! and prints the distribution of black's win chance, the share within 35–65%, and how many
//! distinct positions (up to the 8 symmetries) there are.
//!
//! Cases: the first player's three stones of swap and swap2 (freestyle; the same proposer),
//! swap2's two more stones by the second player after them (five stones), and Soosõrv-8's
//! first three stones (Renju, one of the 26 openings).
//!
//! `cargo run --release -p tengen-engine --example opening_proposals [N] [budget_ms] [eval_ms]`
//! (defaults 50, 1000, 300).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use tengen_engine::ai::{GomokuLevel, Level};
use tengen_engine::game::opening::computer::{self, symmetry_key, Judge};
use tengen_engine::game::opening::{Choice, OpeningRule};
use tengen_engine::game::{Game, GameConfig, GameKind, PlayerKind, Position, TimeControl};
use tengen_engine::gomoku::Rule;
use tengen_engine::Point;

const MASTER: PlayerKind = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::Master) };

struct Case {
    name: &'static str,
    rule: Rule,
    opening: OpeningRule,
    /// Swap2: the second player places two more after the first's three.
    place_two: bool,
}

const CASES: [Case; 3] = [
    Case {
        name: "swap/swap2: 3 stones",
        rule: Rule::Freestyle,
        opening: OpeningRule::Swap,
        place_two: false,
    },
    Case {
        name: "swap2: 2 more (5 stones)",
        rule: Rule::Freestyle,
        opening: OpeningRule::Swap2,
        place_two: true,
    },
    Case {
        name: "soosorv8: 3 stones",
        rule: Rule::Renju,
        opening: OpeningRule::Soosorv8,
        place_two: false,
    },
];

/// The computer's steps from here while they are its own, applied.
fn computer_steps(game: &mut Game, judge: &mut Judge) -> Result<(), String> {
    let acts = computer::computer_acts(game, judge).map_err(|e| e.to_string())?;
    for act in acts {
        computer::apply(game, act, 0).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// One proposal of `case`: the stones of the position proposed.
fn propose(case: &Case, seed: u64, budget: Duration) -> Result<(Game, Vec<Point>), String> {
    let config = GameConfig {
        kind: GameKind::Gomoku { rule: case.rule, size: 15 },
        black: MASTER,
        white: MASTER,
        time_per_move_ms: 1000,
        time_control: TimeControl::None,
        opening: case.opening,
    };
    let mut game = Game::new(config).map_err(|e| e.to_string())?;
    computer_steps(&mut game, &mut Judge::new(seed, budget))?;
    if case.place_two {
        game.opening_choice(Choice::PlaceTwo, 0).map_err(|e| e.to_string())?;
        computer_steps(&mut game, &mut Judge::new(seed ^ 0x5eed, budget))?;
    }
    let stones = game.history().iter().filter_map(|r| r.mv.point()).collect();
    Ok((game, stones))
}

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    let (n, budget_ms, eval_ms) = (arg(1, 50), arg(2, 1000), arg(3, 300));
    let budget = Duration::from_millis(budget_ms);
    println!(
        "{n} proposals per case, proposer budget {budget_ms} ms, judged by Master {eval_ms} ms"
    );
    // The judge divides its budget among its candidates: one search of `eval_ms` each.
    let mut eval = Judge::new(0xe7a1, Duration::from_millis(eval_ms * 8));
    for case in &CASES {
        let t0 = Instant::now();
        let mut chances = Vec::new();
        let mut keys = HashSet::new();
        for i in 0..n {
            let seed = 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(i + 1);
            let (game, stones) = match propose(case, seed, budget) {
                Ok(found) => found,
                Err(e) => {
                    println!("  proposal {i} failed: {e}");
                    continue;
                }
            };
            let Position::Gomoku(pos) = game.position() else { continue };
            chances.push(eval.black_chance(pos));
            keys.extend(symmetry_key(15, &stones));
        }
        let count = chances.len().max(1) as f64;
        let mean = chances.iter().sum::<f64>() / count;
        let within = chances.iter().filter(|&&p| (0.35..=0.65).contains(&p)).count();
        let mut buckets = [0usize; 10];
        for &p in &chances {
            buckets[((p * 10.0) as usize).min(9)] += 1;
        }
        let (lo, hi) = chances.iter().fold((1.0f64, 0.0f64), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        println!(
            "{:<26} n={} mean={:.3} min={:.3} max={:.3} within 35-65%: {} ({:.0}%) distinct up to symmetry: {} time {:.0} s",
            case.name,
            chances.len(),
            mean,
            lo,
            hi,
            within,
            100.0 * within as f64 / count,
            keys.len(),
            t0.elapsed().as_secs_f64()
        );
        let bars: Vec<String> =
            buckets.iter().enumerate().map(|(b, c)| format!("{}0%:{c}", b)).collect();
        println!("  black's chance by tenths: {}", bars.join(" "));
    }
}

//! `tengen bench`: fixed positions searched to a fixed depth, for comparable node counts,
//! times and speeds; plus the per-move time of the classic Gomoku levels.

use std::time::{Duration, Instant};

use tengen_engine::ai::{self, CancelFlag, Engine, GomokuLevel, Level, Limits, ReversiLevel};
use tengen_engine::gomoku::{notation, Position, Rule};
use tengen_engine::reversi;

use super::{outln, CmdResult};

/// Which game to benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchGame {
    Gomoku,
    Reversi,
    All,
}

#[derive(clap::Args)]
pub struct Args {
    /// The game(s) to benchmark.
    #[arg(long, value_enum, default_value = "all")]
    pub game: BenchGame,
    /// Search depth in plies (default: 5 for Gomoku, 8 for Reversi).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search for this many milliseconds per position instead of to a fixed depth, and report
    /// the depth reached (node counts are then not reproducible).
    #[arg(long, conflicts_with = "depth")]
    pub time: Option<u64>,
    /// Cancel each search this many milliseconds after it starts (it has no other limit) and
    /// report how long it took to answer after the cancel.
    #[arg(long, conflicts_with_all = ["depth", "time"])]
    pub cancel_after: Option<u64>,
    /// Only this searching level (e.g. `master`); the default runs all of them.
    #[arg(long)]
    pub level: Option<String>,
    /// How many times each classic level moves in each position for the timing table.
    #[arg(long, default_value_t = 20)]
    pub repeat: u32,
    /// Search threads of the levels that use them (Master); default: all cores but one.
    #[arg(long, value_parser = super::threads_arg)]
    pub threads: Option<usize>,
}

/// Gomoku middle-game positions: name, board size, moves in board notation (black first).
pub const GOMOKU_POSITIONS: &[(&str, u8, &str)] = &[
    ("15-a", 15, "h8 i9 h9 i8 h7 h10 i10 h5 g8 f7 i6 f9 e8 d8 f10 j5 g9 i7 g11 g10 g5 g6 i4 e11"),
    (
        "15-b",
        15,
        "h8 i9 h9 i8 i7 h7 j9 j6 i10 h11 g8 j11 g11 f7 g9 g10 f10 e11 e8 d8 i12 h12 h13 e7",
    ),
    (
        "15-c",
        15,
        "h8 i9 h9 i8 i7 h7 g9 f10 k10 j6 g6 g8 f9 d9 h10 h11 i10 j10 i11 f8 j12 k13 i12 i13",
    ),
    (
        "15-d",
        15,
        "h8 h9 i9 i8 g10 g7 g9 h10 i7 f10 g11 g12 k5 j6 h11 f11 f8 f12 f13 f9 e10 e12 h12 d12 \
         c12 e11 g13 c13 b14 i11",
    ),
    ("15-renju", 15, "h8 i9 h9 i8 h10 h7 i7 h11 g9 f10 i11 f8 f9 e9 h12 j12 h6 j6 g6 g8"),
    (
        "19-a",
        19,
        "j10 k11 j11 k10 k9 j9 l11 l8 k12 j13 i10 l13 i13 h9 i11 i12 h12 g13 g10 f10 k14 j14 j15 \
         g9",
    ),
];

/// Reversi positions as transcripts from the initial position.
pub const REVERSI_POSITIONS: &[(&str, &str)] = &[
    ("rev-10", "d3c3f5f6b3d2c2b2f7d6"),
    ("rev-24", "d3c5b6d2c4c3c2f3f4g3d1b2a2e1e3b5c6b7c1b4e6b1c7f6"),
    (
        "rev-44",
        "d3e3f6c5b5b6f3f2e2d2c1d1c3b4e1g3c2g7h4g1g4d6g2h3e6f7b3f5c4a2h2h1f4f1c7d7a3g5d8b2h5c8e7h6",
    ),
];

/// A fresh engine for `make`, or `None` when this build does not have that level yet.
/// Totals of one table.
#[derive(Default)]
struct Total {
    nodes: u64,
    time: Duration,
    /// The longest wait for an answer after a cancel (`--cancel-after`).
    worst_cancel: Option<Duration>,
}

impl Total {
    fn print(&self, what: &str) -> std::io::Result<()> {
        let secs = self.time.as_secs_f64();
        let nps = if secs > 0.0 { (self.nodes as f64 / secs) as u64 } else { 0 };
        let cancel = self
            .worst_cancel
            .map(|d| format!(" longest answer after a cancel {:.1} ms", d.as_secs_f64() * 1000.0))
            .unwrap_or_default();
        outln!("total {what}: nodes {} time {:.3} s nps {}{cancel}", self.nodes, secs, nps)
    }
}

/// Searches `pos` with `limits`, cancelled `cancel_after` its start if that is set, and prints
/// one line (with how long the answer took after the cancel).
fn search_line<P: Sync>(
    name: &str,
    engine: &mut dyn Engine<P>,
    pos: &P,
    limits: &Limits,
    cancel_after: Option<Duration>,
    total: &mut Total,
) -> std::io::Result<()> {
    let start = Instant::now();
    let (r, late) = match cancel_after {
        None => (engine.search(pos, limits, &CancelFlag::new(), &mut |_| {}), None),
        Some(after) => ai::search_cancelled_after(engine, pos, limits, after)
            .map_err(|_| std::io::Error::other("the search thread panicked"))?,
    };
    let took = start.elapsed();
    total.nodes += r.info.nodes;
    total.time += took;
    if let Some(late) = late {
        total.worst_cancel = Some(total.worst_cancel.unwrap_or_default().max(late));
    }
    let secs = took.as_secs_f64();
    let nps = if secs > 0.0 { (r.info.nodes as f64 / secs) as u64 } else { 0 };
    let cancel = match (cancel_after, late) {
        (None, _) => String::new(),
        (Some(_), Some(late)) => {
            format!(" answer {:.1} ms after the cancel", late.as_secs_f64() * 1000.0)
        }
        (Some(_), None) => " answered before the cancel".to_string(),
    };
    outln!(
        "{name:<14} depth {:>2} seldepth {:>3} nodes {:>10} time {:>8.1} ms nps {:>9} score {:?}{cancel}",
        r.info.depth,
        r.info.seldepth,
        r.info.nodes,
        secs * 1000.0,
        nps,
        r.info.score
    )
}

fn gomoku_positions() -> Result<Vec<(&'static str, Position)>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    for &(name, size, moves) in GOMOKU_POSITIONS {
        let rule = if name.contains("renju") { Rule::Renju } else { Rule::Freestyle };
        let moves = notation::parse_moves(moves, size)?;
        out.push((name, Position::from_moves(size, rule, &moves)?));
    }
    Ok(out)
}

/// What one table searches to: a fixed depth or a fixed time, or until a cancel, for its
/// heading and limits. A cancelled search has a time limit `IGNORED_CANCEL` past the cancel,
/// so that one that missed the cancel still ends, and shows how late it was.
fn limits_for(args: &Args, default_depth: u32) -> (String, Limits) {
    if let Some(ms) = args.cancel_after {
        let limit = ms.saturating_add(IGNORED_CANCEL.as_millis() as u64);
        return (format!("cancelled after {ms} ms"), Limits::time(limit));
    }
    match args.time {
        Some(ms) => (format!("for {ms} ms"), Limits::time(ms)),
        None => {
            let depth = args.depth.unwrap_or(default_depth);
            (format!("at depth {depth}"), Limits::depth(depth))
        }
    }
}

/// How far past a cancel the time limit of a cancelled search lies.
const IGNORED_CANCEL: Duration = Duration::from_secs(10);

/// When to cancel each search (`--cancel-after`).
fn cancel_after(args: &Args) -> Option<Duration> {
    args.cancel_after.map(Duration::from_millis)
}

/// The threads the searching levels use.
fn threads(args: &Args) -> usize {
    args.threads.unwrap_or_else(ai::control::default_threads)
}

fn wanted(args: &Args, name: &str) -> bool {
    args.level.as_deref().is_none_or(|l| l.eq_ignore_ascii_case(name))
}

fn bench_gomoku(args: &Args) -> CmdResult {
    let positions = gomoku_positions()?;
    let (how, limits) = limits_for(args, 5);
    // The levels that follow the clock search with the table's limits; the others (fixed
    // depth, a few milliseconds) are timed per move below.
    let follows_clock = |l: &GomokuLevel| Level::Gomoku(*l).follows_clock();
    for level in GomokuLevel::ALL.into_iter().filter(follows_clock) {
        if !wanted(args, level.name()) {
            continue;
        }
        outln!("# gomoku {} {how}", level.name())?;
        let mut total = Total::default();
        for (name, pos) in &positions {
            let mut engine = ai::gomoku::new_engine(level, 1);
            engine.set_threads(threads(args));
            search_line(name, &mut *engine, pos, &limits, cancel_after(args), &mut total)?;
        }
        if total.nodes > 0 {
            total.print(&format!("gomoku {}", level.name()))?;
        }
    }
    let repeat = args.repeat.max(1);
    outln!("# gomoku classic levels: time per move over {repeat} moves in each position")?;
    for level in GomokuLevel::ALL.into_iter().filter(|l| !follows_clock(l)) {
        if !wanted(args, level.name()) {
            continue;
        }
        for size in [15u8, 19] {
            let mut worst = Duration::ZERO;
            let mut sum = Duration::ZERO;
            let mut count = 0u32;
            for (_, pos) in positions.iter().filter(|(_, p)| p.size() == size) {
                let mut engine = ai::gomoku::new_engine(level, 7);
                for _ in 0..repeat {
                    let start = Instant::now();
                    engine.search(pos, &Limits::default(), &CancelFlag::new(), &mut |_| {});
                    let took = start.elapsed();
                    worst = worst.max(took);
                    sum += took;
                    count += 1;
                }
            }
            outln!(
                "{:<10} {size}x{size}: max {:.3} ms, mean {:.3} ms over {count} moves",
                level.name(),
                worst.as_secs_f64() * 1000.0,
                sum.as_secs_f64() * 1000.0 / count.max(1) as f64
            )?;
        }
    }
    Ok(())
}

fn bench_reversi(args: &Args) -> CmdResult {
    let mut positions = Vec::new();
    for &(name, transcript) in REVERSI_POSITIONS {
        let (_, pos) = reversi::notation::replay_transcript(transcript)?;
        positions.push((name, pos));
    }
    let (how, limits) = limits_for(args, 8);
    for level in ReversiLevel::ALL {
        if !wanted(args, level.name()) {
            continue;
        }
        outln!("# reversi {} {how}", level.name())?;
        let mut total = Total::default();
        for (name, pos) in &positions {
            let mut engine = ai::reversi::new_engine(level, 1);
            engine.set_threads(threads(args));
            search_line(name, &mut *engine, pos, &limits, cancel_after(args), &mut total)?;
        }
        if total.nodes > 0 {
            total.print(&format!("reversi {}", level.name()))?;
        }
    }
    Ok(())
}

pub fn run(args: Args) -> CmdResult {
    if matches!(args.game, BenchGame::Gomoku | BenchGame::All) {
        bench_gomoku(&args)?;
    }
    if matches!(args.game, BenchGame::Reversi | BenchGame::All) {
        bench_reversi(&args)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_middle_games() {
        let positions = gomoku_positions().unwrap();
        assert_eq!(positions.len(), GOMOKU_POSITIONS.len());
        assert!(positions.iter().any(|(_, p)| p.size() == 19));
        for (name, pos) in &positions {
            assert!(!pos.is_over(), "{name} is finished");
            assert!(pos.moves().len() >= 10, "{name} is a middle game");
        }
        for &(name, t) in REVERSI_POSITIONS {
            let (_, pos) = reversi::notation::replay_transcript(t).unwrap();
            assert!(!pos.is_game_over(), "{name}");
        }
    }

    #[test]
    fn depth_limited_lookahead_is_deterministic() {
        let positions = gomoku_positions().unwrap();
        let (_, pos) = &positions[0];
        let nodes = |seed| {
            let mut e = ai::gomoku::new_engine(GomokuLevel::Lookahead, seed);
            e.search(pos, &Limits::depth(5), &CancelFlag::new(), &mut |_| {}).info.nodes
        };
        assert_eq!(nodes(1), nodes(1));
    }
}

//! `tengen solve FILE`: solve Reversi endgame positions exactly, one per line.
//!
//! Input: one position per line, the 64-character board (`-` empty, `X` black, `O` white,
//! a1..h8 row-major), a space and the side to move (`X`/`O`); anything after `;` or after
//! the second field is ignored; blank lines and lines starting with `#` are skipped.
//!
//! Output (stable, scripts read it): for each position one line
//! `N MOVE SCORE NODES SECONDS NPS` (N = 1-based index among the positions, MOVE like `a2`
//! or `pass`, SCORE signed like `+38`, SECONDS with 3 decimals, NPS an integer), then one
//! line `total positions=P nodes=N seconds=S nps=R`. Every other line starts with `#`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use tengen_engine::ai::reversi::endgame::{Solver, DEFAULT_TT_BITS};
use tengen_engine::ai::CancelFlag;
use tengen_engine::reversi::{self, format_square, Position};

use super::CmdResult;

#[derive(clap::Args)]
pub struct Args {
    /// File of positions: a 64-character board, a space, X or O to move (`;` starts a comment).
    file: PathBuf,
    /// Only solve win / draw / loss (scores +1, +0, -1), much faster.
    #[arg(long)]
    wld: bool,
    /// Transposition table size as a power of two of entries (32 bytes each).
    #[arg(long, default_value_t = DEFAULT_TT_BITS, value_parser = clap::value_parser!(u32).range(10..=28))]
    tt_bits: u32,
    /// Search threads (the root's moves split among them); default: all cores but one.
    #[arg(long, value_parser = super::threads_arg)]
    threads: Option<usize>,
}

/// Why the positions cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    File(#[from] super::UserFileError),
    #[error(
        "a table of 2^{bits} entries needs {need} MiB, more than this machine allows one table \
         ({cap} MiB); use a smaller --tt-bits"
    )]
    TableTooLarge { bits: u32, need: u64, cap: u64 },
    #[error("cannot allocate a table of 2^{bits} entries ({need} MiB): {source}; use a smaller --tt-bits")]
    NoMemory {
        bits: u32,
        need: u64,
        #[source]
        source: std::collections::TryReserveError,
    },
    #[error("line {line}: a position needs a 64-character board and the side to move (X or O)")]
    Incomplete { line: usize },
    #[error("the search was cancelled")]
    Cancelled,
    #[error("line {line}: {source}")]
    BadPosition {
        line: usize,
        #[source]
        source: reversi::NotationError,
    },
}

/// The positions of a file's text, with their line numbers (1-based).
pub fn parse_positions(text: &str) -> Result<Vec<(usize, Position)>, SolveError> {
    let mut positions = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split(';').next().unwrap_or("").trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let mut fields = content.split_whitespace();
        let (Some(board), Some(side)) = (fields.next(), fields.next()) else {
            return Err(SolveError::Incomplete { line });
        };
        let pos = reversi::parse_board(&format!("{board} {side}"))
            .map_err(|source| SolveError::BadPosition { line, source })?;
        // `parse_board` reads the first 64 characters; refuse longer boards too.
        if board.chars().count() != 64 {
            return Err(SolveError::Incomplete { line });
        }
        positions.push((line, pos));
    }
    Ok(positions)
}

fn read(path: &Path) -> Result<Vec<(usize, Position)>, SolveError> {
    parse_positions(&super::read_user_file("the positions file", path)?)
}

/// Refuses a table larger than a share of this machine's memory
/// ([`tengen_engine::memory::table_cap`]), before anything is allocated.
pub fn check_table(bits: u32, cap: u64) -> Result<(), SolveError> {
    let need = Solver::table_bytes(bits);
    if need > cap {
        return Err(SolveError::TableTooLarge { bits, need: need >> 20, cap: cap >> 20 });
    }
    Ok(())
}

fn nps(nodes: u64, seconds: f64) -> u64 {
    if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    }
}

pub fn run(args: Args) -> CmdResult {
    check_table(args.tt_bits, tengen_engine::memory::table_cap())?;
    let positions = read(&args.file)?;
    let mut solver = Solver::with_tt_bits(args.tt_bits);
    let threads = args.threads.unwrap_or_else(tengen_engine::ai::control::default_threads);
    solver.set_threads(threads);
    solver.try_allocate().map_err(|source| SolveError::NoMemory {
        bits: args.tt_bits,
        need: Solver::table_bytes(args.tt_bits) >> 20,
        source,
    })?;
    let cancel = CancelFlag::new();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "# tengen solve {}: {} positions, {}, table 2^{} entries, {} threads",
        args.file.display(),
        positions.len(),
        if args.wld { "win/draw/loss" } else { "exact" },
        args.tt_bits,
        threads
    )?;
    writeln!(out, "# N MOVE SCORE NODES SECONDS NPS")?;
    let (mut total_nodes, mut total_seconds) = (0u64, 0f64);
    for (index, (_, pos)) in positions.iter().enumerate() {
        solver.clear();
        let start = Instant::now();
        let result =
            if args.wld { solver.solve_wld(pos, &cancel) } else { solver.solve(pos, &cancel) };
        let seconds = start.elapsed().as_secs_f64();
        let r = result.ok_or(SolveError::Cancelled)?;
        let mv = r.best.map_or_else(|| "pass".to_string(), format_square);
        writeln!(
            out,
            "{} {} {:+} {} {:.3} {}",
            index + 1,
            mv,
            r.score,
            r.nodes,
            seconds,
            nps(r.nodes, seconds)
        )?;
        out.flush()?;
        total_nodes += r.nodes;
        total_seconds += seconds;
    }
    writeln!(
        out,
        "total positions={} nodes={} seconds={:.3} nps={}",
        positions.len(),
        total_nodes,
        total_seconds,
        nps(total_nodes, total_seconds)
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_over_the_machine_share_is_refused_before_allocating() {
        assert!(check_table(20, 1 << 30).is_ok());
        let e = check_table(28, 4 << 30).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a table of 2^28 entries needs 8192 MiB, more than this machine allows one table \
             (4096 MiB); use a smaller --tt-bits"
        );
    }

    const BOARD: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";

    #[test]
    fn reads_ffo_lines_comments_and_blank_lines() {
        let text = format!("# header\n\n{BOARD} X ; id=40 score=+38\n{BOARD} O extra field\n");
        let ps = parse_positions(&text).expect("valid");
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].0, 3);
        assert_eq!(ps[1].0, 4);
        assert_eq!(ps[0].1.side_to_move(), tengen_engine::Color::Black);
        assert_eq!(ps[1].1.side_to_move(), tengen_engine::Color::White);
        assert_eq!(ps[0].1.player(), ps[1].1.opponent());
    }

    #[test]
    fn malformed_lines_name_their_line_number() {
        for (text, line) in [
            (format!("{BOARD} X\n{BOARD}\n"), 2),
            (format!("\n\n{} X\n", &BOARD[..60]), 3),
            (format!("{BOARD} Z\n"), 1),
            (format!("{}Q X\n", &BOARD[..63]), 1),
            (format!("{BOARD}X X\n"), 1),
        ] {
            let err = parse_positions(&text).expect_err("malformed");
            assert!(err.to_string().starts_with(&format!("line {line}:")), "{err}");
        }
    }
}

//! `tengen perft`: count Reversi move paths to a depth, the check of move generation.

use std::time::Instant;

use tengen_engine::reversi::{self, Position};

use super::{outln, CmdResult};

#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies (a pass is one ply; a finished game counts once as a leaf).
    #[arg(long, short)]
    depth: u32,
    /// Start from this board instead of the initial position: 64 squares a1..h8
    /// (`-` empty, `X` black, `O` white), a space, then X or O for the side to move.
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
    /// Also print the time taken and nodes per second on stderr.
    #[arg(long)]
    time: bool,
}

pub fn run(args: Args) -> CmdResult {
    let start = Instant::now();
    let count = count(&args)?;
    let seconds = start.elapsed().as_secs_f64();
    outln!("{count}")?;
    if args.time {
        let nps = if seconds > 0.0 { count as f64 / seconds } else { 0.0 };
        eprintln!("time {seconds:.3} s, {count} nodes, {:.1} M nodes/s", nps / 1e6);
    }
    Ok(())
}

/// The perft count the arguments ask for.
fn count(args: &Args) -> Result<u64, reversi::NotationError> {
    let pos = match &args.board {
        Some(text) => reversi::parse_board(text)?,
        None => Position::initial(),
    };
    Ok(reversi::perft(&pos, args.depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn count_for(argv: &[&str]) -> Result<u64, reversi::NotationError> {
        let argv = std::iter::once("perft").chain(argv.iter().copied());
        let cli = Cli::try_parse_from(argv).expect("the test's arguments parse");
        count(&cli.args)
    }

    #[test]
    fn counts_from_the_start_and_from_a_board() {
        assert_eq!(count_for(&["--depth", "5"]), Ok(1396));
        assert_eq!(count_for(&["-d", "0"]), Ok(1));
        let start = reversi::format_board(&Position::initial());
        assert_eq!(count_for(&["--depth", "4", "--board", &start]), Ok(244));
    }

    #[test]
    fn a_bad_board_is_an_error() {
        assert!(matches!(
            count_for(&["--depth", "2", "--board", "XO"]),
            Err(reversi::NotationError::TooShort { found: 2 })
        ));
    }
}

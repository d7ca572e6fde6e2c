//! `tengen perft`: count Reversi move paths to a depth, the check of move generation.

use std::time::Instant;

use tengen_engine::reversi::{self, Position};

use super::CmdResult;

#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies (a pass is one ply; a finished game counts once as a leaf).
    #[arg(long, short)]
    depth: u32,
    /// Start from this board instead of the initial position: 64 squares a1..h8
    /// (`-` empty, `X` black, `O` white), a space, then X or O for the side to move.
    #[arg(long)]
    board: Option<String>,
    /// Also print the time taken and nodes per second on stderr.
    #[arg(long)]
    time: bool,
}

pub fn run(args: Args) -> CmdResult {
    let pos = match &args.board {
        Some(text) => reversi::parse_board(text)?,
        None => Position::initial(),
    };
    let start = Instant::now();
    let count = reversi::perft(&pos, args.depth);
    let seconds = start.elapsed().as_secs_f64();
    println!("{count}");
    if args.time {
        let nps = if seconds > 0.0 { count as f64 / seconds } else { 0.0 };
        eprintln!("time {seconds:.3} s, {count} nodes, {:.1} M nodes/s", nps / 1e6);
    }
    Ok(())
}

//! `tengen`: the command-line face of the Tengen engine.

mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "tengen",
    version,
    about = "Gomoku/Renju and Reversi engine: Gomocup brain, arena, benchmarks, endgame solver"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count Reversi move paths to a depth (a pass is one ply, a finished game a leaf).
    Perft(cmd::perft::Args),
    /// Print the points forbidden to black under Renju after a sequence of moves.
    Forbidden(cmd::forbidden::Args),
    /// Print a board as text after a sequence of moves.
    Show(cmd::show::Args),
    /// List every AI level, weakest first, as `GAME NAME`.
    Levels,
    /// Speak the Gomocup (Piskvork) brain protocol on stdin/stdout.
    Brain(cmd::brain::Args),
    /// Play engine-vs-engine games and report the score and Elo difference.
    Arena(cmd::arena::Args),
    /// Search a fixed set of positions to a fixed depth: node counts, time, nps.
    Bench(cmd::bench::Args),
    /// Solve Reversi endgame positions exactly.
    Solve(cmd::solve::Args),
    /// A misbehaving Gomocup brain for the arena's tests.
    #[command(hide = true)]
    FakeBrain(cmd::fake_brain::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Forbidden(a) => cmd::forbidden::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Levels => cmd::levels::run(),
        Command::Brain(a) => cmd::brain::run(a),
        Command::Arena(a) => cmd::arena::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::FakeBrain(a) => cmd::fake_brain::run(a),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if cmd::is_broken_pipe(&*e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tengen: {e}");
            ExitCode::FAILURE
        }
    }
}

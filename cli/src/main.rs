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
    /// Speak the NBoard protocol (Reversi) on stdin/stdout.
    Nboard(cmd::nboard::Args),
    /// Play engine-vs-engine games and report the score and Elo difference.
    Arena(cmd::arena::Args),
    /// Search a fixed set of positions to a fixed depth: node counts, time, nps.
    Bench(cmd::bench::Args),
    /// Solve Reversi endgame positions exactly.
    Solve(cmd::solve::Args),
    /// A misbehaving Gomocup brain for the arena's tests.
    #[command(hide = true)]
    FakeBrain(cmd::fake_brain::Args),
    /// A misbehaving NBoard engine for the NBoard host's tests.
    #[command(hide = true)]
    FakeNboard(cmd::fake_nboard::Args),
}

/// Whether the program was started under a Piskvork brain name (`pbrain-tengen.exe`):
/// Piskvork and Yixin-Board run brains without arguments, and only those named `pbrain-*`
/// with the pipe protocol, so a copy under such a name is the brain.
fn started_as_brain(program: Option<&std::ffi::OsStr>) -> bool {
    program
        .and_then(|p| std::path::Path::new(p).file_stem())
        .and_then(|s| s.to_str())
        .is_some_and(|s| s.to_ascii_lowercase().starts_with("pbrain-"))
}

fn main() -> ExitCode {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.len() == 1 && started_as_brain(args.first().map(|a| a.as_os_str())) {
        args.push("brain".into());
    }
    let cli = Cli::parse_from(args);
    let outcome = match cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Forbidden(a) => cmd::forbidden::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Levels => cmd::levels::run(),
        Command::Brain(a) => cmd::brain::run(a),
        Command::Nboard(a) => cmd::nboard::run(a),
        Command::Arena(a) => cmd::arena::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::FakeBrain(a) => cmd::fake_brain::run(a),
        Command::FakeNboard(a) => cmd::fake_nboard::run(a),
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

#[cfg(test)]
mod tests {
    use super::started_as_brain;

    #[test]
    fn a_pbrain_name_starts_the_brain() {
        let name = |s: &str| started_as_brain(Some(std::ffi::OsStr::new(s)));
        assert!(name("pbrain-tengen.exe"));
        assert!(name("PBRAIN-Tengen.EXE"));
        assert!(name("/opt/piskvork/pbrain-tengen"));
        assert!(!name("tengen"));
        assert!(!name("/usr/bin/tengen.exe"));
        assert!(!started_as_brain(None));
    }
}

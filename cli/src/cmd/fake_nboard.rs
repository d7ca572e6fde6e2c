//! `tengen fake-nboard` (hidden): a deliberately bad NBoard engine for the tests of the
//! NBoard host (the arena's and the app's).
//!
//! It answers `nboard` with `set myname Fake`, `ping N` with `pong N`, keeps the game of
//! `set game` and `move`, and answers `go` with the first legal square in reading order (a
//! pass when it has none). After `--after` moves of its own it commits the chosen `--fault`:
//! it exits, hangs, answers garbage, a taken square, or a pass while it has moves. `--mute`
//! answers nothing at all.

use std::io::{BufRead, Write};

use tengen_engine::reversi::format_square;
use tengen_engine::reversi::ggf::{self, GgfGame};
use tengen_engine::Point;

use super::CmdResult;

/// How the fake engine misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Fault {
    /// Play properly.
    None,
    /// Exit with status 3 instead of answering.
    Crash,
    /// Stop answering, and ignore quit.
    Hang,
    /// Answer a line that is not a move.
    Garbage,
    /// Answer a square that is taken.
    Occupied,
    /// Pass although it has a move.
    Pass,
}

#[derive(clap::Args)]
pub struct Args {
    /// What to do instead of a move.
    #[arg(long, value_enum, default_value = "none")]
    pub fault: Fault,
    /// How many good moves to play first.
    #[arg(long, default_value_t = 0)]
    pub after: u32,
    /// Answer nothing at all, not even ping.
    #[arg(long)]
    pub mute: bool,
}

pub fn run(args: Args) -> CmdResult {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut game = GgfGame::default();
    let mut moves = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        if word == "quit" {
            return Ok(());
        }
        if args.mute {
            continue;
        }
        match word {
            "nboard" => writeln!(out, "set myname Fake")?,
            "ping" => writeln!(out, "pong {rest}")?,
            "set" => {
                if let Some(text) = rest.strip_prefix("game ") {
                    game = ggf::parse(text).unwrap_or_default();
                }
            }
            "move" => {
                if let Ok(m) = ggf::parse_move(rest) {
                    let _ = game.play(None, m);
                }
            }
            "go" => {
                writeln!(out, "status move {}", moves + 1)?;
                out.flush()?;
                let pos = game.position();
                let first_legal = pos.legal_points().first().copied();
                let answer = match args.fault {
                    _ if moves < args.after => None,
                    Fault::None => None,
                    Fault::Crash => std::process::exit(3),
                    Fault::Hang => loop {
                        std::thread::park();
                    },
                    Fault::Garbage => Some("=== this is not a move".to_string()),
                    Fault::Occupied => {
                        let mut squares = (0..64u8).map(|i| Point::new(i % 8, i / 8));
                        let taken = squares.find(|&p| pos.stone(p).is_some());
                        taken.map(|p| format!("=== {}", format_square(p)))
                    }
                    Fault::Pass if first_legal.is_some() => Some("=== PA".to_string()),
                    Fault::Pass => None,
                };
                let answer = answer.unwrap_or_else(|| match first_legal {
                    Some(p) => format!("=== {}/0.0/0.0", format_square(p)),
                    None => "=== PA".to_string(),
                });
                writeln!(out, "{answer}")?;
                moves += 1;
            }
            _ => {}
        }
        out.flush()?;
    }
    Ok(())
}

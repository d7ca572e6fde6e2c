//! `tengen fake-brain` (hidden): a deliberately bad Gomocup brain for the arena's tests.
//!
//! It answers ABOUT and START, plays the first empty point in reading order, and after
//! `--after` moves of its own commits the chosen `--fault`: it exits, hangs, answers garbage
//! or an occupied point. `--mute` never answers anything.

use std::io::{BufRead, Write};

use super::CmdResult;

/// How the fake brain misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Fault {
    /// Play properly.
    None,
    /// Exit with status 3 instead of answering.
    Crash,
    /// Stop answering, and ignore END.
    Hang,
    /// Answer a line that is not a move.
    Garbage,
    /// Answer the opponent's last move (an occupied point).
    Occupied,
}

#[derive(clap::Args)]
pub struct Args {
    /// What to do instead of a move.
    #[arg(long, value_enum, default_value = "none")]
    pub fault: Fault,
    /// How many good moves to play first.
    #[arg(long, default_value_t = 0)]
    pub after: u32,
    /// Answer nothing at all, not even ABOUT.
    #[arg(long)]
    pub mute: bool,
}

pub fn run(args: Args) -> CmdResult {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut size = 15usize;
    let mut board: Vec<bool> = vec![false; size * size];
    let mut last: Option<(usize, usize)> = None;
    let mut moves = 0;
    let mut in_board = false;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let (word, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        let point = |text: &str| -> Option<(usize, usize)> {
            let mut it = text.split(',').map(|t| t.trim().parse::<usize>().ok());
            Some((it.next()??, it.next()??))
        };
        let mut mark = |p: Option<(usize, usize)>, board: &mut Vec<bool>| {
            if let Some((x, y)) = p.filter(|&(x, y)| x < size && y < size) {
                board[y * size + x] = true;
                last = Some((x, y));
            }
        };
        if args.mute {
            if word.eq_ignore_ascii_case("END") {
                return Ok(());
            }
            continue;
        }
        let think = match word.to_ascii_uppercase().as_str() {
            "ABOUT" => {
                writeln!(out, "name=\"fake\", version=\"1\", author=\"Tengen tests\"")?;
                false
            }
            "START" => {
                size = rest.trim().parse().unwrap_or(15).clamp(5, 26);
                board = vec![false; size * size];
                writeln!(out, "OK")?;
                false
            }
            "BEGIN" => true,
            "TURN" => {
                mark(point(rest), &mut board);
                true
            }
            "BOARD" => {
                board = vec![false; size * size];
                in_board = true;
                false
            }
            "DONE" => {
                in_board = false;
                true
            }
            "END" => return Ok(()),
            "INFO" => false,
            _ if in_board => {
                mark(point(word), &mut board);
                false
            }
            _ => {
                writeln!(out, "UNKNOWN {word}")?;
                false
            }
        };
        if think {
            writeln!(out, "MESSAGE move {}", moves + 1)?;
            out.flush()?;
            if moves >= args.after {
                match args.fault {
                    Fault::None => {}
                    Fault::Crash => std::process::exit(3),
                    Fault::Hang => loop {
                        std::thread::park();
                    },
                    Fault::Garbage => writeln!(out, "this is not a move")?,
                    Fault::Occupied => {
                        let (x, y) = last.unwrap_or((0, 0));
                        writeln!(out, "{x},{y}")?;
                    }
                }
            }
            if moves < args.after || args.fault == Fault::None {
                let Some(i) = board.iter().position(|&taken| !taken) else {
                    writeln!(out, "ERROR the board is full")?;
                    continue;
                };
                board[i] = true;
                writeln!(out, "{},{}", i % size, i / size)?;
            }
            moves += 1;
        }
        out.flush()?;
    }
    Ok(())
}

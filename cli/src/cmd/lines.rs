//! The input side of the protocol commands (`brain`, `nboard`): the GUI's or manager's lines
//! read from stdin as bytes, bounded, on a thread of their own, so that commands arriving
//! while the engine thinks are never lost; and the engine both take (`EngineArgs`: level
//! and seed).

use std::sync::mpsc::Sender;

/// The bounded line reader, shared with the engine crate's protocol clients.
pub use tengen_engine::io::{read_line, Line};

/// Reads stdin on a new thread, `max` bytes a line at most, and sends each line through
/// `input(line)` to `tx`; `end` when stdin ends or fails.
pub fn spawn_stdin_reader<T: Send + 'static>(
    tx: Sender<T>,
    max: u64,
    input: impl Fn(Line) -> T + Send + 'static,
    end: T,
) {
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut bytes = Vec::new();
        while let Ok(Some(line)) = read_line(&mut stdin, &mut bytes, max) {
            if tx.send(input(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(end);
    });
}

/// The engine a protocol command plays.
#[derive(clap::Args)]
pub struct EngineArgs {
    /// The level to play, one of the game's levels (see `tengen levels`).
    #[arg(long, default_value = "master")]
    pub level: String,
    /// Seed of the engine's random choices (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// `seed`, or one from the clock.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_seed_is_kept() {
        assert_eq!(seed_or_clock(Some(7)), 7);
    }
}

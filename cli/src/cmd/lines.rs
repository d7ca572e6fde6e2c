//! The input side of the protocol commands (`brain`, `nboard`): the GUI's or manager's lines
//! read from stdin as bytes, bounded, on a thread of their own, so that commands arriving
//! while the engine thinks are never lost; and the engine both take (`EngineArgs`: level
//! and seed).

use std::io::{BufRead, Read};
use std::sync::mpsc::Sender;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line without its line ending, decoded lossily; `utf8` says whether it was valid
    /// UTF-8 (the caller decides whether a lossy line is acceptable).
    Text { text: String, utf8: bool },
    /// The line was longer than the limit; all of it was skipped.
    TooLong,
}

/// Reads one line of at most `max` bytes (`None` at the end of the input). The rest of a
/// longer line is skipped, still reading at most `max` bytes at a time.
pub fn read_line(
    input: &mut impl BufRead,
    bytes: &mut Vec<u8>,
    max: u64,
) -> std::io::Result<Option<Line>> {
    bytes.clear();
    let n = input.by_ref().take(max).read_until(b'\n', bytes)?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') && n as u64 == max {
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let m = input.by_ref().take(max).read_until(b'\n', &mut rest)?;
            if m == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Some(Line::TooLong));
    }
    let utf8 = std::str::from_utf8(bytes).is_ok();
    let text = String::from_utf8_lossy(bytes).trim_end_matches(['\r', '\n']).to_string();
    Ok(Some(Line::Text { text, utf8 }))
}

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

    fn lines(bytes: &[u8], max: u64) -> Vec<Line> {
        let mut input = bytes;
        let mut buf = Vec::new();
        std::iter::from_fn(|| read_line(&mut input, &mut buf, max).unwrap()).collect()
    }

    fn text(s: &str, utf8: bool) -> Line {
        Line::Text { text: s.to_string(), utf8 }
    }

    #[test]
    fn reads_bounded_lines_of_bytes() {
        assert_eq!(
            lines(b"a b\r\nc\nd", 16),
            [text("a b", true), text("c", true), text("d", true)]
        );
        assert_eq!(lines(b"\xe9t\xe9\n", 16), [text("\u{fffd}t\u{fffd}", false)]);
        // Over the limit: skipped whole, however long; exactly the limit with its end is kept.
        let mut long = vec![b'x'; 50];
        long.extend_from_slice(b"\nok\n");
        assert_eq!(lines(&long, 16), [Line::TooLong, text("ok", true)]);
        assert_eq!(lines(b"123456789012345\n", 16), [text("123456789012345", true)]);
        assert_eq!(lines(b"1234567890123456", 16), [Line::TooLong]);
        assert!(lines(b"", 16).is_empty());
    }

    #[test]
    fn a_given_seed_is_kept() {
        assert_eq!(seed_or_clock(Some(7)), 7);
    }
}

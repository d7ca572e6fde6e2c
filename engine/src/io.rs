//! Reading files that come from users: bounded, regular files only.
//!
//! A file's size from `fs::metadata` cannot be trusted: `/proc` files say 0, and a FIFO or a
//! device (`/dev/zero`) has no size at all and may never end, or block on open. Every file a
//! user names (a saved game, an openings file, an endgame list) is read through
//! [`read_bounded`], which refuses anything but a regular file and never reads more than its
//! limit, whatever the metadata says.
//!
//! Lines from other programs (a GUI or manager on stdin, an external engine's stdout) are
//! read the same way, bounded: [`read_line`].

use std::fs::File;
use std::io::{BufRead, ErrorKind, Read};
use std::path::Path;

use thiserror::Error;

/// The largest game record or data file the engine's tools read (a 26x26 record with every
/// move commented is well under 100 KiB).
pub const MAX_USER_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Why a user's file could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ReadError {
    #[error("there is no such file")]
    NotFound,
    #[error("permission to read it was denied")]
    PermissionDenied,
    #[error("it is not a regular file (a folder, a device or a pipe)")]
    NotAFile,
    #[error("it is larger than {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("it is not UTF-8 text")]
    NotText,
    #[error("{0}")]
    Other(String),
}

impl ReadError {
    fn from_io(e: std::io::Error) -> ReadError {
        match e.kind() {
            ErrorKind::NotFound => ReadError::NotFound,
            ErrorKind::PermissionDenied => ReadError::PermissionDenied,
            _ => ReadError::Other(e.to_string()),
        }
    }

    /// True when the file exists but could not be read (so it must not be treated as corrupt
    /// and moved aside).
    pub fn is_access_problem(&self) -> bool {
        matches!(self, ReadError::PermissionDenied | ReadError::Other(_))
    }
}

/// Reads at most `limit` bytes of the regular file at `path`; a longer file is refused with
/// [`ReadError::TooLarge`], anything that is not a regular file with [`ReadError::NotAFile`]
/// (checked before opening, so a FIFO never blocks the caller).
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::from_io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile);
    }
    let file = File::open(path).map_err(ReadError::from_io)?;
    let file_meta = file.metadata().map_err(ReadError::from_io)?;
    if !file_meta.is_file() {
        // Replaced between the two looks.
        return Err(ReadError::NotAFile);
    }
    let mut bytes = Vec::with_capacity(file_meta.len().min(limit) as usize);
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(ReadError::from_io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// [`read_bounded`], then UTF-8 ([`ReadError::NotText`] otherwise; a byte-order mark is
/// dropped).
pub fn read_text_bounded(path: &Path, limit: u64) -> Result<String, ReadError> {
    let bytes = read_bounded(path, limit)?;
    let mut text = String::from_utf8(bytes).map_err(|_| ReadError::NotText)?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

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

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("tengen-io-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn reads_a_small_file_and_refuses_a_large_one() {
        let d = temp_dir("size");
        let p = d.join("a.txt");
        std::fs::write(&p, "\u{feff}h8 i9").unwrap();
        assert_eq!(read_text_bounded(&p, 100).unwrap(), "h8 i9");
        assert_eq!(read_bounded(&p, 8).unwrap().len(), 8);
        assert_eq!(read_bounded(&p, 7), Err(ReadError::TooLarge { limit: 7 }));
        std::fs::write(&p, [0xff, 0xfe, 0x00]).unwrap();
        assert_eq!(read_text_bounded(&p, 100), Err(ReadError::NotText));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn refuses_folders_and_missing_files() {
        let d = temp_dir("kinds");
        assert_eq!(read_bounded(&d, 100), Err(ReadError::NotAFile));
        assert_eq!(read_bounded(&d.join("none"), 100), Err(ReadError::NotFound));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_proc_files_are_bounded_or_refused() {
        // /dev/zero never ends and says its size is 0: refused before it is opened.
        assert_eq!(read_bounded(Path::new("/dev/zero"), 100), Err(ReadError::NotAFile));
        // /proc files are regular files whose metadata says 0 bytes: the bound still holds.
        let d = temp_dir("fifo");
        let fifo = d.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.map(|s| s.success()).unwrap_or(false) {
            // Opening a FIFO with no writer would block for ever; it is refused unopened.
            assert_eq!(read_bounded(&fifo, 100), Err(ReadError::NotAFile));
        }
        std::fs::remove_dir_all(&d).unwrap();
        if Path::new("/proc/self/status").exists() {
            assert_eq!(
                read_bounded(Path::new("/proc/self/status"), 10),
                Err(ReadError::TooLarge { limit: 10 })
            );
        }
    }
}

//! One module per subcommand. Each has `Args` (clap) and `run(args) -> CmdResult`.

pub mod arena;
pub mod bench;
pub mod brain;
pub mod fake_brain;
pub mod fake_nboard;
pub mod forbidden;
pub mod levels;
pub mod lines;
pub mod nboard;
pub mod perft;
pub mod show;
pub mod solve;

/// Each subcommand reports failure through its own `thiserror` type, boxed here.
pub type CmdResult = Result<(), Box<dyn std::error::Error>>;

/// A file the user named on the command line could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {what} {path}: {source}")]
pub struct UserFileError {
    /// What the file was for ("the openings file", "the positions file").
    pub what: &'static str,
    pub path: String,
    #[source]
    pub source: tengen_engine::io::ReadError,
}

/// Reads a text file the user named: a regular file of at most
/// [`tengen_engine::io::MAX_USER_FILE_BYTES`], UTF-8, through the engine's bounded reader.
pub fn read_user_file(what: &'static str, path: &std::path::Path) -> Result<String, UserFileError> {
    tengen_engine::io::read_text_bounded(path, tengen_engine::io::MAX_USER_FILE_BYTES)
        .map_err(|source| UserFileError { what, path: path.display().to_string(), source })
}

/// `println!` that hands a failed write back to the caller instead of panicking, so that
/// `tengen arena ... | head` ends quietly when the reader goes away (see `main`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)
    }};
}
pub(crate) use outln;

/// Whether a command failed only because its output pipe was closed (`| head`), which is not
/// an error worth reporting.
pub fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(e) = cause {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        cause = e.source();
    }
    false
}

/// A `--threads` value out of range (1 to [`tengen_engine::ai::control::MAX_THREADS`]).
#[derive(Debug, thiserror::Error)]
#[error("threads must be a whole number from 1 to {max}, not {value:?}")]
pub struct ThreadsError {
    pub value: String,
    pub max: usize,
}

/// Parses a `--threads` value: a number of search threads within the engine's range.
pub fn threads_arg(s: &str) -> Result<usize, ThreadsError> {
    let max = tengen_engine::ai::control::MAX_THREADS;
    s.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| ThreadsError { value: s.to_string(), max })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_arg_takes_the_engines_range_only() {
        assert_eq!(threads_arg("1").unwrap(), 1);
        assert_eq!(threads_arg("2").unwrap(), 2);
        let max = tengen_engine::ai::control::MAX_THREADS;
        assert_eq!(threads_arg(&max.to_string()).unwrap(), max);
        for bad in ["0", "-1", "x", "", &(max + 1).to_string()] {
            assert!(threads_arg(bad).is_err(), "{bad:?}");
        }
    }
}

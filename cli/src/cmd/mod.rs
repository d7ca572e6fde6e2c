//! One module per subcommand. Each has `Args` (clap) and `run(args) -> CmdResult`.

pub mod arena;
pub mod bench;
pub mod brain;
pub mod fake_brain;
pub mod forbidden;
pub mod levels;
pub mod perft;
pub mod show;
pub mod solve;

/// Each subcommand reports failure through its own `thiserror` type, boxed here.
pub type CmdResult = Result<(), Box<dyn std::error::Error>>;

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

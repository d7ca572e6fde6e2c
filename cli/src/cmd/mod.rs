//! One module per subcommand. Each has `Args` (clap) and `run(args) -> CmdResult`.

pub mod arena;
pub mod bench;
pub mod brain;
pub mod forbidden;
pub mod levels;
pub mod perft;
pub mod show;
pub mod solve;

/// Each subcommand reports failure through its own `thiserror` type, boxed here.
pub type CmdResult = Result<(), Box<dyn std::error::Error>>;

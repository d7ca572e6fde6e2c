use tengen_engine::ai::Level;

use super::{outln, CmdResult};

pub fn run() -> CmdResult {
    for level in Level::all() {
        outln!("{level}")?;
    }
    Ok(())
}

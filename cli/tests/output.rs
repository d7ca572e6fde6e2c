//! Output to a pipe that closes early (`tengen arena ... | head -1`): the command stops
//! quietly with success, instead of panicking in `println!`.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

#[test]
fn a_closed_output_pipe_ends_the_command_quietly() {
    // 48 games print a line each, over about a second: most lines come after the reader left.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["arena", "--game", "gomoku", "--black", "fivetuple", "--white", "pattern"])
        .args(["--games", "48", "--time-per-move", "200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tengen binary starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("arena: "), "{first}");
    // The reader is dropped here: every later write fails with a broken pipe.
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

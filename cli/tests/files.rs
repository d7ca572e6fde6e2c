//! Files named on the command line: every one is read through the engine's bounded reader,
//! and a failure names the file and what went wrong, in words.

use std::process::{Command, Output};

fn tengen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen")).args(args).output().expect("tengen runs")
}

/// The command failed with this message on stderr (and nothing on stdout but comments).
fn fails_with(out: &Output, parts: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    for part in parts {
        assert!(stderr.contains(part), "{part:?} not in {stderr:?}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_missing_openings_file_is_named_as_such() {
    let levels = ["arena", "--black", "fivetuple", "--white", "fivetuple", "--games", "2"];
    let out = tengen(&[&levels[..], &["--openings", "/nonexistent/openings.txt"]].concat());
    fails_with(&out, &["cannot read the openings file /nonexistent/openings.txt", "no such file"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("game records"));
    let reversi = ["arena", "--game", "reversi", "--black", "greedy", "--white", "greedy"];
    let out = tengen(&[&reversi[..], &["--games", "2", "--openings", "/"]].concat());
    fails_with(&out, &["cannot read the openings file /", "not a regular file"]);
}

#[test]
fn solve_reads_only_regular_bounded_files() {
    let out = tengen(&["solve", "/nonexistent.txt"]);
    fails_with(&out, &["cannot read the positions file /nonexistent.txt", "no such file"]);
    let out = tengen(&["solve", "/dev/zero"]);
    fails_with(&out, &["cannot read the positions file /dev/zero", "not a regular file"]);
    let dir = std::env::temp_dir().join(format!("tengen-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.txt");
    std::fs::write(&big, vec![b'#'; 5 << 20]).unwrap();
    let out = tengen(&["solve", big.to_str().unwrap()]);
    fails_with(&out, &["cannot read the positions file", "larger than 4194304 bytes"]);
    let latin1 = dir.join("latin1.txt");
    std::fs::write(&latin1, b"# caf\xe9\n").unwrap();
    let out = tengen(&["solve", latin1.to_str().unwrap()]);
    fails_with(&out, &["not UTF-8"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_table_sizes_are_bounded() {
    let out = tengen(&["solve", "--tt-bits", "29", "/nonexistent.txt"]);
    fails_with(&out, &["--tt-bits", "29"]);
    let out = tengen(&["solve", "--tt-bits", "9", "/nonexistent.txt"]);
    fails_with(&out, &["--tt-bits"]);
}

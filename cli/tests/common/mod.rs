//! A `tengen brain` process driven as a Gomocup manager would, through its stdin and stdout
//! (shared by the brain tests).
#![allow(dead_code)] // each test file uses a part

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

pub struct Brain {
    pub child: Child,
    stdin: ChildStdin,
    /// The brain's output lines (decoded lossily), as they come.
    pub lines: Receiver<String>,
}

impl Brain {
    /// `tengen brain` at `level` with a fixed seed.
    pub fn start(level: &str, seed: u64) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["brain", "--level", level, "--seed", &seed.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the tengen binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while reader.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                if tx.send(String::from_utf8_lossy(&buf).trim_end().to_string()).is_err() {
                    break;
                }
                buf.clear();
            }
        });
        Brain { child, stdin, lines }
    }

    /// Writes `bytes`; false if the brain is gone.
    pub fn try_send(&mut self, bytes: &[u8]) -> bool {
        self.stdin.write_all(bytes).and_then(|()| self.stdin.flush()).is_ok()
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        assert!(self.try_send(bytes), "the brain reads its input");
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The brain's resident memory in bytes (Linux), from /proc.
    pub fn rss(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }

    /// The next answer line, skipping MESSAGE and DEBUG lines.
    pub fn answer(&mut self) -> String {
        loop {
            let line = self.lines.recv_timeout(Duration::from_secs(20)).expect("an answer");
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return line;
            }
        }
    }

    /// The next answer, which must be a move on an empty point of `board`; records it.
    pub fn answer_move(&mut self, board: &mut Vec<(u8, u8)>) -> (u8, u8) {
        let line = self.answer();
        let (x, y) = line.split_once(',').unwrap_or_else(|| panic!("a move, got {line:?}"));
        let p: (u8, u8) = (x.trim().parse().unwrap(), y.trim().parse().unwrap());
        assert!(p.0 < 26 && p.1 < 26, "{p:?} on the board");
        assert!(!board.contains(&p), "{p:?} is empty");
        board.push(p);
        p
    }

    /// BEGIN on an empty board is answered with a move; then END ends the brain cleanly.
    pub fn begins_and_ends(mut self) {
        let mut board = Vec::new();
        self.send("BEGIN");
        self.answer_move(&mut board);
        self.send("END");
        assert!(self.child.wait().unwrap().success());
    }
}

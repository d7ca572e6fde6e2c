//! Drives `tengen brain` as a Gomocup manager would, through its stdin and stdout.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Brain {
    fn start(level: &str) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["brain", "--level", level, "--seed", "7"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the tengen binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next answer line, skipping MESSAGE and DEBUG lines.
    fn answer(&mut self) -> String {
        loop {
            let line = self.lines.recv_timeout(Duration::from_secs(20)).expect("an answer");
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return line;
            }
        }
    }

    /// The next answer, which must be a move on an empty point of `board`; records it.
    fn answer_move(&mut self, board: &mut Vec<(u8, u8)>) -> (u8, u8) {
        let line = self.answer();
        let (x, y) = line.split_once(',').unwrap_or_else(|| panic!("a move, got {line:?}"));
        let p: (u8, u8) = (x.trim().parse().unwrap(), y.trim().parse().unwrap());
        assert!(p.0 < 15 && p.1 < 15, "{p:?} on the board");
        assert!(!board.contains(&p), "{p:?} is empty");
        board.push(p);
        p
    }
}

#[test]
fn plays_a_game_through_the_protocol() {
    let mut brain = Brain::start("pattern");
    brain.send("INFO timeout_turn 1000");
    brain.send("INFO rule 0");
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    brain.send("ABOUT");
    let about = brain.answer();
    assert!(about.contains("name=\"Tengen\"") && about.contains("version=\"0.1.0\""), "{about}");

    let mut board = Vec::new();
    brain.send("BEGIN");
    let first = brain.answer_move(&mut board);
    assert_eq!(first, (7, 7), "the pattern level opens at the centre");
    for turn in [(6, 6), (8, 6), (6, 8)] {
        board.push(turn);
        brain.send(&format!("TURN {},{}", turn.0, turn.1));
        brain.answer_move(&mut board);
    }
    // Take back the brain's last move and the opponent's, then replay.
    let last = *board.last().unwrap();
    brain.send(&format!("TAKEBACK {},{}", last.0, last.1));
    assert_eq!(brain.answer(), "OK");
    board.pop();
    brain.send("TAKEBACK 6,8");
    assert_eq!(brain.answer(), "OK");
    board.pop();
    brain.send("TAKEBACK 9,9");
    assert!(brain.answer().starts_with("ERROR"));
    brain.send("TURN 6,8");
    board.push((6, 8));
    brain.answer_move(&mut board);

    brain.send("TURN 99,99");
    assert!(brain.answer().starts_with("ERROR"));
    brain.send("FOO");
    assert!(brain.answer().starts_with("UNKNOWN"));

    brain.send("END");
    let start = Instant::now();
    let status = brain.child.wait().unwrap();
    assert!(status.success());
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn board_command_sets_up_a_position_and_the_brain_blocks_a_four() {
    let mut brain = Brain::start("pattern");
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    // The opponent (2) has four in a row on row 3; the brain (1) must block at 3,3 or 8,3.
    brain.send("BOARD");
    for line in ["4,3,2", "10,10,1", "5,3,2", "11,10,1", "6,3,2", "0,14,1", "7,3,2"] {
        brain.send(line);
    }
    brain.send("DONE");
    let mut board = vec![(4, 3), (5, 3), (6, 3), (7, 3), (10, 10), (11, 10), (0, 14)];
    let p = brain.answer_move(&mut board);
    assert!(p == (3, 3) || p == (8, 3), "{p:?}");
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}

#[test]
fn end_while_thinking_quits_promptly() {
    let mut brain = Brain::start("lookahead");
    brain.send("INFO timeout_turn 30000");
    brain.send("START 19");
    assert_eq!(brain.answer(), "OK");
    brain.send("BOARD");
    for line in ["9,9,2", "10,10,1", "9,10,2", "10,9,1", "8,8,2", "11,11,1", "12,8,2"] {
        brain.send(line);
    }
    brain.send("DONE");
    brain.send("END");
    let start = Instant::now();
    let status = brain.child.wait().unwrap();
    assert!(status.success());
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
}

#[test]
fn renju_rule_is_accepted() {
    let mut brain = Brain::start("fivetuple");
    brain.send("INFO rule 4");
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    let mut board = Vec::new();
    brain.send("BEGIN");
    brain.answer_move(&mut board);
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}

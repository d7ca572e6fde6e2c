//! Protocol fuzzing: random and malformed streams (random bytes, text that is not UTF-8,
//! huge numbers, bad coordinates, commands out of order, unknown commands), each followed
//! by ABOUT. The brain must stay alive and answer ABOUT, whatever came before.
//!
//! The streams come from a seeded generator, so a failure names its case and can be
//! replayed. `TENGEN_BRAIN_FUZZ_CASES` raises the number of cases (default
//! [`DEFAULT_CASES`]), `TENGEN_BRAIN_FUZZ_SEED` changes the seed, and
//! `TENGEN_BRAIN_FUZZ_LOG=FILE` writes everything sent to the brain (ABOUTs included) to FILE,
//! to replay a failure with `tengen brain < FILE`.

mod common;

use std::io::Write;
use std::time::Duration;

use common::Brain;

const DEFAULT_CASES: u64 = 400;
/// How long ABOUT may take to be answered: a search under way (at most the short turn time
/// the fuzzer allows, or a few YXNBEST searches) finishes first. Generous for a loaded
/// machine.
const ABOUT_WAIT: Duration = Duration::from_secs(30);

/// xorshift64*: a small seeded generator, enough for test inputs.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    /// A number: small, on a board, at an edge of a type, or absurd.
    fn number(&mut self) -> String {
        match self.below(8) {
            0 => "0".into(),
            1 => "-1".into(),
            2 => u64::MAX.to_string(),
            3 => "18446744073709551616".into(),
            4 => "99999999999999999999999999".into(),
            5 => (1u64 << 40).to_string(),
            6 => "x".into(),
            _ => self.below(30).to_string(),
        }
    }

    fn point(&mut self) -> String {
        match self.below(6) {
            0 => format!("{},{}", self.number(), self.number()),
            1 => self.number(),
            2 => format!("{},{},{}", self.below(20), self.below(20), self.below(20)),
            _ => format!("{},{}", self.below(20), self.below(20)),
        }
    }

    /// One line of the stream (with its line end).
    fn line(&mut self) -> Vec<u8> {
        let text = match self.below(24) {
            0 => {
                // Random bytes, often not UTF-8, maybe without a line end before the next.
                let n = self.below(40) as usize;
                let mut bytes: Vec<u8> = (0..n).map(|_| self.next() as u8).collect();
                bytes.retain(|&b| b != b'\n');
                bytes.push(b'\n');
                return bytes;
            }
            1 => {
                let mut bytes = b"INFO folder C:\\".to_vec();
                bytes.extend((0..self.below(10)).map(|_| 0x80 | self.next() as u8));
                bytes.push(b'\n');
                return bytes;
            }
            2 => format!("START {}", self.pick(&["5", "15", "20", "26", "4", "27"])),
            3 => format!("START {}", self.number()),
            4 => format!("RECTSTART {},{}", self.number(), self.number()),
            5 => "RESTART".into(),
            6 | 7 => "BEGIN".into(),
            8 | 9 => format!("TURN {}", self.point()),
            10 => "BOARD".into(),
            11 => format!("{},{}", self.point(), self.pick(&["1", "2", "3", "0", "9"])),
            12 => "DONE".into(),
            13 => format!("TAKEBACK {}", self.point()),
            14 => format!(
                "INFO {} {}",
                self.pick(&["max_memory", "rule", "game_type", "thread_num", "caution_factor"]),
                self.number()
            ),
            15 => format!("INFO rule {}", self.pick(&["0", "1", "2", "3", "4", "5", "8", "12"])),
            // Keep the searches short (the time a search may take is not under test here).
            16 => format!("INFO timeout_turn {}", self.below(40)),
            17 => format!("INFO time_left {}", self.below(400)),
            18 => "YXBOARD".into(),
            19 => "YXSHOWFORBID".into(),
            20 => format!("YXNBEST {}", self.pick(&["1", "2", "3", "0", "65", "x"])),
            21 => "YXHASHCLEAR".into(),
            22 => self.pick(&["FOO", "", "   ", "INFO", "SWAP2BOARD", "PLAY 1,1", "ABOUTX"]).into(),
            _ => format!("{} {}", self.pick(&["TURN", "BEGIN", "INFO", "START"]), self.number()),
        };
        let end = self.pick(&["\n", "\r\n", "\r\n"]);
        (text + end).into_bytes()
    }
}

/// The fuzzer's brain: Master, searches kept short.
fn start_brain() -> Brain {
    let mut brain = Brain::start("master", 3);
    brain.send("INFO timeout_turn 20");
    brain
}

/// Sends ABOUT and waits for its answer; false if the brain died or did not answer in
/// time. (ABOUT inside an unfinished BOARD is answered too, after an ERROR.)
fn answers_about(brain: &mut Brain) -> bool {
    if !brain.try_send(b"ABOUT\n") {
        return false;
    }
    loop {
        match brain.lines.recv_timeout(ABOUT_WAIT) {
            Ok(line) if line.starts_with("name=") => return true,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

#[test]
fn random_protocol_streams_never_kill_the_brain() {
    let env = |key: &str| std::env::var(key).ok().and_then(|v| v.parse::<u64>().ok());
    let cases = env("TENGEN_BRAIN_FUZZ_CASES").unwrap_or(DEFAULT_CASES);
    let seed = env("TENGEN_BRAIN_FUZZ_SEED").unwrap_or(0x005E_ED0F_B4A1);
    let mut gen = Gen(seed | 1);
    let mut log = std::env::var_os("TENGEN_BRAIN_FUZZ_LOG")
        .map(|path| std::fs::File::create(path).expect("the log file can be written"));
    let mut brain = start_brain();
    let mut failures = Vec::new();
    let mut lines_sent = 0u64;
    for case in 0..cases {
        let mut stream = Vec::new();
        for _ in 0..1 + gen.below(8) {
            stream.extend(gen.line());
            lines_sent += 1;
        }
        if let Some(log) = &mut log {
            log.write_all(&stream).and_then(|()| log.write_all(b"ABOUT\n")).unwrap();
        }
        let alive = brain.try_send(&stream) && answers_about(&mut brain);
        if !alive {
            failures.push(format!("case {case}: {:?}", String::from_utf8_lossy(&stream)));
            let _ = brain.child.kill();
            let _ = brain.child.wait();
            brain = start_brain();
        }
    }
    brain.send("END");
    let status = brain.child.wait().unwrap();
    eprintln!(
        "brain fuzz: {cases} streams, {lines_sent} lines, seed {seed:#x}: {} failures",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} streams broke the brain:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(status.success());
}

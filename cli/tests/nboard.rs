//! Drives `tengen nboard` as NBoard does, through its stdin and stdout.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use tengen_engine::reversi::ggf;
use tengen_engine::reversi::Position;
use tengen_engine::Move;

/// NBoard's own example game (black to move after 8 moves), with a 15-minute clock.
const GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]\
RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// Column a black, b1 white, white to move: white has no move and must pass; black's c1
/// then ends the game.
fn pass_game() -> String {
    let row = |first: &str| format!("{first}------");
    let mut board = row("*O");
    for _ in 1..8 {
        board.push(' ');
        board.push_str(&row("*-"));
    }
    format!("(;GM[Othello]BO[8 {board} O];)")
}

/// A 60-second limit for any one answer (debug builds on a busy machine).
const PATIENCE: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    errors: Receiver<String>,
}

impl Engine {
    fn start(level: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["nboard", "--level", level, "--seed", "3"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the tengen binary starts");
        let stdin = child.stdin.take().unwrap();
        let lines = forward(child.stdout.take().unwrap());
        let errors = forward(child.stderr.take().unwrap());
        Engine { child, stdin, lines, errors }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).and_then(|()| self.stdin.flush()).expect("the engine reads");
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn line(&mut self) -> String {
        self.lines.recv_timeout(PATIENCE).expect("a line from the engine")
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let l = self.line();
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return got;
            }
        }
    }

    /// Master after the handshake, with `set depth depth` and `set game game`.
    fn with_game(depth: u32, game: &str) -> Engine {
        let mut e = Engine::start("master");
        e.send("nboard 2");
        assert_eq!(e.line(), "set myname Tengen");
        e.send(&format!("set depth {depth}"));
        e.send(&format!("set game {game}"));
        assert!(e.sync(1).is_empty(), "settings are not answered");
        e
    }

    /// Pings and waits for the pong: everything said before it.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let mut got = self.until(&format!("pong {n}"));
        got.pop();
        got
    }

    /// The next line on stderr.
    fn error(&mut self) -> String {
        self.errors.recv_timeout(PATIENCE).expect("an error message")
    }

    fn quits(mut self) {
        self.send("quit");
        let start = Instant::now();
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status:?}");
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}

fn forward(stream: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        let mut buf = Vec::new();
        while reader.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
            if tx.send(String::from_utf8_lossy(&buf).trim_end().to_string()).is_err() {
                break;
            }
            buf.clear();
        }
    });
    rx
}

fn position(ggf_text: &str) -> Position {
    *ggf::parse(ggf_text).unwrap().position()
}

/// The move of `=== MOVE/EVAL/TIME`, checked for format.
fn answered_move(line: &str) -> Move {
    let rest = line.strip_prefix("=== ").unwrap_or_else(|| panic!("a move line: {line:?}"));
    let parts: Vec<&str> = rest.split('/').collect();
    assert_eq!(parts.len(), 3, "MOVE/EVAL/TIME: {line:?}");
    assert!(parts[1].parse::<f64>().is_ok() && parts[2].parse::<f64>().is_ok(), "{line:?}");
    let m = ggf::parse_move(parts[0]).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert!(parts[0].chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()), "{line}");
    m.mv
}

#[test]
fn handshake_then_go_answers_a_legal_move() {
    // The handshake (`nboard 2` answered `set myname Tengen`) is checked by `with_game`.
    let mut e = Engine::with_game(4, GAME);
    e.send("go");
    let got = e.until("===");
    assert_eq!(got[0], "status Tengen is thinking");
    assert!(got.iter().any(|l| l.starts_with("nodestats ")), "{got:?}");
    let Move::Place(p) = answered_move(got.last().unwrap()) else { panic!("{got:?}") };
    assert!(position(GAME).is_legal(p), "{got:?}");
    assert_eq!(e.line(), "status");
    // The GUI plays the move, then asks again: the engine follows the game.
    e.send(&format!("move {}/0.5/1.25", tengen_engine::reversi::format_square(p)));
    e.send("go");
    let got = e.until("===");
    let mut pos = position(GAME);
    pos.play(p).unwrap();
    let Move::Place(q) = answered_move(got.last().unwrap()) else { panic!("{got:?}") };
    assert!(pos.is_legal(q), "{got:?}");
    e.quits();
}

#[test]
fn the_games_clock_is_shared_out_by_the_search_control() {
    // 3 s left on black's clock, no `set depth`: the search control gives the move a
    // twelfth of it (250 ms), where Master's default second would apply without a clock.
    let game = GAME.replace("TI[15:00]", "TI[0:03]");
    let mut e = Engine::start("master");
    e.send("nboard 2");
    assert_eq!(e.line(), "set myname Tengen");
    e.send(&format!("set game {game}"));
    assert!(e.sync(1).is_empty());
    let start = Instant::now();
    e.send("go");
    let got = e.until("===");
    let took = start.elapsed();
    let Move::Place(p) = answered_move(got.last().unwrap()) else { panic!("{got:?}") };
    assert!(position(GAME).is_legal(p), "{got:?}");
    // Well under Master's default second (a generous bound for a loaded machine). How much
    // of its share the search spends is the control's iteration rule (it may stop early when
    // the next iteration would not fit), so no lower bound; the clock's conversion into
    // `time_left` is unit-tested in nboard.rs.
    assert!(took < Duration::from_millis(750), "{took:?}");
    e.quits();
}

#[test]
fn hint_lists_the_n_best_moves() {
    let mut e = Engine::with_game(3, GAME);
    let pos = position(GAME);
    let legal = pos.legal_points().len();
    assert!(legal > 3, "{legal}");
    for (n, expected) in [(3, 3), (1, 1), (64, legal)] {
        e.send(&format!("hint {n}"));
        let got = e.until("status");
        assert_eq!(got[0], "status Tengen is thinking");
        let got = e.until("status");
        assert_eq!(got.last().unwrap(), "status", "done");
        // Progress (the best line so far, nodestats) while searching, then the answer: the
        // n best lines together, just before the status.
        let answer = got[..got.len() - 1].iter().rev().take_while(|l| l.starts_with("search "));
        let hints: Vec<&String> = answer.collect::<Vec<_>>().into_iter().rev().collect();
        assert_eq!(hints.len(), expected, "hint {n}: {got:?}");
        let mut moves = Vec::new();
        for h in hints {
            // search PV EVAL 0 DEPTH
            let f: Vec<&str> = h.split(' ').collect();
            assert_eq!(f.len(), 5, "{h}");
            let Move::Place(p) = ggf::parse_move(&f[1][..2]).unwrap().mv else { panic!("{h}") };
            assert!(pos.is_legal(p), "{h}");
            assert!(f[2].parse::<f64>().is_ok() && f[3] == "0", "{h}");
            assert_eq!(f[4], "3", "{h}");
            moves.push((p.x, p.y));
        }
        moves.sort_unstable();
        moves.dedup();
        assert_eq!(moves.len(), expected, "distinct moves");
    }
    e.quits();
}

#[test]
fn ping_stops_a_search_and_is_answered_after_it() {
    let mut e = Engine::with_game(60, GAME);
    for command in ["go", "hint 2"] {
        e.send(command);
        assert_eq!(e.line(), "status Tengen is thinking");
        // A long search reports its progress: nodestats, after the best line for a hint.
        let progress = e.until("nodestats ");
        if command != "go" {
            assert!(progress[0].starts_with("search "), "{progress:?}");
        }
        let start = Instant::now();
        let got = e.sync(2);
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
        // The stopped search's answer comes first, then the pong.
        let answer = if command == "go" { "===" } else { "search " };
        assert!(got.iter().any(|l| l.starts_with(answer)), "{command}: {got:?}");
        assert_eq!(got.last().unwrap(), "status", "{got:?}");
    }
    // Quit while searching ends at once.
    e.send("go");
    assert_eq!(e.line(), "status Tengen is thinking");
    e.quits();
}

#[test]
fn a_pass_is_answered_and_played() {
    let mut e = Engine::start("master");
    e.send("nboard 2");
    e.send("set depth 5");
    e.send(&format!("set game {}", pass_game()));
    e.send("go");
    let got = e.until("===");
    assert_eq!(answered_move(got.last().unwrap()), Move::Pass, "{got:?}");
    assert_eq!(e.line(), "status");
    e.send("move PA");
    e.send("go");
    let got = e.until("===");
    let c1 = ggf::parse_move("c1").unwrap().mv;
    assert_eq!(answered_move(got.last().unwrap()), c1, "{got:?}");
    assert_eq!(e.line(), "status");
    // The game is over after c1: go says so and answers no move.
    e.send("move C1");
    e.send("go");
    assert!(e.error().contains("the game is over"));
    assert_eq!(e.sync(3), ["status"]);
    e.quits();
}

#[test]
fn bad_games_and_lines_are_refused_and_the_engine_goes_on() {
    let mut e = Engine::with_game(2, GAME);
    let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let ten = format!("BO[10 {} *]", "-".repeat(100));
    for (bad, why) in [
        (format!("(;GM[Othello]{start}B[a1];)"), "a1 is not a legal move"),
        (format!("(;GM[Othello]{start}W[d3];)"), "it is black's turn"),
        (format!("(;GM[Othello]TY[10]{ten};)"), "10x10"),
        ("(;GM[Othello]BO[8 *];)".to_string(), "cannot be read"),
        ("not a game".to_string(), "malformed"),
    ] {
        e.send(&format!("set game {bad}"));
        let err = e.error();
        assert!(err.starts_with("Error: set game refused") && err.contains(why), "{err}");
        // No game: go answers no move, and says why.
        e.send("go");
        assert!(e.error().contains("no game"));
        assert_eq!(e.sync(1), ["status"]);
    }
    // Unknown commands, bad numbers, bad bytes and an over-long line: an error each.
    e.send("fly away");
    assert!(e.error().contains("unknown command"));
    e.send("set depth 99");
    assert!(e.error().contains("from 1 to 60"));
    e.send_bytes(b"ping \xff\n");
    assert!(e.error().contains("not UTF-8"));
    let mut long = vec![b'x'; 200_000];
    long.push(b'\n');
    e.send_bytes(&long);
    assert!(e.error().contains("longer than"));
    assert!(e.sync(2).is_empty());
    // A good game afterwards is played.
    e.send(&format!("set game {GAME}"));
    e.send("go");
    let got = e.until("===");
    assert!(matches!(answered_move(got.last().unwrap()), Move::Place(_)));
    // An illegal move from the GUI loses the game until the next set game.
    e.send("move A1");
    assert!(e.error().contains("move A1 refused"));
    e.send("go");
    assert!(e.error().contains("no game"));
    e.quits();
}

#[test]
fn analyze_scores_every_position_of_the_game_the_last_first() {
    // The pass game played out: white passes, black's c1 takes b1 and ends the game with
    // 10 black discs, the 54 empties going to black.
    let game = pass_game().replace(";)", "W[PA]B[C1];)");
    let mut e = Engine::with_game(4, &game);
    e.send("analyze");
    assert_eq!(e.line(), "status Tengen is thinking");
    let got = e.until("status");
    // After c1 white is to move and has lost by 64; before it black wins by 64; at the
    // start white, who must pass, loses by 64.
    assert_eq!(got, ["analysis 2 -64.00", "analysis 1 64.00", "analysis 0 -64.00", "status"]);
    // NBoard's example game: 8 moves, so 9 positions, the last first.
    e.send(&format!("set game {GAME}"));
    e.send("analyze");
    assert_eq!(e.line(), "status Tengen is thinking");
    let got = e.until("status");
    let ks: Vec<&str> = got.iter().filter_map(|l| l.split(' ').nth(1)).collect();
    assert_eq!(ks, ["8", "7", "6", "5", "4", "3", "2", "1", "0"], "{got:?}");
    let evals = got[..9].iter().filter_map(|l| l.split(' ').nth(2));
    assert_eq!(evals.filter(|v| v.parse::<f64>().is_ok()).count(), 9, "{got:?}");
    e.quits();
}

#[test]
fn learn_and_the_end_of_the_input() {
    let mut e = Engine::start("greedy");
    e.send("nboard 2");
    e.send("learn");
    e.send("set myname");
    assert_eq!(e.line(), "set myname Tengen");
    assert_eq!(e.line(), "learned");
    assert!(e.error().contains("unknown setting"));
    assert!(e.sync(1).is_empty());
    e.send("ping");
    assert_eq!(e.line(), "pong");
    // Closing stdin ends the engine cleanly.
    drop(e.stdin);
    assert!(e.child.wait().unwrap().success());
}

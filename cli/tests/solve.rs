//! `tengen solve`: output format and exact scores on small endgames, checked against a plain
//! alpha-beta written here.

use std::process::Command;

use tengen_engine::reversi::bitboard::{flips, moves};
use tengen_engine::reversi::{format_board, parse_board, parse_square, Position};
use tengen_engine::rng::Rng;

/// Plain fail-hard alpha-beta: final disc difference for the side to move, empties to the
/// winner.
fn reference(p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
    let m = moves(p, o);
    if m == 0 {
        if moves(o, p) == 0 {
            let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
            let e = 64 - np - no;
            let d = np - no;
            let s = if d > 0 {
                d + e
            } else if d < 0 {
                d - e
            } else {
                0
            };
            return s.clamp(alpha, beta);
        }
        return -reference(o, p, -beta, -alpha);
    }
    for sq in 0..64u8 {
        if m & (1u64 << sq) != 0 {
            let f = flips(p, o, sq);
            let v = -reference(o & !f, p | f | (1u64 << sq), -beta, -alpha);
            if v >= beta {
                return beta;
            }
            alpha = alpha.max(v);
        }
    }
    alpha
}

/// A position after random play from the start with `empties` empty squares left and a
/// legal move for the side to move.
fn random_position(seed: u64, empties: u32) -> Position {
    let mut rng = Rng::new(seed);
    'again: loop {
        let mut pos = Position::initial();
        while pos.empties() > empties {
            if pos.is_game_over() {
                continue 'again;
            }
            if pos.must_pass() {
                pos.pass().expect("must pass");
                continue;
            }
            let pts = pos.legal_points();
            let p = pts[rng.below(pts.len() as u64) as usize];
            pos.play(p).expect("legal");
        }
        if pos.legal_moves() != 0 {
            return pos;
        }
    }
}

fn run_solve(text: &str) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("tengen-solve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("positions-{}.txt", text.len()));
    std::fs::write(&file, text).expect("write temp file");
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("solve")
        .arg(&file)
        .output()
        .expect("run tengen");
    let _ = std::fs::remove_file(&file);
    out
}

#[test]
fn solves_small_endgames_in_the_stable_format() {
    let positions = [random_position(1, 10), random_position(2, 12)];
    let mut text = String::from("# two random endgames\n\n");
    for (i, p) in positions.iter().enumerate() {
        text.push_str(&format!("{} ; id={i} third fields are ignored\n", format_board(p)));
    }
    let out = run_solve(&text);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    for (i, pos) in positions.iter().enumerate() {
        let f: Vec<&str> = lines[i].split_whitespace().collect();
        assert_eq!(f.len(), 6, "{}", lines[i]);
        assert_eq!(f[0], (i + 1).to_string());
        let truth = reference(pos.player(), pos.opponent(), -65, 65);
        let expected = if truth >= 0 { format!("+{truth}") } else { truth.to_string() };
        assert_eq!(f[2], expected, "score of position {}", i + 1);
        // The move is legal and reaches the score.
        let mv = parse_square(f[1]).expect("a square");
        let mut after = *pos;
        after.play(mv).expect("a legal move");
        assert_eq!(-reference(after.player(), after.opponent(), -65, 65), truth);
        assert!(f[3].parse::<u64>().expect("nodes") > 0);
        let seconds = f[4];
        assert_eq!(seconds.split('.').nth(1).map(str::len), Some(3), "{seconds}");
        f[5].parse::<u64>().expect("nps");
    }
    let total: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(total[0], "total");
    assert_eq!(total[1], "positions=2");
    assert!(total[2].starts_with("nodes=") && total[3].starts_with("seconds="));
    assert!(total[4].starts_with("nps="));
}

#[test]
fn a_finished_game_prints_pass_and_the_final_score() {
    let board = format!("{}{} X", "X".repeat(40), "O".repeat(24));
    assert!(parse_board(&board).expect("valid").is_game_over());
    let out = run_solve(&format!("{board}\n"));
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let line = stdout.lines().find(|l| l.starts_with("1 ")).expect("a result line");
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&f[1..3], &["pass", "+16"]);
}

#[test]
fn a_malformed_line_is_an_error_naming_the_line() {
    let good = format_board(&random_position(3, 10));
    let out = run_solve(&format!("{good}\n# comment\n{}\n", &good[..50]));
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 3"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

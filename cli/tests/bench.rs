//! `tengen bench --cancel-after`: every search is cancelled while it thinks, on several
//! threads, and the bench says how long each took to answer after the cancel.

use std::process::Command;

fn bench(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("bench")
        .args(args)
        .output()
        .expect("the tengen binary starts");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    (out.status.success(), text(out.stdout), text(out.stderr))
}

/// The milliseconds in "answer 1.2 ms after the cancel".
fn answer_ms(line: &str) -> Option<f64> {
    let (_, rest) = line.split_once(" answer ")?;
    rest.strip_suffix(" ms after the cancel")?.parse().ok()
}

#[test]
fn a_cancelled_master_answers_soon_on_two_threads() {
    for game in ["gomoku", "reversi"] {
        let (ok, out, err) = bench(&[
            "--game",
            game,
            "--level",
            "master",
            "--cancel-after",
            "150",
            "--threads",
            "2",
        ]);
        assert!(ok, "{err}");
        let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
        let positions: Vec<&&str> =
            lines.iter().filter(|l| !l.starts_with("total") && l.contains(" depth ")).collect();
        assert!(positions.len() >= 3, "{out}");
        let mut cancelled = 0;
        for line in &positions {
            if line.ends_with("answered before the cancel") {
                continue;
            }
            let ms = answer_ms(line).unwrap_or_else(|| panic!("no answer time: {line}"));
            // Not a speed test (the engines' promise, 50 ms, is measured in
            // docs/BENCHMARKS.md): a search that missed the cancel runs on to its time limit,
            // 10 s after it, and a starved test process still answers far sooner than that.
            assert!(ms < 5_000.0, "{game}: the cancel was missed: {line}");
            cancelled += 1;
        }
        assert!(cancelled >= 2, "{game}: most positions are still searching at 150 ms:\n{out}");
        let total = lines.iter().find(|l| l.starts_with("total")).expect("a total line");
        assert!(total.contains("longest answer after a cancel"), "{total}");
    }
}

#[test]
fn a_cancel_time_does_not_go_with_a_depth_or_a_time() {
    for other in [["--depth", "5"], ["--time", "100"]] {
        let (ok, _, err) =
            bench(&["--game", "gomoku", "--cancel-after", "100", other[0], other[1]]);
        assert!(!ok);
        assert!(err.contains("cannot be used with"), "{err}");
    }
}

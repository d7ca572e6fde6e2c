//! `tengen arena` with external engines (`ext:PATH`: Gomocup brains in Gomoku, NBoard engines
//! in Reversi) and with `--sprt`.
//!
//! An external engine is an executable run without arguments, as a Gomocup manager runs
//! `pbrain-*` files, so each test writes a small shell wrapper into its own folder: it appends
//! its process id (which `exec` keeps) to a file, then runs `tengen brain`, `tengen nboard` or
//! the hidden `tengen fake-brain` / `tengen fake-nboard` that misbehave on request. After the
//! arena exits, no process of those ids may still run.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use tengen_engine::gomoku::psq::{read_psq_with_rule, PsqRecord};
use tengen_engine::gomoku::Rule;

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arena_external").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `dir/pbrain.sh`, which records its pid in `dir/pids` and runs `tengen ARGS`.
fn wrapper(dir: &Path, args: &str) -> String {
    let script = dir.join("pbrain.sh");
    let text = format!(
        "#!/bin/sh\necho $$ >> '{}'\nexec '{}' {args}\n",
        dir.join("pids").display(),
        env!("CARGO_BIN_EXE_tengen")
    );
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("ext:{}", script.display())
}

/// Runs `tengen arena ARGS`; a run that takes more than two minutes (each takes seconds)
/// is killed and fails the test rather than hanging it.
fn arena(args: &[&str]) -> (Output, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("arena")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tengen binary starts");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        if rx.recv_timeout(Duration::from_secs(120)).is_err() {
            let _ = Command::new("kill").arg(pid.to_string()).status();
        }
    });
    let out = child.wait_with_output().expect("the arena runs");
    let _ = tx.send(());
    assert!(out.status.code().is_some(), "the arena hung and was killed");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text)
}

/// The brains this test started: all must have ended.
fn assert_no_brain_left(dir: &Path) {
    let pids = std::fs::read_to_string(dir.join("pids")).unwrap_or_default();
    assert!(!pids.trim().is_empty(), "no brain was started");
    for pid in pids.split_whitespace() {
        let alive = Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|s| s.split_whitespace().nth(2) == Some("Z"));
        if cfg!(target_os = "linux") {
            assert!(!alive, "the brain {pid} still runs");
        }
    }
}

fn game_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("game ")).collect()
}

/// Plays two games (one with each colour) between `tengen BRAIN` as an external engine and
/// `args` (the level and the match's settings), each written out; both must end by the
/// rules (five or a full board), not by a failure or the clock. Returns the arena's output
/// and the games' records with their rules.
fn two_games_by_the_rules(name: &str, brain: &str, args: &[&str]) -> (String, Vec<PsqGame>) {
    let dir = folder(name);
    let ext = wrapper(&dir, brain);
    let games = dir.join("games");
    let out_dir = games.to_str().unwrap();
    let common = ["--black", &ext, "--games", "2", "--out", out_dir];
    let (out, stdout) = arena(&[&common[..], args].concat());
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let lines = game_lines(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    for line in lines {
        assert!(line.contains("(five)") || line.contains("draw"), "{line}");
    }
    let records = (1..=2)
        .map(|i| {
            let psq = std::fs::read_to_string(games.join(format!("game-00{i}.psq"))).unwrap();
            let (record, rule) = read_psq_with_rule(&psq).unwrap();
            PsqGame { record, rule, text: psq }
        })
        .collect();
    assert_no_brain_left(&dir);
    (stdout, records)
}

/// One game record that the arena wrote.
struct PsqGame {
    record: PsqRecord,
    rule: Option<Rule>,
    text: String,
}

#[test]
fn tengen_brain_plays_as_an_external_engine_and_records_carry_the_rule() {
    let brain = "brain --level pattern --seed 3";
    let settings = ["--white", "fivetuple", "--time-per-move", "100", "--rule", "standard"];
    let (stdout, games) = two_games_by_the_rules("real", brain, &settings);
    assert!(stdout.contains("ext:pbrain.sh: name=\"Tengen\""), "{stdout}");
    for game in games {
        assert!(game.record.moves.len() > 3, "{}", game.text);
        assert_eq!(game.rule, Some(Rule::Standard), "{}", game.text);
    }
}

/// Under a game clock (`--match-time`), the brain is told its time left before each move
/// and spreads it over the game: against Master, both games end by the rules, and neither
/// side spends more than its clock. (A brain that never hears of the clock, thinking its
/// whole second a move, loses both games on time after about 15 moves.)
#[test]
fn under_a_match_clock_the_brain_spreads_its_time_and_never_loses_on_it() {
    let brain = "brain --level master --seed 5";
    let settings = ["--white", "master", "--threads", "1", "--time-per-move", "1000"];
    let clock = ["--match-time", "10000"];
    let (stdout, games) = two_games_by_the_rules("clock", brain, &[&settings[..], &clock].concat());
    assert!(stdout.contains("1000 ms per move and 10000 ms a game each"), "{stdout}");
    for game in games {
        let mut spent = [0u64; 2];
        for (ply, &(_, ms)) in game.record.moves.iter().enumerate() {
            spent[ply % 2] += ms;
        }
        assert!(spent.iter().all(|&ms| ms < 10_000), "{spent:?} ms\n{}", game.text);
    }
}

/// Plays two games (one with each colour) against a fake brain with `fault` after one good
/// move; both must be lost by the brain for a reason containing each of `why`.
fn fault_loses_both_games(name: &str, fault: &str, why: &[&str]) {
    fake_loses_both_games(name, &["--game", "gomoku"], "fake-brain", fault, why);
}

/// [`fault_loses_both_games`] for `game` (arena arguments) and the fake engine `fake` against
/// the game's weakest level.
fn fake_loses_both_games(name: &str, game: &[&str], fake: &str, fault: &str, why: &[&str]) {
    let dir = folder(name);
    let ext = wrapper(&dir, &format!("{fake} --fault {fault} --after 1"));
    let level = if game.contains(&"reversi") { "greedy" } else { "fivetuple" };
    let mut args = vec!["--black", &ext, "--white", level, "--games", "2"];
    args.extend_from_slice(&["--time-per-move", "100"]);
    args.extend_from_slice(game);
    let (out, stdout) = arena(&args);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let lines = game_lines(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    for (line, side) in lines.iter().zip(["black", "white"]) {
        assert!(line.contains(&format!("{level} wins ({side} ")), "{line}");
        assert!(why.iter().all(|w| line.contains(w)), "{line}");
    }
    assert!(stdout.contains("+0 -2 =0"), "{stdout}");
    // One brain for the ABOUT check, then a fresh one for each game.
    let pids = std::fs::read_to_string(dir.join("pids")).unwrap();
    assert_eq!(pids.lines().count(), 3, "{pids}");
    assert_no_brain_left(&dir);
}

#[test]
fn a_crash_loses_the_game() {
    fault_loses_both_games(
        "crash",
        "crash",
        &["forfeits (crash): the engine exited while asked TURN"],
    );
}

#[test]
fn a_hang_loses_the_game() {
    // 100 ms per move plus the margin of one second and half the turn.
    let why = [
        "forfeits (timeout): the engine did not answer TURN",
        "within 1150 ms (its last message: \"MESSAGE move 2\")",
    ];
    fault_loses_both_games("hang", "hang", &why);
}

#[test]
fn garbage_loses_the_game() {
    fault_loses_both_games(
        "garbage",
        "garbage",
        &["forfeits (illegal move):", "with \"this is not a move\""],
    );
}

#[test]
fn an_occupied_point_loses_the_game() {
    fault_loses_both_games(
        "occupied",
        "occupied",
        &["forfeits (illegal move): ", " is already taken"],
    );
}

#[test]
fn a_brain_that_does_not_answer_about_is_refused_before_any_game() {
    let dir = folder("mute");
    let ext = wrapper(&dir, "fake-brain --mute");
    let (out, stdout) = arena(&["--black", "pattern", "--white", &ext, "--games", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(game_lines(&stdout).is_empty(), "{stdout}");
    assert!(stderr.contains("the engine did not answer ABOUT"), "{stderr}");
    assert_no_brain_left(&dir);
}

#[test]
fn a_missing_brain_is_a_clear_error() {
    let (out, _) = arena(&["--black", "ext:/nonexistent/pbrain-x", "--white", "pattern"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("cannot start /nonexistent/pbrain-x"), "{stderr}");
}

/// Runs an SPRT at elo0 0, elo1 400 between pattern and a fake brain that fills the board in
/// reading order (the fake first if `fake_first`), at most 40 games; returns the output.
fn sprt_against_the_fake(name: &str, fake_first: bool, extra: &[&str]) -> String {
    let dir = folder(name);
    let ext = wrapper(&dir, "fake-brain");
    let (black, white) = if fake_first { (&*ext, "pattern") } else { ("pattern", &*ext) };
    let mut args = vec!["--black", black, "--white", white, "--sprt", "0,400", "--games", "40"];
    args.extend_from_slice(&["--time-per-move", "50"]);
    args.extend_from_slice(extra);
    let (out, stdout) = arena(&args);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert_no_brain_left(&dir);
    stdout
}

/// The `sprt:` lines of an arena's output.
fn sprt_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("sprt: ")).collect()
}

#[test]
fn sprt_accepts_h1_when_the_first_engine_wins_every_pair() {
    // Pattern wins every pair against the fake. At elo0 0, elo1 400 the LLR is 0.09 after
    // one 2-0 pair, 0.88, 1.79 and 2.80 after two to four and 3.88 after five (computed in
    // sprt.rs's way with python3), so the fifth pair crosses the bound 2.94: ten games of the
    // forty allowed.
    let stdout = sprt_against_the_fake("sprt-h1", false, &[]);
    assert_eq!(game_lines(&stdout).len(), 10, "{stdout}");
    let sprt = sprt_lines(&stdout);
    assert_eq!(sprt.len(), 5, "{stdout}");
    assert!(sprt[0].contains("LLR 0.09 [-2.94, 2.94]") && sprt[0].ends_with("undecided"));
    assert!(sprt[3].contains("LLR 2.80") && sprt[3].ends_with("undecided"), "{}", sprt[3]);
    assert!(sprt[4].contains("LLR 3.88") && sprt[4].contains("+10 -0 =0"), "{}", sprt[4]);
    assert!(sprt[4].contains("pairs 0-0-0-0-5") && sprt[4].ends_with("H1 accepted"));
}

#[test]
fn sprt_accepts_h0_when_the_first_engine_loses_every_pair() {
    // The other way round the LLR is -3.03 after four 0-2 pairs (-1.21 after one): H0.
    let stdout = sprt_against_the_fake("sprt-h0", true, &["--quiet"]);
    let sprt = sprt_lines(&stdout);
    assert_eq!(sprt.len(), 1, "--quiet prints the final line only: {stdout}");
    assert!(sprt[0].contains("+0 -8 =0") && sprt[0].ends_with("H0 accepted"), "{}", sprt[0]);
}

#[test]
fn tengen_nboard_plays_reversi_as_an_external_engine() {
    let dir = folder("nboard-real");
    let ext = wrapper(&dir, "nboard --level classic --seed 3");
    let games = dir.join("games");
    let mut args = vec!["--game", "reversi", "--black", &ext, "--white", "greedy"];
    args.extend_from_slice(&["--games", "2", "--time-per-move", "100"]);
    args.extend_from_slice(&["--out", games.to_str().unwrap()]);
    let (out, stdout) = arena(&args);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("ext:pbrain.sh: NBoard engine \"Tengen\""), "{stdout}");
    let lines = game_lines(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    // Both games end by the rules (a disc count), not by a failure of the engine.
    for line in lines {
        let reason = line.split_once(" (").and_then(|(_, r)| r.split_once(')')).map(|r| r.0);
        let discs = reason.and_then(|r| r.split_once('-'));
        let discs = discs.and_then(|(b, w)| Some((b.parse::<u32>().ok()?, w.parse::<u32>().ok()?)));
        assert!(discs.is_some_and(|(b, w)| b + w <= 64), "{line}");
    }
    assert_no_brain_left(&dir);
}

fn nboard_fault(name: &str, fault: &str, why: &[&str]) {
    fake_loses_both_games(name, &["--game", "reversi"], "fake-nboard", fault, why);
}

#[test]
fn an_nboard_crash_loses_the_game() {
    nboard_fault("nboard-crash", "crash", &["forfeits (crash): the engine exited while asked go"]);
}

#[test]
fn an_nboard_hang_loses_the_game() {
    // 100 ms per move plus the margin of one second.
    let why = [
        "forfeits (timeout): the engine did not answer go within 1100 ms",
        "(its last message: \"status move 2\")",
    ];
    nboard_fault("nboard-hang", "hang", &why);
}

#[test]
fn nboard_garbage_a_taken_square_or_a_wrong_pass_loses_the_game() {
    let why = ["forfeits (illegal move): the engine answered go with \"=== this is not a move\""];
    nboard_fault("nboard-garbage", "garbage", &why);
    nboard_fault(
        "nboard-occupied",
        "occupied",
        &["forfeits (illegal move): ", " is already taken"],
    );
    nboard_fault("nboard-pass", "pass", &["forfeits (illegal move): ", "cannot pass"]);
}

#[test]
fn an_nboard_engine_that_does_not_answer_ping_is_refused_before_any_game() {
    let dir = folder("nboard-mute");
    let ext = wrapper(&dir, "fake-nboard --mute");
    let args = ["--game", "reversi", "--black", "greedy", "--white", &ext, "--games", "2"];
    let (out, stdout) = arena(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(game_lines(&stdout).is_empty(), "{stdout}");
    assert!(stderr.contains("the engine did not answer ping 1 within 10000 ms"), "{stderr}");
    assert_no_brain_left(&dir);
}

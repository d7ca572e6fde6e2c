//! External engines in the app, driven by the fake brain of `tests/fixtures/fake-brain.sh`
//! and the fake NBoard engine of `tests/fixtures/fake-nboard.sh` (POSIX sh, told to crash,
//! hang or play illegally): adding one (ABOUT; NBoard: ping), refusing files that are not
//! engines, a game against it, each failure as the engine's forfeit with the app still
//! usable, and no engine process left behind.
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use tauri::Manager;
use tengen_app::engines::Protocol;

/// Writes `dir/pbrain-fake`, which records its pid in `dir/pids` and runs the fake brain
/// with `args` (a brain is run without arguments, so each test gets its own wrapper).
fn wrapper(dir: &Path, args: &str) -> PathBuf {
    wrapper_of(dir, "fake-brain.sh", "pbrain-fake", args)
}

/// Writes `dir/NAME`, which records its pid in `dir/pids` and runs `tests/fixtures/FIXTURE`
/// with `args`.
fn wrapper_of(dir: &Path, fixture: &str, name: &str, args: &str) -> PathBuf {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(fixture);
    let script = dir.join(name);
    let text = format!(
        "#!/bin/sh\necho $$ >> '{}'\nexec sh '{}' {args}\n",
        dir.join("pids").display(),
        fixture.display()
    );
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Adds the program at `path` as the user does after choosing it in the dialog.
fn add(h: &Harness, path: &Path) -> Result<Value, Value> {
    add_as(h, path, Protocol::Gomocup)
}

/// [`add`] for an engine of `protocol`.
fn add_as(h: &Harness, path: &Path, protocol: Protocol) -> Result<Value, Value> {
    tengen_app::commands::add_engine(h.app.handle(), path.to_path_buf(), protocol)
        .map(|e| serde_json::to_value(e).unwrap())
        .map_err(|e| serde_json::to_value(e).unwrap())
}

fn alive(pid: &str) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| s.split_whitespace().nth(2) == Some("Z"))
}

/// Every brain started from `dir` has ended (within a few seconds: a brain is ended off the
/// command's thread).
fn assert_no_brain_left(dir: &Path) {
    let pids = std::fs::read_to_string(dir.join("pids")).unwrap_or_default();
    assert!(!pids.trim().is_empty(), "no brain was started");
    let start = std::time::Instant::now();
    while pids.split_whitespace().any(alive) && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in pids.split_whitespace() {
        assert!(!alive(pid), "the brain {pid} still runs");
    }
}

fn brain(id: u64) -> Value {
    json!({"type": "external", "id": id})
}

#[test]
fn an_engine_is_added_with_its_about_answer_listed_and_removed() {
    let h = Harness::new("engine-add");
    let script = wrapper(&h.dir, "");
    let added = add(&h, &script).unwrap();
    assert_eq!(added["id"], 1);
    assert_eq!(added["name"], "fake");
    assert!(added["about"].as_str().unwrap().contains("author=\"Tengen tests\""), "{added}");
    assert_eq!(added["path"], script.canonicalize().unwrap().display().to_string());
    assert!(added["added"].as_u64().unwrap() > 1_700_000_000);
    let list = h.ok("engines_list", json!({}));
    assert_eq!(list.as_array().unwrap().len(), 1);
    let checked = h.ok("engine_check", json!({"id": 1}));
    assert_eq!(checked["name"], "fake");
    // The list survives a restart (a second app in the same folder).
    let state = h.app.state::<tengen_app::runtime::AppState>();
    state.saver.flush();
    let again = Harness::in_dir(h.dir.clone());
    assert_eq!(again.ok("engines_list", json!({})), list);
    let list = h.ok("engine_remove", json!({"id": 1}));
    assert_eq!(list, json!([]));
    let e = h.err("engine_remove", json!({"id": 1}));
    assert_eq!(
        (e["code"].as_str(), e["params"]["problem"].as_str()),
        (Some("engine_error"), Some("unknown"))
    );
    let e = h.err("engine_check", json!({"id": 1}));
    assert_eq!(e["params"]["problem"], "unknown");
    assert_no_brain_left(&h.dir);
}

#[test]
fn files_that_are_not_brains_are_refused_in_words() {
    let h = Harness::new("engine-refused");
    let problem = |path: &Path| add(&h, path).unwrap_err()["params"]["problem"].clone();
    assert_eq!(problem(Path::new("/nonexistent/pbrain-x")), "not_found");
    assert_eq!(problem(&h.dir), "not_a_file");
    let plain = h.dir.join("pbrain-plain");
    std::fs::write(&plain, "#!/bin/sh\n").unwrap();
    assert_eq!(problem(&plain), "not_executable");
    // A program that says nothing, one that exits at once, one that answers nonsense.
    let mute = h.dir.join("pbrain-mute");
    std::fs::write(&mute, "#!/bin/sh\nexec sleep 30\n").unwrap();
    let quits = h.dir.join("pbrain-quits");
    std::fs::write(&quits, "#!/bin/sh\nexit 1\n").unwrap();
    let talks = h.dir.join("pbrain-talks");
    std::fs::write(&talks, "#!/bin/sh\nread x\necho hello\nsleep 30\n").unwrap();
    for p in [&mute, &quits, &talks] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let e = add(&h, &mute).unwrap_err();
    assert_eq!(e["params"]["problem"], "no_answer", "{e}");
    assert_eq!(e["params"]["seconds"], 5);
    assert_eq!(problem(&quits), "crashed");
    assert_eq!(problem(&talks), "bad_answer");
    assert_eq!(h.ok("engines_list", json!({})), json!([]));
}

/// Starts a 9x9 freestyle game, the human black against the brain added from `args`;
/// answers the harness and the brain's id.
fn game_against(tag: &str, args: &str, ms: u64) -> (Harness, u64) {
    let h = Harness::new(tag);
    let id = add(&h, &wrapper(&h.dir, args)).unwrap()["id"].as_u64().unwrap();
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 9, human(), brain(id), ms) }));
    (h, id)
}

#[test]
fn a_game_against_the_brain_goes_on_move_by_move_and_after_an_undo() {
    let (h, id) = game_against("engine-game", "", 1000);
    let s = h.snapshot();
    assert_eq!(s["players"]["white"], json!({"type": "external", "id": id}));
    for (i, (x, y)) in [(4, 4), (5, 5), (6, 6)].into_iter().enumerate() {
        h.ok("play_move", json!({"x": x, "y": y}));
        let s = h.wait_until(10, "the brain's reply", |s| move_count(s) == 2 * i + 2);
        // The fake plays the first empty point in reading order: a9, b9, c9.
        assert_eq!(s["board"][0][i], "white", "{s}");
        assert!(s["result"].is_null(), "{s}");
    }
    // Undo takes back the pair; the next reply comes from the position (BOARD).
    h.ok("undo", json!({}));
    assert_eq!(move_count(&h.snapshot()), 4);
    h.ok("play_move", json!({"x": 0, "y": 8}));
    let s = h.wait_until(10, "the reply after undo", |s| move_count(s) == 6);
    assert_eq!(s["board"][0][2], "white", "{s}");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 9, human(), human(), 1000) }));
    assert_no_brain_left(&h.dir);
}

#[test]
fn the_brain_plays_black_too() {
    let h = Harness::new("engine-black");
    let id = add(&h, &wrapper(&h.dir, "")).unwrap()["id"].as_u64().unwrap();
    let config = gomoku_config("renju", 15, brain(id), human(), 1000);
    h.ok("new_game", json!({ "config": config }));
    let s = h.wait_until(10, "the brain's first move", |s| move_count(s) == 1);
    assert_eq!(s["board"][0][0], "black");
    h.ok("new_game", json!({ "config": gomoku_config("renju", 15, human(), human(), 1000) }));
    assert_no_brain_left(&h.dir);
}

/// The brain with `fault` after one good move loses the game for `reason`, the notice names
/// it and why, the app goes on (a new game is played) and no brain is left.
fn the_brain_forfeits(tag: &str, fault: &str, reason: &str, ms: u64) {
    let (h, _) = game_against(tag, &format!("{fault} 1"), ms);
    h.ok("play_move", json!({"x": 4, "y": 4}));
    h.wait_until(10, "the first reply", |s| move_count(s) == 2);
    h.ok("play_move", json!({"x": 5, "y": 5}));
    let s = h.wait_until(15, "the forfeit", |s| !s["result"].is_null());
    assert_eq!(s["result"]["winner"], "black", "{s}");
    assert_eq!(s["result"]["reason"], json!({ "forfeit": reason }), "{s}");
    assert_eq!(move_count(&s), 3, "the bad answer is not on the board: {s}");
    assert_eq!(s["notice"]["code"], "engine_forfeit", "{s}");
    assert_eq!(s["notice"]["params"]["name"], "fake");
    assert_eq!(s["notice"]["params"]["color"], "white");
    assert_eq!(s["notice"]["params"]["reason"], reason);
    assert!(!s["notice"]["params"]["detail"].as_str().unwrap().is_empty(), "{s}");
    assert_no_brain_left(&h.dir);
    // Nothing else is lost: the next game against the same engine starts it again.
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 9, human(), brain(1), ms) }));
    h.ok("play_move", json!({"x": 4, "y": 4}));
    h.wait_until(10, "the reply in the next game", |s| move_count(s) == 2);
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 9, human(), human(), ms) }));
    assert_no_brain_left(&h.dir);
}

#[test]
fn a_crash_loses_the_game() {
    the_brain_forfeits("engine-crash", "crash", "crash", 1000);
}

#[test]
fn a_hang_loses_the_game_on_time() {
    // 200 ms per move: judged hung after 200 ms + 1 s + 100 ms.
    the_brain_forfeits("engine-hang", "hang", "timeout", 200);
}

#[test]
fn an_occupied_point_loses_the_game() {
    the_brain_forfeits("engine-occupied", "occupied", "illegal_move", 1000);
}

#[test]
fn an_answer_that_is_not_a_move_loses_the_game() {
    the_brain_forfeits("engine-garbage", "garbage", "illegal_move", 1000);
}

#[test]
fn a_new_game_while_the_brain_thinks_ends_it_at_once() {
    let (h, _) = game_against("engine-cancel", "hang 0", 60_000);
    h.ok("play_move", json!({"x": 4, "y": 4}));
    h.wait_until(10, "the brain to think", |s| !s["thinking"].is_null());
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 9, human(), human(), 1000) }));
    // Far sooner than its minute: the wait is cancelled and the brain killed.
    assert_no_brain_left(&h.dir);
    assert!(h.snapshot()["result"].is_null());
}

#[test]
fn games_from_files_never_start_an_engine_and_unknown_engines_are_refused() {
    let (h, id) = game_against("engine-files", "", 1000);
    // A saved game naming the engine, pasted back: the side becomes human.
    h.ok("play_move", json!({"x": 4, "y": 4}));
    h.wait_until(10, "the reply", |s| move_count(s) == 2);
    let state = h.app.state::<tengen_app::runtime::AppState>();
    let json_text = state.lock().game.to_json();
    assert!(json_text.contains("\"external\""), "{json_text}");
    let s = h.ok("paste_game", json!({ "text": json_text }));
    assert_eq!(s["players"]["white"], human(), "{s}");
    assert_eq!(s["notice"]["code"], "engine_now_human");
    // A new game with an engine that is not in the list, or for Reversi, is refused.
    let e = h.err(
        "new_game",
        json!({ "config": gomoku_config("freestyle", 9, human(), brain(id + 5), 1000) }),
    );
    assert_eq!(
        (e["code"].as_str(), e["params"]["field"].as_str()),
        (Some("invalid_argument"), Some("white"))
    );
    let e = h.err("new_game", json!({ "config": reversi_config(brain(id), human(), 1000) }));
    assert_eq!(e["params"]["field"], "black", "{e}");
    // Removing the engine of the game on the board makes its side human.
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 9, brain(id), human(), 1000) }));
    h.wait_until(10, "the brain's move", |s| move_count(s) == 1);
    h.ok("engine_remove", json!({"id": id}));
    let s = h.snapshot();
    assert_eq!(s["players"]["black"], human(), "{s}");
    assert_eq!(s["notice"]["code"], "engine_now_human");
    assert_no_brain_left(&h.dir);
}

#[test]
fn a_restored_game_keeps_its_engine_only_while_it_is_in_the_list() {
    let (h, id) = game_against("engine-restore", "", 1000);
    h.ok("play_move", json!({"x": 4, "y": 4}));
    h.wait_until(10, "the reply", |s| move_count(s) == 2);
    let state = h.app.state::<tengen_app::runtime::AppState>();
    state.saver.flush();
    let again = Harness::in_dir(h.dir.clone());
    assert_eq!(again.snapshot()["players"]["white"], brain(id));
    drop(again);
    // The list is emptied behind the app's back: the restored game's side becomes human.
    std::fs::write(h.dir.join("engines.json"), "[]").unwrap();
    let third = Harness::in_dir(h.dir.clone());
    let s = third.snapshot();
    assert_eq!(s["players"]["white"], human(), "{s}");
    assert_eq!(s["notice"]["code"], "engine_now_human");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 9, human(), human(), 1000) }));
    assert_no_brain_left(&h.dir);
}

#[test]
fn no_brain_outlives_the_app() {
    // What the app does at exit, while a brain that ignores END thinks and one waits.
    let (h, _) = game_against("engine-exit", "hang 0", 60_000);
    h.ok("play_move", json!({"x": 4, "y": 4}));
    h.wait_until(10, "the brain to think", |s| !s["thinking"].is_null());
    let state = h.app.state::<tengen_app::runtime::AppState>();
    state.lock().end_brains_now();
    assert_no_brain_left(&h.dir);
}

#[test]
fn on_a_clock_the_brain_plays_on_its_time_and_loses_on_time_when_it_hangs() {
    // After one good move the brain hangs: its clock (sudden death, 10 s) runs out, and the
    // game is lost on time (the flag falls before the wait for the brain gives up).
    let h = Harness::new("engine-clock");
    let id = add(&h, &wrapper(&h.dir, "hang 1")).unwrap()["id"].as_u64().unwrap();
    let mut config = gomoku_config("freestyle", 9, human(), brain(id), 1000);
    config["timeControl"] = json!({"type": "sudden_death", "baseMs": 10_000});
    h.ok("new_game", json!({ "config": config }));
    h.ok("play_move", json!({"x": 4, "y": 4}));
    let s = h.wait_until(10, "the brain's reply", |s| move_count(s) == 2);
    assert!(s["clock"]["whiteMs"].as_u64().unwrap() <= 10_000, "{s}");
    h.ok("play_move", json!({"x": 5, "y": 5}));
    let s = h.wait_until(30, "the flag", |s| !s["result"].is_null());
    assert_eq!(s["result"]["reason"], "time", "{s}");
    assert_eq!(s["result"]["winner"], "black", "{s}");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 9, human(), human(), 1000) }));
    assert_no_brain_left(&h.dir);
}

/// Starts a Reversi game, the human black against the fake NBoard engine (white) run with
/// `args`; answers the harness and the engine's id.
fn reversi_against(tag: &str, args: &str, ms: u64) -> (Harness, u64) {
    let h = Harness::new(tag);
    let script = wrapper_of(&h.dir, "fake-nboard.sh", "nboard-fake", args);
    let added = add_as(&h, &script, Protocol::Nboard).unwrap();
    assert_eq!(added["protocol"], "nboard", "{added}");
    assert_eq!(added["name"], "fake-nboard", "{added}");
    assert_eq!(added["about"], "set myname fake-nboard", "{added}");
    let id = added["id"].as_u64().unwrap();
    h.ok("new_game", json!({ "config": reversi_config(human(), brain(id), ms) }));
    (h, id)
}

#[test]
fn an_nboard_engine_plays_reversi_and_each_engine_only_its_game() {
    // f5 (black), then the engine's f4 and, after black's e3, its f6.
    let (h, id) = reversi_against("nboard-game", "none 0 f4 f6", 1000);
    h.ok("play_move", json!({"x": 5, "y": 4}));
    let s = h.wait_until(10, "the engine's reply", |s| move_count(s) == 2);
    assert_eq!(s["board"][3][5], "white", "f4: {s}");
    assert!(s["result"].is_null(), "{s}");
    h.ok("play_move", json!({"x": 4, "y": 2}));
    let s = h.wait_until(10, "the second reply", |s| move_count(s) == 4);
    assert_eq!(s["board"][5][5], "white", "f6: {s}");
    // A Gomocup brain plays no Reversi, an NBoard engine no Gomoku.
    let brain_id = add(&h, &wrapper(&h.dir, "")).unwrap()["id"].as_u64().unwrap();
    let e = h.err("new_game", json!({ "config": reversi_config(human(), brain(brain_id), 1000) }));
    assert_eq!(e["params"]["field"], "white", "{e}");
    let gomoku = gomoku_config("freestyle", 9, brain(id), human(), 1000);
    let e = h.err("new_game", json!({ "config": gomoku }));
    assert_eq!(e["params"]["field"], "black", "{e}");
    h.ok("new_game", json!({ "config": reversi_config(human(), human(), 1000) }));
    assert_no_brain_left(&h.dir);
}

/// The fake NBoard engine with `fault` at its first move loses the game for `reason`, the
/// notice names it, and no engine is left.
fn the_nboard_engine_forfeits(tag: &str, fault: &str, reason: &str, ms: u64) {
    let (h, _) = reversi_against(tag, &format!("{fault} 0"), ms);
    h.ok("play_move", json!({"x": 5, "y": 4}));
    let s = h.wait_until(15, "the forfeit", |s| !s["result"].is_null());
    assert_eq!(s["result"]["winner"], "black", "{s}");
    assert_eq!(s["result"]["reason"], json!({ "forfeit": reason }), "{s}");
    assert_eq!(move_count(&s), 1, "the bad answer is not on the board: {s}");
    assert_eq!(s["notice"]["code"], "engine_forfeit", "{s}");
    assert_eq!(s["notice"]["params"]["name"], "fake-nboard");
    assert!(!s["notice"]["params"]["detail"].as_str().unwrap().is_empty(), "{s}");
    h.ok("new_game", json!({ "config": reversi_config(human(), human(), ms) }));
    assert_no_brain_left(&h.dir);
}

#[test]
fn an_nboard_crash_or_hang_loses_the_game() {
    the_nboard_engine_forfeits("nboard-crash", "crash", "crash", 1000);
    the_nboard_engine_forfeits("nboard-hang", "hang", "timeout", 200);
}

#[test]
fn an_nboard_taken_square_garbage_or_wrong_pass_loses_the_game() {
    the_nboard_engine_forfeits("nboard-occupied", "occupied", "illegal_move", 1000);
    the_nboard_engine_forfeits("nboard-garbage", "garbage", "illegal_move", 1000);
    the_nboard_engine_forfeits("nboard-pass", "pass", "illegal_move", 1000);
}

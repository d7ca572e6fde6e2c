//! Saving and opening games (the format functions behind the dialogs), and persistence
//! across restarts, including corrupt files.

mod common;

use common::*;
use serde_json::json;
use tauri::Manager;
use tengen_app::files::{self, detect, open_from, parse_text, save_to, Detected, Format};
use tengen_app::runtime::AppState;
use tengen_app::stats::STATS_FILE;
use tengen_app::storage::{Storage, GAME_FILE, SETTINGS_FILE};
use tengen_engine::game::Game;
use tengen_engine::Move;

fn game_of(h: &Harness) -> Game {
    h.app.state::<AppState>().lock().game.clone()
}

fn moves_of(g: &Game) -> Vec<Move> {
    g.history().iter().map(|r| r.mv).collect()
}

fn play(h: &Harness, moves: &[(u8, u8)]) {
    for &(x, y) in moves {
        h.ok("play_move", json!({"x": x, "y": y}));
    }
}

#[test]
fn gomoku_round_trips_through_json_and_psq() {
    let h = Harness::new("save-gomoku");
    let cfg = gomoku_config("renju", 15, human(), computer("gomoku", "pattern"), 1500);
    h.ok("new_game", json!({ "config": gomoku_config("renju", 15, human(), human(), 1500) }));
    play(&h, &[(7, 7), (8, 8), (6, 8), (9, 9), (10, 3)]);
    let game = game_of(&h);

    let json_path = h.dir.join("g.json");
    save_to(&game, &json_path, Format::Json).unwrap();
    let text = std::fs::read_to_string(&json_path).unwrap();
    assert_eq!(detect(&text), Detected::Json);
    let back = open_from(&json_path, &serde_json::from_value(cfg.clone()).unwrap()).unwrap();
    assert_eq!(moves_of(&back), moves_of(&game));
    assert_eq!(back.config(), game.config(), "JSON keeps the players, rule and time");

    let psq_path = h.dir.join("g.psq");
    assert_eq!(files::extension(&game, Format::Record), "psq");
    save_to(&game, &psq_path, Format::Record).unwrap();
    let text = std::fs::read_to_string(&psq_path).unwrap();
    assert_eq!(detect(&text), Detected::Psq);
    let current = serde_json::from_value(cfg).unwrap();
    let back = open_from(&psq_path, &current).unwrap();
    assert_eq!(moves_of(&back), moves_of(&game));
    assert_eq!(back.position().size(), 15);
    // A record does not name the players: those of the current game go on.
    assert_eq!(back.config().white, current.white);
}

#[test]
fn reversi_round_trips_through_the_transcript() {
    let h = Harness::new("save-reversi");
    h.ok("new_game", json!({ "config": reversi_config(human(), human(), 1000) }));
    play(&h, &[(5, 4), (5, 5), (4, 5)]); // f5 f6 e6
    let game = game_of(&h);
    let path = h.dir.join("r.txt");
    assert_eq!(files::extension(&game, Format::Record), "txt");
    save_to(&game, &path, Format::Record).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.to_lowercase().contains("f5f6e6"), "{text}");
    assert_eq!(detect(&text), Detected::Transcript);
    let back = open_from(&path, game.config()).unwrap();
    assert_eq!(moves_of(&back), moves_of(&game));
    assert_eq!(
        back.position().stone(tengen_engine::Point::new(4, 5)),
        game.position().stone(tengen_engine::Point::new(4, 5))
    );
}

#[test]
fn bad_files_give_typed_errors() {
    let h = Harness::new("bad-files");
    let current = *game_of(&h).config();
    let missing = open_from(&h.dir.join("nope.psq"), &current).unwrap_err();
    assert_eq!(missing.code(), "file_error");
    for (name, text) in [
        ("a.json", "{\"format\":\"tengen\",\"version\":1, broken"),
        ("b.psq", "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n"),
        ("c.txt", "f5f5"),
        ("d.txt", "hello world"),
    ] {
        let p = h.dir.join(name);
        std::fs::write(&p, text).unwrap();
        let e = open_from(&p, &current).unwrap_err();
        assert_eq!(e.code(), "bad_file", "{name}: {e}");
        assert!(parse_text(text, &current).is_err());
    }
    let p = h.dir.join("bin.psq");
    std::fs::write(&p, [0xff, 0xfe, 0xfd]).unwrap();
    assert_eq!(open_from(&p, &current).unwrap_err().code(), "bad_file");
}

#[test]
fn the_unfinished_game_and_the_settings_survive_a_restart() {
    let dir = temp_dir("restart");
    {
        let h = Harness::in_dir(dir.clone());
        h.ok("new_game", json!({ "config": gomoku_config("standard", 13, human(), human(), 800) }));
        play(&h, &[(6, 6), (7, 7), (5, 5)]);
        let mut settings = h.ok("get_settings", json!({}));
        settings["theme"] = json!("dark");
        h.ok("set_settings", json!({ "settings": settings }));
        h.app.state::<AppState>().saver.flush();
    }
    assert!(dir.join(GAME_FILE).exists());
    let h = Harness::in_dir(dir.clone());
    let s = h.snapshot();
    assert_eq!(s["rule"], "standard");
    assert_eq!(s["size"], 13);
    assert_eq!(move_count(&s), 3);
    assert_eq!(s["board"][5][5], "black");
    assert_eq!(s["toMove"], "white");
    assert!(s["notice"].is_null());
    assert_eq!(h.ok("get_settings", json!({}))["theme"], "dark");
    // A finished game is not reopened.
    h.ok("resign", json!({}));
    h.app.state::<AppState>().saver.flush();
    assert!(!dir.join(GAME_FILE).exists());
    let h = Harness::in_dir(dir);
    assert!(h.snapshot()["result"].is_null());
    // ...but the next game starts from the last configuration.
    assert_eq!(h.snapshot()["size"], 13);
}

#[test]
fn corrupt_files_are_reported_and_replaced_by_defaults() {
    let dir = temp_dir("corrupt");
    std::fs::write(dir.join(GAME_FILE), "{\"format\":\"tengen\", \"version\": 1, \"moves\": [tru")
        .unwrap();
    std::fs::write(dir.join(SETTINGS_FILE), "not json at all").unwrap();
    let h = Harness::in_dir(dir.clone()).with_fake_engines();
    let s = h.snapshot();
    assert_eq!(s["fileNotices"][0]["code"], "file_reset");
    assert_eq!(s["fileNotices"][1]["code"], "file_reset");
    assert_eq!(move_count(&s), 0);
    assert_eq!(s["game"], "gomoku");
    assert_eq!(h.ok("get_settings", json!({}))["language"], "auto");
    assert!(dir.join(format!("{GAME_FILE}.corrupt")).exists());
    // The app works normally afterwards, and the notices go with the next change.
    let s = h.ok("play_move", json!({"x": 7, "y": 7}));
    assert_eq!(s["fileNotices"], json!([]));
}

/// A Tengen JSON save of a short game with `ms` per move (edited in, as a hand-made or old
/// file would have it).
fn save_with_time(ms: u64) -> String {
    let mut g = Game::new(
        serde_json::from_value(gomoku_config("renju", 15, human(), human(), 1000)).unwrap(),
    )
    .unwrap();
    g.play(Move::Place(tengen_engine::Point::new(7, 7)), 10).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&g.to_json()).unwrap();
    v["config"]["timePerMoveMs"] = json!(ms);
    v.to_string()
}

#[test]
fn opening_a_save_outside_the_time_limits_is_refused() {
    let h = Harness::new("open-limits");
    let current = *game_of(&h).config();
    for ms in [50, 99, 60_001, 600_000] {
        let p = h.dir.join(format!("t{ms}.json"));
        std::fs::write(&p, save_with_time(ms)).unwrap();
        let e = open_from(&p, &current).unwrap_err();
        assert_eq!(e.code(), "bad_file", "{ms} ms: {e}");
        assert!(e.to_string().contains("time per move"), "{ms} ms: {e}");
    }
    for ms in [100, 60_000] {
        let p = h.dir.join(format!("t{ms}.json"));
        std::fs::write(&p, save_with_time(ms)).unwrap();
        assert_eq!(open_from(&p, &current).unwrap().config().time_per_move_ms, ms);
    }
}

#[test]
fn a_restored_game_outside_the_limits_is_moved_aside_and_reported() {
    for ms in [50, 600_000] {
        let dir = temp_dir("restore-limits");
        std::fs::write(dir.join(GAME_FILE), save_with_time(ms)).unwrap();
        let h = Harness::in_dir(dir.clone());
        let s = h.snapshot();
        assert_eq!(move_count(&s), 0, "{ms} ms: the saved game is not restored");
        assert_eq!(s["timePerMoveMs"], 1000);
        let notices = s["fileNotices"].as_array().unwrap();
        assert_eq!(notices.len(), 1, "{s}");
        assert_eq!(notices[0]["code"], "file_reset");
        assert_eq!(notices[0]["params"]["file"], GAME_FILE);
        assert!(notices[0]["params"]["detail"].as_str().unwrap().contains("time per move"));
        assert!(dir.join(format!("{GAME_FILE}.corrupt")).exists());
    }
    // The last configuration in the settings is checked too: out of range, the default game.
    let dir = temp_dir("restore-last-config");
    let settings = json!({ "lastConfig": gomoku_config("standard", 13, human(), human(), 50) });
    std::fs::write(dir.join(SETTINGS_FILE), settings.to_string()).unwrap();
    let h = Harness::in_dir(dir);
    let s = h.snapshot();
    assert_eq!((s["size"].as_u64(), s["timePerMoveMs"].as_u64()), (Some(15), Some(1000)));
    assert!(h.ok("get_settings", json!({}))["lastConfig"].is_null(), "not offered again");
}

/// Runs `f` on another thread; fails when it takes longer than a minute (a read that
/// blocks on a FIFO or never ends on a device would hang here).
fn within_a_minute<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{what} did not finish: an unbounded or blocking read"))
}

fn mkfifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_without_blocking_or_reading_for_ever() {
    let h = Harness::new("special");
    let current = *game_of(&h).config();
    let fifo = h.dir.join("game.psq");
    mkfifo(&fifo);
    let link = h.dir.join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    for path in [std::path::PathBuf::from("/dev/zero"), fifo, link, h.dir.clone()] {
        let shown = path.display().to_string();
        let e = within_a_minute(&shown, move || open_from(&path, &current).unwrap_err());
        assert_eq!(e.code(), "bad_file", "{shown}: {e}");
        assert!(e.to_string().contains("not a regular file"), "{shown}: {e}");
    }
    // A /proc file says it is empty; it is read with the bound, and is not a game.
    let e = open_from(std::path::Path::new("/proc/self/status"), &current).unwrap_err();
    assert_eq!(e.code(), "bad_file", "{e}");
    assert!(!e.to_string().contains("empty"), "the text was read: {e}");
}

#[test]
fn every_corrupt_file_is_moved_aside_and_reported() {
    let dir = temp_dir("corrupt-all");
    std::fs::write(dir.join(SETTINGS_FILE), "{ not json").unwrap();
    std::fs::write(dir.join(GAME_FILE), [0xff, 0xfe, 0x00]).unwrap();
    std::fs::write(
        dir.join(STATS_FILE),
        r#"[{"game":"gomoku","rule":"renju","level":"x","wins":1,"losses":0,"draws":0}]"#,
    )
    .unwrap();
    // An earlier corrupt copy is kept, not overwritten.
    std::fs::write(dir.join(format!("{SETTINGS_FILE}.corrupt")), "older").unwrap();
    let h = Harness::in_dir(dir.clone());
    let s = h.snapshot();
    let notices = s["fileNotices"].as_array().unwrap();
    let files: Vec<&str> = notices.iter().map(|n| n["params"]["file"].as_str().unwrap()).collect();
    assert_eq!(files, [SETTINGS_FILE, GAME_FILE, STATS_FILE], "{s}");
    for n in notices {
        assert_eq!(n["code"], "file_reset");
        let aside = std::path::Path::new(n["params"]["aside"].as_str().unwrap());
        assert!(aside.exists(), "{n}");
        assert!(!dir.join(n["params"]["file"].as_str().unwrap()).exists(), "{n}");
    }
    assert_eq!(
        notices[0]["params"]["aside"],
        dir.join(format!("{SETTINGS_FILE}.corrupt.2")).display().to_string()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join(format!("{SETTINGS_FILE}.corrupt"))).unwrap(),
        "older"
    );
    assert_eq!(h.ok("get_stats", json!({})), json!([]));
    // The notices stay until the player changes something, then go.
    assert_eq!(h.snapshot()["fileNotices"].as_array().unwrap().len(), 3);
    h.ok("new_game", json!({ "config": gomoku_config("renju", 15, human(), human(), 1000) }));
    assert_eq!(h.snapshot()["fileNotices"], json!([]));
}

#[cfg(unix)]
#[test]
fn a_file_that_cannot_be_read_is_reported_and_left_alone() {
    let dir = temp_dir("unreadable");
    mkfifo(&dir.join(SETTINGS_FILE));
    mkfifo(&dir.join(GAME_FILE));
    std::fs::create_dir(dir.join(STATS_FILE)).unwrap();
    let d = dir.clone();
    let opened = within_a_minute("start-up", move || AppState::open(Storage::new(Some(d))).is_ok());
    assert!(opened);
    let h = Harness::in_dir(dir.clone());
    let s = h.snapshot();
    let notices = s["fileNotices"].as_array().unwrap();
    assert_eq!(notices.len(), 3, "{s}");
    for n in notices {
        assert_eq!(n["code"], "file_unreadable", "{n}");
    }
    assert_eq!(move_count(&s), 0);
    assert_eq!(h.ok("get_settings", json!({}))["language"], "auto");
    // Playing, finishing a game and changing the settings write none of the three files.
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 1000) }));
    play(&h, &[(7, 7), (8, 8)]);
    let mut settings = h.ok("get_settings", json!({}));
    settings["theme"] = json!("dark");
    h.ok("set_settings", json!({ "settings": settings }));
    h.ok("resign", json!({}));
    h.app.state::<AppState>().saver.flush();
    use std::os::unix::fs::FileTypeExt;
    for name in [SETTINGS_FILE, GAME_FILE] {
        let kind = std::fs::symlink_metadata(dir.join(name)).unwrap().file_type();
        assert!(kind.is_fifo(), "{name} was replaced");
        assert!(!dir.join(format!("{name}.corrupt")).exists(), "{name} was moved aside");
    }
    assert!(dir.join(STATS_FILE).is_dir());
}

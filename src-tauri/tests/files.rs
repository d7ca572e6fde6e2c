//! Saving and opening games (the format functions behind the dialogs), and persistence
//! across restarts, including corrupt files.

mod common;

use common::*;
use serde_json::json;
use tauri::Manager;
use tengen_app::files::{self, detect, open_from, parse_text, save_to, Detected, Format};
use tengen_app::state::AppState;
use tengen_app::storage::{GAME_FILE, SETTINGS_FILE};
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
    assert_eq!(s["notice"]["code"], "file_reset");
    assert_eq!(move_count(&s), 0);
    assert_eq!(s["game"], "gomoku");
    assert_eq!(h.ok("get_settings", json!({}))["language"], "auto");
    assert!(dir.join(format!("{GAME_FILE}.corrupt")).exists());
    // The app works normally afterwards, and the notice goes with the next change.
    let s = h.ok("play_move", json!({"x": 7, "y": 7}));
    assert!(s["notice"].is_null());
}

//! Game review on Tauri's mock runtime: it runs in the background with progress, its
//! result comes as the `review` event and is saved with the game (a restart reads it back
//! without computing again; a tampered one is dropped with a notice), a change of the main
//! line cuts it, cancel stops it, and it is refused while the board editor is open.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use tauri::Manager;
use tengen_app::files::{parse_text, read_from, save_reviewed, Format};
use tengen_app::runtime::AppState;
use tengen_engine::ai::Limits;

fn review_limits(h: &Harness, limits: Limits) {
    h.app.state::<AppState>().lock().review.limits = limits;
}

/// Black makes a four h8-k8 (g8 blocked); white answers a15 instead of l8.
const MOVES: [(u8, u8); 8] = [(7, 7), (6, 7), (8, 7), (7, 6), (9, 7), (7, 5), (10, 7), (0, 0)];

fn played(h: &Harness) {
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 1000) }));
    for (x, y) in MOVES {
        h.ok("play_move", json!({"x": x, "y": y}));
    }
}

#[test]
fn a_review_runs_is_saved_with_the_game_and_read_back_after_a_restart() {
    let dir = temp_dir("review-run");
    let h = Harness::in_dir(dir.clone());
    played(&h);
    review_limits(&h, Limits::depth(3));
    let progress = h.events("review-progress");
    let reviews = h.events("review");
    let started = h.ok("review", json!({"action": "start"}));
    assert_eq!(started["running"], true);
    let done = next(&reviews, "the finished review", |e| e["running"] == false);
    let plies = done["plies"].as_array().unwrap();
    assert_eq!(plies.len(), MOVES.len());
    assert_eq!(plies[0]["ply"], 1);
    assert_eq!(plies[0]["played"], "h8");
    assert_eq!(plies[1]["color"], "white");
    for p in plies {
        let v = p["verdict"].as_str().unwrap();
        assert!(["good", "inaccuracy", "mistake", "blunder"].contains(&v), "{p}");
        assert!(p["value"].as_f64().is_some_and(|v| (0.0..=1.0).contains(&v)), "{p}");
    }
    // Black's four was left to stand: a blunder, l8 was the move.
    let last = &plies[7];
    assert_eq!((last["verdict"].as_str(), last["best"].as_str()), (Some("blunder"), Some("l8")));
    // Progress counted every position, the start included.
    let mut seen = Vec::new();
    while let Ok(p) = progress.try_recv() {
        seen.push(p["done"].as_u64().unwrap());
    }
    assert_eq!(seen.last(), Some(&(MOVES.len() as u64 + 1)), "{seen:?}");
    assert_eq!(h.ok("review", json!({"action": "get"}))["plies"], done["plies"]);
    // Saved as JSON with the game (what Save as JSON writes), it reads back whole.
    let path = dir.join("saved.json");
    let (game, review) = {
        let state = h.app.state::<AppState>();
        let s = state.lock();
        (s.game.clone(), s.review.review.clone())
    };
    save_reviewed(&game, review.as_ref(), &path, Format::Json).unwrap();
    let text = read_from(&path).unwrap();
    let opened = parse_text(&text, game.config()).unwrap();
    assert_eq!(opened.stored_review(&text), review.map(Ok));

    // A restart reads the review back with the unfinished game: nothing runs.
    drop(h);
    std::thread::sleep(Duration::from_millis(300));
    let h = Harness::in_dir(dir);
    let back = h.ok("review", json!({"action": "get"}));
    assert_eq!(back["running"], false);
    assert_eq!(back["plies"], done["plies"]);
}

#[test]
fn a_change_of_the_main_line_cuts_the_review_and_a_tampered_one_is_dropped() {
    let dir = temp_dir("review-cut");
    let h = Harness::in_dir(dir.clone());
    played(&h);
    review_limits(&h, Limits::depth(2));
    let reviews = h.events("review");
    h.ok("review", json!({"action": "start"}));
    next(&reviews, "the finished review", |e| e["running"] == false);
    // A new move at the end keeps every ply.
    h.ok("play_move", json!({"x": 14, "y": 14}));
    assert_eq!(
        h.ok("review", json!({"action": "get"}))["plies"].as_array().unwrap().len(),
        MOVES.len()
    );
    // A variation at ply 3, promoted: the review keeps the first two plies.
    h.ok("navigate", json!({"nav": {"to": "ply", "ply": 2}}));
    let s = h.ok("play_move", json!({"x": 3, "y": 3}));
    let var = s["moves"][2]["node"].clone();
    assert_eq!(
        h.ok("review", json!({"action": "get"}))["plies"].as_array().unwrap().len(),
        MOVES.len()
    );
    h.ok("variation", json!({"action": "promote", "node": var}));
    let cut = next(&reviews, "the review cut", |e| e["plies"].as_array().unwrap().len() == 2);
    assert_eq!(cut["running"], false);

    // A saved review that claims a move the game does not have is dropped with a notice.
    drop(h);
    std::thread::sleep(Duration::from_millis(300));
    let path = dir.join("current-game.json");
    let mut saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["review"]["plies"].as_array().unwrap().len(), 2);
    saved["review"]["plies"][1]["played"] = json!({"kind": "place", "x": 14, "y": 0});
    std::fs::write(&path, saved.to_string()).unwrap();
    let h = Harness::in_dir(dir);
    assert_eq!(h.ok("review", json!({"action": "get"}))["plies"], json!([]));
    let s = h.snapshot();
    let notices = s.to_string();
    assert!(notices.contains("review_dropped"), "{s}");
}

#[test]
fn cancel_stops_a_review_and_the_editor_refuses_one() {
    let h = Harness::new("review-cancel");
    played(&h);
    review_limits(&h, Limits::time(20_000));
    let reviews = h.events("review");
    let analysis = h.events("analysis");
    h.ok("set_analysis", json!({"on": true, "lines": 1}));
    next(&analysis, "analysis running", |e| e["state"] == "running");
    h.ok("review", json!({"action": "start"}));
    // Analysis pauses while the review runs.
    next(&analysis, "analysis paused", |e| e["state"] == "paused");
    // A second start while it runs changes nothing.
    assert_eq!(h.ok("review", json!({"action": "start"}))["running"], true);
    let stopped = h.ok("review", json!({"action": "cancel"}));
    assert_eq!((stopped["running"].clone(), stopped["plies"].clone()), (json!(false), json!([])));
    next(&reviews, "the cancelled review", |e| e["running"] == false);
    next(&analysis, "analysis resumed", |e| e["state"] == "running");
    h.ok("set_analysis", json!({"on": false, "lines": 1}));
    h.ok("edit", json!({"op": {"op": "enter"}}));
    assert_eq!(h.err("review", json!({"action": "start"}))["code"], "editing");
    h.ok("edit", json!({"op": {"op": "cancel"}}));
    assert_eq!(h.err("review", json!({"action": "sideways"}))["code"], "invalid_argument");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 1000) }));
    assert_eq!(h.err("review", json!({"action": "start"}))["code"], "invalid_argument");
}

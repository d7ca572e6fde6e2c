//! The coach on Tauri's mock runtime: off by default, and once turned on, the snapshot after
//! each move carries the engine's facts about it.

mod common;

use common::*;
use serde_json::{json, Value};

fn facts(s: &Value) -> Vec<Value> {
    s["coach"]["facts"].as_array().cloned().unwrap_or_default()
}

#[test]
fn the_coach_describes_each_move_once_turned_on() {
    let h = Harness::new("coach");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 1000) }));
    // Black f8 g8 h8 while white plays on the top row: an open three.
    for (x, y) in [(5, 7), (0, 0), (6, 7), (2, 0), (7, 7)] {
        h.ok("play_move", json!({"x": x, "y": y}));
    }
    let settings = h.ok("get_settings", json!({}));
    assert_eq!(settings["coach"], false, "off by default");
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(h.snapshot()["coach"].is_null(), "nothing computed while off");

    let mut on = settings.clone();
    on["coach"] = json!(true);
    assert_eq!(h.ok("set_settings", json!({ "settings": on }))["coach"], true);
    let s = h.wait_until(10, "the coach's facts", |s| !facts(s).is_empty());
    let f = facts(&s);
    assert_eq!(s["coach"]["ply"], 5);
    assert_eq!(f[0]["kind"], "open_three", "{f:?}");
    assert_eq!(f[0]["color"], "black");
    assert_eq!(
        (f[0]["from"].clone(), f[0]["to"].clone()),
        (json!({"x": 5, "y": 7}), json!({"x": 7, "y": 7}))
    );
    let blocks: Vec<Value> =
        f[0]["blocks"].as_array().unwrap().iter().map(|b| b["point"].clone()).collect();
    assert_eq!(blocks, [json!({"x": 4, "y": 7}), json!({"x": 8, "y": 7})]);

    // White blocks at e8 (no threat: no facts) and black plays on: each move described anew.
    let s = h.ok("play_move", json!({"x": 4, "y": 7}));
    assert!(s["coach"].is_null() || s["coach"]["ply"] == 6);
    let s = h.wait_until(10, "the block described", |s| s["coach"]["ply"] == 6);
    assert!(facts(&s).iter().all(|f| f["color"] != "black" || f["kind"] != "open_three"));

    // Turned off again: the snapshot says nothing.
    h.ok("set_settings", json!({ "settings": settings }));
    h.ok("play_move", json!({"x": 8, "y": 7}));
    assert!(h.snapshot()["coach"].is_null());
}

#[test]
fn after_the_editors_play_from_here_the_coach_describes_the_set_up_board() {
    let h = Harness::new("coach-setup");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 1000) }));
    let mut on = h.ok("get_settings", json!({}));
    on["coach"] = json!(true);
    h.ok("set_settings", json!({ "settings": on }));
    // Set up black f8 g8 (white a15 c15), black to move, and play from there.
    h.ok("edit", json!({"op": {"op": "enter", "from_current": false}}));
    for (x, y, stone) in [(5, 7, "black"), (6, 7, "black"), (0, 0, "white"), (2, 0, "white")] {
        h.ok("edit", json!({"op": {"op": "set", "x": x, "y": y, "stone": stone}}));
    }
    let s = h.ok("edit", json!({"op": {"op": "done", "black": human(), "white": human()}}));
    assert_eq!((s["ply"].as_u64(), s["toMove"].as_str()), (Some(0), Some("black")));
    // h8 makes an open three with the set-up stones (alone, it would make nothing).
    h.ok("play_move", json!({"x": 7, "y": 7}));
    let s = h.wait_until(10, "the coach's facts", |s| s["coach"]["ply"] == 1);
    let f = facts(&s);
    assert!(!f.is_empty(), "the set-up stones are on the board described: {s}");
    assert_eq!(f[0]["kind"], "open_three", "{f:?}");
    assert_eq!(
        (f[0]["from"].clone(), f[0]["to"].clone()),
        (json!({"x": 5, "y": 7}), json!({"x": 7, "y": 7}))
    );
}

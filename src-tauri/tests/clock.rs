//! The clock through the real commands and the app's timer: the flag falls on its own and
//! ends the game on time; the pause button only without the computer; a bad operation is a
//! typed error.

mod common;

use std::time::{Duration, Instant};

use common::{computer, gomoku_config, human, Harness};
use serde_json::{json, Value};

fn timed(black: Value, white: Value, time_control: Value) -> Value {
    let mut config = gomoku_config("freestyle", 15, black, white, 1000);
    config["timeControl"] = time_control;
    config
}

#[test]
fn the_flag_falls_by_itself_and_the_game_is_lost_on_time() {
    let h = Harness::new("flag");
    let over = h.events("game-over");
    let per_move = json!({"type": "per_move", "moveMs": 1000});
    let s = h.ok("new_game", json!({ "config": timed(human(), human(), per_move.clone()) }));
    assert_eq!(s["clock"]["control"], per_move);
    assert_eq!(s["clock"]["running"], "black");
    assert_eq!(s["clock"]["canPause"], true);
    let s = h.ok("play_move", json!({"x": 7, "y": 7}));
    assert_eq!(s["clock"]["running"], "white");
    let started = Instant::now();
    let ev = over.recv_timeout(Duration::from_secs(10)).expect("the game-over event");
    assert!(started.elapsed() >= Duration::from_millis(900), "not before white's second");
    assert_eq!((ev["winner"].as_str(), ev["reason"].as_str()), (Some("black"), Some("time")));
    let s = h.wait_until(5, "the result in the snapshot", |s| !s["result"].is_null());
    assert_eq!(s["result"]["reason"], "time");
    assert_eq!(s["clock"]["whiteMs"], 0);
    assert!(s["clock"]["running"].is_null());
    assert_eq!(h.err("play_move", json!({"x": 8, "y": 8}))["code"], "illegal_move");
}

#[test]
fn pause_and_resume_and_the_computer_cannot_be_paused() {
    let h = Harness::new("pause").with_fake_engines();
    let sudden = json!({"type": "sudden_death", "baseMs": 60000});
    h.ok("new_game", json!({ "config": timed(human(), human(), sudden.clone()) }));
    let s = h.ok("clock", json!({"op": {"op": "pause"}}));
    assert_eq!(
        (s["clock"]["paused"].as_bool(), s["clock"]["running"].as_str()),
        (Some(true), None)
    );
    let s = h.ok("clock", json!({"op": {"op": "resume"}}));
    assert_eq!(s["clock"]["running"], "black");
    let s = h.ok("clock", json!({"op": {"op": "dialog", "open": true}}));
    assert!(s["clock"]["running"].is_null() && s["clock"]["paused"] == false);
    let s = h.ok("clock", json!({"op": {"op": "dialog", "open": false}}));
    assert_eq!(s["clock"]["running"], "black");
    assert_eq!(h.err("clock", json!({"op": {"op": "stop"}}))["code"], "invalid_argument");
    let vs = timed(human(), computer("gomoku", "fivetuple"), sudden);
    h.ok("new_game", json!({ "config": vs }));
    assert_eq!(h.err("clock", json!({"op": {"op": "pause"}}))["code"], "cannot_pause");
    let bad =
        timed(human(), human(), json!({"type": "fischer", "baseMs": 60000, "incrementMs": 61000}));
    let e = h.err("new_game", json!({ "config": bad }));
    assert_eq!(
        (e["code"].as_str(), e["params"]["field"].as_str()),
        (Some("invalid_argument"), Some("timeControl"))
    );
}

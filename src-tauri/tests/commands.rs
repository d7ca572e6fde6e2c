//! The IPC commands on Tauri's mock runtime: new game, moves, errors, undo/redo, the
//! computer's reply, cancelling, hints, settings and the levels list.

mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};
use tengen_engine::ai::Engine;

fn hvh_gomoku(h: &Harness, rule: &str, size: u8) -> Value {
    h.ok("new_game", json!({ "config": gomoku_config(rule, size, human(), human(), 1000) }))
}

#[test]
fn new_game_gives_an_empty_board_with_labels() {
    let h = Harness::new("new");
    let s = hvh_gomoku(&h, "renju", 15);
    assert_eq!(s["game"], "gomoku");
    assert_eq!(s["rule"], "renju");
    assert_eq!(s["size"], 15);
    assert_eq!(s["board"].as_array().unwrap().len(), 15);
    assert!(s["board"].as_array().unwrap().iter().all(|row| row.as_array().unwrap().len() == 15
        && row.as_array().unwrap().iter().all(Value::is_null)));
    assert_eq!(s["toMove"], "black");
    assert_eq!(s["columns"][0], "a");
    assert_eq!(s["columns"][14], "o");
    assert_eq!(s["rows"][0], "15");
    assert_eq!(s["rows"][14], "1");
    assert_eq!(s["canUndo"], false);
    assert_eq!(s["canRedo"], false);
    assert_eq!(s["players"]["white"], json!({"type": "human"}));
    assert!(s["thinking"].is_null());

    let r = h.ok("new_game", json!({ "config": reversi_config(human(), human(), 1000) }));
    assert_eq!(r["game"], "reversi");
    assert!(r["rule"].is_null());
    assert_eq!(r["counts"], json!({"black": 2, "white": 2}));
    assert_eq!(r["legalMoves"].as_array().unwrap().len(), 4);
    assert_eq!(r["rows"][0], "1");
    assert_eq!(r["columns"][7], "h");
    assert!(r["generation"].as_u64() > s["generation"].as_u64());
}

#[test]
fn playing_updates_the_board_and_the_record() {
    let h = Harness::new("play");
    hvh_gomoku(&h, "freestyle", 15);
    let snaps = h.events("snapshot");
    let played = h.events("move-played");
    let s = h.ok("play_move", json!({"x": 7, "y": 7}));
    assert_eq!(s["board"][7][7], "black");
    assert_eq!(s["toMove"], "white");
    assert_eq!(s["lastMove"], json!({"x": 7, "y": 7}));
    assert_eq!(s["moves"][0]["label"], "h8");
    assert_eq!(s["moves"][0]["color"], "black");
    assert_eq!(s["counts"], json!({"black": 1, "white": 0}));
    let s = h.ok("play_move", json!({"x": 8, "y": 6}));
    assert_eq!(s["board"][6][8], "white");
    assert_eq!(s["moves"][1]["label"], "i9");
    // Every change is announced.
    let ev = played.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(ev["by"], "human");
    assert_eq!((ev["x"].as_u64(), ev["y"].as_u64()), (Some(7), Some(7)));
    let snap = snaps.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(snap["board"][7][7], "black");
}

#[test]
fn the_snapshot_names_the_shapes_of_the_last_stone() {
    let h = Harness::new("shapes");
    hvh_gomoku(&h, "freestyle", 15);
    let s = h.ok("play_move", json!({"x": 7, "y": 7}));
    assert_eq!(s["lastShapes"], json!([]), "a lone stone makes no shape");
    // Black h8 i8 j8 in a row while white plays a15 c15 e15 on the top edge.
    for (x, y) in [(0, 0), (8, 7), (2, 0), (9, 7)] {
        h.ok("play_move", json!({"x": x, "y": y}));
    }
    let s = h.ok("play_move", json!({"x": 4, "y": 0}));
    assert_eq!(
        s["lastShapes"],
        json!(["closed_three"]),
        "white's a15 c15 e15: one move from a four"
    );
    let s = h.ok("play_move", json!({"x": 10, "y": 7}));
    assert_eq!(s["lastShapes"], json!(["open_four"]));
    let s = h.ok("undo", json!({}));
    assert_eq!(s["lastShapes"], json!(["closed_three"]), "undo names the new last stone");
}

#[test]
fn illegal_moves_and_bad_arguments_give_typed_errors() {
    let h = Harness::new("illegal");
    hvh_gomoku(&h, "freestyle", 15);
    h.ok("play_move", json!({"x": 7, "y": 7}));
    let e = h.err("play_move", json!({"x": 7, "y": 7}));
    assert_eq!(e["code"], "illegal_move");
    assert_eq!(e["params"]["reason"], "occupied");
    assert!(e["message"].as_str().unwrap().contains("h8"), "{e}");
    let e = h.err("play_move", json!({"x": 15, "y": 0}));
    assert_eq!(e["params"]["reason"], "off_board");
    // Arguments that are not a board coordinate at all (negative, past u8, ill-typed,
    // missing) are the app's typed `invalid_argument`, naming the argument.
    for (args, field) in [
        (json!({"x": -1, "y": 3}), "x"),
        (json!({"x": 3, "y": 300}), "y"),
        (json!({"x": "h", "y": 8}), "x"),
        (json!({"x": 1.5, "y": 8}), "x"),
        (json!({"x": 3}), "y"),
    ] {
        let e = h.err("play_move", args.clone());
        assert_eq!(e["code"], "invalid_argument", "{args}: {e}");
        assert_eq!(e["params"]["field"], field, "{args}: {e}");
        assert!(!e["params"]["detail"].as_str().unwrap_or("").is_empty(), "{e}");
    }
    for (cmd, args, field) in [
        ("new_game", json!({"config": "renju"}), "config"),
        ("new_game", json!({}), "config"),
        ("set_settings", json!({"settings": {"theme": 3}}), "settings"),
        ("save_game", json!({"format": "pdf"}), "format"),
    ] {
        let e = h.err(cmd, args.clone());
        assert_eq!(e["code"], "invalid_argument", "{cmd} {args}: {e}");
        assert_eq!(e["params"]["field"], field, "{cmd} {args}: {e}");
    }

    for (bad, field) in [
        (gomoku_config("renju", 4, human(), human(), 1000), "size"),
        (gomoku_config("renju", 27, human(), human(), 1000), "size"),
        (gomoku_config("renju", 15, human(), human(), 5), "timePerMoveMs"),
        (gomoku_config("renju", 15, human(), human(), 50), "timePerMoveMs"),
        (gomoku_config("renju", 15, human(), human(), 99), "timePerMoveMs"),
        (gomoku_config("renju", 15, human(), human(), 60_001), "timePerMoveMs"),
        (gomoku_config("renju", 15, human(), human(), 600_000), "timePerMoveMs"),
        (reversi_config(computer("gomoku", "master"), human(), 1000), "black"),
        (gomoku_config("renju", 15, human(), computer("reversi", "master"), 1000), "white"),
        (json!({"kind": {"game": "chess"}}), "config"),
    ] {
        let e = h.err("new_game", json!({ "config": bad }));
        assert_eq!(e["code"], "invalid_argument", "{e}");
        assert_eq!(e["params"]["field"], field, "{e}");
    }
    // The failed attempts left the game alone.
    assert_eq!(move_count(&h.snapshot()), 1);

    h.ok("new_game", json!({ "config": reversi_config(human(), human(), 1000) }));
    let e = h.err("play_move", json!({"x": 0, "y": 0}));
    assert_eq!(e["params"]["reason"], "no_flips");
    let e = h.err("play_move", json!({"x": 3, "y": 3}));
    assert_eq!(e["params"]["reason"], "occupied");
}

#[test]
fn renju_forbidden_points_are_listed_and_refused() {
    let h = Harness::new("renju");
    hvh_gomoku(&h, "renju", 15);
    // Black: a horizontal pair (7,7)-(8,7) and a vertical pair (9,5)-(9,6), white in the
    // corners. (9,7) would make two open threes at once: a double three.
    for (x, y) in [(7, 7), (0, 0), (8, 7), (0, 14), (9, 5), (14, 0), (9, 6), (14, 14)] {
        h.ok("play_move", json!({"x": x, "y": y}));
    }
    let s = h.snapshot();
    assert_eq!(s["toMove"], "black");
    let forbidden = s["forbidden"].as_array().unwrap().clone();
    assert!(
        forbidden.contains(&json!({"x": 9, "y": 7, "kind": "double_three"})),
        "expected (9,7) to be a double three: {forbidden:?}"
    );
    let e = h.err("play_move", json!({"x": 9, "y": 7}));
    assert_eq!(e["code"], "illegal_move");
    assert_eq!(e["params"]["reason"], "forbidden");
    assert_eq!(e["params"]["kind"], "double_three");
    // White has no forbidden points: the list is empty on white's turn.
    h.ok("play_move", json!({"x": 13, "y": 1}));
    assert_eq!(h.snapshot()["forbidden"], json!([]));
}

#[test]
fn undo_and_redo() {
    let h = Harness::new("undo");
    hvh_gomoku(&h, "freestyle", 15);
    assert_eq!(h.err("undo", json!({}))["code"], "nothing_to_undo");
    assert_eq!(h.err("redo", json!({}))["code"], "nothing_to_redo");
    h.ok("play_move", json!({"x": 7, "y": 7}));
    h.ok("play_move", json!({"x": 8, "y": 8}));
    let s = h.ok("undo", json!({}));
    assert_eq!(move_count(&s), 1);
    assert!(s["board"][8][8].is_null());
    assert_eq!(s["toMove"], "white");
    assert_eq!(s["canRedo"], true);
    let s = h.ok("redo", json!({}));
    assert_eq!(move_count(&s), 2);
    assert_eq!(s["board"][8][8], "white");
    assert_eq!(s["canRedo"], false);
    // A new move clears the redo stack.
    h.ok("undo", json!({}));
    h.ok("play_move", json!({"x": 0, "y": 0}));
    assert_eq!(h.err("redo", json!({}))["code"], "nothing_to_redo");
}

#[test]
fn the_computers_reply_arrives_as_an_event_and_undo_takes_back_both_moves() {
    let h = Harness::new("reply").with_fake_engines();
    let played = h.events("move-played");
    h.ok(
        "new_game",
        json!({ "config": gomoku_config("freestyle", 15, human(), computer("gomoku", "fivetuple"), 100) }),
    );
    let s = h.ok("play_move", json!({"x": 7, "y": 7}));
    assert_eq!(s["thinking"]["color"], "white");
    assert_eq!(s["thinking"]["purpose"], "move");
    let deadline = Instant::now() + Duration::from_secs(20);
    let reply = loop {
        let ev = played
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("the computer's move-played event");
        if ev["by"] == "computer" {
            break ev;
        }
    };
    assert_eq!(reply["color"], "white");
    // The fake engine plays the first empty point: a1 in the top-left corner.
    assert_eq!((reply["x"].as_u64(), reply["y"].as_u64()), (Some(0), Some(0)));
    let s = h.wait_until(10, "the reply in the snapshot", |s| {
        move_count(s) == 2 && s["thinking"].is_null()
    });
    assert_eq!(s["board"][0][0], "white");
    assert_eq!(s["toMove"], "black");
    assert_eq!(s["heat"][0]["score"], json!({"kind": "eval", "value": 7}));
    // Undo takes back the reply and the human's move together.
    let s = h.ok("undo", json!({}));
    assert_eq!(move_count(&s), 0);
    assert_eq!(s["toMove"], "black");
    assert!(s["thinking"].is_null());
}

#[test]
fn undo_during_thinking_cancels_the_search_and_drops_the_late_move() {
    let h = Harness::new("cancel").with_fake_engines();
    h.ok(
        "new_game",
        json!({ "config": gomoku_config("freestyle", 15, human(), computer("gomoku", "master"), 60_000) }),
    );
    let s = h.ok("play_move", json!({"x": 7, "y": 7}));
    assert!(!s["thinking"].is_null());
    // A click while the computer thinks is refused, not queued.
    let e = h.err("play_move", json!({"x": 3, "y": 3}));
    assert_eq!(e["code"], "computer_thinking");
    let gen_before = s["generation"].as_u64().unwrap();
    let s = h.ok("undo", json!({}));
    assert_eq!(move_count(&s), 0);
    assert!(s["thinking"].is_null());
    assert!(s["generation"].as_u64().unwrap() > gen_before);
    // The cancelled search answers within milliseconds; its move must not appear.
    thread::sleep(Duration::from_millis(500));
    let s = h.snapshot();
    assert_eq!(move_count(&s), 0, "{s}");
    assert!(s["board"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .all(Value::is_null));
    assert_eq!(s["toMove"], "black");
    // The human can play again at once.
    h.ok("play_move", json!({"x": 7, "y": 7}));
}

#[test]
fn new_game_during_thinking_drops_the_late_move() {
    let h = Harness::new("cancel-new").with_fake_engines();
    let cfg = gomoku_config("freestyle", 9, computer("gomoku", "master"), human(), 60_000);
    let s = h.ok("new_game", json!({ "config": cfg }));
    assert_eq!(s["thinking"]["color"], "black");
    let s = h
        .ok("new_game", json!({ "config": gomoku_config("freestyle", 9, human(), human(), 1000) }));
    assert!(s["thinking"].is_null());
    thread::sleep(Duration::from_millis(300));
    assert_eq!(move_count(&h.snapshot()), 0);
}

#[test]
fn stop_thinking_makes_the_computer_move_now() {
    let h = Harness::new("stop").with_fake_engines();
    let progress = h.events("ai-progress");
    let cfg = gomoku_config("freestyle", 15, computer("gomoku", "master"), human(), 60_000);
    h.ok("new_game", json!({ "config": cfg }));
    let p = progress.recv_timeout(Duration::from_secs(10)).expect("an ai-progress event");
    assert_eq!(p["color"], "black");
    assert!(p["nodes"].as_u64().unwrap() > 0);
    let t = Instant::now();
    h.ok("stop_thinking", json!({}));
    let s = h.wait_until(10, "the computer's move", |s| move_count(s) == 1);
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(s["board"][0][0], "black");
    assert!(s["thinking"].is_null());
    // At most ten progress events a second: the fake engine reports every 5 ms.
    let n = progress.try_iter().count();
    assert!(n <= 12, "{n} progress events");
}

#[test]
fn hint_marks_a_point_for_the_human() {
    let h = Harness::new("hint").with_fake_engines();
    let cfg = gomoku_config("freestyle", 15, human(), computer("gomoku", "fivetuple"), 100);
    h.ok("new_game", json!({ "config": cfg }));
    let s = h.ok("hint", json!({}));
    assert_eq!(s["thinking"]["purpose"], "hint");
    assert_eq!(s["thinking"]["color"], "black");
    let s = h.wait_until(10, "the hint", |s| !s["hint"].is_null());
    assert_eq!(s["hint"], json!({"x": 0, "y": 0}));
    assert_eq!(move_count(&s), 0, "a hint plays nothing");
    // Playing clears the hint.
    let s = h.ok("play_move", json!({"x": 7, "y": 7}));
    assert!(s["hint"].is_null());
}

#[test]
fn computer_against_computer_plays_through() {
    let h = Harness::new("cvc").with_fake_engines();
    let over = h.events("game-over");
    let cfg = gomoku_config(
        "freestyle",
        5,
        computer("gomoku", "fivetuple"),
        computer("gomoku", "winarray"),
        100,
    );
    h.ok("new_game", json!({ "config": cfg }));
    // The fake engines fill the 5x5 board in reading order, so black's stones stand where
    // x + y is even: the last move completes black's diagonal. The game plays through to
    // the end by itself.
    let ev = over.recv_timeout(Duration::from_secs(60)).expect("game-over");
    assert!(ev["reason"].is_string());
    let s = h.wait_until(10, "the result", |s| !s["result"].is_null());
    assert!(s["toMove"].is_null());
    assert!(move_count(&s) >= 9);
}

#[test]
fn resign_ends_the_game() {
    let h = Harness::new("resign");
    h.ok(
        "new_game",
        json!({ "config": gomoku_config("freestyle", 15, human(), computer("gomoku", "fivetuple"), 100) }),
    );
    let over = h.events("game-over");
    let s = h.ok("resign", json!({}));
    assert_eq!(s["result"]["winner"], "white");
    assert_eq!(s["result"]["reason"], "resignation");
    assert!(s["toMove"].is_null());
    let ev = over.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(ev["winner"], "white");
    assert_eq!(h.err("resign", json!({}))["code"], "game_over");
    // The loss is counted once against the level.
    h.ok("get_snapshot", json!({}));
    let stats = h.ok("get_stats", json!({}));
    assert_eq!(
        stats,
        json!([{"game": "gomoku", "rule": "freestyle", "level": "fivetuple",
                "wins": 0, "losses": 1, "draws": 0}])
    );
    assert_eq!(h.err("play_move", json!({"x": 1, "y": 1}))["params"]["reason"], "game_over");
}

#[test]
fn reversi_flips_are_reported() {
    let h = Harness::new("reversi");
    h.ok("new_game", json!({ "config": reversi_config(human(), human(), 1000) }));
    // f5 = (5, 4) flips e5 = (4, 4).
    let s = h.ok("play_move", json!({"x": 5, "y": 4}));
    assert_eq!(s["moves"][0]["label"], "f5");
    assert_eq!(s["flipped"], json!([{"x": 4, "y": 4}]));
    assert_eq!(s["counts"], json!({"black": 4, "white": 1}));
    assert_eq!(s["toMove"], "white");
    assert_eq!(s["legalMoves"].as_array().unwrap().len(), 3);
}

#[test]
fn settings_are_checked_and_kept() {
    let h = Harness::new("settings");
    let s = h.ok("get_settings", json!({}));
    assert_eq!(s["language"], "auto");
    assert_eq!(s["showCoordinates"], true);
    let mut new = s.clone();
    new["language"] = json!("zh-CN");
    new["theme"] = json!("dark");
    new["showMoveNumbers"] = json!(true);
    let back = h.ok("set_settings", json!({ "settings": new }));
    assert_eq!(back, new);
    assert_eq!(h.ok("get_settings", json!({})), new);
    let mut bad = new.clone();
    bad["language"] = json!("klingon");
    assert_eq!(h.err("set_settings", json!({ "settings": bad }))["code"], "invalid_argument");
    let mut bad = new.clone();
    bad["lastConfig"] = gomoku_config("renju", 99, human(), human(), 1000);
    assert_eq!(h.err("set_settings", json!({ "settings": bad }))["code"], "invalid_argument");
    // Only the configuration itself is kept, not whatever else came with it.
    let mut s = new.clone();
    s["lastConfig"] = gomoku_config("renju", 15, human(), human(), 1000);
    s["lastConfig"]["padding"] = json!("x".repeat(100_000));
    let back = h.ok("set_settings", json!({ "settings": s }));
    assert_eq!(back["lastConfig"], gomoku_config("renju", 15, human(), human(), 1000));
    for (ms, ok) in [(50, false), (60_001, false), (100, true), (60_000, true)] {
        let mut s = new.clone();
        s["lastConfig"] = gomoku_config("renju", 15, human(), human(), ms);
        match h.invoke("set_settings", json!({ "settings": s })) {
            Ok(_) => assert!(ok, "{ms} ms was accepted"),
            Err(e) => {
                assert!(!ok, "{ms} ms: {e}");
                assert_eq!(e["params"]["field"], "timePerMoveMs", "{e}");
            }
        }
    }
}

/// An engine that panics in its first search, after changing its own state half-way; used
/// again, it would fail the test.
struct Fragile {
    first: bool,
    broken: bool,
}

impl Engine<tengen_engine::gomoku::Position> for Fragile {
    fn search(
        &mut self,
        pos: &tengen_engine::gomoku::Position,
        limits: &tengen_engine::ai::Limits,
        cancel: &tengen_engine::ai::CancelFlag,
        progress: &mut dyn FnMut(&tengen_engine::ai::SearchInfo),
    ) -> tengen_engine::ai::SearchResult {
        assert!(!self.broken, "the engine that panicked was searched again");
        if self.first {
            self.broken = true;
            panic!("engine bug in the middle of an update");
        }
        FakeEngine.search(pos, limits, cancel, progress)
    }
}

#[test]
fn after_an_engine_panic_the_next_search_uses_a_fresh_engine() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use tauri::Manager;
    use tengen_app::runtime::AppState;
    use tengen_engine::ai::AnyEngine;

    let h = Harness::new("panic").with_fake_engines();
    let made = Arc::new(AtomicUsize::new(0));
    {
        let made = made.clone();
        h.app.state::<AppState>().lock().engine_factory = Arc::new(move |_, _, _| {
            let first = made.fetch_add(1, Ordering::SeqCst) == 0;
            AnyEngine::Gomoku(Box::new(Fragile { first, broken: false }))
        });
    }
    let cpu = computer("gomoku", "pattern");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), cpu, 100) }));
    h.ok("play_move", json!({"x": 7, "y": 7}));
    let s = h.wait_until(60, "the failure notice", |s| s["notice"]["code"] == "ai_failed");
    assert!(s["notice"]["params"]["detail"].as_str().unwrap().contains("engine bug"), "{s}");
    assert_eq!(move_count(&s), 1);
    // The player takes the move back and plays again: the computer searches again, with a
    // new engine, and answers.
    h.ok("undo", json!({}));
    h.ok("play_move", json!({"x": 7, "y": 7}));
    let s =
        h.wait_until(60, "the computer's reply", |s| move_count(s) == 2 || s["notice"].is_object());
    assert!(s["notice"].is_null(), "{s}");
    assert_eq!(s["moves"][1]["color"], "white");
    assert_eq!(made.load(Ordering::SeqCst), 2, "one engine per search, the broken one dropped");
}

#[cfg(not(feature = "bench"))]
#[test]
fn the_bench_commands_exist_only_with_the_bench_feature() {
    let h = Harness::new("no-bench");
    for cmd in ["bench_rss", "bench_report"] {
        let e = h.err(cmd, json!({ "report": {} }));
        assert!(e.to_string().contains("not found"), "{cmd}: {e}");
    }
    // A registered command answers through the same path.
    h.ok("get_stats", json!({}));
}

#[cfg(feature = "bench")]
#[test]
fn the_bench_commands_refuse_to_run_unless_the_bench_mode_is_on() {
    let h = Harness::new("bench");
    std::env::remove_var("TENGEN_BENCH");
    assert_eq!(h.err("bench_rss", json!({}))["code"], "invalid_argument");
}

#[test]
fn ipc_answers_at_once_while_the_computer_thinks() {
    let h = Harness::new("latency").with_fake_engines();
    let cfg = gomoku_config("freestyle", 15, computer("gomoku", "master"), human(), 60_000);
    h.ok("new_game", json!({ "config": cfg }));
    let start = Instant::now();
    for _ in 0..50 {
        h.ok("get_snapshot", json!({}));
    }
    // Generous on a loaded machine; the real measurement is in the report.
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(!h.snapshot()["thinking"].is_null());
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 100) }));
}

/// The real engines: the weakest level of each game answers (or, while a level is not
/// implemented yet, its failure is reported in the snapshot instead of hanging the game).
#[test]
fn a_real_level_replies_or_its_failure_is_reported() {
    use tengen_engine::ai::{GomokuLevel, Level, ReversiLevel};
    for (level, config) in [
        (
            Level::Gomoku(GomokuLevel::FiveTuple),
            gomoku_config("freestyle", 15, human(), computer("gomoku", "fivetuple"), 200),
        ),
        (
            Level::Reversi(ReversiLevel::Greedy),
            reversi_config(human(), computer("reversi", "greedy"), 200),
        ),
    ] {
        let h = Harness::new("real");
        h.ok("new_game", json!({ "config": config }));
        let first = if level.game_name() == "gomoku" { (7, 7) } else { (5, 4) };
        h.ok("play_move", json!({"x": first.0, "y": first.1}));
        if level_implemented(level) {
            let s = h.wait_until(60, "the computer's reply", |s| {
                move_count(s) >= 2 && s["thinking"].is_null()
            });
            assert_eq!(s["moves"][1]["color"], "white");
            assert_eq!(s["toMove"], "black");
        } else {
            let s = h.wait_until(30, "the failure notice", |s| s["notice"]["code"] == "ai_failed");
            assert!(s["thinking"].is_null());
            assert_eq!(move_count(&s), 1);
            // The human can take the move back and go on.
            assert_eq!(move_count(&h.ok("undo", json!({}))), 0);
        }
    }
}

/// Reversi passes are played automatically and announced (the notice, the move list and a
/// `move-played` event with `pass: true`).
#[test]
fn reversi_passes_are_automatic_and_announced() {
    use tengen_engine::game::{Game, GameConfig};
    use tengen_engine::rng::Rng;
    use tengen_engine::Move;
    // Find a game with a forced pass by random play on the engine directly.
    let config: GameConfig =
        serde_json::from_value(reversi_config(human(), human(), 1000)).unwrap();
    let mut rng = Rng::new(2024);
    let mut line = None;
    'games: for _ in 0..2000 {
        let mut game = Game::new(config).unwrap();
        let mut moves = Vec::new();
        while game.result().is_none() {
            let legal = game.position().legal_points();
            let p = legal[rng.below(legal.len() as u64) as usize];
            moves.push(p);
            let records = game.play(Move::Place(p), 0).unwrap();
            if records.len() > 1 && game.result().is_none() {
                line = Some(moves);
                break 'games;
            }
        }
    }
    let line = line.expect("some random game has a forced pass");
    let h = Harness::new("pass");
    let played = h.events("move-played");
    h.ok("new_game", json!({ "config": reversi_config(human(), human(), 1000) }));
    let mut last = json!(null);
    for p in &line {
        last = h.ok("play_move", json!({"x": p.x, "y": p.y}));
    }
    let passer = last["moves"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(passer["pass"], true);
    assert_eq!(passer["label"], "pass");
    assert_eq!(last["notice"], json!({"code": "pass", "params": {"color": passer["color"]}}));
    // The side that passed is not to move: the other side plays again.
    assert_ne!(last["toMove"], passer["color"]);
    let events: Vec<_> = played.try_iter().collect();
    assert!(events.iter().any(|e| e["pass"] == true && e["color"] == passer["color"]));
    // Undo takes back the move and its automatic pass together.
    let s = h.ok("undo", json!({}));
    assert_eq!(move_count(&s), line.len() - 1);
}

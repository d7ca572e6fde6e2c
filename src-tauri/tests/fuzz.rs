//! IPC fuzzing on Tauri's mock runtime: seeded random sequences of commands with random and
//! malformed arguments, also while the computer thinks (computer against computer and human
//! against computer, short times). After every call nothing may have panicked and the
//! session's invariants must hold:
//!
//! * every move of the history replays legally from the start, to the same position;
//! * the snapshot's board and move list match the game, and exactly one side is to move
//!   while the game is on;
//! * a search under way is for the side to move, a move search only for a computer side;
//! * every `move-played` event (checked when nothing changed since it, in games without an
//!   opening rule) was played by the side's own kind of player, and a computer's move is the
//!   engine's answer for the position it was played in (no stale move).
//!
//! `TENGEN_FUZZ_SEQUENCES` and `TENGEN_FUZZ_CALLS` raise the counts for a longer run by hand,
//! `TENGEN_FUZZ_SEED` picks the seeds.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use tauri::{Listener, Manager};
use tengen_app::runtime::AppState;
use tengen_engine::ai::{CancelFlag, Engine, Limits};
use tengen_engine::game::{Game, PlayerKind, Position};
use tengen_engine::rng::Rng;
use tengen_engine::{Color, Move, Point};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Something malformed where an argument should be.
fn junk(rng: &mut Rng) -> Value {
    let mut deep = json!(1);
    for _ in 0..100 {
        deep = json!([deep]);
    }
    let all = [
        Value::Null,
        json!(true),
        json!(-1),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(1e300),
        json!(0.5),
        json!("x"),
        json!(""),
        json!("\u{0}\u{feff}"),
        json!("a".repeat(10_000)),
        json!([]),
        json!({}),
        json!({"kind": {"game": "chess"}}),
        json!({"kind": {"game": "gomoku", "rule": "renju", "size": 255}}),
        json!({"language": 3}),
        deep,
    ];
    rng.choose(&all).unwrap().clone()
}

fn player(rng: &mut Rng, game: &str) -> Value {
    let gomoku = ["fivetuple", "winarray", "pattern", "lookahead", "master"];
    let reversi = ["greedy", "classic", "strong", "master"];
    match rng.below(10) {
        0..=3 => human(),
        // Now and then a level of the other game (refused).
        4 => computer(if game == "gomoku" { "reversi" } else { "gomoku" }, "master"),
        _ if game == "gomoku" => computer(game, rng.choose(&gomoku).unwrap()),
        _ => computer(game, rng.choose(&reversi).unwrap()),
    }
}

/// A game configuration: mostly valid with short times, sometimes out of range or junk.
fn config(rng: &mut Rng) -> Value {
    let ms = match rng.below(12) {
        0 => *rng.choose(&[0, 50, 99, 60_001, 600_000, u64::MAX]).unwrap(),
        _ => 100 + rng.below(150),
    };
    match rng.below(12) {
        0 => junk(rng),
        1..=3 => reversi_config(player(rng, "reversi"), player(rng, "reversi"), ms),
        _ => {
            let size = match rng.below(10) {
                0 => *rng.choose(&[0, 4, 27, 255]).unwrap(),
                _ => 5 + rng.below(5) as u8,
            };
            let rule = *rng.choose(&["freestyle", "standard", "renju", "renju", "omok"]).unwrap();
            let mut c = gomoku_config(rule, size, player(rng, "gomoku"), player(rng, "gomoku"), ms);
            if rng.below(4) == 0 {
                c["opening"] =
                    json!(*rng.choose(&["none", "swap", "swap2", "soosorv8", "x"]).unwrap());
            }
            if rng.below(5) == 0 {
                c["timeControl"] = match rng.below(4) {
                    0 => json!({"type": "per_move", "moveMs": 1000}),
                    1 => json!({"type": "sudden_death", "baseMs": 10_000}),
                    2 => json!({"type": "fischer", "baseMs": 10_000, "incrementMs": 0}),
                    _ => junk(rng),
                };
            }
            c
        }
    }
}

fn coordinate(rng: &mut Rng, size: i64) -> Value {
    match rng.below(20) {
        0 => junk(rng),
        1 => json!(*rng.choose(&[i64::MIN, -1, size, i64::MAX]).unwrap()),
        _ => json!(rng.below(size.max(1) as u64)),
    }
}

/// A node of the game tree: mostly one that may exist, now and then none or junk.
fn node(rng: &mut Rng) -> Value {
    match rng.below(10) {
        0 => junk(rng),
        1 => json!(*rng.choose(&[u32::MAX, 50_001]).unwrap()),
        _ => json!(rng.below(40)),
    }
}

fn color(rng: &mut Rng) -> Value {
    match rng.below(8) {
        0 => junk(rng),
        1 => Value::Null,
        n => json!(if n % 2 == 0 { "black" } else { "white" }),
    }
}

/// The study commands: stepping, variations, the board editor, paste and copy.
fn study_call(rng: &mut Rng, size: i64) -> (&'static str, Value) {
    match rng.below(20) {
        0..=5 => {
            let nav = match rng.below(9) {
                0 => json!({"to": "back"}),
                1 => json!({"to": "forward"}),
                2 => json!({"to": "first"}),
                3 => json!({"to": "last"}),
                4 | 5 => json!({"to": "ply", "ply": node(rng)}),
                6 => json!({"to": "node", "node": node(rng)}),
                7 => json!({"to": "main", "ply": node(rng)}),
                _ => junk(rng),
            };
            ("navigate", json!({ "nav": nav }))
        }
        6 | 7 => {
            let action = *rng.choose(&["promote", "delete", "rotate"]).unwrap();
            ("variation", json!({"action": action, "node": node(rng)}))
        }
        8..=14 => {
            let op = match rng.below(9) {
                0 => json!({"op": "enter", "from_current": rng.below(2) == 0}),
                1..=3 => {
                    json!({"op": "set", "x": coordinate(rng, size), "y": coordinate(rng, size), "stone": color(rng)})
                }
                4 => json!({"op": "clear"}),
                5 => json!({"op": "to_move", "color": color(rng)}),
                6 => json!({"op": "from_current"}),
                7 => json!({"op": "cancel"}),
                _ => {
                    let game = if size == 8 { "reversi" } else { "gomoku" };
                    json!({"op": "done", "black": player(rng, game), "white": player(rng, game)})
                }
            };
            ("edit", json!({ "op": op }))
        }
        18 if rng.below(2) == 0 => {
            let op = match rng.below(5) {
                0 => json!({"op": "pause"}),
                1 => json!({"op": "resume"}),
                2 => json!({"op": "dialog", "open": rng.below(2) == 0}),
                3 => json!({"op": "dialog", "open": false}),
                _ => junk(rng),
            };
            ("clock", json!({ "op": op }))
        }
        19 if rng.below(2) == 0 => {
            let point = json!({"x": coordinate(rng, size), "y": coordinate(rng, size)});
            let choice = match rng.below(6) {
                0 => json!({"kind": "take", "color": color(rng)}),
                1 => json!({"kind": "place_two"}),
                2 => json!({"kind": "declare", "count": rng.below(12)}),
                3 => json!({"kind": "offer", "point": point}),
                4 => json!({"kind": "pick", "point": point}),
                _ => junk(rng),
            };
            ("opening_choice", json!({ "choice": choice }))
        }
        15..=17 => {
            let text = match rng.below(6) {
                0 => json!("h8 i9 j10 h9"),
                1 => json!("f5d6c3d3c4"),
                2 => json!(format!("{}X", "-".repeat(63))),
                3 => json!("a1 a1"),
                4 => json!("z".repeat(rng.below(5_000_000) as usize)),
                _ => junk(rng),
            };
            ("paste_game", json!({ "text": text }))
        }
        _ if rng.below(3) == 0 => ("computer_play", json!({})),
        _ => ("copy_text", json!({"what": *rng.choose(&["line", "position", "board"]).unwrap()})),
    }
}

/// One random call: the command and its arguments.
fn call(rng: &mut Rng, size: i64) -> (&'static str, Value) {
    match rng.below(125) {
        100.. => study_call(rng, size),
        0..=39 => ("play_move", json!({"x": coordinate(rng, size), "y": coordinate(rng, size)})),
        40..=47 => ("new_game", json!({ "config": config(rng) })),
        48..=55 => ("undo", json!({})),
        56..=61 => ("redo", json!({})),
        62..=64 => ("resign", json!({})),
        65..=70 => ("hint", json!({})),
        71..=77 => ("stop_thinking", json!({})),
        78..=83 => ("get_snapshot", json!({})),
        84..=86 => ("get_settings", json!({})),
        87..=89 => {
            let mut s = json!({"language": "en", "theme": "dark", "sound": false});
            if rng.below(2) == 0 {
                s["lastConfig"] = config(rng);
            }
            let settings = if rng.below(3) == 0 { junk(rng) } else { s };
            ("set_settings", json!({ "settings": settings }))
        }
        90..=93 => ("get_stats", json!({})),
        94 => (
            "save_game",
            json!({"format": if rng.below(2) == 0 { json!("json") } else { junk(rng) }}),
        ),
        95 => ("open_game", json!({})),
        96 => ("no_such_command", json!({})),
        // Arguments missing altogether, or the wrong shape.
        97 => ("play_move", json!({})),
        98 => ("new_game", junk(rng)),
        _ => ("set_settings", json!({})),
    }
}

/// The error codes a command may answer with.
const CODES: &[&str] = &[
    "illegal_move",
    "computer_thinking",
    "not_your_turn",
    "not_computers_turn",
    "nothing_to_undo",
    "nothing_to_redo",
    "game_over",
    "invalid_argument",
    "file_error",
    "bad_file",
    "editing",
    "not_editing",
    "bad_setup",
    "bad_paste",
    "cannot_pause",
    "engine_error",
    "opening",
    "cancelled",
    "internal",
];

/// The fake engine's answer for `pos` (it plays the first legal point in reading order).
fn engine_answer(pos: &Position) -> Move {
    let cancel = CancelFlag::new();
    cancel.cancel();
    let limits = Limits::default();
    match pos {
        Position::Gomoku(g) => FakeEngine.search(g, &limits, &cancel, &mut |_| {}).best,
        Position::Reversi(r) => FakeEngine.search(r, &limits, &cancel, &mut |_| {}).best,
    }
}

fn stones(pos: &Position) -> Vec<Option<Color>> {
    let size = pos.size();
    (0..size as usize * size as usize).map(|i| pos.stone(Point::from_index(i, size))).collect()
}

/// A new game from `game`'s start: the empty board, or the position set up in the editor.
fn start_of(game: &Game) -> Game {
    match game.setup() {
        Some(setup) => {
            Game::from_setup(*game.config(), setup.clone()).expect("the set-up start is valid")
        }
        None => Game::new(*game.config()).expect("the game's configuration is valid"),
    }
}

/// Replays `game`'s history from the start (forced passes come by themselves); panics when
/// a move is illegal or the result differs.
fn replay(game: &Game) -> Game {
    let mut again = start_of(game);
    let history = game.history();
    let mut i = 0;
    while i < history.len() {
        let records = again
            .play(history[i].mv, history[i].ms)
            .unwrap_or_else(|e| panic!("move {i} ({:?}) does not replay: {e}", history[i]));
        for (j, r) in records.iter().enumerate() {
            let h = history.get(i + j).expect("the history has the forced pass");
            assert_eq!((h.mv, h.color), (r.mv, r.color), "record {}", i + j);
        }
        i += records.len();
    }
    assert_eq!(stones(again.position()), stones(game.position()), "the position differs");
    assert_eq!(again.side_to_move(), game.side_to_move());
    if game.result().is_none() {
        assert!(again.result().is_none(), "the replay ended, the game did not");
    }
    again
}

fn is_computer(game: &Game, c: Color) -> bool {
    matches!(game.player(c), PlayerKind::Computer { .. })
}

/// Checks the session's invariants (all under one lock, so the computer cannot move
/// in between).
fn check_session(h: &Harness) {
    let state = h.app.state::<AppState>();
    let mut session = state.lock();
    let snap = serde_json::to_value(session.snapshot()).unwrap();
    let game = &session.game;
    replay(game);
    let size = game.position().size() as usize;
    let board = snap["board"].as_array().unwrap();
    assert_eq!(board.len(), size);
    // The board shows the game's position, or the editor's while it is open.
    assert_eq!(snap["editor"].is_object(), session.editor.is_some(), "the editor's state");
    for (y, row) in board.iter().enumerate() {
        for (x, cell) in row.as_array().unwrap().iter().enumerate() {
            let p = Point::new(x as u8, y as u8);
            let stone = match &session.editor {
                Some(e) => e.stones[p.index(e.size)],
                None => game.position().stone(p),
            };
            assert_eq!(*cell, json!(stone), "board ({x}, {y})");
        }
    }
    // The move list is the line shown; its first `ply` entries lead to the position shown.
    let moves = snap["moves"].as_array().unwrap();
    assert_eq!(moves.len(), game.line().len(), "the move list");
    assert_eq!(snap["ply"].as_u64(), Some(game.history().len() as u64), "the ply shown");
    for (m, r) in moves.iter().zip(game.history()) {
        assert_eq!(m["color"], json!(r.color));
        assert_eq!(m["pass"], json!(r.mv == Move::Pass));
        if let Move::Place(p) = r.mv {
            assert_eq!((m["x"].as_u64(), m["y"].as_u64()), (Some(p.x as u64), Some(p.y as u64)));
        }
    }
    if game.result().is_none() {
        assert_eq!(snap["toMove"], json!(game.side_to_move()), "exactly one side to move");
        assert!(snap["result"].is_null());
    } else {
        assert!(snap["toMove"].is_null() && snap["result"].is_object(), "{snap}");
    }
    if let Some(t) = &session.thinking {
        assert_eq!(t.generation, session.generation, "a search for an older state is shown");
        assert_eq!(t.color, game.side_to_move());
        assert!(game.result().is_none());
        // (In an opening the step's player acts, whatever the colour to move.)
        let computer = matches!(game.acting_player(), PlayerKind::Computer { .. });
        match t.purpose {
            tengen_app::session::Purpose::Move => assert!(computer, "a move search for a human"),
            tengen_app::session::Purpose::Hint => assert!(!computer, "a hint for the computer"),
        }
    }
}

#[derive(Default)]
struct Counts {
    checked: AtomicUsize,
    skipped: AtomicUsize,
    computer: AtomicUsize,
}

/// Checks every `move-played` event against the session, when nothing changed since it.
fn watch_moves(h: &Harness, counts: Arc<Counts>, failures: Arc<Mutex<Vec<String>>>) {
    let app = h.app.handle().clone();
    h.app.listen_any("move-played", move |e| {
        let ev: Value = serde_json::from_str(e.payload()).unwrap_or(Value::Null);
        let state = app.state::<AppState>();
        let session = state.lock();
        if ev["generation"].as_u64() != Some(session.generation) {
            counts.skipped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        counts.checked.fetch_add(1, Ordering::Relaxed);
        let game = &session.game;
        if !game.config().opening.is_none() {
            // An opening rule: players act by role, not colour, and the computer's opening
            // stones are its opening judgment's, not the engine's answers.
            counts.skipped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let color: Color = serde_json::from_value(ev["color"].clone()).unwrap();
        let by_computer = ev["by"] == "computer";
        let fail = |why: String| failures.lock().unwrap().push(format!("{why}: {ev}"));
        if by_computer != is_computer(game, color) {
            fail(format!("played by the wrong kind of player ({:?})", game.player(color)));
            return;
        }
        if !by_computer || ev["pass"] == true {
            return;
        }
        counts.computer.fetch_add(1, Ordering::Relaxed);
        // The position the computer moved in: the history up to its move.
        let history = game.history();
        let mv = Move::Place(Point::new(
            ev["x"].as_u64().unwrap() as u8,
            ev["y"].as_u64().unwrap() as u8,
        ));
        let Some(at) = history.iter().rposition(|r| r.mv == mv && r.color == color) else {
            fail("the computer's move is not in the history".into());
            return;
        };
        let mut before = start_of(game);
        let mut i = 0;
        while i < at {
            i += before.play(history[i].mv, history[i].ms).map_or(1, |r| r.len());
        }
        let expected = engine_answer(before.position());
        if expected != mv {
            fail(format!("a stale move: the engine answers {expected:?} there"));
        }
    });
}

#[test]
fn random_command_sequences_keep_the_session_consistent() {
    let sequences = env_or("TENGEN_FUZZ_SEQUENCES", 30);
    let calls = env_or("TENGEN_FUZZ_CALLS", 80);
    let seed = env_or("TENGEN_FUZZ_SEED", 0x7e46e4);
    let counts = Arc::new(Counts::default());
    let failures = Arc::new(Mutex::new(Vec::new()));
    let (mut ok, mut refused, mut total) = (0, 0, 0);
    for n in 0..sequences {
        let mut rng = Rng::new(seed.wrapping_add(n));
        let h = Harness::new("fuzz").with_fake_engines();
        watch_moves(&h, counts.clone(), failures.clone());
        // Start each sequence with the computer playing at least one side.
        let cpu = computer("gomoku", "pattern");
        let start = match n % 3 {
            0 => gomoku_config("freestyle", 7, cpu.clone(), cpu, 100),
            1 => gomoku_config("renju", 9, human(), cpu, 150),
            _ => reversi_config(computer("reversi", "greedy"), human(), 100),
        };
        h.ok("new_game", json!({ "config": start }));
        for i in 0..calls {
            let size = h.snapshot()["size"].as_i64().unwrap_or(15);
            let (cmd, args) = call(&mut rng, size);
            total += 1;
            let context = format!("sequence {n} (seed {}), call {i}: {cmd} {args:.200}", seed + n);
            match h.invoke(cmd, args.clone()) {
                Ok(_) => ok += 1,
                Err(e) => {
                    refused += 1;
                    // A typed error, or Tauri's own refusal of arguments it cannot read.
                    match &e {
                        Value::Object(_) => {
                            let code = e["code"].as_str().unwrap_or("");
                            assert!(CODES.contains(&code), "{context}: unknown error {e}");
                            assert!(e["message"].is_string(), "{context}: {e}");
                        }
                        Value::String(s) => {
                            assert!(!s.contains("panic"), "{context}: {s}");
                            assert!(
                                s.contains("invalid args") || s.contains("not found"),
                                "{context}: {s}"
                            );
                        }
                        _ => panic!("{context}: {e}"),
                    }
                }
            }
            check_session(&h);
            if rng.below(3) == 0 {
                // Let the computer think and move now and then.
                thread::sleep(Duration::from_millis(rng.below(30)));
                check_session(&h);
            }
        }
        h.ok("new_game", json!({ "config": gomoku_config("freestyle", 5, human(), human(), 100) }));
        check_session(&h);
    }
    let failures = failures.lock().unwrap();
    println!(
        "fuzz: {sequences} sequences, {total} calls ({ok} answered, {refused} refused); \
         {} move events checked ({} computer moves), {} skipped (superseded, or in a game with an opening rule); {} failures",
        counts.checked.load(Ordering::Relaxed),
        counts.computer.load(Ordering::Relaxed),
        counts.skipped.load(Ordering::Relaxed),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(counts.computer.load(Ordering::Relaxed) > 0, "the computer never moved");
}

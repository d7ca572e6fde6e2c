//! Live analysis on Tauri's mock runtime: the switch and its bounded number of lines, a
//! new run for every change of the position (a move, a step back), a pause while the
//! computer chooses its move or the window is hidden, and off.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

/// An update with `n` lines (of a running analysis, or one that ended by itself).
fn with_lines(ev: &Value, n: usize) -> bool {
    (ev["state"] == "running" || ev["state"] == "done")
        && ev["lines"].as_array().is_some_and(|l| l.len() == n)
}

#[test]
fn the_number_of_lines_is_one_to_five_and_refused_otherwise() {
    let h = Harness::new("analysis-lines");
    assert_eq!(h.ok("get_analysis", json!({})), json!({"on": false, "lines": 3}));
    for bad in [0, 6, 200] {
        let e = h.err("set_analysis", json!({"on": true, "lines": bad}));
        assert_eq!(e["code"], "invalid_argument", "{e}");
        assert_eq!(e["params"]["field"], "lines");
    }
    assert_eq!(h.err("set_analysis", json!({"on": true, "lines": -1}))["code"], "invalid_argument");
    assert_eq!(h.err("set_analysis", json!({"on": "yes", "lines": 2}))["code"], "invalid_argument");
    assert_eq!(h.ok("get_analysis", json!({})), json!({"on": false, "lines": 3}));
    assert_eq!(
        h.ok("set_analysis", json!({"on": false, "lines": 5})),
        json!({"on": false, "lines": 5})
    );
}

#[test]
fn analysis_restarts_on_every_change_and_stops_when_switched_off() {
    let h = Harness::new("analysis-runs");
    let events = h.events("analysis");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 1000) }));
    // Past the opening book (one or no stone), so that the search deepens.
    for (x, y) in [(7, 7), (8, 8), (8, 6)] {
        h.ok("play_move", json!({"x": x, "y": y}));
    }
    h.ok("set_analysis", json!({"on": true, "lines": 2}));
    let first = next(&events, "lines of the first position", |e| with_lines(e, 2));
    assert_eq!(first["color"], "white");
    assert_eq!(first["wanted"], 2);
    let line = &first["lines"][0];
    assert!(line["label"].as_str().is_some_and(|l| !l.is_empty()), "{line}");
    assert_eq!(line["pv"][0]["color"], "white");
    assert!(["chance", "wins"].contains(&line["outlook"]["kind"].as_str().unwrap()), "{line}");
    let run1 = first["run"].as_u64().unwrap();

    // A move: a new run for the new position.
    h.ok("play_move", json!({"x": 6, "y": 8}));
    let second =
        next(&events, "lines after a move", |e| e["run"].as_u64() > Some(run1) && with_lines(e, 2));
    assert_eq!(second["color"], "black");
    let run2 = second["run"].as_u64().unwrap();
    // A step back (undo): another run, white to move again.
    h.ok("undo", json!({}));
    let third =
        next(&events, "lines after undo", |e| e["run"].as_u64() > Some(run2) && with_lines(e, 2));
    assert_eq!(third["color"], "white");
    // The runs keep reporting while they search (nodes grow).
    let run3 = third["run"].clone();
    let later = next(&events, "a later report", |e| {
        e["run"] == run3 && e["nodes"].as_u64() > third["nodes"].as_u64()
    });
    assert_eq!(later["state"], "running");

    // A hidden window pauses it; shown again, it runs.
    h.ok("analysis_visible", json!({"visible": false}));
    next(&events, "paused", |e| e["state"] == "paused");
    h.ok("analysis_visible", json!({"visible": true}));
    next(&events, "running again", |e| with_lines(e, 2));

    h.ok("set_analysis", json!({"on": false, "lines": 2}));
    let off = next(&events, "off", |e| e["state"] == "off");
    assert!(off["lines"].as_array().unwrap().is_empty());
    // Nothing runs any more: no more reports after a moment.
    std::thread::sleep(Duration::from_millis(300));
    while events.try_recv().is_ok() {}
    std::thread::sleep(Duration::from_millis(400));
    assert!(events.try_recv().is_err(), "analysis still reports after it was switched off");
}

#[test]
fn analysis_restarts_on_a_step_through_the_game() {
    let h = Harness::new("analysis-steps");
    let events = h.events("analysis");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 1000) }));
    for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8)] {
        h.ok("play_move", json!({"x": x, "y": y}));
    }
    h.ok("set_analysis", json!({"on": true, "lines": 2}));
    let first = next(&events, "lines at the end of the game", |e| with_lines(e, 2));
    assert_eq!(first["color"], "black");
    let run = |e: &Value| e["run"].as_u64().unwrap();
    // One step back: a new run on the position shown, white to move; the moves stay.
    let s = h.ok("navigate", json!({"nav": {"to": "back"}}));
    assert_eq!((s["ply"].as_u64(), s["moves"].as_array().map(Vec::len)), (Some(3), Some(4)));
    let back = next(&events, "lines a step back", |e| run(e) > run(&first) && with_lines(e, 2));
    assert_eq!(back["color"], "white");
    let stone = |e: &Value| (e["lines"][0]["x"].as_u64(), e["lines"][0]["y"].as_u64());
    assert!(
        s["board"][stone(&back).1.unwrap() as usize][stone(&back).0.unwrap() as usize].is_null(),
        "a line of the position shown plays on an empty point"
    );
    // To a ply: another run, black to move on the position after two moves.
    h.ok("navigate", json!({"nav": {"to": "ply", "ply": 2}}));
    let two = next(&events, "lines at ply 2", |e| run(e) > run(&back) && with_lines(e, 2));
    assert_eq!(two["color"], "black");
    // To the start: the empty board is analysed too.
    h.ok("navigate", json!({"nav": {"to": "first"}}));
    let start = next(&events, "lines at the start", |e| run(e) > run(&two) && with_lines(e, 2));
    assert_eq!(start["color"], "black");
    assert_eq!(stone(&start), (Some(7), Some(7)), "the centre on the empty board");
    // Back to the end of the game: its position is analysed again.
    h.ok("navigate", json!({"nav": {"to": "last"}}));
    let end = next(&events, "lines at the end again", |e| run(e) > run(&start) && with_lines(e, 2));
    assert_eq!(end["color"], "black");
    h.ok("set_analysis", json!({"on": false, "lines": 2}));
    next(&events, "off", |e| e["state"] == "off");
}

#[test]
fn the_board_editor_pauses_analysis_and_it_resumes_after() {
    let h = Harness::new("analysis-editor");
    let events = h.events("analysis");
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 1000) }));
    for (x, y) in [(7, 7), (8, 8), (8, 6)] {
        h.ok("play_move", json!({"x": x, "y": y}));
    }
    h.ok("set_analysis", json!({"on": true, "lines": 2}));
    let first = next(&events, "lines of the game", |e| with_lines(e, 2));
    let run = |e: &Value| e["run"].as_u64().unwrap();
    // The editor opens: analysis pauses (no lines over the stones being edited).
    h.ok("edit", json!({"op": {"op": "enter", "from_current": true}}));
    let paused = next(&events, "paused for the editor", |e| e["state"] == "paused");
    assert!(paused["lines"].as_array().unwrap().is_empty());
    h.ok("edit", json!({"op": {"op": "set", "x": 0, "y": 0, "stone": "white"}}));
    h.ok("edit", json!({"op": {"op": "set", "x": 1, "y": 0, "stone": "black"}}));
    std::thread::sleep(Duration::from_millis(200));
    while let Ok(e) = events.try_recv() {
        assert_ne!(e["state"], "running", "analysis ran while the editor was open: {e}");
    }
    // Cancelled: the game's position is analysed again.
    h.ok("edit", json!({"op": {"op": "cancel"}}));
    let again =
        next(&events, "lines after the editor", |e| run(e) > run(&first) && with_lines(e, 2));
    assert_eq!(again["color"], "white");
    // Done: the set-up position (a white stone more, black to move) is analysed.
    h.ok("edit", json!({"op": {"op": "enter", "from_current": true}}));
    next(&events, "paused again", |e| e["state"] == "paused");
    h.ok("edit", json!({"op": {"op": "set", "x": 0, "y": 0, "stone": "white"}}));
    h.ok("edit", json!({"op": {"op": "to_move", "color": "black"}}));
    h.ok("edit", json!({"op": {"op": "done", "black": human(), "white": human()}}));
    let set_up =
        next(&events, "lines of the set-up position", |e| run(e) > run(&again) && with_lines(e, 2));
    assert_eq!(set_up["color"], "black");
    h.ok("set_analysis", json!({"on": false, "lines": 2}));
    next(&events, "off", |e| e["state"] == "off");
}

#[test]
fn the_computers_move_pauses_analysis_and_it_resumes_after() {
    let h = Harness::new("analysis-computer").with_fake_engines();
    let events = h.events("analysis");
    h.ok(
        "new_game",
        json!({ "config": gomoku_config("freestyle", 15, human(), computer("gomoku", "fivetuple"), 300) }),
    );
    h.ok("set_analysis", json!({"on": true, "lines": 1}));
    next(&events, "lines of the empty board", |e| with_lines(e, 1));
    let s = h.ok("play_move", json!({"x": 7, "y": 7}));
    assert_eq!(s["thinking"]["purpose"], "move");
    next(&events, "paused for the computer", |e| e["state"] == "paused");
    // After the reply (the fake engine plays a1), black to move is analysed.
    let resumed = next(&events, "lines after the reply", |e| with_lines(e, 1));
    assert_eq!(resumed["color"], "black");
    let s = h.snapshot();
    assert_eq!(move_count(&s), 2);
    h.ok("set_analysis", json!({"on": false, "lines": 1}));
    next(&events, "off", |e| e["state"] == "off");
}

#[test]
fn reversi_analysis_values_every_legal_move() {
    let h = Harness::new("analysis-reversi");
    let events = h.events("analysis");
    h.ok("new_game", json!({ "config": reversi_config(human(), human(), 1000) }));
    h.ok("set_analysis", json!({"on": true, "lines": 2}));
    // Four legal first moves: all four get a value (the list shows the two best).
    let ev = next(&events, "every move's value", |e| with_lines(e, 4));
    assert_eq!(ev["wanted"], 2);
    for l in ev["lines"].as_array().unwrap() {
        assert_eq!(l["outlook"]["kind"], "discs", "{l}");
    }
    h.ok("set_analysis", json!({"on": false, "lines": 2}));
    next(&events, "off", |e| e["state"] == "off");
}

/// A benchmark, not a timed test (`cargo test -p tengen-app --test analysis -- --ignored
/// --nocapture`): while analysis runs on a middle-game position for five seconds, the
/// longest gap between two `analysis` events, and the slowest answer of a command asked
/// every 20 ms (get_snapshot, get_analysis).
#[test]
#[ignore]
fn measure_update_gaps_and_command_times_while_analysing() {
    for (name, config, moves) in [
        (
            "gomoku",
            gomoku_config("freestyle", 15, human(), human(), 1000),
            vec![(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9)],
        ),
        (
            "reversi",
            reversi_config(human(), human(), 1000),
            vec![(5, 4), (3, 5), (2, 2), (3, 2), (2, 3)],
        ),
    ] {
        let h = Harness::new("analysis-bench");
        let events = h.events("analysis");
        h.ok("new_game", json!({ "config": config }));
        for (x, y) in moves {
            h.ok("play_move", json!({"x": x, "y": y}));
        }
        // The slowest answer and the answers' median over five seconds.
        let commands = || {
            let start = Instant::now();
            let mut times = Vec::new();
            while start.elapsed() < Duration::from_secs(5) {
                for cmd in ["get_snapshot", "get_analysis"] {
                    let t = Instant::now();
                    h.ok(cmd, json!({}));
                    times.push(t.elapsed());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            times.sort();
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            format!(
                "{} answers, median {:.2} ms, 99th {:.2} ms, slowest {:.2} ms",
                times.len(),
                ms(times[times.len() / 2]),
                ms(times[times.len() * 99 / 100]),
                ms(times[times.len() - 1])
            )
        };
        let idle = commands();
        h.ok("set_analysis", json!({"on": true, "lines": 5}));
        let busy = commands();
        h.ok("set_analysis", json!({"on": false, "lines": 5}));
        let mut times = Vec::new();
        let mut depth = 0;
        while let Ok(ev) = events.try_recv() {
            if ev["state"] == "running" || ev["state"] == "done" {
                times.push(ev["elapsed_ms"].as_u64().unwrap_or(0));
                depth = depth.max(ev["depth"].as_u64().unwrap_or(0));
            }
        }
        let gaps: Vec<u64> = times.windows(2).map(|w| w[1].saturating_sub(w[0])).collect();
        let mut sorted = gaps.clone();
        sorted.sort();
        println!(
            "{name}: {} updates in 5 s, gaps median {} ms, longest {} ms, depth {depth}; commands without analysis: {idle}; with analysis: {busy}",
            times.len(),
            sorted.get(sorted.len() / 2).copied().unwrap_or(0),
            sorted.last().copied().unwrap_or(0),
        );
    }
}

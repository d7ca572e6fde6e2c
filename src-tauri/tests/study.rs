//! Studying a game on Tauri's mock runtime: stepping, variations (promote, delete), the
//! tree through save and open, "take back to here and continue" against the computer, the
//! board editor and its refusals, paste and copy.

mod common;

use common::*;
use serde_json::{json, Value};
use tauri::Manager;
use tengen_app::files::{open_from, save_to, Format};
use tengen_app::runtime::AppState;
use tengen_engine::game::{Game, GameConfig};
use tengen_engine::{Move, Point};

fn hvh(h: &Harness) -> Value {
    h.ok("new_game", json!({ "config": gomoku_config("freestyle", 15, human(), human(), 1000) }))
}

fn play(h: &Harness, moves: &[(u8, u8)]) -> Value {
    let mut s = Value::Null;
    for &(x, y) in moves {
        s = h.ok("play_move", json!({"x": x, "y": y}));
    }
    s
}

fn nav(h: &Harness, to: Value) -> Value {
    h.ok("navigate", json!({ "nav": to }))
}

fn labels(s: &Value) -> Vec<String> {
    s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn stepping_variations_and_the_tree_through_save_and_open() {
    let h = Harness::new("study-tree");
    hvh(&h);
    play(&h, &[(7, 7), (8, 7), (7, 8), (8, 8)]);
    let s = nav(&h, json!({"to": "back"}));
    assert_eq!((s["ply"].as_u64(), s["moves"].as_array().unwrap().len()), (Some(3), 4));
    assert!(s["board"][8][8].is_null(), "the position shown is before the last move");
    assert_eq!(s["canRedo"], true);
    let s = nav(&h, json!({"to": "first"}));
    assert_eq!(s["ply"], 0);
    let s = nav(&h, json!({"to": "ply", "ply": 2}));
    assert_eq!((s["ply"].as_u64(), s["toMove"].as_str()), (Some(2), Some("black")));
    // A move here starts a variation; the old line stays in the tree.
    let s = play(&h, &[(0, 0)]);
    assert_eq!(labels(&s), ["h8", "i8", "a15"]);
    assert_eq!(s["moves"][2]["branch"], 1);
    assert_eq!(s["moves"][2]["alts"][0]["label"], "h7");
    // The variation's next moves come with it, for the move list to show.
    let then = &s["moves"][2]["alts"][0]["then"];
    assert_eq!((then[0]["label"].as_str(), then.as_array().map(Vec::len)), (Some("i7"), Some(1)));
    assert!(s["moves"][2]["alts"][0]["more"].is_null(), "nothing past i7");
    let old = s["moves"][2]["alts"][0]["node"].clone();
    let var = s["moves"][2]["node"].clone();
    // The main line's positions (the review's plies) are reached from any line shown.
    let s = h.ok("navigate", json!({"nav": {"to": "main", "ply": 3}}));
    assert_eq!(labels(&s), ["h8", "i8", "h7", "i7"]);
    assert_eq!(s["ply"], 3);
    h.ok("navigate", json!({"nav": {"to": "node", "node": var}}));
    let s = h.ok("navigate", json!({"nav": {"to": "main", "ply": 0}}));
    assert_eq!(s["ply"], 0);
    assert_eq!(labels(&s), ["h8", "i8", "h7", "i7"], "the main line goes on after it");
    h.ok("navigate", json!({"nav": {"to": "node", "node": var}}));
    // Back to the old line through its node, then promote the variation.
    let s = h.ok("navigate", json!({"nav": {"to": "node", "node": old}}));
    assert_eq!(labels(&s), ["h8", "i8", "h7", "i7"]);
    let s = h.ok("variation", json!({"action": "promote", "node": var}));
    assert_eq!(s["moves"][2]["branch"], 1, "the line shown is now the variation");
    // Save and open keep the tree.
    let path = h.dir.join("tree.json");
    let game = h.app.state::<AppState>().lock().game.clone();
    save_to(&game, &path, Format::Json).unwrap();
    let back = open_from(&path, game.config()).unwrap();
    assert_eq!(back.to_json(), game.to_json());
    assert_eq!(back.tree().preorder().len(), 5);
    let s = h.ok("variation", json!({"action": "delete", "node": var}));
    assert!(s["moves"][2]["alts"].is_null(), "one line left");
    // Bounded arguments.
    let e = h.err("navigate", json!({"nav": {"to": "ply", "ply": 99}}));
    assert_eq!(e["code"], "invalid_argument");
    let e = h.err("navigate", json!({"nav": {"to": "main", "ply": 5}}));
    assert_eq!(e["code"], "invalid_argument");
    let e = h.err("navigate", json!({"nav": {"to": "node", "node": 12345}}));
    assert_eq!(e["code"], "invalid_argument");
    let e = h.err("variation", json!({"action": "promote", "node": -1}));
    assert_eq!(e["code"], "invalid_argument");
    let e = h.err("navigate", json!({"nav": {"to": "sideways"}}));
    assert_eq!(e["code"], "invalid_argument");
}

#[test]
fn against_the_computer_a_move_at_an_earlier_position_is_answered_from_there() {
    let h = Harness::new("study-takeback").with_fake_engines();
    let cfg = gomoku_config("freestyle", 15, human(), computer("gomoku", "fivetuple"), 1000);
    h.ok("new_game", json!({ "config": cfg }));
    h.ok("play_move", json!({"x": 7, "y": 7}));
    h.wait_until(10, "the reply", |s| {
        s["moves"].as_array().unwrap().len() == 2 && s["thinking"].is_null()
    });
    h.ok("play_move", json!({"x": 0, "y": 14}));
    h.wait_until(10, "the second reply", |s| {
        s["moves"].as_array().unwrap().len() == 4 && s["thinking"].is_null()
    });
    // Stepping back is looking: the computer does not move.
    let s = nav(&h, json!({"to": "ply", "ply": 2}));
    assert!(s["thinking"].is_null());
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert_eq!(h.snapshot()["ply"], 2);
    // A move here: the computer answers from the position shown; the old line is kept.
    h.ok("play_move", json!({"x": 14, "y": 14}));
    let s = h.wait_until(10, "the answer", |s| s["ply"] == 4 && s["thinking"].is_null());
    assert_eq!(s["moves"][2]["label"], "o1");
    assert_eq!(s["moves"][2]["alts"][0]["label"], "a1");
}

#[test]
fn computer_plays_here_at_a_position_stepped_back_to() {
    let h = Harness::new("study-computer-here").with_fake_engines();
    // A game against the computer whose white moves are not the fake engine's (it plays the
    // first free point, a15): h8 i9 h9 i10.
    let config: GameConfig = serde_json::from_value(gomoku_config(
        "freestyle",
        15,
        human(),
        computer("gomoku", "fivetuple"),
        300,
    ))
    .unwrap();
    let mut game = Game::new(config).unwrap();
    for (x, y) in [(7, 7), (8, 6), (7, 6), (8, 5)] {
        game.play(Move::Place(Point::new(x, y)), 0).unwrap();
    }
    h.app.state::<AppState>().lock().load_game(game).unwrap();
    let s = h.snapshot();
    assert_eq!(s["computerCanPlay"], false, "the end of the line, the human to move");
    assert_eq!(h.err("computer_play", json!({}))["code"], "not_computers_turn");
    // One move back: white, the computer, to move, and the line goes on. Nothing moves by
    // itself; the action is offered.
    let s = nav(&h, json!({"to": "ply", "ply": 1}));
    assert_eq!((s["toMove"].as_str(), s["computerCanPlay"].as_bool()), (Some("white"), Some(true)));
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(h.snapshot()["thinking"].is_null());
    // Asked: the computer moves from here, a new variation beside i9.
    let s = h.ok("computer_play", json!({}));
    assert_eq!(
        (s["thinking"]["purpose"].as_str(), s["computerCanPlay"].as_bool()),
        (Some("move"), Some(false))
    );
    let s = h.wait_until(10, "the computer's move", |s| s["ply"] == 2 && s["thinking"].is_null());
    assert_eq!(labels(&s), ["h8", "a15"]);
    assert_eq!(
        (s["moves"][1]["branch"].as_u64(), s["moves"][1]["alts"][0]["label"].as_str()),
        (Some(1), Some("i9"))
    );
    assert_eq!(
        (s["toMove"].as_str(), s["computerCanPlay"].as_bool()),
        (Some("black"), Some(false))
    );
    // Back on the main line at white's second move: asked again, the computer's move is a
    // new variation there too; the move already there (i10) stays.
    let main = s["moves"][1]["alts"][0]["node"].clone();
    h.ok("navigate", json!({"nav": {"to": "node", "node": main}}));
    let s = nav(&h, json!({"to": "forward"}));
    assert_eq!((s["ply"].as_u64(), s["computerCanPlay"].as_bool()), (Some(3), Some(true)));
    h.ok("computer_play", json!({}));
    let s = h.wait_until(10, "the second move", |s| s["ply"] == 4 && s["thinking"].is_null());
    assert_eq!(labels(&s), ["h8", "i9", "h9", "a15"]);
    assert_eq!(s["moves"][3]["alts"][0]["label"], "i10");
    // Where the computer's move is the one already there, it follows the line: a15 again
    // after h8.
    let s = nav(&h, json!({"to": "ply", "ply": 1}));
    assert_eq!(s["computerCanPlay"], true);
    h.ok("computer_play", json!({}));
    let s =
        h.wait_until(10, "the move along the line", |s| s["ply"] == 2 && s["thinking"].is_null());
    assert_eq!(s["moves"][1]["label"], "a15");
    let nodes = h.app.state::<AppState>().lock().game.tree().preorder().len();
    assert_eq!(nodes, 6, "no new node: h8, i9, a15, h9, i10, a15");
}

#[test]
fn the_editor_refuses_positions_no_game_reaches_with_the_reason() {
    let h = Harness::new("study-edit");
    hvh(&h);
    play(&h, &[(7, 7), (8, 8)]);
    let s = h.ok("edit", json!({"op": {"op": "enter", "from_current": true}}));
    assert_eq!(s["editor"]["toMove"], "black");
    assert_eq!(s["board"][7][7], "black");
    assert_eq!(h.err("play_move", json!({"x": 0, "y": 0}))["code"], "editing");
    let set = |x: u8, y: u8, stone: Value| {
        h.ok("edit", json!({"op": {"op": "set", "x": x, "y": y, "stone": stone}}))
    };
    set(0, 0, json!("white"));
    let done = json!({"op": {"op": "done", "black": human(), "white": human()}});
    let e = h.err("edit", done.clone());
    assert_eq!(
        (e["code"].as_str(), e["params"]["reason"].as_str()),
        (Some("bad_setup"), Some("counts"))
    );
    assert_eq!((e["params"]["black"].as_u64(), e["params"]["white"].as_u64()), (Some(1), Some(2)));
    set(0, 0, Value::Null);
    h.ok("edit", json!({"op": {"op": "to_move", "color": "white"}}));
    let e = h.err("edit", done.clone());
    assert_eq!(e["params"]["reason"], "side_to_move");
    assert_eq!(e["params"]["expected"], "black");
    h.ok("edit", json!({"op": {"op": "to_move", "color": "black"}}));
    for x in 0..5 {
        set(x, 0, json!("black"));
        set(x, 2, json!("white"));
    }
    assert_eq!(h.err("edit", done.clone())["params"]["reason"], "five");
    h.ok("edit", json!({"op": {"op": "clear"}}));
    set(7, 7, json!("black"));
    let e = h.err("edit", json!({"op": {"op": "set", "x": 15, "y": 0, "stone": "black"}}));
    assert_eq!(e["code"], "invalid_argument");
    h.ok("edit", json!({"op": {"op": "to_move", "color": "white"}}));
    let s = h.ok("edit", done.clone());
    assert!(s["editor"].is_null());
    assert_eq!((s["toMove"].as_str(), s["ply"].as_u64()), (Some("white"), Some(0)));
    assert_eq!(s["board"][7][7], "black");
    // Renju: a black overline, which only a forbidden move makes.
    h.ok("new_game", json!({ "config": gomoku_config("renju", 15, human(), human(), 1000) }));
    h.ok("edit", json!({"op": {"op": "enter", "from_current": false}}));
    for x in 0..6 {
        set(x, 0, json!("black"));
        set(2 * x, 2, json!("white"));
    }
    let e = h.err("edit", done.clone());
    assert_eq!(
        (e["code"].as_str(), e["params"]["reason"].as_str()),
        (Some("bad_setup"), Some("overline"))
    );
    h.ok("edit", json!({"op": {"op": "cancel"}}));

    // Reversi: the centre must hold discs, every disc is joined to it, and a side that must
    // pass is refused with the other side offered.
    h.ok("new_game", json!({ "config": reversi_config(human(), human(), 1000) }));
    h.ok("edit", json!({"op": {"op": "enter", "from_current": true}}));
    set(3, 3, Value::Null);
    let e = h.err("edit", done.clone());
    assert_eq!(
        (e["code"].as_str(), e["params"]["reason"].as_str()),
        (Some("bad_setup"), Some("centre_empty"))
    );
    set(3, 3, json!("white"));
    set(0, 7, json!("black"));
    let e = h.err("edit", done.clone());
    assert_eq!(
        (e["code"].as_str(), e["params"]["reason"].as_str()),
        (Some("bad_setup"), Some("cut_off"))
    );
    // Black holds the centre, white c3 and f6: white has no move, black has.
    h.ok("edit", json!({"op": {"op": "clear"}}));
    for (x, y) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
        set(x, y, json!("black"));
    }
    set(2, 2, json!("white"));
    set(5, 5, json!("white"));
    h.ok("edit", json!({"op": {"op": "to_move", "color": "white"}}));
    let e = h.err("edit", done.clone());
    assert_eq!(
        (e["code"].as_str(), e["params"]["reason"].as_str()),
        (Some("bad_setup"), Some("must_pass"))
    );
    assert_eq!(
        (e["params"]["color"].as_str(), e["params"]["offer"].as_str()),
        (Some("white"), Some("black"))
    );
    // The side offered is accepted.
    h.ok("edit", json!({"op": {"op": "to_move", "color": e["params"]["offer"]}}));
    let s = h.ok("edit", done);
    assert!(s["editor"].is_null());
    assert_eq!((s["toMove"].as_str(), s["board"][2][2].as_str()), (Some("black"), Some("white")));
    // Off the board and two stones on a point are the editor's own to refuse: a point is
    // set within the board, one stone at a time.
    h.ok("edit", json!({"op": {"op": "enter", "from_current": true}}));
    let e = h.err("edit", json!({"op": {"op": "set", "x": 8, "y": 0, "stone": "black"}}));
    assert_eq!(e["code"], "invalid_argument");
    h.ok("edit", json!({"op": {"op": "cancel"}}));
    assert_eq!(h.err("edit", json!({"op": {"op": "clear"}}))["code"], "not_editing");
}

#[test]
fn paste_says_what_it_recognised_and_copy_gives_the_line() {
    let h = Harness::new("study-paste");
    hvh(&h);
    let s = h.ok("paste_game", json!({"text": "h8 i9 j10"}));
    assert_eq!(s["notice"]["code"], "pasted");
    assert_eq!(s["notice"]["params"]["kind"], "move_list");
    assert_eq!(labels(&s), ["h8", "i9", "j10"]);
    assert_eq!(h.ok("copy_text", json!({"what": "line"})), "h8 i9 j10");
    nav(&h, json!({"to": "back"}));
    assert_eq!(h.ok("copy_text", json!({"what": "position"})), "h8 i9");
    // A PSQ record (Piskvork's: 1-based x,y,time), back to Gomoku.
    let psq = "Piskvorky 15x15, 11:11, 0\n8,8,120\n9,9,340\n9,8,0\n-1\n";
    let s = h.ok("paste_game", json!({"text": psq}));
    assert_eq!(
        (s["game"].as_str(), s["notice"]["code"].as_str(), s["notice"]["params"]["kind"].as_str()),
        (Some("gomoku"), Some("pasted"), Some("psq"))
    );
    assert_eq!(labels(&s), ["h8", "i7", "i8"]);
    assert_eq!(s["moves"][1]["ms"], 340);
    assert_eq!(h.ok("copy_text", json!({"what": "line"})), "h8 i7 i8");
    let s = h.ok("paste_game", json!({"text": "f5d6c3"}));
    assert_eq!(
        (s["game"].as_str(), s["notice"]["params"]["kind"].as_str()),
        (Some("reversi"), Some("transcript"))
    );
    let board = h.ok("copy_text", json!({"what": "position"}));
    let s = h.ok("paste_game", json!({"text": board}));
    assert_eq!(s["notice"]["params"]["kind"], "board");
    assert_eq!(h.err("paste_game", json!({"text": "hello"}))["code"], "bad_paste");
    let huge = "a".repeat(5 * 1024 * 1024);
    assert_eq!(h.err("paste_game", json!({"text": huge}))["code"], "invalid_argument");
}

/// The saved game the end-to-end tests open through Open (tests/e2e/fixtures/study.json):
/// Gomoku, white leaves black's four h8-k8 to stand at move 8 (a blunder), a variation at
/// move 4, and the review saved with it. It must open with both; `TENGEN_WRITE_FIXTURES=1`
/// writes it again.
#[test]
fn the_e2e_fixture_opens_with_its_variations_and_its_review() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/e2e/fixtures/study.json");
    if std::env::var_os("TENGEN_WRITE_FIXTURES").is_some() {
        let h = Harness::new("study-fixture");
        hvh(&h);
        play(&h, &[(7, 7), (6, 7), (8, 7), (7, 6), (9, 7), (7, 5), (10, 7), (0, 0)]);
        // A variation at move 4: i9 instead of h9, and two moves more.
        nav(&h, json!({"to": "ply", "ply": 3}));
        play(&h, &[(8, 6), (6, 8), (9, 5)]);
        nav(&h, json!({"to": "main", "ply": 8}));
        h.app.state::<AppState>().lock().review.limits = tengen_engine::ai::Limits::depth(3);
        let reviews = h.events("review");
        h.ok("review", json!({"action": "start"}));
        next(&reviews, "the finished review", |e| e["running"] == false);
        let (game, review) = {
            let state = h.app.state::<AppState>();
            let s = state.lock();
            (s.game.clone(), s.review.review.clone())
        };
        tengen_app::files::save_reviewed(&game, review.as_ref(), &path, Format::Json).unwrap();
    }
    let config: GameConfig =
        serde_json::from_value(gomoku_config("freestyle", 15, human(), human(), 1000)).unwrap();
    let game = open_from(&path, &config).unwrap();
    let text = tengen_app::files::read_from(&path).unwrap();
    assert_eq!(game.tree().main_line().len(), 8);
    assert_eq!(game.tree().preorder().len(), 11, "the main line and a variation of three");
    let review = game.stored_review(&text).expect("a saved review").expect("it fits the game");
    assert_eq!(review.plies.len(), 8);
}

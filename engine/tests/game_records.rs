//! Loading saves and records: the rule a PSQ carries, records that a rule cannot replay,
//! and every stored fact of a JSON save rechecked against its moves.

use serde_json::{json, Value};
use tengen_engine::game::{
    EndReason, Game, GameConfig, GameError, GameKind, SaveError, MAX_MOVE_MS,
};
use tengen_engine::gomoku::psq::{read_psq, write_psq};
use tengen_engine::gomoku::{ForbiddenKind, Rule};
use tengen_engine::{Color, Move};

mod common;
use common::{at, gomoku, reversi};

fn played(config: GameConfig, moves: &str) -> Game {
    let mut game = Game::new(config).unwrap();
    for m in moves.split_whitespace() {
        game.play(at(m), 10).unwrap();
    }
    game
}

/// Black makes six on row 8 at move 11 (f8), which wins nothing under the standard rule;
/// white plays on at move 12.
const SIX: &str = "c8 a1 d8 a3 e8 a5 g8 a7 h8 a9 f8 a11";

#[test]
fn a_psq_reopens_under_its_own_rule() {
    let game = played(gomoku(Rule::Standard), SIX);
    assert!(game.result().is_none(), "a six wins nothing under the standard rule");
    let psq = game.to_record();
    assert!(psq.ends_with("homo-1\nhomo-2\nrule standard\n"), "{psq}");
    for template in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let back = Game::open(&psq, &gomoku(template)).unwrap();
        assert_eq!(back.config().kind, GameKind::Gomoku { rule: Rule::Standard, size: 15 });
        assert_eq!(back.history(), game.history());
        assert!(back.result().is_none());
    }
}

#[test]
fn a_psq_without_a_rule_is_refused_where_the_chosen_rule_cannot_replay_it() {
    let game = played(gomoku(Rule::Standard), SIX);
    // As Piskvork (and earlier Tengen) writes it: no rule.
    let old = write_psq(&read_psq(&game.to_record()).unwrap());
    assert!(!old.contains("rule"));
    let piskvork = format!("{old}pbrain-a.exe\npbrain-b.exe\n-1\n");
    for text in [&old, &piskvork] {
        let std = Game::open(text, &gomoku(Rule::Standard)).unwrap();
        assert_eq!(std.history(), game.history());
        // Freestyle: the six wins at move 11, so move 12 cannot be played.
        match Game::open(text, &gomoku(Rule::Freestyle)) {
            Err(SaveError::NotUnderRule { index: 12, rule: Rule::Freestyle, source }) => {
                assert_eq!(source, GameError::GameOver)
            }
            other => panic!("{other:?}"),
        }
        // Renju: the six is black's overline, which ends the game, yet the file goes on:
        // refused, not cut after move 10.
        let e = Game::open(text, &gomoku(Rule::Renju)).unwrap_err();
        assert_eq!(
            e,
            SaveError::MovesAfterForbidden {
                index: 11,
                point: "f8".into(),
                kind: ForbiddenKind::Overline,
                more: 1
            }
        );
        assert!(e.to_string().contains("move 11 (f8) is forbidden"), "{e}");
    }
    // The same list in board notation is read under the chosen rule just the same.
    assert!(matches!(
        Game::open(SIX, &gomoku(Rule::Freestyle)),
        Err(SaveError::NotUnderRule { index: 12, .. })
    ));
    assert_eq!(Game::open(SIX, &gomoku(Rule::Standard)).unwrap().history().len(), 12);
}

#[test]
fn a_forbidden_last_move_round_trips_as_a_loss() {
    // h8 is a double-three for black; a record that ends with it is a loss for black.
    let moves = "i8 a1 j8 a3 h9 a5 h10 a7 h8";
    let game = Game::open(moves, &gomoku(Rule::Renju)).unwrap();
    let result = game.result().unwrap().clone();
    assert_eq!(result.reason, EndReason::Forbidden);
    let psq = game.to_record();
    assert!(psq.contains("\n8,8,0\nhomo-1"), "the forbidden move is the record's last: {psq}");
    let back = Game::open(&psq, &gomoku(Rule::Freestyle)).unwrap();
    assert_eq!(back.result(), Some(&result));
    assert_eq!(back.history(), game.history());
    let back = Game::from_json(&game.to_json()).unwrap();
    assert_eq!(back.result(), Some(&result));
}

/// The game as a version 1 save (the moves to the position shown, the redo list, the
/// decision there), which still opens: its checks are the ones each move of version 2 gets.
fn version_1(game: &Game) -> Value {
    let tree = game.tree();
    let line = game.line();
    let redo: Vec<_> =
        line[game.history().len()..].iter().rev().map(|&n| *tree.record(n).unwrap()).collect();
    let ended =
        game.result().filter(|r| matches!(r.reason, EndReason::Resignation | EndReason::Forbidden));
    json!({"format": "tengen", "version": 1, "config": game.config(), "moves": game.history(),
           "redo": redo, "ended": ended})
}

/// The game's version 1 JSON as a value, changed by `edit`, loaded again.
fn reload(game: &Game, edit: impl FnOnce(&mut Value)) -> Result<Game, SaveError> {
    let mut value: Value = version_1(game);
    edit(&mut value);
    Game::from_json(&value.to_string())
}

fn bad_result(r: Result<Game, SaveError>) -> bool {
    matches!(r, Err(SaveError::BadResult(_)))
}

#[test]
fn a_stored_result_must_follow_from_the_moves() {
    let game = played(gomoku(Rule::Freestyle), "h8 h9 i8 i9");
    // The example from the issue: a resignation with no winner and a line off the board.
    let claim = json!({"winner": null, "reason": "resignation", "line": [{"x": 250, "y": 250}]});
    assert!(bad_result(reload(&game, |v| v["ended"] = claim)));
    // A real resignation loads; the winner must be the side that did not resign.
    let mut resigned = game.clone();
    resigned.resign(Color::White).unwrap();
    let back = reload(&resigned, |_| {}).unwrap();
    assert_eq!(back.result(), resigned.result());
    assert!(bad_result(reload(&resigned, |v| v["ended"]["line"] = json!([{"x": 7, "y": 7}]))));
    assert!(bad_result(reload(&resigned, |v| v["ended"]["discs"] = json!([2, 2]))));
    let swapped = reload(&resigned, |v| v["ended"]["winner"] = json!("white")).unwrap();
    assert_eq!(swapped.result().unwrap().winner, Some(Color::White), "black resigned");
    // A five the moves do not make, a full board that is not full.
    for reason in ["five", "board_full", "no_moves"] {
        let claim = json!({"winner": "black", "reason": reason, "line": [], "discs": null,
                           "forbidden": null});
        assert!(bad_result(reload(&game, |v| v["ended"] = claim)), "{reason}");
    }
    // A game the moves have ended cannot also be resigned.
    let won = played(gomoku(Rule::Freestyle), "h8 h9 i8 i9 j8 j9 k8 k9 l8");
    assert_eq!(won.result().unwrap().reason, EndReason::Five);
    let claim = json!({"winner": "white", "reason": "resignation", "line": [],
                       "discs": null, "forbidden": null});
    assert!(bad_result(reload(&won, |v| v["ended"] = claim)));
    // The true five, stored, is accepted (and recomputed).
    let five = serde_json::to_value(won.result().unwrap()).unwrap();
    assert_eq!(reload(&won, |v| v["ended"] = five).unwrap().result(), won.result());
}

#[test]
fn a_stored_forbidden_loss_must_be_on_a_forbidden_point() {
    let game = Game::open("i8 a1 j8 a3 h9 a5 h10 a7 h8", &gomoku(Rule::Renju)).unwrap();
    let ended = serde_json::to_value(game.result().unwrap()).unwrap();
    assert!(reload(&game, |_| {}).is_ok());
    // Another point, or another kind, or the same file under another rule.
    let mut elsewhere = ended.clone();
    elsewhere["line"] = json!([{"x": 0, "y": 0}]);
    assert!(bad_result(reload(&game, |v| v["ended"] = elsewhere)));
    let mut kind = ended.clone();
    kind["forbidden"] = json!("overline");
    assert!(bad_result(reload(&game, |v| v["ended"] = kind)));
    let mut off = ended.clone();
    off["line"] = json!([{"x": 250, "y": 250}]);
    assert!(bad_result(reload(&game, |v| v["ended"] = off)));
    assert!(bad_result(reload(&game, |v| v["config"]["kind"]["rule"] = json!("freestyle"))));
}

#[test]
fn every_move_record_is_rechecked() {
    let game = played(gomoku(Rule::Freestyle), "h8 h9 i8");
    // A pass in a Gomoku save is an error, not skipped.
    let pass = json!({"kind": "pass", "color": "white", "ms": 0});
    let e = reload(&game, |v| v["moves"].as_array_mut().unwrap().insert(1, pass)).unwrap_err();
    assert_eq!(e, SaveError::BadMove { index: 2, source: GameError::NoPassInGomoku });
    // The colour must be the side to move.
    let e = reload(&game, |v| v["moves"][1]["color"] = json!("black")).unwrap_err();
    assert!(matches!(e, SaveError::Mismatch { index: 2, .. }), "{e:?}");
    // Times are bounded.
    let e = reload(&game, |v| v["moves"][2]["ms"] = json!(MAX_MOVE_MS + 1)).unwrap_err();
    assert_eq!(e, SaveError::BadTime { index: 3, ms: MAX_MOVE_MS + 1 });
    assert!(reload(&game, |v| v["moves"][2]["ms"] = json!(MAX_MOVE_MS)).is_ok());
    // A live game records at most the bound.
    let mut slow = Game::new(gomoku(Rule::Freestyle)).unwrap();
    slow.play(at("h8"), u64::MAX).unwrap();
    assert_eq!(slow.history()[0].ms, MAX_MOVE_MS);
    // The redo list must replay after the moves.
    let mut undone = game.clone();
    undone.undo().unwrap();
    assert!(reload(&undone, |_| {}).is_ok());
    let e = reload(&undone, |v| v["redo"][0]["x"] = json!(7)).unwrap_err();
    assert!(matches!(e, SaveError::BadRedo { index: 1, .. }), "{e:?}");
    let e = reload(&undone, |v| v["redo"][0]["x"] = json!(99)).unwrap_err();
    assert!(matches!(e, SaveError::BadRedo { index: 1, .. }), "{e:?}");
    // The settings are validated.
    let e = reload(&game, |v| v["config"]["timePerMoveMs"] = json!(0)).unwrap_err();
    assert!(matches!(e, SaveError::Config(GameError::BadConfig(_))), "{e:?}");
}

/// A Reversi game with a forced pass: after f5 f6 e6 f4 e3 c5 c4 e7 b4? — found by play.
fn reversi_with_a_pass() -> Game {
    let mut rng = tengen_engine::rng::Rng::new(1);
    for _ in 0..2000 {
        let mut game = Game::new(reversi()).unwrap();
        while !game.is_over() {
            let moves = game.position().legal_points();
            let p = *rng.choose(&moves).unwrap();
            let added = game.play(Move::Place(p), 5).unwrap();
            if added.len() == 2 && !game.is_over() {
                return game;
            }
        }
    }
    panic!("no pass in 2000 random games");
}

#[test]
fn reversi_passes_must_be_where_the_rules_force_them() {
    let game = reversi_with_a_pass();
    assert!(reload(&game, |_| {}).is_ok());
    let moves = game.history();
    let pass_at = moves.iter().position(|r| r.mv == Move::Pass).unwrap();
    // The forced pass left out.
    let e = reload(&game, |v| {
        v["moves"].as_array_mut().unwrap().remove(pass_at);
    })
    .unwrap_err();
    assert!(matches!(e, SaveError::Mismatch { .. } | SaveError::BadMove { .. }), "{e:?}");
    // A pass where a move was legal (black's first move).
    let pass = json!({"kind": "pass", "color": "black", "ms": 0});
    let e = reload(&game, |v| v["moves"].as_array_mut().unwrap().insert(0, pass)).unwrap_err();
    assert!(matches!(e, SaveError::BadMove { index: 1, .. }), "{e:?}");
    assert!(e.to_string().contains("cannot pass"), "{e}");
    // The game cut right after the forcing move, its pass left out.
    let e = reload(&game, |v| {
        v["moves"].as_array_mut().unwrap().truncate(pass_at);
    })
    .unwrap_err();
    assert!(matches!(e, SaveError::Mismatch { .. }), "{e:?}");
}

//! The game as a tree: stepping, variations, promotion and deletion, set-up starts, and the
//! records that keep them (JSON version 2, the old version 1, PSQ and transcripts, and the
//! texts copied and pasted).

use tengen_engine::game::{
    EndReason, Game, GameError, RecordKind, SaveError, Setup, SetupError, ROOT,
};
use tengen_engine::gomoku::{notation, Rule};
use tengen_engine::{Color, Move, Point};

mod common;
use common::{at, gomoku, reversi};

fn play_all(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play(at(m), 10).unwrap();
    }
}

fn labels(game: &Game, nodes: &[usize]) -> String {
    let pos = game.position();
    let tree = game.tree();
    nodes.iter().map(|&n| pos.move_label(tree.record(n).unwrap().mv)).collect::<Vec<_>>().join(" ")
}

#[test]
fn stepping_changes_what_is_shown_never_what_was_played() {
    let mut g = Game::new(gomoku(Rule::Renju)).unwrap();
    play_all(&mut g, "h8 h9 j8 j9");
    assert!(g.back() && g.back());
    assert_eq!(g.history().len(), 2);
    assert_eq!(g.redo_len(), 2);
    assert_eq!(g.position().stone(notation::parse_point("j8", 15).unwrap()), None);
    assert_eq!(labels(&g, &g.line()), "h8 h9 j8 j9", "the line shown is whole");
    g.go_to_ply(0).unwrap();
    assert_eq!(g.cursor(), ROOT);
    assert!(!g.back());
    g.go_to_ply(99).unwrap();
    assert_eq!(g.history().len(), 4);
    assert!(!g.forward());
    g.go_to_ply(1).unwrap();
    assert_eq!(g.side_to_move(), Color::White);
    assert!(g.forward());
    assert_eq!(g.history().len(), 2);
    assert_eq!(g.goto(999), Err(GameError::NoSuchNode));
}

#[test]
fn a_move_at_an_earlier_position_starts_a_variation_and_keeps_the_old_line() {
    let mut g = Game::new(gomoku(Rule::Freestyle)).unwrap();
    play_all(&mut g, "h8 h9 j8 j9");
    let main = g.tree().main_line();
    g.go_to_ply(2).unwrap();
    // The move already there is followed, not doubled.
    g.play(at("j8"), 5).unwrap();
    assert_eq!(g.tree().children(main[1]).len(), 1);
    assert_eq!(g.redo_len(), 1);
    g.go_to_ply(2).unwrap();
    g.play(at("k8"), 5).unwrap();
    assert_eq!(g.tree().children(main[1]).len(), 2, "a variation beside j8");
    assert_eq!(labels(&g, &g.tree().main_line()), "h8 h9 j8 j9", "the main line is kept");
    assert_eq!(labels(&g, &g.line()), "h8 h9 k8", "the variation is shown");
    assert!(!g.tree().on_main_line(g.cursor()));
    // Stepping back and forward follows the line shown, not the main line.
    g.back();
    g.forward();
    assert_eq!(labels(&g, &g.line()), "h8 h9 k8");
    // Promote: the variation becomes the main line, the old one a variation.
    let k8 = g.cursor();
    g.promote(k8).unwrap();
    assert_eq!(labels(&g, &g.tree().main_line()), "h8 h9 k8");
    assert!(g.tree().on_main_line(k8));
    // Delete the old line from j8: the position shown stays.
    let j8 = g.tree().children(main[1])[1];
    g.delete(j8).unwrap();
    assert_eq!(g.tree().children(main[1]), &[k8]);
    assert_eq!(g.cursor(), k8);
    // Deleting the line shown shows the move before it.
    g.delete(k8).unwrap();
    assert_eq!(g.cursor(), main[1]);
    assert_eq!(g.delete(ROOT), Err(GameError::NoSuchNode));
}

#[test]
fn the_result_belongs_to_the_line_shown() {
    let mut g = Game::new(gomoku(Rule::Freestyle)).unwrap();
    play_all(&mut g, "a1 a15 b1 b15 c1 c15 d1 d15 e1");
    assert_eq!(g.result().map(|r| r.reason), Some(EndReason::Five));
    assert_eq!(g.play(at("o8"), 0), Err(GameError::GameOver));
    g.back();
    assert!(g.result().is_none(), "before the five the game goes on");
    g.play(at("o1"), 0).unwrap();
    assert!(g.result().is_none());
    g.resign(Color::Black).unwrap();
    assert_eq!(g.result().map(|r| r.reason), Some(EndReason::Resignation));
    g.back();
    g.forward();
    assert_eq!(g.line().len(), 9);
    // The resignation stays at its position; the five's line ends by the five.
    let five = g.tree().main_line()[8];
    g.goto(five).unwrap();
    assert_eq!(g.result().map(|r| r.reason), Some(EndReason::Five));
}

#[test]
fn the_tree_and_a_set_up_start_round_trip_through_json() {
    let setup = Setup {
        black: vec![Point::new(7, 7), Point::new(8, 8)],
        white: vec![Point::new(0, 0)],
        to_move: Color::White,
    };
    let mut g = Game::from_setup(gomoku(Rule::Renju), setup.clone()).unwrap();
    play_all(&mut g, "a14 h10 a13");
    g.go_to_ply(1).unwrap();
    play_all(&mut g, "k5 k6");
    g.go_to_ply(2).unwrap();
    play_all(&mut g, "c3");
    g.resign(Color::White).unwrap();
    g.go_to_ply(1).unwrap();
    let text = g.to_json();
    assert!(text.contains("\"version\": 2"));
    let back = Game::from_json(&text).unwrap();
    assert_eq!(back.to_json(), text);
    assert_eq!(back.setup(), Some(&setup));
    assert_eq!(back.history(), g.history());
    assert_eq!(back.tree().preorder().len(), 6);
    let mut end = back.clone();
    end.go_to_ply(3).unwrap();
    assert_eq!(end.result().map(|r| r.reason), Some(EndReason::Resignation));

    // Untrusted files: a move replayed against the rules, a child before its parent, a
    // set-up no game reaches.
    let occupied = text.replacen("\"x\": 0,\n      \"y\": 1,", "\"x\": 7,\n      \"y\": 7,", 1);
    assert_ne!(occupied, text);
    assert!(matches!(Game::from_json(&occupied), Err(SaveError::BadMove { index: 1, .. })));
    let orphan = text.replacen("\"parent\": 1", "\"parent\": 6", 1);
    assert!(matches!(Game::from_json(&orphan), Err(SaveError::Mismatch { .. })));
    let crowded = text.replacen("\"toMove\": \"white\"", "\"toMove\": \"black\"", 1);
    assert_eq!(
        Game::from_json(&crowded).unwrap_err(),
        SaveError::Setup(SetupError::SideToMove { expected: Color::White })
    );
}

#[test]
fn a_version_1_save_still_opens_with_its_redo_list_as_the_line() {
    let text = r#"{"format":"tengen","version":1,
        "config":{"kind":{"game":"gomoku","rule":"freestyle","size":15},
                  "black":{"type":"human"},"white":{"type":"human"},"timePerMoveMs":1000},
        "moves":[{"kind":"place","x":7,"y":7,"color":"black","ms":5},
                 {"kind":"place","x":7,"y":6,"color":"white","ms":6}],
        "redo":[{"kind":"place","x":9,"y":6,"color":"white","ms":8},
                {"kind":"place","x":9,"y":7,"color":"black","ms":7}]}"#;
    let g = Game::from_json(text).unwrap();
    assert_eq!(g.history().len(), 2);
    assert_eq!(g.redo_len(), 2);
    assert_eq!(labels(&g, &g.line()), "h8 h9 j8 j9");
    let bad = text.replace("\"x\":9,\"y\":6", "\"x\":7,\"y\":7");
    assert!(matches!(Game::from_json(&bad), Err(SaveError::BadRedo { .. })));
}

#[test]
fn records_keep_the_main_line_and_texts_round_trip() {
    let mut g = Game::new(gomoku(Rule::Renju)).unwrap();
    play_all(&mut g, "h8 h9 j8");
    g.go_to_ply(1).unwrap();
    play_all(&mut g, "g7");
    let psq = g.to_record();
    let back = Game::open(&psq, &gomoku(Rule::Freestyle)).unwrap();
    assert_eq!(labels(&back, &back.line()), "h8 h9 j8", "PSQ holds the main line");
    assert_eq!(g.line_text(), "h8 g7");
    let (pasted, kind) = Game::open_text(&g.line_text(), g.config()).unwrap();
    assert_eq!((kind, pasted.history().len()), (RecordKind::MoveList, 2));
    g.back();
    assert_eq!(g.position_text(), "h8");

    // Reversi: a transcript, a board string, and a set-up game's record.
    let mut r = Game::new(reversi()).unwrap();
    for m in ["f5", "d6", "c3"] {
        let p = tengen_engine::reversi::notation::parse_square(m).unwrap();
        r.play(Move::Place(p), 0).unwrap();
    }
    assert_eq!(r.line_text(), "f5d6c3");
    let (_, kind) = Game::open_text(&r.line_text(), &reversi()).unwrap();
    assert_eq!(kind, RecordKind::Transcript);
    let board = r.position_text();
    let (from_board, kind) = Game::open_text(&board, &gomoku(Rule::Renju)).unwrap();
    assert_eq!(kind, RecordKind::Board);
    assert_eq!(from_board.side_to_move(), Color::White);
    assert!(from_board.setup().is_some());
    let mut set = from_board.clone();
    let mv = Move::Place(set.position().legal_points()[0]);
    set.play(mv, 0).unwrap();
    let (reopened, kind) = Game::open_text(&set.to_record(), &reversi()).unwrap();
    assert_eq!(kind, RecordKind::Board);
    assert_eq!(
        reopened.history(),
        &set.history()[..1]
            .iter()
            .map(|r| {
                let mut r = *r;
                r.ms = 0;
                r
            })
            .collect::<Vec<_>>()[..]
    );
    let empty_centre = board.replacen('X', "-", 64);
    assert!(Game::open_text(&empty_centre, &reversi()).is_err());
}

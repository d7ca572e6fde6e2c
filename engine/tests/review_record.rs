//! The review saved with a game: it reads back unchanged, and a review that does not fit
//! the game (tampered, malformed) is dropped while the game still opens.

use tengen_engine::ai::review::{review, Review, ReviewError, Verdict};
use tengen_engine::ai::{AnyEngine, CancelFlag, GomokuLevel, Level, Limits};
use tengen_engine::game::{Game, GameConfig, GameKind};
use tengen_engine::gomoku::Rule;
use tengen_engine::{Move, Point};

fn game() -> Game {
    let kind = GameKind::Gomoku { rule: Rule::Freestyle, size: 15 };
    let config = GameConfig::human_vs(kind, Level::Gomoku(GomokuLevel::Master));
    let mut g = Game::new(config).unwrap();
    for (x, y) in [(7, 7), (6, 7), (8, 7), (7, 6), (9, 7)] {
        g.play(Move::Place(Point::new(x, y)), 10).unwrap();
    }
    g
}

fn reviewed(g: &Game) -> Review {
    let mut engine = AnyEngine::new(Level::Gomoku(GomokuLevel::Master), 3);
    let moves = g.main_line_moves();
    review(
        &mut engine,
        g.start_position(),
        &moves,
        &Limits::depth(2),
        &CancelFlag::new(),
        &mut |_, _| {},
    )
    .unwrap()
}

#[test]
fn a_saved_review_reads_back_and_a_save_without_one_still_opens() {
    let g = game();
    let r = reviewed(&g);
    assert_eq!(r.plies.len(), 5);
    let text = g.to_json_with_review(Some(&r));
    let back = Game::from_json(&text).unwrap();
    assert_eq!(back.stored_review(&text), Some(Ok(r)));
    let plain = g.to_json();
    assert!(!plain.contains("\"review\""));
    assert_eq!(Game::from_json(&plain).unwrap().stored_review(&plain), None);
}

#[test]
fn a_tampered_review_is_dropped_and_the_game_still_opens() {
    let g = game();
    let r = reviewed(&g);
    let mut json: serde_json::Value =
        serde_json::from_str(&g.to_json_with_review(Some(&r))).unwrap();
    // One ply more than the game has.
    let plies = json["review"]["plies"].as_array_mut().unwrap();
    let extra = plies[0].clone();
    plies.push(extra);
    let longer = json.to_string();
    let opened = Game::from_json(&longer).unwrap();
    assert!(matches!(
        opened.stored_review(&longer),
        Some(Err(ReviewError::Mismatch { ply: 6, .. }))
    ));
    // Another move than the one played.
    plies_of(&mut json).truncate(5);
    json["review"]["plies"][2]["played"] = serde_json::json!({"kind": "place", "x": 0, "y": 0});
    let moved = json.to_string();
    assert!(matches!(
        Game::from_json(&moved).unwrap().stored_review(&moved),
        Some(Err(ReviewError::Mismatch { ply: 3, .. }))
    ));
    // A stored verdict is not believed: recomputed from the values.
    let mut json: serde_json::Value =
        serde_json::from_str(&g.to_json_with_review(Some(&r))).unwrap();
    json["review"]["plies"][0]["before"] = serde_json::json!({"kind": "chance", "permille": 900});
    json["review"]["plies"][0]["after"] = serde_json::json!({"kind": "chance", "permille": 100});
    json["review"]["plies"][0]["best"] = serde_json::json!({"kind": "place", "x": 1, "y": 1});
    json["review"]["plies"][0]["verdict"] = serde_json::json!("good");
    let lied = json.to_string();
    let fitted = Game::from_json(&lied).unwrap().stored_review(&lied).unwrap().unwrap();
    assert_eq!(fitted.plies[0].verdict, Verdict::Blunder);
    // Not a review at all.
    json["review"] = serde_json::json!(5);
    let junk = json.to_string();
    assert!(matches!(
        Game::from_json(&junk).unwrap().stored_review(&junk),
        Some(Err(ReviewError::Malformed(_)))
    ));
}

fn plies_of(json: &mut serde_json::Value) -> &mut Vec<serde_json::Value> {
    json["review"]["plies"].as_array_mut().unwrap()
}

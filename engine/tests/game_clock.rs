//! Games with a clock: the loss on time, and the clock's state through a save.

mod common;

use common::{at, gomoku, reversi};
use tengen_engine::game::{EndReason, Game, GameConfig, SaveError, TimeControl};
use tengen_engine::gomoku::Rule;
use tengen_engine::Color;

const FISCHER: TimeControl = TimeControl::Fischer { base_ms: 60_000, increment_ms: 1000 };

fn timed(config: GameConfig, time_control: TimeControl) -> GameConfig {
    GameConfig { time_control, ..config }
}

#[test]
fn a_timed_game_keeps_its_clock_through_a_save() {
    let mut game = Game::new(timed(gomoku(Rule::Freestyle), FISCHER)).unwrap();
    for (mv, ms) in [("h8", 4000), ("i9", 12_500), ("h9", 800), ("h10", 30_000)] {
        game.play(at(mv), ms).unwrap();
    }
    game.set_turn_ms(2500);
    let clock = game.clock();
    let now = std::time::Instant::now();
    // Black: 60 - 4 + 1 - 0.8 + 1, less the 2.5 s spent on the move to play.
    assert_eq!(clock.left(Color::Black, now), Some(54_700));
    assert_eq!(clock.left(Color::White, now), Some(60_000 - 12_500 + 1000 - 30_000 + 1000));
    let text = game.to_json();
    assert!(text.contains("\"turnMs\": 2500"), "{text}");
    let back = Game::from_json(&text).unwrap();
    assert_eq!(back.config().time_control, FISCHER);
    assert_eq!(back.turn_ms(), 2500);
    let times: Vec<u64> = back.history().iter().map(|r| r.ms).collect();
    assert_eq!(times, vec![4000, 12_500, 800, 30_000]);
    assert_eq!(back.clock(), clock);
    // Stepping back gives the times of that position; the turn starts afresh.
    let mut back = back;
    back.back();
    assert_eq!(back.turn_ms(), 0);
    assert_eq!(back.clock().left(Color::White, now), Some(60_000 - 12_500 + 1000));
}

#[test]
fn a_loss_on_time_is_saved_and_checked() {
    let mut game =
        Game::new(timed(reversi(), TimeControl::SuddenDeath { base_ms: 60_000 })).unwrap();
    game.play(tengen_engine::Move::Place(tengen_engine::Point::new(5, 4)), 1000).unwrap();
    game.lose_on_time().unwrap();
    let result = game.result().unwrap().clone();
    assert_eq!((result.reason, result.winner), (EndReason::Time, Some(Color::Black)));
    assert!(game.lose_on_time().is_err(), "the game is over");
    let text = game.to_json();
    assert_eq!(Game::from_json(&text).unwrap().result(), Some(&result));
    // The loser must be the side to move, and the game must have a clock.
    let forged = text.replace("\"winner\": \"black\"", "\"winner\": \"white\"");
    assert!(matches!(Game::from_json(&forged), Err(SaveError::BadResult(_))), "{forged}");
    let untimed =
        text.replace("\"type\": \"sudden_death\",\n      \"baseMs\": 60000", "\"type\": \"none\"");
    assert_ne!(untimed, text);
    assert!(matches!(Game::from_json(&untimed), Err(SaveError::BadResult(_))));
}

#[test]
fn saves_are_bounded_and_saves_from_before_clocks_open() {
    let game = Game::new(gomoku(Rule::Renju)).unwrap();
    let text = game.to_json();
    assert!(!text.contains("turnMs"), "no clock state to save");
    let old = text.replace(",\n    \"timeControl\": {\n      \"type\": \"none\"\n    }", "");
    assert!(!old.contains("timeControl"), "{old}");
    assert_eq!(Game::from_json(&old).unwrap().config().time_control, TimeControl::None);
    let late = text.replace("\"current\": 0", "\"current\": 0, \"turnMs\": 99999999999999");
    assert!(matches!(Game::from_json(&late), Err(SaveError::BadTime { .. })), "{late}");
    let bad = text
        .replace("{\n      \"type\": \"none\"\n    }", "{\"type\": \"per_move\", \"moveMs\": 1}");
    assert!(Game::from_json(&bad).is_err(), "a time control out of bounds is refused");
}

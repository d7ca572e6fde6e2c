//! The game session: configuration checks, play, undo/redo (with Reversi's automatic passes),
//! results, resignation, and the save formats.

use tengen_engine::ai::{GomokuLevel, Level, ReversiLevel};
use tengen_engine::game::{
    EndReason, ForfeitReason, Game, GameConfig, GameError, GameKind, PlayerKind, SaveError,
    SAVE_VERSION,
};
use tengen_engine::gomoku::{notation, ForbiddenKind, Rule};
use tengen_engine::rng::Rng;
use tengen_engine::{Color, Move, Point};

fn gomoku(rule: Rule, size: u8) -> GameConfig {
    GameConfig {
        kind: GameKind::Gomoku { rule, size },
        black: PlayerKind::Human,
        white: PlayerKind::Human,
        time_per_move_ms: 1000,
        time_control: Default::default(),
        opening: Default::default(),
    }
}

fn reversi() -> GameConfig {
    GameConfig { kind: GameKind::Reversi, ..gomoku(Rule::Freestyle, 15) }
}

fn at(s: &str) -> Move {
    Move::Place(notation::parse_point(s, 15).unwrap())
}

fn play_all(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play(at(m), 10).unwrap();
    }
}

#[test]
fn config_serde_matches_the_ipc_contract() {
    let config = GameConfig {
        kind: GameKind::Gomoku { rule: Rule::Renju, size: 15 },
        black: PlayerKind::Human,
        white: PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::Master) },
        time_per_move_ms: 1000,
        time_control: Default::default(),
        opening: Default::default(),
    };
    let json = serde_json::to_value(config).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "kind": {"game": "gomoku", "rule": "renju", "size": 15},
            "black": {"type": "human"},
            "white": {"type": "computer", "level": {"game": "gomoku", "level": "master"}},
            "timePerMoveMs": 1000,
            "timeControl": {"type": "none"}
        })
    );
    assert_eq!(serde_json::from_value::<GameConfig>(json).unwrap(), config);
    // An opening rule other than none is written.
    let swap2 = GameConfig { opening: tengen_engine::game::OpeningRule::Swap2, ..config };
    assert_eq!(serde_json::to_value(swap2).unwrap()["opening"], "swap2");
    let rev = serde_json::to_value(reversi().kind).unwrap();
    assert_eq!(rev, serde_json::json!({"game": "reversi"}));
}

#[test]
fn bad_configs_are_refused_with_reasons() {
    for size in [4, 27, 0] {
        let err = Game::new(gomoku(Rule::Freestyle, size)).unwrap_err();
        assert!(matches!(err, GameError::BadConfig(_)), "{size}: {err}");
    }
    let mut c = gomoku(Rule::Renju, 15);
    c.white = PlayerKind::Computer { level: Level::Reversi(ReversiLevel::Master) };
    let err = Game::new(c).unwrap_err();
    assert!(err.to_string().contains("does not play gomoku"), "{err}");
    let mut c = reversi();
    c.time_per_move_ms = 5;
    assert!(matches!(Game::new(c), Err(GameError::BadConfig(_))));
    for size in [5, 15, 19, 26] {
        assert!(Game::new(gomoku(Rule::Standard, size)).is_ok());
    }
}

#[test]
fn gomoku_five_ends_the_game_with_its_line() {
    let mut g = Game::new(gomoku(Rule::Freestyle, 15)).unwrap();
    play_all(&mut g, "h8 a1 i8 a2 j8 a3 k8 a4");
    assert!(g.result().is_none());
    assert_eq!(g.side_to_move(), Color::Black);
    g.play(at("l8"), 5).unwrap();
    let r = g.result().expect("five wins");
    assert_eq!(r.winner, Some(Color::Black));
    assert_eq!(r.reason, EndReason::Five);
    let mut line = r.line.clone();
    line.sort();
    let expect: Vec<Point> = ["h8", "i8", "j8", "k8", "l8"]
        .iter()
        .map(|s| notation::parse_point(s, 15).unwrap())
        .collect();
    assert_eq!(line, expect);
    assert_eq!(g.play(at("m8"), 1), Err(GameError::GameOver));
    // Undo reopens the game.
    g.undo().unwrap();
    assert!(g.result().is_none());
}

#[test]
fn illegal_moves_leave_the_game_untouched() {
    let mut g = Game::new(gomoku(Rule::Freestyle, 15)).unwrap();
    play_all(&mut g, "h8");
    assert!(matches!(g.play(at("h8"), 1), Err(GameError::Gomoku(_))));
    assert!(matches!(g.play(Move::Place(Point::new(15, 0)), 1), Err(GameError::Gomoku(_))));
    assert_eq!(g.play(Move::Pass, 1), Err(GameError::NoPassInGomoku));
    assert_eq!(g.history().len(), 1);
    let mut r = Game::new(reversi()).unwrap();
    assert!(matches!(r.play(Move::Place(Point::new(0, 0)), 1), Err(GameError::Reversi(_))));
    assert!(matches!(r.play(Move::Pass, 1), Err(GameError::Reversi(_))));
    assert!(r.history().is_empty());
}

#[test]
fn undo_and_redo_walk_the_history() {
    let mut g = Game::new(gomoku(Rule::Standard, 15)).unwrap();
    assert_eq!(g.undo(), Err(GameError::NothingToUndo));
    assert_eq!(g.redo(), Err(GameError::NothingToRedo));
    play_all(&mut g, "h8 h9 i9");
    let undone = g.undo().unwrap();
    assert_eq!(undone.len(), 1);
    assert_eq!(undone[0].mv, at("i9"));
    assert_eq!(undone[0].ms, 10);
    assert_eq!(g.position().stone(Point::new(8, 6)), None);
    g.undo().unwrap();
    assert_eq!(g.redo_len(), 2);
    let redone = g.redo().unwrap();
    assert_eq!(redone[0].mv, at("h9"));
    assert_eq!(g.history().len(), 2);
    // A new move drops what could have been redone.
    g.play(at("a1"), 3).unwrap();
    assert_eq!(g.redo_len(), 0);
    assert_eq!(g.redo(), Err(GameError::NothingToRedo));
}

/// Random Reversi games from a seed until one contains a forced pass.
fn reversi_game_with_a_pass() -> Game {
    let mut rng = Rng::new(7);
    for _ in 0..2000 {
        let mut g = Game::new(reversi()).unwrap();
        while g.result().is_none() {
            let moves = g.position().legal_points();
            let p = *rng.choose(&moves).expect("a legal move when the game is not over");
            let played = g.play(Move::Place(p), 1).unwrap();
            if played.len() == 2 && g.result().is_none() {
                return g;
            }
        }
    }
    panic!("no game with a pass in 2000 random games");
}

#[test]
fn reversi_passes_are_automatic_and_undone_with_their_move() {
    let mut g = reversi_game_with_a_pass();
    let n = g.history().len();
    let last = g.history()[n - 1];
    let before = g.history()[n - 2];
    assert_eq!(last.mv, Move::Pass);
    assert_eq!(last.color, before.color.opponent());
    // The side that made the move which forced the pass moves again.
    assert_eq!(g.side_to_move(), before.color);
    let undone = g.undo().unwrap();
    assert_eq!(undone.len(), 2);
    assert_eq!(undone[0].mv, Move::Pass);
    assert_eq!(undone[1].mv, before.mv);
    assert_eq!(g.history().len(), n - 2);
    assert_eq!(g.side_to_move(), before.color);
    let redone = g.redo().unwrap();
    assert_eq!(redone.len(), 2);
    assert_eq!(g.history().len(), n);
    assert_eq!(g.redo_len(), 0);
}

#[test]
fn reversi_game_ends_by_disc_count() {
    let mut rng = Rng::new(11);
    let mut g = Game::new(reversi()).unwrap();
    while g.result().is_none() {
        let moves = g.position().legal_points();
        g.play(Move::Place(*rng.choose(&moves).unwrap()), 1).unwrap();
    }
    let r = g.result().unwrap();
    assert_eq!(r.reason, EndReason::NoMoves);
    let (b, w) = r.discs.unwrap();
    let expected = match b.cmp(&w) {
        std::cmp::Ordering::Greater => Some(Color::Black),
        std::cmp::Ordering::Less => Some(Color::White),
        std::cmp::Ordering::Equal => None,
    };
    assert_eq!(r.winner, expected);
    assert!(g.position().legal_points().is_empty());
}

#[test]
fn resignation_ends_and_undo_takes_it_back() {
    let mut g = Game::new(reversi()).unwrap();
    g.resign(Color::Black).unwrap();
    let r = g.result().unwrap();
    assert_eq!((r.winner, r.reason), (Some(Color::White), EndReason::Resignation));
    assert_eq!(g.resign(Color::White), Err(GameError::GameOver));
    assert!(g.undo().unwrap().is_empty());
    assert!(g.result().is_none());
}

#[test]
fn json_round_trips_moves_times_redo_and_resignation() {
    let mut g = reversi_game_with_a_pass();
    g.undo().unwrap();
    g.resign(g.side_to_move()).unwrap();
    let text = g.to_json();
    assert!(text.contains("\"format\": \"tengen\""));
    let back = Game::from_json(&text).unwrap();
    assert_eq!(back.history(), g.history());
    assert_eq!(back.redo_len(), g.redo_len());
    assert_eq!(back.result(), g.result());
    assert_eq!(back.config(), g.config());

    let mut k = Game::new(gomoku(Rule::Renju, 15)).unwrap();
    play_all(&mut k, "h8 h9 j8 j9");
    let back = Game::from_json(&k.to_json()).unwrap();
    assert_eq!(back.history(), k.history());
    assert_eq!(back.to_json(), k.to_json());
}

#[test]
fn bad_save_files_give_typed_errors() {
    assert!(matches!(Game::from_json("{"), Err(SaveError::Json(_))));
    assert!(matches!(Game::from_json("[]"), Err(SaveError::Json(_))));
    let g = Game::new(gomoku(Rule::Freestyle, 15)).unwrap();
    let newer = g.to_json().replace(
        &format!("\"version\": {SAVE_VERSION}"),
        &format!("\"version\": {}", SAVE_VERSION + 1),
    );
    assert_eq!(Game::from_json(&newer).unwrap_err(), SaveError::NewerVersion(SAVE_VERSION + 1));
    let other = g.to_json().replace("\"tengen\"", "\"chess\"");
    assert!(matches!(Game::from_json(&other), Err(SaveError::Json(_))));
    // The same point twice: the second is refused and named.
    let mut k = Game::new(gomoku(Rule::Freestyle, 15)).unwrap();
    play_all(&mut k, "h8 h9");
    let dup = k.to_json().replacen("\"y\": 6", "\"y\": 7", 1);
    match Game::from_json(&dup) {
        Err(SaveError::BadMove { index, .. }) => assert_eq!(index, 2),
        other => panic!("expected a bad move, got {other:?}"),
    }
    let bad_size = g.to_json().replace("\"size\": 15", "\"size\": 40");
    assert!(matches!(Game::from_json(&bad_size), Err(SaveError::Config(_))));
    assert_eq!(
        Game::open("hello world", &gomoku(Rule::Freestyle, 15)).unwrap_err(),
        SaveError::UnknownFormat
    );
}

#[test]
fn records_round_trip_and_are_detected() {
    let template = gomoku(Rule::Standard, 15);
    let mut k = Game::new(template).unwrap();
    play_all(&mut k, "h8 h9 j8 j9 k10");
    let psq = k.to_record();
    assert!(psq.starts_with("Piskvorky 15x15"));
    let back = Game::open(&psq, &template).unwrap();
    assert_eq!(back.history(), k.history());
    assert_eq!(back.config().kind, template.kind);

    let mut rng = Rng::new(3);
    let mut r = Game::new(reversi()).unwrap();
    for _ in 0..20 {
        let moves = r.position().legal_points();
        r.play(Move::Place(*rng.choose(&moves).unwrap()), 0).unwrap();
    }
    let transcript = r.to_record();
    let back = Game::open(&transcript, &template).unwrap();
    assert_eq!(back.config().kind, GameKind::Reversi);
    // A record from another game gets human players.
    assert_eq!(back.config().black, PlayerKind::Human);
    assert_eq!(back.history(), r.history());
    assert!(Game::open("f5d6c3d3c4f4f6f5", &template).is_err(), "f5 twice is refused");

    let listed = Game::open("h8 i9 j10", &template).unwrap();
    assert_eq!(listed.history().len(), 3);
}

#[test]
fn a_forbidden_move_in_a_record_loses_for_black() {
    // Black i8 j8 (a row) and h9 h10 (a column), white far away: h8 would make two open
    // threes at once, a double three.
    let template = gomoku(Rule::Renju, 15);
    let moves = "i8 a1 j8 a3 h9 a5 h10 a7";
    let pre = Game::open(moves, &template).unwrap();
    let h8 = notation::parse_point("h8", 15).unwrap();
    let tengen_engine::game::Position::Gomoku(pos) = pre.position() else { panic!() };
    assert_eq!(pos.is_forbidden(h8), Some(ForbiddenKind::DoubleThree));
    let g = Game::open(&format!("{moves} h8"), &template).unwrap();
    let r = g.result().expect("the forbidden move ends the game");
    assert_eq!(r.reason, EndReason::Forbidden);
    assert_eq!(r.winner, Some(Color::White));
    assert_eq!(r.forbidden, Some(ForbiddenKind::DoubleThree));
    assert_eq!(r.line, vec![h8]);
    // In play, the same move is simply refused.
    let mut live = Game::open(moves, &template).unwrap();
    assert!(matches!(live.play(Move::Place(h8), 1), Err(GameError::Gomoku(_))));
}

#[test]
fn in_a_match_a_forbidden_move_loses_for_black_and_other_moves_are_refused() {
    let moves = "i8 a1 j8 a3 h9 a5 h10 a7";
    let mut live = Game::new(gomoku(Rule::Renju, 15)).unwrap();
    play_all(&mut live, moves);
    // An occupied point is refused as in play, and the mover loses by forfeit; so does a
    // program that fails. Both results survive a save.
    let mut illegal = live.clone();
    assert!(matches!(illegal.play_or_forfeit(Ok(at("a1")), 1), Err(GameError::Gomoku(_))));
    let r = illegal.result().expect("the illegal move ends the game").clone();
    assert_eq!(r.winner, Some(Color::White));
    assert_eq!(r.reason, EndReason::Forfeit(ForfeitReason::IllegalMove));
    assert_eq!(illegal.history().len(), 8);
    let mut timed_out = live.clone();
    assert!(timed_out.play_or_forfeit(Err(ForfeitReason::Timeout), 1).unwrap().is_empty());
    assert_eq!(timed_out.result().unwrap().reason, EndReason::Forfeit(ForfeitReason::Timeout));
    for game in [&illegal, &timed_out] {
        assert_eq!(Game::from_json(&game.to_json()).unwrap().result(), game.result());
    }
    assert!(!live.is_over());
    // Under Freestyle the same point is an ordinary move.
    let mut free = Game::new(gomoku(Rule::Freestyle, 15)).unwrap();
    play_all(&mut free, moves);
    assert_eq!(free.play_or_forfeit(Ok(at("h8")), 1).unwrap().len(), 1);
    assert!(!free.is_over());
    // Under Renju it ends the game: black loses, the stone is not placed, the record ends
    // with it, and the result is the one a record with that last move gives.
    assert!(live.play_or_forfeit(Ok(at("h8")), 1).unwrap().is_empty());
    let r = live.result().expect("the forbidden move ends the game").clone();
    assert_eq!((r.winner, r.reason), (Some(Color::White), EndReason::Forbidden));
    assert_eq!(r.forbidden, Some(ForbiddenKind::DoubleThree));
    assert_eq!(live.history().len(), 8);
    let from_record = Game::open(&format!("{moves} h8"), &gomoku(Rule::Renju, 15)).unwrap();
    assert_eq!(from_record.result(), Some(&r));
    assert_eq!(Game::open(&live.to_record(), &gomoku(Rule::Renju, 15)).unwrap().result(), Some(&r));
    assert!(matches!(live.play_or_forfeit(Ok(at("b1")), 1), Err(GameError::GameOver)));
}

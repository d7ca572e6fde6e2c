//! Opening rules through the game session: who acts, the colours after the choices, the
//! record round trip, and the computer in each role.

use std::time::Duration;

use tengen_engine::ai::{GomokuLevel, Level};
use tengen_engine::game::opening::computer::{self, Judge};
use tengen_engine::game::opening::{Action, Choice, Role};
use tengen_engine::game::{
    Game, GameConfig, GameError, GameKind, OpeningRule, PlayerKind, RenjuOpening, SaveError,
};
use tengen_engine::gomoku::{notation, Rule};
use tengen_engine::{Color, Move};

const MASTER: PlayerKind = PlayerKind::Computer { level: Level::Gomoku(GomokuLevel::Master) };

fn config(rule: Rule, opening: OpeningRule) -> GameConfig {
    GameConfig {
        kind: GameKind::Gomoku { rule, size: 15 },
        black: PlayerKind::Human,
        white: MASTER,
        time_per_move_ms: 1000,
        time_control: Default::default(),
        opening,
    }
}

fn at(s: &str) -> Move {
    Move::Place(notation::parse_point(s, 15).unwrap())
}

fn role(game: &Game) -> Option<Role> {
    game.opening_phase().step.map(|s| s.role)
}

#[test]
fn swap2_maps_the_players_to_the_colours_they_choose() {
    let mut game = Game::new(config(Rule::Freestyle, OpeningRule::Swap2)).unwrap();
    for s in ["h8", "h9", "j10"] {
        assert_eq!((role(&game), game.acting_player()), (Some(Role::First), PlayerKind::Human));
        game.play(at(s), 10).unwrap();
    }
    assert_eq!((role(&game), game.acting_player()), (Some(Role::Second), MASTER));
    assert!(matches!(game.play(at("a1"), 0), Err(GameError::Opening(_))));
    game.opening_choice(Choice::PlaceTwo, 0).unwrap();
    game.play(at("g7"), 0).unwrap();
    game.play(at("k11"), 0).unwrap();
    assert_eq!((role(&game), game.acting_player()), (Some(Role::First), PlayerKind::Human));
    // The first player (the settings' black, a human) takes white: the computer is black.
    game.opening_choice(Choice::Take { color: Color::White }, 0).unwrap();
    assert_eq!(role(&game), None);
    assert_eq!(game.side_to_move(), Color::White);
    assert_eq!((game.player(Color::White), game.player(Color::Black)), (PlayerKind::Human, MASTER));
    assert_eq!(game.acting_player(), PlayerKind::Human);
    game.play(at("a1"), 0).unwrap();
    assert_eq!(game.acting_player(), MASTER);

    // Undo back into the opening: the choice is asked again only before its stones.
    game.undo().unwrap();
    assert_eq!(game.player(Color::White), PlayerKind::Human);
    game.undo().unwrap();
    assert_eq!(role(&game), Some(Role::Second), "the fifth stone's step again");
    assert_eq!(game.player(Color::White), MASTER, "before the choice, the settings' colours");
}

#[test]
fn the_opening_and_its_choices_survive_a_save_and_are_rechecked() {
    let mut game = Game::new(config(Rule::Renju, OpeningRule::Soosorv8)).unwrap();
    assert!(matches!(game.play(at("a1"), 0), Err(GameError::Opening(_))), "off the centre");
    for s in ["h8", "i9", "i7"] {
        game.play(at(s), 0).unwrap();
    }
    assert_eq!(game.opening_name(), Some(RenjuOpening::Hogetsu));
    game.opening_choice(Choice::Take { color: Color::Black }, 0).unwrap();
    game.play(at("g9"), 0).unwrap(); // the first player, now white, places the 4th
    game.opening_choice(Choice::Declare { count: 2 }, 0).unwrap();
    game.opening_choice(Choice::Take { color: Color::Black }, 0).unwrap(); // the second keeps
    game.opening_choice(Choice::Offer { point: at("j8").point().unwrap() }, 0).unwrap();
    game.opening_choice(Choice::Offer { point: at("g6").point().unwrap() }, 0).unwrap();
    assert_eq!(
        game.opening_phase().step.map(|s| (s.role, s.action)),
        Some((Role::First, Action::Pick))
    );
    let added = game.opening_choice(Choice::Pick { point: at("g6").point().unwrap() }, 40).unwrap();
    assert_eq!(added.len(), 1);
    assert_eq!(game.opening_phase().step, None);
    assert_eq!(game.player(Color::White), PlayerKind::Human);

    let json = game.to_json();
    let back = Game::from_json(&json).unwrap();
    assert_eq!(back.opening(), game.opening());
    assert_eq!(back.config(), game.config());
    assert_eq!(back.player(Color::White), PlayerKind::Human);
    assert_eq!(back.history(), game.history());

    // A file that claims an offer was picked that was never offered is refused.
    let tampered =
        json.replacen("\"kind\": \"offer\"", "\"kind\": \"declare\", \"count\": 9, \"x\"", 1);
    assert!(Game::from_json(&tampered).is_err());
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["opening"][5]["point"] = serde_json::json!({"x": 0, "y": 0});
    let err = Game::from_json(&value.to_string()).unwrap_err();
    assert!(matches!(err, SaveError::Opening(_)), "{err}");
    // An old save (no opening anywhere) opens with no rule.
    value["config"].as_object_mut().unwrap().remove("opening");
    value.as_object_mut().unwrap().remove("opening");
    let old = Game::from_json(&value.to_string()).unwrap();
    assert_eq!(old.config().opening, OpeningRule::None);
    assert_eq!(old.opening_phase().step, None);
}

#[test]
fn any_gomoku_game_names_its_opening() {
    for rule in Rule::ALL {
        let mut game = Game::new(config(rule, OpeningRule::None)).unwrap();
        for s in ["h8", "g9", "g10"] {
            assert_eq!(game.opening_name(), None);
            game.play(at(s), 0).unwrap();
        }
        // Mirrored across the h file: h8 i9 i10; across the diagonal through h8 and i9,
        // i10 becomes j9: 2I, Kyogetsu.
        assert_eq!(game.opening_name(), Some(RenjuOpening::Kyogetsu), "{rule:?}");
    }
}

#[test]
fn the_computer_plays_every_role_of_swap2_and_soosorv_legally() {
    for (rule, opening) in
        [(Rule::Freestyle, OpeningRule::Swap2), (Rule::Renju, OpeningRule::Soosorv8)]
    {
        let mut game = Game::new(GameConfig { black: MASTER, ..config(rule, opening) }).unwrap();
        let mut judge = Judge::new(7, Duration::from_millis(80));
        let mut rounds = 0;
        while game.opening_phase().step.is_some() {
            rounds += 1;
            assert!(rounds < 20, "the opening ends");
            let acts = computer::computer_acts(&game, &mut judge).unwrap();
            assert!(!acts.is_empty());
            for act in acts {
                computer::apply(&mut game, act, 0).unwrap();
            }
        }
        let stones = game.history().len();
        assert!((3..=5).contains(&stones), "{opening:?}: {stones} stones");
        if opening == OpeningRule::Soosorv8 {
            assert_eq!(stones, 5);
            assert!(game.opening_name().is_some(), "a canonical opening");
        }
    }
}

#[test]
fn the_openings_stones_get_no_increment_when_the_times_are_replayed() {
    use tengen_engine::game::TimeControl;
    let fischer = TimeControl::Fischer { base_ms: 60_000, increment_ms: 5000 };
    let timed = GameConfig { time_control: fischer, ..config(Rule::Freestyle, OpeningRule::Swap) };
    let mut game = Game::new(timed).unwrap();
    // The opening's stones, off the clock (a recorded time changes nothing either).
    for s in ["h8", "h9", "j10"] {
        game.play(at(s), 700).unwrap();
    }
    game.opening_choice(Choice::Take { color: Color::Black }, 0).unwrap();
    let clock = game.clock();
    for color in Color::BOTH {
        assert_eq!(clock.left(color, std::time::Instant::now()), Some(60_000), "{color}");
    }
    // The first moves on the clock: charged, with the increment.
    game.play(at("a1"), 2000).unwrap();
    game.play(at("a2"), 1000).unwrap();
    let clock = game.clock();
    let now = std::time::Instant::now();
    assert_eq!(clock.left(Color::White, now), Some(60_000 - 2000 + 5000));
    assert_eq!(clock.left(Color::Black, now), Some(60_000 - 1000 + 5000));
    // The same through a save.
    let reopened = Game::from_json(&game.to_json()).unwrap();
    assert_eq!(reopened.clock().left(Color::White, now), Some(63_000));
}

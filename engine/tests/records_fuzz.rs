//! Fuzzing every loader and parser of user files: JSON saves (mutated as text and as
//! values), PSQ records, Gomoku move lists, Reversi transcripts, board strings and board
//! notation. Nothing may panic, and every game that loads must round-trip: saving it and
//! opening the result gives the same game.
//!
//! Each target runs `PROPTEST_CASES` cases (the default below when unset), so a bigger
//! run by hand is `PROPTEST_CASES=20000 cargo test -p tengen-engine --test records_fuzz`.

use proptest::prelude::*;
use serde_json::Value;
use tengen_engine::game::{EndReason, Game, GameConfig, GameKind, PlayerKind};
use tengen_engine::gomoku::{notation, psq, Rule, MAX_SIZE, MIN_SIZE};
use tengen_engine::reversi;
use tengen_engine::rng::Rng;
use tengen_engine::{Color, Move, Point};

/// Cases per target: `PROPTEST_CASES`, else `default`.
fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok());
    ProptestConfig { cases: cases.unwrap_or(default), ..ProptestConfig::default() }
}

fn people(kind: GameKind) -> GameConfig {
    GameConfig::new(kind, PlayerKind::Human, PlayerKind::Human)
}

fn kind_of(seed: u64) -> GameKind {
    let mut rng = Rng::new(seed);
    if rng.below(4) == 0 {
        return GameKind::Reversi;
    }
    let rule = Rule::ALL[rng.below(3) as usize];
    // Small boards fill up, 26x26 is the largest; the usual 15 most often.
    let size = match rng.below(4) {
        0 => MIN_SIZE + rng.below((MAX_SIZE - MIN_SIZE + 1) as u64) as u8,
        1 => MAX_SIZE,
        _ => 15,
    };
    GameKind::Gomoku { rule, size }
}

/// A game of up to `len` random legal moves (near the first stones in Gomoku, so that
/// fives, forbidden points and full small boards happen), with some undone moves left
/// to redo and sometimes a resignation.
fn random_game(seed: u64, len: usize) -> Game {
    let mut rng = Rng::new(seed ^ 0x9e37_79b9);
    let mut game = Game::new(people(kind_of(seed))).unwrap();
    for _ in 0..len {
        if game.is_over() {
            break;
        }
        let candidates: Vec<Point> = match game.config().kind {
            GameKind::Reversi => game.position().legal_points(),
            GameKind::Gomoku { size, .. } => {
                let c = size / 2;
                let r = 3.min(c);
                (c - r..=c + r)
                    .flat_map(|y| (c - r..=c + r).map(move |x| Point::new(x, y)))
                    .filter(|p| p.on_board(size) && game.position().stone(*p).is_none())
                    .collect()
            }
        };
        let Some(&p) = rng.choose(&candidates) else { break };
        // A forbidden or otherwise refused point is simply not played.
        let _ = game.play(Move::Place(p), rng.below(5000));
    }
    for _ in 0..rng.below(3) {
        let _ = game.undo();
    }
    if rng.below(4) == 0 {
        let _ = game.resign(if rng.below(2) == 0 { Color::Black } else { Color::White });
    }
    game
}

/// Whether two games are the same game: settings, moves with colours and times, redo
/// list and result. The redo list is compared through the JSON it is saved as.
fn assert_same(a: &Game, b: &Game) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.config(), b.config());
    prop_assert_eq!(a.history(), b.history());
    prop_assert_eq!(a.redo_len(), b.redo_len());
    prop_assert_eq!(a.result(), b.result());
    prop_assert_eq!(a.to_json(), b.to_json());
    Ok(())
}

/// A loaded game must save and reopen as itself, as JSON and as a record.
fn round_trips(game: &Game) -> Result<(), TestCaseError> {
    let back = Game::from_json(&game.to_json());
    prop_assert!(back.is_ok(), "its own save is refused: {:?}\n{}", back, game.to_json());
    assert_same(game, &back.unwrap())?;
    // Records keep the main line's moves (and for PSQ the times and rule) but no players,
    // variations or resignation: they match the game stepped to the main line's end.
    let record = game.to_record();
    let mut game_end = game.clone();
    if let Some(&last) = game.tree().main_line().last() {
        prop_assert!(game_end.goto(last).is_ok());
    }
    let game = &game_end;
    let opened = Game::open(&record, game.config());
    prop_assert!(opened.is_ok(), "its own record is refused: {:?}\n{}", opened, record);
    let opened = opened.unwrap();
    prop_assert_eq!(opened.config().kind, game.config().kind);
    let placed = |g: &Game| -> Vec<(Point, u64)> {
        g.history().iter().filter_map(|r| r.mv.point().map(|p| (p, r.ms))).collect()
    };
    match game.config().kind {
        GameKind::Gomoku { .. } => prop_assert_eq!(placed(&opened), placed(game)),
        GameKind::Reversi => {
            let points = |g: &Game| placed(g).into_iter().map(|(p, _)| p).collect::<Vec<_>>();
            prop_assert_eq!(points(&opened), points(game));
        }
    }
    if game.result().map(|r| r.reason) != Some(EndReason::Resignation) {
        prop_assert_eq!(opened.result(), game.result());
    }
    Ok(())
}

/// Opens `text` every way a user can: as a save, and as any file under each template.
/// Whatever loads must round-trip.
fn open_any(text: &str) -> Result<(), TestCaseError> {
    if let Ok(game) = Game::from_json(text) {
        round_trips(&game)?;
    }
    for kind in [
        GameKind::Reversi,
        GameKind::Gomoku { rule: Rule::Renju, size: 15 },
        GameKind::Gomoku { rule: Rule::Freestyle, size: MAX_SIZE },
    ] {
        match Game::open(text, &people(kind)) {
            Ok(game) => round_trips(&game)?,
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
    Ok(())
}

/// One text mutation: overwrite, insert or delete at a byte offset (kept on a char
/// boundary), with bytes that matter to the formats.
fn mutate(text: &str, ops: &[(u16, u8, u8)]) -> String {
    const ALPHABET: &[u8] = b"0123456789-,:. \n{}[]\"xyXO-abcdefghz";
    let mut s = text.to_string();
    for &(at, what, byte) in ops {
        if s.is_empty() {
            break;
        }
        let mut i = at as usize % s.len();
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        let c = ALPHABET[byte as usize % ALPHABET.len()] as char;
        match what % 3 {
            0 => {
                let end = (i + 1..=s.len()).find(|&j| s.is_char_boundary(j)).unwrap_or(s.len());
                s.replace_range(i..end, &c.to_string());
            }
            1 => s.insert(i, c),
            _ => {
                let end = (i + 1..=s.len()).find(|&j| s.is_char_boundary(j)).unwrap_or(s.len());
                s.replace_range(i..end, "");
            }
        }
    }
    s
}

/// Walks a JSON value and changes the `pick`-th number, string or null it meets.
fn tweak(value: &mut Value, pick: &mut usize, with: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter_mut().any(|v| tweak(v, pick, with)),
        Value::Object(map) => map.values_mut().any(|v| tweak(v, pick, with)),
        leaf => {
            if *pick == 0 {
                *leaf = with.clone();
                true
            } else {
                *pick -= 1;
                false
            }
        }
    }
}

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u64..30).prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        proptest::sample::select(vec![
            "black",
            "white",
            "pass",
            "place",
            "resignation",
            "forbidden",
            "five",
            "no_moves",
            "board_full",
            "renju",
            "standard",
            "freestyle",
            "gomoku",
            "reversi",
            "human",
            "double_three",
            "overline",
            "",
        ])
        .prop_map(Value::from),
    ]
}

proptest! {
    #![proptest_config(config(150))]

    #[test]
    fn random_games_round_trip(seed in any::<u64>(), len in 0usize..90) {
        round_trips(&random_game(seed, len))?;
    }

    #[test]
    fn mutated_saves_and_records_never_panic(
        seed in any::<u64>(),
        len in 0usize..60,
        ops in proptest::collection::vec((any::<u16>(), any::<u8>(), any::<u8>()), 0..6),
    ) {
        let game = random_game(seed, len);
        open_any(&mutate(&game.to_json(), &ops))?;
        open_any(&mutate(&game.to_record(), &ops))?;
    }

    #[test]
    fn saves_with_changed_values_never_panic(
        seed in any::<u64>(),
        len in 0usize..60,
        changes in proptest::collection::vec((any::<usize>(), json_leaf()), 1..4),
        ended in proptest::option::of((json_leaf(), json_leaf(), 0u8..30, 0u8..30)),
    ) {
        let game = random_game(seed, len);
        let mut value: Value = serde_json::from_str(&game.to_json()).unwrap();
        for (pick, with) in &changes {
            let leaves = count_leaves(&value);
            let mut pick = pick % leaves.max(1);
            tweak(&mut value, &mut pick, with);
        }
        if let Some((winner, reason, x, y)) = ended {
            value["ended"] = serde_json::json!({
                "winner": winner, "reason": reason, "line": [{"x": x, "y": y}],
                "discs": null, "forbidden": null,
            });
        }
        open_any(&value.to_string())?;
    }

    #[test]
    fn psq_text_never_panics(
        size in 0u32..40,
        lines in proptest::collection::vec("[0-9]{0,3},[0-9]{0,3}(,[0-9]{0,6})?|rule [a-z]{0,9}|homo-1|-1|", 0..40),
    ) {
        let text = format!("Piskvorky {size}x{size}, 11:11, 0\n{}", lines.join("\n"));
        if let Ok((record, _)) = psq::read_psq_with_rule(&text) {
            prop_assert!(record.moves.iter().all(|(p, _)| p.on_board(record.size)));
        }
        open_any(&text)?;
    }

    #[test]
    fn gomoku_move_lists_never_panic(
        size in MIN_SIZE..=MAX_SIZE,
        moves in proptest::collection::vec((0u8..30, 0u32..30), 0..80),
        noise in "\\PC{0,4}",
    ) {
        let text: Vec<String> = moves
            .iter()
            .map(|&(c, r)| format!("{}{r}", (b'a' + c.min(25)) as char))
            .collect();
        let text = format!("{}{noise}", text.join(" "));
        let _ = notation::parse_moves(&text, size);
        open_any(&text)?;
    }

    #[test]
    fn reversi_transcripts_never_panic(
        squares in proptest::collection::vec((0u8..10, 0u8..10), 0..70),
        noise in "\\PC{0,3}",
    ) {
        let text: String = squares
            .iter()
            .map(|&(c, r)| format!("{}{}", (b'a' + c) as char, r))
            .collect();
        let text = format!("{text}{noise}");
        if let Ok((moves, pos)) = reversi::notation::replay_transcript(&text) {
            prop_assert_eq!(reversi::notation::replay(&moves), Ok(pos));
            prop_assert_eq!(
                reversi::notation::parse_transcript(&reversi::notation::write_transcript(&moves)),
                Ok(moves)
            );
        }
        open_any(&text)?;
    }

    #[test]
    fn board_strings_never_panic(
        cells in proptest::collection::vec(proptest::sample::select(vec!['-', 'X', 'O', '.', 'x', 'o', '#']), 0..70),
        side in "[XOxo ]{0,3}",
    ) {
        let text: String = cells.iter().collect();
        let text = format!("{text} {side}");
        if let Ok(pos) = reversi::parse_board(&text) {
            let again = reversi::format_board(&pos);
            prop_assert_eq!(reversi::parse_board(&again), Ok(pos));
        }
    }

    #[test]
    fn reachable_boards_parse(seed in any::<u64>(), len in 0usize..70) {
        // Every position a game reaches is accepted and reads back as itself.
        let mut rng = Rng::new(seed);
        let mut game = Game::new(people(GameKind::Reversi)).unwrap();
        for _ in 0..len {
            let Some(&p) = rng.choose(&game.position().legal_points()) else { break };
            game.play(Move::Place(p), 0).unwrap();
        }
        let tengen_engine::game::Position::Reversi(pos) = game.position() else {
            unreachable!("a Reversi game")
        };
        let text = reversi::format_board(pos);
        prop_assert_eq!(reversi::parse_board(&text), Ok(*pos));
    }

    #[test]
    fn notation_never_panics(s in "\\PC{0,12}|[a-zA-Z][0-9]{1,25}|[a-z]{0,3}", size in 0u8..=30) {
        let size = size.clamp(MIN_SIZE, MAX_SIZE);
        if let Ok(p) = notation::parse_point(&s, size) {
            prop_assert!(p.on_board(size));
            prop_assert_eq!(notation::parse_point(&notation::format_point(p, size), size), Ok(p));
        }
        if let Ok(p) = reversi::parse_square(&s) {
            prop_assert_eq!(reversi::parse_square(&reversi::format_square(p)), Ok(p));
        }
        let _ = psq::read_psq_with_rule(&s);
    }
}

fn count_leaves(value: &Value) -> usize {
    match value {
        Value::Array(items) => items.iter().map(count_leaves).sum(),
        Value::Object(map) => map.values().map(count_leaves).sum(),
        _ => 1,
    }
}

#[test]
fn a_26x26_record_round_trips() {
    let kind = GameKind::Gomoku { rule: Rule::Freestyle, size: MAX_SIZE };
    let mut game = Game::new(people(kind)).unwrap();
    // The corners and the far column z, row 26.
    for s in ["a1", "z26", "z1", "a26", "m13", "y25"] {
        game.play(Move::Place(notation::parse_point(s, MAX_SIZE).unwrap()), 7).unwrap();
    }
    let record = game.to_record();
    assert!(record.starts_with("Piskvorky 26x26"), "{record}");
    assert!(record.contains("\n26,1,7\n"), "z26 is column 26, row 1 from the top: {record}");
    let back = Game::open(&record, &people(GameKind::Reversi)).unwrap();
    assert_eq!(back.history(), game.history());
    let listed = Game::open("a1 z26 z1 a26 m13 y25", &people(kind)).unwrap();
    assert_eq!(listed.history().len(), 6);
    assert!(Game::open("a1 z27", &people(kind)).is_err(), "row 27 is off the board");
}

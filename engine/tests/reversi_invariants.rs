//! Reversi rules invariants over random games (proptest), and record round trips.

use proptest::prelude::*;
use tengen_engine::reversi::bitboard::{self, bit};
use tengen_engine::reversi::{
    format_board, parse_board, parse_square, parse_transcript, replay, replay_transcript,
    write_transcript, NotationError, Position,
};
use tengen_engine::rng::Rng;
use tengen_engine::{Color, Point};

/// One random game from the start, placing at most `max_moves` discs. Returns the final
/// position and the moves placed, checking the rules' invariants at every step.
fn random_game(seed: u64, max_moves: usize) -> (Position, Vec<Point>) {
    let mut rng = Rng::new(seed);
    let mut pos = Position::initial();
    let mut moves = Vec::new();
    while moves.len() < max_moves {
        let over = pos.legal_moves() == 0 && pos.opponent_moves() == 0;
        assert_eq!(pos.is_game_over(), over, "game over iff neither side can move");
        assert_eq!(pos.outcome().is_some(), over);
        if over {
            break;
        }
        let legal = pos.legal_points();
        if legal.is_empty() {
            assert!(pos.must_pass(), "no legal move and not over means a forced pass");
            pos.pass().unwrap();
            continue;
        }
        assert!(!pos.must_pass());
        let before = pos;
        assert!(pos.pass().is_err(), "a pass only when forced");
        assert_eq!(pos, before);
        let p = *rng.choose(&legal).unwrap();
        let mover = pos.side_to_move();
        let flipped = pos.play(p).unwrap();
        assert!(flipped.count_ones() >= 1, "every move flips a disc");
        assert_eq!(pos.count(mover), before.count(mover) + 1 + flipped.count_ones());
        assert_eq!(
            pos.count(mover.opponent()),
            before.count(mover.opponent()) - flipped.count_ones()
        );
        assert_eq!(pos.stone(p), Some(mover));
        assert_eq!(pos.black() & pos.white(), 0);
        moves.push(p);
        let discs = pos.count(Color::Black) + pos.count(Color::White);
        assert_eq!(discs as usize, 4 + moves.len(), "discs = 4 + moves placed");
        assert_eq!(pos.empties() as usize, 60 - moves.len());
    }
    (pos, moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_keep_the_invariants(seed in any::<u64>()) {
        let (pos, moves) = random_game(seed, 60);
        if let Some(o) = pos.outcome() {
            prop_assert_eq!(o.black + o.white + pos.empties(), 64);
            let expected = match o.black.cmp(&o.white) {
                std::cmp::Ordering::Greater => Some(Color::Black),
                std::cmp::Ordering::Less => Some(Color::White),
                std::cmp::Ordering::Equal => None,
            };
            prop_assert_eq!(o.winner, expected);
        }
        prop_assert!(moves.len() <= 60);
    }

    #[test]
    fn transcripts_round_trip(seed in any::<u64>(), len in 0usize..60, upper in any::<bool>()) {
        let (pos, moves) = random_game(seed, len);
        let text = write_transcript(&moves);
        prop_assert_eq!(text.len(), 2 * moves.len());
        let text = if upper { text.to_uppercase() } else { text };
        prop_assert_eq!(parse_transcript(&text).unwrap(), moves.clone());
        // The replayed position is the game's, up to a pass forced after the last move.
        let (_, replayed) = replay_transcript(&text).unwrap();
        let expected = if pos.must_pass() { pos.after_pass() } else { pos };
        prop_assert_eq!(replayed, expected);
        prop_assert_eq!(replay(&moves).unwrap(), expected);
    }

    #[test]
    fn board_strings_round_trip(seed in any::<u64>(), len in 0usize..60) {
        let (pos, _) = random_game(seed, len);
        let s = format_board(&pos);
        prop_assert_eq!(s.len(), 66);
        prop_assert_eq!(parse_board(&s).unwrap(), pos);
    }

    #[test]
    fn any_bitboards_round_trip(black in any::<u64>(), white in any::<u64>(), white_moves in any::<bool>()) {
        let side = if white_moves { Color::White } else { Color::Black };
        match Position::from_bitboards(black, white, side) {
            Ok(pos) => {
                prop_assert_eq!(black & white, 0);
                prop_assert_eq!((pos.black(), pos.white()), (black, white));
                prop_assert_eq!(parse_board(&format_board(&pos)).unwrap(), pos);
                // Legal moves are exactly the empty squares that flip something.
                let mut legal = 0;
                for sq in 0..64u8 {
                    if pos.empty() & bit(sq) != 0 && pos.flips(sq) != 0 {
                        legal |= bit(sq);
                    }
                }
                prop_assert_eq!(pos.legal_moves(), legal);
                prop_assert_eq!(bitboard::squares(legal).count(), pos.legal_points().len());
            }
            Err(_) => prop_assert_ne!(black & white, 0),
        }
    }

    #[test]
    fn parsers_never_panic(s in any::<String>()) {
        let _ = parse_square(&s);
        let _ = parse_transcript(&s);
        let _ = parse_board(&s);
    }

    #[test]
    fn parsers_never_panic_on_near_misses(s in "[a-hA-H1-9xXoO .#-]{0,140}") {
        let _ = parse_square(&s);
        let _ = parse_transcript(&s);
        if let Ok(pos) = parse_board(&s) {
            prop_assert_eq!(pos.black() & pos.white(), 0);
        }
    }
}

#[test]
fn transcript_move_after_game_over_is_an_error() {
    // One of the shortest games: over after 9 moves (white is wiped out).
    let game = "d3c3b3d2e1d6d7e3f4";
    let (moves, pos) = replay_transcript(game).unwrap();
    assert_eq!(moves.len(), 9);
    assert!(pos.is_game_over());
    assert_eq!(pos.count(Color::White), 0);
    assert_eq!(pos.outcome().unwrap().winner, Some(Color::Black));
    let err = parse_transcript(&format!("{game}a1")).unwrap_err();
    assert!(matches!(err, NotationError::IllegalMove { index: 10, .. }), "{err:?}");
    assert!(err.to_string().contains("game is over"), "{err}");
    // Also when the extra move names an occupied square.
    let err = parse_transcript(&format!("{game}d4")).unwrap_err();
    assert_eq!(err.to_string(), "move 10 (d4) cannot be played: the game is over");
}

#[test]
fn forced_pass_is_implicit_in_transcripts() {
    // Find a random game that contains a forced pass, and check its transcript replays.
    let mut found = false;
    for seed in 0..2000 {
        let mut rng = Rng::new(seed);
        let mut pos = Position::initial();
        let mut moves = Vec::new();
        let mut passed = false;
        while !pos.is_game_over() {
            if pos.must_pass() {
                pos.pass().unwrap();
                passed = true;
                continue;
            }
            let p = *rng.choose(&pos.legal_points()).unwrap();
            pos.play(p).unwrap();
            moves.push(p);
        }
        if passed {
            let text = write_transcript(&moves);
            let (parsed, end) = replay_transcript(&text).unwrap();
            assert_eq!(parsed, moves);
            assert_eq!(end, pos);
            found = true;
            break;
        }
    }
    assert!(found, "no random game with a pass among 2000");
}

//! Board notation and PSQ records: round trips, known values and bad input.

use proptest::prelude::*;
use tengen_engine::gomoku::notation::{format_moves, format_point, parse_moves, parse_point};
use tengen_engine::gomoku::psq::{read_psq, write_psq};
use tengen_engine::gomoku::{NotationError, Position, PsqError, PsqRecord, Rule};
use tengen_engine::Point;

#[test]
fn notation_matches_renju_diagrams() {
    // a1 bottom-left, h8 the centre of 15x15, i is a column, rows from the bottom.
    assert_eq!(format_point(Point::new(0, 14), 15), "a1");
    assert_eq!(format_point(Point::new(14, 0), 15), "o15");
    assert_eq!(format_point(Point::new(9, 9), 19), "j10");
    assert_eq!(parse_point("K10", 19), Ok(Point::new(10, 9)));
    assert_eq!(format_moves(&parse_moves("h8,i9  J10", 15).unwrap(), 15), "h8 i9 j10");
}

#[test]
fn psq_matches_piskvork() {
    // Piskvork: x = column from the left, y = row from the top, both from 1.
    let text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,1,250\n15,15,3\n";
    let r = read_psq(text).unwrap();
    assert_eq!(r.size, 15);
    assert_eq!(
        r.moves,
        vec![(Point::new(7, 7), 0), (Point::new(0, 0), 250), (Point::new(14, 14), 3)]
    );
    let names: Vec<String> = r.moves.iter().map(|(p, _)| format_point(*p, 15)).collect();
    assert_eq!(names, ["h8", "a15", "o1"]);
    assert_eq!(write_psq(&r), text);
    // Without a time field, and with Windows line ends and a trailing tail.
    let r = read_psq("Piskvorky 19x19, 0:0, 1\r\n10,10\r\n11,11\r\nbrain.exe\r\n-1\r\n").unwrap();
    assert_eq!(r.moves, vec![(Point::new(9, 9), 0), (Point::new(10, 10), 0)]);
}

#[test]
fn psq_bad_input() {
    assert!(matches!(read_psq("hello\n8,8,0\n"), Err(PsqError::BadHeader { line: 1, .. })));
    assert!(matches!(
        read_psq("\nPiskvorky 15x15, 11:11, 0\n8,8\n8,8,1\n"),
        Err(PsqError::Duplicate { line: 4, .. })
    ));
    assert!(matches!(
        read_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\n99999999999999999999999,1,0\n"),
        Err(PsqError::OffBoard { line: 3, .. }) | Err(PsqError::BadMove { line: 3, .. })
    ));
    let e = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\n8;9;0\n").unwrap();
    assert_eq!(e.moves.len(), 1, "a line without a comma ends the moves");
    let msg = read_psq("Piskvorky 15x15\n1,2,x\n").unwrap_err().to_string();
    assert!(msg.starts_with("line 2"), "{msg}");
}

fn size_strategy() -> impl Strategy<Value = u8> {
    5u8..=26
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn point_round_trip(size in size_strategy(), x in 0u8..26, y in 0u8..26) {
        let p = Point::new(x % size, y % size);
        let s = format_point(p, size);
        prop_assert_eq!(parse_point(&s, size), Ok(p));
        prop_assert_eq!(parse_point(&s.to_uppercase(), size), Ok(p));
    }

    #[test]
    fn move_list_round_trip(size in size_strategy(), raw in proptest::collection::vec(any::<u16>(), 0..40)) {
        let n = size as usize * size as usize;
        let moves: Vec<Point> = raw.iter().map(|&r| Point::from_index(r as usize % n, size)).collect();
        let text = format_moves(&moves, size);
        prop_assert_eq!(parse_moves(&text, size), Ok(moves));
    }

    #[test]
    fn notation_parsers_never_panic(s in "\\PC*", size in size_strategy()) {
        let _ = parse_point(&s, size);
        if let Err(e) = parse_moves(&s, size) {
            let in_list = matches!(e, NotationError::InList { .. });
            prop_assert!(in_list, "{:?}", e);
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn notation_near_misses_never_panic(s in "[a-zA-Z0-9 ,\\-]{0,30}", size in size_strategy()) {
        if let Ok(moves) = parse_moves(&s, size) {
            prop_assert!(moves.iter().all(|p| p.on_board(size)));
        }
    }

    #[test]
    fn psq_round_trip(
        size in size_strategy(),
        choices in proptest::collection::vec((any::<u16>(), 0u64..100_000), 0..60),
    ) {
        // A real game (distinct points) with random times.
        let mut pos = Position::new(size, Rule::Freestyle).unwrap();
        let mut moves = Vec::new();
        for (c, ms) in choices {
            if pos.is_over() {
                break;
            }
            let empty = pos.empty_points();
            let p = empty[c as usize % empty.len()];
            pos.play(p).unwrap();
            moves.push((p, ms));
        }
        let record = PsqRecord { size, moves };
        let text = write_psq(&record);
        prop_assert_eq!(read_psq(&text), Ok(record.clone()));
        // Piskvork's trailer lines are ignored.
        let with_tail = format!("{text}pbrain-a.exe\npbrain-b.exe\n-1\n");
        prop_assert_eq!(read_psq(&with_tail), Ok(record));
    }

    #[test]
    fn psq_reader_never_panics(s in "\\PC*") {
        let _ = read_psq(&s);
        let _ = read_psq(&format!("Piskvorky 15x15, 11:11, 0\n{s}"));
    }

    #[test]
    fn psq_reader_near_misses(lines in proptest::collection::vec("[0-9,x ]{0,12}", 0..10)) {
        let text = format!("Piskvorky 9x9, 11:11, 0\n{}", lines.join("\n"));
        if let Ok(r) = read_psq(&text) {
            prop_assert_eq!(r.size, 9);
            prop_assert!(r.moves.iter().all(|(p, _)| p.on_board(9)));
        }
    }
}

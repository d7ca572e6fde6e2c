//! Drives `tengen brain` as a Gomocup manager would, through its stdin and stdout.

mod common;

use std::time::{Duration, Instant};

use common::Brain;

#[test]
fn plays_a_game_through_the_protocol() {
    let mut brain = Brain::start("pattern", 7);
    brain.send("INFO timeout_turn 1000");
    brain.send("INFO rule 0");
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    brain.send("ABOUT");
    let about = brain.answer();
    assert!(about.contains("name=\"Tengen\"") && about.contains("version=\"0.1.0\""), "{about}");

    let mut board = Vec::new();
    brain.send("BEGIN");
    let first = brain.answer_move(&mut board);
    assert_eq!(first, (7, 7), "the pattern level opens at the centre");
    for turn in [(6, 6), (8, 6), (6, 8)] {
        board.push(turn);
        brain.send(&format!("TURN {},{}", turn.0, turn.1));
        brain.answer_move(&mut board);
    }
    // Take back the brain's last move and the opponent's, then replay.
    let last = *board.last().unwrap();
    brain.send(&format!("TAKEBACK {},{}", last.0, last.1));
    assert_eq!(brain.answer(), "OK");
    board.pop();
    brain.send("TAKEBACK 6,8");
    assert_eq!(brain.answer(), "OK");
    board.pop();
    brain.send("TAKEBACK 9,9");
    assert!(brain.answer().starts_with("ERROR"));
    brain.send("TURN 6,8");
    board.push((6, 8));
    brain.answer_move(&mut board);

    brain.send("TURN 99,99");
    assert!(brain.answer().starts_with("ERROR"));
    brain.send("FOO");
    assert!(brain.answer().starts_with("UNKNOWN"));

    brain.send("END");
    let start = Instant::now();
    let status = brain.child.wait().unwrap();
    assert!(status.success());
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn board_command_sets_up_a_position_and_the_brain_blocks_a_four() {
    let mut brain = Brain::start("pattern", 7);
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    // The opponent (2) has four in a row on row 3; the brain (1) must block at 3,3 or 8,3.
    brain.send("BOARD");
    for line in ["4,3,2", "10,10,1", "5,3,2", "11,10,1", "6,3,2", "0,14,1", "7,3,2"] {
        brain.send(line);
    }
    brain.send("DONE");
    let mut board = vec![(4, 3), (5, 3), (6, 3), (7, 3), (10, 10), (11, 10), (0, 14)];
    let p = brain.answer_move(&mut board);
    assert!(p == (3, 3) || p == (8, 3), "{p:?}");
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}

#[test]
fn end_while_thinking_quits_promptly() {
    let mut brain = Brain::start("lookahead", 7);
    brain.send("INFO timeout_turn 30000");
    brain.send("START 19");
    assert_eq!(brain.answer(), "OK");
    brain.send("BOARD");
    for line in ["9,9,2", "10,10,1", "9,10,2", "10,9,1", "8,8,2", "11,11,1", "12,8,2"] {
        brain.send(line);
    }
    brain.send("DONE");
    brain.send("END");
    let start = Instant::now();
    let status = brain.child.wait().unwrap();
    assert!(status.success());
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
}

#[test]
fn renju_rule_is_accepted() {
    let mut brain = Brain::start("fivetuple", 7);
    brain.send("INFO rule 4");
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    brain.begins_and_ends();
}

#[test]
fn a_folder_in_another_code_page_is_accepted_and_the_brain_keeps_running() {
    let mut brain = Brain::start("pattern", 7);
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    // Piskvork sends the folder in the system code page: here Latin-1 "C:\\é".
    brain.send_bytes(b"INFO folder C:\\\xe9\n");
    brain.send("ABOUT");
    assert!(brain.answer().contains("name=\"Tengen\""));
    // Any other line that is not UTF-8 is answered with ERROR, and the brain goes on.
    brain.send_bytes(b"TURN 7,\xff7\n");
    let reply = brain.answer();
    assert!(reply.starts_with("ERROR") && reply.contains("UTF-8"), "{reply}");
    brain.send_bytes(b"\xfe\xfd\xfc\r\n");
    assert!(brain.answer().starts_with("ERROR"));
    brain.begins_and_ends();
}

#[test]
fn an_endless_line_is_refused_and_the_brain_keeps_running() {
    let mut brain = Brain::start("fivetuple", 7);
    let mut long = vec![b'A'; 200_000];
    long.push(b'\n');
    brain.send_bytes(&long);
    let reply = brain.answer();
    assert!(reply.starts_with("ERROR") && reply.contains("longer"), "{reply}");
    brain.send("ABOUT");
    assert!(brain.answer().contains("name=\"Tengen\""));
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}

/// Sets up a middle-game position (so Master really searches) and returns its stones.
fn middle_game(brain: &mut Brain) -> Vec<(u8, u8)> {
    let stones = [(7, 7, 2), (8, 8, 1), (7, 8, 2), (6, 6, 1), (8, 7, 2), (9, 7, 1), (6, 8, 2)];
    brain.send("BOARD");
    for (x, y, f) in stones {
        brain.send(&format!("{x},{y},{f}"));
    }
    brain.send("DONE");
    stones.iter().map(|&(x, y, _)| (x, y)).collect()
}

#[test]
fn huge_max_memory_neither_hangs_nor_aborts() {
    for memory in ["18446744073709551615", "1099511627776"] {
        let mut brain = Brain::start("master", 7);
        brain.send(&format!("INFO max_memory {memory}"));
        brain.send("INFO timeout_turn 300");
        brain.send("START 15");
        assert_eq!(brain.answer(), "OK");
        let mut board = middle_game(&mut brain);
        brain.answer_move(&mut board);
        brain.send("END");
        let start = Instant::now();
        assert!(brain.child.wait().unwrap().success(), "max_memory {memory}");
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}

#[test]
fn the_table_takes_memory_only_as_the_search_uses_it() {
    // A 2 GiB budget: the old brain wrote zeros over the whole table before its first
    // search (2 GiB resident, seconds past the turn's time); now the pages are only taken
    // as entries are stored.
    let mut brain = Brain::start("master", 7);
    brain.send("INFO max_memory 2147483648");
    brain.send("INFO timeout_turn 300");
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    let Some(after_start) = brain.rss() else { return }; // no /proc: nothing to measure
    assert!(after_start < 64 << 20, "{after_start} bytes resident after START");
    let mut board = middle_game(&mut brain);
    brain.answer_move(&mut board);
    let after_move = brain.rss().unwrap();
    assert!(after_move < 1 << 30, "{after_move} bytes resident after one 300 ms move");
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}

#[test]
fn yixin_board_commands() {
    let mut brain = Brain::start("master", 7);
    brain.send("INFO thread_num 4");
    brain.send("INFO caution_factor 2");
    brain.send("INFO rule 2"); // Yixin-Board's Renju
    brain.send("INFO timeout_turn 600");
    brain.send("START 15");
    // The INFO lines are accepted silently: the first answer is START's.
    assert_eq!(brain.answer(), "OK");
    brain.send("INFO rule 8");
    assert!(brain.answer().starts_with("ERROR unsupported rule 8"));
    brain.send("INFO rule 3");
    assert!(brain.answer().starts_with("ERROR unsupported rule 3"));
    // Black (the brain, 1) has 2,3,4 and 6,7,8 on row 7: 5,7 would make an overline.
    brain.send("YXBOARD");
    for (x, y, f) in [
        (2, 7, 1),
        (0, 0, 2),
        (3, 7, 1),
        (0, 2, 2),
        (4, 7, 1),
        (0, 4, 2),
        (6, 7, 1),
        (0, 6, 2),
        (7, 7, 1),
        (0, 8, 2),
        (8, 7, 1),
        (0, 10, 2),
    ] {
        brain.send(&format!("{x},{y},{f}"));
    }
    brain.send("DONE");
    // YXBOARD is not answered; the rule is still Renju after the refused ones.
    brain.send("YXSHOWFORBID");
    assert_eq!(brain.answer(), "FORBID 0507.");
    brain.send("YXHASHCLEAR");
    brain.send("ABOUT");
    assert!(brain.answer().contains("name=\"Tengen\""));

    // YXNBEST 3: three different moves, each with its score, best first, then the move.
    brain.send("YXNBEST 3");
    let mut pvs = Vec::new();
    let mv = loop {
        let line = brain.lines.recv_timeout(Duration::from_secs(20)).expect("an answer");
        if let Some(rest) = line.strip_prefix("MESSAGE (") {
            pvs.push(rest.to_string());
        } else if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
            break line;
        }
    };
    assert_eq!(pvs.len(), 3, "{pvs:?}");
    let firsts: Vec<&str> =
        pvs.iter().map(|l| l.rsplit(" | ").next().unwrap().split(' ').next().unwrap()).collect();
    assert!(pvs[0].starts_with("1) ") && pvs[2].starts_with("3) "), "{pvs:?}");
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(mv, firsts[0], "the best move is played");
    assert!(!firsts.contains(&"5,7"), "a forbidden point is never proposed: {firsts:?}");
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}

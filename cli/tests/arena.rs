//! `tengen arena` between built-in levels: the same seed replays the same games (the classic
//! levels read no clock), and every record written with `--out` reopens as the game the
//! arena printed.

use std::path::{Path, PathBuf};
use std::process::Command;

use tengen_engine::game::{EndReason, Game, GameConfig, GameKind, PlayerKind};
use tengen_engine::gomoku::Rule;
use tengen_engine::{Color, Move};

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arena").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `tengen arena ARGS` and returns its output; it must succeed.
fn arena(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("arena")
        .args(args)
        .output()
        .expect("tengen runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

fn game_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("game ")).collect()
}

/// What a game line says: the moves played (`N moves`) and the verdict after them.
fn moves_and_verdict(line: &str) -> (usize, &str) {
    let (head, verdict) = line.split_once(" moves  ").expect("a game line");
    let moves = head.rsplit(' ').next().unwrap().parse().unwrap();
    (moves, verdict.split("   [").next().unwrap())
}

fn humans(kind: GameKind) -> GameConfig {
    GameConfig::new(kind, PlayerKind::Human, PlayerKind::Human)
}

/// Reopens game `i`'s record from `dir` and checks it against its printed line: the same
/// number of moves and the same end. Returns the reopened game.
fn check_record(dir: &Path, i: usize, ext: &str, kind: GameKind, line: &str) -> Game {
    let text = std::fs::read_to_string(dir.join(format!("game-{i:03}.{ext}"))).unwrap();
    let game = Game::open(&text, &humans(kind)).unwrap();
    let (moves, verdict) = moves_and_verdict(line);
    let placed = game.history().iter().filter(|r| r.mv != Move::Pass).count();
    assert_eq!(placed, moves, "{line}\n{text}");
    let result = game.result().expect("the record is a finished game");
    let why = match result.reason {
        EndReason::Five => "five".to_string(),
        EndReason::BoardFull => "board full".to_string(),
        EndReason::NoMoves => match result.discs {
            Some((black, white)) => format!("{black}-{white}"),
            // Renju: black with only forbidden points left.
            None => "no moves".to_string(),
        },
        other => panic!("a game between levels ended by {other:?}: {line}"),
    };
    assert!(verdict.ends_with(&format!("({why})")), "{line} against {result:?}");
    assert_eq!(result.winner.is_none(), verdict.starts_with("draw"), "{line}");
    game
}

#[test]
fn the_same_seed_replays_the_same_gomoku_games_and_the_records_reopen_as_printed() {
    let dir = folder("gomoku");
    let out = dir.join("games");
    let args = ["--rule", "renju", "--black", "winarray", "--white", "fivetuple"];
    let more = ["--games", "4", "--seed", "7", "--out", out.to_str().unwrap()];
    let first = arena(&[&args[..], &more[..]].concat());
    let again = arena(&[&args[..], &more[..]].concat());
    assert_eq!(game_lines(&first), game_lines(&again));
    let kind = GameKind::Gomoku { rule: Rule::Renju, size: 15 };
    for (i, line) in game_lines(&first).into_iter().enumerate() {
        let game = check_record(&out, i + 1, "psq", kind, line);
        // Game 1 and 3: winarray is black; 2 and 4: white.
        let winarray = if i % 2 == 0 { Color::Black } else { Color::White };
        let winner = game.result().unwrap().winner;
        match winner {
            Some(c) if c == winarray => assert!(line.contains("gomoku winarray wins"), "{line}"),
            Some(_) => assert!(line.contains("gomoku fivetuple wins"), "{line}"),
            None => assert!(line.contains("draw"), "{line}"),
        }
    }
}

#[test]
fn reversi_records_reopen_with_the_printed_disc_counts() {
    let dir = folder("reversi");
    let out = dir.join("games");
    let stdout = arena(&[
        "--game",
        "reversi",
        "--black",
        "classic",
        "--white",
        "greedy",
        "--games",
        "4",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    let lines = game_lines(&stdout);
    assert_eq!(lines.len(), 4, "{stdout}");
    for (i, line) in lines.into_iter().enumerate() {
        check_record(&out, i + 1, "txt", GameKind::Reversi, line);
    }
    let summary = stdout.lines().last().unwrap();
    assert!(summary.starts_with("result: reversi classic vs reversi greedy: +"), "{summary}");
    assert!(summary.contains("(4 games, "), "{summary}");
}

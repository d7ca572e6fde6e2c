//! Search tests on the internal board (the `Position`-level tactics live in
//! `engine/tests/gomoku_tactics.rs`).

use super::board::tests::{board_from, pad};
use super::board::Board;
use super::Master;
use crate::ai::{CancelFlag, Limits, Score, SearchInfo};
use crate::gomoku::Rule;
use crate::{Move, Point};

fn think(board: Board, limits: Limits) -> (Move, SearchInfo, usize) {
    let mut m = Master::new(1);
    let mut calls = 0;
    let r = m.think(board, &|_| true, &limits, &CancelFlag::new(), &mut |_| calls += 1);
    (r.best, r.info, calls)
}

pub const MIDGAME: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "......o........",
    ".....xox.......",
    "....oxxo.......",
    "....xoxx.o.....",
    "...o.xoo.......",
    "....x..x.......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn takes_the_win_and_blocks_the_four() {
    let b = board_from(&pad(&["", "", "", ".xxxx", "", "..oo.o.o"]), Rule::Freestyle, 0);
    let (mv, info, _) = think(b, Limits::time(1000));
    assert!(mv == Move::Place(Point::new(0, 3)) || mv == Move::Place(Point::new(5, 3)));
    assert_eq!(info.score, Score::Win(1));
    let b = board_from(&pad(&["", "", "", "xoooo", "", "..x.x.x"]), Rule::Freestyle, 0);
    let (mv, _, _) = think(b, Limits::time(1000));
    assert_eq!(mv, Move::Place(Point::new(5, 3)));
}

#[test]
fn midgame_search_reports_progress() {
    let b = board_from(&MIDGAME, Rule::Freestyle, 0);
    let (mv, info, calls) = think(b.clone(), Limits::depth(6));
    assert!(calls >= 1);
    let p = mv.point().unwrap();
    assert!(b.is_empty(b.index(p)));
    assert!(info.depth >= 1);
    assert!(!info.pv.is_empty());
    assert!(!info.candidates.is_empty());
}

#[test]
fn fixed_depth_is_deterministic() {
    let b = board_from(&MIDGAME, Rule::Standard, 1);
    let (m1, i1, _) = think(b.clone(), Limits::depth(5));
    let (m2, i2, _) = think(b, Limits::depth(5));
    assert_eq!(m1, m2);
    assert_eq!(i1.nodes, i2.nodes);
}

/// A middle-game board: Master plays itself `plies` moves at a shallow depth.
pub fn selfplay(size: u8, rule: Rule, plies: usize, seed: u64) -> Board {
    let mut b = Board::new(size, rule);
    let mut m = Master::new(seed);
    for _ in 0..plies {
        let r = m.think(b.clone(), &|_| true, &Limits::depth(3), &CancelFlag::new(), &mut |_| {});
        let Some(p) = r.best.point() else { break };
        b.make(b.index(p));
        if b.has_five(b.side()) && b.has_five(b.side() ^ 1) {
            break;
        }
    }
    b
}

/// Plays `moves` (x, y) on a fresh 15x15 board.
pub fn from_moves(rule: Rule, moves: &[(u8, u8)]) -> Board {
    let mut b = Board::new(15, rule);
    for &(x, y) in moves {
        b.make(b.index(Point::new(x, y)));
    }
    b
}

pub const MIDGAME_MOVES: [&[(u8, u8)]; 2] = [
    &[
        (7, 7),
        (8, 8),
        (8, 6),
        (6, 8),
        (7, 9),
        (9, 7),
        (6, 6),
        (9, 9),
        (10, 10),
        (5, 7),
        (7, 5),
        (6, 4),
        (9, 6),
        (8, 5),
    ],
    &[
        (7, 7),
        (7, 8),
        (8, 7),
        (6, 7),
        (8, 8),
        (8, 6),
        (9, 9),
        (10, 10),
        (6, 9),
        (9, 8),
        (7, 10),
        (5, 8),
        (5, 9),
        (8, 9),
    ],
];

/// Manual measurement (not a check): `DEPTH=d cargo test --release -p tengen-engine --lib
/// speed_probe -- --ignored --nocapture` prints every progress report.
#[test]
#[ignore]
fn speed_probe() {
    let depth = std::env::var("DEPTH").ok().and_then(|d| d.parse().ok());
    for moves in MIDGAME_MOVES {
        let b = from_moves(Rule::Freestyle, moves);
        let mut m = Master::new(1);
        let t = std::time::Instant::now();
        let limits = match depth {
            Some(d) => Limits::depth(d),
            None => Limits::time(1000),
        };
        let r = m.think(b, &|_| true, &limits, &CancelFlag::new(), &mut |i| {
            eprintln!(
                "d{} sd{} n{} nps{} {:?} {}ms",
                i.depth, i.seldepth, i.nodes, i.nps, i.score, i.elapsed_ms
            )
        });
        eprintln!("{:?} {:?} {:?}", r.best, r.info.score, t.elapsed());
    }
}

/// Manual measurement (not a check): the cost of one make/unmake pair.
#[test]
#[ignore]
fn make_speed_probe() {
    let mut b = selfplay(15, Rule::Freestyle, 16, 1);
    let cells: Vec<usize> =
        b.board_cells().iter().copied().filter(|&c| b.is_empty(c) && b.is_near(c)).collect();
    let t = std::time::Instant::now();
    let mut n = 0u64;
    for _ in 0..20_000 {
        for &c in &cells {
            b.make(c);
            b.unmake();
            n += 1;
        }
    }
    eprintln!("{} make/unmake pairs in {:?}: {:?} each", n, t.elapsed(), t.elapsed() / n as u32);
}

/// Manual measurement (not a check): the root VCT as Master runs it (depths 5, 7, ... up to
/// `ROOT_VCT_DEPTH`, `ROOT_VCT_NODES` in all, one cache kept from position to position) on
/// every position of `GAMES` games the lookahead level plays itself at its fixed depth
/// (seeds from `SEED0`; `RENJU=1` for Renju: positions that do not depend on Master), where
/// the side to move has no five, no open four and no five to block: `GAMES=30 cargo test
/// --release -p tengen-engine --lib vct_probe -- --ignored --nocapture` prints the positions,
/// the wins found, the solver's nodes and its time.
#[test]
#[ignore]
fn vct_probe() {
    use super::engine::board_of;
    use super::vcf::Budget;
    use super::vct::Vct;
    use super::{ROOT_VCT_DEPTH, ROOT_VCT_NODES};
    use crate::ai::gomoku_engine;
    use crate::gomoku::Position;
    use crate::level::GomokuLevel;
    let env = |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let rule = if env("RENJU", 0) == 1 { Rule::Renju } else { Rule::Freestyle };
    let (mut positions, mut wins, mut nodes, mut time) = (0, 0, 0, std::time::Duration::ZERO);
    let mut vct = Vct::new(super::VCT_CACHE_BITS);
    for seed in 0..env("GAMES", 30) {
        let mut pos = Position::new(15, rule).expect("a 15x15 board");
        let mut player = gomoku_engine(GomokuLevel::Lookahead, seed + env("SEED0", 1000), None);
        while pos.winner().is_none() && pos.moves().len() < 120 {
            let mut b = board_of(&pos);
            let me = b.side();
            if b.ply() >= 6 && !b.has_five(me) && !b.has_flex4(me) && !b.has_five(me ^ 1) {
                positions += 1;
                let t = std::time::Instant::now();
                let (mut left, mut depth) = (ROOT_VCT_NODES, 5);
                while depth <= ROOT_VCT_DEPTH && left > 0 {
                    let mut budget = Budget::new(left);
                    let found = vct.solve(&mut b, depth, &mut budget);
                    nodes += budget.nodes;
                    left = left.saturating_sub(budget.nodes);
                    if found.is_some() {
                        wins += 1;
                        break;
                    }
                    if budget.aborted {
                        break;
                    }
                    depth += 2;
                }
                time += t.elapsed();
            }
            let r = player.search(&pos, &Limits::depth(9), &CancelFlag::new(), &mut |_| {});
            let Some(p) = r.best.point() else { break };
            if pos.play(p).is_err() {
                break;
            }
        }
    }
    eprintln!("{positions} positions: {wins} wins, {nodes} nodes, {time:?}");
}

/// The bench's middle-game positions (from `tengen bench`: 15-a, 15-b, 15-c, 15-renju, 19-a,
/// 15-d), for measuring by hand:
/// `POS=n DEPTH=d cargo test --release -p tengen-engine --lib bench_probe -- --ignored`.
pub(super) const BENCH_POSITIONS: [(u8, &str); 6] = [
    (15, "h8 i9 h9 i8 h7 h10 i10 h5 g8 f7 i6 f9 e8 d8 f10 j5 g9 i7 g11 g10 g5 g6 i4 e11"),
    (15, "h8 i9 h9 i8 i7 h7 j9 j6 i10 h11 g8 j11 g11 f7 g9 g10 f10 e11 e8 d8 i12 h12 h13 e7"),
    (15, "h8 i9 h9 i8 i7 h7 g9 f10 k10 j6 g6 g8 f9 d9 h10 h11 i10 j10 i11 f8 j12 k13 i12 i13"),
    (15, "h8 i9 h9 i8 h10 h7 i7 h11 g9 f10 i11 f8 f9 e9 h12 j12 h6 j6 g6 g8"),
    (19, "j10 k11 j11 k10 k9 j9 l11 l8 k12 j13 i10 l13 i13 h9 i11 i12 h12 g13 g10 f10 k14 j14 j15 g9"),
    (
        15,
        "h8 h9 i9 i8 g10 g7 g9 h10 i7 f10 g11 g12 k5 j6 h11 f11 f8 f12 f13 f9 e10 e12 h12 d12 c12 \
         e11 g13 c13 b14 i11",
    ),
];

#[test]
#[ignore]
fn bench_probe() {
    use crate::gomoku::{notation, Position, Rule};
    let only: Option<usize> = std::env::var("POS").ok().and_then(|d| d.parse().ok());
    let depth = std::env::var("DEPTH").ok().and_then(|d| d.parse().ok());
    for (n, (size, moves)) in BENCH_POSITIONS.iter().enumerate() {
        if only.is_some_and(|o| o != n) {
            continue;
        }
        let rule = if n == 3 { Rule::Renju } else { Rule::Freestyle };
        let moves = notation::parse_moves(moves, *size).unwrap();
        let pos = Position::from_moves(*size, rule, &moves).unwrap();
        let b = super::engine::board_of(&pos);
        let limits = depth.map_or(Limits::time(1000), Limits::depth);
        let mut m = Master::new(1);
        let r = m.think(b, &|_| true, &limits, &CancelFlag::new(), &mut |_| {});
        eprintln!(
            "pos {n}: {:?} depth {} seldepth {} nodes {} {:?} {} ms",
            r.best, r.info.depth, r.info.seldepth, r.info.nodes, r.info.score, r.info.elapsed_ms
        );
    }
}

#[test]
fn answers_an_open_three_instead_of_making_its_own() {
    // Arena game (master white vs fivetuple): black's e10 . g8 h7 is an open three (f9 makes
    // an open four). White's own three h9 i8 j7 loses to f9; the VCT used to claim it won,
    // because the defender's open-four point was not among its replies.
    let moves: &[(u8, u8)] = &[
        (7, 7),
        (8, 8),
        (7, 8),
        (7, 6),
        (7, 9),
        (6, 9),
        (7, 10),
        (7, 11),
        (8, 10),
        (9, 10),
        (6, 8),
        (9, 11),
        (5, 7),
        (4, 6),
        (8, 6),
        (5, 9),
        (10, 4),
        (9, 5),
        (6, 7),
        (8, 7),
        (3, 7),
        (4, 7),
        (4, 5),
    ];
    let b = from_moves(Rule::Freestyle, moves);
    let (mv, info, _) = think(b, Limits::depth(4));
    assert_ne!(mv, Move::Place(Point::new(9, 8)), "j7 loses to f9");
    assert!(!matches!(info.score, Score::Win(_)), "no forced win for white: {:?}", info.score);
}

/// The board after `moves` (board notation, black first) on 15x15 freestyle.
fn after(moves: &str) -> Board {
    use crate::gomoku::{notation, Position, Rule};
    let moves = notation::parse_moves(moves, 15).unwrap();
    let pos = Position::from_moves(15, Rule::Freestyle, &moves).unwrap();
    super::engine::board_of(&pos)
}

/// Master, to move after `moves`, must play one of `defences` (the only moves after which the
/// opponent has no VCF or VCT, found by running the solvers after every move near the stones).
fn must_defend(moves: &str, defences: &[&str]) {
    use crate::gomoku::notation;
    let (mv, _, _) = think(after(moves), Limits::depth(4));
    let p = mv.point().unwrap();
    let name = notation::format_point(p, 15);
    assert!(defences.contains(&name.as_str()), "{name} loses; the defences are {defences:?}");
}

#[test]
fn defends_against_a_vcf_started_by_a_three() {
    // Arena game (master white vs lookahead, seed 3, game 32): black threatens a 17-ply VCF
    // (e8 d9 g8 ...); Master as white played i5 and lost. Only j4 and k4 stop it.
    must_defend("h8 h9 f7 f8 g7 i7 f6 e5 e7 d7 g5 h4 g6 g4 e6 h6 h5 i4 f4", &["j4", "k4"]);
}

#[test]
fn defends_against_a_vct() {
    // Arena game (master white vs lookahead, seed 2, game 8): black threatens a VCT; Master
    // played i5 and black won by h9 (VCT in 7 plies).
    let moves = "h8 j7 i7 g8 g9 f10 j6 k5 i6 h6 i9";
    let b = after(moves);
    let (mv, _info, _) = think(b.clone(), Limits::depth(4));
    assert_ne!(mv, Move::Place(Point::new(8, 10)), "i5 loses to h9 {:?}", _info);
    let mut b = b;
    b.make(b.index(mv.point().unwrap()));
    let mut vct = super::vct::Vct::new(16);
    let found = vct.solve(&mut b, 11, &mut super::vcf::Budget::new(2_000_000));
    assert!(found.is_none(), "black still wins by threats after {mv:?}");
}

#[test]
fn defends_against_a_long_vct() {
    // Arena game (master white vs lookahead, seed 3, game 26): Master played e8 and black won
    // by i4 (VCT in 11 plies).
    must_defend(
        "h8 h9 i6 f8 i7 j6 i9 i5 i8 i10 j8 g8 f7 g7 h6 g5 g6 k7 h4 h5 f5 h7 e6 f6 g4 d7 j5",
        &["k12", "j11", "l8", "k6", "f4", "i4", "h3", "g2", "i2"],
    );
}

/// Threes, then a four: black (to move) has no VCF within 7 plies, but wins by a VCT whose
/// last threat is a four read past the nominal depth 5 (`vct::VCF_TAIL`). A board from
/// Master's self-play (seed 27, 22 plies); without the tail, depth 5 finds no win (checked
/// with the tail set to 0).
#[test]
fn vct_finishes_with_continuous_fours() {
    use super::vcf::{Budget, Vcf};
    use super::vct::Vct;
    let mut b = board_from(
        &pad(&[
            "...............",
            "...............",
            "...............",
            "......o........",
            "......xo.......",
            "....oox........",
            "..oxxxxoo......",
            "...oxxxxo......",
            "....x.o........",
            "...o...........",
        ]),
        Rule::Freestyle,
        0,
    );
    assert!(!Vcf::new(14).solve(&mut b, 7, &mut Budget::new(200_000)));
    let mut vct = Vct::new(14);
    let m = vct.solve(&mut b, 5, &mut Budget::new(200_000));
    assert!(m.is_some(), "black wins by threes and then a four");
    // White, to move instead, has no such win here.
    let mut w = b.clone();
    w.pass();
    assert!(Vct::new(14).solve(&mut w, 5, &mut Budget::new(200_000)).is_none());
}

/// A dense position from a self-play game (71 stones, white to move and lost: `Loss(16)`),
/// where both sides have many fours. Facing an open three, the quiescence search tries the
/// side's own fours in every order, and each quiet leaf runs a VCF that runs out of nodes.
/// Before the table kept these results, depth 3 took 36,261,033 nodes (depth 4: 118 M);
/// with them 3,031,857 (4.6 M), with the same score and move.
const DENSE: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "..x..o.........",
    "...oxx....x....",
    "...xooxoo......",
    "..xooox.xx.....",
    "..xxooxxo..o...",
    "oxoxxxooxox....",
    ".xoxooooxx.x...",
    ".ooxo.x.x.o....",
    "..oox..xx......",
    "..xxoxoooxo....",
    "....ox.........",
    "...............",
];

#[test]
fn the_table_keeps_a_dense_positions_quiescence_search_small() {
    let b = board_from(&DENSE, Rule::Freestyle, 1);
    let (mv, info, _) = think(b, Limits::depth(3));
    assert!(info.nodes < 6_000_000, "{} nodes", info.nodes);
    assert_eq!(info.score, Score::Loss(16));
    assert_eq!(mv, Move::Place(Point::new(10, 9)));
}

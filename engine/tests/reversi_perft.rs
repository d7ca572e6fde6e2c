//! Reversi perft from the standard start against the published counts
//! (a pass is one ply, a finished game is a leaf).

use tengen_engine::reversi::{perft, Position};

const PUBLISHED: [u64; 12] =
    [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800];

#[test]
fn perft_depths_1_to_9() {
    let start = Position::initial();
    for (depth, &count) in PUBLISHED.iter().enumerate().take(10) {
        assert_eq!(perft(&start, depth as u32), count, "depth {depth}");
    }
}

#[test]
#[ignore = "a few seconds; run with --ignored"]
fn perft_depth_10() {
    assert_eq!(perft(&Position::initial(), 10), PUBLISHED[10]);
}

#[test]
#[ignore = "tens of seconds; run with --ignored"]
fn perft_depth_11() {
    assert_eq!(perft(&Position::initial(), 11), PUBLISHED[11]);
}

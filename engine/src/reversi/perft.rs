//! Perft: the number of move paths to a given depth, the standard check of move generation.
//!
//! A pass counts as one ply. A finished game (neither side can move) is a leaf: it counts
//! once, however much depth remains.

use super::bitboard;
use super::position::Position;

/// The number of move sequences of `depth` plies from `pos` (passes are plies; a finished
/// game before the depth counts as one leaf). Depth 0 counts the position itself.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_raw(pos.player(), pos.opponent(), depth)
}

/// The same on raw bitboards (side to move first); `depth` >= 1.
fn perft_raw(player: u64, opponent: u64, depth: u32) -> u64 {
    let moves = bitboard::moves(player, opponent);
    if moves == 0 {
        // Pass when the opponent can move, else the game is over: a leaf.
        if depth == 1 || bitboard::moves(opponent, player) == 0 {
            return 1;
        }
        return perft_raw(opponent, player, depth - 1);
    }
    if depth == 1 {
        return u64::from(bitboard::count(moves));
    }
    let mut total = 0;
    for sq in bitboard::squares(moves) {
        let flipped = bitboard::flips(player, opponent, sq);
        total += perft_raw(opponent & !flipped, player | flipped | bitboard::bit(sq), depth - 1);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_counts() {
        let start = Position::initial();
        assert_eq!(perft(&start, 0), 1);
        assert_eq!(perft(&start, 1), 4);
        assert_eq!(perft(&start, 2), 12);
        assert_eq!(perft(&start, 3), 56);
    }

    #[test]
    fn finished_game_is_one_leaf_and_pass_is_a_ply() {
        let over = Position::from_bitboards(1, 1 << 63, crate::Color::Black).unwrap();
        assert_eq!(perft(&over, 5), 1);
        // White must pass, then black has one move (c1), then the game is over.
        let pass = Position::from_bitboards(1, 2, crate::Color::White).unwrap();
        assert_eq!(perft(&pass, 1), 1);
        assert_eq!(perft(&pass, 2), 1);
        assert_eq!(perft(&pass, 3), 1);
    }
}

//! Opening sets for the arena: the built-in balanced Gomoku openings and opening files.

use tengen_engine::game::opening::transform;
use tengen_engine::gomoku::{self, Position, Rule};
use tengen_engine::rng::Rng;
use tengen_engine::{reversi, Point};

/// Built-in Gomoku openings: stones as offsets from the centre, black first, alternating,
/// white to move. Chosen for balance, not by hand: `scripts/rate-openings.py` gave Master
/// (through `tengen brain`) every three-stone opening with white within two points of the
/// centre and black's second stone within three (151 up to symmetry) for 2 s, then the 40
/// most even for 5 s; these are the 24 most even at 5 s. The comment is Master's 5 s score
/// from black's side, in Master's evaluation units (the hand-set evaluation of 2026-11-23,
/// before the fitted one). Every three-stone opening still favoured black for Master, as
/// freestyle Gomoku favours the first player; the arena plays each opening with both colours.
pub const GOMOKU_OPENINGS: &[&[(i8, i8)]] = &[
    &[(0, 0), (-2, -2), (-3, -3)], // +12
    &[(0, 0), (-2, -1), (3, 0)],   // +26
    &[(0, 0), (-2, 0), (1, -3)],   // +32
    &[(0, 0), (-1, -1), (3, 3)],   // +50
    &[(0, 0), (-2, -2), (-3, -2)], // +61
    &[(0, 0), (-2, -1), (3, 2)],   // -66
    &[(0, 0), (-2, 0), (-2, -2)],  // +89
    &[(0, 0), (-2, -1), (2, -3)],  // +94
    &[(0, 0), (-1, -1), (2, 3)],   // +103
    &[(0, 0), (-2, -1), (3, -3)],  // +110
    &[(0, 0), (-1, -1), (-3, -3)], // +127
    &[(0, 0), (-1, -1), (1, 1)],   // +137
    &[(0, 0), (-2, -1), (1, 3)],   // +138
    &[(0, 0), (-2, -1), (-3, -3)], // +144
    &[(0, 0), (-2, -2), (-1, -1)], // +146
    &[(0, 0), (-2, 0), (3, -2)],   // +152
    &[(0, 0), (-2, 0), (3, -3)],   // +153
    &[(0, 0), (-2, -1), (2, 3)],   // +165
    &[(0, 0), (-2, -1), (-3, 3)],  // +173
    &[(0, 0), (-1, -1), (1, 3)],   // +177
    &[(0, 0), (-1, -1), (2, 2)],   // +187
    &[(0, 0), (-2, -1), (3, -1)],  // +188
    &[(0, 0), (-2, -1), (3, 3)],   // +197
    &[(0, 0), (-1, -1), (-3, 3)],  // +198
];

/// Built-in Renju openings, in the form of [`GOMOKU_OPENINGS`]. Under Renju many of those
/// favour one colour: in self-play of Master at 0.1 s a move (both sides `tengen brain`, one
/// thread) black won only 39.9% of 212 games over the 24 and the Renju rating's 40 most even
/// three-stone openings (53 distinct; `scripts/rate-openings.py --rule renju`), and 15 of
/// them went 0-4 or 4-0. The 38 others had 8 games more each; these are the 22 where each
/// colour won at least 4 of the 12 (black 47.3%: 122 wins, 136 losses, 6 draws). The
/// comment gives the opening on a 15x15 board and black's wins, then white's.
pub const RENJU_OPENINGS: &[&[(i8, i8)]] = &[
    &[(0, 0), (-2, -2), (-3, -1)], // h8 f10 e9: 6-6
    &[(0, 0), (-2, -1), (-3, 3)],  // h8 f9 e5: 6-6
    &[(0, 0), (-2, -1), (1, 3)],   // h8 f9 i5: 6-6
    &[(0, 0), (-1, 0), (-2, -3)],  // h8 g8 f11: 6-6
    &[(0, 0), (-1, -1), (-2, 3)],  // h8 g9 f5: 6-6
    &[(0, 0), (-2, -1), (-3, -3)], // h8 f9 e11: 6-5, a draw
    &[(0, 0), (-2, -1), (0, -3)],  // h8 f9 h11: 6-5, a draw
    &[(0, 0), (-1, -1), (-2, -2)], // h8 g9 f10: 6-5, a draw
    &[(0, 0), (-2, 0), (-3, 0)],   // h8 f8 e8: 5-7
    &[(0, 0), (-2, -1), (-1, 3)],  // h8 f9 g5: 7-5
    &[(0, 0), (-1, 0), (2, -2)],   // h8 g8 j10: 6-4, two draws
    &[(0, 0), (-1, 0), (3, -1)],   // h8 g8 k9: 5-7
    &[(0, 0), (-1, -1), (-3, 2)],  // h8 g9 e6: 5-7
    &[(0, 0), (-1, -1), (-2, 2)],  // h8 g9 f6: 5-7
    &[(0, 0), (-1, -1), (1, 3)],   // h8 g9 i5: 5-7
    &[(0, 0), (-1, -1), (1, 1)],   // h8 g9 i7: 5-7
    &[(0, 0), (-2, -1), (1, -3)],  // h8 f9 i11: 7-4, a draw
    &[(0, 0), (-2, -2), (2, 3)],   // h8 f10 j5: 4-8
    &[(0, 0), (-2, 0), (-2, -2)],  // h8 f8 f10: 8-4
    &[(0, 0), (-1, 0), (3, -2)],   // h8 g8 k10: 4-8
    &[(0, 0), (-1, 0), (3, 0)],    // h8 g8 k8: 4-8
    &[(0, 0), (-1, -1), (-3, 0)],  // h8 g9 e8: 4-8
];

/// The built-in openings of `rule` ([`RENJU_OPENINGS`] under Renju, else
/// [`GOMOKU_OPENINGS`]) placed on a board `size` cells wide (at least 9).
pub fn builtin_gomoku(size: u8, rule: Rule) -> Vec<Vec<Point>> {
    let c = (size / 2) as i16;
    let set = if rule == Rule::Renju { RENJU_OPENINGS } else { GOMOKU_OPENINGS };
    set.iter()
        .map(|stones| {
            stones
                .iter()
                .map(|&(dx, dy)| Point::new((c + dx as i16) as u8, (c + dy as i16) as u8))
                .collect()
        })
        .collect()
}

/// How many orientations the arena plays each built-in opening in on an odd board: the 8
/// symmetries of the square, which keep an opening's balance.
const ORIENTATIONS: usize = 8;

/// The built-in openings of `rule` as a match plays them, in rounds: each round plays every
/// opening once, in an order drawn from `seed`, and on an odd board each opening is turned
/// by each of the 8 symmetries once over 8 rounds, also in an order drawn from the seed.
/// With a fixed set a Master pair tends to replay the same game round after round; turned,
/// the engines' ties break otherwise and the games differ, as do matches with other seeds.
pub fn seeded_gomoku(size: u8, rule: Rule, seed: u64) -> Vec<Vec<Point>> {
    let mut rng = Rng::new(seed);
    let base = builtin_gomoku(size, rule);
    let rounds = if size % 2 == 1 { ORIENTATIONS } else { 1 };
    let mut turns: Vec<_> = base
        .iter()
        .map(|_| {
            let mut order: Vec<usize> = (0..ORIENTATIONS).collect();
            rng.shuffle(&mut order);
            order.into_iter()
        })
        .collect();
    let mut out = Vec::with_capacity(base.len() * rounds);
    for _ in 0..rounds {
        let mut order: Vec<usize> = (0..base.len()).collect();
        rng.shuffle(&mut order);
        for i in order {
            let s = turns[i].next().unwrap_or(0);
            let turned: Option<Vec<Point>> =
                base[i].iter().map(|&p| transform(s, p, size)).collect();
            out.push(turned.unwrap_or_else(|| base[i].clone()));
        }
    }
    out
}

/// Every 4-ply Reversi opening, in an order drawn from `seed`.
pub fn seeded_reversi(seed: u64) -> Vec<Vec<Point>> {
    let mut all = reversi_openings(4);
    Rng::new(seed).shuffle(&mut all);
    all
}

/// Errors reading an opening file.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    #[error("line {line} of the openings file: {message}")]
    Bad { line: usize, message: String },
    #[error("the openings file holds no opening")]
    Empty,
}

/// Reads Gomoku openings, one per line in board notation ("h8 h9 j10"); blank lines and
/// lines starting with '#' are skipped. Each opening must be playable under `rule`.
pub fn parse_gomoku(text: &str, size: u8, rule: Rule) -> Result<Vec<Vec<Point>>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: String| OpeningError::Bad { line: i + 1, message };
        let moves = gomoku::notation::parse_moves(line, size).map_err(|e| bad(e.to_string()))?;
        let mut pos = Position::new(size, rule).map_err(|e| bad(e.to_string()))?;
        for &p in &moves {
            pos.play(p).map_err(|e| bad(e.to_string()))?;
        }
        if pos.is_over() {
            return Err(bad("the opening already ends the game".to_string()));
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

/// Every Reversi opening of `plies` moves from the initial position (passes cannot occur
/// this early), in move-generation order. Four plies give 244 openings.
pub fn reversi_openings(plies: usize) -> Vec<Vec<Point>> {
    fn walk(
        pos: &reversi::Position,
        line: &mut Vec<Point>,
        plies: usize,
        out: &mut Vec<Vec<Point>>,
    ) {
        if line.len() == plies {
            out.push(line.clone());
            return;
        }
        for p in pos.legal_points() {
            let mut next = *pos;
            if next.play(p).is_ok() {
                line.push(p);
                walk(&next, line, plies, out);
                line.pop();
            }
        }
    }
    let mut out = Vec::new();
    walk(&reversi::Position::initial(), &mut Vec::new(), plies, &mut out);
    out
}

/// Reads Reversi openings, one transcript per line ("f5d6c3d3"); '#' lines are skipped.
pub fn parse_reversi(text: &str) -> Result<Vec<Vec<Point>>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (moves, pos) = reversi::notation::replay_transcript(line)
            .map_err(|e| OpeningError::Bad { line: i + 1, message: e.to_string() })?;
        if pos.is_game_over() {
            return Err(OpeningError::Bad {
                line: i + 1,
                message: "the opening already ends the game".to_string(),
            });
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_openings_are_distinct_and_playable() {
        for (size, rule) in
            [15u8, 19].into_iter().flat_map(|s| [(s, Rule::Freestyle), (s, Rule::Renju)])
        {
            let openings = builtin_gomoku(size, rule);
            assert!(openings.len() >= 20);
            for (i, o) in openings.iter().enumerate() {
                let mut pos = Position::new(size, Rule::Renju).unwrap();
                for &p in o {
                    pos.play(p).unwrap();
                }
                assert!(!pos.is_over());
                assert!(!openings[..i].contains(o), "opening {i} repeats");
            }
        }
    }

    #[test]
    fn seeded_openings_play_each_builtin_one_per_round_in_every_orientation() {
        use std::collections::HashSet;
        use tengen_engine::game::opening::computer::symmetry_key;
        fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
            v.sort();
            v
        }
        for rule in [Rule::Freestyle, Rule::Renju] {
            let base = builtin_gomoku(15, rule);
            let n = base.len();
            let key = |o: &[Point]| symmetry_key(15, o).unwrap();
            let mut matches = HashSet::new();
            for seed in 1..=10 {
                let set = seeded_gomoku(15, rule, seed);
                assert_eq!(set, seeded_gomoku(15, rule, seed), "seed {seed} replays");
                assert_eq!(set.len(), 8 * n);
                // Each round plays every opening once, up to symmetry.
                let base_keys = sorted(base.iter().map(|o| key(o)).collect());
                for round in set.chunks(n) {
                    assert_eq!(sorted(round.iter().map(|o| key(o)).collect()), base_keys);
                }
                // Over the 8 rounds, each opening in each of its 8 orientations once.
                for b in &base {
                    let played: Vec<Vec<Point>> =
                        set.iter().filter(|o| key(o) == key(b)).cloned().collect();
                    let images: Vec<Vec<Point>> = (0..8)
                        .map(|s| b.iter().map(|&p| transform(s, p, 15).unwrap()).collect())
                        .collect();
                    assert_eq!(sorted(played), sorted(images), "seed {seed}: {b:?}");
                }
                matches.insert(set);
            }
            assert_eq!(matches.len(), 10, "every seed its own order");
        }
        // An even board has no centre to turn about: one round, only the order changes.
        let mut even = seeded_gomoku(14, Rule::Freestyle, 5);
        let builtin = builtin_gomoku(14, Rule::Freestyle);
        assert_ne!(even, builtin);
        even.sort();
        assert_eq!(even, sorted(builtin));
    }

    #[test]
    fn builtin_openings_are_not_symmetric_images_of_each_other() {
        use tengen_engine::game::opening::computer::symmetry_key;
        for rule in [Rule::Freestyle, Rule::Renju] {
            let set = builtin_gomoku(15, rule);
            for (i, a) in set.iter().enumerate() {
                for b in &set[..i] {
                    assert_ne!(symmetry_key(15, a), symmetry_key(15, b), "{a:?} mirrors {b:?}");
                }
            }
        }
    }

    #[test]
    fn reversi_four_ply_openings() {
        // Perft(4) of Reversi is 244.
        let o = reversi_openings(4);
        assert_eq!(o.len(), 244);
        assert!(o.iter().all(|l| l.len() == 4));
        let text = "# x\nf5d6c3d3\n";
        assert_eq!(parse_reversi(text).unwrap().len(), 1);
        assert!(parse_reversi("f5f5").is_err());
    }

    #[test]
    fn parses_opening_files() {
        let text = "# comment\nh8 h9\n\nh8 i9 j10\n";
        let o = parse_gomoku(text, 15, Rule::Freestyle).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].len(), 3);
        assert!(matches!(
            parse_gomoku("h8 h8", 15, Rule::Freestyle),
            Err(OpeningError::Bad { line: 1, .. })
        ));
        assert!(matches!(parse_gomoku("# none", 15, Rule::Freestyle), Err(OpeningError::Empty)));
        assert!(parse_gomoku("z99", 15, Rule::Freestyle).is_err());
    }
}

//! The 26 canonical Renju openings: the first three stones (black at the centre, white next
//! to it, black within the central 5x5), named, recognised under the board's 8 symmetries.
//!
//! Source of the third stones: the canonical list as `h8,h9,x` / `h8,i9,x` (1D..13D, then
//! 1I..13I) in Abstract Play's Renju implementation (`canonicalOpenings` in its renju game),
//! which agrees with the RIF numbering (renju.net: 1D Kansei .. 13I Suisei) and with the
//! assessments of the "Renju opening pattern" article (e.g. 7I Hogetsu: black wins, 13I
//! Suisei: white wins, 5I Ryusei: slightly white). Offsets below are `(dx, dy)` from the
//! centre with `dy` counted UP (board notation: `i9` is `(1, 1)` from `h8`).

use serde::{Deserialize, Serialize};

use crate::Point;

/// One of the 26 canonical openings. Serialised by its romaji name in lowercase (`kagetsu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RenjuOpening {
    Kansei,
    Keigetsu,
    Sosei,
    Kagetsu,
    Zangetsu,
    Ugetsu,
    Kinsei,
    Shogetsu,
    Kyugetsu,
    Shingetsu,
    Zuisei,
    Sangetsu,
    Yusei,
    Chosei,
    Kyogetsu,
    Kosei,
    Suigetsu,
    Ryusei,
    Ungetsu,
    Hogetsu,
    Rangetsu,
    Gingetsu,
    Meisei,
    Shagetsu,
    Meigetsu,
    Suisei,
}

/// The second stone of a direct opening: straight up from the centre.
const DIRECT: (i8, i8) = (0, 1);
/// The second stone of an indirect opening: diagonally up and right.
const INDIRECT: (i8, i8) = (1, 1);

/// An offset from the centre, `dy` counted up.
type Offset = (i8, i8);
/// One opening: the opening, the second stone, the third stone, its romaji and Chinese names.
type Row = (RenjuOpening, Offset, Offset, &'static str, &'static str);

/// Each opening: the second stone, the third stone (offsets from the centre), its romaji and
/// Chinese names.
const TABLE: [Row; 26] = {
    use RenjuOpening::*;
    [
        (Kansei, DIRECT, (0, 2), "Kansei", "寒星"),
        (Keigetsu, DIRECT, (1, 2), "Keigetsu", "溪月"),
        (Sosei, DIRECT, (2, 2), "Sosei", "疏星"),
        (Kagetsu, DIRECT, (1, 1), "Kagetsu", "花月"),
        (Zangetsu, DIRECT, (2, 1), "Zangetsu", "残月"),
        (Ugetsu, DIRECT, (1, 0), "Ugetsu", "雨月"),
        (Kinsei, DIRECT, (2, 0), "Kinsei", "金星"),
        (Shogetsu, DIRECT, (0, -1), "Shogetsu", "松月"),
        (Kyugetsu, DIRECT, (1, -1), "Kyugetsu", "丘月"),
        (Shingetsu, DIRECT, (2, -1), "Shingetsu", "新月"),
        (Zuisei, DIRECT, (0, -2), "Zuisei", "瑞星"),
        (Sangetsu, DIRECT, (1, -2), "Sangetsu", "山月"),
        (Yusei, DIRECT, (2, -2), "Yusei", "游星"),
        (Chosei, INDIRECT, (2, 2), "Chosei", "长星"),
        (Kyogetsu, INDIRECT, (2, 1), "Kyogetsu", "峡月"),
        (Kosei, INDIRECT, (2, 0), "Kosei", "恒星"),
        (Suigetsu, INDIRECT, (2, -1), "Suigetsu", "水月"),
        (Ryusei, INDIRECT, (2, -2), "Ryusei", "流星"),
        (Ungetsu, INDIRECT, (1, 0), "Ungetsu", "云月"),
        (Hogetsu, INDIRECT, (1, -1), "Hogetsu", "浦月"),
        (Rangetsu, INDIRECT, (1, -2), "Rangetsu", "岚月"),
        (Gingetsu, INDIRECT, (0, -1), "Gingetsu", "银月"),
        (Meisei, INDIRECT, (0, -2), "Meisei", "明星"),
        (Shagetsu, INDIRECT, (-1, -1), "Shagetsu", "斜月"),
        (Meigetsu, INDIRECT, (-1, -2), "Meigetsu", "名月"),
        (Suisei, INDIRECT, (-2, -2), "Suisei", "彗星"),
    ]
};

impl RenjuOpening {
    /// All 26, the 13 direct ones (1D..13D) then the 13 indirect ones (1I..13I).
    pub const ALL: [RenjuOpening; 26] = {
        let mut all = [RenjuOpening::Kansei; 26];
        let mut i = 0;
        while i < 26 {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    const fn row(self) -> &'static Row {
        &TABLE[self as usize]
    }

    /// The romaji name (`Kagetsu`).
    pub const fn romaji(self) -> &'static str {
        self.row().3
    }

    /// The Chinese name (`花月`).
    pub const fn chinese(self) -> &'static str {
        self.row().4
    }

    /// Whether the second stone is orthogonally next to the first (a direct opening), not
    /// diagonally (indirect).
    pub const fn is_direct(self) -> bool {
        (self as usize) < 13
    }

    /// The RIF code: `1D`..`13D`, `1I`..`13I`.
    pub fn code(self) -> String {
        let n = self as usize % 13 + 1;
        format!("{n}{}", if self.is_direct() { 'D' } else { 'I' })
    }

    /// The three stones on a board `size` wide in the canonical orientation (centre, then
    /// up or up-right, then the third), or `None` on a board too small to hold them.
    pub fn stones(self, size: u8) -> Option<[Point; 3]> {
        let &(_, second, third, _, _) = self.row();
        let c = centre(size)?;
        Some([c, offset(c, second, size)?, offset(c, third, size)?])
    }
}

/// The centre of a board with a middle line (odd size), at least 5 wide so the central 5x5
/// fits.
pub fn centre(size: u8) -> Option<Point> {
    (size % 2 == 1 && size >= 5).then(|| Point::new(size / 2, size / 2))
}

/// `c` moved by `(dx, dy)` with `dy` counted up, if still on the board.
fn offset(c: Point, (dx, dy): (i8, i8), size: u8) -> Option<Point> {
    let x = c.x as i16 + dx as i16;
    let y = c.y as i16 - dy as i16;
    let on = (0..size as i16).contains(&x) && (0..size as i16).contains(&y);
    on.then(|| Point::new(x as u8, y as u8))
}

/// The offset of `p` from `c`, `dy` counted up.
fn delta(c: Point, p: Point) -> (i8, i8) {
    ((p.x as i16 - c.x as i16) as i8, (c.y as i16 - p.y as i16) as i8)
}

/// The 8 symmetries of the square about its centre, as maps of offsets.
pub(crate) const SYMMETRIES: [fn(Offset) -> Offset; 8] = [
    |(x, y)| (x, y),
    |(x, y)| (-y, x),
    |(x, y)| (-x, -y),
    |(x, y)| (y, -x),
    |(x, y)| (-x, y),
    |(x, y)| (x, -y),
    |(x, y)| (y, x),
    |(x, y)| (-y, -x),
];

/// The symmetry `s` (0 to 7, 0 the identity) applied to a point of a board `size` wide
/// (odd) about its centre; `None` on an even board.
pub fn transform(s: usize, p: Point, size: u8) -> Option<Point> {
    let c = centre(size)?;
    offset(c, SYMMETRIES[s % 8](delta(c, p)), size)
}

/// The canonical opening the first three moves of a Gomoku game make, whatever the rule:
/// black at the centre, white next to it, black within the central 5x5, matched under the
/// 8 symmetries. `None` for anything else (fewer than three moves, an even board, ...).
pub fn opening_name(size: u8, moves: &[Point]) -> Option<RenjuOpening> {
    let c = centre(size)?;
    let [first, second, third] = moves.get(..3)?.try_into().ok()?;
    if first != c {
        return None;
    }
    let (d2, d3) = (delta(c, second), delta(c, third));
    SYMMETRIES.iter().find_map(|s| {
        let (two, three) = (s(d2), s(d3));
        TABLE.iter().find(|row| row.1 == two && row.2 == three).map(|row| row.0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::notation;

    fn points(text: &str) -> Vec<Point> {
        text.split(',').map(|s| notation::parse_point(s, 15).unwrap()).collect()
    }

    #[test]
    fn the_table_is_the_rif_list_in_board_notation() {
        // 1D..13D then 1I..13I, as the canonical list writes them on a 15x15 board.
        let list =
            "h10 i10 j10 i9 j9 i8 j8 h7 i7 j7 h6 i6 j6 j10 j9 j8 j7 j6 i8 i7 i6 h7 h6 g7 g6 f6";
        for (opening, third) in RenjuOpening::ALL.iter().zip(list.split(' ')) {
            let second = if opening.is_direct() { "h9" } else { "i9" };
            let moves = points(&format!("h8,{second},{third}"));
            assert_eq!(opening.stones(15).unwrap().to_vec(), moves, "{opening:?}");
            assert_eq!(opening_name(15, &moves), Some(*opening), "{third}");
        }
        assert_eq!(RenjuOpening::Kagetsu.code(), "4D");
        assert_eq!(RenjuOpening::Hogetsu.code(), "7I");
        assert_eq!(RenjuOpening::Suisei.code(), "13I");
        assert_eq!(
            (RenjuOpening::Kagetsu.romaji(), RenjuOpening::Kagetsu.chinese()),
            ("Kagetsu", "花月")
        );
    }

    #[test]
    fn every_opening_is_recognised_in_all_eight_symmetries_on_any_odd_board() {
        for size in [15u8, 19, 7] {
            for opening in RenjuOpening::ALL {
                let stones = opening.stones(size).unwrap();
                let mut seen = std::collections::HashSet::new();
                for s in 0..8 {
                    let moved: Vec<Point> =
                        stones.iter().map(|&p| transform(s, p, size).unwrap()).collect();
                    seen.insert(moved.clone());
                    assert_eq!(opening_name(size, &moved), Some(opening), "{opening:?} s{s}");
                    // More moves after the third change nothing.
                    let mut longer = moved.clone();
                    longer.push(Point::new(0, 0));
                    assert_eq!(opening_name(size, &longer), Some(opening));
                }
                assert!(seen.len() >= 4, "{opening:?}: the symmetries moved the stones");
            }
        }
    }

    #[test]
    fn every_legal_three_stone_start_has_exactly_one_name() {
        let c = centre(15).unwrap();
        let mut count = std::collections::HashMap::new();
        for d2 in [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)] {
            for dx in -2..=2 {
                for dy in -2..=2 {
                    if (dx, dy) == (0, 0) || (dx, dy) == d2 {
                        continue;
                    }
                    let moves = [c, offset(c, d2, 15).unwrap(), offset(c, (dx, dy), 15).unwrap()];
                    let name = opening_name(15, &moves).expect("every such start is named");
                    *count.entry(name).or_insert(0) += 1;
                }
            }
        }
        assert_eq!(count.len(), 26);
    }

    #[test]
    fn other_starts_have_no_name() {
        assert_eq!(opening_name(15, &points("h8,h9")), None);
        assert_eq!(opening_name(15, &points("h9,h8,h10")), None, "first stone off centre");
        assert_eq!(opening_name(15, &points("h8,h10,h9")), None, "second stone too far");
        assert_eq!(opening_name(15, &points("h8,h9,h11")), None, "third stone too far");
        assert_eq!(opening_name(16, &[Point::new(8, 8), Point::new(8, 7), Point::new(8, 6)]), None);
    }
}

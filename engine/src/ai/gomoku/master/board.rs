//! Master's own board: a padded 1-D array with edge sentinels, line keys per cell and
//! direction, and per-cell threat classes, all updated incrementally by `make`/`unmake`.
//!
//! Cells are addressed by a `usize` index into the padded array; [`Board::index`] and
//! [`Board::point`] convert to and from board coordinates.

use std::sync::OnceLock;

use super::eval::{self, CellValue};
use super::nnue;
use super::pattern::{combine, p4, PatternTable, BLACK, EDGE, EMPTY, HALF, WHITE};
use crate::gomoku::line::{key_of, slot_shift};
use crate::gomoku::{zobrist, Rule};
use crate::{Color, Point};

/// Edge cells around the board (at least the half width of a line key).
const PAD: usize = HALF as usize;

/// Offsets (dx, dy) of the cells that become candidates when a stone is placed: every cell
/// within two steps on the eight lines.
const NEAR: [(i32, i32); 16] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-2, -2),
    (0, -2),
    (2, -2),
    (-2, 0),
    (2, 0),
    (-2, 2),
    (0, 2),
    (2, 2),
];

/// Room for the padded board's cell indices (a power of two, more than a 26x26 board's
/// 1,152).
const CAP: usize = 2048;

/// One value per cell index of the padded board. An index is masked into range, which
/// costs less than a bound check in the hot loops and can never fail; every index the
/// board computes is already in range (checked in debug builds).
#[derive(Clone)]
struct CellArray<T>(Box<[T; CAP]>);

impl<T: Copy> CellArray<T> {
    fn new(value: T) -> CellArray<T> {
        CellArray(vec![value; CAP].into_boxed_slice().try_into().ok().expect("CAP cells"))
    }
}

impl<T> std::ops::Index<usize> for CellArray<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < CAP);
        &self.0[i & (CAP - 1)]
    }
}

impl<T> std::ops::IndexMut<usize> for CellArray<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < CAP);
        &mut self.0[i & (CAP - 1)]
    }
}

/// Number of line patterns (`Pat` values).
const PATS: usize = 12;

/// Threat class and line-pattern set of a cell for every combination of its four line
/// patterns, for ordinary sides and for Renju black.
struct Summary {
    /// `(set << 4) | class`, for ordinary sides [0] and Renju black [1]: the set
    /// ([`eval::set_id`]; 0, worth nothing, for a forbidden point) gives the cell's evaluation
    /// share ([`eval::set_value`]). 16 bits an entry keep the tables small.
    packed: [Vec<u16>; 2],
}

impl Summary {
    fn get() -> &'static Summary {
        static SUMMARY: OnceLock<Summary> = OnceLock::new();
        SUMMARY.get_or_init(|| {
            let n = PATS * PATS * PATS * PATS;
            let mut packed = [vec![0u16; n], vec![0u16; n]];
            for (rb, table) in packed.iter_mut().enumerate() {
                for (idx, out) in table.iter_mut().enumerate() {
                    let pats = [
                        (idx / (PATS * PATS * PATS)) as u8,
                        (idx / (PATS * PATS) % PATS) as u8,
                        (idx / PATS % PATS) as u8,
                        (idx % PATS) as u8,
                    ];
                    let c = combine(pats, rb == 1);
                    let set = if c == p4::FORBID { 0 } else { eval::set_id(&pats) };
                    assert!((set as usize) < eval::SETS && (c as usize) < 16);
                    debug_assert_eq!(eval::set_value(set), eval::cell_value(&pats, c));
                    *out = (set << 4) | c as u16;
                }
            }
            Summary { packed }
        })
    }
}

#[inline]
fn summary_index(p: &[u8; 4]) -> usize {
    ((p[0] as usize * PATS + p[1] as usize) * PATS + p[2] as usize) * PATS + p[3] as usize
}

/// The incremental board.
#[derive(Clone)]
pub struct Board {
    size: usize,
    stride: usize,
    rule: Rule,
    table: &'static PatternTable,
    /// The summary table's row for each colour (Renju black has its own).
    rows: [&'static [u16]; 2],
    /// Index steps of the four directions: horizontal, vertical, two diagonals.
    dirs: [isize; 4],
    near_steps: [isize; 16],
    cells: CellArray<u8>,
    codes: CellArray<[u32; 4]>,
    /// `pats[cell][color][dir]`: the line pattern a stone of `color` would make.
    pats: CellArray<[[u8; 4]; 2]>,
    /// `classes[color][cell]`: the threat class of the cell for `color` (NONE when occupied
    /// and on the edge).
    classes: [CellArray<u8>; 2],
    /// `sets[cell][color]`: the cell's line-pattern set, which gives its share of the
    /// evaluation (0, worth nothing, when occupied or forbidden).
    sets: CellArray<[u16; 2]>,
    sums: [CellValue; 2],
    acc: [nnue::Acc; 2],
    counts: [[u16; p4::COUNT]; 2],
    near: CellArray<u8>,
    zobrist: CellArray<[u64; 2]>,
    hash: u64,
    side: usize,
    history: Vec<usize>,
    /// Every on-board cell index, row by row.
    board_cells: Vec<usize>,
    /// What each move changed, so that `unmake` restores it instead of recomputing it.
    undo: UndoStack,
}

/// One empty cell's summary as it was before a move changed it.
#[derive(Clone, Copy)]
struct SavedCell {
    cell: u32,
    pats: [[u8; 4]; 2],
    classes: [u8; 2],
    sets: [u16; 2],
}

/// The board's totals before a move, and where its saved cells start.
#[derive(Clone, Copy)]
struct Frame {
    saved_from: u32,
    sums: [CellValue; 2],
    acc: [nnue::Acc; 2],
    counts: [[u16; p4::COUNT]; 2],
}

/// The changes of the moves made since the board was set up, newest last: `make` saves
/// each cell's summary before it first changes it (a move reaches each cell through one line
/// only, so each cell at most once per move), and `unmake` puts them back. The line codes
/// are not saved: toggling a stone is its own inverse.
#[derive(Clone, Default)]
struct UndoStack {
    frames: Vec<Frame>,
    cells: Vec<SavedCell>,
}

impl Board {
    /// An empty board of `size` (5..=26) under `rule`, black to move.
    pub fn new(size: u8, rule: Rule) -> Board {
        let size = size as usize;
        let stride = size + PAD;
        let rows = size + 2 * PAD + 1;
        let total = rows * stride + PAD;
        assert!(total <= CAP, "board size {size} out of range");
        let table = PatternTable::get(rule);
        let s = stride as isize;
        let dirs = [1, s, s + 1, s - 1];
        let near_steps = NEAR.map(|(dx, dy)| dx as isize + dy as isize * s);
        let mut board = Board {
            size,
            stride,
            rule,
            table,
            rows: {
                let packed = &Summary::get().packed;
                [&packed[(rule == Rule::Renju) as usize], &packed[0]]
            },
            dirs,
            near_steps,
            cells: CellArray::new(EDGE),
            codes: CellArray::new([0; 4]),
            pats: CellArray::new([[0; 4]; 2]),
            classes: [CellArray::new(p4::NONE), CellArray::new(p4::NONE)],
            sets: CellArray::new([0; 2]),
            sums: [CellValue::default(); 2],
            acc: [nnue::Acc::default(); 2],
            counts: [[0; p4::COUNT]; 2],
            near: CellArray::new(0),
            zobrist: CellArray::new([0; 2]),
            hash: 0,
            side: 0,
            history: Vec::with_capacity(size * size),
            board_cells: Vec::with_capacity(size * size),
            undo: UndoStack::default(),
        };
        for y in 0..size {
            for x in 0..size {
                let i = board.raw_index(x, y);
                board.cells[i] = EMPTY;
                board.board_cells.push(i);
                // The game's own Zobrist keys, laid out by cell index.
                let p = Point::new(x as u8, y as u8);
                board.zobrist[i] = [zobrist::key(p, Color::Black), zobrist::key(p, Color::White)];
            }
        }
        // Line keys see the edges beyond the board; everything else starts empty.
        for ci in 0..board.board_cells.len() {
            let i = board.board_cells[ci];
            for d in 0..4 {
                let step = board.dirs[d];
                board.codes[i][d] =
                    key_of(|k| board.cells[(i as isize + k as isize * step) as usize]);
            }
        }
        for ci in 0..board.board_cells.len() {
            let i = board.board_cells[ci];
            board.counts[0][p4::NONE as usize] += 1;
            board.counts[1][p4::NONE as usize] += 1;
            board.refresh(i);
        }
        board
    }

    #[inline]
    fn raw_index(&self, x: usize, y: usize) -> usize {
        (y + PAD) * self.stride + x + PAD
    }

    /// The cell index of an on-board point.
    #[inline]
    pub fn index(&self, p: Point) -> usize {
        self.raw_index(p.x as usize, p.y as usize)
    }

    /// The point of a cell index.
    #[inline]
    pub fn point(&self, i: usize) -> Point {
        let y = i / self.stride - PAD;
        let x = i % self.stride - PAD;
        Point::new(x as u8, y as u8)
    }

    /// The Chebyshev distance of two on-board cells (the king's moves between them).
    #[inline]
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let (ay, ax) = (a / self.stride, a % self.stride);
        let (by, bx) = (b / self.stride, b % self.stride);
        ay.abs_diff(by).max(ax.abs_diff(bx))
    }

    pub fn size(&self) -> usize {
        self.size
    }
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// 0 black, 1 white.
    #[inline]
    pub fn side(&self) -> usize {
        self.side
    }
    #[inline]
    pub fn hash(&self) -> u64 {
        let salt = (self.rule as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        self.hash ^ (self.side as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt
    }
    #[inline]
    pub fn ply(&self) -> usize {
        self.history.len()
    }
    pub fn history(&self) -> &[usize] {
        &self.history
    }
    pub fn last_move(&self) -> Option<usize> {
        self.history.last().copied()
    }
    #[inline]
    pub fn is_empty(&self, i: usize) -> bool {
        self.cells[i] == EMPTY
    }
    /// Cell content: EMPTY, BLACK, WHITE or EDGE.
    #[inline]
    pub fn cell(&self, i: usize) -> u8 {
        self.cells[i]
    }
    /// Whether a stone is within two steps on a line (a candidate cell).
    #[inline]
    pub fn is_near(&self, i: usize) -> bool {
        self.near[i] > 0
    }
    /// Threat class of cell `i` for colour index `c`.
    #[inline]
    pub fn class(&self, i: usize, c: usize) -> u8 {
        self.classes[c][i]
    }
    /// Line pattern of cell `i` for colour index `c` in direction `d`.
    #[inline]
    pub fn pat(&self, i: usize, c: usize, d: usize) -> u8 {
        self.pats[i][c][d]
    }
    /// How many empty cells have class `class` for colour index `c`.
    #[inline]
    pub fn count(&self, c: usize, class: u8) -> u16 {
        self.counts[c][class as usize]
    }
    /// Whether colour `c` has a five point (a four on the board).
    #[inline]
    pub fn has_five(&self, c: usize) -> bool {
        self.counts[c][p4::A_FIVE as usize] > 0
    }
    /// Whether colour `c` can make an open four or a double four in one move.
    #[inline]
    pub fn has_flex4(&self, c: usize) -> bool {
        self.counts[c][p4::B_FLEX4 as usize] > 0
    }
    /// Whether colour `c` can make any four in one move.
    #[inline]
    pub fn has_four_move(&self, c: usize) -> bool {
        (p4::A_FIVE..=p4::E_BLOCK4).any(|k| self.counts[c][k as usize] > 0)
    }

    /// The network accumulators of both colours.
    #[inline]
    pub fn acc(&self) -> &[nnue::Acc; 2] {
        &self.acc
    }

    /// The evaluation sums of both colours.
    #[inline]
    pub fn sums(&self) -> [CellValue; 2] {
        self.sums
    }
    pub fn dir_step(&self, d: usize) -> isize {
        self.dirs[d]
    }
    pub fn board_cells(&self) -> &[usize] {
        &self.board_cells
    }
    /// One past the largest on-board cell index: the length of a table indexed by cell.
    pub fn index_end(&self) -> usize {
        self.board_cells.last().map_or(0, |&i| i + 1)
    }
    /// Whether the cell is forbidden for black (Renju only; by this board's line logic).
    #[inline]
    pub fn is_forbidden(&self, i: usize) -> bool {
        self.classes[0][i] == p4::FORBID
    }

    /// Empty cells where colour `c` has class `class`.
    pub fn cells_of_class(&self, c: usize, class: u8, out: &mut Vec<usize>) {
        out.clear();
        self.push_cells_of_classes(c, &[class], out);
    }

    /// Appends the empty cells where colour `c` has each class of `classes`: class by class,
    /// each in board order.
    pub fn push_cells_of_classes(&self, c: usize, classes: &[u8], out: &mut Vec<usize>) {
        for &class in classes {
            let left = self.counts[c][class as usize];
            if left > 0 {
                push_class_cells(&self.classes[c].0[..], self.board_cells[0], class, left, out);
            }
        }
    }

    /// The five points of colour `c`: the cells where it completes a five (class A).
    pub fn five_points(&self, c: usize, out: &mut Vec<usize>) {
        self.cells_of_class(c, p4::A_FIVE, out);
    }

    /// The five points of colour `c` on the lines through `m`: how many, and one of them.
    pub fn five_points_through(&self, m: usize, c: usize) -> (usize, usize) {
        let mut n = 0;
        let mut first = 0;
        self.for_line_cells(m, |_, _, j| {
            if self.cells[j] == EMPTY && self.classes[c][j] == p4::A_FIVE {
                if n == 0 {
                    first = j;
                }
                n += 1;
            }
        });
        (n, first)
    }

    /// What a stone of the side to move on empty cell `i` would leave, without placing it:
    /// whether the opponent would still have an open-four or double-four point (class
    /// B), and whether the mover would have a five point (class A). The same answer as
    /// `make(i)` followed by [`Board::has_flex4`] and [`Board::has_five`], computed from the
    /// cells on the four lines through `i` (the only ones a stone changes) at a fraction of
    /// the cost; move generation tries every defence against an open three this way.
    pub fn after_stone(&self, i: usize) -> (bool, bool) {
        debug_assert_eq!(self.cells[i], EMPTY);
        let me = self.side;
        let opp = me ^ 1;
        let color = me as u8 + 1;
        // Class-B points of the opponent and class-A points of the mover among the cells
        // the stone changes (before and after it), `i` itself included: it becomes occupied.
        let (mut flex_before, mut five_before) = (0u16, 0u16);
        let (mut flex_after, mut five_after) = (false, false);
        flex_before += (self.classes[opp][i] == p4::B_FLEX4) as u16;
        five_before += (self.classes[me][i] == p4::A_FIVE) as u16;
        self.for_line_cells(i, |d, k, j| {
            if self.cells[j] != EMPTY {
                return;
            }
            let both = self.table.pats(self.codes[j][d] ^ (color as u32) << slot_shift(-k));
            let class_after = |c: usize| {
                let new = (both >> (4 * c)) & 15;
                if self.pats[j][c][d] == new {
                    return self.classes[c][j];
                }
                self.class_with(j, c, d, new)
            };
            flex_before += (self.classes[opp][j] == p4::B_FLEX4) as u16;
            five_before += (self.classes[me][j] == p4::A_FIVE) as u16;
            flex_after |= class_after(opp) == p4::B_FLEX4;
            five_after |= class_after(me) == p4::A_FIVE;
        });
        (
            flex_after || self.counts[opp][p4::B_FLEX4 as usize] > flex_before,
            five_after || self.counts[me][p4::A_FIVE as usize] > five_before,
        )
    }

    /// Whether a stone of the side to move on empty cell `i` (not a forbidden point) defends
    /// against the opponent's open-four and double-four points `flex` (all of them, class
    /// B): it leaves the opponent none, or it makes a four. The same answer as
    /// [`Board::after_stone`], faster: a stone only takes patterns away from the other
    /// colour, so only the points of `flex` on a line through `i` need a look, and, for
    /// Renju black, its forbidden points there (`unforbids_flex4`). When the mover already
    /// has a five point, it asks `after_stone`.
    pub fn is_defence(&self, i: usize, flex: &[usize]) -> bool {
        let me = self.side;
        let opp = me ^ 1;
        if self.counts[me][p4::A_FIVE as usize] > 0 {
            let (opp_flex4, own_five) = self.after_stone(i);
            return !opp_flex4 || own_five;
        }
        // No five point before, so one after needs a four through `i`.
        if p4::is_four(self.classes[me][i]) {
            return true;
        }
        let color = me as u8 + 1;
        let all_gone = flex.iter().all(|&f| {
            if f == i {
                return true;
            }
            let Some((d, k)) = self.line_offset(f, i) else { return false };
            let code = self.codes[f][d] ^ (color as u32) << slot_shift(k);
            let new = (self.table.pats(code) >> (4 * opp)) & 15;
            if new == self.pats[f][opp][d] {
                return false;
            }
            self.class_with(f, opp, d, new) != p4::B_FLEX4
        });
        // Renju black's patterns only weaken under a white stone, but a forbidden point
        // whose second four or three is blocked may become an open-four point.
        let renju_black = opp == 0 && self.rule == Rule::Renju;
        all_gone
            && !(renju_black && self.counts[0][p4::FORBID as usize] > 0 && self.unforbids_flex4(i))
    }

    /// Whether a white stone on empty cell `i` would turn one of black's forbidden points
    /// (Renju) on the lines through `i` into an open-four or double-four point.
    fn unforbids_flex4(&self, i: usize) -> bool {
        let mut found = false;
        self.for_line_cells(i, |d, k, j| {
            if self.cells[j] == EMPTY && self.classes[0][j] == p4::FORBID {
                let code = self.codes[j][d] ^ (WHITE as u32) << slot_shift(-k);
                found |= self.class_with(j, 0, d, self.table.pat(code, 0)) == p4::B_FLEX4;
            }
        });
        found
    }

    /// Calls `f(direction, signed distance from i, cell)` for each cell on the four lines
    /// through `i` within a line key's reach, up to the board's edge.
    #[inline(always)]
    fn for_line_cells(&self, i: usize, mut f: impl FnMut(usize, i32, usize)) {
        for d in 0..4 {
            let step = self.dirs[d];
            for sign in [-1i32, 1] {
                for k in 1..=HALF {
                    let j = (i as isize + (sign * k) as isize * step) as usize;
                    if self.cells[j] == EDGE {
                        break;
                    }
                    f(d, sign * k, j);
                }
            }
        }
    }

    /// The direction and signed distance (1..=5 either way) of cell `i` from cell `f`, when
    /// `i` is on one of `f`'s four lines within a line key's reach. (The padding keeps a
    /// step that runs off the board's side on edge cells, so an index difference is a line.)
    #[inline]
    fn line_offset(&self, f: usize, i: usize) -> Option<(usize, i32)> {
        let delta = i as isize - f as isize;
        (0..4).find_map(|d| {
            let step = self.dirs[d];
            let k = delta / step;
            (delta % step == 0 && k != 0 && k.abs() <= HALF as isize).then_some((d, k as i32))
        })
    }

    /// Places a stone of the side to move on empty cell `i`.
    pub fn make(&mut self, i: usize) {
        debug_assert_eq!(self.cells[i], EMPTY);
        let color = self.side as u8 + 1;
        self.undo.frames.push(Frame {
            saved_from: self.undo.cells.len() as u32,
            sums: self.sums,
            acc: self.acc,
            counts: self.counts,
        });
        self.save(i);
        self.cells[i] = color;
        self.hash ^= self.zobrist[i][self.side];
        self.history.push(i);
        self.update_around(i, color);
        self.refresh(i);
        for s in self.near_steps {
            let j = (i as isize + s) as usize;
            self.near[j] += 1;
        }
        self.side ^= 1;
    }

    /// Gives the turn to the other side without a stone (a null move); passing again
    /// restores the position.
    #[inline]
    pub fn pass(&mut self) {
        self.side ^= 1;
    }

    /// Takes back the last move: the line codes toggled back, every cell summary the move
    /// changed restored from the undo stack.
    pub fn unmake(&mut self) {
        let Some(i) = self.history.pop() else { return };
        self.side ^= 1;
        let color = self.side as u8 + 1;
        self.cells[i] = EMPTY;
        self.hash ^= self.zobrist[i][self.side];
        self.toggle_codes(i, color);
        let frame = self.undo.frames.pop().expect("a frame per move made");
        for saved in self.undo.cells.drain(frame.saved_from as usize..) {
            let j = saved.cell as usize;
            self.pats[j] = saved.pats;
            self.classes[0][j] = saved.classes[0];
            self.classes[1][j] = saved.classes[1];
            self.sets[j] = saved.sets;
        }
        self.sums = frame.sums;
        self.acc = frame.acc;
        self.counts = frame.counts;
        for s in self.near_steps {
            let j = (i as isize + s) as usize;
            self.near[j] -= 1;
        }
    }

    /// Toggles `color` at `i` in the line codes of the cells around it and refreshes the
    /// empty ones (saving each cell's summary before it changes). The walk does not stop at
    /// the board's edge: the padding is a line key's reach wide, and the codes of edge cells
    /// are never read.
    #[inline(always)]
    fn update_around(&mut self, i: usize, color: u8) {
        for d in 0..4 {
            let step = self.dirs[d];
            for k in (-HALF..=HALF).filter(|&k| k != 0) {
                let j = (i as isize + k as isize * step) as usize;
                self.codes[j][d] ^= (color as u32) << slot_shift(-k);
                if self.cells[j] == EMPTY {
                    self.refresh_dir(j, d);
                }
            }
        }
    }

    /// Toggles `color` at `i` in the line codes of the cells around it, nothing else (edge
    /// cells included, as in [`Board::update_around`]).
    #[inline(always)]
    fn toggle_codes(&mut self, i: usize, color: u8) {
        for d in 0..4 {
            let step = self.dirs[d];
            for k in (-HALF..=HALF).filter(|&k| k != 0) {
                let j = (i as isize + k as isize * step) as usize;
                self.codes[j][d] ^= (color as u32) << slot_shift(-k);
            }
        }
    }

    /// Pushes cell `j`'s summary onto the undo stack.
    #[inline]
    fn save(&mut self, j: usize) {
        self.undo.cells.push(SavedCell {
            cell: j as u32,
            pats: self.pats[j],
            classes: [self.classes[0][j], self.classes[1][j]],
            sets: self.sets[j],
        });
    }

    /// Recomputes one direction's patterns of empty cell `j`, then its class and value.
    #[inline(always)]
    fn refresh_dir(&mut self, j: usize, d: usize) {
        let both = self.table.pats(self.codes[j][d]);
        let new = [both & 15, both >> 4];
        let old = [self.pats[j][0][d], self.pats[j][1][d]];
        if old == new {
            return;
        }
        self.save(j);
        for c in 0..2 {
            if old[c] != new[c] {
                self.pats[j][c][d] = new[c];
                self.set_summary(j, c, self.packed(c, &self.pats[j][c]));
            }
        }
    }

    /// Recomputes all patterns of cell `j` (after it was emptied or filled).
    fn refresh(&mut self, j: usize) {
        if self.cells[j] == EMPTY {
            for d in 0..4 {
                let code = self.codes[j][d];
                self.pats[j][0][d] = self.table.pat(code, 0);
                self.pats[j][1][d] = self.table.pat(code, 1);
            }
        } else {
            self.pats[j] = [[0; 4]; 2];
        }
        self.refresh_summary(j);
    }

    /// Colour `c`'s packed summary of an empty cell with line patterns `p`: its line-pattern
    /// set (bits 4..) and its class (bits 0..4).
    #[inline(always)]
    fn packed(&self, c: usize, p: &[u8; 4]) -> u16 {
        self.rows[c][summary_index(p)]
    }

    /// The class cell `j` would have for colour `c` with its pattern in direction `d`
    /// replaced by `pat`.
    #[inline]
    fn class_with(&self, j: usize, c: usize, d: usize, pat: u8) -> u8 {
        let mut p = self.pats[j][c];
        p[d] = pat;
        (self.packed(c, &p) & 15) as u8
    }

    fn refresh_summary(&mut self, j: usize) {
        self.refresh_color(j, 0);
        self.refresh_color(j, 1);
    }

    /// Recomputes the class and evaluation share of cell `j` for colour `c`.
    fn refresh_color(&mut self, j: usize, c: usize) {
        let packed =
            if self.cells[j] == EMPTY { self.packed(c, &self.pats[j][c]) } else { p4::NONE as u16 };
        self.set_summary(j, c, packed);
    }

    /// Sets cell `j`'s class and evaluation share for colour `c` to `packed` (a summary
    /// table entry), keeping the counts and sums.
    #[inline(always)]
    fn set_summary(&mut self, j: usize, c: usize, packed: u16) {
        let class = (packed & 15) as u8;
        let set = packed >> 4;
        let old = self.classes[c][j];
        if old != class {
            self.counts[c][old as usize] -= 1;
            self.counts[c][class as usize] += 1;
            self.classes[c][j] = class;
        }
        let old_set = self.sets[j][c];
        if old_set != set {
            self.sums[c].add(eval::set_value(set), eval::set_value(old_set));
            self.acc[c].update(set, old_set);
            self.sets[j][c] = set;
        }
    }

    /// Places stones without regard to turn order (for setting up positions), then sets the
    /// side to move.
    pub fn setup(&mut self, stones: &[(usize, u8)], side: usize) {
        for &(i, color) in stones {
            self.side = (color - BLACK) as usize;
            self.make(i);
        }
        self.side = side;
    }
}

/// Appends the first `left` indices from `from` on where `row` holds `class` (there are at
/// least that many), in order. Eight cells at a time: a word with no byte equal to `class`
/// is skipped whole.
#[inline]
fn push_class_cells(row: &[u8], from: usize, class: u8, mut left: u16, out: &mut Vec<usize>) {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let splat = ONES * class as u64;
    let mut start = from;
    for chunk in row[from..].chunks(8) {
        let skip = chunk.len() == 8 && {
            let x = u64::from_ne_bytes(chunk.try_into().expect("eight bytes")) ^ splat;
            // No byte of `x` is zero.
            x.wrapping_sub(ONES) & !x & HIGHS == 0
        };
        if !skip {
            for (k, &b) in chunk.iter().enumerate() {
                if b == class {
                    out.push(start + k);
                    left -= 1;
                    if left == 0 {
                        return;
                    }
                }
            }
        }
        start += chunk.len();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The eight-at-a-time class scan finds what a plain scan finds: rows of every length
    /// (whole words and a tail), classes that fill a word, are rare, or have the high bit set.
    #[test]
    fn the_class_scan_matches_a_plain_scan() {
        let mut rng = Rng::new(31);
        for round in 0..4000 {
            let len = 1 + rng.below(70) as usize;
            let alphabet = [2, 3, 16, 256][round % 4];
            let row: Vec<u8> = (0..len).map(|_| rng.below(alphabet) as u8).collect();
            let from = rng.below(len as u64) as usize;
            let class = row[from + rng.below((len - from) as u64) as usize];
            let all: Vec<usize> = (from..len).filter(|&i| row[i] == class).collect();
            let left = 1 + rng.below(all.len() as u64) as usize;
            let mut out = vec![usize::MAX];
            push_class_cells(&row, from, class, left as u16, &mut out);
            assert_eq!(out[0], usize::MAX, "appends");
            assert_eq!(&out[1..], &all[..left], "{row:?} from {from} class {class} left {left}");
        }
    }

    /// `rows` followed by empty rows up to 15 (a 15x15 board from its top rows).
    pub fn pad(rows: &[&'static str]) -> Vec<&'static str> {
        let mut v = rows.to_vec();
        while v.len() < 15 {
            v.push("...............");
        }
        v
    }

    /// Freestyle: black's open twos g11-g10 (column) and i8-j8 (row) cross at g8, where a
    /// black stone makes two open threes at once; three white stones stand apart. `side` is
    /// to move (0 black, 1 white).
    pub fn crossing_twos(side: usize) -> Board {
        board_from(
            &pad(&[
                "...............",
                "...............",
                "...............",
                "...............",
                "......x........",
                "......x........",
                "...............",
                "........xx.....",
                "..........o....",
                "..o............",
                "...o...........",
            ]),
            Rule::Freestyle,
            side,
        )
    }

    /// A board from rows of text (`x` black, `o` white, anything else empty), top row first.
    pub fn board_from(rows: &[&str], rule: Rule, side: usize) -> Board {
        let mut b = Board::new(rows.len() as u8, rule);
        let mut stones = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let i = b.index(Point::new(x as u8, y as u8));
                match ch {
                    'x' => stones.push((i, BLACK)),
                    'o' => stones.push((i, super::super::pattern::WHITE)),
                    _ => {}
                }
            }
        }
        b.setup(&stones, side);
        b
    }

    #[derive(Clone, PartialEq)]
    struct Snapshot {
        cells: Vec<u8>,
        codes: Vec<[u32; 4]>,
        pats: Vec<[[u8; 4]; 2]>,
        classes: [Vec<u8>; 2],
        sets: Vec<[u16; 2]>,
        sums: [CellValue; 2],
        acc: [nnue::Acc; 2],
        counts: [[u16; p4::COUNT]; 2],
        hash: u64,
        near: Vec<u8>,
    }

    fn snapshot(b: &Board) -> Snapshot {
        Snapshot {
            cells: b.cells.0.to_vec(),
            codes: b.codes.0.to_vec(),
            pats: b.pats.0.to_vec(),
            classes: b.classes.each_ref().map(|c| c.0.to_vec()),
            sets: b.sets.0.to_vec(),
            sums: b.sums,
            acc: b.acc,
            counts: b.counts,
            hash: b.hash(),
            near: b.near.0.to_vec(),
        }
    }

    #[test]
    fn make_unmake_restores_everything() {
        let mut b = Board::new(15, Rule::Renju);
        let start = snapshot(&b);
        let mut rng = Rng::new(5);
        let mut snaps = vec![start.clone()];
        for _ in 0..60 {
            let cells = b.board_cells().to_vec();
            let empty: Vec<usize> = cells.into_iter().filter(|&i| b.is_empty(i)).collect();
            let &i = rng.choose(&empty).unwrap();
            b.make(i);
            snaps.push(snapshot(&b));
        }
        while b.ply() > 0 {
            snaps.pop();
            b.unmake();
            assert!(snapshot(&b) == *snaps.last().unwrap());
        }
        assert!(snapshot(&b) == start);
    }

    /// Makes and unmakes at random under each rule (with null moves, passed and passed back
    /// as the search does): after every step the board is the one set up afresh from its
    /// stones, whatever was taken back before.
    #[test]
    fn random_makes_and_unmakes_match_a_fresh_board() {
        for (seed, rule) in [(3, Rule::Freestyle), (4, Rule::Standard), (5, Rule::Renju)] {
            let mut rng = Rng::new(seed);
            let mut b = Board::new(15, rule);
            for step in 0..400 {
                if b.ply() > 0 && (rng.below(3) == 0 || b.ply() > 90) {
                    b.unmake();
                } else {
                    let empty: Vec<usize> =
                        b.board_cells().iter().copied().filter(|&i| b.is_empty(i)).collect();
                    let null = rng.below(10) == 0;
                    if null {
                        b.pass();
                    }
                    b.make(*rng.choose(&empty).unwrap());
                    if null {
                        // The null move's reply, taken back, and the null move undone.
                        b.unmake();
                        b.pass();
                        b.make(*rng.choose(&empty).unwrap());
                    }
                }
                if step % 7 == 0 {
                    let stones: Vec<(usize, u8)> =
                        b.history().iter().map(|&i| (i, b.cell(i))).collect();
                    let mut fresh = Board::new(15, rule);
                    fresh.setup(&stones, b.side());
                    assert!(snapshot(&fresh) == snapshot(&b), "{rule:?} step {step}");
                }
            }
        }
    }

    /// `after_stone` and `is_defence` answer as a real stone does, on every empty cell of
    /// random games under each rule; the games pass through every answer, and through positions where
    /// the stone takes away the opponent's last open-four point.
    #[test]
    fn after_stone_matches_make() {
        for (seed, rule) in [(11, Rule::Freestyle), (12, Rule::Standard), (13, Rule::Renju)] {
            let mut rng = Rng::new(seed);
            // [flex before][flex after][five after] outcomes seen.
            let mut seen = [[[0u32; 2]; 2]; 2];
            for _game in 0..12 {
                let mut b = Board::new(15, rule);
                for _ in 0..70 {
                    let empty: Vec<usize> =
                        b.board_cells().iter().copied().filter(|&i| b.is_empty(i)).collect();
                    let me = b.side();
                    let flex_before = b.has_flex4(me ^ 1);
                    let mut flex = Vec::new();
                    b.cells_of_class(me ^ 1, p4::B_FLEX4, &mut flex);
                    for &i in &empty {
                        let fast = b.after_stone(i);
                        let defence = b.is_defence(i, &flex);
                        b.make(i);
                        let slow = (b.has_flex4(me ^ 1), b.has_five(me));
                        b.unmake();
                        assert_eq!(fast, slow, "{rule:?} cell {i} after {:?}", b.history());
                        // A forbidden point is never a move (`is_defence` is not asked).
                        if !(me == 0 && rule == Rule::Renju && b.is_forbidden(i)) {
                            let want = !slow.0 || slow.1;
                            assert_eq!(defence, want, "{rule:?} cell {i} after {:?}", b.history());
                        }
                        seen[flex_before as usize][slow.0 as usize][slow.1 as usize] += 1;
                    }
                    // Mostly near the stones, so that lines grow into threats.
                    let near: Vec<usize> =
                        empty.iter().copied().filter(|&i| b.is_near(i)).collect();
                    let pool = if near.is_empty() || rng.below(8) == 0 { &empty } else { &near };
                    b.make(*rng.choose(pool).unwrap());
                    if b.has_five(0) && b.has_five(1) {
                        break;
                    }
                }
            }
            for (flex, after, five) in [(1, 0, 0), (1, 1, 0), (0, 0, 1), (1, 1, 1), (0, 0, 0)] {
                assert!(seen[flex][after][five] > 0, "{rule:?}: no case {flex}{after}{five}");
            }
        }
    }

    /// The incremental sums (table and network) are the sums over the empty cells' sets,
    /// whatever the sets are after random games under each rule.
    #[test]
    fn the_sums_are_sums_over_the_cells_sets() {
        for (seed, rule) in [(21, Rule::Freestyle), (22, Rule::Renju)] {
            let mut rng = Rng::new(seed);
            let mut b = Board::new(15, rule);
            for _ in 0..120 {
                let empty: Vec<usize> =
                    b.board_cells().iter().copied().filter(|&i| b.is_empty(i)).collect();
                if empty.is_empty() {
                    break;
                }
                b.make(*rng.choose(&empty).unwrap());
                for c in 0..2 {
                    let mut sum = CellValue::default();
                    let mut acc = nnue::Acc::default();
                    for &i in b.board_cells() {
                        sum.add(eval::set_value(b.sets[i][c]), CellValue::default());
                        acc.update(b.sets[i][c], 0);
                        if !b.is_empty(i) {
                            assert_eq!(b.sets[i][c], 0, "an occupied cell has no set");
                        }
                    }
                    assert_eq!(sum, b.sums[c], "{rule:?} colour {c}");
                    assert_eq!(acc, b.acc[c], "{rule:?} colour {c}");
                }
            }
        }
    }

    #[test]
    fn incremental_matches_fresh_setup() {
        let mut rng = Rng::new(9);
        let mut b = Board::new(13, Rule::Freestyle);
        for _ in 0..40 {
            let empty: Vec<usize> =
                b.board_cells().iter().copied().filter(|&i| b.is_empty(i)).collect();
            b.make(*rng.choose(&empty).unwrap());
        }
        let stones: Vec<(usize, u8)> =
            b.history().iter().map(|&i| (i, b.cell(i))).collect::<Vec<_>>();
        let mut fresh = Board::new(13, Rule::Freestyle);
        fresh.setup(&stones, b.side());
        assert!(snapshot(&fresh) == snapshot(&b));
    }

    #[test]
    fn distance_counts_king_moves_across_the_padding() {
        let b = Board::new(15, Rule::Freestyle);
        let at = |x, y| b.index(Point::new(x, y));
        assert_eq!(b.distance(at(7, 7), at(7, 7)), 0);
        assert_eq!(b.distance(at(0, 0), at(14, 14)), 14);
        assert_eq!(b.distance(at(14, 0), at(0, 1)), 14);
        assert_eq!(b.distance(at(3, 9), at(8, 7)), 5);
        assert_eq!(b.distance(at(8, 7), at(3, 9)), 5);
        // Every pair agrees with the points' coordinates.
        for &i in b.board_cells() {
            for &j in b.board_cells().iter().step_by(7) {
                let (p, q) = (b.point(i), b.point(j));
                let d = p.x.abs_diff(q.x).max(p.y.abs_diff(q.y)) as usize;
                assert_eq!(b.distance(i, j), d);
            }
        }
    }

    #[test]
    fn classes_see_threats() {
        let b = board_from(
            &[
                ".........",
                ".........",
                "..xxx....",
                ".........",
                "....oooo.",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
            Rule::Freestyle,
            0,
        );
        let at = |x, y| b.index(Point::new(x, y));
        assert_eq!(b.class(at(1, 2), 0), p4::B_FLEX4);
        assert_eq!(b.class(at(5, 2), 0), p4::B_FLEX4);
        assert_eq!(b.class(at(3, 4), 1), p4::A_FIVE);
        assert_eq!(b.class(at(8, 4), 1), p4::A_FIVE);
        assert!(b.has_five(1));
        assert!(!b.has_five(0));
        assert!(b.has_flex4(0));
        let mut v = Vec::new();
        b.cells_of_class(1, p4::A_FIVE, &mut v);
        assert_eq!(v, vec![at(3, 4), at(8, 4)]);
    }

    #[test]
    fn renju_forbidden_points() {
        // A double three for black at (4,4); a four-four at (4,8)... on a 15 board.
        let b = board_from(
            &[
                "...............",
                "...............",
                "....x..........",
                "....x..........",
                "..xx...........",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
            ],
            Rule::Renju,
            0,
        );
        let at = |x, y| b.index(Point::new(x, y));
        assert!(b.is_forbidden(at(4, 4)));
        assert!(!b.is_forbidden(at(5, 4)));
        let free = board_from(
            &[
                "...............",
                "...............",
                "....x..........",
                "....x..........",
                "..xx...........",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
            ],
            Rule::Freestyle,
            0,
        );
        assert_eq!(free.class(at(4, 4), 0), p4::F_FLEX3_2X);
    }
}

//! The exact search over the empty squares.
//!
//! * [`Search::pvs`]: principal-variation search for the root and PV nodes (full window,
//!   collects the principal variation);
//! * [`Search::nws`]: null-window search (`beta = alpha + 1`) dispatching by the number of
//!   empty squares:
//!   - more than [`SHALLOW_MAX`]: transposition table, stability cutoff, move list sorted
//!     fastest-first (hash move first), from [`SORT_EVAL_MIN`] empties refined by a search
//!     of the pattern evaluation; in a selective pass ([`Search::level`] below `EXACT`),
//!     from `PROBCUT_MIN` empties, ProbCut (`probcut.rs`);
//!   - 5..=[`SHALLOW_MAX`]: no table, no list: moves in odd-parity quadrants first, then by
//!     static square classes;
//!   - 1..=4: the special code in `last.rs`.
//!
//! Scores are final disc differences for the side to move, fail-soft (in a selective pass
//! only likely).

use std::mem::MaybeUninit;

use crate::ai::CancelFlag;

use super::bits::{bit, final_score, flips, moves, parity_of, PARITY_MASK, PRIORITY, QUADRANT};
use super::features::Features;
use super::midgame::{MidEval, DISC};
use super::order::fast_score;
use super::probcut::{try_cut, CONFIDENCE, PROBCUT_MIN};
use super::stability::stable_count;
use super::tt::{Table, TableRef, EXACT, NO_MOVE};

/// Deepest node (in empty squares) searched without the table and without a move list.
pub const SHALLOW_MAX: u32 = 6;

/// From this many empties on, deep nodes look for a child whose stored bound already
/// refutes alpha (enhanced transposition cutoff). Children are stored from
/// `SHALLOW_MAX + 1` empties, so this is the lowest useful value (it saves 4% of the nodes
/// against 12 on FFO #40–#44).
pub const ETC_MIN: u32 = SHALLOW_MAX + 2;

/// From this many empties on, the fastest-first score of a move is refined by a search of
/// the pattern evaluation after it (static value at 16, one reply deep at 17–18, two at
/// 19 and more). On FFO #40–#44 (before the selective pre-search) this took the nodes from
/// 275.1 M to 213.2 M; depths growing from 16/18/20 or 16/19/22 took 217.8 / 232.3 M, a
/// third ply from 22 empties 257.1 M.
pub const SORT_EVAL_MIN: u32 = 16;

/// Weight of one hundredth of a disc of the evaluation in a move's ordering score, where one
/// move less for the opponent is worth `1 << 15`: a disc of evaluation is worth about a
/// third of a move. On FFO #40–#44, weights 25 / 50 / 100 / 150 / 1000 took 284.3 / 249.7 /
/// 232.3 / 242.3 / 336.1 M nodes (depths 16/19/22).
const W_EVAL: i32 = 100;

/// Moves whose evaluation is this many discs below the node's alpha need no exact value
/// (the ordering search's window ends there).
const SORT_MARGIN: i32 = 8;

/// Depth of the evaluation search ordering the moves at `n` empties, if any.
#[inline]
fn sort_depth(n: u32) -> Option<u32> {
    match n {
        0..SORT_EVAL_MIN => None,
        SORT_EVAL_MIN => Some(0),
        17 | 18 => Some(1),
        _ => Some(2),
    }
}

/// "Pass" in a principal variation.
pub const PASS: u8 = 64;

pub(super) const INF: i32 = 65;

/// With at least this alpha (indexed by empty squares), a stability bound is worth trying.
static STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
];

/// One search: the node counter, the table and the cancel flag.
pub struct Search<'a> {
    pub nodes: u64,
    pub tt: TableRef<'a>,
    cancel: &'a CancelFlag,
    mid: MidEval,
    /// Selectivity level: [`EXACT`], or an index into [`CONFIDENCE`] for a selective
    /// (ProbCut) pass, whose scores are only likely.
    pub level: u8,
    /// Positions visited by the evaluation searches (ordering and ProbCut).
    pub eval_nodes: u64,
    /// Set once the cancel flag was seen; every score after that is meaningless.
    pub stopped: bool,
}

/// A move of the deep move list.
#[derive(Clone, Copy)]
struct Item {
    flipped: u64,
    /// The opponent's legal moves after this move.
    moves: u64,
    sq: u8,
    score: i32,
}

/// The moves of a node, with their flips and ordering scores.
struct MoveList {
    /// The first `len` are initialized (left uninitialized beyond: zeroing 1.5 KiB per
    /// node cost 3% of the time).
    items: [MaybeUninit<Item>; 64],
    len: usize,
}

impl MoveList {
    /// An empty list (nothing initialized).
    #[inline(always)]
    fn empty() -> MoveList {
        MoveList { items: [const { MaybeUninit::uninit() }; 64], len: 0 }
    }

    /// Fills the (empty) list with every legal move (`legal` is the legal-move bitboard),
    /// scored for ordering; the hash move gets the top score. From [`SORT_EVAL_MIN`]
    /// empties, a shallow search of the pattern evaluation after each move is added to its
    /// fastest-first score; `alpha` is the node's (moves far below it need no precise
    /// value). Filled in place: a list returned by value was copied (1.5 KiB, 2–3% of the
    /// time).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn fill(
        &mut self,
        tt: &Table,
        mid: &MidEval,
        p: u64,
        o: u64,
        mut legal: u64,
        n: u32,
        parity: u8,
        hash_move: u8,
        alpha: i32,
        eval_nodes: &mut u64,
    ) {
        // Children deep enough to probe the table: start loading their buckets now, in a
        // first pass over the moves, so that the loads overlap the scoring below (and the
        // enhanced transposition cutoff's probes right after it find them in the cache).
        let prefetch = n > SHALLOW_MAX + 1;
        let list = self;
        while legal != 0 {
            let sq = legal.trailing_zeros() as usize;
            legal &= legal - 1;
            let f = flips(p, o, sq);
            if prefetch {
                tt.prefetch(o & !f, p | f | bit(sq));
            }
            list.items[list.len] =
                MaybeUninit::new(Item { flipped: f, moves: 0, sq: sq as u8, score: 0 });
            list.len += 1;
        }
        let depth = sort_depth(n);
        let sort_beta = -(alpha - SORT_MARGIN) * DISC;
        // The pattern indices of this node, updated for each child searched.
        let features = depth.map(|_| Features::new(p, o));
        for item in list.items[..list.len].iter_mut() {
            // SAFETY: the first `len` items were written above.
            let item = unsafe { item.assume_init_mut() };
            let (sq, f) = (item.sq as usize, item.flipped);
            let (np, no) = (o & !f, p | f | bit(sq));
            let next_moves = moves(np, no);
            item.moves = next_moves;
            item.score = if sq as u8 == hash_move {
                i32::MAX
            } else if let (Some(d), Some(pf)) = (depth, &features) {
                let child = pf.play(sq, f);
                let v = -mid.search_with(&child, np, no, d, -(1 << 20), sort_beta, eval_nodes);
                fast_score(np, no, next_moves, sq, parity) + v * W_EVAL
            } else {
                fast_score(np, no, next_moves, sq, parity)
            };
        }
    }

    /// Moves the best remaining item to position `i` and returns it (selection sort, lazily:
    /// most nodes cut off after one or two moves).
    #[inline]
    fn pick(&mut self, i: usize) -> Item {
        let mut best = i;
        for j in i + 1..self.len {
            if self.items()[j].score > self.items()[best].score {
                best = j;
            }
        }
        self.items.swap(i, best);
        self.items()[i]
    }

    /// The moves.
    #[inline(always)]
    fn items(&self) -> &[Item] {
        // SAFETY: the first `len` items were written by `fill` (and `pick` only swaps
        // within them); `MaybeUninit<Item>` has the layout of `Item`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const Item, self.len) }
    }
}

impl<'a> Search<'a> {
    pub fn new(tt: &'a mut Table, cancel: &'a CancelFlag) -> Search<'a> {
        tt.allocate();
        Search::on(TableRef::Own(tt), cancel)
    }

    /// A search on a table other threads use too (allocated by the caller).
    pub fn shared(tt: &'a Table, cancel: &'a CancelFlag) -> Search<'a> {
        Search::on(TableRef::Shared(tt), cancel)
    }

    fn on(tt: TableRef<'a>, cancel: &'a CancelFlag) -> Search<'a> {
        Search {
            nodes: 0,
            tt,
            cancel,
            mid: MidEval::new(),
            level: EXACT,
            eval_nodes: 0,
            stopped: false,
        }
    }

    /// Null-window search of a position with `n` empty squares: fail-soft score, compared
    /// with the window `(alpha, alpha + 1)`.
    #[inline]
    pub fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8) -> i32 {
        match n {
            0 => {
                self.nodes += 1;
                final_score(p, 0)
            }
            1 => self.solve_1(p, (!(p | o)).trailing_zeros() as usize),
            2 => {
                let e = !(p | o);
                let x1 = e.trailing_zeros() as usize;
                let x2 = (e & (e - 1)).trailing_zeros() as usize;
                self.solve_2(p, o, alpha, x1, x2)
            }
            3 => {
                let mut e = !(p | o);
                let mut x = [0usize; 3];
                for s in &mut x {
                    *s = e.trailing_zeros() as usize;
                    e &= e - 1;
                }
                // The square alone in its quadrant first.
                if parity & QUADRANT[x[0]] == 0 {
                    if parity & QUADRANT[x[1]] != 0 {
                        x.swap(0, 1);
                    } else {
                        x.swap(0, 2);
                    }
                }
                self.solve_3(p, o, alpha, x)
            }
            4 => self.solve_4(p, o, alpha),
            n if n <= SHALLOW_MAX => self.shallow(p, o, alpha, n, parity),
            _ => self.deep(p, o, alpha, n, parity),
        }
    }

    /// Fills the empty `list` with the moves `legal` of `p` by [`MoveList::fill`], with this
    /// search's table, evaluation and node count.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn fill_moves(
        &mut self,
        list: &mut MoveList,
        p: u64,
        o: u64,
        legal: u64,
        n: u32,
        parity: u8,
        hash_move: u8,
        alpha: i32,
    ) {
        let eval_nodes = &mut self.eval_nodes;
        list.fill(self.tt.table(), &self.mid, p, o, legal, n, parity, hash_move, alpha, eval_nodes);
    }

    /// Stability cutoff: the side to move can score at most `64 - 2 * stable(o)`.
    #[inline(always)]
    pub(super) fn stability_cut(&self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        // Only `o`'s discs can be stable: when even all of them would not bring the bound
        // down to alpha, skip the stability computation.
        if alpha >= STABILITY_THRESHOLD[n as usize] && 64 - 2 * o.count_ones() as i32 <= alpha {
            let bound = 64 - 2 * stable_count(o, p);
            if bound <= alpha {
                return Some(bound);
            }
        }
        None
    }

    /// 5..=SHALLOW_MAX empties: parity and static order, no table.
    fn shallow(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8) -> i32 {
        self.shallow_with(p, o, alpha, n, parity, moves(p, o))
    }

    /// [`Search::shallow`] given the legal moves `legal` of `p`.
    #[inline]
    fn shallow_with(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8, legal: u64) -> i32 {
        self.nodes += 1;
        if let Some(bound) = self.stability_cut(p, o, alpha, n) {
            return bound;
        }
        if legal == 0 {
            let replies = moves(o, p);
            if replies == 0 {
                return final_score(p, n);
            }
            return -self.shallow_with(o, p, -alpha - 1, n, parity, replies);
        }
        let mut best = -INF;
        let odd = PARITY_MASK[parity as usize];
        for half in [legal & odd, legal & !odd] {
            if half == 0 {
                continue;
            }
            for class in PRIORITY {
                let mut m = half & class;
                while m != 0 {
                    let sq = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let f = flips(p, o, sq);
                    let (np, no) = (o & !f, p | f | bit(sq));
                    let child_parity = parity ^ QUADRANT[sq];
                    let v = if n == 5 {
                        -self.solve_4(np, no, -alpha - 1)
                    } else {
                        -self.shallow(np, no, -alpha - 1, n - 1, child_parity)
                    };
                    if v > best {
                        if v > alpha {
                            return v;
                        }
                        best = v;
                    }
                }
            }
        }
        best
    }

    /// More than SHALLOW_MAX empties: table, stability, fastest-first move list.
    fn deep(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8) -> i32 {
        self.deep_with(p, o, alpha, n, parity, moves(p, o))
    }

    /// [`Search::deep`] given the legal moves `legal` of `p` (the move list computed them
    /// for its ordering already).
    fn deep_with(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8, legal: u64) -> i32 {
        self.nodes += 1;
        if self.stopped {
            return alpha;
        }
        if self.cancel.is_cancelled() {
            self.stopped = true;
            return alpha;
        }
        self.tt.prefetch(p, o);
        if let Some(bound) = self.stability_cut(p, o, alpha, n) {
            return bound;
        }
        let hash_move = match self.table_cut(p, o, alpha) {
            Ok(mv) => mv,
            Err(bound) => return bound,
        };
        if legal == 0 {
            let replies = moves(o, p);
            if replies == 0 {
                return final_score(p, n);
            }
            return -self.deep_with(o, p, -alpha - 1, n, parity, replies);
        }
        if let Some(v) = self.probcut(p, o, alpha, n) {
            return v;
        }
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut rest = legal;
        // The hash move first, before any move list is built: it often cuts at once.
        if hash_move != NO_MOVE && legal & bit(hash_move as usize) != 0 {
            let sq = hash_move as usize;
            let f = flips(p, o, sq);
            best = -self.nws(o & !f, p | f | bit(sq), -alpha - 1, n - 1, parity ^ QUADRANT[sq]);
            if self.stopped {
                return alpha;
            }
            best_move = hash_move;
            if best > alpha {
                self.tt.store(p, o, n, self.level, (alpha, alpha + 1), best, best_move);
                return best;
            }
            rest &= !bit(sq);
        }
        if rest != 0 {
            let mut list = MoveList::empty();
            self.fill_moves(&mut list, p, o, rest, n, parity, NO_MOVE, alpha);
            if n >= ETC_MIN {
                for m in list.items() {
                    let np = o & !m.flipped;
                    let no = p | m.flipped | bit(m.sq as usize);
                    if let Some(hit) = self.tt.probe(np, no) {
                        let (_, upper) = hit.bounds(self.level);
                        if -upper > alpha {
                            return -upper;
                        }
                    }
                }
            }
            for i in 0..list.len {
                let m = list.pick(i);
                let sq = m.sq as usize;
                let (np, no) = (o & !m.flipped, p | m.flipped | bit(sq));
                let child_parity = parity ^ QUADRANT[sq];
                // As `nws` would dispatch (`n - 1 >= SHALLOW_MAX`: never the last-4 code),
                // with the child's legal moves already known.
                let v = if n - 1 > SHALLOW_MAX {
                    -self.deep_with(np, no, -alpha - 1, n - 1, child_parity, m.moves)
                } else {
                    -self.shallow_with(np, no, -alpha - 1, n - 1, child_parity, m.moves)
                };
                if self.stopped {
                    return alpha;
                }
                if v > best {
                    best = v;
                    best_move = m.sq;
                    if v > alpha {
                        break;
                    }
                }
            }
        }
        self.tt.store(p, o, n, self.level, (alpha, alpha + 1), best, best_move);
        best
    }

    /// The moves `legal` of `p` (with `n` empties and `parity`) in the order a deep node or
    /// [`Search::pvs`] searches them (`hash_move` first, then by [`MoveList::fill`]'s
    /// scores with the node's `alpha`), with their flips. For the split search
    /// (`parallel.rs`), which needs the whole order at once.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn sorted_moves(
        &mut self,
        p: u64,
        o: u64,
        legal: u64,
        n: u32,
        parity: u8,
        hash_move: u8,
        alpha: i32,
    ) -> Vec<(u8, u64)> {
        let mut list = MoveList::empty();
        self.fill_moves(&mut list, p, o, legal, n, parity, hash_move, alpha);
        (0..list.len).map(|i| list.pick(i)).map(|m| (m.sq, m.flipped)).collect()
    }

    /// Whether this search must stop (it was stopped, or its cancel flag is raised now).
    #[inline]
    pub(super) fn poll_stop(&mut self) -> bool {
        if !self.stopped && self.cancel.is_cancelled() {
            self.stopped = true;
        }
        self.stopped
    }

    /// The table's answer for a null-window node against `alpha`: `Err` with the bound that
    /// cuts the node, else `Ok` with the hash move ([`NO_MOVE`] when the position is not
    /// stored).
    #[inline(always)]
    pub(super) fn table_cut(&mut self, p: u64, o: u64, alpha: i32) -> Result<u8, i32> {
        let Some(hit) = self.tt.probe(p, o) else { return Ok(NO_MOVE) };
        let (lower, upper) = hit.bounds(self.level);
        if lower > alpha {
            Err(lower)
        } else if upper <= alpha {
            Err(upper)
        } else {
            Ok(hit.mv)
        }
    }

    /// In a selective pass, from `PROBCUT_MIN` empties: the ProbCut cut of a null-window
    /// node (as in [`Search::nws`]'s deep nodes), if any.
    #[inline]
    pub(super) fn probcut(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        if self.level != EXACT && n >= PROBCUT_MIN {
            let t = CONFIDENCE[self.level as usize];
            try_cut(&self.mid, p, o, alpha, n, t, &mut self.eval_nodes)
        } else {
            None
        }
    }

    /// Full-window principal-variation search; `pv` receives the principal variation
    /// (squares, [`PASS`] for a pass). Fail-soft.
    pub fn pvs(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, pv: &mut Vec<u8>) -> i32 {
        pv.clear();
        let empties = !(p | o);
        let n = empties.count_ones();
        let parity = parity_of(empties);
        self.nodes += 1;
        if self.stopped {
            return alpha;
        }
        if self.cancel.is_cancelled() {
            self.stopped = true;
            return alpha;
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, n);
            }
            let mut child = Vec::new();
            let v = -self.pvs(o, p, -beta, -alpha, &mut child);
            pv.push(PASS);
            pv.extend_from_slice(&child);
            return v;
        }
        let hash_move = self.tt.probe(p, o).map_or(NO_MOVE, |h| h.mv);
        let mut list = MoveList::empty();
        self.fill_moves(&mut list, p, o, legal, n, parity, hash_move, alpha);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut child = Vec::new();
        for i in 0..list.len {
            let m = list.pick(i);
            let sq = m.sq as usize;
            let (np, no) = (o & !m.flipped, p | m.flipped | bit(sq));
            let child_parity = parity ^ QUADRANT[sq];
            let mut v;
            if i == 0 {
                v = -self.pvs(np, no, -beta, -alpha, &mut child);
            } else {
                v = -self.nws(np, no, -alpha - 1, n - 1, child_parity);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.pvs(np, no, -beta, -alpha, &mut child);
                } else {
                    child.clear();
                }
            }
            if self.stopped {
                return alpha;
            }
            if v > best {
                best = v;
                best_move = m.sq;
                pv.clear();
                pv.push(m.sq);
                pv.extend_from_slice(&child);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.tt.store(p, o, n, self.level, (alpha0, beta), best, best_move);
        best
    }
}

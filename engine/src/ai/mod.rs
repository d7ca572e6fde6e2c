//! The computer players.
//!
//! Every level of both games implements [`Engine`]: `search(position, limits, cancel,
//! progress) -> SearchResult`. The app and the CLI only ever talk to this interface (or to
//! [`AnyEngine`], which picks the game), so a new level needs no change outside this module.

pub mod analysis;
pub mod control;
pub mod review;
mod types;

pub mod gomoku;
pub mod reversi;

pub use crate::level::{GomokuLevel, Level, ParseLevelError, ReversiLevel};
pub use control::limits_for;
pub use types::{Bound, CancelFlag, Candidate, Limits, PvLine, Score, SearchInfo, SearchResult};

/// One computer player for positions of type `P`.
pub trait Engine<P>: Send {
    /// Finds a move for the side to move in `pos`.
    ///
    /// * stops at the first of the limits reached, or soon after `cancel` is raised
    ///   (within 50 ms), answering with the best move found so far;
    /// * calls `progress` at least every 100 ms during a long search;
    /// * never returns an illegal move; returns [`crate::Move::Pass`] only when the rules
    ///   demand a pass. The caller must not ask for a move in a finished game.
    fn search(
        &mut self,
        pos: &P,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult;

    /// Multi-PV: up to `n` best moves of `pos` (n >= 1), best first, each with its score,
    /// bound, depth and principal variation; all legal moves when there are fewer than
    /// `n`, one [`crate::Move::Pass`] line when the rules demand a pass. Limits, `cancel`
    /// and `progress` work as for [`Engine::search`]. Levels without a multi-PV search
    /// answer with their single best move (and report the search's final info last).
    fn search_multi(
        &mut self,
        pos: &P,
        limits: &Limits,
        n: usize,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<PvLine> {
        let _ = n;
        let r = self.search(pos, limits, cancel, progress);
        progress(&r.info);
        vec![PvLine::from_result(&r)]
    }

    /// Forgets what was learnt from earlier searches (transposition table, history);
    /// called at the start of a new game.
    fn clear(&mut self) {}

    /// Searches with up to `threads` threads from the next search on (at least 1; see
    /// [`control::default_threads`] for the default of the app and the CLI). Levels that
    /// search on one thread ignore it.
    fn set_threads(&mut self, threads: usize) {
        let _ = threads;
    }

    /// Builds now what the first search of a position like `pos` would build on first use
    /// (such as the tables of its rule), so that a move's time goes to the search.
    fn prepare(&mut self, pos: &P) {
        let _ = pos;
    }

    /// Bytes the engine's search tables hold now (0 before the first search and after
    /// [`Engine::clear`]); levels without a table answer 0.
    fn table_bytes(&self) -> usize {
        0
    }
}

/// Runs a search of `engine` on `pos` with `limits` on a thread of its own and raises the
/// cancel flag `after` its start, unless it has answered by then. Gives the answer with the
/// time it took to come once the flag was up (`None`: it came before), or the search thread's
/// panic. For the bench's cancel measure and the engines' thread tests.
pub fn search_cancelled_after<P: Sync, E: Engine<P> + ?Sized>(
    engine: &mut E,
    pos: &P,
    limits: &Limits,
    after: std::time::Duration,
) -> std::thread::Result<(SearchResult, Option<std::time::Duration>)> {
    let cancel = CancelFlag::new();
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        let search = s.spawn(|| engine.search(pos, limits, &cancel, &mut |_| {}));
        while start.elapsed() < after && !search.is_finished() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let raised = std::time::Instant::now();
        let answered = search.is_finished();
        cancel.cancel();
        let r = search.join()?;
        Ok((r, (!answered).then(|| raised.elapsed())))
    })
}

/// A Gomoku engine of `level` (`seed` fixes its random choices among equal moves) that uses
/// about `memory` bytes at most (`None`: the level's default). Only Master keeps a table
/// large enough to size; the other levels use a few megabytes at most.
pub fn gomoku_engine(
    level: GomokuLevel,
    seed: u64,
    memory: Option<usize>,
) -> Box<dyn Engine<crate::gomoku::Position>> {
    match (level, memory) {
        (GomokuLevel::Master, Some(bytes)) => {
            Box::new(gomoku::master::Master::with_memory(seed, bytes))
        }
        _ => gomoku::new_engine(level, seed),
    }
}

/// The memory budget of the engines' tables when the caller sets none (Gomoku Master's
/// default; Reversi Master's two tables take as much).
pub const DEFAULT_MEMORY: usize = gomoku::master::DEFAULT_MEMORY;

/// An engine for either game, chosen by its [`Level`].
pub enum AnyEngine {
    Gomoku(Box<dyn Engine<crate::gomoku::Position>>),
    Reversi(Box<dyn Engine<crate::reversi::Position>>),
}

impl AnyEngine {
    /// A fresh engine for `level`; `seed` fixes its random choices among equal moves.
    pub fn new(level: Level, seed: u64) -> AnyEngine {
        match level {
            Level::Gomoku(l) => AnyEngine::Gomoku(gomoku::new_engine(l, seed)),
            Level::Reversi(l) => AnyEngine::Reversi(reversi::new_engine(l, seed)),
        }
    }

    /// A fresh engine for `level` whose tables take about `bytes` at most, never more than
    /// the machine's share ([`crate::memory::table_budget`]). The levels that keep a table
    /// (Gomoku Master, Reversi Strong and Master) size it from `bytes`; the others use a few
    /// megabytes whatever it says. [`DEFAULT_MEMORY`] gives the tables of [`AnyEngine::new`].
    pub fn with_memory(level: Level, seed: u64, bytes: usize) -> AnyEngine {
        match level {
            Level::Gomoku(l) => AnyEngine::Gomoku(gomoku_engine(l, seed, Some(bytes))),
            Level::Reversi(l) => AnyEngine::Reversi(reversi::engine_with_memory(l, seed, bytes)),
        }
    }

    /// See [`Engine::table_bytes`].
    pub fn table_bytes(&self) -> usize {
        match self {
            AnyEngine::Gomoku(e) => e.table_bytes(),
            AnyEngine::Reversi(e) => e.table_bytes(),
        }
    }

    /// Searches `pos`, or explains why it cannot (wrong game).
    pub fn search(
        &mut self,
        pos: &crate::game::Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchResult, AiError> {
        use crate::game::Position;
        match (self, pos) {
            (AnyEngine::Gomoku(e), Position::Gomoku(p)) => {
                Ok(e.search(p, limits, cancel, progress))
            }
            (AnyEngine::Reversi(e), Position::Reversi(p)) => {
                Ok(e.search(p, limits, cancel, progress))
            }
            _ => Err(AiError::WrongGame),
        }
    }

    /// Multi-PV search of `pos` (see [`Engine::search_multi`]), or why it cannot run.
    pub fn search_multi(
        &mut self,
        pos: &crate::game::Position,
        limits: &Limits,
        n: usize,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Vec<PvLine>, AiError> {
        use crate::game::Position;
        match (self, pos) {
            (AnyEngine::Gomoku(e), Position::Gomoku(p)) => {
                Ok(e.search_multi(p, limits, n, cancel, progress))
            }
            (AnyEngine::Reversi(e), Position::Reversi(p)) => {
                Ok(e.search_multi(p, limits, n, cancel, progress))
            }
            _ => Err(AiError::WrongGame),
        }
    }

    /// Live analysis of `pos` (see [`analysis::analyse`]), or why it cannot run.
    pub fn analyse(
        &mut self,
        pos: &crate::game::Position,
        n: usize,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
        lines: &mut dyn FnMut(&[PvLine]),
    ) -> Result<Vec<PvLine>, AiError> {
        use crate::game::Position;
        match (self, pos) {
            (AnyEngine::Gomoku(e), Position::Gomoku(p)) => {
                Ok(analysis::analyse(e.as_mut(), p, n, cancel, progress, lines))
            }
            (AnyEngine::Reversi(e), Position::Reversi(p)) => {
                Ok(analysis::analyse(e.as_mut(), p, n, cancel, progress, lines))
            }
            _ => Err(AiError::WrongGame),
        }
    }

    pub fn clear(&mut self) {
        match self {
            AnyEngine::Gomoku(e) => e.clear(),
            AnyEngine::Reversi(e) => e.clear(),
        }
    }

    /// See [`Engine::set_threads`].
    pub fn set_threads(&mut self, threads: usize) {
        match self {
            AnyEngine::Gomoku(e) => e.set_threads(threads),
            AnyEngine::Reversi(e) => e.set_threads(threads),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    #[error("this level plays a different game")]
    WrongGame,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;

    /// The table an engine holds after one short search, then after `clear`.
    fn held(mut engine: AnyEngine, pos: &Position) -> (usize, usize) {
        let (cancel, limits) = (CancelFlag::new(), Limits::depth(2));
        assert_eq!(engine.table_bytes(), 0, "nothing before the first search");
        engine.search(pos, &limits, &cancel, &mut |_| {}).unwrap();
        let during = engine.table_bytes();
        engine.clear();
        (during, engine.table_bytes())
    }

    #[test]
    fn tables_follow_the_memory_budget_and_clear_gives_them_back() {
        let mut gomoku = Position::Gomoku(
            crate::gomoku::Position::new(15, crate::gomoku::Rule::Freestyle).unwrap(),
        );
        // A few stones: Master answers the empty board without a search.
        for (x, y) in [(7, 7), (8, 8), (8, 7)] {
            gomoku.play(crate::Move::Place(crate::Point::new(x, y))).unwrap();
        }
        let reversi = Position::Reversi(crate::reversi::Position::initial());
        let gomoku_master = Level::Gomoku(GomokuLevel::Master);
        for (level, pos) in [
            (gomoku_master, &gomoku),
            (Level::Reversi(ReversiLevel::Master), &reversi),
            (Level::Reversi(ReversiLevel::Strong), &reversi),
        ] {
            let default = held(AnyEngine::new(level, 1), pos);
            let same = held(AnyEngine::with_memory(level, 1, DEFAULT_MEMORY), pos);
            let small = held(AnyEngine::with_memory(level, 1, 16 << 20), pos);
            let large = held(AnyEngine::with_memory(level, 1, 256 << 20), pos);
            assert!(default.0 > 0 && default.1 == 0, "{level:?}: {default:?}");
            assert_eq!(same, default, "{level:?}: the default budget gives the default tables");
            assert!(small.0 < default.0 && small.0 <= 16 << 20, "{level:?}: {small:?}");
            assert!(large.0 > default.0 && large.0 <= 256 << 20, "{level:?}: {large:?}");
            assert_eq!((small.1, large.1), (0, 0));
        }
        // The levels without a table hold none whatever the budget.
        let (d, _) =
            held(AnyEngine::with_memory(Level::Gomoku(GomokuLevel::Pattern), 1, 1 << 30), &gomoku);
        assert_eq!(d, 0);
    }

    #[test]
    fn search_multi_picks_the_game_and_levels_without_multi_pv_give_one_line() {
        let pos = Position::Reversi(crate::reversi::Position::initial());
        let (cancel, limits) = (CancelFlag::new(), Limits::depth(3));
        let mut master = AnyEngine::new(Level::Reversi(ReversiLevel::Master), 1);
        let lines = master.search_multi(&pos, &limits, 3, &cancel, &mut |_| {}).unwrap();
        // Four symmetric first moves, all equal.
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.score == lines[0].score && l.depth == 3));
        let mut greedy = AnyEngine::new(Level::Reversi(ReversiLevel::Greedy), 1);
        let mut last = SearchInfo::default();
        let lines = greedy.search_multi(&pos, &limits, 3, &cancel, &mut |i| last = i.clone());
        let lines = lines.unwrap();
        assert_eq!(lines.len(), 1);
        // The last report is the search's answer.
        assert_eq!((last.pv.first(), last.score), (Some(&lines[0].mv), lines[0].score));
        let gomoku = Position::Gomoku(
            crate::gomoku::Position::new(15, crate::gomoku::Rule::Freestyle).unwrap(),
        );
        assert_eq!(
            master.search_multi(&gomoku, &limits, 3, &cancel, &mut |_| {}),
            Err(AiError::WrongGame)
        );
    }
}

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
}

/// Test helper shared by the engines' thread tests: runs a search of `engine` on `pos` with a
/// minute to think, raises the cancel flag after `after`, and gives the answer with the time
/// it took to come once the flag was up.
#[cfg(test)]
pub(crate) fn search_then_cancel<P: Sync, E: Engine<P>>(
    engine: &mut E,
    pos: &P,
    after: std::time::Duration,
) -> (SearchResult, std::time::Duration) {
    let cancel = CancelFlag::new();
    let limits = Limits { time: Some(std::time::Duration::from_secs(60)), ..Limits::default() };
    std::thread::scope(|s| {
        let search = s.spawn(|| engine.search(pos, &limits, &cancel, &mut |_| {}));
        std::thread::sleep(after);
        let raised = std::time::Instant::now();
        cancel.cancel();
        (search.join().expect("the search thread panicked"), raised.elapsed())
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

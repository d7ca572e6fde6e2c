//! The computer players.
//!
//! Every level of both games implements [`Engine`]: `search(position, limits, cancel,
//! progress) -> SearchResult`. The app and the CLI only ever talk to this interface (or to
//! [`AnyEngine`], which picks the game), so a new level needs no change outside this module.

mod level;
mod types;

pub mod gomoku;
pub mod reversi;

pub use level::{GomokuLevel, Level, ParseLevelError, ReversiLevel};
pub use types::{CancelFlag, Candidate, Limits, Score, SearchInfo, SearchResult};

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

    /// Forgets what was learnt from earlier searches (transposition table, history);
    /// called at the start of a new game.
    fn clear(&mut self) {}
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

    pub fn clear(&mut self) {
        match self {
            AnyEngine::Gomoku(e) => e.clear(),
            AnyEngine::Reversi(e) => e.clear(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    #[error("this level plays a different game")]
    WrongGame,
}

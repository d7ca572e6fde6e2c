//! The coach on the app's side: which position it describes, its facts computed on the
//! blocking pool after each move (never in a command), and the view the snapshot carries.
//!
//! The facts are the engine's ([`tengen_engine::coach`]); the UI (`ui/js/coach.js`) puts them
//! into words. Nothing is computed while the setting is off.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use serde::Serialize;
use tauri::{AppHandle, Manager, Runtime};
use tengen_engine::coach::{self, Fact};
use tengen_engine::game::{Game, Position};
use tengen_engine::Move;

use crate::runtime::{self, AppState};
use crate::session::Session;

/// Nodes of each forcing reading (a few milliseconds each; see `tengen_engine::coach`).
pub const NODES: u64 = 20_000;

/// What the coach says about the position shown: the facts about the move that led to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CoachView {
    /// The number of moves of the position described.
    pub ply: usize,
    pub facts: Vec<Fact>,
}

/// The session's coach: the facts of the last position described, and the position being
/// described now, each by its key ([`key_of`]).
#[derive(Debug, Default)]
pub struct Coach {
    done: Option<(u64, CoachView)>,
    running: Option<u64>,
}

/// A position to describe: the position before its last move, and that move.
pub struct Subject {
    key: u64,
    ply: usize,
    before: Position,
    mv: Move,
}

/// The game the coach describes: the one place that says so (today the game's current
/// position).
fn described(session: &Session) -> &Game {
    &session.game
}

/// A key of a game's position: its kind, its start (a set-up one, from the board editor, or
/// the usual one) and its moves.
fn key_of(game: &Game) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{:?}", game.config().kind).hash(&mut h);
    if let Some(setup) = game.setup() {
        (&setup.black, &setup.white, setup.to_move).hash(&mut h);
    }
    game.history().iter().for_each(|r| r.mv.hash(&mut h));
    h.finish()
}

/// The last placed move of `game` and the position before it (replayed from the game's
/// start, a set-up one included); `None` before the first move and once the game is over.
fn subject(game: &Game) -> Option<Subject> {
    if game.result().is_some() {
        return None;
    }
    let history = game.history();
    let last = history.iter().rposition(|r| matches!(r.mv, Move::Place(_)))?;
    let mut before: Position = game.start_position().clone();
    for r in &history[..last] {
        before.play(r.mv).ok()?;
    }
    Some(Subject { key: key_of(game), ply: history.len(), before, mv: history[last].mv })
}

/// The coach's view for the snapshot: the facts about the position described, when the
/// setting is on and they are computed.
pub fn view(session: &Session) -> Option<CoachView> {
    if !session.settings.coach {
        return None;
    }
    let key = key_of(described(session));
    session.coach.done.as_ref().filter(|(k, _)| *k == key).map(|(_, v)| v.clone())
}

/// The description to start now, if the setting is on and the position shown has none yet
/// (nor one under way); marks it as under way.
fn next_job(session: &mut Session) -> Option<Subject> {
    if !session.settings.coach {
        return None;
    }
    let game = described(session);
    let key = key_of(game);
    if session.coach.running == Some(key) || session.coach.done.as_ref().is_some_and(|d| d.0 == key)
    {
        return None;
    }
    match subject(game) {
        Some(s) => {
            session.coach.running = Some(key);
            Some(s)
        }
        None => {
            let ply = game.history().len();
            session.coach.done = Some((key, CoachView { ply, facts: Vec::new() }));
            None
        }
    }
}

/// Keeps the facts about `key`; whether they describe the position shown.
fn finish(session: &mut Session, key: u64, view: CoachView) -> bool {
    if session.coach.running == Some(key) {
        session.coach.running = None;
    }
    let fresh = key_of(described(session)) == key;
    if fresh {
        session.coach.done = Some((key, view));
    }
    fresh
}

/// Runs the facts of `subject` (on the calling thread).
fn describe(subject: &Subject) -> CoachView {
    // The subject comes from the game's own record, so its move is legal; were it not, the
    // coach would have nothing to say rather than something wrong.
    let facts = coach::explain(&subject.before, subject.mv, NODES).unwrap_or_default();
    CoachView { ply: subject.ply, facts }
}

/// Starts describing the position shown on the blocking pool, if the coach is on and has
/// not yet described it; a new snapshot follows when the facts are in.
pub fn refresh<R: Runtime>(app: &AppHandle<R>) {
    let Some(state) = app.try_state::<AppState>() else { return };
    let Some(subject) = next_job(&mut state.lock()) else { return };
    let app = app.clone();
    tauri::async_runtime::spawn_blocking(move || {
        let view = describe(&subject);
        let Some(state) = app.try_state::<AppState>() else { return };
        let fresh = finish(&mut state.lock(), subject.key, view);
        if fresh {
            runtime::publish_snapshot(&app);
        } else {
            refresh(&app);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::Settings;
    use tengen_engine::game::{GameConfig, GameKind, PlayerKind, Setup};
    use tengen_engine::gomoku::Rule;
    use tengen_engine::{Color, Point};

    fn session(coach: bool) -> Session {
        let config = GameConfig {
            kind: GameKind::Gomoku { rule: Rule::Freestyle, size: 15 },
            black: PlayerKind::Human,
            white: PlayerKind::Human,
            time_per_move_ms: 1000,
            time_control: Default::default(),
            opening: Default::default(),
        };
        Session::new(Game::new(config).unwrap(), Settings { coach, ..Settings::default() })
    }

    fn play(s: &mut Session, x: u8, y: u8) {
        s.game.play(Move::Place(Point::new(x, y)), 0).unwrap();
    }

    /// A session whose game starts from `setup` (as the editor's "play from here" makes it).
    fn set_up(kind: GameKind, setup: Setup) -> Session {
        let config = GameConfig {
            kind,
            black: PlayerKind::Human,
            white: PlayerKind::Human,
            time_per_move_ms: 1000,
            time_control: Default::default(),
            opening: Default::default(),
        };
        let game = Game::from_setup(config, setup).unwrap();
        Session::new(game, Settings { coach: true, ..Settings::default() })
    }

    #[test]
    fn a_set_up_start_is_the_board_described_and_part_of_the_key() {
        // Black f8 g8 set up (white a15 c15), black plays h8: an open three, which only the
        // set-up stones make.
        let gomoku = GameKind::Gomoku { rule: Rule::Freestyle, size: 15 };
        let setup = Setup {
            black: vec![Point::new(5, 7), Point::new(6, 7)],
            white: vec![Point::new(0, 0), Point::new(2, 0)],
            to_move: Color::Black,
        };
        let mut s = set_up(gomoku, setup.clone());
        play(&mut s, 7, 7);
        let job = next_job(&mut s).expect("the move to describe");
        assert_eq!(job.before.stone(Point::new(5, 7)), Some(Color::Black));
        let facts = describe(&job).facts;
        assert!(facts.iter().any(|f| matches!(f, Fact::OpenThree { .. })), "{facts:?}");
        // The same move from another start is another position.
        let mut other =
            set_up(gomoku, Setup { black: vec![Point::new(5, 7), Point::new(6, 8)], ..setup });
        play(&mut other, 7, 7);
        assert_ne!(key_of(&s.game), key_of(&other.game));
    }

    #[test]
    fn a_reversi_move_from_a_set_up_start_is_described_on_that_board() {
        // A position of a seeded game where the next move gives a corner away, set up in
        // the editor; the move played from there is described as giving the corner.
        let mut rng = tengen_engine::rng::Rng::new(21);
        let found = (0..500).find_map(|_| {
            let mut pos = Position::new(GameKind::Reversi).unwrap();
            for _ in 0..12 {
                let legal = pos.legal_points();
                if legal.is_empty() {
                    return None;
                }
                let p = legal[rng.below(legal.len() as u64) as usize];
                pos.play(Move::Place(p)).ok()?;
                if pos.must_pass() {
                    return None;
                }
            }
            pos.legal_points().into_iter().find_map(|p| {
                let facts = coach::explain(&pos, Move::Place(p), NODES).ok()?;
                facts
                    .iter()
                    .any(|f| matches!(f, Fact::GivesCorner { .. }))
                    .then(|| (pos.clone(), p))
            })
        });
        let (pos, p) = found.expect("a move that gives a corner");
        let mut s = set_up(GameKind::Reversi, Setup::of(&pos));
        s.game.play(Move::Place(p), 0).unwrap();
        let job = next_job(&mut s).expect("the move to describe");
        let facts = describe(&job).facts;
        assert!(facts.iter().any(|f| matches!(f, Fact::GivesCorner { .. })), "{facts:?}");
    }

    #[test]
    fn nothing_is_computed_while_the_setting_is_off() {
        let mut s = session(false);
        play(&mut s, 7, 7);
        assert!(next_job(&mut s).is_none());
        assert!(view(&s).is_none());
    }

    #[test]
    fn a_position_is_described_once_and_a_stale_description_dropped() {
        let mut s = session(true);
        assert!(next_job(&mut s).is_none(), "nothing to say before the first move");
        assert_eq!(view(&s), Some(CoachView { ply: 0, facts: Vec::new() }));
        // Black f8 g8 h8 (white on the top row): an open three.
        for (x, y) in [(5, 7), (0, 0), (6, 7), (2, 0), (7, 7)] {
            play(&mut s, x, y);
        }
        let job = next_job(&mut s).expect("a move to describe");
        assert!(next_job(&mut s).is_none(), "one description of a position at a time");
        assert_eq!(job.mv, Move::Place(Point::new(7, 7)));
        let described = describe(&job);
        assert!(described.facts.iter().any(|f| matches!(f, Fact::OpenThree { .. })));
        assert!(finish(&mut s, job.key, described.clone()));
        assert_eq!(view(&s), Some(described.clone()));
        assert!(next_job(&mut s).is_none(), "already described");
        // A move while a description runs: its result no longer fits and is dropped.
        play(&mut s, 4, 0);
        let job = next_job(&mut s).expect("the new move");
        play(&mut s, 8, 7);
        assert!(!finish(&mut s, job.key, describe(&job)));
        assert!(view(&s).is_none());
    }
}

//! External engines that the user added in Settings → Engines, each with its protocol:
//! Gomocup brains (`pbrain-*`, Gomoku) and NBoard engines (Reversi). The list kept in the app
//! data directory (`engines.json`, read bounded and leniently, written atomically), the check
//! of an engine (start it; a brain answers `ABOUT`, an NBoard engine `ping 1` with `pong 1`),
//! and the slots the worker plays an external side with. The protocols themselves are
//! `tengen_engine::gomocup` and `tengen_engine::nboard`, the same code the arena uses.
//!
//! Security: a program runs only if the user chose its file in the file dialog (the
//! `engine_add` command opens it; the page never names a path), with no shell and no
//! arguments. A game names an engine only by its id in this list: games opened or pasted
//! from files never keep an external side (it becomes human), and a restored game keeps one
//! only if its id is still in the list.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tengen_engine::child::ProcessError;
use tengen_engine::game::{GameKind, TimeControl};
use tengen_engine::gomocup::{Brain, BrainError, BrainSettings};
use tengen_engine::nboard::{NboardEngine, NboardError, NboardSettings};

use crate::error::AppError;

/// The file of the engine list in the app data directory.
pub const ENGINES_FILE: &str = "engines.json";
/// The most engines the list keeps.
pub const MAX_ENGINES: usize = 64;
/// How long a brain may take to start and answer `ABOUT` (and `START`).
pub const STARTUP: Duration = Duration::from_secs(5);
/// The longest name kept (an `ABOUT` answer is cut to this many characters too).
const MAX_TEXT: usize = 200;

/// The protocol an engine speaks, which decides its game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// Gomocup (Piskvork) brains: Gomoku. Lists from before NBoard engines hold only these.
    #[default]
    Gomocup,
    /// NBoard engines: Reversi.
    Nboard,
}

impl Protocol {
    /// Whether an engine of this protocol plays `kind`.
    pub fn plays(self, kind: GameKind) -> bool {
        matches!(
            (self, kind),
            (Protocol::Gomocup, GameKind::Gomoku { .. }) | (Protocol::Nboard, GameKind::Reversi)
        )
    }
}

/// One engine of the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineEntry {
    /// The id games name it by (`PlayerKind::External { id }`), never reused in the list.
    pub id: u32,
    /// Its protocol (and so its game).
    #[serde(default)]
    pub protocol: Protocol,
    /// The `name="..."` of its `ABOUT` answer, an NBoard engine's `set myname` (or the file
    /// name).
    pub name: String,
    /// Its whole `ABOUT` answer (an NBoard engine: `set myname NAME`) when it was added or
    /// last checked.
    pub about: String,
    /// The executable the user chose.
    pub path: PathBuf,
    /// When it was added, in seconds since 1970 (UTC).
    pub added: u64,
}

impl EngineEntry {
    /// How the brain is run for a game with `time_per_move_ms` per move: the protocol's
    /// `timeout_turn`, a margin of one second plus half of it before it counts as hung.
    pub fn settings(&self, time_per_move_ms: u64, control: TimeControl) -> BrainSettings {
        // The protocol's timeouts from the time control: a move's time, or the game's (the
        // time left then goes with each turn as `INFO time_left`).
        let (turn_ms, match_ms) = match control {
            TimeControl::None => (time_per_move_ms, 0),
            TimeControl::PerMove { move_ms } => (move_ms, 0),
            TimeControl::SuddenDeath { base_ms } | TimeControl::Fischer { base_ms, .. } => {
                (base_ms, base_ms)
            }
        };
        BrainSettings {
            startup: STARTUP,
            timeout_match: Duration::from_millis(match_ms),
            ..BrainSettings::new(&self.path, Duration::from_millis(turn_ms))
        }
    }

    /// How an NBoard engine is run: started within [`STARTUP`], no fixed depth (its time
    /// goes in each turn's record, `NboardEngine::best_move`).
    pub fn nboard_settings(&self) -> NboardSettings {
        NboardSettings { startup: STARTUP, ..NboardSettings::new(&self.path) }
    }
}

/// An external engine running for one side.
pub enum Running {
    Gomocup(Brain),
    Nboard(NboardEngine),
}

/// The engine list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Engines(pub Vec<EngineEntry>);

impl Engines {
    /// Reads the list leniently: entries that do not fit (not an engine, a relative path, a
    /// repeated id, past [`MAX_ENGINES`]) are dropped and counted; a file that is not a
    /// list at all is an error (the file is then moved aside by `Storage::load`).
    pub fn from_json_lenient(text: &str) -> Result<(Engines, usize), String> {
        let items: Vec<Value> = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut list: Vec<EngineEntry> = Vec::new();
        let mut dropped = 0;
        for item in items {
            match serde_json::from_value::<EngineEntry>(item) {
                Ok(e)
                    if e.path.is_absolute()
                        && list.len() < MAX_ENGINES
                        && list.iter().all(|o| o.id != e.id) =>
                {
                    list.push(EngineEntry { name: cut(&e.name), about: cut(&e.about), ..e })
                }
                _ => dropped += 1,
            }
        }
        Ok((Engines(list), dropped))
    }

    pub fn get(&self, id: u32) -> Option<&EngineEntry> {
        self.0.iter().find(|e| e.id == id)
    }

    pub fn contains(&self, id: u32) -> bool {
        self.get(id).is_some()
    }

    /// Adds an engine checked by [`probe`]; answers it with its new id (one more than the
    /// highest so far, so an id removed is not given to another program).
    pub fn add(
        &mut self,
        path: PathBuf,
        protocol: Protocol,
        about: String,
        added: u64,
    ) -> Result<&EngineEntry, AppError> {
        if self.0.len() >= MAX_ENGINES {
            return Err(AppError::engine("too_many", &path, format!("at most {MAX_ENGINES}")));
        }
        let id = self.0.iter().map(|e| e.id).max().map_or(1, |m| m.saturating_add(1));
        let name = name_of(&about, &path);
        self.0.push(EngineEntry { id, protocol, name, about: cut(&about), path, added });
        Ok(&self.0[self.0.len() - 1])
    }

    /// Removes engine `id`; answers whether it was there.
    pub fn remove(&mut self, id: u32) -> bool {
        let before = self.0.len();
        self.0.retain(|e| e.id != id);
        self.0.len() != before
    }

    /// Stores a fresh `ABOUT` answer of engine `id`.
    pub fn update_about(&mut self, id: u32, about: String) {
        if let Some(e) = self.0.iter_mut().find(|e| e.id == id) {
            e.name = name_of(&about, &e.path);
            e.about = cut(&about);
        }
    }
}

fn cut(text: &str) -> String {
    text.chars().take(MAX_TEXT).collect()
}

/// The brain's `name="..."` (an NBoard engine's `set myname NAME`), or the file name when
/// the answer names none.
fn name_of(about: &str, path: &Path) -> String {
    let lower = about.to_ascii_lowercase();
    let named = lower.find("name=\"").and_then(|at| {
        let rest = &about[at + 6..];
        rest.find('"').map(|len| rest[..len].trim().to_string())
    });
    let named = named.or_else(|| about.strip_prefix(MYNAME).map(|n| n.trim().to_string()));
    let file = || path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    cut(&named.filter(|n| !n.is_empty()).unwrap_or_else(file))
}

/// How an NBoard engine's name is kept in [`EngineEntry::about`].
const MYNAME: &str = "set myname ";

/// Checks that `path` is an engine of `protocol`: a regular, executable file that starts and
/// answers (`ABOUT`; `nboard 2` and `ping 1` → `pong 1`) within [`STARTUP`]. Answers the
/// `ABOUT` line (`set myname NAME`); the engine is ended at once.
pub fn probe(path: &Path, protocol: Protocol) -> Result<String, AppError> {
    let meta =
        std::fs::metadata(path).map_err(|e| AppError::engine("not_found", path, e.to_string()))?;
    if !meta.is_file() {
        return Err(AppError::engine("not_a_file", path, String::new()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o111 == 0 {
            return Err(AppError::engine("not_executable", path, String::new()));
        }
    }
    let (running, about) = match protocol {
        Protocol::Gomocup => {
            let settings = BrainSettings { startup: STARTUP, ..BrainSettings::new(path, STARTUP) };
            let brain = Brain::start(&settings).map_err(|e| AppError::from_brain(&e, path))?;
            let about = brain.about().to_string();
            (Running::Gomocup(brain), about)
        }
        Protocol::Nboard => {
            let settings = NboardSettings { startup: STARTUP, ..NboardSettings::new(path) };
            let engine =
                NboardEngine::start(&settings).map_err(|e| AppError::from_nboard(&e, path))?;
            let about = engine.name().map(|n| format!("{MYNAME}{n}")).unwrap_or_default();
            (Running::Nboard(engine), about)
        }
    };
    // Ending it (END or quit, then a kill) may take half a second: not on the caller's time.
    std::thread::spawn(move || drop(running));
    Ok(about)
}

/// The external engine playing one side, started on its first turn and kept between turns.
pub type BrainSlot = Arc<Mutex<Option<Running>>>;

/// Ends the brains of `slots` off the calling thread (a brain that ignores `END` takes half
/// a second to be killed). A slot still used by a search is ended when that search drops it.
pub fn retire(slots: [BrainSlot; 2]) {
    std::thread::spawn(move || drop(slots));
}

/// Seconds since 1970, for [`EngineEntry::added`].
pub fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The UI's code for an engine program's failure, whatever its protocol.
fn process_problem(e: &ProcessError) -> &'static str {
    match e {
        ProcessError::Spawn { .. } => "not_executable",
        ProcessError::Timeout { .. } => "no_answer",
        ProcessError::Exited { .. } | ProcessError::Write(_) | ProcessError::Cancelled { .. } => {
            "crashed"
        }
        ProcessError::Garbage { .. } => "bad_answer",
    }
}

impl AppError {
    /// An engine that could not be added, checked or used: `problem` is the code the UI
    /// puts in words.
    pub fn engine(problem: &'static str, path: &Path, detail: String) -> AppError {
        AppError::Engine { problem, path: path.display().to_string(), detail }
    }

    /// A brain that failed to start or answer, in the UI's words: it cannot be run, gave no
    /// answer in time, exited, or answered something that is not the protocol.
    pub fn from_brain(e: &BrainError, path: &Path) -> AppError {
        let problem = match e {
            BrainError::Process(e) => process_problem(e),
            BrainError::Refused { .. } | BrainError::About(_) => "bad_answer",
        };
        AppError::engine(problem, path, e.to_string())
    }

    /// An NBoard engine that failed to start or answer, in the same words as a brain.
    pub fn from_nboard(e: &NboardError, path: &Path) -> AppError {
        let problem = match e {
            NboardError::Process(e) => process_problem(e),
            NboardError::Depth(_) => "bad_answer",
        };
        AppError::engine(problem, path, e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_read_leniently_and_ids_are_not_reused() {
        let text = r#"[
            {"id": 2, "name": "a", "about": "name=\"a\"", "path": "/opt/a", "added": 5},
            {"id": 2, "name": "twice", "about": "", "path": "/opt/b", "added": 5},
            {"id": 3, "name": "relative", "about": "", "path": "pbrain", "added": 5},
            {"id": "x"},
            7
        ]"#;
        let (mut list, dropped) = Engines::from_json_lenient(text).unwrap();
        assert_eq!(dropped, 4);
        assert_eq!(list.0.len(), 1);
        assert!(list.contains(2) && !list.contains(3));
        assert!(Engines::from_json_lenient("{}").is_err());
        let about = "name=\"Rapfi\", version=\"1\"".to_string();
        let added = list.add(PathBuf::from("/opt/pbrain-rapfi"), Protocol::Gomocup, about, 9);
        let added = added.unwrap();
        assert_eq!((added.id, added.name.as_str()), (3, "Rapfi"));
        assert_eq!(list.get(2).unwrap().protocol, Protocol::Gomocup, "older lists: Gomocup");
        assert!(list.remove(3));
        assert!(!list.remove(3));
        let again = list.add(
            PathBuf::from("/opt/x/pbrain-x"),
            Protocol::Gomocup,
            "version=\"2\"".into(),
            9,
        );
        assert_eq!((again.unwrap().id, list.get(3).unwrap().name.as_str()), (3, "pbrain-x"));
        let edax =
            list.add(PathBuf::from("/opt/edax"), Protocol::Nboard, "set myname Edax".into(), 9);
        assert_eq!(edax.unwrap().name, "Edax", "an NBoard engine's name");
        let nameless = list.add(PathBuf::from("/opt/nb"), Protocol::Nboard, String::new(), 9);
        assert_eq!(nameless.unwrap().name, "nb", "the file names it");
        assert!(Protocol::Nboard.plays(GameKind::Reversi));
        assert!(!Protocol::Nboard
            .plays(GameKind::Gomoku { rule: tengen_engine::gomoku::Rule::Renju, size: 15 }));
        assert!(!Protocol::Gomocup.plays(GameKind::Reversi));
        let text = serde_json::to_string(&list).unwrap();
        assert_eq!(Engines::from_json_lenient(&text).unwrap(), (list, 0));
    }

    #[test]
    fn a_file_that_is_no_brain_is_refused_with_its_problem() {
        let problem = |p: &Path| match probe(p, Protocol::Gomocup) {
            Err(AppError::Engine { problem, .. }) => problem,
            other => panic!("{other:?}"),
        };
        assert_eq!(problem(Path::new("/nonexistent/pbrain-x")), "not_found");
        assert_eq!(problem(&std::env::temp_dir()), "not_a_file");
        #[cfg(unix)]
        {
            let dir = std::env::temp_dir().join(format!("tengen-probe-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let plain = dir.join("pbrain-plain");
            std::fs::write(&plain, "not a program").unwrap();
            assert_eq!(problem(&plain), "not_executable");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

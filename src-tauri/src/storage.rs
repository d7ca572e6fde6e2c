//! Settings and the unfinished game, kept in the app data directory.
//!
//! Every file is written atomically (a temporary file in the same directory, fsync, then
//! rename), so a kill at any moment leaves either the old or the new file. Every file is
//! read with a bound ([`read_text_bounded`]). A corrupt file is reported (a [`Notice`]),
//! moved aside as `NAME.corrupt` and replaced by defaults; a file that exists but cannot be
//! read (no permission, not a regular file) is reported and left alone: the defaults are
//! used in memory and the file is not written for the rest of the session. Neither blocks
//! start-up.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tengen_engine::ai::control::{default_threads, MAX_THREADS};
use tengen_engine::game::{GameConfig, GameError};
use tengen_engine::io::{read_text_bounded, ReadError};

use crate::analysis::{DEFAULT_LINES, MAX_LINES, MIN_LINES};
use crate::events::Notice;

/// The settings file's name in the data directory.
pub const SETTINGS_FILE: &str = "settings.json";
/// The unfinished game's file name in the data directory.
pub const GAME_FILE: &str = "current-game.json";
/// The largest file of the data directory that is read (settings, the unfinished game and
/// the statistics are a few KiB; a 26x26 game with its redo stack well under 100 KiB).
pub const MAX_STORED_FILE_BYTES: u64 = 1 << 20;
/// How many `NAME.corrupt` files are kept side by side before a corrupt file is left where it
/// is instead.
const MAX_CORRUPT_COPIES: usize = 20;

/// The engine memory the settings offer, in MiB (each engine's search tables: the computer
/// of each side, the hint, analysis and review; see [`Settings::engine_memory`]).
pub const ENGINE_MEMORY_MIB: [u32; 3] = [16, 64, 256];
/// The engine memory of the default settings (the engines' own default, 64 MiB).
pub const DEFAULT_ENGINE_MEMORY_MIB: u32 = (tengen_engine::ai::DEFAULT_MEMORY >> 20) as u32;

/// The interface language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Language {
    /// Follow the system locale.
    #[default]
    #[serde(rename = "auto")]
    Auto,
    #[serde(rename = "en")]
    English,
    #[serde(rename = "zh-CN")]
    SimplifiedChinese,
}

/// Light, dark, or whatever the system uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

/// The user's settings (the contract's `Settings`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    pub language: Language,
    pub theme: Theme,
    pub sound: bool,
    pub show_coordinates: bool,
    pub show_move_numbers: bool,
    /// The coach: says what each move threatens and how to answer it.
    pub coach: bool,
    /// Search threads of the engines that use them; `None`: all cores but one
    /// ([`tengen_engine::ai::control::default_threads`]). At most
    /// [`tengen_engine::ai::control::MAX_THREADS`].
    pub threads: Option<usize>,
    /// The memory of each engine's search tables, in MiB: one of [`ENGINE_MEMORY_MIB`]
    /// ([`DEFAULT_ENGINE_MEMORY_MIB`] by default).
    pub engine_memory_mib: u32,
    /// How many best lines live analysis lists ([`crate::analysis::MIN_LINES`] to
    /// [`crate::analysis::MAX_LINES`]).
    pub analysis_lines: u8,
    /// The configuration of the last game started, offered again by the start panel.
    /// Checked ([`Settings::validate`]) before it is stored or used.
    pub last_config: Option<GameConfig>,
}

impl Settings {
    /// Checks what the settings say beyond their types: the threads' range and the last
    /// configuration's limits.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if let Some(threads) = self.threads {
            if !(1..=MAX_THREADS).contains(&threads) {
                return Err(SettingsError::Threads { value: threads, max: MAX_THREADS });
            }
        }
        if !(MIN_LINES..=MAX_LINES).contains(&self.analysis_lines) {
            return Err(SettingsError::AnalysisLines { value: self.analysis_lines });
        }
        if !ENGINE_MEMORY_MIB.contains(&self.engine_memory_mib) {
            return Err(SettingsError::EngineMemory { value: self.engine_memory_mib });
        }
        Ok(self.last_config.as_ref().map_or(Ok(()), GameConfig::validate)?)
    }

    /// The search threads the engines use.
    pub fn search_threads(&self) -> usize {
        self.threads.unwrap_or_else(default_threads)
    }

    /// The bytes each engine's tables may take ([`Settings::engine_memory_mib`]).
    pub fn engine_memory(&self) -> usize {
        (self.engine_memory_mib as usize).saturating_mul(1 << 20)
    }

    /// Reads a settings file leniently, as older or hand-edited files may be: a field of the
    /// wrong type or out of range falls back to its default and is named in the second
    /// value; fields this version does not know are ignored. Only a file that is not a JSON
    /// object at all is an error.
    pub fn from_json_lenient(text: &str) -> Result<(Settings, Vec<String>), String> {
        let file: serde_json::Map<String, Value> =
            serde_json::from_str(text).map_err(|e| e.to_string())?;
        let Ok(Value::Object(mut merged)) = serde_json::to_value(Settings::default()) else {
            return Err("the default settings are not an object".into());
        };
        let mut dropped = Vec::new();
        for (key, value) in file {
            if !merged.contains_key(&key) {
                continue;
            }
            let mut trial = merged.clone();
            trial.insert(key.clone(), value);
            let fits = serde_json::from_value::<Settings>(Value::Object(trial.clone()))
                .is_ok_and(|s| s.validate().is_ok());
            if fits {
                merged = trial;
            } else {
                dropped.push(key);
            }
        }
        let settings = serde_json::from_value(Value::Object(merged)).map_err(|e| e.to_string())?;
        Ok((settings, dropped))
    }
}

/// Why settings were refused.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("search threads must be from 1 to {max}, not {value}")]
    Threads { value: usize, max: usize },
    #[error("analysis lists {MIN_LINES} to {MAX_LINES} lines, not {value}")]
    AnalysisLines { value: u8 },
    #[error("engine memory must be one of {ENGINE_MEMORY_MIB:?} MiB, not {value}")]
    EngineMemory { value: u32 },
    #[error(transparent)]
    Config(#[from] GameError),
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            language: Language::Auto,
            theme: Theme::System,
            sound: true,
            show_coordinates: true,
            show_move_numbers: false,
            coach: false,
            threads: None,
            engine_memory_mib: DEFAULT_ENGINE_MEMORY_MIB,
            analysis_lines: DEFAULT_LINES,
            last_config: None,
        }
    }
}

/// Writes `contents` to `path` so that readers see the old file or the new one, never a
/// part: temporary file, fsync, rename, then fsync of the directory.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        #[cfg(unix)]
        if let Ok(d) = fs::File::open(dir) {
            // Makes the rename itself durable; not every file system supports it.
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// What loading a file found.
#[derive(Debug, PartialEq)]
pub enum Loaded<T> {
    /// No file yet (first start).
    Missing,
    /// The file was read and understood.
    Ok(T),
    /// The file was corrupt; it was moved aside (`params.aside`) and this notice explains.
    Reset(Notice),
    /// The file exists but could not be read (or a corrupt one could not be moved aside): it
    /// is left as it is and not written during this session; this notice explains.
    Unreadable(Notice),
}

impl<T> Loaded<T> {
    /// The value, or `default` with the notice to show (if any).
    pub fn or_default(self, default: T) -> (T, Option<Notice>) {
        match self {
            Loaded::Ok(v) => (v, None),
            Loaded::Missing => (default, None),
            Loaded::Reset(n) | Loaded::Unreadable(n) => (default, Some(n)),
        }
    }
}

/// The app data directory and the files in it.
#[derive(Clone, Debug)]
pub struct Storage {
    dir: Option<PathBuf>,
    /// Files that could not be read or moved aside: never written by this session.
    kept: Arc<Mutex<Vec<String>>>,
}

impl Storage {
    /// Files in `dir`; `None` keeps nothing (when no data directory could be found).
    pub fn new(dir: Option<PathBuf>) -> Storage {
        Storage { dir, kept: Arc::default() }
    }

    /// The full path of a file in the data directory.
    pub fn path(&self, name: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(name))
    }

    /// Where to write (or remove) a file of the data directory: `None` when there is no
    /// directory, or when the file was found but could not be read (it is left alone).
    pub fn save_path(&self, name: &str) -> Option<PathBuf> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if kept.iter().any(|k| k == name) {
            return None;
        }
        self.path(name)
    }

    fn keep(&self, name: &str) {
        self.kept.lock().unwrap_or_else(|p| p.into_inner()).push(name.to_string());
    }

    /// Reads (bounded) and parses a file; a corrupt one is moved aside and reported, one
    /// that cannot be read is reported and left alone.
    pub fn load<T>(&self, name: &str, parse: impl FnOnce(&str) -> Result<T, String>) -> Loaded<T> {
        let Some(path) = self.path(name) else { return Loaded::Missing };
        let read = read_text_bounded(&path, MAX_STORED_FILE_BYTES);
        self.settle(name, &path, read, parse)
    }

    /// What to do with the file `name` at `path` after reading it gave `read`.
    fn settle<T>(
        &self,
        name: &str,
        path: &Path,
        read: Result<String, ReadError>,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Loaded<T> {
        let shown = path.display().to_string();
        let unreadable = |detail: String| {
            self.keep(name);
            Loaded::Unreadable(Notice {
                code: "file_unreadable",
                params: json!({ "file": name, "path": shown, "detail": detail }),
            })
        };
        let text = match read {
            Ok(text) => Ok(text),
            Err(ReadError::NotFound) => return Loaded::Missing,
            // Not the file's fault: it may be fine once it can be read again.
            Err(e) if e.is_access_problem() || e == ReadError::NotAFile => {
                return unreadable(e.to_string())
            }
            Err(e) => Err(e.to_string()),
        };
        let detail = match text.and_then(|t| parse(&t)) {
            Ok(v) => return Loaded::Ok(v),
            Err(detail) => detail,
        };
        match move_aside(path, name) {
            Ok(aside) => Loaded::Reset(Notice {
                code: "file_reset",
                params: json!({ "file": name, "path": shown,
                                "aside": aside.display().to_string(), "detail": detail }),
            }),
            Err(e) => unreadable(format!("{detail}; it could not be moved aside: {e}")),
        }
    }

    /// The settings, or the defaults (with a notice when the file was corrupt); fields that
    /// did not fit fall back to their defaults, with a notice naming them.
    pub fn load_settings(&self) -> (Settings, Option<Notice>) {
        let ((settings, dropped), notice) = self
            .load(SETTINGS_FILE, Settings::from_json_lenient)
            .or_default((Settings::default(), Vec::new()));
        let notice = notice.or_else(|| {
            (!dropped.is_empty()).then(|| Notice {
                code: "settings_fields_reset",
                params: json!({ "file": SETTINGS_FILE, "fields": dropped.join(", ") }),
            })
        });
        (settings, notice)
    }
}

/// Moves the corrupt file `path` to the first free `NAME.corrupt` (`NAME.corrupt.2`, ...),
/// so an earlier corrupt copy is never overwritten.
pub fn move_aside(path: &Path, name: &str) -> io::Result<PathBuf> {
    let free = (1..=MAX_CORRUPT_COPIES)
        .map(|i| match i {
            1 => path.with_file_name(format!("{name}.corrupt")),
            _ => path.with_file_name(format!("{name}.corrupt.{i}")),
        })
        .find(|p| fs::symlink_metadata(p).is_err())
        .ok_or_else(|| io::Error::other("too many corrupt copies are kept already"))?;
    fs::rename(path, &free)?;
    Ok(free)
}

enum Job {
    Write(PathBuf, String),
    Remove(PathBuf),
    Flush(mpsc::Sender<()>),
}

/// The jobs of `batch` (asked for in this order) worth running: a write that a later write or
/// removal of the same file replaces before the next flush is dropped. Stepping through a
/// game publishes up to 30 snapshots a second, each saving the game and the settings: the
/// disk sees the last of them (and the writer thread skips a text the file already holds).
fn coalesce(batch: Vec<Job>) -> Vec<Job> {
    let mut keep: Vec<Job> = Vec::with_capacity(batch.len());
    let mut replaced = std::collections::HashSet::new();
    for job in batch.into_iter().rev() {
        match &job {
            Job::Flush(_) => replaced.clear(),
            Job::Write(p, _) => {
                if replaced.contains(p) {
                    continue;
                }
                replaced.insert(p.clone());
            }
            Job::Remove(p) => {
                replaced.insert(p.clone());
            }
        }
        keep.push(job);
    }
    keep.reverse();
    keep
}

/// Writes files on a background thread, in the order they were asked for, so that no
/// command waits for the disk; what was asked for while it wrote is coalesced ([`coalesce`]).
#[derive(Clone, Debug)]
pub struct Saver {
    tx: Option<mpsc::Sender<Job>>,
}

impl Saver {
    /// Starts the writer thread (none when the thread cannot be started: saves are then
    /// written at once).
    pub fn start() -> Saver {
        let (tx, rx) = mpsc::channel::<Job>();
        let spawned = thread::Builder::new().name("tengen-saver".into()).spawn(move || {
            let mut written = std::collections::HashMap::new();
            while let Ok(first) = rx.recv() {
                let batch: Vec<Job> = std::iter::once(first).chain(rx.try_iter()).collect();
                for job in coalesce(batch) {
                    match job {
                        // The text this thread last wrote there (settings saved unchanged).
                        Job::Write(path, text) if written.get(&path) == Some(&text) => {}
                        Job::Write(path, text) => match write_atomic(&path, text.as_bytes()) {
                            Ok(()) => {
                                written.insert(path, text);
                            }
                            Err(e) => {
                                eprintln!("tengen: could not save {}: {e}", path.display());
                            }
                        },
                        Job::Remove(path) => {
                            let _ = fs::remove_file(&path);
                            written.remove(&path);
                        }
                        Job::Flush(done) => {
                            let _ = done.send(());
                        }
                    }
                }
            }
        });
        Saver { tx: spawned.ok().map(|_| tx) }
    }

    /// Saves `text` to `path` soon (atomically).
    pub fn write(&self, path: PathBuf, text: String) {
        match &self.tx {
            Some(tx) => {
                if let Err(mpsc::SendError(Job::Write(path, text))) =
                    tx.send(Job::Write(path, text))
                {
                    let _ = write_atomic(&path, text.as_bytes());
                }
            }
            None => {
                let _ = write_atomic(&path, text.as_bytes());
            }
        }
    }

    /// Removes `path` soon, after the writes asked for before.
    pub fn remove(&self, path: PathBuf) {
        match &self.tx {
            Some(tx) => {
                let _ = tx.send(Job::Remove(path));
            }
            None => {
                let _ = fs::remove_file(path);
            }
        }
    }

    /// Waits until everything asked for so far is on disk.
    pub fn flush(&self) {
        if let Some(tx) = &self.tx {
            let (done_tx, done_rx) = mpsc::channel();
            if tx.send(Job::Flush(done_tx)).is_ok() {
                let _ = done_rx.recv();
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh, empty directory for one test.
    pub(crate) fn temp_dir(tag: &str) -> PathBuf {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let d = std::env::temp_dir().join(format!("tengen-{tag}-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp_file() {
        let d = temp_dir("atomic");
        let p = d.join("a.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "two");
        let names: Vec<_> = fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.json")]);
    }

    #[test]
    fn settings_round_trip_and_defaults_for_missing_fields() {
        let d = temp_dir("settings");
        let st = Storage::new(Some(d.clone()));
        assert_eq!(st.load_settings(), (Settings::default(), None));
        let s = Settings {
            language: Language::SimplifiedChinese,
            theme: Theme::Dark,
            sound: false,
            ..Settings::default()
        };
        let text = serde_json::to_string(&s).unwrap();
        assert!(text.contains(r#""language":"zh-CN""#) && text.contains(r#""showCoordinates""#));
        write_atomic(&d.join(SETTINGS_FILE), text.as_bytes()).unwrap();
        assert_eq!(st.load_settings(), (s, None));
        write_atomic(&d.join(SETTINGS_FILE), br#"{"theme":"light"}"#).unwrap();
        assert_eq!(st.load_settings().0.theme, Theme::Light);
        assert!(st.load_settings().0.sound);
    }

    #[test]
    fn threads_out_of_range_are_refused_and_a_stored_one_falls_back() {
        let with = |threads| Settings { threads, ..Settings::default() };
        assert!(with(None).validate().is_ok());
        assert_eq!(with(None).search_threads(), default_threads());
        assert!(with(Some(1)).validate().is_ok());
        assert_eq!(with(Some(3)).search_threads(), 3);
        assert!(with(Some(MAX_THREADS)).validate().is_ok());
        for bad in [0, MAX_THREADS + 1] {
            let e = with(Some(bad)).validate().unwrap_err();
            assert!(
                matches!(e, SettingsError::Threads { value, max } if value == bad && max == MAX_THREADS)
            );
        }
        let d = temp_dir("threads");
        let st = Storage::new(Some(d.clone()));
        for (text, threads, notice) in
            [(r#"{"threads":2}"#, Some(2), false), (r#"{"threads":0}"#, None, true)]
        {
            write_atomic(&d.join(SETTINGS_FILE), text.as_bytes()).unwrap();
            let (s, n) = st.load_settings();
            assert_eq!((s.threads, n.is_some()), (threads, notice), "{text}");
        }
    }

    #[test]
    fn the_engine_memory_is_one_of_the_offered_sizes_and_a_stored_other_falls_back() {
        let with = |engine_memory_mib| Settings { engine_memory_mib, ..Settings::default() };
        assert_eq!(Settings::default().engine_memory(), tengen_engine::ai::DEFAULT_MEMORY);
        for good in ENGINE_MEMORY_MIB {
            assert!(with(good).validate().is_ok());
            assert_eq!(with(good).engine_memory(), good as usize * 1024 * 1024);
        }
        for bad in [0, 1, 63, 65, 1 << 20, u32::MAX] {
            let e = with(bad).validate().unwrap_err();
            assert!(matches!(e, SettingsError::EngineMemory { value } if value == bad));
        }
        let d = temp_dir("engine-memory");
        let st = Storage::new(Some(d.clone()));
        for (text, mib, notice) in [
            (r#"{"engineMemoryMib":16}"#, 16, false),
            (r#"{"engineMemoryMib":100000}"#, DEFAULT_ENGINE_MEMORY_MIB, true),
            (r#"{"engineMemoryMib":-1}"#, DEFAULT_ENGINE_MEMORY_MIB, true),
        ] {
            write_atomic(&d.join(SETTINGS_FILE), text.as_bytes()).unwrap();
            let (s, n) = st.load_settings();
            assert_eq!((s.engine_memory_mib, n.is_some()), (mib, notice), "{text}");
        }
    }

    #[test]
    fn the_analysis_lines_are_kept_within_their_range() {
        let with = |analysis_lines| Settings { analysis_lines, ..Settings::default() };
        assert_eq!(Settings::default().analysis_lines, DEFAULT_LINES);
        for good in [MIN_LINES, MAX_LINES] {
            assert!(with(good).validate().is_ok());
        }
        for bad in [0, MAX_LINES + 1] {
            let e = with(bad).validate().unwrap_err();
            assert!(matches!(e, SettingsError::AnalysisLines { value } if value == bad));
        }
        let d = temp_dir("analysis-lines");
        let st = Storage::new(Some(d.clone()));
        for (text, lines, notice) in [
            (r#"{"analysisLines":5}"#, 5, false),
            (r#"{"analysisLines":9}"#, DEFAULT_LINES, true),
            (r#"{"analysisLines":"x"}"#, DEFAULT_LINES, true),
        ] {
            write_atomic(&d.join(SETTINGS_FILE), text.as_bytes()).unwrap();
            let (s, n) = st.load_settings();
            assert_eq!((s.analysis_lines, n.is_some()), (lines, notice), "{text}");
        }
    }

    #[test]
    fn a_field_that_does_not_fit_falls_back_alone_with_a_notice() {
        let d = temp_dir("lenient");
        let st = Storage::new(Some(d.clone()));
        let config = r#"{"kind":{"game":"reversi"},"black":{"type":"human"},"white":{"type":"human"},"timePerMoveMs":2000}"#;
        // An older file: lastConfig of another shape, a theme this version lacks, a field
        // it never had.
        let text = format!(
            r#"{{"theme":"purple","sound":false,"lastConfig":{{"game":"gomoku"}},"extra":1,"language":"zh-CN","showMoveNumbers":true,"showCoordinates":false,"x":{config}}}"#
        );
        write_atomic(&d.join(SETTINGS_FILE), text.as_bytes()).unwrap();
        let (s, notice) = st.load_settings();
        assert_eq!(
            s,
            Settings {
                language: Language::SimplifiedChinese,
                sound: false,
                show_move_numbers: true,
                show_coordinates: false,
                ..Settings::default()
            }
        );
        let notice = notice.expect("a notice");
        assert_eq!(notice.code, "settings_fields_reset");
        let mut fields: Vec<&str> = notice.params["fields"].as_str().unwrap().split(", ").collect();
        fields.sort_unstable();
        assert_eq!(fields, ["lastConfig", "theme"]);
        assert!(d.join(SETTINGS_FILE).exists(), "the file is not moved aside");
        // A valid configuration is kept; one out of range is not.
        for (ms, kept) in [(2000, true), (50, false)] {
            let text = format!(r#"{{"lastConfig":{}}}"#, config.replace("2000", &ms.to_string()));
            write_atomic(&d.join(SETTINGS_FILE), text.as_bytes()).unwrap();
            let (s, notice) = st.load_settings();
            assert_eq!(s.last_config.is_some(), kept, "{ms} ms");
            assert_eq!(notice.is_none(), kept, "{ms} ms");
        }
        // Not an object at all: corrupt, as before.
        write_atomic(&d.join(SETTINGS_FILE), b"[1, 2]").unwrap();
        assert_eq!(st.load_settings().1.map(|n| n.code), Some("file_reset"));
    }

    #[test]
    fn a_corrupt_file_is_reported_moved_aside_and_replaced_by_defaults() {
        let d = temp_dir("corrupt");
        let st = Storage::new(Some(d.clone()));
        fs::write(d.join(SETTINGS_FILE), b"{\"theme\": \"dark\", oops").unwrap();
        let (s, notice) = st.load_settings();
        assert_eq!(s, Settings::default());
        let notice = notice.expect("a notice");
        assert_eq!(notice.code, "file_reset");
        assert_eq!(notice.params["file"], SETTINGS_FILE);
        assert!(!d.join(SETTINGS_FILE).exists());
        assert!(d.join("settings.json.corrupt").exists());
        // Next start: no file, no notice.
        assert_eq!(st.load_settings(), (Settings::default(), None));
        // Binary garbage too.
        fs::write(d.join(SETTINGS_FILE), [0xff, 0xfe, 0x00]).unwrap();
        assert!(st.load_settings().1.is_some());
    }

    #[test]
    fn a_file_that_cannot_be_read_is_not_corrupt_and_is_never_written() {
        let d = temp_dir("denied");
        let st = Storage::new(Some(d.clone()));
        let path = d.join(SETTINGS_FILE);
        fs::write(&path, br#"{"theme":"dark"}"#).unwrap();
        let parse = |_: &str| -> Result<(), String> { panic!("nothing was read to parse") };
        let errors: [fn() -> ReadError; 3] = [
            || ReadError::PermissionDenied,
            || ReadError::NotAFile,
            || ReadError::Other("EIO".into()),
        ];
        for make in errors {
            let why = make().to_string();
            let Loaded::Unreadable(n) = st.settle(SETTINGS_FILE, &path, Err(make()), parse) else {
                panic!("{why} is not corruption");
            };
            assert_eq!(n.code, "file_unreadable");
            assert_eq!(n.params["detail"], why);
        }
        assert_eq!(fs::read_to_string(&path).unwrap(), r#"{"theme":"dark"}"#, "left alone");
        assert!(!d.join("settings.json.corrupt").exists());
        assert_eq!(st.save_path(SETTINGS_FILE), None, "not written this session");
        assert_eq!(st.save_path(GAME_FILE), Some(d.join(GAME_FILE)));
        // Too large or not text: the file itself is bad, so it is moved aside.
        for e in [ReadError::TooLarge { limit: 1 }, ReadError::NotText] {
            fs::write(d.join(GAME_FILE), b"x").unwrap();
            let loaded = st.settle(GAME_FILE, &d.join(GAME_FILE), Err(e), |_| Ok(()));
            assert!(matches!(loaded, Loaded::Reset(n) if n.code == "file_reset"));
        }
        assert!(d.join("current-game.json.corrupt").exists());
        assert!(d.join("current-game.json.corrupt.2").exists());
    }

    #[test]
    fn saver_writes_in_order_and_flushes() {
        let d = temp_dir("saver");
        let saver = Saver::start();
        for i in 0..20 {
            saver.write(d.join("g.json"), format!("{i}"));
        }
        saver.flush();
        assert_eq!(fs::read_to_string(d.join("g.json")).unwrap(), "19");
        saver.remove(d.join("g.json"));
        saver.flush();
        assert!(!d.join("g.json").exists());
    }

    #[test]
    fn saver_coalesces_writes_replaced_before_a_flush() {
        let (a, b) = (PathBuf::from("a"), PathBuf::from("b"));
        let w = |p: &PathBuf, t: &str| Job::Write(p.clone(), t.to_string());
        let (tx, _rx) = mpsc::channel();
        let batch = vec![
            w(&a, "1"),
            w(&b, "same"),
            w(&a, "2"),
            Job::Flush(tx),
            w(&a, "3"),
            Job::Remove(a.clone()),
            w(&b, "new"),
            w(&a, "4"),
        ];
        let kept: Vec<String> = coalesce(batch)
            .into_iter()
            .map(|j| match j {
                Job::Write(p, t) => format!("write {} {t}", p.display()),
                Job::Remove(p) => format!("remove {}", p.display()),
                Job::Flush(_) => "flush".into(),
            })
            .collect();
        assert_eq!(
            kept,
            ["write b same", "write a 2", "flush", "remove a", "write b new", "write a 4"]
        );
    }

    #[test]
    fn saver_skips_unchanged_text_and_writes_again_after_a_removal() {
        let d = temp_dir("saver-same");
        let saver = Saver::start();
        let p = d.join("s.json");
        saver.write(p.clone(), "x".into());
        saver.flush();
        // Changed behind its back: the same text again is not written.
        fs::write(&p, "outside").unwrap();
        saver.write(p.clone(), "x".into());
        saver.flush();
        assert_eq!(fs::read_to_string(&p).unwrap(), "outside");
        saver.remove(p.clone());
        saver.write(p.clone(), "x".into());
        saver.flush();
        assert_eq!(fs::read_to_string(&p).unwrap(), "x");
    }

    #[test]
    fn no_directory_keeps_nothing() {
        let st = Storage::new(None);
        assert_eq!(st.load_settings(), (Settings::default(), None));
        assert!(matches!(st.load(GAME_FILE, |t| Ok(t.to_string())), Loaded::Missing));
    }
}

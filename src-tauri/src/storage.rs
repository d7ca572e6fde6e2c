//! Settings and the unfinished game, kept in the app data directory.
//!
//! Every file is written atomically (a temporary file in the same directory, fsync, then
//! rename), so a kill at any moment leaves either the old or the new file. A file that
//! cannot be read is reported (a [`Notice`]), moved aside as `NAME.corrupt` and replaced by
//! defaults: it never blocks start-up.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::events::Notice;

/// The settings file's name in the data directory.
pub const SETTINGS_FILE: &str = "settings.json";
/// The unfinished game's file name in the data directory.
pub const GAME_FILE: &str = "current-game.json";

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
    /// The configuration of the last game started (a `GameConfig`), offered again by the
    /// start panel. Checked by the command layer before it is stored.
    pub last_config: Option<serde_json::Value>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            language: Language::Auto,
            theme: Theme::System,
            sound: true,
            show_coordinates: true,
            show_move_numbers: false,
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
    /// The file was unreadable or corrupt; it was moved aside and this notice explains.
    Reset(Notice),
}

/// The app data directory and the files in it.
#[derive(Clone, Debug)]
pub struct Storage {
    dir: Option<PathBuf>,
}

impl Storage {
    /// Files in `dir`; `None` keeps nothing (when no data directory could be found).
    pub fn new(dir: Option<PathBuf>) -> Storage {
        Storage { dir }
    }

    /// The full path of a file in the data directory.
    pub fn path(&self, name: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(name))
    }

    /// Reads and parses a file; a corrupt one is moved aside and reported.
    pub fn load<T>(&self, name: &str, parse: impl FnOnce(&str) -> Result<T, String>) -> Loaded<T> {
        let Some(path) = self.path(name) else { return Loaded::Missing };
        let text = match fs::read(&path) {
            Ok(bytes) => String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Loaded::Missing,
            Err(e) => Err(e.to_string()),
        };
        match text.and_then(|t| parse(&t)) {
            Ok(v) => Loaded::Ok(v),
            Err(detail) => {
                let aside = path.with_file_name(format!("{name}.corrupt"));
                let _ = fs::rename(&path, &aside);
                Loaded::Reset(Notice {
                    code: "file_reset",
                    params: json!({ "file": name, "path": path.display().to_string(),
                                    "detail": detail }),
                })
            }
        }
    }

    /// The settings, or the defaults (with a notice when the file was corrupt).
    pub fn load_settings(&self) -> (Settings, Option<Notice>) {
        match self.load(SETTINGS_FILE, |t| serde_json::from_str(t).map_err(|e| e.to_string())) {
            Loaded::Ok(s) => (s, None),
            Loaded::Missing => (Settings::default(), None),
            Loaded::Reset(n) => (Settings::default(), Some(n)),
        }
    }

    /// Removes a file from the data directory (e.g. the unfinished game once it is over).
    pub fn remove(&self, name: &str) {
        if let Some(p) = self.path(name) {
            let _ = fs::remove_file(p);
        }
    }
}

enum Job {
    Write(PathBuf, String),
    Remove(PathBuf),
    Flush(mpsc::Sender<()>),
}

/// Writes files on a background thread, in the order they were asked for, so that no
/// command waits for the disk.
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
            for job in rx {
                match job {
                    Job::Write(path, text) => {
                        if let Err(e) = write_atomic(&path, text.as_bytes()) {
                            eprintln!("tengen: could not save {}: {e}", path.display());
                        }
                    }
                    Job::Remove(path) => {
                        let _ = fs::remove_file(path);
                    }
                    Job::Flush(done) => {
                        let _ = done.send(());
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
    fn no_directory_keeps_nothing() {
        let st = Storage::new(None);
        assert_eq!(st.load_settings(), (Settings::default(), None));
        assert!(matches!(st.load(GAME_FILE, |t| Ok(t.to_string())), Loaded::Missing));
    }
}

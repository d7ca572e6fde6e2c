//! The window's size and position across restarts.
//!
//! `tauri-plugin-window-state` restores them when the window opens and saves them when the
//! app exits normally. A killed app never exits normally, so this module also saves them
//! shortly after the player stops moving or resizing the window: at most the last half
//! second of dragging is lost, the same promise the game itself keeps ("a kill loses at most
//! the last move").

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tauri::plugin::TauriPlugin;
use tauri::{AppHandle, Manager, Runtime, WindowEvent};
use tauri_plugin_window_state::{AppHandleExt, StateFlags, DEFAULT_FILENAME};

use crate::storage::move_aside;

/// How long the window must stay put before its state is written.
const SETTLE: Duration = Duration::from_millis(400);

/// The largest window-state file left for the plugin to read (a few windows take a few
/// hundred bytes).
const MAX_STATE_FILE_BYTES: u64 = 64 << 10;

/// Counts move/resize events; a pending save runs only if no newer event came in.
static CHANGES: AtomicU64 = AtomicU64::new(0);

/// Called for every window event: schedules a save after a move or a resize.
pub fn on_event<R: Runtime>(app: &AppHandle<R>, event: &WindowEvent) {
    if !matches!(event, WindowEvent::Moved(_) | WindowEvent::Resized(_)) {
        return;
    }
    let change = CHANGES.fetch_add(1, Ordering::Relaxed) + 1;
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(SETTLE).await;
        if CHANGES.load(Ordering::Relaxed) != change {
            return; // the window moved again; that event's save will run instead
        }
        // The plugin reads the window and takes its own lock; on the main thread that cannot
        // interleave with its event handlers, which run there too.
        let handle = app.clone();
        let _ = app.run_on_main_thread(move || {
            if let Err(e) = handle.save_window_state(StateFlags::all()) {
                eprintln!("tengen: the window size and position could not be saved: {e}");
            }
        });
    });
}

/// The plugin opens its file in the app config directory at start and reads it with no
/// bound: a FIFO there would block start-up for ever, a device or a huge file be read
/// whole. Anything there that is not a small regular file is moved aside first (the window
/// then opens at its default size); answers where it went.
pub fn guard_state_file(dir: &Path) -> Option<PathBuf> {
    let path = dir.join(DEFAULT_FILENAME);
    // Missing, a dangling link, or no permission: the plugin's own open fails at once.
    let meta = fs::metadata(&path).ok()?;
    if meta.is_file() && meta.len() <= MAX_STATE_FILE_BYTES {
        return None;
    }
    match move_aside(&path, DEFAULT_FILENAME) {
        Ok(aside) => Some(aside),
        Err(e) => {
            eprintln!("tengen: {} is not a window state file and stays: {e}", path.display());
            None
        }
    }
}

/// A plugin that runs [`guard_state_file`]; registered before the window-state plugin, so
/// its setup runs first.
pub fn state_file_guard<R: Runtime>() -> TauriPlugin<R> {
    tauri::plugin::Builder::new("tengen-window-state-guard")
        .setup(|app, _api| {
            if let Ok(dir) = app.path().app_config_dir() {
                if let Some(aside) = guard_state_file(&dir) {
                    eprintln!("tengen: the window state file was moved to {}", aside.display());
                }
            }
            Ok(())
        })
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::temp_dir;

    #[test]
    fn only_a_small_regular_state_file_is_left_for_the_plugin() {
        let d = temp_dir("window-state");
        let path = d.join(DEFAULT_FILENAME);
        assert_eq!(guard_state_file(&d), None, "no file");
        fs::write(&path, br#"{"main":{"width":900}}"#).unwrap();
        assert_eq!(guard_state_file(&d), None);
        assert!(path.exists());
        fs::write(&path, vec![b' '; MAX_STATE_FILE_BYTES as usize + 1]).unwrap();
        assert_eq!(guard_state_file(&d), Some(d.join(".window-state.json.corrupt")));
        assert!(!path.exists());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
            assert_eq!(guard_state_file(&d), Some(d.join(".window-state.json.corrupt.2")));
            let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
            assert!(made.success());
            assert_eq!(guard_state_file(&d), Some(d.join(".window-state.json.corrupt.3")));
            assert!(!path.exists());
        }
    }
}

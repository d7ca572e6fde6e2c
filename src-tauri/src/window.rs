//! The window's size and position across restarts.
//!
//! `tauri-plugin-window-state` restores them when the window opens and saves them when the
//! app exits normally. A killed app never exits normally, so this module also saves them
//! shortly after the player stops moving or resizing the window: at most the last half
//! second of dragging is lost, the same promise the game itself keeps ("a kill loses at most
//! the last move").

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tauri::{AppHandle, Runtime, WindowEvent};
use tauri_plugin_window_state::{AppHandleExt, StateFlags};

/// How long the window must stay put before its state is written.
const SETTLE: Duration = Duration::from_millis(400);

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

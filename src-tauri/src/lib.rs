//! The Tengen desktop app: a thin Tauri command layer over `tengen_engine`.
//!
//! * [`worker`] — the AI on a background thread, with throttled progress;
//! * [`events`] — event names and payloads;
//! * [`error`] — the typed errors; [`storage`] — settings and the unfinished game on disk.
//!
//! The game session, its commands and the snapshot follow once the engine's `Game` lands.

pub mod error;
pub mod events;
pub mod storage;
pub mod worker;

/// Builds and runs the app.
pub fn run() {
    let builder = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_window_state::Builder::default().build());
    if let Err(e) = builder.run(tauri::generate_context!()) {
        eprintln!("tengen: the app could not start: {e}");
        std::process::exit(1);
    }
}

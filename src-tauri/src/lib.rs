//! The Tengen desktop app: a thin Tauri command layer over `tengen_engine`.
//!
//! * [`session`] — the game session, the generation counter, hints (no Tauri);
//! * [`runtime`] — the session in managed state, its events, its searches on the worker;
//! * [`commands`] — the IPC commands;
//! * [`worker`] — the AI on a background thread, with throttled progress;
//! * [`analysis`] — live analysis of the position shown (the "Analyse" switch);
//! * [`review`] — game review of the main line (the "Review" button);
//! * [`events`] — event names and payloads; [`snapshot`] — what the UI draws;
//! * [`facts`] — levels, defaults and limits, written once for the UI;
//! * [`error`] — the typed errors; [`storage`] — settings and the unfinished game on disk;
//! * [`files`] — saving and opening games; [`window`] — the window's size and position;
//! * [`engines`] — the external Gomocup engines the user added.

pub mod analysis;
#[cfg(feature = "bench")]
pub mod bench;
pub mod coach;
pub mod commands;
pub mod engines;
pub mod error;
pub mod events;
pub mod facts;
pub mod files;
pub mod review;
pub mod runtime;
pub mod session;
pub mod snapshot;
pub mod stats;
pub mod storage;
pub mod webview;
pub mod window;
pub mod worker;

use std::path::PathBuf;

use tauri::{Builder, Manager, Runtime};

/// Adds Tengen's commands and state to `builder`. The state lives in `data_dir` (then it is
/// created at once, as the tests need), or in the app data directory when it is `None`
/// (created when the app starts). The tests build the app with the mock runtime through
/// this function.
pub fn build_app<R: Runtime>(builder: Builder<R>, data_dir: Option<PathBuf>) -> Builder<R> {
    let builder = builder.invoke_handler(tauri::generate_handler![
        commands::new_game,
        commands::play_move,
        commands::opening_choice,
        commands::undo,
        commands::redo,
        commands::resign,
        commands::clock,
        commands::hint,
        commands::stop_thinking,
        commands::computer_play,
        commands::get_snapshot,
        commands::save_game,
        commands::open_game,
        commands::get_settings,
        commands::set_settings,
        commands::get_stats,
        commands::get_analysis,
        commands::set_analysis,
        commands::analysis_visible,
        commands::navigate,
        commands::variation,
        commands::edit,
        commands::paste_game,
        commands::copy_text,
        commands::review,
        commands::engines_list,
        commands::engine_add,
        commands::engine_check,
        commands::engine_remove,
        #[cfg(feature = "bench")]
        bench::bench_rss,
        #[cfg(feature = "bench")]
        bench::bench_report,
        #[cfg(feature = "bench")]
        bench::bench_marks,
        #[cfg(feature = "bench")]
        bench::bench_cpu,
    ]);
    let builder = builder.manage(analysis::AnalysisHandle::default());
    match data_dir {
        Some(dir) => match runtime::AppState::open(storage::Storage::new(Some(dir))) {
            Ok(state) => builder.manage(state),
            Err(e) => {
                eprintln!("tengen: {e}");
                builder
            }
        },
        None => builder.setup(|app| {
            #[cfg(feature = "bench")]
            bench::mark("setup");
            let dir = app.path().app_data_dir().ok();
            let state = runtime::AppState::open(storage::Storage::new(dir))?;
            #[cfg(feature = "bench")]
            bench::mark("state");
            let theme = state.lock().settings.theme;
            app.manage(state);
            webview::paint_background(app.handle(), theme);
            webview::tune(app.handle());
            // A restored game may be at the computer's turn.
            runtime::kick(app.handle());
            #[cfg(feature = "bench")]
            bench::mark("setup-done");
            Ok(())
        }),
    }
}

/// The size from which every allocation is a mapping of its own, given back to the system
/// when it is freed (Linux, glibc).
pub const OWN_MAPPING_BYTES: usize = 1 << 20;

/// Makes every allocation of [`OWN_MAPPING_BYTES`] or more a mapping of its own (call it
/// first in `main`). glibc raises that threshold by itself after a large block is freed (up
/// to 32 MiB), and engine tables under it then came from the heap and stayed with the
/// process once dropped: after a game with the 16 MiB engine memory, the app kept them
/// (docs/BENCHMARKS.md, "Memory").
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator; no memory is passed.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, OWN_MAPPING_BYTES as libc::c_int);
    }
}

/// Builds and runs the app.
pub fn run() {
    let builder = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .plugin(window::state_file_guard())
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .on_window_event(|window, event| window::on_event(window.app_handle(), event));
    #[cfg(feature = "bench")]
    let builder = builder.plugin(bench::init_script()).on_page_load(|webview, payload| {
        bench::mark(match payload.event() {
            tauri::webview::PageLoadEvent::Started => "page-started",
            tauri::webview::PageLoadEvent::Finished => "page-finished",
        });
        if bench::enabled() && matches!(payload.event(), tauri::webview::PageLoadEvent::Finished) {
            let level = std::env::var("TENGEN_BENCH_LEVEL").unwrap_or_else(|_| "master".into());
            let level: String = level.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
            let _ = webview.eval(bench::script(&level));
            bench::probe_main_thread(webview.app_handle());
        }
    });
    let app = match build_app(builder, None).build(tauri::generate_context!()) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("tengen: the app could not start: {e}");
            std::process::exit(1);
        }
    };
    app.run(|app, event| {
        // No external engine outlives the app.
        if let tauri::RunEvent::Exit = event {
            if let Some(state) = app.try_state::<runtime::AppState>() {
                state.lock().end_brains_now();
            }
        }
    });
}

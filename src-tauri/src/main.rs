//! The Tengen desktop app's entry point; everything lives in the library.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    #[cfg(feature = "bench")]
    tengen_app::bench::mark_start();
    tengen_app::run();
}

//! The Tengen desktop app's entry point; everything lives in the library.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    tengen_app::tune_allocator();
    tengen_app::webview::before_gtk();
    #[cfg(feature = "bench")]
    tengen_app::bench::mark_start();
    tengen_app::run();
}

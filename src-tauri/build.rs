//! Tauri's build step, with the app's own commands under the ACL: the page may call only
//! the commands that a capability grants (capabilities/default.json), not every registered
//! one as Tauri allows when the app declares no manifest. Built with `--features bench`,
//! the bench commands are declared too and granted by capabilities-bench/.

/// Every command of `generate_handler!` in src/lib.rs (tests/capabilities.rs checks it).
const COMMANDS: &[&str] = &[
    "new_game",
    "play_move",
    "opening_choice",
    "undo",
    "redo",
    "resign",
    "clock",
    "hint",
    "stop_thinking",
    "computer_play",
    "get_snapshot",
    "save_game",
    "open_game",
    "get_settings",
    "set_settings",
    "get_stats",
    "get_analysis",
    "set_analysis",
    "analysis_visible",
    "navigate",
    "variation",
    "edit",
    "paste_game",
    "copy_text",
    "review",
    "engines_list",
    "engine_add",
    "engine_check",
    "engine_remove",
];

/// The commands of the `bench` feature.
const BENCH_COMMANDS: &[&str] = &["bench_rss", "bench_report", "bench_marks", "bench_cpu"];

fn main() {
    let bench = std::env::var_os("CARGO_FEATURE_BENCH").is_some();
    let extra = if bench { BENCH_COMMANDS } else { &[] };
    let commands: Vec<&'static str> = COMMANDS.iter().chain(extra).copied().collect();
    let manifest = tauri_build::AppManifest::new().commands(Box::leak(commands.into_boxed_slice()));
    let mut attributes = tauri_build::Attributes::new().app_manifest(manifest);
    if bench {
        println!("cargo:rerun-if-changed=capabilities");
        println!("cargo:rerun-if-changed=capabilities-bench");
        attributes = attributes.capabilities_path_pattern("./capabilities*/**/*");
    }
    tauri_build::try_build(attributes).expect("the Tauri build step failed");
}

//! Least privilege: the main window's capability grants only what the UI uses, and the app
//! registers and declares (build.rs) only the commands the UI calls. Adding a permission or
//! a command without a use in `ui/js` fails here, and so does a page calling anything else.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{temp_dir, Harness};
use serde_json::{json, Value};

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of every script of the UI.
fn ui_js() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/js");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "js"))
        .collect();
    names.sort();
    names.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect::<Vec<_>>().join("\n")
}

/// Each permission the UI may hold, with the UI code that needs it.
const USES: &[(&str, &str, &str)] = &[
    ("core:event:allow-listen", "ipc.js", "window.__TAURI__?.event?.listen"),
    // `on()` hands the caller the unlisten function that `listen` resolves to.
    ("core:event:allow-unlisten", "ipc.js", "return listen(event,"),
];

#[test]
fn every_permission_of_the_capability_has_a_use_in_the_ui() {
    let dirs: Vec<_> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("capabilities"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
    assert_eq!(dirs, ["default.json"], "one capability file");
    let cap: Value = serde_json::from_str(&read("capabilities/default.json")).unwrap();
    assert_eq!(cap["windows"], serde_json::json!(["main"]));
    assert!(cap.get("remote").is_none() && cap.get("webviews").is_none(), "{cap}");
    let granted: Vec<&str> =
        cap["permissions"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    let called = ui_calls();
    for p in &granted {
        if let Some(command) = p.strip_prefix("allow-") {
            let command = command.replace('-', "_");
            assert!(called.contains(&command), "{p} is granted but the UI never calls {command}");
            continue;
        }
        let (_, file, code) = USES
            .iter()
            .find(|(name, _, _)| name == p)
            .unwrap_or_else(|| panic!("{p} is granted but nothing in the UI is known to use it"));
        assert!(
            read(&format!("../ui/js/{file}")).contains(code),
            "{p}: {file} no longer has {code}"
        );
    }
    for (name, file, code) in USES {
        if read(&format!("../ui/js/{file}")).contains(code) {
            assert!(granted.contains(name), "the UI uses {name} ({file}) but it is not granted");
        }
    }
    for command in &called {
        let p = format!("allow-{}", command.replace('_', "-"));
        assert!(granted.contains(&p.as_str()), "the UI calls {command} but {p} is not granted");
    }
    // Nothing reaches past ipc.js for Tauri's API.
    let js = ui_js();
    let tauri_uses = js.matches("__TAURI__").count();
    assert_eq!(tauri_uses, read("../ui/js/ipc.js").matches("__TAURI__").count(), "only ipc.js");
}

/// The commands of `generate_handler!` in lib.rs, without the `bench` feature's.
fn registered_commands() -> BTreeSet<String> {
    let lib = read("src/lib.rs");
    let start = lib.find("generate_handler![").expect("generate_handler! in lib.rs");
    let list = &lib[start + "generate_handler![".len()..];
    let list = &list[..list.find("])").unwrap()];
    let mut names = BTreeSet::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if !item.starts_with("#[cfg(feature = \"bench\")]") {
            names.insert(item.rsplit("::").next().unwrap().to_string());
        }
    }
    names
}

/// The commands ipc.js calls.
fn ui_calls() -> BTreeSet<String> {
    read("../ui/js/ipc.js")
        .split("call('")
        .skip(1)
        .map(|rest| rest[..rest.find('\'').unwrap()].to_string())
        .collect()
}

/// The commands build.rs declares to the ACL (its `COMMANDS`).
fn declared_commands() -> BTreeSet<String> {
    let build = read("build.rs");
    let list = &build[build.find("const COMMANDS: &[&str] = &[").expect("COMMANDS in build.rs")..];
    let list = &list[..list.find("];").unwrap()];
    list.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

#[test]
fn every_command_is_called_by_the_ui_and_every_call_is_a_command() {
    let registered = registered_commands();
    assert!(registered.len() >= 10, "{registered:?}");
    assert_eq!(registered, ui_calls(), "registered commands vs the UI's calls");
    assert_eq!(registered, declared_commands(), "registered commands vs build.rs");
}

/// The app with its real capabilities (the ACL that build.rs and capabilities/ make).
#[test]
fn the_page_reaches_only_what_the_capability_grants() {
    let h = Harness::with_context(temp_dir("acl"), tauri::generate_context!());
    assert_eq!(h.ok("get_settings", json!({}))["language"], "auto");
    assert!(h.ok("get_snapshot", json!({}))["board"].is_array());
    // Core commands that core:default would allow, and a plugin's.
    for cmd in ["plugin:window|title", "plugin:app|version", "plugin:dialog|open"] {
        let e = h.err(cmd, json!({}));
        assert!(e.to_string().contains("not allowed"), "{cmd}: {e}");
    }
    // Another window's page has no capability, so not even the app's commands: they are
    // under the ACL (declared in build.rs), not allowed to every page.
    let other = tauri::WebviewWindowBuilder::new(&h.app, "other", Default::default())
        .build()
        .expect("a second window");
    let e = Harness::invoke_from(&other, "get_settings", json!({})).unwrap_err();
    assert!(e.to_string().contains("not allowed"), "{e}");
    // The bench commands are neither registered nor declared without the feature.
    #[cfg(not(feature = "bench"))]
    for cmd in ["bench_rss", "bench_report"] {
        let e = h.err(cmd, json!({}));
        assert!(
            e.to_string().contains("not allowed") || e.to_string().contains("not found"),
            "{e}"
        );
    }
}

/// Tauri runs a plain `#[tauri::command] fn` on the main thread, the GTK loop's; every
/// command of the app must run on the async runtime instead (see `src/commands.rs`).
#[test]
fn no_command_runs_on_the_main_thread() {
    for file in ["src/commands.rs", "src/bench.rs"] {
        let text = read(file);
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("#[tauri::command") {
                let signature = lines[i + 1..].iter().find(|l| !l.starts_with("#[")).unwrap();
                assert!(
                    line.contains("(async)") || signature.starts_with("pub async fn"),
                    "{file}: `{signature}` would run on the main thread"
                );
            }
        }
    }
}

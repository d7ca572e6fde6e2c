//! Least privilege: the main window's capability grants only what the UI uses, and the app
//! registers only the commands the UI calls. Adding a permission or a command without a use
//! in `ui/js` fails here.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

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
    for p in &granted {
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

#[test]
fn every_command_is_called_by_the_ui_and_every_call_is_a_command() {
    let ipc = read("../ui/js/ipc.js");
    let called: BTreeSet<String> = ipc
        .split("call('")
        .skip(1)
        .map(|rest| rest[..rest.find('\'').unwrap()].to_string())
        .collect();
    let registered = registered_commands();
    assert!(registered.len() >= 10, "{registered:?}");
    assert_eq!(registered, called, "registered commands vs the UI's calls");
}

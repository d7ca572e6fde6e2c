//! A Tengen app on Tauri's mock runtime, driven through IPC like the UI drives it.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, mock_context, noop_assets, MockRuntime};
use tauri::webview::InvokeRequest;
use tauri::{App, Context, Listener, Manager, WebviewWindow, WebviewWindowBuilder};
use tengen_app::runtime::AppState;
use tengen_engine::ai::{
    AnyEngine, CancelFlag, Candidate, Engine, Level, Limits, Score, SearchInfo, SearchResult,
};
use tengen_engine::{gomoku, reversi, Move, Point};

/// A fresh, empty directory for one test.
pub fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("tengen-it-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub struct Harness {
    pub app: App<MockRuntime>,
    pub webview: WebviewWindow<MockRuntime>,
    pub dir: PathBuf,
}

impl Harness {
    /// An app keeping its files in a new directory.
    pub fn new(tag: &str) -> Harness {
        Harness::in_dir(temp_dir(tag))
    }

    /// An app keeping its files in `dir` (a second app in the same directory is a restart).
    pub fn in_dir(dir: PathBuf) -> Harness {
        Harness::with_context(dir, mock_context(noop_assets()))
    }

    /// An app built with `context` (e.g. the real one of `tauri::generate_context!()`, with
    /// the capabilities).
    pub fn with_context(dir: PathBuf, context: Context<MockRuntime>) -> Harness {
        let app = tengen_app::build_app(mock_builder(), Some(dir.clone()))
            .build(context)
            .expect("the app builds");
        let webview =
            WebviewWindowBuilder::new(&app, "main", Default::default()).build().expect("webview");
        Harness { app, webview, dir }
    }

    /// Replaces the real engines by [`FakeEngine`]s.
    pub fn with_fake_engines(self) -> Harness {
        {
            let state = self.app.state::<AppState>();
            let mut s = state.lock();
            s.engine_factory = Arc::new(|level, _seed, _memory| fake_engine(level));
            s.watch_delay = Duration::from_millis(5);
        }
        self
    }

    /// Calls a command with JSON arguments, as `invoke(cmd, args)` in the UI.
    pub fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        Harness::invoke_from(&self.webview, cmd, args)
    }

    /// Calls a command from the page of `webview`.
    pub fn invoke_from(
        webview: &WebviewWindow<MockRuntime>,
        cmd: &str,
        args: Value,
    ) -> Result<Value, Value> {
        get_ipc_response(
            webview,
            InvokeRequest {
                cmd: cmd.into(),
                callback: CallbackFn(0),
                error: CallbackFn(1),
                url: "tauri://localhost".parse().unwrap(),
                body: InvokeBody::Json(args),
                headers: Default::default(),
                invoke_key: tauri::test::INVOKE_KEY.to_string(),
            },
        )
        .map(|b| b.deserialize::<Value>().unwrap())
    }

    /// Calls a command that must succeed.
    pub fn ok(&self, cmd: &str, args: Value) -> Value {
        match self.invoke(cmd, args) {
            Ok(v) => v,
            Err(e) => panic!("{cmd} failed: {e}"),
        }
    }

    /// Calls a command that must fail; answers with the error object.
    pub fn err(&self, cmd: &str, args: Value) -> Value {
        match self.invoke(cmd, args) {
            Ok(v) => panic!("{cmd} should have failed, got {v}"),
            Err(e) => e,
        }
    }

    pub fn snapshot(&self) -> Value {
        self.ok("get_snapshot", json!({}))
    }

    /// Polls the snapshot until `pred` holds (panics after `secs` seconds).
    pub fn wait_until(&self, secs: u64, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let s = self.snapshot();
            if pred(&s) {
                return s;
            }
            if start.elapsed() > Duration::from_secs(secs) {
                panic!("timed out waiting for {what}; last snapshot: {s}");
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Collects the payloads of event `name`.
    pub fn events(&self, name: &str) -> mpsc::Receiver<Value> {
        let (tx, rx) = mpsc::channel();
        self.app.listen_any(name.to_string(), move |e| {
            let v: Value = serde_json::from_str(e.payload()).unwrap_or(Value::Null);
            let _ = tx.send(v);
        });
        rx
    }
}

/// The next event on `events` (see [`Harness::events`]) that satisfies `pred` (panics after
/// 60 s).
pub fn next(events: &mpsc::Receiver<Value>, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match events.recv_timeout(left) {
            Ok(ev) if pred(&ev) => return ev,
            Ok(_) => {}
            Err(_) => panic!("timed out waiting for {what}"),
        }
    }
}

/// A game configuration as the UI sends it.
pub fn gomoku_config(rule: &str, size: u8, black: Value, white: Value, ms: u64) -> Value {
    json!({
        "kind": {"game": "gomoku", "rule": rule, "size": size},
        "black": black, "white": white, "timePerMoveMs": ms, "timeControl": {"type": "none"}
    })
}

pub fn reversi_config(black: Value, white: Value, ms: u64) -> Value {
    let none = json!({"type": "none"});
    json!({ "kind": {"game": "reversi"}, "black": black, "white": white, "timePerMoveMs": ms, "timeControl": none })
}

pub fn human() -> Value {
    json!({"type": "human"})
}

pub fn computer(game: &str, level: &str) -> Value {
    json!({"type": "computer", "level": {"game": game, "level": level}})
}

/// The number of moves in a snapshot.
/// The moves that lead to the position shown (`moves` is the whole line shown, `ply` how
/// many of its entries lead to the position).
pub fn move_count(s: &Value) -> usize {
    s["ply"].as_u64().map_or(0, |n| n as usize)
}

/// A stand-in engine: it thinks until its time is up or it is cancelled (reporting
/// progress every 5 ms), then plays the first legal point in reading order.
pub struct FakeEngine;

fn think(limits: &Limits, cancel: &CancelFlag, progress: &mut dyn FnMut(&SearchInfo)) {
    let start = Instant::now();
    let time = limits.time.unwrap_or(Duration::from_millis(100));
    let mut nodes = 0;
    while start.elapsed() < time && !cancel.is_cancelled() {
        nodes += 1000;
        progress(&SearchInfo { depth: 1, nodes, ..SearchInfo::default() });
        thread::sleep(Duration::from_millis(5));
    }
}

fn answer(best: Move) -> SearchResult {
    SearchResult {
        best,
        info: SearchInfo {
            depth: 1,
            candidates: vec![Candidate { mv: best, score: Score::Eval(7) }],
            ..SearchInfo::default()
        },
    }
}

impl Engine<gomoku::Position> for FakeEngine {
    fn search(
        &mut self,
        pos: &gomoku::Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        think(limits, cancel, progress);
        let size = pos.size();
        let best = (0..size as usize * size as usize)
            .map(|i| Point::from_index(i, size))
            .find(|&p| pos.is_legal(p).is_ok())
            .map_or(Move::Pass, Move::Place);
        answer(best)
    }
}

impl Engine<reversi::Position> for FakeEngine {
    fn search(
        &mut self,
        pos: &reversi::Position,
        limits: &Limits,
        cancel: &CancelFlag,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        think(limits, cancel, progress);
        answer(pos.legal_points().first().copied().map_or(Move::Pass, Move::Place))
    }
}

pub fn fake_engine(level: Level) -> AnyEngine {
    match level {
        Level::Gomoku(_) => AnyEngine::Gomoku(Box::new(FakeEngine)),
        Level::Reversi(_) => AnyEngine::Reversi(Box::new(FakeEngine)),
    }
}

/// Whether the engine of `level` exists yet (the AI levels land one by one).
pub fn level_implemented(level: Level) -> bool {
    std::panic::catch_unwind(|| AnyEngine::new(level, 1)).is_ok()
}

//! Measurements of the real app (`TENGEN_BENCH=1`): time from start to the UI's first
//! snapshot, memory (RSS) when idle and while the computer thinks, the IPC round trip
//! while it thinks, and how long a task waits for the main (GTK) thread meanwhile. Built only with the `bench` feature (so the installed app has no bench
//! commands), and with the variable unset nothing here runs. See `scripts/bench-app.sh`.

use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tauri::{AppHandle, Runtime};

use crate::error::{AppError, AppResult};

static START: OnceLock<Instant> = OnceLock::new();
static FIRST_SNAPSHOT_MS: OnceLock<u64> = OnceLock::new();
/// The start's steps: name, ms since the process started.
static MARKS: Mutex<Vec<(&'static str, f64)>> = Mutex::new(Vec::new());
/// The CPU time each process of the app had used at a mark of the page ([`bench_cpu`]).
static CPU_MARKS: Mutex<Vec<(String, Value)>> = Mutex::new(Vec::new());
/// When each `bench_rss` was called (the script calls it around the busy round trips).
static RSS_CALLS: Mutex<Vec<Instant>> = Mutex::new(Vec::new());
/// The main thread's lag: when a probe was sent, and how long it waited to run there.
static MAIN_LAG: Mutex<Vec<(Instant, Duration)>> = Mutex::new(Vec::new());

/// Sends a probe to the main thread every 10 ms and notes how long each waited to run
/// there (every IPC request and answer and every event passes through that thread).
pub fn probe_main_thread<R: Runtime>(app: &AppHandle<R>) {
    let app = app.clone();
    let spawned = std::thread::Builder::new().name("tengen-bench-probe".into()).spawn(move || {
        // Bounded: at most ten minutes of probes.
        for _ in 0..60_000 {
            let sent = Instant::now();
            let probe = move || {
                MAIN_LAG.lock().unwrap_or_else(|p| p.into_inner()).push((sent, sent.elapsed()));
            };
            if app.run_on_main_thread(probe).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    });
    if let Err(e) = spawned {
        eprintln!("tengen: no main-thread probe: {e}");
    }
}

/// Whether the app runs to measure itself.
pub fn enabled() -> bool {
    std::env::var_os("TENGEN_BENCH").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Notes when the process started (first thing in `main`).
pub fn mark_start() {
    let _ = START.get_or_init(Instant::now);
}

/// Notes the first time the UI asks for the snapshot (it draws the board right after).
pub fn mark_first_snapshot() {
    if let Some(start) = START.get() {
        let _ = FIRST_SNAPSHOT_MS.get_or_init(|| start.elapsed().as_millis() as u64);
    }
    mark("first-snapshot");
}

/// Notes a step of the start (the first time only), in ms since the process started.
pub fn mark(name: &'static str) {
    let Some(start) = START.get() else { return };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let mut marks = MARKS.lock().unwrap_or_else(|p| p.into_inner());
    if !marks.iter().any(|(n, _)| *n == name) {
        marks.push((name, ms));
    }
}

/// The start's steps in the app ([`mark`]), for `scripts/bench-app.mjs`: `marks`, ms since
/// the process started, and `cpu`, what each process had used at the page's marks
/// ([`bench_cpu`]).
#[tauri::command(async)]
pub fn bench_marks() -> AppResult<Value> {
    let marks = MARKS.lock().unwrap_or_else(|p| p.into_inner());
    let marks: serde_json::Map<String, Value> =
        marks.iter().map(|(n, ms)| (n.to_string(), json!(ms.round()))).collect();
    let cpu = CPU_MARKS.lock().unwrap_or_else(|p| p.into_inner());
    let cpu: serde_json::Map<String, Value> = cpu.iter().cloned().collect();
    Ok(json!({ "marks": marks, "cpu": cpu }))
}

/// The page script of bench builds ([`init_script`]): each of the page's start marks named
/// here (`performance.mark('tengen-…')`, ui/js/app.js) calls [`bench_cpu`] at once, so the CPU
/// time is read at the moment the page reaches it, not when a driver polling the page sees it.
const CPU_AT_MARKS: &str = r#"(() => {
  const marks = new Set(['tengen-init', 'tengen-board-drawn']);
  const mark = performance.mark.bind(performance);
  performance.mark = (name, ...rest) => {
    const entry = mark(name, ...rest);
    if (marks.has(name)) window.__TAURI_INTERNALS__.invoke('bench_cpu', { mark: name.slice(7) }).catch(() => {});
    return entry;
  };
})();"#;

/// A plugin that only adds [`CPU_AT_MARKS`] to every page of a bench build.
pub fn init_script<R: Runtime>() -> tauri::plugin::TauriPlugin<R> {
    tauri::plugin::Builder::new("tengen-bench").js_init_script(CPU_AT_MARKS).build()
}

/// Notes the CPU time (user + system, ms) this process and each process it started (WebKit's
/// web and network processes) have used so far, under `mark` (the first time only).
#[tauri::command(async)]
pub fn bench_cpu(mark: String) -> AppResult<Value> {
    let sample = cpu_tree();
    let mut marks = CPU_MARKS.lock().unwrap_or_else(|p| p.into_inner());
    if !marks.iter().any(|(n, _)| *n == mark) {
        marks.push((mark, sample.clone()));
    }
    Ok(sample)
}

/// The fields of /proc/PID/stat after the command name: (ppid, name, utime + stime in ticks).
fn proc_stat(pid: &str) -> Option<(u32, String, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (open, close) = (text.find('(')?, text.rfind(')')?);
    let name = text.get(open + 1..close)?.to_string();
    let rest: Vec<&str> = text.get(close + 2..)?.split(' ').collect();
    // From field 3 (state) on: ppid is field 4, utime 14, stime 15.
    let ppid = rest.get(1)?.parse().ok()?;
    let ticks = rest.get(11)?.parse::<u64>().ok()? + rest.get(12)?.parse::<u64>().ok()?;
    Some((ppid, name, ticks))
}

/// CPU ms of this process (`app`), of its descendants by kind (`web`, `network`, `other`)
/// and in `all`, read from /proc/PID/stat (whole processes, ended threads included; 10 ms
/// ticks on Linux).
fn cpu_tree() -> Value {
    // SAFETY: sysconf only reads a constant of the system.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let ms = |ticks: u64| (ticks as f64 * 1000.0 / hz).round();
    let me = std::process::id();
    let all: Vec<(u32, u32, String, u64)> = std::fs::read_dir("/proc")
        .map(|dir| {
            dir.flatten()
                .filter_map(|e| {
                    let name = e.file_name().into_string().ok()?;
                    let pid: u32 = name.parse().ok()?;
                    let (ppid, comm, ticks) = proc_stat(&name)?;
                    Some((pid, ppid, comm, ticks))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut tree = vec![me];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(all.iter().filter(|p| p.1 == parent).map(|p| p.0));
        i += 1;
    }
    let (mut app, mut web, mut network, mut other) = (0, 0, 0, 0);
    let mut procs = Vec::new();
    for (pid, _, comm, ticks) in all.iter().filter(|p| tree.contains(&p.0)) {
        let slot = if *pid == me {
            &mut app
        } else if comm.starts_with("WebKitWeb") {
            &mut web
        } else if comm.starts_with("WebKitNet") {
            &mut network
        } else {
            &mut other
        };
        *slot += ticks;
        procs.push(json!({ "pid": pid, "name": comm, "cpuMs": ms(*ticks) }));
    }
    json!({
        "app": ms(app), "web": ms(web), "network": ms(network), "other": ms(other),
        "all": ms(app + web + network + other), "procs": procs,
    })
}

/// The resident set size of this process in KiB (Linux), or 0.
pub fn rss_kib() -> u64 {
    tengen_engine::io::read_text_bounded(std::path::Path::new("/proc/self/status"), 64 << 10)
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// The script the bench mode runs in the page: it times `get_snapshot` round trips while
/// the computer thinks and reports through `bench_report`.
pub fn script(level: &str) -> String {
    format!(
        r#"(async () => {{
  const inv = window.__TAURI__.core.invoke;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  await sleep(2000);
  const idle = await inv('bench_rss');
  const times = [];
  for (let i = 0; i < 100; i++) {{ const t = performance.now(); await inv('get_snapshot'); times.push(performance.now() - t); }}
  const config = {{ kind: {{ game: 'gomoku', rule: 'freestyle', size: 15 }},
    black: {{ type: 'computer', level: {{ game: 'gomoku', level: '{level}' }} }},
    white: {{ type: 'computer', level: {{ game: 'gomoku', level: '{level}' }} }}, timePerMoveMs: 20000 }};
  // Computer against computer: the first moves come from the opening book, then every move
  // is a long search, so the round trips below are timed while a search runs.
  await inv('new_game', {{ config }});
  await sleep(3000);
  await inv('bench_rss');
  const busy = [];
  let thinkingAll = true;
  for (let i = 0; i < 200; i++) {{
    const t = performance.now();
    const s = await inv('get_snapshot');
    busy.push(performance.now() - t);
    if (!s.thinking) thinkingAll = false;
  }}
  const thinking = await inv('bench_rss');
  await inv('bench_report', {{ report: {{ idleKib: idle, thinkingKib: thinking, idleMs: times, busyMs: busy, thinkingAll }} }});
}})();"#
    )
}

/// RSS in KiB, for the bench script.
#[tauri::command(async)]
pub fn bench_rss() -> AppResult<u64> {
    if !enabled() {
        return Err(AppError::invalid("bench", "the bench mode is off"));
    }
    RSS_CALLS.lock().unwrap_or_else(|p| p.into_inner()).push(Instant::now());
    Ok(rss_kib())
}

fn stats(v: &Value) -> Value {
    let mut xs: Vec<f64> =
        v.as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default();
    xs.sort_by(f64::total_cmp);
    let at = |q: f64| xs.get(((xs.len() as f64 - 1.0) * q).round() as usize).copied();
    json!({ "n": xs.len(), "median": at(0.5), "p95": at(0.95), "max": xs.last() })
}

/// Prints the measurements as one JSON line and closes the app.
#[tauri::command(async)]
pub fn bench_report<R: Runtime>(app: AppHandle<R>, report: Value) -> AppResult<()> {
    if !enabled() {
        return Err(AppError::invalid("bench", "the bench mode is off"));
    }
    // The main thread's lag between the last two `bench_rss` calls: the busy round trips.
    let calls = RSS_CALLS.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let busy_lag: Vec<Value> = match calls.as_slice() {
        [.., from, to] => MAIN_LAG
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .filter(|(sent, _)| sent >= from && sent <= to)
            .map(|(_, lag)| json!(lag.as_secs_f64() * 1000.0))
            .collect(),
        _ => Vec::new(),
    };
    let out = json!({
        "firstSnapshotMs": FIRST_SNAPSHOT_MS.get(),
        "rssIdleKib": report["idleKib"],
        "rssThinkingKib": report["thinkingKib"],
        "ipcIdleMs": stats(&report["idleMs"]),
        "ipcWhileThinkingMs": stats(&report["busyMs"]),
        "mainThreadLagWhileThinkingMs": stats(&Value::Array(busy_lag)),
        "thinkingThroughout": report["thinkingAll"],
    });
    println!("TENGEN_BENCH {out}");
    app.exit(0);
    Ok(())
}

// Measures the real app the way a user feels it (run by scripts/bench-app.sh, which starts
// Xvfb and tauri-driver and sets WEBDRIVER_URL and TENGEN_APP):
//   - start: process start -> first contentful paint -> board drawn, warm and with an empty
//     XDG_CACHE_HOME (the first start after an install), through WebDriver sessions; in a
//     bench build also the CPU time (user + system) the app and its WebKit processes had used
//     when the page marked the board drawn (read by the app at that moment: bench_cpu), which
//     a busy machine changes far less than the wall time. TENGEN_APPS (several binaries,
//     separated by ':') compares builds: only the starts, the builds alternating start by
//     start after one start not counted (the first app on a new display is slow), with the
//     medians per build in `summary`;
//   - CPU of every process of the app (the app and its WebKit processes), idle for 10 s and
//     for 10 s while Master thinks, from /proc/PID/stat (utime + stime);
//   - memory: PSS of every process (/proc/PID/smaps_rollup), idle and while Master thinks,
//     each split into anonymous memory, files (the shared libraries, mostly) and shared
//     memory, with the app's largest file mappings (/proc/PID/smaps); then the PSS while
//     Master plays Master, after the game ends (the engines give their tables back), with
//     live analysis on and after it is switched off (BENCH_ENGINE_MIB sets the engine memory
//     setting first, e.g. 16 or 256);
//   - IPC round trips (get_snapshot) idle and while Master thinks; the size of a snapshot and
//     of the progress events;
//   - the delay from a click (a real WebDriver click) to the player's stone in a frame, and to
//     the backend's confirmation, the first click apart from the later ones, and how long the
//     page's click handlers ran; then the CPU at rest again, after the clicks.
// Prints one JSON report on stdout; progress goes to stderr. BENCH_APP_ENV adds variables to
// the app's environment (space-separated NAME=value), to compare WebKit's switches.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session, sleep } from '../tests/e2e/webdriver.mjs';

const APPS = (process.env.TENGEN_APPS || process.env.TENGEN_APP || 'target/release/tengen-app').split(':').filter(Boolean).map((a) => path.resolve(a));
let APP = APPS[0]; // the build started by session()
const DRIVER = process.env.WEBDRIVER_URL;
const RUNS = Number(process.env.BENCH_RUNS || 3);
const HZ = 100; // USER_HZ: the clock ticks of /proc/PID/stat on Linux
const log = (...a) => console.error('[bench]', ...a);

// ---------------------------------------------------------------- /proc

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

function stat(pid) {
  const s = read(`/proc/${pid}/stat`);
  if (!s) return null;
  const after = s.slice(s.lastIndexOf(')') + 2).split(' ');
  // Fields from 3 (state) on: utime is field 14, stime 15, starttime 22.
  return { ppid: Number(after[1]), ticks: Number(after[11]) + Number(after[12]), start: Number(after[19]) };
}

const comm = (pid) => (read(`/proc/${pid}/comm`) || '').trim();

/** The app's process and its descendants (the WebKit web and network processes). */
function tree(root) {
  const all = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  const parent = new Map(all.map((pid) => [pid, stat(pid)?.ppid]));
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  return out.filter((pid) => stat(pid));
}

/** The newest process running the app binary. */
function appPid() {
  let best = null;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let exe;
    try {
      exe = fs.readlinkSync(`/proc/${d}/exe`);
    } catch {
      continue;
    }
    if (exe !== APP) continue;
    const st = stat(d);
    if (st && (!best || st.start > best.start)) best = { pid: Number(d), start: st.start };
  }
  return best?.pid ?? null;
}

/** When a process started, in ms since the epoch (10 ms resolution). */
function startedAt(pid) {
  const uptime = Number(read('/proc/uptime').split(' ')[0]);
  const now = Date.now();
  return now - (uptime - stat(pid).start / HZ) * 1000;
}

const pssKib = (pid) => Number(/^Pss:\s+(\d+)/m.exec(read(`/proc/${pid}/smaps_rollup`) || '')?.[1] || 0);

/** PSS of a process in MiB, in all and split: anonymous, files (libraries), shared memory. */
function pssSplit(pid) {
  const text = read(`/proc/${pid}/smaps_rollup`) || '';
  const field = (name) => round(Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] || 0) / 1024);
  return { pss: field('Pss'), anon: field('Pss_Anon'), file: field('Pss_File'), shmem: field('Pss_Shmem') };
}

/** The largest file-backed mappings of a process by PSS (MiB), summed per file. */
function topFiles(pid, n = 8) {
  const per = new Map();
  let name = null;
  for (const line of (read(`/proc/${pid}/smaps`) || '').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      name = head[1].startsWith('/') ? path.basename(head[1]) : null;
      continue;
    }
    const pss = /^Pss:\s+(\d+)/.exec(line);
    if (pss && name) per.set(name, (per.get(name) || 0) + Number(pss[1]));
  }
  return [...per].sort((a, b) => b[1] - a[1]).slice(0, n).map(([file, kib]) => ({ file, pssMib: round(kib / 1024) }));
}

/** PSS of every process of the tree now, split (see pssSplit), and the sum. */
function memory(root) {
  const procs = tree(root).map((pid) => ({ pid, name: comm(pid), ...pssSplit(pid) }));
  return { procs, pssMibAll: round(procs.reduce((a, p) => a + p.pss, 0)) };
}

/** CPU of every process of the tree over `ms`, in % of one core, and PSS at the end. */
async function sample(root, ms) {
  const before = new Map(tree(root).map((pid) => [pid, stat(pid).ticks]));
  const t0 = performance.now();
  await sleep(ms);
  const seconds = (performance.now() - t0) / 1000;
  const procs = tree(root).map((pid) => {
    const used = stat(pid).ticks - (before.get(pid) ?? 0);
    const split = pssSplit(pid);
    return { pid, name: comm(pid), cpuPercent: round((used / HZ / seconds) * 100), pssMib: split.pss, anonMib: split.anon, fileMib: split.file, shmemMib: split.shmem };
  });
  return {
    seconds: round(seconds),
    procs,
    cpuPercentAll: round(procs.reduce((a, p) => a + p.cpuPercent, 0)),
    pssMibAll: round(procs.reduce((a, p) => a + p.pssMib, 0)),
  };
}

const round = (x) => Math.round(x * 10) / 10;
function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => round(s[Math.min(s.length - 1, Math.round((s.length - 1) * q))]);
  return { n: s.length, median: at(0.5), p95: at(0.95), max: round(s[s.length - 1]) };
}

// ---------------------------------------------------------------- the page

let caches; // a scratch directory: the cache directories and the launcher below

/**
 * Starts the app through the driver with XDG_CACHE_HOME = cache. tauri-driver passes on its
 * own environment only, so the driver starts a small launcher that sets it and runs the app.
 */
async function session(cache) {
  const launcher = path.join(caches, 'launch.sh');
  // BENCH_APP_ENV: more variables for the app, e.g. 'WEBKIT_DISABLE_DMABUF_RENDERER=1' (A/B).
  const more = (process.env.BENCH_APP_ENV || '').split(/\s+/).filter((v) => /^[A-Z_][A-Z0-9_]*=[\w./:-]*$/.test(v));
  const exports = [`XDG_CACHE_HOME='${cache}'`, ...more].map((v) => `export ${v}\n`).join('');
  fs.writeFileSync(launcher, `#!/bin/sh\n${exports}exec '${APP}' "$@"\n`, { mode: 0o755 });
  const s = await Session.create(DRIVER, launcher);
  await s.cmd('POST', '/timeouts', { script: 300000 }); // the round trips below, on a busy machine
  await s.waitFor(`return document.documentElement.dataset.ready === 'true'`, { timeout: 60000, what: 'the UI' });
  return s;
}

/** Runs an async page function (its body may await); resolves to its value. */
const run = (s, body, args = []) =>
  s.cmd('POST', '/execute/async', {
    script: `const done = arguments[arguments.length - 1];
      (async (...args) => { ${body} })(...Array.from(arguments).slice(0, -1)).then(done, (e) => done({ error: String(e && (e.message || e.code) || e) }));`,
    args,
  });

const START_TIMES = `
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const board = performance.getEntriesByName('tengen-board-drawn')[0];
  // The app's own marks of its start (ui/js/app.js), in ms from the page's start.
  const marks = Object.fromEntries(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('tengen-')).map((m) => [m.name.slice(7), Math.round(m.startTime)]));
  return { origin: performance.timeOrigin, fcp: paint ? paint.startTime : null, board: board ? board.startTime : null, marks };`;

async function startOnce(cache) {
  const s = await session(cache);
  await s.waitFor(`return performance.getEntriesByName('tengen-board-drawn').length > 0`, { what: 'the board mark' });
  const pid = appPid();
  const started = startedAt(pid);
  const t = await s.execute(START_TIMES);
  // The app's own marks of its start (src-tauri/src/bench.rs), in ms from the process start,
  // when the binary has the bench feature.
  const app = await run(s, `try { return await window.__TAURI__.core.invoke('bench_marks'); } catch { return null; }`);
  await s.delete();
  await sleep(500);
  // Builds before bench_cpu answered the marks alone.
  const cpu = app?.cpu?.['board-drawn'];
  return {
    firstPaintMs: t.fcp == null ? null : Math.round(t.origin + t.fcp - started),
    boardDrawnMs: Math.round(t.origin + t.board - started),
    pageStartMs: Math.round(t.origin - started),
    // CPU ms used by the board drawn: the web process, the app, all of the app's processes.
    cpuAtBoardMs: cpu ? { web: cpu.web, app: cpu.app, network: cpu.network, all: cpu.all } : null,
    cpuAtInitMs: app?.cpu?.init ? { web: app.cpu.init.web, app: app.cpu.init.app, all: app.cpu.init.all } : null,
    marks: t.marks, // from the page's start
    appMarks: app?.marks ?? app, // from the process start
  };
}

const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : round((s[m - 1] + s[m]) / 2);
};

/** Medians of a list of starts: the wall time to the board and the CPU used by then. */
function summarise(starts) {
  const at = (f) => median(starts.map(f));
  return {
    n: starts.length,
    boardDrawnMs: at((r) => r.boardDrawnMs),
    boardDrawnRangeMs: [Math.min(...starts.map((r) => r.boardDrawnMs)), Math.max(...starts.map((r) => r.boardDrawnMs))],
    pageStartMs: at((r) => r.pageStartMs),
    pageStartToBoardMs: at((r) => r.boardDrawnMs - r.pageStartMs),
    cpuAtBoardMs: starts.some((r) => r.cpuAtBoardMs)
      ? { web: at((r) => r.cpuAtBoardMs?.web), app: at((r) => r.cpuAtBoardMs?.app), all: at((r) => r.cpuAtBoardMs?.all) }
      : null,
    cpuAtInitMs: starts.some((r) => r.cpuAtInitMs) ? { web: at((r) => r.cpuAtInitMs?.web), app: at((r) => r.cpuAtInitMs?.app) } : null,
  };
}

/** TENGEN_APPS: the builds alternating, start by start (empty cache, then warm, per round). */
async function compare(report) {
  log(`comparing ${APPS.length} builds, ${RUNS} rounds`);
  APP = APPS[0];
  await startOnce(path.join(caches, 'warm-up')); // the first app on a new display: not counted
  const per = APPS.map((app) => ({ app, startEmptyCache: [], startWarm: [] }));
  for (let i = 0; i < RUNS; i++) {
    // Each round starts with a different build, so no build always follows the same one.
    for (let k = 0; k < APPS.length; k++) {
      const b = per[(i + k) % APPS.length];
      APP = b.app;
      const dir = path.join(caches, `run${i}-${(i + k) % APPS.length}`);
      b.startEmptyCache.push(await startOnce(dir));
      b.startWarm.push(await startOnce(dir));
      log(`round ${i + 1}, ${path.basename(path.dirname(path.dirname(b.app)))}/${path.basename(b.app)}: warm ${b.startWarm.at(-1).boardDrawnMs} ms, web CPU ${b.startWarm.at(-1).cpuAtBoardMs?.web} ms`);
    }
  }
  report.loadavgEnd = os.loadavg().map(round);
  report.builds = per;
  report.summary = per.map((b) => ({ app: b.app, warm: summarise(b.startWarm), emptyCache: summarise(b.startEmptyCache) }));
}

async function main() {
  if (!DRIVER) throw new Error('WEBDRIVER_URL is not set (run scripts/bench-app.sh)');
  const report = { app: APPS.join(':'), machine: `${os.cpus().length} × ${os.cpus()[0].model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`, loadavg: os.loadavg().map(round) };
  caches = fs.mkdtempSync(path.join(os.tmpdir(), 'tengen-bench-'));
  if (process.env.BENCH_APP_ENV) report.appEnv = process.env.BENCH_APP_ENV;

  if (APPS.length > 1) {
    await compare(report);
    fs.rmSync(caches, { recursive: true, force: true });
    console.log(JSON.stringify(report, null, 1));
    return;
  }
  log('start with an empty cache, then warm');
  const cold = [];
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = path.join(caches, `run${i}`);
    cold.push(await startOnce(dir));
    warm.push(await startOnce(dir));
  }
  report.startEmptyCache = cold;
  report.startWarm = warm;
  report.summary = { warm: summarise(warm), emptyCache: summarise(cold) };
  if (process.env.BENCH_ONLY === 'start') {
    console.log(JSON.stringify(report, null, 1));
    return;
  }

  const s = await session(path.join(caches, 'run0'));
  const pid = appPid();
  await sleep(3000);
  log('idle: CPU and PSS over 10 s');
  report.idle = await sample(pid, 10000);
  report.appLargestFilesAtRest = topFiles(pid);

  report.snapshotJsonBytes = await run(s, `return JSON.stringify(await window.__TAURI__.core.invoke('get_snapshot')).length;`);
  const RTT = `const times = [];
    for (let i = 0; i < args[0]; i++) { const t = performance.now(); await window.__TAURI__.core.invoke('get_snapshot'); times.push(performance.now() - t); }
    return times;`;
  report.ipcIdleMs = stats(await run(s, RTT, [100]));

  // BENCH_AB=1: what the animations cost, side by side in one run. The old rule that swept
  // the (invisible) thinking bar at all times is put back for 10 s at rest; later the
  // thinking animations are switched off for 10 s while Master thinks.
  const style = (css) => s.execute(`let e = document.getElementById('__bench'); if (!e) { e = document.createElement('style'); e.id = '__bench'; document.head.append(e); } e.textContent = arguments[0];`, [css]);
  /** 10 s with a style rule, then 10 s without it again. */
  const withRule = async (what, css) => {
    log(`A/B: ${what}`);
    await style(css);
    const on = await sample(pid, 10000);
    await style('');
    return [on, await sample(pid, 10000)];
  };
  if (process.env.BENCH_AB) {
    [report.idleWithOldSweep, report.idleAgain] = await withRule('the old always-on sweep at rest', '.thinking-bar i { animation: sweep 1.3s ease-in-out infinite; }');
  }

  log('Master against Master: wait for a search with progress events');
  await run(s, `
    const sizes = (window.__benchSizes = { progress: [], snapshot: [] });
    await window.__TAURI__.event.listen('ai-progress', (e) => sizes.progress.push(JSON.stringify(e.payload).length));
    await window.__TAURI__.event.listen('snapshot', (e) => sizes.snapshot.push(JSON.stringify(e.payload).length));
    const master = { type: 'computer', level: { game: 'gomoku', level: 'master' } };
    await window.__TAURI__.core.invoke('new_game', { config: { kind: { game: 'gomoku', rule: 'freestyle', size: 15 }, black: master, white: master, timePerMoveMs: 30000 } });`);
  await s.waitFor(`return window.__benchSizes.progress.length >= 3`, { timeout: 60000, what: 'progress events' });
  const progressBefore = await s.execute(`return window.__benchSizes.progress.length`);
  const thinkStart = performance.now();
  report.thinking = await sample(pid, 10000);
  // The round trips beside the page's own frames: the gaps between animation frames show
  // how long the page's main thread was busy (WebKitGTK has no 'longtask' entries), and
  // each slow round trip is matched with the longest gap during it.
  const { times: busy, gaps, slow } = await run(s, `
    const frames = [];
    let on = true;
    const tick = (now) => { frames.push(now); if (on) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    const times = [], spans = [];
    for (let i = 0; i < args[0]; i++) { const t = performance.now(); await window.__TAURI__.core.invoke('get_snapshot'); const e = performance.now(); times.push(e - t); spans.push([t, e]); }
    on = false;
    const gaps = frames.slice(1).map((f, i) => f - frames[i]);
    const slow = spans.filter(([t, e]) => e - t > 20).map(([t, e]) => ({
      ms: Math.round(e - t),
      gapMs: Math.round(Math.max(0, ...gaps.filter((g, i) => frames[i + 1] > t && frames[i] < e))),
    }));
    return { times, gaps, slow };`, [200]);
  report.frameGapsWhileThinkingMs = stats(gaps);
  report.slowRoundTrips = slow;
  const progressCount = (await s.execute(`return window.__benchSizes.progress.length`)) - progressBefore;
  report.ipcWhileThinkingMs = stats(busy);
  if (process.env.BENCH_AB) {
    [report.thinkingNoAnimation, report.thinkingAgain] = await withRule('thinking without the thinking animations', '.thinking-bar i, .player.thinking .piece { animation: none !important; }');
    [report.thinkingSteppedAnimation, report.thinkingAgain2] = await withRule('thinking with the animations in ten steps a second', '.is-thinking .thinking-bar i { animation: sweep 2.4s steps(24) infinite !important; } .player.thinking .piece { animation: breathe 1.2s steps(12) infinite alternate !important; }');
  }
  report.stillThinking = await run(s, `return !!(await window.__TAURI__.core.invoke('get_snapshot')).thinking;`);
  const sizes = await s.execute(`return window.__benchSizes`);
  report.progressEvents = { perSecond: round(progressCount / ((performance.now() - thinkStart) / 1000)), jsonBytes: stats(sizes.progress) };
  report.snapshotEventJsonBytes = sizes.snapshot.length ? stats(sizes.snapshot) : null;

  log("click to the player's stone");
  await run(s, `
    // Two people at the board: every click is a player's move, and no computer reply can
    // end the game early.
    const human = { type: 'human' };
    await window.__TAURI__.core.invoke('new_game', { config: { kind: { game: 'gomoku', rule: 'freestyle', size: 15 }, black: human, white: human, timePerMoveMs: 1000 } });`);
  const clicks = { toFrame: [], toConfirmed: [], handler: [] };
  for (let i = 0; i < 10; i++) {
    await s.waitFor(`return !!document.querySelector('.board[data-ghost]') && !document.querySelector('.cell.provisional')`, { what: 'our turn' }).catch(async (err) => {
      log(await s.execute(`return [document.querySelector('#status').textContent, document.querySelector('#game-title').textContent, [...document.querySelectorAll('dialog[open]')].map((d) => d.id).join()]`));
      throw err;
    });
    const [x, y] = await s.execute(`
      const empty = [...document.querySelectorAll('.cell:not([data-stone])')];
      const c = empty[(${i} * 37) % empty.length]; // scattered: no five in a row
      return [Number(c.dataset.x), Number(c.dataset.y)];`);
    // Times from the click event to the first animation frame that has the stone in the DOM
    // (the frame it is painted in), and to the frame where the backend has confirmed it; and
    // how long the page's own click handlers ran (from the capture listener here to a
    // listener on window that runs after them), to tell script time from waiting.
    await s.execute(`
      const cell = document.querySelector('.cell[data-x="${x}"][data-y="${y}"]');
      window.__click = null;
      window.addEventListener('click', () => { if (window.__click) window.__click.handler = performance.now() - window.__click.start; }, { once: true });
      document.addEventListener('click', (e) => {
        const t0 = e.timeStamp, out = (window.__click = { frame: null, confirmed: null, start: performance.now(), handler: null });
        const tick = (now) => {
          if (out.frame == null && cell.dataset.stone) out.frame = now - t0;
          if (cell.dataset.stone && !cell.classList.contains('provisional')) { out.confirmed = now - t0; return; }
          if (now - t0 < 5000) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }, { capture: true, once: true });`);
    await s.click(`.cell[data-x="${x}"][data-y="${y}"]`);
    const r = await s.waitFor(`return window.__click && window.__click.confirmed != null && window.__click`, { what: 'the stone' });
    clicks.toFrame.push(r.frame);
    clicks.toConfirmed.push(r.confirmed);
    clicks.handler.push(r.handler);
  }
  // (The clicks' game, two players at the board, holds no engine.)
  // The first click of a session apart from the later ones (it may pay for first uses).
  const firstAndRest = (xs) => ({ first: round(xs[0]), rest: stats(xs.slice(1)) });
  report.clickToStoneMs = firstAndRest(clicks.toFrame);
  report.clickToConfirmedMs = firstAndRest(clicks.toConfirmed);
  report.clickHandlerMs = firstAndRest(clicks.handler);
  // Waiting for the human after the clicks (sound on: the audio context is alive now).
  await sleep(1000);
  log('idle after the clicks: CPU over 10 s');
  report.idleAfterClicks = await sample(pid, 10000);

  log('memory: a Master game, its end, analysis on and off');
  if (process.env.BENCH_ENGINE_MIB) {
    report.engineMemoryMib = Number(process.env.BENCH_ENGINE_MIB);
    await run(s, `const now = await window.__TAURI__.core.invoke('get_settings');
      await window.__TAURI__.core.invoke('set_settings', { settings: { ...now, engineMemoryMib: args[0] } });`, [report.engineMemoryMib]);
  }
  const mem = (report.memory = { atRest: memory(pid) });
  await run(s, `
    const master = { type: 'computer', level: { game: 'gomoku', level: 'master' } };
    await window.__TAURI__.core.invoke('new_game', { config: { kind: { game: 'gomoku', rule: 'freestyle', size: 15 }, black: master, white: master, timePerMoveMs: 1000 } });`);
  await sleep(15000);
  mem.masterGame = memory(pid);
  mem.masterGameMoves = await run(s, `return (await window.__TAURI__.core.invoke('get_snapshot')).moves.length;`);
  // Ends the game (the side to move resigns): the engines go, with their tables.
  await run(s, `await window.__TAURI__.core.invoke('resign');`);
  await sleep(2000);
  mem.afterGame = memory(pid);
  // Live analysis of a few stones for 10 s, then off.
  await run(s, `
    const human = { type: 'human' };
    await window.__TAURI__.core.invoke('new_game', { config: { kind: { game: 'gomoku', rule: 'freestyle', size: 15 }, black: human, white: human, timePerMoveMs: 1000 } });
    for (const [x, y] of [[7, 7], [8, 8], [8, 7]]) await window.__TAURI__.core.invoke('play_move', { x, y });
    await window.__TAURI__.core.invoke('set_analysis', { on: true, lines: 3 });`);
  await sleep(10000);
  mem.analysisOn = memory(pid);
  await run(s, `await window.__TAURI__.core.invoke('set_analysis', { on: false, lines: 3 });`);
  await sleep(2000);
  mem.analysisOff = memory(pid);
  await s.delete();
  fs.rmSync(caches, { recursive: true, force: true });
  console.log(JSON.stringify(report, null, 1));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

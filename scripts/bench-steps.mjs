// Benchmark: stepping through a 200-move game at key-repeat speed (issue 21: no lag at 30
// steps a second). Drives the real UI (ui/, with the IPC mocked as in the browser tests) in
// Debian's Chromium, with snapshots shaped as the backend sends them while stepping (the
// stones of the position shown, its last move, the review's graph of the whole game):
//  - paced: 150 steps back, each after the frame of the one before: the step's work
//    (snapshot to DOM updated) and the step to the end of its next frame;
//  - key repeat: 150 steps back at 30 a second on a timer, as a held key sends them: the
//    frames' spacing and how many of the positions stepped through were on screen in a frame;
//  - an empty frame, for comparison (the browser's frame pacing alone).
// Usage: node scripts/bench-steps.mjs [--before DIR] [--trace]
//   --before DIR  also measures the ui/ in DIR (e.g. main's: git archive main ui | tar -x -C
//                 /tmp/ui-main; DIR=/tmp/ui-main/ui), alternating runs in the same process;
//   --trace       sums Chromium's main-thread and raster work per step (performance timeline:
//                 style, layout, paint, raster...) over the paced and the key-repeat steps.
// Found with it: a Layout of 100-400 ms a step while the keys repeat (the board's cells sized
// with a container query unit, cqw: Chromium restyled and laid out the whole board at every
// layout); the paced steps did not show it.
import path from 'node:path';
import { serve, launch, openApp, studySnapshot, uiDir } from '../tests/ui/harness.mjs';
import { keyRepeat, stats } from './bench-stats.mjs';

const STEPS = 150;
const args = process.argv.slice(2);
const beforeDir = args.includes('--before') ? path.resolve(args[args.indexOf('--before') + 1]) : null;
const trace = args.includes('--trace');
const ROUNDS = beforeDir ? 2 : 1;

/** The 200-move game at ply `ply` as the backend shows it: the stones of the moves up to it. */
function stepSnapshot() {
  const snap = studySnapshot(200, 200);
  snap.seq = 1;
  return snap;
}

/** A finished review of the game: one judged ply per move, for the graph and the marks. */
function reviewOf(snap) {
  const verdicts = ['good', 'good', 'good', 'inaccuracy', 'good', 'mistake', 'good', 'blunder'];
  return {
    version: 1, game: 'gomoku', running: false, done: snap.moves.length + 1, total: snap.moves.length + 1,
    plies: snap.moves.map((m, i) => ({
      ply: i + 1, color: m.color, played: m.label, best: m.label, bestPoint: { x: m.x, y: m.y }, bestIsPlayed: i % 8 !== 5,
      verdict: verdicts[i % 8], value: 0.5 + 0.4 * Math.sin(i / 9), lost: null,
      before: { kind: 'chance', permille: 500 }, after: { kind: 'chance', permille: 450 },
    })),
  };
}

/** Runs in the page: the paced steps, the key-repeat steps and the empty frames. */
async function stepInPage(steps) {
  const base = window.__mock.snapshot;
  const at = (ply, seq) => {
    const s = structuredClone(base);
    s.ply = ply;
    s.seq = seq;
    s.board = s.board.map((row) => row.map(() => null));
    for (const m of s.moves.slice(0, ply)) s.board[m.y][m.x] = m.color;
    const last = s.moves[ply - 1];
    s.lastMove = last ? { x: last.x, y: last.y } : null;
    s.toMove = ply % 2 ? 'white' : 'black';
    return s;
  };
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
  let seq = base.seq + 1;
  // The snapshots are made before the clock starts: the backend's work, not the page's.
  const paced = Array.from({ length: steps }, (_, i) => at(199 - i, seq++));
  const back = Array.from({ length: steps }, (_, i) => at(199 - i, seq++));
  const work = [];
  const framed = [];
  window.__mock.emit('snapshot', at(200, seq++));
  await frame();
  await frame();
  performance.mark('steps-start');
  for (const s of paced) {
    const t0 = performance.now();
    window.__mock.emit('snapshot', s);
    work.push(performance.now() - t0);
    await frame();
    framed.push(performance.now() - t0);
  }
  performance.mark('steps-end');
  window.__mock.emit('snapshot', at(200, seq++));
  for (const s of back) s.seq = seq++;
  await frame();
  await frame();
  // Key repeat: a step every 33 ms; each frame records its time and the ply on screen.
  const frames = [];
  const sent = [];
  let running = true;
  const ply = () => Number(document.querySelector('#move-list [aria-current="step"]')?.dataset.ply ?? 0);
  const onFrame = (now) => {
    frames.push([now, ply()]);
    if (running) requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);
  performance.mark('repeat-start');
  await new Promise((done) => {
    let i = 0;
    const timer = setInterval(() => {
      sent.push(performance.now());
      window.__mock.emit('snapshot', back[i++]);
      if (i === back.length) {
        clearInterval(timer);
        done();
      }
    }, 1000 / 30);
  });
  await frame();
  await frame();
  performance.mark('repeat-end');
  running = false;
  const idle = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await frame();
    idle.push(performance.now() - t0);
  }
  return { work, framed, idle, frames, sent, stepped: back.map((s) => s.ply) };
}

/** Chromium's work per step from a trace: main-thread events by name, and raster. */
function traceSummary(traceEvents, steps, start, end) {
  const threads = new Map();
  for (const e of traceEvents) if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const from = traceEvents.find((e) => e.name === start)?.ts ?? 0;
  const to = traceEvents.find((e) => e.name === end)?.ts ?? Infinity;
  const names = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'FunctionCall', 'HitTest', 'RasterTask', 'ScrollLayer'];
  const sum = new Map();
  for (const e of traceEvents) {
    if (e.ph !== 'X' || !names.includes(e.name) || e.ts < from || e.ts > to) continue;
    const thread = threads.get(`${e.pid}:${e.tid}`) || '';
    const where = thread.startsWith('CrRendererMain') ? 'main' : e.name === 'RasterTask' ? 'raster' : null;
    if (!where) continue;
    const k = `${where} ${e.name}`;
    sum.set(k, (sum.get(k) || 0) + (e.dur || 0) / 1000);
  }
  return [...sum].sort((a, b) => b[1] - a[1]).map(([k, ms]) => `    ${k}: ${(ms / steps).toFixed(2)} ms a step`).join('\n');
}

async function measure(browser, server, name) {
  const page = await openApp(browser, server.url, { snapshot: stepSnapshot(), responses: { review: reviewOf(stepSnapshot()) } });
  await page.waitForSelector('[data-ply="200"][aria-current="step"]');
  await page.waitForSelector('#eval-graph [data-ply="200"]');
  if (trace) await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'cc'] });
  const r = await page.evaluate(stepInPage, STEPS);
  const events = trace ? JSON.parse((await browser.stopTracing()).toString()).traceEvents : null;
  await page.context().close();
  console.log(`${name}:`);
  console.log(`  paced, the step's work (snapshot to DOM updated): ${stats(r.work)}`);
  console.log(`  paced, the step to its next frame painted:       ${stats(r.framed)}`);
  const k = keyRepeat(r);
  console.log(`  key repeat at 30/s, frame spacing:                ${stats(k.gaps)}`);
  console.log(`  key repeat at 30/s, a step to its first frame:    ${stats(k.delays)}; positions on screen ${k.seen} of ${r.stepped.length}`);
  console.log(`  an empty frame (the browser's pacing alone):      ${stats(r.idle)}`);
  if (events) {
    console.log(`  Chromium's work over the paced steps:\n${traceSummary(events, STEPS, 'steps-start', 'steps-end')}`);
    console.log(`  Chromium's work over the key-repeat steps:\n${traceSummary(events, STEPS, 'repeat-start', 'repeat-end')}`);
  }
}

const servers = { after: await serve(uiDir), before: beforeDir ? await serve(beforeDir) : null };
const browser = await launch();
try {
  console.log(`${STEPS} steps back through a 200-move game (30 steps a second leave 33 ms a step)`);
  for (let round = 0; round < ROUNDS; round++) {
    if (servers.before) await measure(browser, servers.before, `before (${beforeDir}), round ${round + 1}`);
    await measure(browser, servers.after, `${servers.before ? `after (${uiDir}), round ${round + 1}` : uiDir}`);
  }
} finally {
  await browser.close();
  await servers.after.close();
  await servers.before?.close();
}

// Benchmark: stepping through a 200-move game with the keys at key-repeat speed in the real app
// (WebKitGTK, the backend answering each step), as scripts/bench-steps.mjs does in Chromium with
// the IPC mocked. A 200-move Gomoku game (no five: the colours repeat every four cells along
// every line) is pasted, then ← is pressed 150 times at 30 a second (keydown events sent in the
// page on a timer, as a held key sends them) while every animation frame records its time and
// the position on screen. Prints the frames' spacing, how many of the positions stepped
// through were on screen in a frame, and each step's delay to the first frame showing it.
// Run under Xvfb and tauri-driver (WEBDRIVER_URL, TENGEN_APP), e.g.:
//   bash -c 'log() { echo "$*" >&2; }; die() { log "$*"; exit 1; }; source scripts/display-driver.sh;
//     start_display; export XDG_DATA_HOME=$tmp/d XDG_CONFIG_HOME=$tmp/c; start_driver;
//     TENGEN_APP=$PWD/target/debug/tengen-app node scripts/bench-steps-app.mjs'
// Options: --variants FILE  a module whose default export maps names to {css?, js?, undo?}:
//            each is run in turn (CSS injected into the page, `js` run before and `undo`
//            after), the finding tool for what a step costs (e.g. the board hidden);
//          --rounds N       runs every variant N times, alternating (default 1).
// Besides the frames it prints, per step, the key to the end of the page's work for it (the
// move list's mark changed: a microtask after the render; while the page paints, it waits).
import { startApp } from '../tests/e2e/webdriver.mjs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { keyRepeat, stats } from './bench-stats.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const ROUNDS = Number(option('--rounds') || 1);
const VARIANTS = option('--variants')
  ? (await import(pathToFileURL(path.resolve(option('--variants'))).href)).default
  : { shipped: {} };

const STEPS = 150;
const MOVES = 200;
const SIZE = 15;

/** 200 moves on 15x15 that never make five: black where (x + 2y) mod 4 < 2, from the centre out. */
function game() {
  const cells = [];
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) cells.push({ x, y, d: Math.hypot(x - 7, y - 7) + (x + y * SIZE) * 1e-6 });
  cells.sort((a, b) => a.d - b.d);
  const black = cells.filter((c) => (c.x + 2 * c.y) % 4 < 2);
  const white = cells.filter((c) => (c.x + 2 * c.y) % 4 >= 2);
  const label = (c) => `${'abcdefghijklmno'[c.x]}${SIZE - c.y}`;
  const moves = [];
  for (let i = 0; i < MOVES / 2; i++) moves.push(label(black[i]), label(white[i]));
  return moves.join(' ');
}

/** Runs in the page: the steps on a timer, the frames recorded. */
const STEP_SCRIPT = `
  const steps = arguments[0];
  const b = (window.__steps = { frames: [], sent: [], marked: [], done: false });
  const ply = () => Number(document.querySelector('#move-list [aria-current="step"]')?.dataset.ply ?? 0);
  // The end of the page's work for each position (the move list's mark moved).
  const observer = new MutationObserver(() => b.marked.push([performance.now(), ply()]));
  observer.observe(document.querySelector('#move-list'), { subtree: true, attributeFilter: ['aria-current'] });
  b.restore = () => observer.disconnect();
  const onFrame = (now) => {
    b.frames.push([now, ply()]);
    if (!b.done) requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);
  let i = 0;
  const timer = setInterval(() => {
    b.sent.push(performance.now());
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true }));
    if (++i === steps) {
      clearInterval(timer);
      const end = ${MOVES} - steps;
      const wait = () => (ply() === end ? setTimeout(() => { b.restore(); b.done = true; }, 100) : setTimeout(wait, 20));
      wait();
    }
  }, 1000 / 30);
  return true;`;

/** Per step: the key to the page's work done for it. */
function perStep({ sent, marked }, stepped) {
  return { done: sent.map((t, i) => marked.find(([mt, p]) => mt >= t && p <= stepped[i])?.[0] - t).filter(Number.isFinite) };
}

const s = await startApp();
const results = new Map();
try {
  await s.execute(`return window.__TAURI__.core.invoke('paste_game', { text: arguments[0] }).then(() => true);`, [game()]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, variant] of Object.entries(VARIANTS)) {
      await s.execute(
        `let style = document.getElementById('__variant');
         if (!style) { style = document.createElement('style'); style.id = '__variant'; document.head.append(style); }
         style.textContent = arguments[0];
         { ${variant.js || ''} }
         return window.__TAURI__.core.invoke('navigate', { nav: { to: 'last' } }).then(() => true);`,
        [variant.css || ''],
      );
      await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '${MOVES}'`, { timeout: 30000, what: 'the game at its end' });
      // The paste's notice (a toast over the board) gone: it would be repainted with the board.
      await s.waitFor(`return document.querySelector('#toast').hidden`, { timeout: 10000, what: 'the notice to go' });
      await new Promise((r) => setTimeout(r, 1000));
      await s.execute(STEP_SCRIPT, [STEPS]);
      await s.waitFor('return window.__steps.done', { timeout: 60000, what: 'the steps' });
      const run = await s.execute('const { frames, sent, marked } = window.__steps; return { frames, sent, marked };');
      await s.execute(`document.getElementById('__variant').textContent = ''; ${variant.undo || ''} return true;`);
      const stepped = run.sent.map((_, i) => MOVES - 1 - i);
      const k = keyRepeat({ frames: run.frames, sent: run.sent, stepped });
      const p = perStep(run, stepped);
      console.log(`${name} (round ${round + 1}): frames ${stats(k.gaps)}; key to frame ${stats(k.delays)}; `
        + `${k.seen} of ${STEPS} shown; key to page work done ${stats(p.done)}`);
      if (!results.has(name)) results.set(name, []);
      results.get(name).push({ k, p });
    }
  }
  console.log(`${STEPS} steps back with ← at 30 a second through a ${MOVES}-move game in the real app (WebKitGTK)`);
  for (const [name, runs] of results) {
    const all = (f) => runs.flatMap(f);
    console.log(`${name}:`);
    console.log(`  frame spacing while stepping: ${stats(all((r) => r.k.gaps))}`);
    console.log(`  positions on screen in a frame: ${runs.map((r) => r.k.seen).join(', ')} of ${STEPS}`);
    console.log(`  a step's key to the first frame showing it: ${stats(all((r) => r.k.delays))}`);
    console.log(`  a step's key to the page's work done: ${stats(all((r) => r.p.done))}`);
  }
} finally {
  await s.delete();
}

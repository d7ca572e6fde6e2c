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
import { startApp } from '../tests/e2e/webdriver.mjs';
import { keyRepeat, stats } from './bench-stats.mjs';

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
  const b = (window.__steps = { frames: [], sent: [], done: false });
  const ply = () => Number(document.querySelector('#move-list [aria-current="step"]')?.dataset.ply ?? 0);
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
      const wait = () => (ply() === end ? setTimeout(() => (b.done = true), 100) : setTimeout(wait, 20));
      wait();
    }
  }, 1000 / 30);
  return true;`;

const s = await startApp();
try {
  await s.execute(`return window.__TAURI__.core.invoke('paste_game', { text: arguments[0] }).then(() => true);`, [game()]);
  await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '${MOVES}'`, { timeout: 30000, what: 'the pasted game at its end' });
  await new Promise((r) => setTimeout(r, 1000));
  await s.execute(STEP_SCRIPT, [STEPS]);
  await s.waitFor('return window.__steps.done', { timeout: 60000, what: 'the steps' });
  const { frames, sent } = await s.execute('return window.__steps;');
  const stepped = sent.map((_, i) => MOVES - 1 - i);
  const k = keyRepeat({ frames, sent, stepped });
  console.log(`${STEPS} steps back with ← at 30 a second through a ${MOVES}-move game in the real app (WebKitGTK)`);
  console.log(`  frame spacing while stepping: ${stats(k.gaps)}`);
  console.log(`  positions on screen in a frame: ${k.seen} of ${STEPS}`);
  console.log(`  a step's key to the first frame showing it: ${stats(k.delays)}`);
} finally {
  await s.delete();
}

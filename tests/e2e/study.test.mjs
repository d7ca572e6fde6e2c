// End-to-end: studying a saved game in the real app. Open answers with
// tests/e2e/fixtures/study.json (the app is started with --e2e-open=FILE, a debug build's
// stand-in for the system's file dialog, which WebDriver cannot drive: src-tauri/src/files.rs):
// its variation in the move list, its saved review drawn without computing it again; a step
// back, a variation started there, the graph back to the main line. Then the clipboard as
// WebKitGTK gives it: Ctrl+C copies the line shown to the X11 clipboard and real Ctrl+V keys
// open a move list from it with the "recognised" notice (the clipboard set and read from
// outside the app with Python's tkinter; without tkinter, Ctrl+V pastes back what Ctrl+C
// copied). Screenshots in both themes and languages: tests/artifacts/e2e-study-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startApp, sleep, KEY } from './webdriver.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'fixtures/study.json');
let s;
before(async () => {
  s = await startApp([`--e2e-open=${fixture}`]);
});
after(() => s?.delete());

const shot = (name) => s.shot(`study-${name}`);
const settingsTo = async (language, theme) => {
  await s.setSettings({ language, theme });
  await sleep(400);
};
const current = () => s.execute(`const c = document.querySelector('#move-list [aria-current="step"]'); return c ? [c.dataset.ply, c.dataset.label, c.classList.contains('var')] : null;`);

// The X11 clipboard from outside the app (tkinter talks to the display the app runs on).
const TK = 'import sys, tkinter\nr = tkinter.Tk()\nr.withdraw()\n';
const haveTk = spawnSync('python3', ['-c', `${TK}r.destroy()`], { timeout: 10000 }).status === 0;

function clipboardGet() {
  const r = spawnSync('python3', ['-c', `${TK}print(r.clipboard_get(type="UTF8_STRING"), end="")`], { encoding: 'utf8', timeout: 10000 });
  if (r.status !== 0) throw new Error(`reading the clipboard: ${r.stderr}`);
  return r.stdout;
}

/** Puts `text` on the clipboard; the process owns it (answers the app's request) until killed. */
function clipboardSet(text) {
  const code = `${TK}r.clipboard_clear()\nr.clipboard_append(sys.argv[1])\nr.update()\nprint("ready", flush=True)\nr.after(30000, r.destroy)\nr.mainloop()`;
  const child = spawn('python3', ['-c', code, text], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (c) => reject(new Error(`the clipboard helper exited (${c})`)));
  });
}

test('Open a saved game: its variation and saved review; step back and start a variation', async () => {
  await s.click('[data-testid="open"]');
  await s.waitFor(`return document.querySelectorAll('#move-list [data-ply]').length === 8`, { what: 'the opened game' });
  // The review saved with the game, drawn at once (nothing runs).
  await s.waitFor(`return document.querySelectorAll('[data-testid="eval-graph"] > [data-ply]').length === 8`, { what: 'the saved review' });
  const verdicts = await s.execute(`return [...document.querySelectorAll('[data-testid="eval-graph"] > [data-ply]')].map((b) => b.dataset.verdict)`);
  assert.deepEqual(verdicts, ['good', 'inaccuracy', 'good', 'good', 'mistake', 'mistake', 'inaccuracy', 'blunder']);
  assert.equal(await s.execute(`return document.querySelector('#review-progress').hidden`), true, 'not computed again');
  assert.equal(await s.execute(`return document.querySelector('#move-list [data-ply="8"] .rv-mark')?.textContent`), '??');
  // The variation at White's second move, with its moves: (2… i9 g7 j10).
  assert.equal(await s.execute(`return document.querySelector('#move-list .alt-line')?.textContent`), '(2…i9g7j10)');
  assert.deepEqual(await current(), ['8', 'a15', false]);
  await shot('opened-light-en');

  // One step back, and another move there: a variation; the old move stays beside it.
  await s.execute(`document.activeElement?.blur(); return true;`);
  await s.keys([KEY.LEFT]);
  await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '7'`, { what: 'ply 7 shown' });
  await s.click('.cell[data-x="11"][data-y="7"]');
  await s.waitFor(`return document.querySelector('#move-list [data-ply="8"]')?.dataset.label === 'l8'`, { what: 'the variation l8' });
  assert.deepEqual(await current(), ['8', 'l8', true]);
  const alts = await s.execute(`return [...document.querySelectorAll('#move-list .alt-line')].map((l) => l.textContent)`);
  assert.ok(alts.includes('(4…a15)'), alts.join(' | '));
  // In the variation the graph marks no bar; a click on it goes to the main line's position.
  assert.equal(await s.execute(`return document.querySelectorAll('[data-testid="eval-graph"] .current').length`), 0);
  await sleep(300);
  await shot('variation-light-en');
  await settingsTo('zh-CN', 'dark');
  await shot('variation-dark-zh');
  await s.click('[data-testid="eval-graph"] [data-ply="6"]');
  await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '6'`, { what: 'ply 6 of the main line' });
  assert.equal(await s.execute(`return document.querySelector('#move-list [data-ply="8"]')?.dataset.label`), 'a15', 'the main line is shown');
  assert.equal(await s.execute(`return document.querySelector('[data-testid="eval-graph"] .current')?.dataset.ply`), '6');
  await settingsTo('en', 'light');
});

test('Ctrl+C copies the line shown, and Ctrl+V opens a move list from the clipboard', async () => {
  await s.execute(`document.activeElement?.blur(); window.getSelection()?.removeAllRanges(); return true;`);
  await s.keys([KEY.CONTROL, 'c']);
  await s.waitFor(`return document.querySelector('#toast').textContent.includes('The moves are copied.')`, { what: 'the copy notice' });
  const line = 'h8 g8 i8 h9 j8 h10 k8 a15';
  let helper = null;
  if (haveTk) {
    assert.equal(clipboardGet(), line, 'the X11 clipboard holds the line');
    helper = await clipboardSet('h8 i9 j10');
  }
  try {
    await s.execute(`document.activeElement?.blur(); return true;`);
    await s.keys([KEY.CONTROL, 'v']);
    const moves = haveTk ? 3 : 8;
    await s.waitFor(`return document.querySelector('#toast').textContent.includes('Opened from the clipboard: a move list.')`, { what: 'the paste notice', timeout: 10000 });
    await s.waitFor(`return document.querySelectorAll('#move-list [data-ply]').length === ${moves}`, { what: `${moves} moves pasted` });
    await shot('pasted-light-en');
  } finally {
    helper?.kill();
  }
});

test('Computer plays here: stepped back to the computer\'s turn, it moves from there when asked', async () => {
  await s.startGame({ game: 'gomoku', rule: 'freestyle', size: 15, 'human-side': 'black', level: 'fivetuple' });
  // The classic level breaks ties at random, so its reply may take any cell near h8: play on one that is empty.
  const wanted = [[7, 7], [6, 6], [8, 8], [6, 8], [8, 6], [2, 2]];
  for (const i of [0, 1]) {
    const [x, y] = await s.execute(`for (const [x, y] of ${JSON.stringify(wanted)}) {
      if (!document.querySelector('.cell[data-x="' + x + '"][data-y="' + y + '"]').dataset.stone) return [x, y];
    }
    return null;`);
    await s.click(`.cell[data-x="${x}"][data-y="${y}"]`);
    await s.waitFor(`return document.querySelectorAll('#move-list [data-ply]').length === ${2 * i + 2} && !document.body.classList.contains('is-thinking')`, { what: `the reply to move ${i + 1}`, timeout: 20000 });
  }
  const here = `document.querySelector('[data-testid="computer-here"]')`;
  assert.equal(await s.execute(`return ${here}.hidden`), true, 'the end of the line, black to move');
  // One step back: white (the computer) to move, the line goes on; nothing moves by itself.
  await s.execute(`document.activeElement?.blur(); return true;`);
  await s.keys([KEY.LEFT]);
  await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '3'`, { what: 'ply 3 shown' });
  await s.waitFor(`return !${here}.hidden`, { what: 'Computer plays here' });
  await sleep(300);
  assert.equal(await s.execute(`return document.body.classList.contains('is-thinking')`), false);
  await shot('computer-here-light-en');
  await settingsTo('zh-CN', 'dark');
  assert.equal(await s.execute(`return ${here}.textContent`), '电脑从这里走');
  await shot('computer-here-dark-zh');
  await settingsTo('en', 'light');
  const before = await s.execute(`return document.querySelector('#move-list [data-ply="4"]').dataset.label`);
  await s.click('[data-testid="computer-here"]');
  await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '4' && !document.body.classList.contains('is-thinking')`, { what: 'the computer\'s move', timeout: 20000 });
  assert.equal(await s.execute(`return ${here}.hidden`), true);
  // Its move starts a variation, or follows the line when it is the move already there.
  const after = await s.execute(`const c = document.querySelector('#move-list [aria-current="step"]'); return [c.dataset.label, c.classList.contains('var')]`);
  assert.equal(after[1], after[0] !== before, `${before} then ${after[0]}`);
});

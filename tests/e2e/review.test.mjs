// End-to-end: game review in the real app (the engine judging every move in the backend).
// Play a short Gomoku game in which White ignores Black's four, run the review, see the
// graph with one bar per move, White's blunder marked, "next mistake" jumping to it, and
// screenshots in both themes and both languages. Run by scripts/test-e2e.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, sleep } from './webdriver.mjs';

let s;
before(async () => {
  s = await startApp();
});
after(() => s?.delete());

const settingsTo = async (language, theme) => {
  await s.setSettings({ language, theme });
  await sleep(400);
};
const shot = (name) => s.shot(name);

// Black h8 i8 j8 k8 (g8 taken by White): White must play l8, and plays a15.
const MOVES = [[7, 7], [6, 7], [8, 7], [7, 6], [9, 7], [7, 5], [10, 7], [0, 0]];

test('Gomoku: review a game, see the graph and jump to the blunder', async () => {
  await s.startGame({ game: 'gomoku', rule: 'freestyle', size: 15, 'human-side': 'both' });
  for (const [x, y] of MOVES) {
    await s.click(`.cell[data-x="${x}"][data-y="${y}"]`);
    await s.waitFor(`return document.querySelector('.cell[data-x="${x}"][data-y="${y}"]').dataset.stone !== undefined`, { what: `the stone at ${x},${y}` });
  }
  await s.click('[data-testid="review"]');
  await s.waitFor(`return document.querySelectorAll('[data-testid="eval-graph"] > [data-ply]').length === ${MOVES.length}`, {
    timeout: 90000,
    what: 'the graph of the whole game',
  });
  const bars = await s.execute(`return [...document.querySelectorAll('[data-testid="eval-graph"] > [data-ply]')].map((b) => [b.dataset.ply, b.dataset.verdict]);`);
  assert.deepEqual(bars.map((b) => b[0]), MOVES.map((_, i) => String(i + 1)));
  for (const [, v] of bars) assert.ok(['good', 'inaccuracy', 'mistake', 'blunder'].includes(v), v);
  assert.equal(bars[7][1], 'blunder', 'ignoring the four');
  // The move list marks it.
  const mark = await s.execute(`return document.querySelector('#move-list [data-ply="8"] .rv-mark')?.textContent`);
  assert.equal(mark, '??');
  // From the start, "next mistake" goes to the first mistake or blunder.
  await s.click('[data-testid="nav-first"]');
  await s.waitFor(`return !document.querySelector('#move-list [aria-current]')`, { what: 'the start shown' });
  const first = bars.find(([, v]) => v === 'mistake' || v === 'blunder')[0];
  await s.click('[data-testid="next-mistake"]');
  await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '${first}'`, { what: `ply ${first} shown` });
  // A click on the graph goes to that position.
  await s.click('[data-testid="eval-graph"] [data-ply="8"]');
  await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '8'`, { what: 'ply 8 shown' });
  const said = await s.execute(`return document.querySelector('[data-testid="review-verdict"]').textContent`);
  assert.match(said, /^Blunder: l8 was better than a15/);
  // The board marks the better move, l8.
  const marked = await s.execute(`return [...document.querySelectorAll('.cell.hint')].map((c) => c.dataset.x + ',' + c.dataset.y)`);
  assert.deepEqual(marked, ['11,7']);
  await sleep(300);
  await shot('review-gomoku-light-en');
  await settingsTo('zh-CN', 'dark');
  await shot('review-gomoku-dark-zh');
  await settingsTo('en', 'dark');
  await shot('review-gomoku-dark-en');
  await settingsTo('zh-CN', 'light');
  await shot('review-gomoku-light-zh');
  await settingsTo('en', 'light');
});

test("the result dialog's Review the game starts the review", async () => {
  await s.startGame({ game: 'gomoku', rule: 'freestyle', size: 15, 'human-side': 'both' });
  // Black h8-l8 while White plays on the top row: five in a row.
  for (const [x, y] of [[7, 7], [0, 0], [8, 7], [1, 0], [9, 7], [2, 0], [10, 7], [3, 0], [11, 7]]) {
    await s.click(`.cell[data-x="${x}"][data-y="${y}"]`);
    await s.waitFor(`return document.querySelector('.cell[data-x="${x}"][data-y="${y}"]').dataset.stone !== undefined`, { what: `the stone at ${x},${y}` });
  }
  await s.waitFor(`return document.querySelector('#result-dialog').open`, { what: 'the result dialog' });
  await sleep(300);
  await shot('review-result-light-en');
  assert.equal(await s.text('[data-testid="result-review"]'), 'Review the game');
  await s.click('[data-testid="result-review"]');
  await s.waitFor(`return !document.querySelector('#result-dialog').open`, { what: 'the dialog closed' });
  await s.waitFor(`return document.querySelectorAll('[data-testid="eval-graph"] > [data-ply]').length === 9`, { timeout: 90000, what: 'the review of the game' });
  // The dialog in Chinese, dark: one move back and the other five (g8), a variation as long
  // as the line it leaves.
  await settingsTo('zh-CN', 'dark');
  await s.click('[data-testid="undo"]');
  await s.waitFor(`return !document.querySelector('.cell[data-x="11"][data-y="7"]').dataset.stone`, { what: 'the five taken back' });
  await s.click('.cell[data-x="6"][data-y="7"]');
  await s.waitFor(`return document.querySelector('#result-dialog').open`, { what: 'the result dialog again' });
  assert.equal(await s.text('[data-testid="result-review"]'), '复盘');
  await sleep(300);
  await shot('review-result-dark-zh');
  await s.execute(`document.querySelector('#result-dialog').close(); return true;`);
  await settingsTo('en', 'light');
});

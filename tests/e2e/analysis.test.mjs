// End-to-end: live analysis in the real app (the engine searching in the backend). Turn it
// on, see N candidates with their scores on the board and N lines in the panel, in both
// games; screenshots in both themes and both languages. Run by scripts/test-e2e.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, sleep } from './webdriver.mjs';

let s;
before(async () => {
  s = await startApp();
});
after(() => s?.delete());

const shot = (name) => s.shot(name);
const choose = (testid, value) => s.choose(testid, value);
const startGame = (fields) => s.startGame(fields);
const settingsTo = async (language, theme) => {
  await s.setSettings({ language, theme });
  await sleep(300);
};
const CANDIDATES = `document.querySelectorAll('[data-testid="candidate"]').length`;

test('Gomoku: turn on analysis and see N candidates with their scores', async () => {
  await startGame({ game: 'gomoku', rule: 'freestyle', size: 15, 'human-side': 'both' });
  for (const [x, y] of [[7, 7], [8, 8], [8, 6], [6, 8]]) {
    await s.click(`.cell[data-x="${x}"][data-y="${y}"]`);
    await s.waitFor(`return document.querySelector('.cell[data-x="${x}"][data-y="${y}"]').dataset.stone !== undefined`, { what: `the stone at ${x},${y}` });
  }
  await choose('analysis-lines', 3);
  await s.click('[data-testid="analyse"]');
  await s.waitFor(`return ${CANDIDATES} === 3 && document.querySelectorAll('#analysis-list li').length === 3`, {
    timeout: 30000,
    what: 'three candidates',
  });
  const cands = await s.execute(
    `return [...document.querySelectorAll('[data-testid="candidate"]')].map((c) => [c.dataset.x, c.dataset.y, c.dataset.score]);`,
  );
  for (const [x, y, score] of cands) {
    // A later line that scored above line 1 is shown as a bound at line 1's score ("≥55%").
    assert.match(score, /^[≥≤]?(\d+%|[WL]\d+)$/, `candidate ${x},${y}: ${score}`);
    const empty = await s.execute(`return !document.querySelector('.cell[data-x="${x}"][data-y="${y}"]').dataset.stone`);
    assert.ok(empty, `candidate ${x},${y} is on an empty point`);
  }
  // The depth grows while it runs.
  const depth = () => s.execute(`return Number((document.querySelector('#analysis-status').textContent.match(/\\d+/) || [0])[0])`);
  const d0 = await depth();
  await s.waitFor(`return Number((document.querySelector('#analysis-status').textContent.match(/\\d+/) || [0])[0]) > ${d0}`, {
    timeout: 30000,
    what: 'a deeper depth',
  });
  await shot('analysis-gomoku-light-en');
  // A click on a candidate plays it, and analysis restarts on the new position.
  // (Through the DOM, and the candidate shown now: the candidates change while the search runs,
  // and a WebDriver click looks the element up twice.)
  const [x, y] = await s.execute(
    `const c = document.querySelector('[data-testid="candidate"]'); c.click(); return [c.dataset.x, c.dataset.y];`,
  );
  await s.waitFor(`return document.querySelector('.cell[data-x="${x}"][data-y="${y}"]').dataset.stone === 'black'`, { what: 'the candidate played' });
  await s.waitFor(`return ${CANDIDATES} === 3 && !document.querySelector('[data-testid="candidate"][data-x="${x}"][data-y="${y}"]')`, {
    timeout: 30000,
    what: 'the candidates of the new position',
  });
  await settingsTo('zh-CN', 'dark');
  await sleep(500);
  await shot('analysis-gomoku-dark-zh');
  await settingsTo('en', 'light');
  // The board editor: the candidates leave the board (analysis pauses), and come back after.
  await s.click('[data-testid="edit"]');
  await s.waitFor(`return ${CANDIDATES} === 0 && /board editor/.test(document.querySelector('#analysis-status').textContent)`, { what: 'analysis paused for the editor' });
  await sleep(300);
  await shot('analysis-editor-light-en');
  await settingsTo('zh-CN', 'dark');
  await shot('analysis-editor-dark-zh');
  await settingsTo('en', 'light');
  await s.click('#editor-bar [data-op="cancel"]');
  await s.waitFor(`return ${CANDIDATES} === 3`, { timeout: 30000, what: 'the candidates again' });
});

test('Reversi: every legal move gets its value', async () => {
  await startGame({ game: 'reversi', 'human-side': 'both' });
  await s.waitFor(`return ${CANDIDATES} === 4`, { timeout: 30000, what: 'four candidates (every legal move)' });
  const scores = await s.execute(`return [...document.querySelectorAll('[data-testid="candidate"]')].map((c) => c.dataset.score);`);
  for (const v of scores) assert.match(v, /^[+−±]\d+(\.\d)?$/, v);
  await sleep(800);
  await shot('analysis-reversi-light-en');
  await settingsTo('zh-CN', 'dark');
  await sleep(500);
  await shot('analysis-reversi-dark-zh');
  await settingsTo('en', 'light');
  await s.click('[data-testid="analyse"]');
  await s.waitFor(`return ${CANDIDATES} === 0`, { what: 'analysis off' });
});

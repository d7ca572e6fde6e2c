// A Soosõrv-8 opening against the computer in the real app (run by scripts/test-e2e.sh): the
// computer, the first player, places an opening; the human, the second, keeps white, places
// the 4th stone and asks for two 5th moves; black's offers are drawn on the board as numbered
// ghost stones, and the human picks one by clicking it (or, when the computer swapped and the
// human is black, offers two by clicking and the computer picks). Screenshots:
// tests/artifacts/e2e-soosorv-*.png (light/en and dark/zh).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp } from './webdriver.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');
let s;
before(async () => {
  s = await startApp();
});
after(() => s?.delete());

const shot = (name) => s.screenshot(path.join(artifacts, `e2e-soosorv-${name}.png`));
const STEP = `(document.querySelector('#opening-banner:not([hidden]) [data-testid="opening-step"]')?.innerText || '')`;
const STONES = `document.querySelectorAll('.cell[data-stone]:not(.provisional)').length`;
const MARKS = `[...document.querySelectorAll('[data-testid="opening-offer"]')].map((m) => [Number(m.closest('.cell').dataset.x), Number(m.closest('.cell').dataset.y)])`;

test('Soosõrv-8 against the computer: the offers are marked on the board and picked by a click', async () => {
  const config = {
    kind: { game: 'gomoku', rule: 'renju', size: 15 },
    black: { type: 'computer', level: { game: 'gomoku', level: 'master' } },
    white: { type: 'human' },
    timePerMoveMs: 500,
    opening: 'soosorv8',
  };
  await s.execute(`window.__TAURI__.core.invoke('new_game', { config: arguments[0] }); return true;`, [config]);
  // The computer places its three stones; the human (the second player) may swap.
  await s.waitFor(`return ${STONES} === 3 && ${STEP}.startsWith('You: choose a colour')`, { what: 'the choice of colour', timeout: 30000 });
  await s.click('[data-testid="opening-take-white"]');
  await s.waitFor(`return ${STEP}.toLowerCase().startsWith('you: place white stone 4')`, { what: 'the 4th stone' });
  // The 4th stone anywhere: a corner, far from the opening.
  await s.click('.cell[data-x="1"][data-y="1"]');
  await s.waitFor(`return !!document.querySelector('[data-testid="opening-count"]')`, { what: 'the count' });
  await s.choose('opening-count', '2');
  await s.click('[data-testid="opening-declare"]');
  // The computer (black) may swap; then black offers two 5th moves.
  await s.waitFor(`return ${STEP}.startsWith('You: click one of the offered') || ${STEP}.startsWith('You: click a point to offer')`, { what: "black's offers", timeout: 30000 });
  if ((await s.execute(`return ${STEP}`)).startsWith('You: click one of the offered')) {
    const marks = await s.execute(`return ${MARKS}`);
    assert.equal(marks.length, 2, JSON.stringify(marks));
    assert.deepEqual(await s.execute(`return [...document.querySelectorAll('[data-testid="opening-offer"]')].map((m) => m.textContent).sort()`), ['1', '2']);
    await shot('pick-light-en');
    await s.setSettings({ language: 'zh-CN', theme: 'dark' });
    await shot('pick-dark-zh');
    await s.setSettings({ language: 'en', theme: 'light' });
    const [x, y] = marks[1];
    await s.click(`.cell[data-x="${x}"][data-y="${y}"]`);
    await s.waitFor(`return ${STONES} >= 5 && document.querySelector('.cell[data-x="${x}"][data-y="${y}"]').dataset.stone === 'black'`, { what: 'the pick played' });
  } else {
    // The computer swapped: the human is black now and offers; each offer is marked at once.
    const offers = [];
    for (const [x, y] of [[13, 1], [13, 13], [1, 13], [12, 2]]) {
      if (offers.length === 2) break;
      await s.click(`.cell[data-x="${x}"][data-y="${y}"]`);
      await s.waitFor(`return ${MARKS}.length === ${offers.length + 1} || !!document.querySelector('#toast:not([hidden])')`, { what: 'the offer marked' });
      if ((await s.execute(`return ${MARKS}.length`)) === offers.length + 1) offers.push([x, y]);
    }
    assert.equal(offers.length, 2);
    await shot('offers-light-en');
    await s.setSettings({ language: 'zh-CN', theme: 'dark' });
    await shot('offers-dark-zh');
    await s.setSettings({ language: 'en', theme: 'light' });
    await s.waitFor(`return ${STONES} >= 5`, { what: "the computer's pick", timeout: 30000 });
  }
  // The opening is over: the marks are gone and the game goes on.
  await s.waitFor(`return document.querySelectorAll('[data-testid="opening-offer"]').length === 0`, { what: 'the marks gone' });
});

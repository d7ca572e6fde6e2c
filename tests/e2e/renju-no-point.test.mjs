// End-to-end: a Renju game where black, to move, has only forbidden points left ends in a
// draw. Open answers with tests/e2e/fixtures/renju-no-point.json (a set-up position and two
// moves after it: the board full but for h8, where black would make six). Opened, it shows the
// draw and its reason; a click on h8 is refused; its last move taken back and played again by
// a click ends the game the same way. Screenshots in both themes and
// languages: tests/artifacts/e2e-renju-no-point-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp, sleep } from './webdriver.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'fixtures/renju-no-point.json');
let s;
before(async () => {
  s = await startApp([`--e2e-open=${fixture}`]);
});
after(() => s?.delete());

const shot = (name) => s.shot(`renju-no-point-${name}`);
const settingsTo = async (language, theme) => {
  await s.setSettings({ language, theme });
  await sleep(400);
};
const stone = (x, y) => s.execute(`return document.querySelector('.cell[data-x="${x}"][data-y="${y}"]').dataset.stone ?? null`);

test('black with only a forbidden point left: the game is drawn', async () => {
  await s.click('[data-testid="open"]');
  await s.waitFor(`return document.querySelectorAll('#move-list [data-ply]').length === 2`, { what: 'the opened game' });
  // Opened over, the game shows its result at once.
  await s.waitFor(`return document.querySelector('#result-dialog').open`, { what: 'the result dialog' });
  await sleep(300);
  assert.equal(await s.text('#result-title'), 'Draw');
  assert.equal(await s.text('#result-reason'), 'No legal moves left');
  await shot('light-en');
  await s.execute(`document.querySelector('#result-dialog').close(); return true;`);
  // h8 stays empty: the game is over.
  await s.click('.cell[data-x="7"][data-y="7"]');
  await sleep(300);
  assert.equal(await stone(7, 7), null);

  // Taken back and played again, the last move ends the game the same way.
  await s.click('[data-testid="undo"]');
  await s.waitFor(`return !document.querySelector('.cell[data-x="14"][data-y="14"]').dataset.stone`, { what: "white's last stone taken back" });
  assert.equal(await s.execute(`return document.querySelector('#result-dialog').open`), false);
  await s.click('.cell[data-x="14"][data-y="14"]');
  await s.waitFor(`return document.querySelector('.cell[data-x="14"][data-y="14"]').dataset.stone === 'white'`, { what: 'o1 played again' });

  // The other themes and languages: the status line says the same (the dialog shows when a
  // result appears, not when a game is opened again or a move redone).
  await settingsTo('zh-CN', 'dark');
  assert.equal(await s.text('#status'), '和棋 — 已无可下之处');
  await shot('dark-zh');
  await settingsTo('en', 'dark');
  assert.equal(await s.text('#status'), 'Draw — no legal moves left');
  await shot('dark-en');
  await settingsTo('zh-CN', 'light');
  await shot('light-zh');
  await settingsTo('en', 'light');
});

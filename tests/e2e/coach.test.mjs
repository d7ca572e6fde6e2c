// The coach in the real app (run by scripts/test-e2e.sh): turned on in the settings, it names
// an open three and its blocks, a forced win with "Show me", in both languages and themes.
// Screenshots: tests/artifacts/e2e-coach-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from './webdriver.mjs';

let s;
before(async () => {
  s = await startApp();
});
after(() => s?.delete());

const shot = (name) => s.shot(`coach-${name}`);
const setSettings = (fields) => s.setSettings(fields);
const COACH = `return document.querySelector('[data-testid="coach"]')?.innerText || ''`;

const play = (config, moves) => s.playMoves(config, moves);

const freestyle = { kind: { game: 'gomoku', rule: 'freestyle', size: 15 }, black: { type: 'human' }, white: { type: 'human' }, timePerMoveMs: 1000 };

test('the coach names an open three and a forced win, in both languages and themes', async () => {
  await setSettings({ coach: true, language: 'en', theme: 'light' });
  // Black f8 g8 h8, white on the top row.
  await play(freestyle, [[5, 7], [0, 0], [6, 7], [2, 0], [7, 7]]);
  await s.waitFor(`${COACH}.includes('open three')`, { what: 'the coach on the open three' });
  assert.match(await s.execute(COACH), /Black makes an open three f8–h8 \(活三\): block at e8 or i8\./);
  await shot('light-en');
  await setSettings({ language: 'zh-CN', theme: 'dark' });
  await s.waitFor(`${COACH}.includes('活三')`, { what: 'the coach in Chinese' });
  assert.match(await s.execute(COACH), /黑方活三 f8–h8：在 e8 或 i8 防守。/);
  await shot('dark-zh');

  // White to move with a forced win (g7 h7 i7 open, j9 j10), after black's a15.
  const moves = [[0, 14], [6, 8], [0, 12], [7, 8], [0, 10], [8, 8], [14, 14], [9, 6], [14, 12], [9, 5], [0, 0]];
  await play(freestyle, moves);
  await s.waitFor(`${COACH}.includes('必胜')`, { what: 'the forced win' });
  assert.match(await s.execute(COACH), /白方有必胜/);
  await s.click('[data-testid="coach-show"]');
  await s.waitFor(`return document.querySelectorAll('[data-testid="coach-ghost"]').length >= 3`, { what: 'the line as ghost stones' });
  await shot('dark-zh-show');
  const stones = await s.execute(`return document.querySelectorAll('.cell[data-stone]').length`);
  assert.equal(stones, moves.length, 'Show me does not touch the game');
  await setSettings({ language: 'en', theme: 'light' });
  await s.waitFor(`${COACH}.includes('White has a forced win')`, { what: 'the forced win in English' });
  await setSettings({ coach: false });
  assert.equal(await s.execute(`return document.querySelector('#coach-panel').hidden`), true);
});

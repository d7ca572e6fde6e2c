// The clocks in the real app (run by scripts/test-e2e.sh): a timed game between two people
// shows both clocks with the side to move's running, the pause button stops it, and a flag
// that falls ends the game on time, in both languages and themes.
// Screenshots: tests/artifacts/e2e-clock-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, sleep } from './webdriver.mjs';

let s;
before(async () => {
  s = await startApp();
});
after(() => s?.delete());

const shot = (name) => s.shot(`clock-${name}`);
const clock = (color) => s.execute(`return document.querySelector('[data-testid="clock-${color}"]').innerText`);
const STATUS = `return document.querySelector('[data-testid="status"]').innerText`;

/** A new timed game between two people, then `moves` clicked on the board. */
function play(timeControl, moves) {
  const config = { kind: { game: 'gomoku', rule: 'freestyle', size: 15 }, black: { type: 'human' }, white: { type: 'human' }, timePerMoveMs: 1000, timeControl };
  return s.playMoves(config, moves);
}
const setSettings = (fields) => s.setSettings(fields);

test('the side to move runs, the pause button stops it, and the flag ends the game on time', async () => {
  await setSettings({ language: 'en', theme: 'light' });
  await play({ type: 'fischer', baseMs: 60000, incrementMs: 1000 }, [[7, 7]]);
  await s.waitFor(`return document.querySelector('[data-testid="clock-white"]').classList.contains('running')`, { what: "white's clock running" });
  const before = await clock('white');
  await sleep(1300);
  assert.notEqual(await clock('white'), before, "white's clock counts down");
  assert.match(await clock('black'), /^1:0[01]$/, 'black got the increment back');
  await shot('light-en');
  await s.click('[data-testid="clock-pause"]');
  await s.waitFor(`return document.querySelector('[data-testid="clock-pause"]').innerText === 'Resume clock'`, { what: 'the resume button' });
  const paused = await clock('white');
  await sleep(1300);
  assert.equal(await clock('white'), paused, 'a paused clock stands');
  await shot('light-en-paused');
  await s.click('[data-testid="clock-pause"]');

  await setSettings({ language: 'zh-CN', theme: 'dark' });
  await play({ type: 'per_move', moveMs: 5000 }, [[7, 7]]);
  await s.waitFor(`return document.querySelector('[data-testid="clock-white"]').classList.contains('urgent')`, { what: 'the urgent clock' });
  await shot('dark-zh');
  await s.waitFor(`${STATUS}.includes('超时负')`, { what: 'the loss on time', timeout: 10000 });
  assert.match(await s.execute(STATUS), /黑方胜 — 白方超时负/);
  await s.waitFor(`return document.querySelector('#result-dialog').open`, { what: 'the result dialog' });
  await shot('dark-zh-lost-on-time');
  await s.execute(`document.querySelector('#result-dialog').close(); return true;`);
  await setSettings({ language: 'en', theme: 'light' });
});

// Browser tests of the clocks (ui/js/clock.js) against the IPC mock: the times left as the
// snapshot gives them, the running side counted down on the page, the urgent style, the pause
// button, the dialogs that stop the clock, the loss on time in words (both languages), and
// the start panel's time controls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, closePage, openApp, calls, emit, snapshot, activity, TIMER_PROBE } from './harness.mjs';

const suite = useBrowser();
const open = (init) => openApp(suite.browser, suite.server.url, init);

const human = { type: 'human' };
const people = { black: human, white: human };
const SUDDEN_5 = { type: 'sudden_death', baseMs: 300000 };

function timed(clock, extra = {}) {
  const snap = snapshot({ players: people, ...extra });
  snap.clock = { control: SUDDEN_5, blackMs: 300000, whiteMs: 300000, running: 'black', paused: false, canPause: true, ...clock };
  return snap;
}

const text = (page, color) => page.locator(`[data-testid="clock-${color}"]`).innerText();
const classes = (page, color) => page.locator(`[data-testid="clock-${color}"]`).evaluate((el) => [...el.classList].sort().join(' '));

test('the side to move counts down, the other stands, and the last seconds are urgent', async () => {
  const page = await open({ snapshot: timed({ blackMs: 65000, whiteMs: 9500 }) });
  assert.equal(await text(page, 'black'), '1:05');
  assert.equal(await text(page, 'white'), '9.5');
  assert.equal(await classes(page, 'black'), 'clock running');
  assert.equal(await classes(page, 'white'), 'clock urgent', 'urgent, though it stands');
  // White's turn with 9.5 s: the page counts down between snapshots.
  await emit(page, 'snapshot', timed({ blackMs: 64000, whiteMs: 9500, running: 'white' }, { moves: [[7, 7]] }));
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="clock-white"]').innerText) <= 9.2);
  assert.equal(await classes(page, 'white'), 'clock running urgent');
  assert.equal(await text(page, 'black'), '1:04');
  // Five seconds a move: only the running clock is urgent, not the allowance that waits.
  await emit(page, 'snapshot', timed({ control: { type: 'per_move', moveMs: 5000 }, blackMs: 5000, whiteMs: 4000, running: 'white' }, { moves: [[7, 7]] }));
  assert.equal(await classes(page, 'black'), 'clock');
  assert.equal(await classes(page, 'white'), 'clock running urgent');
  await closePage(page, 'clock-running');
});

test('a game without a clock shows none, and a stopped clock keeps the page idle', async () => {
  const page = await open({ snapshot: snapshot({ players: people }), script: TIMER_PROBE });
  assert.equal(await page.locator('[data-testid="clock-black"]').isVisible(), false);
  assert.equal(await page.locator('[data-testid="clock-pause"]').isVisible(), false);
  await emit(page, 'snapshot', timed({ running: null, paused: true }));
  assert.equal(await page.locator('[data-testid="clock-black"]').isVisible(), true);
  assert.deepEqual(await activity(page, 300), { running: [], intervals: 0, timeouts: 0, frames: 0 });
  await emit(page, 'snapshot', timed({}));
  assert.equal((await activity(page, 300)).intervals, 1, 'one tick while a clock runs');
  await closePage(page);
});

test('the pause button pauses and resumes, only without the computer', async () => {
  const page = await open({ snapshot: timed({}) });
  const button = page.locator('[data-testid="clock-pause"]');
  assert.equal(await button.innerText(), 'Pause clock');
  await page.evaluate((s) => window.__mock.respond('clock', s), timed({ running: null, paused: true }));
  await button.click();
  await page.waitForFunction(() => document.querySelector('[data-testid="clock-pause"]').innerText === 'Resume clock');
  assert.deepEqual((await calls(page, 'clock')).map((c) => c.args.op), [{ op: 'pause' }]);
  assert.equal(await classes(page, 'black'), 'clock');
  await page.evaluate((s) => window.__mock.respond('clock', s), timed({}));
  await button.click();
  await page.waitForFunction(() => document.querySelector('[data-testid="clock-pause"]').innerText === 'Pause clock');
  assert.deepEqual((await calls(page, 'clock')).map((c) => c.args.op.op), ['pause', 'resume']);
  // Against the computer there is no pause button (a restored game's wait shows resume).
  const computer = { type: 'computer', level: { game: 'gomoku', level: 'pattern' } };
  await emit(page, 'snapshot', timed({ canPause: false }, { players: { black: human, white: computer } }));
  assert.equal(await button.isVisible(), false);
  await emit(page, 'snapshot', timed({ canPause: false, paused: true, running: null }, { players: { black: human, white: computer } }));
  assert.equal(await button.innerText(), 'Resume clock');
  await closePage(page);
});

test('an open dialog stops the clock: the backend is told when it opens and closes', async () => {
  const page = await open({ snapshot: timed({}) });
  await page.click('[data-testid="settings"]');
  await page.waitForFunction(() => window.__mock.callsOf('clock').length === 1);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => window.__mock.callsOf('clock').length === 2);
  assert.deepEqual((await calls(page, 'clock')).map((c) => c.args.op), [{ op: 'dialog', open: true }, { op: 'dialog', open: false }]);
  await closePage(page);
});

test('a loss on time is said in words, in English and in Chinese', async () => {
  const result = { winner: 'black', reason: 'time', line: [], discs: null };
  const over = timed({ whiteMs: 0, running: null }, { moves: [[7, 7]], result });
  const page = await open({ snapshot: over });
  assert.equal(await page.locator('[data-testid="status"]').innerText(), 'Black wins — White lost on time');
  assert.equal(await text(page, 'white'), '0.0');
  assert.equal(await classes(page, 'white'), 'clock flagged urgent');
  assert.equal(await page.locator('[data-testid="clock-pause"]').isVisible(), false, 'no pause once the game is over');
  await closePage(page, 'clock-lost-on-time-en');
  const zh = await open({ snapshot: over, settings: { language: 'zh-CN' } });
  await zh.waitForFunction(() => /超时负/.test(document.querySelector('[data-testid="status"]').innerText));
  assert.equal(await zh.locator('[data-testid="status"]').innerText(), '黑方胜 — 白方超时负');
  await closePage(zh, 'clock-lost-on-time-zh');
});

test('the start panel offers the time controls and sends the one chosen', async () => {
  const page = await open({ snapshot: snapshot({ players: people }) });
  await page.click('[data-testid="new-game"]');
  const select = page.locator('[data-testid="time-control"]');
  const options = await select.locator('option').allInnerTexts();
  assert.deepEqual(options, ['No clock', '1 min', '3 min', '5 min', '10 min', '15 min', '1 min + 1 s', '3 min + 2 s', '5 min + 3 s', '10 min + 5 s', '5 s per move', '10 s per move', '30 s per move']);
  await page.selectOption('[data-testid="human-side"]', 'black');
  assert.equal(await page.locator('[data-testid="time"]').isDisabled(), false);
  await select.selectOption({ label: '3 min + 2 s' });
  assert.equal(await page.locator('[data-testid="time"]').isDisabled(), true, 'the computer plans from its clock');
  await page.click('[data-testid="start"]');
  await page.waitForFunction(() => window.__mock.callsOf('new_game').length === 1);
  const [call] = await calls(page, 'new_game');
  assert.deepEqual(call.args.config.timeControl, { type: 'fischer', baseMs: 180000, incrementMs: 2000 });
  // Opened again on a timed game, the panel shows its clock.
  await emit(page, 'snapshot', timed({ control: { type: 'per_move', moveMs: 10000 } }));
  await page.click('[data-testid="new-game"]');
  assert.equal(await select.evaluate((s) => s.selectedOptions[0].textContent), '10 s per move');
  await closePage(page);
});

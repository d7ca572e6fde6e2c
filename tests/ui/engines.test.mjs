// Browser tests of Settings → Engines (ui/js/engines.js) against the IPC mock: adding an
// engine shows its ABOUT answer, Check and Remove, refusals in words in both languages, the
// engine in the start panel's choices (a Gomocup brain for Gomoku, an NBoard engine for
// Reversi), and a game an engine lost named by it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, closePage, openApp, calls, emit, snapshot, screenshot } from './harness.mjs';

const suite = useBrowser();
const open = (init) => openApp(suite.browser, suite.server.url, init);
const statusText = (page) => page.locator('[data-testid="engines-status"]').innerText();

async function openSettings(page) {
  await page.click('[data-testid="settings"]');
  await page.waitForSelector('[data-testid="settings-panel"][open]');
}

test('an engine is added, checked and removed in the settings', async () => {
  const page = await open({ snapshot: snapshot() });
  await openSettings(page);
  assert.match(await page.locator('[data-testid="engines"]').innerText(), /No engine added yet/);
  await page.click('[data-testid="engine-add"]');
  await page.waitForSelector('[data-testid="engine"]');
  assert.match(await page.locator('[data-testid="engine"]').innerText(), /fake\s+\/opt\/engines\/pbrain-fake\s+Gomocup · Gomoku · added /);
  assert.match(await statusText(page), /^fake answers: name="fake", version="1", author="Tengen tests"$/);
  await screenshot(page, 'engines-en');
  await page.click('[data-testid="engine-check"]');
  await page.waitForFunction(() => window.__mock.callsOf('engine_check').length === 1);
  assert.deepEqual((await calls(page, 'engine_check'))[0].args, { id: 1 });
  assert.deepEqual((await calls(page, 'engine_add'))[0].args, { protocol: 'gomocup' });
  await page.waitForFunction(() => /answers/.test(document.querySelector('[data-testid="engines-status"]').textContent));
  await page.click('[data-testid="engine-remove"]');
  await page.waitForFunction(() => !document.querySelector('[data-testid="engine"]'));
  assert.deepEqual((await calls(page, 'engine_remove'))[0].args, { id: 1 });
  assert.equal(await statusText(page), 'fake was removed.');
  // The settings dialog's form saw no setting change from these buttons.
  assert.equal((await calls(page, 'set_settings')).length, 0);
  await closePage(page);
});

test('a file that is no brain is refused in words, in English and in Chinese', async () => {
  const refusal = { code: 'engine_error', message: 'The engine /tmp/x cannot be used (no_answer): ...', params: { problem: 'no_answer', path: '/tmp/x', detail: 'the engine did not answer ABOUT within 5000 ms', seconds: 5 } };
  const page = await open({ snapshot: snapshot() });
  await page.evaluate((e) => window.__mock.fail('engine_add', e), refusal);
  await openSettings(page);
  await page.click('[data-testid="engine-add"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="engines-status"]').dataset.kind === 'error');
  assert.equal(await statusText(page), '/tmp/x did not answer ABOUT within 5 s.');
  // A closed dialog says nothing.
  await page.evaluate(() => window.__mock.fail('engine_add', { code: 'cancelled', message: 'Cancelled.', params: {} }));
  await page.click('[data-testid="engine-add"]');
  await page.waitForFunction(() => window.__mock.callsOf('engine_add').length === 2);
  await page.waitForFunction(() => document.querySelector('[data-testid="engines-status"]').textContent === '');
  assert.equal(await page.locator('[data-testid="engines-status"]').isVisible(), false);
  await page.evaluate((e) => window.__mock.fail('engine_add', e), refusal);
  await page.click('[data-testid="engine-add"]');
  await page.waitForFunction(() => /ABOUT/.test(document.querySelector('[data-testid="engines-status"]').textContent));
  await page.selectOption('[data-testid="language"]', 'zh-CN');
  await page.waitForFunction(() => /添加/.test(document.querySelector('[data-testid="engine-add"]').textContent));
  // The status line follows the language.
  await page.waitForFunction(() => document.querySelector('[data-testid="engines-status"]').textContent === '/tmp/x 在 5 秒内没有回答 ABOUT。');
  await page.evaluate((e) => window.__mock.fail('engine_add', e), { ...refusal, params: { ...refusal.params, problem: 'not_executable' } });
  await page.click('[data-testid="engine-add"]');
  await page.waitForFunction(() => /无法运行/.test(document.querySelector('[data-testid="engines-status"]').textContent));
  assert.equal(await statusText(page), '/tmp/x 无法运行：它不是可执行程序。');
  await closePage(page, 'engines-zh-error');
});

test('an added engine is offered in the start panel for Gomoku only, and sent as an external player', async () => {
  const page = await open({ snapshot: snapshot() });
  await page.evaluate(() => (window.__mock.engines = [{ id: 4, name: 'Rapfi', about: 'name="Rapfi"', path: '/opt/pbrain-rapfi', added: 1764000000 }]));
  // The list is read at start: reload it through the settings (as after an add).
  await openSettings(page);
  await page.click('[data-testid="engine-add"]');
  await page.waitForSelector('[data-testid="engine"]');
  await page.keyboard.press('Escape');
  await page.click('[data-testid="new-game"]');
  await page.waitForSelector('[data-testid="start-panel"][open]');
  await page.selectOption('[data-testid="game"]', 'gomoku');
  const options = await page.locator('[data-testid="level"] option').allInnerTexts();
  assert.ok(options.includes('Rapfi (external engine)'), options.join(' | '));
  await page.selectOption('[data-testid="human-side"]', 'black');
  await page.selectOption('[data-testid="level"]', 'ext:4');
  assert.equal(await page.locator('#time-note').innerText(), "the engine's time limit per move");
  await screenshot(page, 'engines-start-panel');
  await page.click('[data-testid="start"]');
  await page.waitForFunction(() => window.__mock.callsOf('new_game').length === 1);
  const config = (await calls(page, 'new_game'))[0].args.config;
  assert.deepEqual(config.black, { type: 'human' });
  assert.deepEqual(config.white, { type: 'external', id: 4 });
  // The panel opens on the game on the board, external engine included; Reversi offers none.
  await emit(page, 'snapshot', snapshot({ players: { black: { type: 'human' }, white: { type: 'external', id: 4 } } }));
  await page.click('[data-testid="new-game"]');
  await page.waitForSelector('[data-testid="start-panel"][open]');
  assert.equal(await page.inputValue('[data-testid="level"]'), 'ext:4', 'the panel opens on the last choice');
  await page.selectOption('[data-testid="game"]', 'reversi');
  const reversi = await page.locator('[data-testid="level"] option').allInnerTexts();
  assert.ok(!reversi.some((o) => /external/.test(o)), reversi.join(' | '));
  await closePage(page);
});

test('a game an engine lost names the engine and why', async () => {
  const engine = { id: 2, name: 'pbrain-x', about: 'name="pbrain-x"', path: '/opt/pbrain-x', added: 1764000000 };
  const page = await open({ snapshot: snapshot(), responses: { engines_list: [engine] } });
  const players = { black: { type: 'human' }, white: { type: 'external', id: 2 } };
  await emit(page, 'snapshot', snapshot({ players, moves: [[7, 7], [0, 0], [8, 8]], thinking: { color: 'white', purpose: 'move', generation: 1, depth: 0 } }));
  await page.waitForFunction(() => /pbrain-x \(White\) is thinking/.test(document.body.innerText));
  assert.equal(await page.locator('#btn-stop').isDisabled(), true, 'an engine cannot be told to move now');
  const result = { winner: 'black', reason: { forfeit: 'timeout' }, line: [], discs: null };
  const notice = { code: 'engine_forfeit', params: { name: 'pbrain-x', color: 'white', reason: 'timeout', detail: 'the engine did not answer TURN 8,8 within 1500 ms' } };
  await emit(page, 'snapshot', snapshot({ players, moves: [[7, 7], [0, 0], [8, 8]], result, notice }));
  await page.waitForSelector('[data-testid="result"][open]');
  assert.equal(await page.locator('#result-reason').innerText(), 'pbrain-x lost: it did not answer in time');
  assert.match(await page.locator('[data-testid="toast"]').innerText(), /pbrain-x lost: it did not answer in time/);
  await screenshot(page, 'engines-forfeit');
  await closePage(page);
});

test('an NBoard engine is added for Reversi, offered there only, and refused in its own words', async () => {
  const page = await open({ snapshot: snapshot() });
  await page.evaluate(() => (window.__mock.nextEngine = { name: 'Edax', about: 'set myname Edax', path: '/opt/edax/edax-nboard' }));
  await openSettings(page);
  await page.click('[data-testid="engine-add-nboard"]');
  await page.waitForSelector('[data-testid="engine"][data-protocol="nboard"]');
  assert.deepEqual((await calls(page, 'engine_add'))[0].args, { protocol: 'nboard' });
  assert.match(await page.locator('[data-testid="engine"]').innerText(), /Edax\s+\/opt\/edax\/edax-nboard\s+NBoard · Reversi · added /);
  await page.waitForFunction(() => /Edax answers: set myname Edax/.test(document.querySelector('[data-testid="engines-status"]').textContent));
  await screenshot(page, 'engines-nboard-en');
  // A program that does not answer ping is refused in NBoard's words.
  const refusal = { code: 'engine_error', message: '...', params: { problem: 'no_answer', path: '/tmp/y', detail: 'the engine did not answer ping 1 within 5000 ms', seconds: 5 } };
  await page.evaluate((e) => window.__mock.fail('engine_add', e), refusal);
  await page.click('[data-testid="engine-add-nboard"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="engines-status"]').textContent === '/tmp/y did not answer ping within 5 s.');
  await page.keyboard.press('Escape');
  await page.click('[data-testid="new-game"]');
  await page.waitForSelector('[data-testid="start-panel"][open]');
  await page.selectOption('[data-testid="game"]', 'gomoku');
  const gomoku = await page.locator('[data-testid="level"] option').allInnerTexts();
  assert.ok(!gomoku.some((o) => /external/.test(o)), gomoku.join(' | '));
  await page.selectOption('[data-testid="game"]', 'reversi');
  const reversi = await page.locator('[data-testid="level"] option').allInnerTexts();
  assert.ok(reversi.includes('Edax (external engine)'), reversi.join(' | '));
  await page.selectOption('[data-testid="human-side"]', 'white');
  await page.selectOption('[data-testid="level"]', 'ext:1');
  await page.click('[data-testid="start"]');
  await page.waitForFunction(() => window.__mock.callsOf('new_game').length === 1);
  const config = (await calls(page, 'new_game'))[0].args.config;
  assert.equal(config.kind.game, 'reversi');
  assert.deepEqual(config.black, { type: 'external', id: 1 });
  assert.deepEqual(config.white, { type: 'human' });
  await closePage(page);
});

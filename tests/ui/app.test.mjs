// Browser tests of the UI against an IPC mock: node --test tests/ui/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useBrowser, closePage, openApp, calls, emit, snapshot, reversiStart, studySnapshot, screenshot, TIMER_PROBE, activity, CUT_OFF_CHOICES } from './harness.mjs';

const suite = useBrowser();

const cell = (x, y) => `.cell[data-x="${x}"][data-y="${y}"]`;
const text = (page, sel) => page.locator(sel).innerText();

async function open(init) {
  const page = await openApp(suite.browser, suite.server.url, init);
  return page;
}

const done = closePage;

test("the app's Content-Security-Policy lets the UI load its texts and run", async () => {
  // serve() sends the CSP of src-tauri/tauri.conf.json (when the backend is there): the locale
  // files are fetched, so connect-src must allow 'self'.
  const conf = JSON.parse(await readFile(new URL('../../src-tauri/tauri.conf.json', import.meta.url), 'utf8'));
  const security = conf.app.security;
  const policy = Object.fromEntries(
    security.csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
  );
  // No <base> or form target may be set, and no asset: images (the asset protocol is off).
  assert.deepEqual(policy['base-uri'], ["'none'"]);
  assert.deepEqual(policy['form-action'], ["'none'"]);
  assert.ok(!security.csp.includes('asset:'), security.csp);
  assert.ok(!policy['script-src'].some((v) => /unsafe|\*/.test(v)), `script-src ${policy['script-src']}`);
  // With freezePrototype Tauri freezes Object.prototype before the page's scripts run: so
  // does this page, and the UI must still start, draw and take a move.
  const frozen = security.freezePrototype === true;
  const page = await open({ snapshot: snapshot(), script: frozen ? 'Object.freeze(Object.prototype);' : '' });
  assert.equal(await page.evaluate(() => Object.isFrozen(Object.prototype)), frozen);
  const blocked = page.errors.filter((e) => /Content.Security.Policy|Refused/i.test(String(e)));
  assert.deepEqual(blocked.map(String), [], `CSP (${suite.server.csp || 'none'}) blocks the UI; connect-src needs 'self' for ui/locales`);
  assert.equal(await text(page, '[data-testid="undo"]'), 'Undo', 'the English texts loaded');
  await page.click(cell(7, 7));
  await page.waitForFunction(() => window.__mock.callsOf('play_move').length === 1);
  await done(page);
});

test('the board renders N×N cells with data-x/data-y and the snapshot stones', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 6], [6, 8]] }) });
  assert.equal(await page.locator('.cell').count(), 225);
  const coords = await page.$$eval('.cell', (els) => els.map((e) => [Number(e.dataset.x), Number(e.dataset.y)]));
  const seen = new Set(coords.map(([x, y]) => `${x},${y}`));
  assert.equal(seen.size, 225);
  for (const [x, y] of coords) assert.ok(x >= 0 && x < 15 && y >= 0 && y < 15);
  // DOM order is row by row from the top-left.
  assert.deepEqual(coords.slice(0, 2), [[0, 0], [1, 0]]);
  assert.deepEqual(coords[15], [0, 1]);
  assert.equal(await page.getAttribute(cell(7, 7), 'data-stone'), 'black');
  assert.equal(await page.getAttribute(cell(8, 6), 'data-stone'), 'white');
  assert.equal(await page.getAttribute(cell(6, 8), 'data-stone'), 'black');
  assert.equal(await page.locator('.cell[data-stone]').count(), 3);
  assert.match(await page.getAttribute(cell(6, 8), 'class'), /\blast\b/);
  assert.equal(await page.getAttribute(cell(7, 7), 'aria-label'), 'h8, black stone');
  assert.equal(await page.getAttribute(cell(0, 0), 'aria-label'), 'a15, empty');
  assert.equal(await page.locator('#move-list li').count(), 2);
  // The board is square and fills the space it is given.
  const box = await page.locator('.board').boundingBox();
  assert.ok(Math.abs(box.width - box.height) < 2, `square board, got ${box.width}×${box.height}`);
  assert.ok(box.width > 600, `board uses the window, got ${box.width}`);
  await done(page, 'ui-gomoku');
});

test('a click on a cell sends play_move with its x and y', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 6]] }) });
  await page.click(cell(3, 5));
  await page.waitForFunction(() => window.__mock.callsOf('play_move').length === 1);
  assert.deepEqual((await calls(page, 'play_move'))[0].args, { x: 3, y: 5 });
  // The answer (a snapshot) is drawn.
  await page.waitForSelector(`${cell(3, 5)}[data-stone="black"]`);
  await done(page);
});

test('a pushed snapshot event updates the grid', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7]] }) });
  assert.equal(await page.locator('.cell[data-stone]').count(), 1);
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [4, 4], [5, 5]] }));
  await page.waitForSelector(`${cell(4, 4)}[data-stone="white"]`);
  assert.equal(await page.getAttribute(cell(5, 5), 'data-stone'), 'black');
  assert.equal(await page.locator('.cell[data-stone]').count(), 3);
  // An undo: stones disappear again.
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7]] }));
  await page.waitForFunction(() => document.querySelectorAll('.cell[data-stone]').length === 1);
  assert.equal(await page.getAttribute(cell(4, 4), 'data-stone'), null);
  await done(page);
});

test('errors from the backend are shown in words', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 8]], rule: 'renju' }) });
  await page.evaluate(() => window.__mock.fail('play_move', { code: 'illegal_move', message: 'That point is taken', params: { reason: 'occupied' } }));
  await page.click(cell(7, 7));
  await page.waitForSelector('#toast:not([hidden])');
  assert.equal(await text(page, '[data-testid="toast"]'), 'That point is already taken.');

  await page.evaluate(() =>
    window.__mock.fail('play_move', { code: 'illegal_move', message: 'forbidden', params: { reason: 'forbidden', kind: 'double_three' } }),
  );
  await page.click(cell(2, 2));
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('three'));
  assert.equal(await text(page, '#toast'), 'Forbidden for Black under Renju: double three (三三).');

  await page.evaluate(() => window.__mock.fail('play_move', { code: 'computer_thinking', message: 'The computer is thinking', params: {} }));
  await page.click(cell(3, 3));
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('thinking'));
  assert.match(await text(page, '#toast'), /computer is thinking/);

  // An unknown code falls back to the backend's English message.
  await page.evaluate(() => window.__mock.fail('undo', { code: 'brand_new_code', message: 'A message from the backend.', params: {} }));
  await page.click('[data-testid="undo"]');
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('backend'));
  assert.equal(await text(page, '#toast'), 'A message from the backend.');
  await done(page, 'ui-error');
});

test('the start panel sends new_game with the chosen config', async () => {
  const page = await open({ snapshot: null });
  // No game yet: the start panel opens by itself.
  await page.waitForSelector('[data-testid="start-panel"][open]');
  await page.selectOption('[data-testid="game"]', 'gomoku');
  await page.selectOption('[data-testid="rule"]', 'renju');
  await page.selectOption('[data-testid="size"]', '19');
  await page.selectOption('[data-testid="human-side"]', 'white');
  await page.selectOption('[data-testid="level"]', 'lookahead');
  await page.selectOption('[data-testid="time"]', '2000');
  await screenshot(page, 'ui-start-panel');
  await page.evaluate(() => window.__mock.respond('new_game', null));
  await page.click('[data-testid="start"]');
  await page.waitForFunction(() => window.__mock.callsOf('new_game').length === 1);
  assert.deepEqual((await calls(page, 'new_game'))[0].args, {
    config: {
      kind: { game: 'gomoku', rule: 'renju', size: 19 },
      black: { type: 'computer', level: { game: 'gomoku', level: 'lookahead' } },
      white: { type: 'human' },
      timePerMoveMs: 2000,
      timeControl: { type: 'none' },
      opening: 'none',
    },
  });
  // The choice is remembered in the settings.
  await page.waitForFunction(() => window.__mock.callsOf('set_settings').length > 0);
  const saved = (await calls(page, 'set_settings')).at(-1).args.settings;
  assert.deepEqual(saved.lastConfig.kind, { game: 'gomoku', rule: 'renju', size: 19 });

  // Reversi, both sides human: no rule, size 8, both human.
  await page.click('[data-testid="new-game"]');
  await page.waitForSelector('[data-testid="start-panel"][open]');
  assert.equal(await page.inputValue('[data-testid="rule"]'), 'renju', 'the last choice is restored');
  await page.selectOption('[data-testid="game"]', 'reversi');
  assert.equal(await page.isHidden('[data-testid="rule"]'), true, 'Reversi has no rule to choose');
  assert.equal(await page.isHidden('[data-testid="size"]'), true, 'nor a size');
  await page.selectOption('[data-testid="human-side"]', 'both');
  await page.click('[data-testid="start"]');
  await page.waitForFunction(() => window.__mock.callsOf('new_game').length === 2);
  const second = (await calls(page, 'new_game'))[1].args.config;
  assert.deepEqual(second.kind, { game: 'reversi' });
  assert.deepEqual(second.black, { type: 'human' });
  assert.deepEqual(second.white, { type: 'human' });
  await done(page);
});

test('a rejected new game is explained inside the start panel', async () => {
  const page = await open({ snapshot: null });
  await page.waitForSelector('[data-testid="start-panel"][open]');
  await page.evaluate(() => window.__mock.fail('new_game', { code: 'invalid_argument', message: 'board size 4 is too small', params: {} }));
  await page.click('[data-testid="start"]');
  await page.waitForFunction(() => document.querySelector('#start-error').textContent.length > 0);
  assert.equal(await text(page, '#start-error'), 'That setting is not valid: board size 4 is too small');
  assert.equal(await page.locator('[data-testid="start-panel"][open]').count(), 1);
  await done(page);
});

test('language switch: English ↔ 简体中文 changes the texts', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7]] }) });
  assert.equal(await text(page, '[data-testid="undo"]'), 'Undo');
  assert.match(await text(page, '[data-testid="status"]'), /White/);
  await page.click('[data-testid="settings"]');
  await page.selectOption('[data-testid="language"]', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await text(page, '[data-testid="undo"]'), '悔棋');
  assert.equal(await text(page, '[data-testid="hint"]'), '提示');
  assert.match(await text(page, '[data-testid="status"]'), /白方/);
  assert.equal(await page.getAttribute(cell(7, 7), 'aria-label'), 'h8，黑子');
  assert.match(await text(page, '#game-title'), /五子棋/);
  const saved = (await calls(page, 'set_settings')).at(-1).args.settings;
  assert.equal(saved.language, 'zh-CN');
  await screenshot(page, 'ui-settings-zh');
  await page.keyboard.press('Escape');
  await screenshot(page, 'ui-zh-CN');
  // And back.
  await page.click('[data-testid="settings"]');
  await page.selectOption('[data-testid="language"]', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await text(page, '[data-testid="undo"]'), 'Undo');
  await done(page);
});

test("pattern names: the last stone's shapes are named in the chosen language", async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [0, 0], [8, 7]], lastShapes: ['four', 'open_three'] }) });
  assert.equal(await text(page, '[data-testid="shapes"]'), 'Black i8: four + open three');
  await page.click('[data-testid="settings"]');
  await page.selectOption('[data-testid="language"]', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await text(page, '[data-testid="shapes"]'), '黑方 i8：冲四 + 活三');
  await page.keyboard.press('Escape');
  // A stone that makes no shape, and a finished game, leave the line empty.
  await emit(page, 'snapshot', snapshot({ generation: 2, moves: [[7, 7], [0, 0]] }));
  await page.waitForFunction(() => document.querySelector('[data-testid="shapes"]').textContent === '');
  await emit(page, 'snapshot', snapshot({ generation: 3, moves: [[7, 7], [0, 0], [8, 7]], lastShapes: ['open_two'], result: { winner: 'black', reason: 'resignation', kind: null, line: [], discs: null } }));
  await page.waitForSelector(`${cell(8, 7)}[data-stone="black"]`);
  assert.equal(await text(page, '[data-testid="shapes"]'), '');
  await done(page);
});

test('the system locale picks the language when the setting is "auto"', async () => {
  const page = await open({ locale: 'zh-CN', settings: { language: 'auto' }, snapshot: snapshot() });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await text(page, '[data-testid="redo"]'), '重做');
  await done(page);
});

test('keyboard: arrows move the cursor, Enter/Space play there, shortcuts send commands', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7]], canRedo: true }) });
  // The cursor starts in the centre (7, 7); ↑/↓ put it on the board, then ←/→ move it.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.match(await page.getAttribute(cell(9, 6), 'class'), /\bcursor\b/);
  assert.equal(await page.evaluate(() => document.querySelector('.board').classList.contains('show-cursor')), true);
  await screenshot(page, 'ui-keyboard-cursor');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__mock.callsOf('play_move').length === 1);
  assert.deepEqual((await calls(page, 'play_move'))[0].args, { x: 9, y: 6 });

  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => window.__mock.callsOf('play_move').length === 2);
  assert.deepEqual((await calls(page, 'play_move'))[1].args, { x: 8, y: 7 });

  // The cursor stops at the edge.
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowLeft');
  assert.match(await page.getAttribute(cell(0, 7), 'class'), /\bcursor\b/);

  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => window.__mock.callsOf('undo').length === 1);
  await page.keyboard.press('Control+y');
  await page.keyboard.press('Control+Shift+Z');
  await page.waitForFunction(() => window.__mock.callsOf('redo').length === 2);
  await page.keyboard.press('h');
  await page.waitForFunction(() => window.__mock.callsOf('hint').length === 1);
  await page.evaluate(() => window.__mock.respond('save_game', '/home/me/game.psq'));
  await page.keyboard.press('Control+s');
  await page.waitForFunction(() => window.__mock.callsOf('save_game').length === 1);
  assert.deepEqual((await calls(page, 'save_game'))[0].args, { format: 'record' });
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('game.psq'));
  // Off the board ←/→ step through the game; ↑ brings the cursor back (Enter belongs to the button).
  await page.focus('[data-testid="settings"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.__mock.callsOf('navigate').length === 1);
  assert.deepEqual((await calls(page, 'navigate'))[0].args, { nav: { to: 'forward' } });
  await page.keyboard.press('ArrowUp');
  assert.match(await page.getAttribute(cell(0, 6), 'class'), /\bcursor\b/);
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('board')), true);
  await page.keyboard.press('Control+n');
  await page.waitForSelector('[data-testid="start-panel"][open]');
  await done(page);
});

test('dark theme: follows the system and the manual override', async () => {
  const luminance = (page) =>
    page.evaluate(() => {
      const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    });
  const page = await open({ colorScheme: 'dark', settings: { theme: 'system' }, snapshot: snapshot({ moves: [[7, 7], [8, 8]] }) });
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  assert.ok((await luminance(page)) < 0.2, 'dark background');
  await screenshot(page, 'ui-dark');
  // Manual override to light, then dark again.
  await page.click('[data-testid="settings"]');
  await page.selectOption('[data-testid="theme"]', 'light');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
  assert.ok((await luminance(page)) > 0.8, 'light background');
  await page.selectOption('[data-testid="theme"]', 'dark');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  assert.ok((await luminance(page)) < 0.2);
  assert.equal((await calls(page, 'set_settings')).at(-1).args.settings.theme, 'dark');
  await done(page);

  const light = await open({ colorScheme: 'light', settings: { theme: 'dark' }, snapshot: snapshot() });
  assert.equal(await light.getAttribute('html', 'data-theme'), 'dark', 'the override wins over the system');
  await done(light);
});

test('thinking: status shows depth and score from ai-progress, with a heat map', async () => {
  const thinking = { color: 'white', depth: 2, score: { kind: 'eval', value: 10 }, nodes: 100, nps: 1000 };
  const page = await open({ snapshot: snapshot({ moves: [[7, 7]], thinking, generation: 4 }) });
  assert.equal(await text(page, '[data-testid="status"]'), 'White is thinking…');
  assert.equal(await page.isEnabled('[data-testid="stop"]'), true);
  assert.equal(await page.isDisabled('[data-testid="hint"]'), true);
  await emit(page, 'ai-progress', {
    generation: 4, color: 'white', depth: 8, seldepth: 14, nodes: 1234567, nps: 2500000,
    score: { kind: 'eval', value: -35 }, pv: ['i9', 'g7'],
    candidates: [{ x: 8, y: 8, score: { kind: 'eval', value: -35 } }, { x: 6, y: 6, score: { kind: 'eval', value: -80 } }],
  });
  await page.waitForFunction(() => document.querySelector('#analysis').textContent.includes('depth 8'));
  const analysis = await text(page, '#analysis');
  assert.match(analysis, /depth 8\/14/);
  assert.match(analysis, /score -35/);
  assert.match(analysis, /1\.2M nodes/);
  assert.equal(await page.locator('.heat.on').count(), 2);
  await page.waitForTimeout(300);
  await screenshot(page, 'ui-thinking');
  // Progress of an older generation is ignored.
  await emit(page, 'ai-progress', { generation: 3, color: 'white', depth: 30, score: { kind: 'win', value: 3 }, candidates: [] });
  assert.doesNotMatch(await text(page, '#analysis'), /depth 30/);
  await page.click('[data-testid="stop"]');
  await page.waitForFunction(() => window.__mock.callsOf('stop_thinking').length === 1);
  // The reply arrives: thinking ends, the heat map goes.
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8]], generation: 4 }));
  await page.waitForFunction(() => document.querySelectorAll('.heat.on').length === 0);
  assert.equal(await text(page, '[data-testid="status"]'), 'Your move — Black');
  await done(page);
});

test('renju: forbidden points are marked for a human black, hidden for a computer black', async () => {
  const forbidden = [{ x: 8, y: 7, kind: 'double_three' }];
  const page = await open({ snapshot: snapshot({ rule: 'renju', moves: [[7, 7], [0, 0], [9, 7], [0, 1]], forbidden }) });
  assert.match(await page.getAttribute(cell(8, 7), 'class'), /\bforbidden\b/);
  await emit(page, 'snapshot', snapshot({
    rule: 'renju', moves: [[7, 7], [0, 0], [9, 7], [0, 1]], forbidden,
    players: { black: { type: 'computer', level: { game: 'gomoku', level: 'master' } }, white: { type: 'human' } },
  }));
  await page.waitForFunction(() => !document.querySelector('.cell.forbidden'));
  await done(page);
});

test('reversi: legal moves shown, flips animated, passes announced', async () => {
  // play_move answers nothing here: the position arrives as a snapshot event.
  const page = await open({ snapshot: reversiStart(), responses: { play_move: null } });
  assert.equal(await page.locator('.cell').count(), 64);
  assert.equal(await page.locator('.cell.legal').count(), 4);
  assert.equal(await page.getAttribute(cell(3, 3), 'aria-label'), 'd4, white disc');
  assert.match(await text(page, '#player-black .count'), /^2$/);
  await page.click(cell(3, 2));
  await page.waitForFunction(() => window.__mock.callsOf('play_move').length === 1);
  assert.deepEqual((await calls(page, 'play_move'))[0].args, { x: 3, y: 2 });
  // Black d3 flips d4.
  const board = reversiStart().board;
  board[2][3] = 'black';
  board[3][3] = 'black';
  await emit(page, 'snapshot', reversiStart({
    board, toMove: 'white', moves: [{ x: 3, y: 2, color: 'black' }], flipped: [{ x: 3, y: 3 }],
    legalMoves: [{ x: 2, y: 2 }, { x: 4, y: 2 }, { x: 2, y: 4 }],
    players: { black: { type: 'human' }, white: { type: 'human' } }, canUndo: true,
  }));
  await page.waitForSelector(`${cell(3, 3)}[data-stone="black"]`);
  assert.match(await page.getAttribute(`${cell(3, 3)} .stone`, 'class'), /flipping/);
  // Our disc (drawn at the click, with its short appearance; see the provisional-stone tests).
  assert.equal(await page.getAttribute(cell(3, 2), 'data-stone'), 'black');
  assert.match(await text(page, '#player-black .count'), /^4$/);
  await page.waitForTimeout(500);
  // The disc just placed is visible, also under the pointer that placed it.
  assert.equal(await page.$eval(`${cell(3, 2)} .stone`, (e) => getComputedStyle(e).opacity), '1');
  assert.equal(await page.$eval(`${cell(3, 3)} .stone`, (e) => getComputedStyle(e).opacity), '1');
  await screenshot(page, 'ui-reversi');
  await emit(page, 'snapshot', reversiStart({
    board, toMove: 'black', moves: [{ x: 3, y: 2, color: 'black' }, { pass: true, color: 'white' }],
    notice: { code: 'pass', params: { color: 'white' } },
  }));
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('passes'));
  assert.equal(await text(page, '#toast'), 'White has no legal move and passes.');
  assert.match(await text(page, '#move-list'), /pass/);
  await done(page);
});

test('the result dialog appears at the end with winner, reason and the winning line', async () => {
  const moves = [[3, 7], [3, 8], [4, 7], [4, 8], [5, 7], [5, 8], [6, 7], [6, 8]];
  const page = await open({ snapshot: snapshot({ moves }) });
  const line = [3, 4, 5, 6, 7].map((x) => ({ x, y: 7 }));
  await emit(page, 'snapshot', snapshot({ moves: [...moves, [7, 7]], result: { winner: 'black', reason: 'five', line, discs: null } }));
  await page.waitForSelector('[data-testid="result"][open]');
  assert.equal(await text(page, '#result-title'), 'You win');
  assert.equal(await text(page, '#result-reason'), 'Five in a row');
  assert.equal(await page.locator('.cell.win').count(), 5);
  assert.equal(await text(page, '[data-testid="status"]'), 'Black wins — five in a row');
  assert.equal(await page.isDisabled('[data-testid="hint"]'), true);
  await page.waitForTimeout(300);
  await screenshot(page, 'ui-result');
  await page.click('[data-testid="result-new"]');
  await page.waitForSelector('[data-testid="start-panel"][open]');
  await done(page);
});

test('a winning move in a variation as long as the line it leaves still shows the result', async () => {
  const moves = [[3, 7], [3, 8], [4, 7], [4, 8], [5, 7], [5, 8], [6, 7], [6, 8], [7, 7]];
  const numbered = (snap) => ({ ...snap, moves: snap.moves.map((m, i) => ({ ...m, node: i + 1 })) });
  // Stepped back one move from the end of a nine-move line (not over there).
  const page = await open({ snapshot: { ...numbered(snapshot({ moves: [...moves.slice(0, 8), [0, 0]] })), ply: 8 } });
  // Black plays the other end of the four: a new node at the ninth move, and five in a row.
  const won = numbered(snapshot({ moves, result: { winner: 'black', reason: 'five', line: [3, 4, 5, 6, 7].map((x) => ({ x, y: 7 })), discs: null } }));
  won.moves[8].node = 42;
  await emit(page, 'snapshot', won);
  await page.waitForSelector('[data-testid="result"][open]');
  await done(page);
});

test('resign asks for a second click', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 8]] }) });
  await page.click('[data-testid="resign"]');
  assert.equal(await text(page, '[data-testid="resign"]'), 'Resign?');
  assert.equal((await calls(page, 'resign')).length, 0);
  await page.click('[data-testid="resign"]');
  await page.waitForFunction(() => window.__mock.callsOf('resign').length === 1);
  assert.equal(await text(page, '[data-testid="resign"]'), 'Resign');
  await done(page);
});

test('sound: a new stone clicks through Web Audio, and the mute setting silences it', async () => {
  // Count the clicks the page schedules.
  const script = `window.__clicks = 0;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () { window.__clicks++; return create.call(this); };`;
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 8]] }), settings: { sound: true }, script });
  await page.click(cell(3, 3)); // a user gesture unlocks audio; our own stone clicks
  await page.waitForFunction(() => window.__clicks === 1);
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [3, 3], [4, 4]] }));
  await page.waitForFunction(() => window.__clicks === 2);
  // A snapshot without a new move (e.g. thinking progress) is silent.
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [3, 3], [4, 4]], hint: { x: 1, y: 1 } }));
  await page.click('[data-testid="settings"]');
  await page.click('[data-testid="sound"]');
  await page.keyboard.press('Escape');
  assert.equal((await calls(page, 'set_settings')).at(-1).args.settings.sound, false);
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [3, 3], [4, 4], [5, 5]] }));
  await page.waitForSelector(`${cell(5, 5)}[data-stone]`);
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.__clicks), 2);
  await done(page);
});

test('threads: a number or all cores but one (null) is saved, a refusal is shown in words', async () => {
  const page = await open({ snapshot: snapshot(), settings: { threads: null } });
  await page.click('[data-testid="settings"]');
  assert.equal(await page.$eval('[data-testid="threads"]', (s) => s.value), 'auto');
  assert.equal(await text(page, '[data-testid="threads"] option[value="auto"]'), 'All cores but one');
  await page.selectOption('[data-testid="threads"]', '1');
  await page.waitForFunction(() => window.__mock.callsOf('set_settings').length === 1);
  assert.equal((await calls(page, 'set_settings')).at(-1).args.settings.threads, 1);
  await page.selectOption('[data-testid="threads"]', 'auto');
  await page.waitForFunction(() => window.__mock.callsOf('set_settings').length === 2);
  assert.equal((await calls(page, 'set_settings')).at(-1).args.settings.threads, null);
  await page.evaluate(() => window.__mock.fail('set_settings', { code: 'invalid_threads', message: 'Search threads must be from 1 to 64, not 0.', params: { value: 0, max: 64 } }));
  await page.selectOption('[data-testid="threads"]', '1');
  await page.waitForSelector('#toast:not([hidden])');
  assert.equal(await text(page, '[data-testid="toast"]'), 'Search threads must be from 1 to 64.');
  await done(page);
});

test('engine memory: the backend\'s sizes offered in words of each language, the choice saved', async () => {
  const page = await open({ snapshot: snapshot(), settings: { engineMemoryMib: 256 } });
  await page.click('[data-testid="settings"]');
  const offered = await page.$$eval('[data-testid="engine-memory"] option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(offered, [['16', '16 MB'], ['64', '64 MB'], ['256', '256 MB']]);
  assert.equal(await page.$eval('[data-testid="engine-memory"]', (s) => s.value), '256');
  await page.selectOption('[data-testid="engine-memory"]', '16');
  await page.waitForFunction(() => window.__mock.callsOf('set_settings').length === 1);
  assert.equal((await calls(page, 'set_settings')).at(-1).args.settings.engineMemoryMib, 16);
  await page.selectOption('[data-testid="language"]', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await text(page, '[data-testid="engine-memory"] option[value="64"]'), '64 MB');
  assert.equal(await page.$eval('[data-testid="engine-memory"]', (s) => s.value), '16');
  assert.equal(await page.$eval('[data-testid="engine-memory"]', (s) => s.closest('label').querySelector('span').textContent), '引擎内存');
  await done(page);
});

test('statistics: shown when the backend keeps them, a placeholder otherwise', async () => {
  const stats = [{ game: 'gomoku', rule: 'renju', level: 'master', wins: 3, losses: 5, draws: 1 }, { game: 'reversi', level: 'greedy', wins: 2, losses: 0, draws: 0 }];
  const page = await open({ snapshot: snapshot(), responses: { get_stats: stats } });
  await page.click('[data-testid="settings"]');
  await page.waitForSelector('[data-testid="stats"] table');
  const rows = await page.$$eval('[data-testid="stats"] tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, [['Gomoku · Renju', 'Master', '3', '5', '1'], ['Reversi', 'Greedy', '2', '0', '0']]);
  await screenshot(page, 'ui-settings');
  // A language chosen with the dialog open rewrites the table in it.
  await page.selectOption('#settings-dialog [name="language"]', 'zh-CN');
  await page.waitForFunction(() => document.querySelector('[data-testid="stats"] th')?.textContent === '棋类');
  assert.equal(await page.$eval('[data-testid="stats"] tbody tr td', (td) => td.textContent), '五子棋 · 连珠规则');
  await done(page);
  const none = await open({ snapshot: snapshot() });
  await none.click('[data-testid="settings"]');
  await none.waitForFunction(() => window.__mock.callsOf('get_stats').length === 1);
  assert.match(await text(none, '[data-testid="stats"]'), /will appear here/);
  await done(none);
});

test('save offers both formats; open shows a bad file in words', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7]] }) });
  await page.click('[data-testid="save"]');
  await page.click('#save-menu [data-format="json"]');
  await page.waitForFunction(() => window.__mock.callsOf('save_game').length === 1);
  assert.deepEqual((await calls(page, 'save_game'))[0].args, { format: 'json' });
  assert.equal(await page.isHidden('#save-menu'), true);
  // A cancelled dialog says nothing; a bad file is explained.
  await page.evaluate(() => window.__mock.fail('open_game', { code: 'cancelled', message: 'cancelled', params: {} }));
  await page.click('[data-testid="open"]');
  await page.waitForFunction(() => window.__mock.callsOf('open_game').length === 1);
  await page.waitForTimeout(100);
  assert.equal(await page.isHidden('#toast'), true);
  await page.evaluate(() => window.__mock.fail('open_game', { code: 'bad_file', message: 'line 3: x out of range', params: {} }));
  await page.click('[data-testid="open"]');
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('line 3'));
  assert.equal(await text(page, '#toast'), 'That file is not a game Tengen can open: line 3: x out of range');
  await done(page);
});

test('move numbers and coordinates can be switched', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 8], [6, 8]] }) });
  assert.equal(await page.locator('.coords-left').isVisible(), true);
  await page.click('[data-testid="settings"]');
  await page.click('[data-testid="move-numbers"]');
  await page.click('[data-testid="coordinates"]');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.coords-left').isVisible(), false);
  assert.equal(await text(page, `${cell(8, 8)} .stone`), '2');
  const color = await page.$eval(`${cell(8, 8)} .stone`, (e) => getComputedStyle(e).color);
  assert.notEqual(color, 'rgba(0, 0, 0, 0)', 'numbers are visible');
  await screenshot(page, 'ui-move-numbers');
  await done(page);
});

test('a late command answer does not overwrite a newer snapshot event', async () => {
  // The backend numbers its snapshots (seq); the page draws only the newest.
  const page = await open({ snapshot: snapshot({ seq: 1, moves: [[7, 7], [8, 8]] }) });
  // play_move answers slowly with the position after the human move only, while the event
  // with the computer's reply arrives first.
  await page.evaluate(() => {
    const real = window.__TAURI__.core.invoke;
    window.__TAURI__.core.invoke = async (cmd, args) => {
      if (cmd !== 'play_move') return real(cmd, args);
      const answer = await real(cmd, args);
      await new Promise((r) => setTimeout(r, 150));
      return answer;
    };
  });
  await page.click(cell(9, 9));
  await emit(page, 'snapshot', snapshot({ seq: 3, moves: [[7, 7], [8, 8], [9, 9], [10, 10]] }));
  await page.waitForTimeout(300);
  assert.equal(await page.getAttribute(cell(10, 10), 'data-stone'), 'white');
  // An older event is dropped as well, a newer one is drawn.
  await emit(page, 'snapshot', snapshot({ seq: 2, moves: [[7, 7], [8, 8]] }));
  assert.equal(await page.getAttribute(cell(10, 10), 'data-stone'), 'white');
  await emit(page, 'snapshot', snapshot({ seq: 4, moves: [[7, 7], [8, 8], [9, 9], [10, 10], [6, 6]] }));
  await page.waitForSelector(`${cell(6, 6)}[data-stone="black"]`);
  await done(page);
});

test('every control is reachable by keyboard with a visible focus', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 8]], canRedo: true }) });
  const reached = new Set();
  for (let i = 0; i < 26; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { id: el === document.body ? '' : el.dataset.testid || el.className, outline: style.outlineStyle };
    });
    if (info.id === '') continue; // the page itself, between the last control and the first
    reached.add(info.id);
    assert.notEqual(info.outline, 'none', `${info.id} shows focus`);
  }
  for (const id of ['new-game', 'open', 'save', 'edit', 'settings', 'undo', 'redo', 'hint', 'resign', 'nav-back']) assert.ok(reached.has(id), `${id} reachable`);
  assert.ok([...reached].some((id) => String(id).includes('board')), 'the board is reachable');
  await done(page);
});

test('at rest nothing runs: no endless animation, no interval, no pending timer, no frame loop', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 8]] }), script: TIMER_PROBE });
  await page.waitForTimeout(400); // the new stones' short animations end
  assert.deepEqual(await activity(page), { running: [], intervals: 0, timeouts: 0, frames: 0 }, 'a human to move');

  // The probe sees what runs: while the computer thinks, the bar sweeps without end.
  const thinking = { color: 'white', depth: 1, score: null, nodes: 0, nps: 0 };
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [6, 6]], thinking }));
  const busy = await activity(page, 100);
  assert.ok(busy.running.some((a) => a.name === 'sweep' && a.iterations === Infinity), `the sweep runs: ${JSON.stringify(busy.running)}`);
  // The reply: all still again.
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [6, 6], [9, 9]] }));
  await page.waitForTimeout(400);
  assert.deepEqual(await activity(page), { running: [], intervals: 0, timeouts: 0, frames: 0 }, 'after the reply');

  // A hint and a winning line are marked by animations that end.
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [6, 6], [9, 9]], hint: { x: 5, y: 5 } }));
  const hint = await activity(page, 100);
  assert.ok(hint.running.some((a) => a.name === 'pulse'), 'the hint pulses');
  assert.deepEqual(hint.running.filter((a) => a.iterations === Infinity), [], 'but not for ever');
  const moves = [[3, 7], [3, 8], [4, 7], [4, 8], [5, 7], [5, 8], [6, 7], [6, 8], [7, 7]];
  const line = [3, 4, 5, 6, 7].map((x) => ({ x, y: 7 }));
  await emit(page, 'snapshot', snapshot({ moves, result: { winner: 'black', reason: 'five', line, discs: null } }));
  await page.waitForSelector('[data-testid="result"][open]');
  const over = await activity(page, 100);
  assert.ok(over.running.some((a) => a.name === 'glow'), 'the winning line glows');
  assert.deepEqual(over.running.filter((a) => a.iterations === Infinity), [], 'but not for ever');

  // The probe sees timers too: resigning arms a timeout, the second click clears it.
  await page.keyboard.press('Escape');
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8]] }));
  await page.click('[data-testid="resign"]');
  assert.equal((await activity(page, 0)).timeouts, 1, 'the armed resign button is seen');
  await page.click('[data-testid="resign"]');
  assert.equal((await activity(page, 0)).timeouts, 0);
  await done(page);
});

/** Makes play_move answer after `ms` (with the mock's answer or the given error). */
/** Holds every later `play_move` answer until `release(page)` (then it answers, or throws
 *  `error`): what the page shows before the answer is then tested on any machine load. */
const slowPlay = (page, error = null) =>
  page.evaluate((err) => {
    const real = window.__TAURI__.core.invoke;
    window.__held = [];
    window.__TAURI__.core.invoke = async (cmd, args) => {
      if (cmd !== 'play_move') return real(cmd, args);
      await new Promise((r) => window.__held.push(r));
      if (err) throw err;
      return real(cmd, args);
    };
  }, error);
const release = (page) => page.evaluate(() => window.__held.splice(0).forEach((r) => r()));

/** The stone of a cell as the next frame draws it: colour, opacity and whether provisional. */
const nextFrame = (page, x, y) =>
  page.evaluate(([cx, cy]) => new Promise((resolve) => requestAnimationFrame(() => {
    const c = document.querySelector(`.cell[data-x="${cx}"][data-y="${cy}"]`);
    resolve({ stone: c.dataset.stone || null, provisional: c.classList.contains('provisional'), opacity: Number(getComputedStyle(c.querySelector('.stone')).opacity) });
  })), [x, y]);

test("the player's stone is drawn at the click, and stays when the backend confirms it", async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 8]] }) });
  await slowPlay(page);
  await page.click(cell(3, 5));
  // Drawn in the next frame, well before the answer.
  const drawn = await nextFrame(page, 3, 5);
  assert.equal(drawn.stone, 'black');
  assert.equal(drawn.provisional, true);
  assert.ok(drawn.opacity >= 0.75, `visible at once (opacity ${drawn.opacity})`);
  assert.equal(await page.locator('.cell[data-stone]').count(), 3);
  // The answer confirms it: the same stone, no longer provisional.
  await release(page);
  await page.waitForSelector(`${cell(3, 5)}[data-stone="black"]:not(.provisional)`);
  assert.equal((await calls(page, 'play_move')).length, 1);
  assert.equal(await page.locator('.cell.provisional').count(), 0);
  // A snapshot event that arrives first confirms it the same way.
  await page.click(cell(4, 5));
  assert.equal((await nextFrame(page, 4, 5)).provisional, false, "white's turn: the computer's, nothing is drawn");
  // The mock still answers that click: let it land before the next snapshot.
  await release(page);
  await page.waitForSelector(`${cell(4, 5)}[data-stone]`);
  // The answer to the next click is never released.
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [3, 5], [9, 9]] }));
  await page.click(cell(2, 2));
  assert.equal((await nextFrame(page, 2, 2)).provisional, true);
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [3, 5], [9, 9], [2, 2]], toMove: 'white' }));
  const confirmed = await nextFrame(page, 2, 2);
  assert.deepEqual([confirmed.stone, confirmed.provisional], ['black', false]);
  await done(page);
});

test("the player's stone goes again when the backend refuses it, with the reason in words", async () => {
  const page = await open({ snapshot: snapshot({ rule: 'renju', moves: [[7, 7], [8, 8]], forbidden: [{ x: 6, y: 6, kind: 'double_three' }] }) });
  await slowPlay(page, { code: 'illegal_move', message: 'forbidden', params: { reason: 'forbidden', kind: 'double_four' } });
  await page.click(cell(5, 9));
  assert.equal((await nextFrame(page, 5, 9)).provisional, true, 'drawn at once');
  await release(page);
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('four'));
  assert.equal(await text(page, '#toast'), 'Forbidden for Black under Renju: double four (四四).');
  assert.equal(await page.getAttribute(cell(5, 9), 'data-stone'), null, 'the refused stone is gone');
  assert.equal(await page.locator('.cell[data-stone]').count(), 2);
  // Nothing is drawn where the snapshot already says no: a marked forbidden point, a stone.
  await page.click(cell(6, 6));
  assert.equal((await nextFrame(page, 6, 6)).stone, null);
  await page.click(cell(8, 8));
  assert.equal((await nextFrame(page, 8, 8)).stone, 'white');
  assert.equal(await page.locator('.cell.provisional').count(), 0);
  await done(page);

  // Reversi: only on the cells the snapshot lists as legal.
  const rev = await open({ snapshot: reversiStart() });
  await slowPlay(rev, { code: 'illegal_move', message: 'no flip', params: { reason: 'no_flips' } });
  await rev.click(cell(0, 0));
  assert.equal((await nextFrame(rev, 0, 0)).stone, null);
  await rev.click(cell(3, 2));
  assert.equal((await nextFrame(rev, 3, 2)).provisional, true);
  await release(rev);
  await rev.waitForFunction(() => !document.querySelector('.cell.provisional'), null, { timeout: 2000 });
  assert.equal(await rev.getAttribute(cell(3, 2), 'data-stone'), null);
  assert.equal(await text(rev, '#toast'), "A disc must outflank at least one of your opponent's discs.");
  await done(rev);
});

test("the start panel opens on the current game's settings and shows only the fields that apply", async () => {
  const master = { type: 'computer', level: { game: 'gomoku', level: 'master' } };
  const page = await open({ snapshot: snapshot({ rule: 'renju', size: 15, players: { black: { type: 'human' }, white: master } }) });
  await page.click('[data-testid="new-game"]');
  await page.waitForSelector('[data-testid="start-panel"][open]');
  const values = () =>
    page.evaluate(() => Object.fromEntries(['game', 'rule', 'size', 'human-side', 'level', 'time'].map((id) => [id, document.querySelector(`[data-testid="${id}"]`).value])));
  assert.deepEqual(await values(), { game: 'gomoku', rule: 'renju', size: '15', 'human-side': 'black', level: 'master', time: '1000' });
  await page.keyboard.press('Escape');

  await emit(page, 'snapshot', reversiStart({ players: { black: { type: 'computer', level: { game: 'reversi', level: 'classic' } }, white: { type: 'human' } } }));
  await page.click('[data-testid="new-game"]');
  await page.waitForSelector('[data-testid="start-panel"][open]');
  const v = await values();
  assert.deepEqual([v.game, v['human-side'], v.level], ['reversi', 'white', 'classic']);
  assert.equal(await page.isHidden('#field-rule'), true);
  assert.equal(await page.isHidden('#field-size'), true);
  await page.selectOption('[data-testid="game"]', 'gomoku');
  assert.equal(await page.isVisible('#field-rule'), true);
  assert.equal(await page.isVisible('#field-size'), true);
  await done(page);
});

test('every choice of the start panel is readable in its closed select, in both languages', async () => {
  for (const language of ['en', 'zh-CN']) {
    const page = await open({ snapshot: snapshot(), settings: { language }, viewport: { width: 1100, height: 800 } });
    await page.click('[data-testid="new-game"]');
    await page.waitForSelector('[data-testid="start-panel"][open]');
    const cut = await page.evaluate(CUT_OFF_CHOICES);
    assert.deepEqual(cut, [], `${language}: choices cut off`);
    await screenshot(page, `ui-start-panel-${language}`);
    await done(page);
  }
});

test("the start panel offers exactly the levels, rules, sizes and times Rust's facts give", async () => {
  // facts.generated.js is what src-tauri/src/facts.rs writes (its test fails when they differ).
  const page = await open({ snapshot: null, settings: { lastConfig: null } });
  await page.waitForSelector('[data-testid="start-panel"][open]');
  const facts = await page.evaluate(async () => (await import('./js/facts.generated.js')).FACTS);
  const options = (id) => page.evaluate((id) => [...document.querySelector(`[data-testid="${id}"]`).options].map((o) => o.value), id);
  const value = (id) => page.evaluate((id) => document.querySelector(`[data-testid="${id}"]`).value, id);
  // No game yet: the panel shows the first game Rust would start.
  const first = facts.defaultConfig;
  assert.equal(await value('game'), first.kind.game);
  assert.equal(await value('rule'), first.kind.rule);
  assert.equal(Number(await value('size')), first.kind.size);
  assert.equal(await value('level'), first.white.level.level);
  assert.equal(Number(await value('time')), first.timePerMoveMs);
  assert.deepEqual(await options('rule'), facts.rules);
  assert.deepEqual((await options('size')).map(Number), facts.gomokuSizes.offered);
  assert.deepEqual((await options('time')).map(Number), facts.timePerMoveMs.offered);
  assert.equal(facts.timePerMoveMs.offered[0], facts.timePerMoveMs.min, 'the offered times are the allowed range');
  assert.equal(facts.timePerMoveMs.offered.at(-1), facts.timePerMoveMs.max);
  for (const game of ['gomoku', 'reversi']) {
    await page.selectOption('[data-testid="game"]', game);
    const levels = facts.levels.filter((l) => l.game === game);
    assert.deepEqual(await options('level'), levels.map((l) => l.level), game);
    // The note under the time says whether the chosen level follows it.
    for (const l of levels) {
      await page.selectOption('[data-testid="level"]', l.level);
      const note = await text(page, '#time-note');
      assert.equal(note, l.followsClock ? 'this level thinks for this long' : 'this level plays at its own pace', `${game} ${l.level}`);
    }
  }
  await done(page);
});

test('an argument the backend cannot read is refused in words', async () => {
  const page = await open({ snapshot: snapshot() });
  await page.evaluate(() =>
    window.__mock.fail('play_move', { code: 'invalid_argument', message: 'Invalid x: invalid value: integer `300`, expected u8.', params: { field: 'x', detail: 'invalid value: integer `300`, expected u8' } }),
  );
  await page.click(cell(3, 3));
  await page.waitForSelector('[data-testid="toast"]:not([hidden])');
  const toast = await text(page, '#toast');
  assert.match(toast, /not valid/);
  assert.doesNotMatch(toast, /invalid_argument|\[object/);
  await done(page);
});

test('the cells are sized from the board\'s width in px, and follow a resize', async () => {
  // Not from a container query unit: Chromium restyled and laid out the whole board at each
  // step with one (scripts/bench-steps.mjs).
  const page = await open({ snapshot: studySnapshot(20, 20) });
  const sizes = () => page.evaluate(() => {
    const board = document.querySelector('.board');
    return {
      w: board.style.getPropertyValue('--w'),
      width: board.getBoundingClientRect().width,
      cell: document.querySelector('.cell').getBoundingClientRect().width,
    };
  });
  await page.waitForFunction(() => document.querySelector('.board').style.getPropertyValue('--w') !== '');
  const before = await sizes();
  assert.ok(Math.abs(parseFloat(before.w) - before.width) < 0.5, JSON.stringify(before));
  await page.setViewportSize({ width: 900, height: 600 });
  await page.waitForFunction((w) => document.querySelector('.board').style.getPropertyValue('--w') !== w, before.w);
  const after = await sizes();
  assert.ok(after.width < before.width, JSON.stringify({ before, after }));
  assert.ok(Math.abs(parseFloat(after.w) - after.width) < 0.5, JSON.stringify(after));
  assert.ok(Math.abs(after.cell / before.cell - after.width / before.width) < 0.02, 'the cells shrink with the board');
  await done(page);
});

test('painted in software (WebKitGTK), nothing on screen casts a large blurred shadow', async () => {
  // A blurred shadow is blurred again at every repaint there: frames of 80-100 ms while the
  // computer thought (scripts/bench-app.sh). Chromium keeps the soft shadows.
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 6]] }) });
  // The largest blur radius (px) of each visible element's box-shadow layers.
  const blurs = () => page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((el) => el.getClientRects().length > 0)
    .map((el) => {
      const layers = getComputedStyle(el).boxShadow.split(/,(?![^(]*\))/).filter((l) => l.trim() !== 'none');
      const blur = (l) => Number(((l.replace(/rgba?\([^)]*\)/, '').match(/-?[\d.]+px/g) || [])[2] || '0px').replace('px', ''));
      return [el.className || el.tagName, Math.max(0, ...layers.map(blur))];
    })
    .filter(([, b]) => b > 2));
  const soft = await blurs();
  assert.ok(soft.some(([name]) => String(name).includes('board')), `Chromium keeps the board's soft shadow: ${JSON.stringify(soft)}`);
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => { document.documentElement.dataset.paint = 'software'; document.documentElement.dataset.theme = t; }, theme);
    assert.deepEqual(await blurs(), [], theme);
  }
  await done(page);
});

test('the move list: click a move, step with keys and the wheel, variations inline with promote and delete', async () => {
  const page = await open({ snapshot: studySnapshot(200, 200) });
  await page.waitForSelector('[data-ply="200"][aria-current="step"]');
  assert.equal(await page.locator('#move-list [data-ply]').count(), 200);
  assert.equal(await page.locator('[aria-current="step"]').count(), 1);
  // A click on an entry asks for its position.
  await page.click('[data-ply="3"]');
  await page.waitForFunction(() => window.__mock.callsOf('navigate').length === 1);
  assert.deepEqual((await calls(page, 'navigate'))[0].args, { nav: { to: 'ply', ply: 3 } });
  // The backend's answer moves aria-current without rebuilding the list.
  await page.evaluate(() => {
    const s = structuredClone(window.__mock.snapshot);
    s.ply = 3;
    s.seq = (s.seq || 0) + 1;
    window.__mock.emit('snapshot', s);
  });
  await page.waitForSelector('[data-ply="3"][aria-current="step"]');
  assert.equal(await page.locator('[aria-current="step"]').count(), 1);
  assert.match(await page.getAttribute('[data-ply="4"]', 'class'), /\bfuture\b/);
  // Keys: ←/→, Home/End; the wheel over the board.
  await page.focus('[data-testid="undo"]');
  for (const key of ['ArrowLeft', 'ArrowRight', 'Home', 'End']) await page.keyboard.press(key);
  await page.waitForFunction(() => window.__mock.callsOf('navigate').length === 5);
  const tos = (await calls(page, 'navigate')).slice(1).map((c) => c.args.nav.to);
  assert.deepEqual(tos, ['back', 'forward', 'first', 'last']);
  await page.mouse.move(300, 300);
  await page.locator('#board').hover();
  await page.mouse.wheel(0, -120);
  await page.waitForFunction(() => window.__mock.callsOf('navigate').length >= 6);
  assert.equal((await calls(page, 'navigate'))[5].args.nav.to, 'back');
  // The variation at the third move, with its next moves: "(2. h8 i9 j10 k11 …)".
  assert.equal(await page.locator('#move-list .alt-line').textContent(), '(2.h8i9j10k11…)');
  const steps = await page.$$eval('#move-list .alt-line button', (bs) => bs.map((b) => [b.dataset.node, b.textContent]));
  assert.deepEqual(steps, [['900', 'h8'], ['901', 'i9'], ['902', 'j10'], ['903', 'k11']]);
  // A click on a later move enters the line at that move.
  await page.click('#move-list .alt[data-node="902"]');
  await page.waitForFunction(() => window.__mock.callsOf('navigate').some((c) => c.args.nav.node === 902));
  assert.deepEqual((await calls(page, 'navigate')).at(-1).args, { nav: { to: 'node', node: 902 } });
  // A click on its first move goes to its node, the menu promotes or deletes.
  await page.click('#move-list .alt[data-node="900"]');
  await page.waitForFunction(() => window.__mock.callsOf('navigate').some((c) => c.args.nav.node === 900));
  await page.click('#move-list .alt[data-node="900"]', { button: 'right' });
  await page.click('.move-menu [data-action="promote"]');
  await page.waitForFunction(() => window.__mock.callsOf('variation').length === 1);
  assert.deepEqual((await calls(page, 'variation'))[0].args, { action: 'promote', node: 900 });
  await page.click('[data-ply="3"]', { button: 'right' });
  await page.click('.move-menu [data-action="delete"]');
  await page.waitForFunction(() => window.__mock.callsOf('variation').length === 2);
  assert.deepEqual((await calls(page, 'variation'))[1].args, { action: 'delete', node: 3 });
  await done(page, 'ui-move-list-variations');
});

test('"Computer plays here" shows at a position stepped back to at the computer\'s turn, and asks for its move', async () => {
  const moves = [[7, 7], [8, 8], [7, 8], [0, 0]];
  const page = await open({ snapshot: { ...snapshot({ moves }), ply: 4 } });
  assert.equal(await page.locator('[data-testid="computer-here"]').isVisible(), false);
  // One step back: white (the computer) to move, the line goes on.
  await emit(page, 'snapshot', { ...snapshot({ moves }), ply: 3, toMove: 'white', canRedo: true, computerCanPlay: true });
  await page.locator('[data-testid="computer-here"]').waitFor({ state: 'visible' });
  assert.equal(await page.locator('[data-testid="computer-here"]').innerText(), 'Computer plays here');
  await page.click('[data-testid="computer-here"]');
  await page.waitForFunction(() => window.__mock.callsOf('computer_play').length === 1);
  // The computer thinks: the action goes.
  const thinking = { color: 'white', purpose: 'move', depth: 0, score: null, nodes: 0, nps: 0 };
  await emit(page, 'snapshot', { ...snapshot({ moves, thinking }), ply: 3, toMove: 'white', canRedo: true, computerCanPlay: false });
  await page.locator('[data-testid="computer-here"]').waitFor({ state: 'hidden' });
  await page.click('[data-testid="settings"]');
  await page.selectOption('[data-testid="language"]', 'zh-CN');
  await page.keyboard.press('Escape');
  await emit(page, 'snapshot', { ...snapshot({ moves }), ply: 3, toMove: 'white', canRedo: true, computerCanPlay: true });
  await page.waitForFunction(() => document.querySelector('[data-testid="computer-here"]').textContent === '电脑从这里走');
  await done(page, 'ui-computer-here-zh');
});

// Key-repeat speed is a benchmark (docs/BENCHMARKS.md); what this test holds is the work a
// step does, which is what keeps it fast on any machine: the list is never rebuilt, and a
// step touches only the entries whose state changes (the one left and the one shown).
test('stepping a 200-move game touches only the two entries that change', async () => {
  const page = await open({ snapshot: studySnapshot(200, 200) });
  await page.waitForSelector('[data-ply="200"][aria-current="step"]');
  const touched = await page.evaluate(() => {
    const list = document.querySelector('#move-list');
    const seen = new MutationObserver(() => {});
    seen.observe(list, { subtree: true, childList: true, attributes: true, characterData: true });
    const base = window.__mock.snapshot;
    const perStep = [];
    for (let i = 0; i < 60; i++) {
      const s = structuredClone(base);
      s.ply = 199 - i;
      s.seq = (base.seq || 0) + i + 1;
      window.__mock.emit('snapshot', s);
      const entries = new Set();
      for (const m of seen.takeRecords()) {
        const entry = (m.target.nodeType === 1 ? m.target : m.target.parentElement)?.closest('[data-ply]');
        entries.add(entry ? entry.dataset.ply : 'the list itself');
      }
      perStep.push([...entries].sort());
    }
    seen.disconnect();
    return perStep;
  });
  touched.forEach((entries, i) => assert.deepEqual(entries, [String(199 - i), String(200 - i)].sort(), `step ${i + 1}`));
  await page.waitForSelector('[data-ply="140"][aria-current="step"]');
  await done(page);
});

test('the board editor: palette, a click sets a stone, a refusal in words, done', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7]] }) });
  await page.click('[data-testid="edit"]');
  await page.waitForFunction(() => window.__mock.callsOf('edit').length === 1);
  assert.deepEqual((await calls(page, 'edit'))[0].args, { op: { op: 'enter', from_current: true } });
  await page.evaluate(() => {
    const s = structuredClone(window.__mock.snapshot);
    s.editor = { toMove: 'white' };
    s.seq = (s.seq || 0) + 1;
    window.__mock.emit('snapshot', s);
  });
  await page.waitForSelector('#editor-bar:not([hidden])');
  assert.equal(await page.getAttribute('[data-testid="edit"]', 'aria-pressed'), 'true');
  await page.click('#editor-bar [data-tool="white"]');
  await page.click(cell(3, 3));
  await page.waitForFunction(() => window.__mock.callsOf('edit').length === 2);
  assert.deepEqual((await calls(page, 'edit'))[1].args, { op: { op: 'set', x: 3, y: 3, stone: 'white' } });
  await page.evaluate(() => window.__mock.fail('edit', { code: 'bad_setup', message: 'm', params: { reason: 'counts', black: 1, white: 2 } }));
  await page.click('[data-testid="editor-done"]');
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('1 black and 2 white'));
  await screenshot(page, 'ui-editor-refusal');
  await page.evaluate(() => window.__mock.fail('edit', { code: 'bad_setup', message: 'm', params: { reason: 'must_pass', color: 'white', offer: 'black' } }));
  await page.click('[data-testid="editor-done"]');
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('choose Black to move'));
  // Who plays: two people, or you against any level of this game (the current one first).
  assert.equal(await page.isDisabled('#editor-level'), true, 'no level for two players');
  const levels = await page.$$eval('#editor-level option', (os) => os.map((o) => o.value));
  assert.deepEqual(levels, ['fivetuple', 'winarray', 'pattern', 'lookahead', 'master']);
  await page.selectOption('#editor-players', 'white');
  assert.equal(await page.isDisabled('#editor-level'), false);
  await page.selectOption('#editor-level', 'lookahead');
  await page.evaluate(() => window.__mock.respond('edit', null));
  await page.click('[data-testid="editor-done"]');
  await page.waitForFunction(() => window.__mock.callsOf('edit').length === 5);
  assert.deepEqual((await calls(page, 'edit'))[4].args, {
    op: { op: 'done', black: { type: 'computer', level: { game: 'gomoku', level: 'lookahead' } }, white: { type: 'human' } },
  });
  await done(page);
});

test('paste opens what the clipboard holds and says what it was; Ctrl+C copies the moves', async () => {
  const page = await open({ snapshot: snapshot({ moves: [[7, 7]] }) });
  await page.evaluate(() => {
    const s = structuredClone(window.__mock.snapshot);
    s.notice = { code: 'pasted', params: { kind: 'move_list' } };
    s.seq = (s.seq || 0) + 1;
    window.__mock.respond('paste_game', s);
    const e = new Event('paste', { bubbles: true, cancelable: true });
    e.clipboardData = { getData: () => 'h8 i9 j10' };
    document.body.dispatchEvent(e);
  });
  await page.waitForFunction(() => window.__mock.callsOf('paste_game').length === 1);
  assert.deepEqual((await calls(page, 'paste_game'))[0].args, { text: 'h8 i9 j10' });
  await page.waitForFunction(() => document.querySelector('#toast').textContent.includes('a move list'));
  await page.keyboard.press('Control+c');
  await page.waitForFunction(() => window.__mock.callsOf('copy_text').length === 1);
  assert.deepEqual((await calls(page, 'copy_text'))[0].args, { what: 'line' });
  await page.keyboard.press('Control+Shift+C');
  await page.waitForFunction(() => window.__mock.callsOf('copy_text').length === 2);
  assert.deepEqual((await calls(page, 'copy_text'))[1].args, { what: 'position' });
  await done(page);
});

test('a progress report repaints only the heat cells that changed, at most four times a second, in animation frames', async () => {
  const thinking = { color: 'white', depth: 1, score: null, nodes: 0, nps: 0 };
  const page = await open({ snapshot: snapshot({ moves: [[7, 7]], thinking, generation: 4 }) });
  await page.waitForTimeout(400); // the first stone's short animation ends (it too writes a class)
  // Every DOM change under the board, with the cell it happened in and when.
  await page.evaluate(() => {
    window.__changes = [];
    window.__inFrame = false;
    const raf = window.requestAnimationFrame;
    // A change is timed by its frame's timestamp (the clock the throttle keeps), not by when
    // the observer ran: a busy machine can run a frame's callbacks late.
    window.__frameAt = 0;
    window.requestAnimationFrame = (fn) => raf((t) => { window.__inFrame = true; window.__frameAt = t; try { fn(t); } finally { window.__inFrame = false; } });
    new MutationObserver((list) => {
      for (const m of list) {
        const c = m.target.closest?.('.cell');
        window.__changes.push({ cell: c ? `${c.dataset.x},${c.dataset.y}` : m.target.className?.baseVal ?? m.target.className, at: window.__frameAt });
      }
    }).observe(document.querySelector('.board'), { subtree: true, attributes: true, childList: true, characterData: true });
    // Writes must come from a frame callback: record any that does not.
    window.__outside = 0;
    const heat = Object.getOwnPropertyDescriptor(DOMTokenList.prototype, 'add').value;
    DOMTokenList.prototype.add = function (...names) { if (names.includes('on') && !window.__inFrame) window.__outside++; return heat.apply(this, names); };
  });
  const cand = (x, y, value) => ({ x, y, score: { kind: 'eval', value } });
  const progress = (depth, candidates) => emit(page, 'ai-progress', {
    generation: 4, color: 'white', depth, seldepth: depth, nodes: depth * 1000, nps: 1e6, score: { kind: 'eval', value: 5 }, pv: ['h8'], candidates,
  });
  const changedCells = () => page.evaluate(() => [...new Set(window.__changes.map((c) => c.cell))].sort());
  const reset = () => page.evaluate(() => (window.__changes = []));

  await progress(2, [cand(8, 8, 30), cand(6, 6, 10)]);
  await page.waitForFunction(() => document.querySelector('#analysis').textContent.includes('depth 2'));
  assert.deepEqual(await changedCells(), ['6,6', '8,8'], 'the first report paints its two candidates');
  assert.equal(await page.locator('.heat.on').count(), 2);

  // Same two candidates with the same ranks, one new: only the new one is painted, and
  // nothing else on the board (stones, coordinates, labels) is written.
  await page.waitForTimeout(300);
  await reset();
  await progress(3, [cand(8, 8, 30), cand(6, 6, 10), cand(9, 6, 0)]);
  await page.waitForFunction(() => document.querySelectorAll('.heat.on').length === 3);
  assert.deepEqual(await changedCells(), ['9,6']);
  assert.match(await text(page, '#analysis'), /depth 3/);

  // A burst of reports 50 ms apart: the analysis line shows the latest at once; the heat map
  // follows at most four times a second (paints at least 250 ms apart) and ends on the latest.
  await page.waitForTimeout(300);
  await reset();
  for (let i = 0; i < 10; i++) {
    await progress(10 + i, [cand(i, 0, 50), cand(8, 8, 30)]);
    await page.waitForTimeout(50);
  }
  await page.waitForFunction(() => document.querySelector('#analysis').textContent.includes('depth 19'));
  await page.waitForFunction(() => document.querySelector('.cell[data-x="9"][data-y="0"] .heat.on'));
  const paints = await page.evaluate(() => {
    return [...new Set(window.__changes.filter((c) => /^\d+,\d+$/.test(c.cell)).map((c) => c.at))]; // one paint per frame
  });
  assert.ok(paints.length < 10, `${paints.length} heat paints for 10 reports: ${paints}`);
  for (let i = 1; i < paints.length; i++) assert.ok(paints[i] - paints[i - 1] >= 249.5, `paints ${paints[i - 1]} and ${paints[i]} too close`);
  assert.equal(await page.locator('.heat.on').count(), 2, 'the latest two candidates');
  assert.equal(await page.evaluate(() => window.__outside), 0, 'every heat write ran in an animation frame');

  // The reply: the heat map goes with the snapshot, and no paint is left pending.
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8]], generation: 4 }));
  await page.waitForTimeout(400);
  assert.equal(await page.locator('.heat.on').count(), 0);
  await done(page);
});

test("sound: the audio context is made after the click's frame, and rests once the click has sounded", async () => {
  const script = `window.__made = [];
    const Real = AudioContext;
    window.AudioContext = class extends Real {
      constructor(...a) { super(...a); window.__made.push({ inClick: !!window.__inClick }); window.__ctx = this; }
    };
    document.addEventListener('click', () => (window.__inClick = true), { capture: true });
    window.addEventListener('click', () => (window.__inClick = false));`;
  const page = await open({ snapshot: snapshot({ moves: [[7, 7], [8, 8]] }), settings: { sound: true }, script });
  await page.click(cell(3, 3));
  await page.waitForFunction(() => window.__made.length === 1);
  assert.deepEqual(await page.evaluate(() => window.__made), [{ inClick: false }], 'not in the click handler');
  await page.waitForFunction(() => window.__ctx.state === 'suspended', null, { timeout: 3000 });
  // The computer's reply sounds again (the context wakes for it), then rests again.
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [3, 3], [4, 4]] }));
  await page.waitForFunction(() => window.__ctx.state === 'running', null, { timeout: 3000 });
  await page.waitForFunction(() => window.__ctx.state === 'suspended', null, { timeout: 3000 });
  assert.equal(await page.evaluate(() => window.__made.length), 1, 'one context');
  await done(page);
});

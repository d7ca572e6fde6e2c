// Browser tests of live analysis against the IPC mock: the switch, the lines, the score
// written on each candidate's point (data-testid="candidate", data-x, data-y, data-score),
// the variation shown as numbered ghost stones, both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, calls, emit, snapshot, reversiStart, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function done(page, shot) {
  if (shot) await screenshot(page, shot);
  assert.deepEqual(page.errors.map(String), [], 'no uncaught errors in the page');
  await page.context().close();
}

const stone = (x, y, color, label) => ({ x, y, color, label });

/** An `analysis` event for a Gomoku position (black to move). */
function gomokuUpdate(run = 1, extra = {}) {
  return {
    run,
    state: 'running',
    wanted: 3,
    color: 'black',
    depth: 9,
    nodes: 123456,
    nps: 400000,
    elapsed_ms: 300,
    lines: [
      { x: 8, y: 6, pass: false, label: 'i9', outlook: { kind: 'wins', winner: 'black', moves: 4 }, bound: 'exact', depth: 9,
        pv: [stone(8, 6, 'black', 'i9'), stone(9, 5, 'white', 'j10'), stone(6, 8, 'black', 'g7')] },
      { x: 6, y: 6, pass: false, label: 'g9', outlook: { kind: 'chance', permille: 623 }, bound: 'exact', depth: 9,
        pv: [stone(6, 6, 'black', 'g9'), stone(5, 5, 'white', 'f10')] },
      { x: 9, y: 9, pass: false, label: 'j6', outlook: { kind: 'chance', permille: 488 }, bound: 'exact', depth: 9,
        pv: [stone(9, 9, 'black', 'j6')] },
    ],
    ...extra,
  };
}

async function switchOn(page, lines = 3) {
  const before = (await calls(page, 'set_analysis')).length;
  await page.click('[data-testid="analyse"]');
  await page.waitForFunction((n) => window.__mock.callsOf('set_analysis').length === n, before + 1);
  const call = (await calls(page, 'set_analysis'))[before];
  assert.deepEqual(call.args, { on: true, lines });
  assert.equal(await page.getAttribute('[data-testid="analyse"]', 'aria-checked'), 'true');
}

test('the analyse switch turns analysis on and off, and the candidates carry their scores', async () => {
  const page = await openApp(browser, server.url, { snapshot: snapshot({ moves: [[7, 7], [8, 8]] }) });
  assert.equal(await page.getAttribute('[data-testid="analyse"]', 'aria-checked'), 'false');
  await switchOn(page);
  await emit(page, 'analysis', gomokuUpdate());
  const candidates = page.locator('[data-testid="candidate"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="candidate"]').length === 3);
  const seen = await candidates.evaluateAll((els) =>
    els.map((e) => [Number(e.dataset.x), Number(e.dataset.y), e.dataset.score, e.textContent]),
  );
  assert.deepEqual(seen, [
    [8, 6, 'W4', 'W4'],
    [6, 6, '62%', '62%'],
    [9, 9, '49%', '49%'],
  ]);
  // Each candidate sits on its cell.
  for (const [x, y] of seen) {
    const c = await page.locator(`[data-testid="candidate"][data-x="${x}"][data-y="${y}"]`).boundingBox();
    const cell = await page.locator(`.cell[data-x="${x}"][data-y="${y}"]`).boundingBox();
    const cx = c.x + c.width / 2;
    const cy = c.y + c.height / 2;
    assert.ok(cx > cell.x && cx < cell.x + cell.width && cy > cell.y && cy < cell.y + cell.height, `${x},${y}`);
  }
  // The list: move, score in words, depth, variation.
  const rows = await page.locator('#analysis-list li').allInnerTexts();
  assert.equal(rows.length, 3);
  assert.match(rows[0], /i9[\s\S]*Black wins in 4[\s\S]*depth 9[\s\S]*i9 j10 g7/);
  assert.match(rows[1], /g9[\s\S]*62% for Black/);
  assert.match(await page.locator('#analysis-status').innerText(), /depth 9 · 123\.5k nodes/);
  // The heat map follows the lines.
  assert.ok((await page.locator('.heat.on').count()) >= 3);

  // An older run is ignored; a newer one replaces the lines.
  await emit(page, 'analysis', gomokuUpdate(0, { lines: [] }));
  assert.equal(await candidates.count(), 3);
  await emit(page, 'analysis', gomokuUpdate(2, { lines: gomokuUpdate().lines.slice(1, 2) }));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="candidate"]').length === 1);

  // Off: the candidates go.
  await page.click('[data-testid="analyse"]');
  await page.waitForFunction(() => window.__mock.callsOf('set_analysis').length === 2);
  assert.deepEqual((await calls(page, 'set_analysis'))[1].args, { on: false, lines: 3 });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="candidate"]').length === 0);
  assert.equal(await page.getAttribute('[data-testid="analyse"]', 'aria-checked'), 'false');
  await done(page);
});

test('hovering or focusing a candidate shows its variation as numbered ghost stones', async () => {
  const page = await openApp(browser, server.url, { snapshot: snapshot({ moves: [[7, 7], [8, 8]] }) });
  await switchOn(page);
  await emit(page, 'analysis', gomokuUpdate());
  const first = page.locator('[data-testid="candidate"][data-x="8"][data-y="6"]');
  await first.hover();
  await page.waitForFunction(() => document.querySelectorAll('.pv-stone').length === 3);
  const ghosts = await page.locator('.pv-stone').evaluateAll((els) =>
    els.map((e) => [e.className.replace('pv-stone ', ''), e.textContent, e.style.gridColumn, e.style.gridRow]),
  );
  assert.deepEqual(ghosts, [
    ['black', '1', '9', '7'],
    ['white', '2', '10', '6'],
    ['black', '3', '7', '9'],
  ]);
  await screenshot(page, 'ui-analysis-pv');
  await page.mouse.move(2, 2);
  await page.waitForFunction(() => document.querySelectorAll('.pv-stone').length === 0);
  // The keyboard: Tab onto the second candidate.
  await page.focus('[data-testid="candidate"][data-x="6"][data-y="6"]');
  await page.waitForFunction(() => document.querySelectorAll('.pv-stone').length === 2);
  // A click on a candidate plays it.
  await page.click('[data-testid="candidate"][data-x="9"][data-y="9"]');
  await page.waitForFunction(() => window.__mock.callsOf('play_move').length === 1);
  assert.deepEqual((await calls(page, 'play_move'))[0].args, { x: 9, y: 9 });
  await done(page);
});

test('Enter or Space on a focused candidate plays it at the human\'s turn, never the board cursor\'s cell', async () => {
  const page = await openApp(browser, server.url, { snapshot: snapshot({ moves: [[7, 7], [8, 8]] }) });
  await switchOn(page);
  await emit(page, 'analysis', gomokuUpdate());
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="candidate"]').length === 3);
  await page.focus('[data-testid="candidate"][data-x="6"][data-y="6"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__mock.callsOf('play_move').length === 1);
  assert.deepEqual((await calls(page, 'play_move'))[0].args, { x: 6, y: 6 });
  // The computer (white) to move now: a key on a candidate plays nothing.
  await page.focus('[data-testid="candidate"][data-x="9"][data-y="9"]');
  await page.keyboard.press(' ');
  await page.waitForTimeout(150);
  assert.equal((await calls(page, 'play_move')).length, 1);
  // Black to move again: Space plays the focused candidate.
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8], [6, 6], [0, 0]] }));
  await page.focus('[data-testid="candidate"][data-x="9"][data-y="9"]');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => window.__mock.callsOf('play_move').length === 2);
  assert.deepEqual((await calls(page, 'play_move'))[1].args, { x: 9, y: 9 });
  await done(page);
});

test('the candidates leave the board while the board editor is open, and come back after', async () => {
  const page = await openApp(browser, server.url, { snapshot: snapshot({ moves: [[7, 7], [8, 8]] }) });
  await switchOn(page);
  await emit(page, 'analysis', gomokuUpdate());
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="candidate"]').length === 3);
  const editing = { ...snapshot({ moves: [[7, 7], [8, 8]] }), editor: { toMove: 'black' } };
  await emit(page, 'snapshot', editing);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="candidate"]').length === 0);
  assert.match(await page.locator('#analysis-status').innerText(), /Paused while the board editor is open/);
  assert.equal(await page.locator('#analysis-list li').count(), 0);
  // A click on a point sets a stone in the editor (nothing is played).
  await page.click('.cell[data-x="8"][data-y="6"]');
  await page.waitForFunction(() => window.__mock.callsOf('edit').length === 1);
  assert.equal((await calls(page, 'play_move')).length, 0);
  // The backend pauses analysis while the editor is open.
  await emit(page, 'analysis', gomokuUpdate(2, { state: 'paused', lines: [] }));
  await emit(page, 'snapshot', snapshot({ moves: [[7, 7], [8, 8]] }));
  await emit(page, 'analysis', gomokuUpdate(3));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="candidate"]').length === 3);
  await done(page);
});

test('Reversi writes every legal move value, exact ones as such, and lists the N best', async () => {
  const page = await openApp(browser, server.url, { snapshot: reversiStart() });
  // Choosing the number of lines first keeps analysis off.
  await page.selectOption('[data-testid="analysis-lines"]', '2');
  await page.waitForFunction(() => window.__mock.callsOf('set_analysis').length === 1);
  assert.deepEqual((await calls(page, 'set_analysis'))[0].args, { on: false, lines: 2 });
  await switchOn(page, 2);
  const line = (x, y, label, outlook) => ({ x, y, pass: false, label, outlook, bound: 'exact', depth: 12, pv: [stone(x, y, 'black', label)] });
  await emit(page, 'analysis', {
    run: 1, state: 'done', wanted: 2, color: 'black', depth: 12, nodes: 5000, nps: 1, elapsed_ms: 10,
    lines: [
      line(3, 2, 'd3', { kind: 'exact', discs: 4 }),
      line(2, 3, 'c4', { kind: 'exact', discs: 0 }),
      line(5, 4, 'f5', { kind: 'discs', tenths: -35 }),
      line(4, 5, 'e6', { kind: 'exact', discs: -12 }),
    ],
  });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="candidate"]').length === 4);
  const scores = await page.locator('[data-testid="candidate"]').evaluateAll((els) => els.map((e) => e.dataset.score));
  assert.deepEqual(scores, ['+4', '±0', '−3.5', '−12']);
  const rows = await page.locator('#analysis-list li').allInnerTexts();
  assert.equal(rows.length, 2, 'the list shows the N best');
  assert.match(rows[0], /d3[\s\S]*\+4 discs, exact/);
  assert.match(await page.locator('#analysis-status').innerText(), /solved/);
  await done(page, 'ui-analysis-reversi');
});

test('analysis speaks Chinese, and a refused number of lines is said in words', async () => {
  const page = await openApp(browser, server.url, {
    snapshot: snapshot({ moves: [[7, 7], [8, 8]] }),
    responses: { get_settings: { language: 'zh-CN', theme: 'dark', sound: false, showCoordinates: true, showMoveNumbers: false, lastConfig: null } },
  });
  await switchOn(page);
  await emit(page, 'analysis', gomokuUpdate());
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="candidate"]').length === 3);
  const scores = await page.locator('[data-testid="candidate"]').evaluateAll((els) => els.map((e) => e.dataset.score));
  assert.deepEqual(scores, ['胜4', '62%', '49%']);
  const rows = await page.locator('#analysis-list li').allInnerTexts();
  assert.match(rows[0], /黑方? ?4 手胜|黑 4 手胜/);
  assert.match(rows[1], /胜率 62%/);
  assert.match(await page.locator('#analysis-title').innerText(), /分析/);
  await screenshot(page, 'ui-analysis-zh-dark');
  await page.evaluate(() => window.__mock.fail('set_analysis', { code: 'invalid_argument', message: 'Invalid lines.', params: { field: 'lines', detail: '9 is not between 1 and 5' } }));
  await page.click('[data-testid="analyse"]');
  await page.waitForSelector('[data-testid="toast"]:not([hidden])');
  assert.ok((await page.locator('[data-testid="toast"]').innerText()).length > 0);
  await done(page);
});

test('the number of lines is kept in the settings and given back to the backend at the start', async () => {
  const saved = { language: 'en', theme: 'light', sound: false, showCoordinates: true, showMoveNumbers: false, lastConfig: null, analysisLines: 5 };
  const page = await openApp(browser, server.url, { snapshot: snapshot({ moves: [[7, 7]] }), responses: { get_settings: saved } });
  // The backend starts with its default; the page gives it the saved choice, switched off.
  await page.waitForFunction(() => window.__mock.callsOf('set_analysis').length === 1);
  assert.deepEqual((await calls(page, 'set_analysis'))[0].args, { on: false, lines: 5 });
  assert.equal(await page.inputValue('#analysis-lines'), '5');
  // A new choice goes to the backend and into the settings.
  await page.selectOption('#analysis-lines', '2');
  await page.waitForFunction(() => window.__mock.callsOf('set_settings').some((c) => c.args.settings.analysisLines === 2));
  assert.deepEqual((await calls(page, 'set_analysis')).at(-1).args, { on: false, lines: 2 });
  await done(page);
});

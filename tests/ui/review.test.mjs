// Browser tests of the game review (ui/js/review.js) against the IPC mock: the graph drawn
// from a review as src-tauri/src/review.rs sends it (one bar per move with data-ply and
// data-verdict), a click on it shows that position, "next mistake" jumps from one mistake
// to the next, the move list's marks, the verdict in words in both languages, and the
// progress bar with cancel while a review runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, closePage, openApp, calls, emit, snapshot } from './harness.mjs';

const suite = useBrowser();
const open = (init) => openApp(suite.browser, suite.server.url, init);

const MOVES = [[7, 7], [8, 8], [7, 8], [0, 0], [7, 9], [1, 0], [7, 6]];
const chance = (permille) => ({ kind: 'chance', permille });

/** A review of MOVES: ply 2 an inaccuracy, 4 a mistake, 6 a blunder, the rest good. */
function review(extra = {}) {
  const snap = snapshot({ moves: MOVES });
  const verdicts = { 2: 'inaccuracy', 4: 'mistake', 6: 'blunder' };
  const plies = snap.moves.map((m, i) => {
    const ply = i + 1;
    const verdict = verdicts[ply] || 'good';
    return {
      ply,
      color: m.color,
      verdict,
      played: m.label,
      best: verdict === 'good' ? m.label : 'h11',
      bestPoint: verdict === 'good' ? { x: m.x, y: m.y } : { x: 7, y: 4 },
      bestIsPlayed: verdict === 'good',
      before: chance(verdict === 'good' ? 500 : 620),
      after: chance(verdict === 'good' ? 500 : 410),
      value: ply / 10,
    };
  });
  return { version: 3, game: 'gomoku', running: false, done: 0, total: 0, plies, ...extra };
}

const at = (ply) => ({ ...snapshot({ moves: MOVES }), ply });

test('the graph has one bar per move with its verdict, and a click shows that position', async () => {
  const page = await open({ snapshot: at(7), script: `window.__mock.review = ${JSON.stringify(review())};` });
  const bars = await page.$$eval('[data-testid="eval-graph"] > *', (bs) => bs.map((b) => [b.dataset.ply, b.dataset.verdict]));
  assert.deepEqual(bars, [['1', 'good'], ['2', 'inaccuracy'], ['3', 'good'], ['4', 'mistake'], ['5', 'good'], ['6', 'blunder'], ['7', 'good']]);
  // Black's rising chances draw bars above the middle from ply 6 (value 0.6) on.
  const sides = await page.$$eval('[data-testid="eval-graph"] > *', (bs) => bs.map((b) => b.classList.contains('up')));
  assert.deepEqual(sides, [false, false, false, false, true, true, true]);
  await page.click('[data-testid="eval-graph"] [data-ply="4"]');
  const nav = await calls(page, 'navigate');
  assert.deepEqual(nav.at(-1).args, { nav: { to: 'main', ply: 4 } });
  await closePage(page);
});

test('the graph and next mistake go along the main line while a variation is shown', async () => {
  // The line shown leaves the main line at its third move (a variation of two moves).
  const snap = at(4);
  snap.moves = snap.moves.slice(0, 4).map((m, i) => (i >= 2 ? { ...m, label: `v${i}`, node: 50 + i, branch: i === 2 ? 1 : 0 } : m));
  snap.moves[2].alts = [{ node: 3, label: snap.moves[2].label }];
  const page = await open({ snapshot: snap, script: `window.__mock.review = ${JSON.stringify(review())};` });
  await page.waitForSelector('[data-testid="eval-graph"] [data-ply="7"]');
  // The graph marks no bar: the position shown is not the main line's.
  assert.equal(await page.locator('[data-testid="eval-graph"] .current').count(), 0);
  assert.equal(await page.locator('[aria-current="step"]').count(), 1, 'the move list alone marks the step');
  assert.equal(await page.getAttribute('[aria-current="step"]', 'data-ply'), '4');
  await page.click('[data-testid="eval-graph"] [data-ply="6"]');
  assert.deepEqual((await calls(page, 'navigate')).at(-1).args, { nav: { to: 'main', ply: 6 } });
  await page.click('[data-testid="next-mistake"]');
  assert.deepEqual((await calls(page, 'navigate')).at(-1).args, { nav: { to: 'main', ply: 6 } });
  await closePage(page);
});

test('marks in the move list, the verdict in words, and next mistake', async () => {
  const page = await open({ snapshot: at(0), script: `window.__mock.review = ${JSON.stringify(review())};` });
  const marks = await page.$$eval('#move-list .rv-mark', (ms) => ms.map((m) => [m.parentElement.dataset.ply, m.textContent]));
  assert.deepEqual(marks, [['2', '?!'], ['4', '?'], ['6', '??']]);
  // From the start, next mistake skips the inaccuracy.
  await page.click('[data-testid="next-mistake"]');
  assert.deepEqual((await calls(page, 'navigate')).at(-1).args, { nav: { to: 'main', ply: 4 } });
  await emit(page, 'snapshot', at(4));
  const verdict = page.locator('[data-testid="review-verdict"]');
  assert.equal(await verdict.innerText(), 'Mistake: h11 was better than a15 (62% for White → 41% for White).');
  assert.equal(await page.locator('[data-testid="eval-graph"] .current').getAttribute('data-ply'), '4');
  assert.equal(await page.locator('[data-testid="eval-graph"] [aria-current]').count(), 0, 'aria-current="step" is the move list\'s');
  assert.equal(await page.locator('[aria-current="step"]').count(), 1);
  // The board marks the better move (h11) where the mistake was played; a good move gets none.
  assert.deepEqual(await page.$$eval('.cell.hint', (cs) => cs.map((c) => [c.dataset.x, c.dataset.y])), [['7', '4']]);
  await page.click('[data-testid="next-mistake"]');
  assert.deepEqual((await calls(page, 'navigate')).at(-1).args, { nav: { to: 'main', ply: 6 } });
  await emit(page, 'snapshot', at(6));
  assert.equal(await page.locator('[data-testid="next-mistake"]').isDisabled(), true, 'no mistake after the last one');
  await emit(page, 'snapshot', at(7));
  await page.waitForFunction(() => document.querySelectorAll('.cell.hint').length === 0);
  await emit(page, 'snapshot', at(6));
  await page.click('[data-testid="settings"]');
  await page.selectOption('[data-testid="language"]', 'zh-CN');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => /败着/.test(document.querySelector('[data-testid="review-verdict"]').innerText));
  assert.equal(await verdict.innerText(), '败着：h11 比 b15 好（白方胜率 62% → 白方胜率 41%）。');
  await closePage(page);
});

test('a Reversi move with an exact loss says how many discs it lost', async () => {
  const snap = snapshot({ game: 'reversi', moves: [{ x: 5, y: 4, color: 'black' }] });
  const r = { version: 1, game: 'reversi', running: false, done: 0, total: 0, plies: [{
    ply: 1, color: 'black', verdict: 'mistake', played: 'f5', best: 'd3', bestIsPlayed: false,
    before: { kind: 'exact', discs: 4 }, after: { kind: 'exact', discs: -2 }, lost: 6, value: -2 }] };
  const page = await open({ snapshot: { ...snap, ply: 1 }, settings: { theme: 'dark' }, script: `window.__mock.review = ${JSON.stringify(r)};` });
  assert.equal(await page.locator('[data-testid="review-verdict"]').innerText(), 'Mistake: f5 lost 6 discs; d3 was better.');
  assert.equal(await page.locator('[data-testid="eval-graph"] [data-ply="1"]').getAttribute('data-verdict'), 'mistake');
  await closePage(page, 'review-reversi-dark');
});

test('Review starts a run with a progress bar and cancel, and the result arrives as an event', async () => {
  const page = await open({ snapshot: at(7) });
  assert.equal(await page.locator('[data-testid="eval-graph"]').isVisible(), false, 'no review yet');
  await page.evaluate(() => {
    window.__mock.review = { version: 1, game: 'gomoku', running: true, done: 0, total: 8, plies: [] };
  });
  await page.click('[data-testid="review"]');
  assert.deepEqual((await calls(page, 'review')).at(-1).args, { action: 'start' });
  await page.locator('[data-testid="review-cancel"]').waitFor({ state: 'visible' });
  assert.equal(await page.locator('[data-testid="review"]').isVisible(), false);
  await emit(page, 'review-progress', { run: 1, done: 3, total: 8 });
  assert.equal(await page.locator('#review-count').innerText(), 'Position 3 of 8');
  await page.evaluate(() => {
    window.__mock.review = { version: 2, game: 'gomoku', running: false, done: 0, total: 0, plies: [] };
  });
  await page.click('[data-testid="review-cancel"]');
  assert.deepEqual((await calls(page, 'review')).at(-1).args, { action: 'cancel' });
  await page.locator('[data-testid="review-progress"]').waitFor({ state: 'hidden' });
  await emit(page, 'review', review({ version: 5 }));
  assert.equal(await page.locator('[data-testid="eval-graph"] > *').count(), 7);
  // An older view arriving late is ignored.
  await emit(page, 'review', review({ version: 4, plies: [] }));
  assert.equal(await page.locator('[data-testid="eval-graph"] > *').count(), 7);
  await closePage(page, 'review-en');
});

test("the result dialog's Review the game starts the review", async () => {
  const moves = [[3, 7], [3, 8], [4, 7], [4, 8], [5, 7], [5, 8], [6, 7], [6, 8]];
  const page = await open({ snapshot: snapshot({ moves }) });
  const line = [3, 4, 5, 6, 7].map((x) => ({ x, y: 7 }));
  await page.evaluate(() => {
    window.__mock.review = { version: 1, game: 'gomoku', running: true, done: 0, total: 10, plies: [] };
  });
  await emit(page, 'snapshot', snapshot({ moves: [...moves, [7, 7]], result: { winner: 'black', reason: 'five', line, discs: null } }));
  await page.waitForSelector('[data-testid="result"][open]');
  assert.equal(await page.locator('[data-testid="result-review"]').innerText(), 'Review the game');
  assert.equal((await calls(page, 'review')).filter((c) => c.args.action === 'start').length, 0);
  await page.click('[data-testid="result-review"]');
  await page.waitForFunction(() => window.__mock.callsOf('review').some((c) => c.args.action === 'start'));
  assert.equal(await page.locator('[data-testid="result"]').isVisible(), false);
  await page.locator('[data-testid="review-cancel"]').waitFor({ state: 'visible' });
  // Closed with Escape next time, it starts nothing.
  await emit(page, 'snapshot', snapshot({ moves }));
  await emit(page, 'snapshot', snapshot({ moves: [...moves, [7, 7]], result: { winner: 'black', reason: 'five', line, discs: null } }));
  await page.waitForSelector('[data-testid="result"][open]');
  await page.keyboard.press('Escape');
  await page.waitForTimeout(100);
  assert.equal((await calls(page, 'review')).filter((c) => c.args.action === 'start').length, 1);
  await closePage(page);
});

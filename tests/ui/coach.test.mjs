// Browser tests of the coach panel (ui/js/coach.js) against the IPC mock: the engine's facts
// (snapshot.coach, as src-tauri/src/coach.rs sends them) put into words in both languages,
// the setting, and "Show me" drawing a forced win's line as numbered ghost stones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, closePage, openApp, calls, emit, snapshot, reversiStart, screenshot } from './harness.mjs';

const suite = useBrowser();
const open = (init) => openApp(suite.browser, suite.server.url, init);

const xy = (x, y) => ({ x, y });
const coachText = (page) => page.locator('[data-testid="coach"]').innerText();

/** Black f8 g8 h8 (white on the top row): the facts the engine gives about h8. */
function openThree(extra = {}) {
  const snap = snapshot({ moves: [[5, 7], [0, 0], [6, 7], [2, 0], [7, 7]], ...extra });
  snap.coach = {
    ply: 5,
    facts: [
      { kind: 'open_three', color: 'black', from: xy(5, 7), to: xy(7, 7),
        blocks: [{ point: xy(4, 7), forbidden: null }, { point: xy(8, 7), forbidden: null }],
        weaker: [{ point: xy(3, 7), forbidden: null }, { point: xy(9, 7), forbidden: 'double_three' }] },
      { kind: 'threatens', color: 'black', point: xy(8, 6), combo: 'four_three' },
    ],
  };
  return snap;
}

const done = closePage;

test('the coach is off by default: no panel, and the setting turns it on', async () => {
  const page = await open({ snapshot: openThree() });
  assert.equal(await page.locator('#coach-panel').isVisible(), false);
  await page.click('[data-testid="settings"]');
  await page.check('[data-testid="coach-setting"]');
  await page.waitForFunction(() => window.__mock.callsOf('set_settings').some((c) => c.args.settings.coach === true));
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#coach-panel').isVisible(), true);
  assert.match(await coachText(page), /open three f8–h8/);
  await done(page);
});

test('the coach says what the move threatens and how to block it, in English and in Chinese', async () => {
  const page = await open({ snapshot: openThree(), settings: { coach: true } });
  const en = await coachText(page);
  assert.match(en, /Black makes an open three f8–h8 \(活三\): block at e8 or i8, or at d8\/j8 \(forbidden for Black: double three \(三三\)\) for a weaker block\./);
  assert.match(en, /Black threatens a four-three \(四三\) at i9\./);
  await screenshot(page, 'coach-en');
  await page.click('[data-testid="settings"]');
  await page.selectOption('[data-testid="language"]', 'zh-CN');
  await page.keyboard.press('Escape');
  // The locale loads and the panel is written again asynchronously: wait for the new words.
  await page.waitForFunction(() => /黑方/.test(document.querySelector('[data-testid="coach"]').innerText));
  const zh = await coachText(page);
  assert.match(zh, /黑方活三 f8–h8：在 e8 或 i8 防守，或在 d8\/j8（黑方禁手：三三禁手） 弱防。/);
  assert.match(zh, /黑方威胁在 i9 走成四三。/);
  await done(page, 'coach-zh');
});

test('a four, a forced win with "Show me", and Reversi facts', async () => {
  // White's four g9 h9 _ j9 k9 whose only defence i9 is forbidden for black; then black (the
  // human) to move with a forced win of its own in a later snapshot.
  const four = snapshot({ rule: 'renju', moves: [[8, 5], [6, 6], [8, 4], [7, 6], [7, 7], [9, 6], [6, 8], [10, 6]] });
  four.coach = { ply: 8, facts: [{ kind: 'four', color: 'white', from: xy(6, 6), to: xy(10, 6), defence: { point: xy(8, 6), forbidden: 'double_three' } }] };
  const page = await open({ snapshot: four, settings: { coach: true } });
  assert.match(await coachText(page), /White makes a four g9–k9 \(冲四\): the only defence is i9, forbidden for Black \(double three \(三三\)\), so White wins\./);
  assert.equal(await page.locator('[data-testid="coach-show"]').isVisible(), false, 'nothing to show');

  const win = snapshot({ moves: [[0, 14], [6, 8], [2, 14], [7, 8], [4, 14], [8, 8], [14, 14]], seq: 5 });
  win.coach = { ply: 7, facts: [{ kind: 'forced_win', color: 'white', by: 'vcf', line: [xy(9, 8), xy(5, 8), xy(10, 8)] }] };
  win.players = { black: { type: 'computer', level: { game: 'gomoku', level: 'pattern' } }, white: { type: 'human' } };
  await emit(page, 'snapshot', win);
  await page.waitForFunction(() => /forced win/.test(document.querySelector('[data-testid="coach"]').innerText));
  assert.match(await coachText(page), /You have a forced win \(VCF, fours only\): find it\./);
  assert.doesNotMatch(await coachText(page), /j7|k7/, 'the move is not given away');
  await page.click('[data-testid="coach-show"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="coach-ghost"]').length === 3, null, { timeout: 5000 });
  const ghosts = await page.$$eval('[data-testid="coach-ghost"]', (gs) => gs.map((g) => [g.parentElement.dataset.x, g.parentElement.dataset.y, g.className, g.textContent]));
  ghosts.sort((a, b) => a[3] - b[3]);
  assert.deepEqual(ghosts, [['9', '8', 'coach-ghost white', '1'], ['5', '8', 'coach-ghost black', '2'], ['10', '8', 'coach-ghost white', '3']]);
  assert.equal(await page.locator('.cell[data-x="9"][data-y="8"]').getAttribute('data-stone'), null, 'the game is not touched');
  assert.equal((await calls(page, 'play_move')).length, 0);
  await screenshot(page, 'coach-show');
  await page.click('[data-testid="coach-show"]');
  assert.equal(await page.locator('[data-testid="coach-ghost"]').count(), 0, 'Hide takes them away');

  const reversi = reversiStart({ seq: 9 });
  reversi.coach = { ply: 30, facts: [
    { kind: 'gives_corner', color: 'white', corners: [xy(0, 0)] },
    { kind: 'must_pass', color: 'white' },
    { kind: 'keeps_parity', color: 'black', point: xy(6, 7), from: xy(4, 4), to: xy(7, 7) },
  ] };
  await emit(page, 'snapshot', reversi);
  await page.waitForFunction(() => /corner/.test(document.querySelector('[data-testid="coach"]').innerText));
  const text = await coachText(page);
  assert.match(text, /This gives White the a1 corner\./);
  assert.match(text, /This leaves White without a move \(White must pass\)\./);
  assert.match(text, /g8 is the only move that keeps parity: the e5–h8 region had an odd number of empty squares\./);

  // The same facts in Chinese.
  await page.click('[data-testid="settings"]');
  await page.selectOption('[data-testid="language"]', 'zh-CN');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => /角/.test(document.querySelector('[data-testid="coach"]').innerText));
  const zh = await coachText(page);
  assert.match(zh, /这步让白方可以占 a1 角。/);
  assert.match(zh, /这步让白方无处可下（白方必须停一手）。/);
  assert.match(zh, /g8 是唯一保持奇偶的着法：e5–h8 区的空格数为奇数。/);
  await emit(page, 'snapshot', { ...four, seq: 11 });
  await page.waitForFunction(() => /冲四/.test(document.querySelector('[data-testid="coach"]').innerText));
  assert.match(await coachText(page), /白方冲四 g9–k9：唯一的防点 i9 是黑方的禁手（三三禁手），白方胜。/);
  await emit(page, 'snapshot', { ...win, seq: 12 });
  await page.waitForFunction(() => /必胜/.test(document.querySelector('[data-testid="coach"]').innerText));
  assert.match(await coachText(page), /你有必胜（VCF，连续冲四）：找找看。/);
  assert.equal(await page.locator('[data-testid="coach-show"]').innerText(), '演示');
  await done(page, 'coach-facts-zh');
});

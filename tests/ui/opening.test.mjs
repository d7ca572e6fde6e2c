// Browser tests of the opening phase (ui/js/opening.js) against the IPC mock: the banner
// says who places what, the Swap2 choices go out as opening_choice, Soosõrv's offers are
// board clicks, refusals are put in words, the opening's name shows in both languages, and
// the start panel offers the rules that fit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, closePage, openApp, calls, emit, snapshot, screenshot } from './harness.mjs';

const suite = useBrowser();
const open = (init) => openApp(suite.browser, suite.server.url, init);
const text = (page, sel) => page.locator(sel).innerText();

const human = { type: 'human' };
const master = { type: 'computer', level: { game: 'gomoku', level: 'master' } };

/** Swap2 after the first player's three stones: the second player (`who`) chooses. */
function swap2Choice(computer, extra = {}) {
  const snap = snapshot({ moves: [[7, 7], [8, 6], [9, 7]], players: { black: master, white: human }, ...extra });
  snap.openingRule = 'swap2';
  snap.seats = { black: master, white: human };
  snap.opening = { rule: 'swap2', step: { role: 'second', action: { kind: 'choose_color_or_place_two' } }, first: 'black', computer };
  snap.openingName = { id: 'kosei', code: '3I', romaji: 'Kosei', chinese: '恒星' };
  return snap;
}

test('swap2: the banner says the human chooses, and each choice goes to the backend', async () => {
  const page = await open({ snapshot: swap2Choice(false) });
  await page.waitForSelector('[data-testid="opening-banner"]:not([hidden])');
  assert.equal(await text(page, '#opening-title'), 'Opening · Swap2');
  assert.match(await text(page, '[data-testid="opening-step"]'), /^You: choose a colour, or place two more stones/);
  assert.equal(await text(page, '[data-testid="opening-name"]'), 'Opening: Kosei (3I)');
  await screenshot(page, 'opening-swap2-en');
  await page.click('[data-testid="opening-place-two"]');
  await page.click('[data-testid="opening-take-white"]');
  await page.waitForFunction(() => window.__mock.callsOf('opening_choice').length === 2);
  const sent = (await calls(page, 'opening_choice')).map((c) => c.args.choice);
  assert.deepEqual(sent, [{ kind: 'place_two' }, { kind: 'take', color: 'white' }]);
  // The opening over: no banner, the name stays.
  const after = swap2Choice(false, { seq: 9 });
  after.opening = null;
  await emit(page, 'snapshot', after);
  await page.waitForSelector('[data-testid="opening-banner"]', { state: 'hidden' });
  assert.equal(await text(page, '[data-testid="opening-name"]'), 'Opening: Kosei (3I)');
  await closePage(page);
});

test("swap2: the computer's step shows no buttons, and a refusal is put in words", async () => {
  const page = await open({ snapshot: swap2Choice(true) });
  await page.waitForSelector('[data-testid="opening-banner"]:not([hidden])');
  assert.match(await text(page, '[data-testid="opening-step"]'), /^The computer: choose a colour/);
  assert.equal(await page.locator('#opening-actions button').count(), 0);
  await page.evaluate(() => window.__mock.fail('play_move', { code: 'opening', message: 'x', params: { reason: 'opening_choice_expected' } }));
  await page.click('.cell[data-x="0"][data-y="0"]');
  await page.waitForSelector('#toast:not([hidden])');
  assert.equal(await text(page, '#toast'), "Make the opening's choice first (see the banner).");
  await closePage(page);
});

test('Soosõrv: offers and the pick are board clicks; the count is declared from a list', async () => {
  const snap = snapshot({ rule: 'renju', moves: [[7, 7], [7, 6], [7, 5], [7, 3]], players: { black: human, white: master } });
  snap.openingRule = 'soosorv8';
  snap.opening = { rule: 'soosorv8', step: { role: 'first', action: { kind: 'offer', made: 1, of: 2 } }, first: 'black', declared: 2, offers: [{ x: 9, y: 6 }], computer: false };
  const page = await open({ snapshot: snap });
  await page.waitForSelector('[data-testid="opening-banner"]:not([hidden])');
  assert.match(await text(page, '[data-testid="opening-step"]'), /You: click a point to offer a 5th move \(1 of 2 offered/);
  assert.equal(await text(page, '[data-testid="opening-offers"]'), 'Offered: j9');
  await page.click('.cell[data-x="9"][data-y="8"]');
  await page.waitForFunction(() => window.__mock.callsOf('opening_choice').length === 1);
  assert.deepEqual((await calls(page, 'opening_choice'))[0].args.choice, { kind: 'offer', point: { x: 9, y: 8 } });
  assert.equal((await calls(page, 'play_move')).length, 0, 'an offer is not a move');

  const declare = { ...snap, seq: 3, opening: { ...snap.opening, step: { role: 'second', action: { kind: 'declare', max: 8 } }, offers: [], declared: null } };
  declare.players = { black: master, white: human };
  await emit(page, 'snapshot', declare);
  await page.waitForSelector('[data-testid="opening-count"]');
  assert.equal(await page.locator('[data-testid="opening-count"] option').count(), 8);
  await page.selectOption('[data-testid="opening-count"]', '3');
  await page.click('[data-testid="opening-declare"]');
  await page.waitForFunction(() => window.__mock.callsOf('opening_choice').length === 2);
  assert.deepEqual((await calls(page, 'opening_choice'))[1].args.choice, { kind: 'declare', count: 3 });
  await closePage(page);
});

test('Chinese: the banner and the name in Chinese, in the dark theme', async () => {
  const page = await open({ snapshot: swap2Choice(false), settings: { language: 'zh-CN', theme: 'dark' } });
  await page.waitForFunction(() => /开局/.test(document.querySelector('[data-testid="opening-name"]').innerText));
  assert.equal(await text(page, '[data-testid="opening-name"]'), '开局：恒星（3I）');
  assert.match(await text(page, '[data-testid="opening-step"]'), /^你：选择颜色，或再摆两子/);
  assert.equal(await text(page, '[data-testid="opening-take-black"]'), '执黑');
  await closePage(page, 'opening-swap2-zh-dark');
});

test('the start panel offers the opening rules that fit the rule and sends the choice', async () => {
  const page = await open({ snapshot: null });
  await page.waitForSelector('[data-testid="start-panel"][open]');
  await page.selectOption('[data-testid="game"]', 'gomoku');
  await page.selectOption('[data-testid="rule"]', 'freestyle');
  const options = () => page.$$eval('[data-testid="opening"] option', (os) => os.map((o) => o.value));
  assert.deepEqual(await options(), ['none', 'swap', 'swap2']);
  await page.selectOption('[data-testid="rule"]', 'renju');
  assert.deepEqual(await options(), ['none', 'swap', 'swap2', 'soosorv8']);
  await page.selectOption('[data-testid="opening"]', 'swap2');
  assert.match(await text(page, '#rule-desc'), /places two more/);
  await page.evaluate(() => window.__mock.respond('new_game', null));
  await page.click('[data-testid="start"]');
  await page.waitForFunction(() => window.__mock.callsOf('new_game').length === 1);
  assert.equal((await calls(page, 'new_game'))[0].args.config.opening, 'swap2');
  await closePage(page);
});

/** Soosõrv at white's pick: black offered j9 and f10 (the human is white and picks). */
function soosorvPick(extra = {}) {
  const snap = snapshot({ rule: 'renju', moves: [[7, 7], [7, 6], [7, 5], [7, 3]], players: { black: master, white: human }, ...extra });
  snap.openingRule = 'soosorv8';
  snap.opening = { rule: 'soosorv8', step: { role: 'second', action: { kind: 'pick' } }, first: 'white', declared: 2, offers: [{ x: 8, y: 6 }, { x: 5, y: 5 }], computer: false };
  return snap;
}

test('Soosõrv: the offered 5th moves are numbered ghost stones on the board, and a click on one picks it', async () => {
  const page = await open({ snapshot: soosorvPick() });
  await page.waitForSelector('[data-testid="opening-offer"]');
  const marks = await page.$$eval('[data-testid="opening-offer"]', (ms) => ms.map((m) => [m.closest('.cell').dataset.x, m.closest('.cell').dataset.y, m.textContent]));
  marks.sort((a, b) => Number(a[2]) - Number(b[2])); // numbered in the order offered
  assert.deepEqual(marks, [['8', '6', '1'], ['5', '5', '2']]);
  assert.match(await text(page, '[data-testid="opening-step"]'), /^You: /);
  await screenshot(page, 'opening-soosorv-offers-en');
  await page.click('.cell[data-x="5"][data-y="5"]');
  await page.waitForFunction(() => window.__mock.callsOf('opening_choice').length === 1);
  assert.deepEqual((await calls(page, 'opening_choice'))[0].args.choice, { kind: 'pick', point: { x: 5, y: 5 } });
  // A new snapshot redraws the marks from what it sends; after the pick there are none.
  const picked = soosorvPick({ seq: 5, moves: [[7, 7], [7, 6], [7, 5], [7, 3], [5, 5]] });
  picked.opening = null;
  await emit(page, 'snapshot', picked);
  await page.waitForSelector('[data-testid="opening-offer"]', { state: 'detached' });
  await closePage(page);
});

test('a restored game at an external engine\'s turn says it waits, and Continue lets it start', async () => {
  const engine = { type: 'external', id: 1 };
  const snap = snapshot({ moves: [[7, 7]], players: { black: human, white: engine } });
  snap.engineWaits = 'pbrain-x';
  for (const [language, title, button, theme] of [['en', 'Game restored', 'Continue', 'light'], ['zh-CN', '对局已恢复', '继续', 'dark']]) {
    const page = await open({ snapshot: snap, settings: { language, theme } });
    await page.waitForSelector('[data-testid="opening-banner"]:not([hidden])');
    assert.equal(await text(page, '#opening-title'), title);
    assert.match(await text(page, '[data-testid="opening-step"]'), /pbrain-x/);
    assert.equal(await text(page, '[data-testid="engine-continue"]'), button);
    await screenshot(page, `engine-waits-${language}-${theme}`);
    await page.click('[data-testid="engine-continue"]');
    await page.waitForFunction(() => window.__mock.callsOf('clock').length >= 1);
    const ops = (await calls(page, 'clock')).map((c) => c.args.op);
    assert.ok(ops.some((op) => op.op === 'resume'), JSON.stringify(ops));
    const started = { ...snap, seq: 7, engineWaits: null };
    await emit(page, 'snapshot', started);
    await page.waitForSelector('[data-testid="opening-banner"]', { state: 'hidden' });
    await closePage(page);
  }
});

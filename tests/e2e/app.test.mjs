// End-to-end tests in the real app: the debug build of src-tauri driven through tauri-driver
// and WebKitWebDriver under Xvfb. Run by scripts/test-e2e.sh, which builds the app, starts the
// display and the driver, and sets TENGEN_APP and WEBDRIVER_URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, KEY, sleep } from './webdriver.mjs';
import { CUT_OFF_CHOICES } from '../ui/harness.mjs';

let s;

before(async () => {
  s = await startApp();
});

after(async () => {
  await s?.delete();
});

const shot = (name) => s.shot(name);

// Page expressions. It is a human's turn when the board previews the human's stone.
const HUMAN_TURN = `!!document.querySelector('.board[data-ghost]')`;
const RESULT_OPEN = `!!document.querySelector('[data-testid="result"][open]')`;
// Stones the backend confirmed (the player's own stone is drawn at the click, provisionally).
const STONES = `document.querySelectorAll('.cell[data-stone]:not(.provisional)').length`;
const stones = () => s.execute(`return ${STONES}`);
const js = (expr) => `return ${expr};`;

const startGame = (fields) => s.startGame(fields);

/** The first empty cell near the last move (rings of growing distance), as [x, y]. */
const pickNearLast = `
  const cells = [...document.querySelectorAll('.cell')];
  const size = Math.round(Math.sqrt(cells.length));
  const at = (x, y) => cells[y * size + x];
  const last = document.querySelector('.cell.last');
  const cx = last ? Number(last.dataset.x) : (size - 1) >> 1;
  const cy = last ? Number(last.dataset.y) : (size - 1) >> 1;
  for (let r = 1; r < size; r++) {
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) {
      if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
      const x = cx + dx, y = cy + dy;
      if (x < 0 || y < 0 || x >= size || y >= size) continue;
      const c = at(x, y);
      if (!c.dataset.stone && !c.classList.contains('forbidden')) return [x, y];
    }
  }
  return null;`;

const cellCss = (x, y) => `.cell[data-x="${x}"][data-y="${y}"]`;

test('the UI speaks words, not keys (locales load inside the app)', async () => {
  const status = await s.text('[data-testid="status"]');
  assert.ok(status.length > 0);
  assert.doesNotMatch(status, /^status\./);
  assert.doesNotMatch(await s.text('[data-testid="undo"]'), /controls\./);
});

test('Gomoku with the computer moving first: its stone appears', async () => {
  await startGame({ game: 'gomoku', rule: 'freestyle', size: 15, 'human-side': 'white', level: 'fivetuple' });
  await s.waitFor(`return document.querySelectorAll('.cell[data-stone="black"]').length === 1`, { what: "the computer's first stone" });
  await s.waitFor(js(HUMAN_TURN), { what: 'our turn' });
  assert.equal(await stones(), 1);
  await shot('gomoku-computer-first');
});

test('play moves, then undo takes back our move and the reply', async () => {
  for (let i = 0; i < 2; i++) {
    const before = await stones();
    const [x, y] = await s.execute(pickNearLast);
    await s.click(cellCss(x, y));
    await s.waitFor(js(`${STONES} >= ${before + 2} || ${RESULT_OPEN}`), { what: 'the reply' });
    assert.equal(await s.attr(cellCss(x, y), 'data-stone'), 'white');
    await s.waitFor(js(HUMAN_TURN), { what: 'our turn again' });
  }
  assert.equal(await stones(), 5);
  const moves = await s.execute(`return document.querySelectorAll('#move-list .mv:not(:empty)').length`);
  assert.equal(moves, 5);
  await shot('gomoku-moves');

  await s.click('[data-testid="undo"]');
  await s.waitFor(`return document.querySelectorAll('.cell[data-stone]').length === 3`, { what: 'undo of two stones' });
  await s.waitFor(js(HUMAN_TURN), { what: 'our turn after undo' });
  // Ctrl+Z works too.
  await s.keys([KEY.CONTROL, 'z']);
  await s.waitFor(`return document.querySelectorAll('.cell[data-stone]').length === 1`, { what: 'Ctrl+Z undo' });
  // Redo puts them back.
  await s.click('[data-testid="redo"]');
  await s.waitFor(`return document.querySelectorAll('.cell[data-stone]').length === 3`, { what: 'redo' });
});

test('a whole game against level 1 (fivetuple) ends with the result dialog', async () => {
  await startGame({ game: 'gomoku', rule: 'freestyle', size: 15, 'human-side': 'black', level: 'fivetuple' });
  await s.waitFor(js(HUMAN_TURN), { what: 'our first turn' });
  let played = 0;
  for (; played < 120; played++) {
    if (await s.execute(js(RESULT_OPEN))) break;
    const pick = await s.execute(pickNearLast);
    assert.ok(pick, 'an empty cell is left');
    const before = await stones();
    await s.click(cellCss(pick[0], pick[1]));
    await s.waitFor(js(`${STONES} >= ${before + 2} || ${RESULT_OPEN}`), { what: `the reply to move ${played + 1}` });
    if (await s.execute(js(RESULT_OPEN))) break;
    await s.waitFor(js(`${HUMAN_TURN} || ${RESULT_OPEN}`), { what: 'our turn' });
  }
  await s.waitFor(js(RESULT_OPEN), { what: 'the result dialog' });
  await sleep(400); // the dialog fades in
  const title = await s.execute(js(`document.querySelector('#result-title').textContent`));
  assert.ok(title.length > 0, 'the result has a title');
  const status = await s.text('[data-testid="status"]');
  assert.match(status, /—/, `the status tells the result: ${status}`);
  const winLine = await s.execute(`return document.querySelectorAll('.cell.win').length`);
  assert.ok(winLine >= 5, `the winning line is highlighted (${winLine} cells)`);
  assert.ok(played > 2, `a real game was played (${played} moves)`);
  await shot('gomoku-result');
});

test('Reversi: play a few moves on cells marked legal', async () => {
  await startGame({ game: 'reversi', 'human-side': 'black', level: 'greedy' });
  await s.waitFor(`return document.querySelectorAll('.cell').length === 64 && document.querySelectorAll('.cell[data-stone]').length === 4`, {
    what: 'the Reversi start position',
  });
  const placed = () => s.execute(js(`document.querySelectorAll('#move-list .mv:not(:empty):not(.pass)').length`));
  for (let i = 0; i < 4; i++) {
    await s.waitFor(js(`(${HUMAN_TURN} && document.querySelectorAll('.cell.legal').length > 0) || ${RESULT_OPEN}`), {
      what: 'legal moves for us',
    });
    if (await s.execute(js(RESULT_OPEN))) break;
    const [x, y] = await s.execute(js(`[...document.querySelectorAll('.cell.legal')].map((c) => [Number(c.dataset.x), Number(c.dataset.y)])[0]`));
    await s.click(cellCss(x, y));
    // Our disc lands on the cell (the computer's quick reply may already have flipped it).
    await s.waitFor(js(`!!document.querySelector('${cellCss(x, y)}').dataset.stone`), { what: 'our disc' });
    await s.waitFor(js(`${HUMAN_TURN} || ${RESULT_OPEN}`), { what: 'the reply' });
    // Every placed disc adds one to the board; flips only change colours.
    assert.equal(await stones(), 4 + (await placed()));
  }
  assert.ok((await placed()) >= 8, 'four moves each');
  const counts = await s.execute(`return [...document.querySelectorAll('.player .count')].map((e) => Number(e.textContent))`);
  assert.equal(counts.length, 2);
  assert.ok(counts[0] + counts[1] >= 12, `discs on the board: ${counts}`);
  await sleep(500);
  await shot('reversi');
});

test('an unfinished game survives a restart of the app', async () => {
  await startGame({ game: 'gomoku', rule: 'renju', size: 15, 'human-side': 'both' });
  for (const [x, y] of [[7, 7], [8, 6], [6, 8]]) {
    const before = await stones();
    await s.click(cellCss(x, y));
    await s.waitFor(js(`${STONES} === ${before + 1}`), { what: `the stone at ${x},${y}` });
  }
  const board = js(`[...document.querySelectorAll('.cell[data-stone]')]
    .map((c) => c.dataset.x + ',' + c.dataset.y + ',' + c.dataset.stone).sort().join(' ')`);
  const before = await s.execute(board);
  assert.equal(before, '6,8,black 7,7,black 8,6,white');
  await sleep(500); // the unfinished game is written in the background after each move

  // Quit the app (the driver closes it) and start it again on the same data folder.
  await s.delete();
  s = await startApp();
  await s.waitFor(js(`${STONES} === 3`), { what: 'the saved stones after the restart' });
  assert.equal(await s.execute(board), before);
  assert.match(await s.text('[data-testid="status"]'), /\S/);
  await shot('restarted');
});

test('the saved game reopens as a tree: step back, start a variation, the old line kept', async () => {
  // The game saved and reopened by the restart above: h8, i9, g7 between two people.
  await s.waitFor(js(`!!document.querySelector('#move-list [data-ply="3"][aria-current="step"]')`), { what: 'the last move shown' });
  await s.click('[data-testid="nav-back"]');
  await s.waitFor(js(`${STONES} === 2`), { what: 'one move back' });
  assert.equal(await s.execute(js(`document.querySelector('#move-list [aria-current="step"]').dataset.ply`)), '2');
  assert.equal(await s.execute(js(`document.querySelectorAll('#move-list [data-ply]').length`)), 3, 'stepping loses no move');
  await s.click(cellCss(0, 0));
  await s.waitFor(js(`!!document.querySelector('#move-list .alt')`), { what: 'the old third move kept as a variation' });
  assert.equal(await s.execute(js(`document.querySelector('#move-list [aria-current="step"]').dataset.ply`)), '3');
  assert.equal(await s.attr(cellCss(0, 0), 'data-stone'), 'black');
  await shot('variation');
});

test("the window's size and position survive a restart, even a kill", async () => {
  const rect = () => s.cmd('GET', '/window/rect');
  const original = await rect();
  const wanted = { x: 70, y: 40, width: 960, height: 720 };
  await s.cmd('POST', '/window/rect', wanted);
  const moved = await rect();
  assert.deepEqual([moved.width, moved.height], [wanted.width, wanted.height], 'the driver resized the window');
  await sleep(1500); // the app saves the window state once it has stayed put for a moment

  // The driver ends the app without a normal exit, so this also checks the save-as-you-go.
  await s.delete();
  s = await startApp();
  const restored = await rect();
  assert.deepEqual(
    [restored.x, restored.y, restored.width, restored.height],
    [moved.x, moved.y, moved.width, moved.height],
    'the restarted window has the size and position it was left with',
  );
  await shot('window-restored');

  // Leave the window as it was for the tests that follow.
  await s.cmd('POST', '/window/rect', original);
  await sleep(1000);
});

/** Sets a select of the settings panel through the DOM (its change event saves it). */
async function setSetting(testid, value) {
  await s.execute(
    `const el = document.querySelector('[data-testid="' + arguments[0] + '"]');
     el.value = arguments[1];
     el.dispatchEvent(new Event('change', { bubbles: true }));`,
    [testid, value],
  );
}

test('the start panel and the board in both themes and both languages', async () => {
  await startGame({ game: 'gomoku', rule: 'renju', size: 15, 'human-side': 'both' });
  for (const [x, y] of [[7, 7], [8, 6], [6, 8], [8, 8]]) {
    const before = await stones();
    await s.click(cellCss(x, y));
    await s.waitFor(js(`${STONES} === ${before + 1}`), { what: `the stone at ${x},${y}` });
  }
  for (const theme of ['light', 'dark']) {
    for (const language of ['en', 'zh-CN']) {
      await setSetting('theme', theme);
      await setSetting('language', language);
      await s.waitFor(js(`document.documentElement.lang === '${language}' && document.documentElement.dataset.theme === '${theme}'`), {
        what: `${theme}, ${language}`,
      });
      await sleep(300);
      await shot(`board-${theme}-${language}`);
      // The board editor: a white stone too many is refused in words.
      await s.click('[data-testid="edit"]');
      await s.waitFor(js(`!document.querySelector('#editor-bar').hidden`), { what: 'the editor' });
      await s.click('#editor-bar [data-tool="white"]');
      await s.click(cellCss(0, 0));
      await s.waitFor(js(`document.querySelector('${cellCss(0, 0)}').dataset.stone === 'white'`), { what: 'the edited stone' });
      await s.click('[data-testid="editor-done"]');
      await s.waitFor(js(`!document.querySelector('#toast').hidden && /3/.test(document.querySelector('#toast').textContent)`), { what: 'the refusal in words' });
      await sleep(300);
      await shot(`editor-${theme}-${language}`);
      await s.click('#editor-bar [data-op="cancel"]');
      await s.waitFor(js(`document.querySelector('#editor-bar').hidden`), { what: 'the editor to close' });
      await s.click('[data-testid="new-game"]');
      await s.waitFor(`return !!document.querySelector('[data-testid="start-panel"][open]')`, { what: 'the start panel' });
      // It opens on the game being played.
      assert.equal(await s.execute(`return document.querySelector('[data-testid="rule"]').value`), 'renju');
      assert.equal(await s.execute(`return document.querySelector('[data-testid="human-side"]').value`), 'both');
      await sleep(400); // the panel rises
      assert.deepEqual(await s.execute(`return ${CUT_OFF_CHOICES}`), [], `${theme}, ${language}: every choice readable`);
      await shot(`start-panel-${theme}-${language}`);
      await s.click('#start-cancel');
      await s.waitFor(`return !document.querySelector('[data-testid="start-panel"][open]')`, { what: 'the panel to close' });
      // The settings, with the engine memory in words of the language.
      await s.click('[data-testid="settings"]');
      await s.waitFor(`return !!document.querySelector('[data-testid="settings-panel"][open]')`, { what: 'the settings' });
      await sleep(400);
      assert.deepEqual(await s.execute(`return [...document.querySelectorAll('[data-testid="engine-memory"] option')].map((o) => o.textContent)`), ['16 MB', '64 MB', '256 MB']);
      await shot(`settings-${theme}-${language}`);
      await s.click('#settings-dialog button[value="close"]');
      await s.waitFor(`return !document.querySelector('[data-testid="settings-panel"][open]')`, { what: 'the settings to close' });
    }
  }
  // The engine memory chosen is the backend's setting.
  await setSetting('engine-memory', '16');
  await s.waitFor(`return window.__TAURI__.core.invoke('get_settings').then((x) => x.engineMemoryMib === 16)`, { what: 'the engine memory saved' });
  await setSetting('engine-memory', '64');
  await setSetting('theme', 'system');
  await setSetting('language', 'auto');
});

test("an IPC argument the app cannot read is its typed invalid_argument error, not Tauri's bare string", async () => {
  const refusal = (args) =>
    s.execute(`return window.__TAURI__.core.invoke('play_move', arguments[0]).then(() => 'accepted', (e) => e);`, [args]);
  for (const [args, field] of [[{ x: 300, y: 0 }, 'x'], [{ x: 0, y: -1 }, 'y'], [{ x: 'h', y: 8 }, 'x'], [{ x: 1 }, 'y']]) {
    const e = await refusal(args);
    assert.equal(typeof e, 'object', `${JSON.stringify(args)}: ${JSON.stringify(e)}`);
    assert.equal(e.code, 'invalid_argument', JSON.stringify(e));
    assert.equal(e.params.field, field, JSON.stringify(e));
  }
});

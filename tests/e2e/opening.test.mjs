// A Swap2 game against the computer in the real app (run by scripts/test-e2e.sh): the human,
// the first player, places three stones; the computer, the second, chooses a colour or places
// two more; the game goes on with the colours chosen. Screenshots in both languages and
// themes: tests/artifacts/e2e-opening-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp } from './webdriver.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');
let s;
before(async () => {
  s = await startApp();
});
after(() => s?.delete());

const shot = (name) => s.screenshot(path.join(artifacts, `e2e-opening-${name}.png`));
const STEP = `return document.querySelector('#opening-banner:not([hidden]) [data-testid="opening-step"]')?.innerText || ''`;
const STONES = `return document.querySelectorAll('.cell[data-stone]:not(.provisional)').length`;

/** The language and theme, through the settings dialog as a player sets them. */
async function look(language, theme) {
  await s.click('[data-testid="settings"]');
  await s.execute(
    `const form = document.querySelector('#settings-dialog form');
     for (const [name, value] of [['language', arguments[0]], ['theme', arguments[1]]]) {
       form.elements[name].value = value;
       form.elements[name].dispatchEvent(new Event('change', { bubbles: true }));
     }`,
    [language, theme],
  );
  await s.click('#settings-dialog button[value="close"]');
}

test('swap2 against the computer: the human proposes, the computer chooses, the game goes on', async () => {
  await look('en', 'light');
  const config = {
    kind: { game: 'gomoku', rule: 'freestyle', size: 15 },
    black: { type: 'human' },
    white: { type: 'computer', level: { game: 'gomoku', level: 'master' } },
    timePerMoveMs: 500,
    opening: 'swap2',
  };
  await s.execute(`window.__TAURI__.core.invoke('new_game', { config: arguments[0] }); return true;`, [config]);
  await s.waitFor(`${STEP}.startsWith('You: place black stone 1')`, { what: 'the first step' });
  await shot('light-en');
  for (const [i, [x, y]] of [[7, 7], [8, 6], [9, 7]].entries()) {
    await s.click(`.cell[data-x="${x}"][data-y="${y}"]`);
    await s.waitFor(`${STONES} === ${i + 1}`, { what: `stone ${i + 1}` });
  }
  // The computer chooses: a colour (the banner goes), or two more stones (the human chooses).
  await s.waitFor(`return document.querySelector('#opening-banner').hidden || (${STEP.slice(7)}).startsWith('You: choose a colour')`, { what: "the computer's choice", timeout: 30000 });
  if (await s.execute(`return !document.querySelector('#opening-banner').hidden`)) {
    assert.equal(await s.execute(STONES), 5);
    await look('zh-CN', 'dark');
    await s.waitFor(`${STEP}.includes('选择')`, { what: 'the step in Chinese' });
    await shot('dark-zh');
    await s.click('[data-testid="opening-take-white"]');
    await s.waitFor(`return document.querySelector('#opening-banner').hidden`, { what: 'the opening over' });
  } else {
    await look('zh-CN', 'dark');
    await shot('dark-zh');
  }
  const name = await s.execute(`return document.querySelector('[data-testid="opening-name"]').innerText`);
  assert.match(name, /^开局：/, 'the three stones make a canonical opening');
  // The game goes on: whoever is to move, one more stone comes (the computer's or ours).
  const before = await s.execute(STONES);
  const humanToMove = await s.execute(`return document.querySelector('#player-' + (document.querySelector('.player.active')?.dataset.color || 'black') + ' .kind').innerText.includes('你')`);
  if (humanToMove) await s.click('.cell[data-x="0"][data-y="0"]');
  await s.waitFor(`${STONES} > ${before}`, { what: 'the game going on', timeout: 30000 });
  await look('en', 'light');
});

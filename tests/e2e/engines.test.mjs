// External engines in the real app (run by scripts/test-e2e.sh): two fake brains
// (src-tauri/tests/fixtures/fake-brain.sh, one that plays, one that crashes on its second
// move) and a fake NBoard engine (fake-nboard.sh, Reversi) in the app's engine list as Settings → Engines keeps it (the file dialog of "Add…" is
// the system's and cannot be driven here), shown in the settings in both languages and
// themes, chosen in the start panel, played against, and a crash lost by the brain in words.
// Screenshots: tests/artifacts/e2e-engines-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp } from './webdriver.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, '../artifacts');
const fixtures = path.resolve(here, '../../src-tauri/tests/fixtures');
const fixture = path.join(fixtures, 'fake-brain.sh');
let s;

/** Writes a brain `name` into `dir` that runs the fake brain with `args`. */
function brain(dir, name, args, script = fixture) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\nexec sh '${script}' ${args}\n`, { mode: 0o755 });
  return file;
}

before(async () => {
  const data = process.env.XDG_DATA_HOME;
  if (!data) throw new Error('XDG_DATA_HOME must be the test data directory (scripts/test-e2e.sh sets it)');
  const appDir = path.join(data, 'app.tengen.desktop');
  const brains = path.join(data, 'brains');
  fs.mkdirSync(appDir, { recursive: true });
  fs.mkdirSync(brains, { recursive: true });
  const about = 'name="fake", version="1", author="Tengen tests"';
  const list = [
    { id: 1, name: 'fake', about, path: brain(brains, 'pbrain-fake', ''), added: 1764000000 },
    { id: 2, name: 'fake-crash', about, path: brain(brains, 'pbrain-crash', 'crash 1'), added: 1764000000 },
    // An NBoard engine answering f4 to black's f5, then f6 to e3.
    { id: 3, protocol: 'nboard', name: 'fake-nboard', about: 'set myname fake-nboard', path: brain(brains, 'nboard-fake', 'none 0 f4 f6', path.join(fixtures, 'fake-nboard.sh')), added: 1764000000 },
  ];
  fs.writeFileSync(path.join(appDir, 'engines.json'), JSON.stringify(list));
  s = await startApp();
});
after(() => s?.delete());

const shot = (name) => s.screenshot(path.join(artifacts, `e2e-engines-${name}.png`));

async function setSettings(fields) {
  await s.execute(
    `const form = document.querySelector('#settings-dialog form');
     for (const [name, value] of Object.entries(arguments[0])) {
       const el = form.elements[name];
       el.value = value;
       el.dispatchEvent(new Event('change', { bubbles: true }));
     }`,
    [fields],
  );
}

/** Starts a 15x15 freestyle game from the start panel: the human black against `level`. */
async function startAgainst(level) {
  await s.execute(`document.querySelector('#start-dialog')?.open || document.querySelector('[data-testid="new-game"]').click(); return true;`);
  await s.waitFor(`return document.querySelector('#start-dialog').open`, { what: 'the start panel' });
  await s.execute(
    `const form = document.querySelector('#start-form');
     const set = (name, value) => { form.elements[name].value = value; form.elements[name].dispatchEvent(new Event('change', { bubbles: true })); };
     set('game', 'gomoku'); set('rule', 'freestyle'); set('size', '15'); set('side', 'black'); set('level', arguments[0]);
     return true;`,
    [level],
  );
}

test('Settings → Engines lists the engines, in both languages and themes, and a game is played against one', async () => {
  await s.execute(`document.querySelectorAll('dialog[open]').forEach((d) => d.close()); return true;`);
  await s.click('[data-testid="settings"]');
  await s.waitFor(`return document.querySelectorAll('[data-testid="engine"]').length === 3`, { what: 'the three engines' });
  await setSettings({ language: 'en', theme: 'light' });
  await s.click('[data-testid="engine-check"]');
  await s.waitFor(`return /fake answers: name="fake"/.test(document.querySelector('[data-testid="engines-status"]').textContent)`, { what: 'the ABOUT answer', timeout: 20000 });
  await shot('settings-light-en');
  await setSettings({ language: 'zh-CN', theme: 'dark' });
  await s.waitFor(`return /检测/.test(document.querySelector('[data-testid="engine-check"]').textContent)`, { what: 'the Chinese texts' });
  await shot('settings-dark-zh');
  await setSettings({ language: 'en', theme: 'light' });
  await s.click('#settings-dialog button[value="close"]');

  await startAgainst('ext:1');
  const options = await s.execute(`return [...document.querySelectorAll('[data-testid="level"] option')].map((o) => o.textContent)`);
  assert.ok(options.includes('fake (external engine)'), options.join(' | '));
  await shot('start-panel');
  await s.click('[data-testid="start"]');
  await s.waitFor(`return !document.querySelector('#start-dialog').open`, { what: 'the game to start' });
  await s.click('.cell[data-x="7"][data-y="7"]');
  // The fake brain answers the first empty point: a15, top left.
  await s.waitFor(`return document.querySelector('.cell[data-x="0"][data-y="0"]')?.dataset.stone === 'white'`, { what: "the brain's reply", timeout: 20000 });
  assert.match(await s.execute(`return document.querySelector('#player-white').innerText`), /External engine · fake/);
  await shot('game');
});

test('an engine that crashes loses the game and the app says which and why', async () => {
  await startAgainst('ext:2');
  await s.click('[data-testid="start"]');
  await s.waitFor(`return !document.querySelector('#start-dialog').open && document.querySelectorAll('.cell[data-stone]').length === 0`, { what: 'an empty board' });
  await s.click('.cell[data-x="7"][data-y="7"]');
  await s.waitFor(`return document.querySelector('.cell[data-x="0"][data-y="0"]')?.dataset.stone === 'white'`, { what: "the brain's first reply", timeout: 20000 });
  await s.click('.cell[data-x="8"][data-y="8"]');
  await s.waitFor(`return document.querySelector('[data-testid="result"]').open`, { what: 'the result', timeout: 20000 });
  assert.equal(await s.execute(`return document.querySelector('#result-reason').textContent`), 'fake-crash lost: it crashed');
  await shot('forfeit');
  await s.execute(`document.querySelector('[data-testid="result"]').close(); return true;`);
  // The app goes on: a game between two people.
  await s.execute(`window.__TAURI__.core.invoke('new_game', { config: { kind: { game: 'gomoku', rule: 'freestyle', size: 15 }, black: { type: 'human' }, white: { type: 'human' }, timePerMoveMs: 1000 } }); return true;`);
  await s.waitFor(`return document.querySelectorAll('.cell[data-stone]').length === 0`, { what: 'a new game' });
});

test('an NBoard engine plays Reversi in the real app, in both languages and themes', async () => {
  await s.execute(`document.querySelectorAll('dialog[open]').forEach((d) => d.close()); return true;`);
  await s.execute(`document.querySelector('[data-testid="new-game"]').click(); return true;`);
  await s.waitFor(`return document.querySelector('#start-dialog').open`, { what: 'the start panel' });
  await s.execute(
    `const form = document.querySelector('#start-form');
     const set = (name, value) => { form.elements[name].value = value; form.elements[name].dispatchEvent(new Event('change', { bubbles: true })); };
     set('game', 'reversi'); set('side', 'black'); set('level', 'ext:3');
     return true;`,
  );
  const options = await s.execute(`return [...document.querySelectorAll('[data-testid="level"] option')].map((o) => o.textContent)`);
  assert.ok(options.includes('fake-nboard (external engine)'), options.join(' | '));
  assert.ok(!options.includes('fake (external engine)'), 'a Gomocup brain is not offered for Reversi');
  await s.click('[data-testid="start"]');
  await s.waitFor(`return !document.querySelector('#start-dialog').open && document.querySelectorAll('.cell[data-stone]').length === 4`, { what: 'the Reversi start' });
  await s.click('.cell[data-x="5"][data-y="4"]');
  await s.waitFor(`return document.querySelector('.cell[data-x="5"][data-y="3"]')?.dataset.stone === 'white'`, { what: "the engine's f4", timeout: 20000 });
  await s.click('.cell[data-x="4"][data-y="2"]');
  await s.waitFor(`return document.querySelector('.cell[data-x="5"][data-y="5"]')?.dataset.stone === 'white'`, { what: "the engine's f6", timeout: 20000 });
  assert.match(await s.execute(`return document.querySelector('#player-white').innerText`), /fake-nboard/);
  await shot('reversi-light-en');
  await setSettings({ language: 'zh-CN', theme: 'dark' });
  await s.waitFor(`return document.documentElement.lang === 'zh-CN'`, { what: 'the Chinese texts' });
  await shot('reversi-dark-zh');
  await s.click('[data-testid="settings"]');
  await s.waitFor(`return document.querySelector('[data-testid="engine"][data-protocol="nboard"]')`, { what: 'the NBoard engine in the list' });
  await shot('settings-nboard-dark-zh');
  await setSettings({ language: 'en', theme: 'light' });
  await shot('settings-nboard-light-en');
  await s.click('#settings-dialog button[value="close"]');
});

// The UI in WebKitGTK itself (the engine inside the app on Linux), with the IPC mocked: layout
// checks that Chromium cannot catch. Drives WebKit's MiniBrowser through WebKitWebDriver; needs
// a display (scripts/test-e2e.sh provides Xvfb).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { Session, sleep } from './webdriver.mjs';
import { serve, snapshot, reversiStart, artifacts, CUT_OFF_CHOICES } from '../ui/harness.mjs';

const MINIBROWSER = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/libexec/webkit2gtk-4.1/MiniBrowser'].find(existsSync);
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver';

let server;
let driver;
let s;
let setup = {};

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

before(async () => {
  assert.ok(process.env.DISPLAY, 'a display is needed (scripts/test-e2e.sh starts Xvfb)');
  assert.ok(MINIBROWSER, 'WebKitGTK MiniBrowser not found');
  server = await serve(undefined, { mock: () => setup });
  const port = await freePort();
  driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/status`)).ok) break;
    } catch {
      await sleep(100);
    }
  }
  const response = await fetch(`${base}/session`, {
    method: 'POST',
    body: JSON.stringify({
      capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', '--geometry=1100x800'] } } },
    }),
  });
  const json = await response.json();
  assert.ok(json.value?.sessionId, `a WebKit session: ${JSON.stringify(json.value)}`);
  s = new Session(base, json.value.sessionId);
});

after(async () => {
  await s?.delete();
  driver?.kill();
  await server?.close();
});

async function load(snap, responses = {}) {
  setup = { snapshot: snap, responses };
  await s.cmd('POST', '/url', { url: server.url });
  await s.waitFor(`return document.documentElement.dataset.ready === 'true'`, { what: 'the UI to start' });
}

/** Boxes of the board, its grid lines and its cells, in CSS pixels. */
const boxes = `
  const r = (sel) => { const b = document.querySelector(sel).getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
  const first = r('.cell[data-x="0"][data-y="0"]');
  return { board: r('.board'), lines: r('.lines'), cells: r('.cells'), first };`;

for (const [name, snap] of [
  ['gomoku', () => snapshot({ moves: [[7, 7], [8, 8], [6, 8]], rule: 'renju', forbidden: [{ x: 9, y: 7, kind: 'double_three' }] })],
  ['reversi', () => reversiStart()],
]) {
  test(`${name}: the grid lines and the cells line up in WebKitGTK`, async () => {
    await load(snap());
    await sleep(400);
    const b = await s.execute(boxes);
    assert.ok(Math.abs(b.board.w - b.board.h) < 2, `square board ${b.board.w}×${b.board.h}`);
    assert.ok(b.board.w > 400, `the board fills the window (${b.board.w})`);
    for (const k of ['x', 'y', 'w', 'h']) {
      assert.ok(Math.abs(b.lines[k] - b.cells[k]) < 1.5, `lines.${k} ${b.lines[k]} = cells.${k} ${b.cells[k]}`);
    }
    assert.ok(b.cells.x > b.board.x && b.cells.x + b.cells.w < b.board.x + b.board.w, 'the grid lies inside the board');
    const n = name === 'gomoku' ? 15 : 8;
    assert.ok(Math.abs(b.first.w * n - b.cells.w) < 2, 'N cells across');
    await s.screenshot(path.join(artifacts, `webkit-${name}.png`));
  });
}

test('a click in WebKitGTK sends play_move with the cell', async () => {
  await load(snapshot({ moves: [[7, 7], [8, 8]] }));
  await s.click('.cell[data-x="3"][data-y="4"]');
  const args = await s.waitFor(`const c = window.__mock.callsOf('play_move'); return c.length && c[0].args;`, { what: 'play_move' });
  assert.deepEqual(args, { x: 3, y: 4 });
});

for (const language of ['en', 'zh-CN']) {
  test(`${language}: every choice of the start panel is readable in WebKitGTK`, async () => {
    const settings = { language, theme: 'light', sound: false, showCoordinates: true, showMoveNumbers: false, lastConfig: null };
    await load(snapshot(), { get_settings: settings });
    await s.click('[data-testid="new-game"]');
    await s.waitFor(`return !!document.querySelector('[data-testid="start-panel"][open]')`, { what: 'the start panel' });
    await sleep(400); // the panel rises
    assert.deepEqual(await s.execute(`return ${CUT_OFF_CHOICES}`), []);
    await s.screenshot(path.join(artifacts, `webkit-start-panel-${language}.png`));
  });
}

test('at rest nothing animates in WebKitGTK', async () => {
  await load(snapshot({ moves: [[7, 7], [8, 8]] }));
  await sleep(600);
  const running = await s.execute(`return document.getAnimations().filter((a) => a.playState === 'running').map((a) => a.animationName || 'script')`);
  assert.deepEqual(running, []);
});

// Shared by the browser tests: a tiny static server for ui/, Chromium through playwright-core,
// the injected IPC mock and snapshot fixtures shaped like the backend's Snapshot
// (src-tauri/src/snapshot.rs).
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const uiDir = path.join(root, 'ui');
export const artifacts = path.join(root, 'tests/artifacts');

const mockSource = await fs.readFile(path.join(here, 'mock-tauri.js'), 'utf8');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * The app's Content-Security-Policy (src-tauri/tauri.conf.json), sent with every page so the
 * browser tests catch UI code the real app would block. Null when there is no config yet.
 */
export async function appCsp() {
  try {
    const conf = JSON.parse(await fs.readFile(path.join(root, 'src-tauri/tauri.conf.json'), 'utf8'));
    const csp = conf?.app?.security?.csp;
    if (!csp) return null;
    return typeof csp === 'string' ? csp : Object.entries(csp).map(([k, v]) => `${k} ${[].concat(v).join(' ')}`).join('; ');
  } catch {
    return null;
  }
}

/**
 * Serves ui/ on a free port (with the app's CSP). Resolves to {url, csp, close()}.
 * With options.mock (a function returning the mock's setup), index.html loads the IPC mock
 * first: for browsers driven over WebDriver, which cannot inject scripts before the page's.
 */
export async function serve(dir = uiDir, options = {}) {
  const csp = await appCsp();
  const server = http.createServer(async (req, res) => {
    try {
      const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (options.mock && urlPath === '/__mock.js') {
        res.writeHead(200, { 'content-type': TYPES['.js'], 'cache-control': 'no-store' });
        res.end(`${mockSource}\nwindow.__mock.setup(${JSON.stringify(options.mock())});`);
        return;
      }
      const file = path.join(dir, urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath);
      if (!file.startsWith(dir)) throw new Error('outside');
      let body = await fs.readFile(file);
      if (options.mock && file.endsWith('.html')) body = body.toString().replace('<head>', '<head><script src="/__mock.js"></script>');
      const headers = { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' };
      if (csp && file.endsWith('.html')) headers['content-security-policy'] = csp;
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, csp, close: () => new Promise((r) => server.close(r)) };
}

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/**
 * Opens the app with the IPC mock. init: {snapshot, responses, settings, colorScheme, viewport}.
 * Resolves once the app has initialised (html[data-ready]).
 */
export async function openApp(browser, url, init = {}) {
  const context = await browser.newContext({
    viewport: init.viewport || { width: 1200, height: 800 },
    deviceScaleFactor: init.deviceScaleFactor || 1,
    colorScheme: init.colorScheme || 'light',
    locale: init.locale || 'en-US',
  });
  const responses = { ...(init.responses || {}) };
  if (init.settings) {
    responses.get_settings = { language: 'en', theme: 'light', sound: false, showCoordinates: true, showMoveNumbers: false, lastConfig: null, ...init.settings };
  }
  const setup = { snapshot: init.snapshot ?? null, responses };
  await context.addInitScript({ content: `${mockSource}\nwindow.__mock.setup(${JSON.stringify(setup)});\n${init.script || ''}` });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content.Security.Policy|Refused to/i.test(m.text())) errors.push(new Error(m.text()));
  });
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]', { timeout: 10000 });
  page.errors = errors;
  return page;
}

/**
 * The test file's static server and browser, started before its tests and closed after them:
 * an object whose `server` and `browser` are set once the tests run.
 */
export function useBrowser() {
  const suite = { server: null, browser: null };
  before(async () => {
    suite.server = await serve();
    suite.browser = await launch();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

/** Ends a test's page: its screenshot `shot` if named, no uncaught errors, the context closed. */
export async function closePage(page, shot) {
  if (shot) await screenshot(page, shot);
  assert.deepEqual(page.errors.map(String), [], 'no uncaught errors in the page');
  await page.context().close();
}

export const calls = (page, cmd) => page.evaluate((c) => window.__mock.callsOf(c), cmd);
export const emit = (page, event, payload) => page.evaluate(([e, p]) => window.__mock.emit(e, p), [event, payload]);

export async function screenshot(page, name) {
  await fs.mkdir(artifacts, { recursive: true });
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

// ---------------------------------------------------------------- fixtures

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * A snapshot as the backend would send it. moves: [[x, y], ...] (black first, alternating) or
 * objects {x, y, color, pass}. The board is filled from the moves unless `board` is given.
 */
export function snapshot(opts = {}) {
  const game = opts.game || 'gomoku';
  const size = game === 'reversi' ? 8 : opts.size || 15;
  const columns = [...LETTERS.slice(0, size)];
  const rows = game === 'reversi'
    ? Array.from({ length: size }, (_, i) => String(i + 1))
    : Array.from({ length: size }, (_, i) => String(size - i));
  const board = opts.board || Array.from({ length: size }, () => Array(size).fill(null));
  const moves = (opts.moves || []).map((m, i) => {
    const mv = Array.isArray(m) ? { x: m[0], y: m[1], color: i % 2 ? 'white' : 'black' } : { ...m };
    mv.pass = !!mv.pass;
    mv.ms = 0;
    mv.label = mv.pass ? 'pass' : `${columns[mv.x]}${rows[mv.y]}`;
    if (!opts.board && !mv.pass) board[mv.y][mv.x] = mv.color;
    return mv;
  });
  const last = [...moves].reverse().find((m) => !m.pass);
  const count = (c) => board.flat().filter((s) => s === c).length;
  const human = { type: 'human' };
  const computer = (level) => ({ type: 'computer', level: { game, level: level || (game === 'reversi' ? 'strong' : 'pattern') } });
  return {
    // The backend numbers its snapshots (Snapshot::seq); fixtures are unnumbered unless a
    // test gives one, and the UI then draws each as it comes.
    seq: opts.seq,
    generation: opts.generation ?? 1,
    game,
    rule: game === 'gomoku' ? opts.rule || 'freestyle' : null,
    size,
    players: opts.players || { black: human, white: computer(opts.level) },
    timePerMoveMs: 1000,
    board,
    toMove: opts.result ? null : opts.toMove ?? (moves.length % 2 ? 'white' : 'black'),
    moves,
    lastMove: opts.lastMove !== undefined ? opts.lastMove : last ? { x: last.x, y: last.y } : null,
    lastShapes: opts.lastShapes || [],
    legalMoves: opts.legalMoves || [],
    forbidden: opts.forbidden || [],
    flipped: opts.flipped || [],
    counts: { black: count('black'), white: count('white') },
    thinking: opts.thinking || null,
    hint: opts.hint || null,
    heat: opts.heat || [],
    canUndo: opts.canUndo ?? moves.length > 0,
    canRedo: opts.canRedo ?? false,
    notice: opts.notice || null,
    result: opts.result || null,
    columns,
    rows,
  };
}

/** The standard Reversi start. */
/** A Gomoku game of `n` moves (a variation at the third) showing ply `ply`: the move list's tests and its step benchmark. */
export function studySnapshot(n, ply) {
  const snap = snapshot({ moves: [] });
  const moves = [];
  for (let i = 0; i < n; i++) {
    const x = i % 15;
    const y = Math.floor(i / 15);
    moves.push({ x, y, pass: false, color: i % 2 ? 'white' : 'black', ms: 0, label: `${snap.columns[x]}${snap.rows[y]}`, node: i + 1 });
  }
  if (n >= 3) moves[2].alts = [{ node: 900, label: 'h8', then: [{ node: 901, label: 'i9' }, { node: 902, label: 'j10' }, { node: 903, label: 'k11' }], more: true }];
  return { ...snap, moves, ply };
}

export function reversiStart(extra = {}) {
  const board = Array.from({ length: 8 }, () => Array(8).fill(null));
  board[3][3] = 'white';
  board[3][4] = 'black';
  board[4][3] = 'black';
  board[4][4] = 'white';
  return snapshot({
    game: 'reversi',
    board,
    toMove: 'black',
    legalMoves: [{ x: 3, y: 2 }, { x: 2, y: 3 }, { x: 5, y: 4 }, { x: 4, y: 5 }],
    canUndo: false,
    ...extra,
  });
}

// ---------------------------------------------------------------- activity at rest

/**
 * An init script (openApp's `script`) that records the page's timers: intervals alive,
 * timeouts pending and requestAnimationFrame callbacks asked for. Read it with activity().
 */
export const TIMER_PROBE = `(() => {
  const live = { interval: new Set(), timeout: new Set(), frames: 0 };
  window.__timers = live;
  const { setInterval: si, setTimeout: st, clearInterval: ci, clearTimeout: ct, requestAnimationFrame: raf } = window;
  window.setInterval = function (fn, ...rest) { const id = si.call(window, fn, ...rest); live.interval.add(id); return id; };
  window.setTimeout = function (fn, ...rest) {
    const id = st.call(window, (...a) => { live.timeout.delete(id); return typeof fn === 'function' ? fn(...a) : undefined; }, ...rest);
    live.timeout.add(id);
    return id;
  };
  // Timeouts and intervals share their ids, and either clear function stops either.
  const clear = (id) => { live.interval.delete(id); live.timeout.delete(id); };
  window.clearInterval = function (id) { clear(id); return ci.call(window, id); };
  window.clearTimeout = function (id) { clear(id); return ct.call(window, id); };
  window.requestAnimationFrame = function (fn) { live.frames++; return raf.call(window, fn); };
})();`;

/**
 * What keeps the page busy over `ms`: running animations (with their names and iteration
 * counts), intervals alive, timeouts pending at the end, and animation frames asked for
 * during the window.
 */
export async function activity(page, ms = 500) {
  const frames = await page.evaluate(() => window.__timers.frames);
  await page.waitForTimeout(ms);
  return page.evaluate((before) => ({
    running: document
      .getAnimations()
      .filter((a) => a.playState === 'running')
      .map((a) => ({ name: a.animationName || a.id || 'script', iterations: a.effect.getTiming().iterations })),
    intervals: window.__timers.interval.size,
    timeouts: window.__timers.timeout.size,
    frames: window.__timers.frames - before,
  }), frames);
}

/**
 * A page expression: the choices of the start panel's selects whose text is wider than the
 * closed select shows ("text: width > room px"); empty when every choice is readable.
 */
export const CUT_OFF_CHOICES = `(() => {
  const canvas = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const select of document.querySelectorAll('#start-form select')) {
    if (!select.offsetParent) continue; // a hidden field
    const style = getComputedStyle(select);
    canvas.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (const o of select.options) {
      const width = canvas.measureText(o.textContent).width;
      if (width > room) out.push(o.textContent + ': ' + Math.round(width) + ' > ' + Math.round(room) + ' px');
    }
  }
  return out;
})()`;

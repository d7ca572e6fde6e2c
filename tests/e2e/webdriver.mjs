// A minimal W3C WebDriver client over fetch, enough to drive the real app through
// tauri-driver (which forwards to WebKitWebDriver on Linux). No webdriverio needed.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the end-to-end tests leave their screenshots. */
export const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export class WebDriverError extends Error {
  constructor(status, value, what) {
    super(`${what}: ${value?.error || status} ${value?.message || ''}`.trim());
    this.error = value?.error;
  }
}

async function request(base, method, url, body) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw new WebDriverError(response.status, { message: text.slice(0, 200) }, `${method} ${url}`);
  }
  if (!response.ok) throw new WebDriverError(response.status, json.value, `${method} ${url}`);
  return json.value;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const REPAINT = `let m = document.getElementById('__repaint');
  if (!m) {
    m = document.createElement('div');
    m.id = '__repaint';
    m.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;background:#000;pointer-events:none;z-index:2147483647';
    document.body.append(m);
  }
  m.style.opacity = arguments[0] % 2 ? '0.01' : '0.02';`;

export class Session {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  /** Starts the app: capabilities {'tauri:options': {application}}. */
  static async create(base, application, args = []) {
    const value = await request(base, 'POST', '/session', {
      capabilities: { alwaysMatch: { 'tauri:options': { application, args } } },
    });
    return new Session(base, value.sessionId);
  }

  cmd(method, url, body) {
    return request(this.base, method, `/session/${this.id}${url}`, body);
  }

  async delete() {
    try {
      await this.cmd('DELETE', '');
    } catch {
      /* already gone */
    }
  }

  async find(css) {
    const el = await this.cmd('POST', '/element', { using: 'css selector', value: css });
    return el[ELEMENT];
  }

  async findAll(css) {
    const els = await this.cmd('POST', '/elements', { using: 'css selector', value: css });
    return els.map((e) => e[ELEMENT]);
  }

  /** A real WebDriver click on the element matching css. */
  async click(css) {
    const id = await this.find(css);
    await this.cmd('POST', `/element/${id}/click`, {});
  }

  async text(css) {
    const id = await this.find(css);
    return this.cmd('GET', `/element/${id}/text`);
  }

  async attr(css, name) {
    const id = await this.find(css);
    return this.cmd('GET', `/element/${id}/attribute/${name}`);
  }

  /** Runs script in the page (a function body; `arguments` holds args). */
  execute(script, args = []) {
    return this.cmd('POST', '/execute/sync', { script, args });
  }

  /** Presses a key chord, e.g. keys(['\uE009', 'z']) for Ctrl+Z. */
  async keys(chord) {
    const down = chord.map((value) => ({ type: 'keyDown', value }));
    const up = [...chord].reverse().map((value) => ({ type: 'keyUp', value }));
    await this.cmd('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions: [...down, ...up] }] });
    await this.cmd('DELETE', '/actions');
  }

  /** Polls a script until it returns something truthy. */
  async waitFor(script, { timeout = 15000, interval = 100, what = script, args = [] } = {}) {
    const end = Date.now() + timeout;
    let last;
    while (Date.now() < end) {
      try {
        last = await this.execute(script, args);
        if (last) return last;
      } catch (err) {
        last = err;
      }
      await sleep(interval);
    }
    throw new Error(`timed out after ${timeout} ms waiting for: ${what} (last: ${last})`);
  }

  /**
   * Saves a screenshot. WebKitGTK answers only after its next presentation update, which a
   * page at rest never makes (nothing animates), so a one-pixel, near-transparent mark is
   * changed until the answer comes.
   */
  async screenshot(file) {
    let waiting = true;
    const shot = this.cmd('GET', '/screenshot').finally(() => (waiting = false));
    for (let i = 0; waiting && i < 100; i++) {
      await this.execute(REPAINT, [i]).catch(() => {});
      await Promise.race([shot.catch(() => {}), sleep(150)]);
    }
    const png = await shot;
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, Buffer.from(png, 'base64'));
    return file;
  }
  /** Saves a screenshot as tests/artifacts/e2e-NAME.png. */
  shot(name) {
    return this.screenshot(path.join(ARTIFACTS, `e2e-${name}.png`));
  }

  /** Sets a <select> by its data-testid through the DOM, as the user's choice (native
   *  popups are outside the page; the change event is what the UI listens to). */
  async choose(testid, value) {
    const ok = await this.execute(
      `const el = document.querySelector('[data-testid="' + arguments[0] + '"]');
       if (!el || ![...el.options].some((o) => o.value === arguments[1])) return false;
       el.value = arguments[1];
       el.dispatchEvent(new Event('change', { bubbles: true }));
       return true;`,
      [testid, String(value)],
    );
    if (!ok) throw new Error(`${testid} has no option ${value}`);
  }

  /** Opens the start panel (from the result dialog if one is open), chooses `fields`
   *  (data-testid → value) and starts; a refusal throws with the panel's reason. The panel
   *  offers the last game's choices again: a game is plain (no opening rule, no clock)
   *  unless `fields` say otherwise, whatever ran before. */
  async startGame(given) {
    const fields = { ...given, opening: given.opening ?? 'none', 'time-control': given['time-control'] ?? '0' };
    const panel = `document.querySelector('[data-testid="start-panel"][open]')`;
    if (!(await this.execute(`return !!${panel}`))) {
      const result = await this.execute(`return !!document.querySelector('[data-testid="result"][open]')`);
      await this.click(result ? '[data-testid="result-new"]' : '[data-testid="new-game"]');
    }
    await this.waitFor(`return !!${panel}`, { what: 'the start panel' });
    for (const [testid, value] of Object.entries(fields)) await this.choose(testid, value);
    await this.click('[data-testid="start"]');
    try {
      await this.waitFor(`return !${panel}`, { what: 'the game to start' });
    } catch (err) {
      await this.shot('start-failed');
      const why = await this.execute(`return document.querySelector('#start-error').textContent`);
      throw new Error(`the game did not start: ${why || err.message}`);
    }
  }

  /** Sets fields of the settings dialog by name as a player does (the change event saves
   *  them), then closes it. */
  async setSettings(fields) {
    await this.click('[data-testid="settings"]');
    await this.execute(
      `const form = document.querySelector('#settings-dialog form');
       for (const [name, value] of Object.entries(arguments[0])) {
         const el = form.elements[name];
         if (el.type === 'checkbox') el.checked = value; else el.value = value;
         el.dispatchEvent(new Event('change', { bubbles: true }));
       }`,
      [fields],
    );
    await this.click('#settings-dialog button[value="close"]');
  }

  /** A new game of `config` through the backend, then `moves` ([x, y]) clicked on the board. */
  async playMoves(config, moves) {
    await this.execute(`window.__TAURI__.core.invoke('new_game', { config: arguments[0] }); return true;`, [config]);
    await this.waitFor(`return document.querySelectorAll('.cell[data-stone]').length === 0 && !document.querySelector('dialog[open]')`, { what: 'an empty board' });
    for (const [i, [x, y]] of moves.entries()) {
      await this.click(`.cell[data-x="${x}"][data-y="${y}"]`);
      await this.waitFor(`return document.querySelectorAll('.cell[data-stone]:not(.provisional)').length === ${i + 1}`, { what: `move ${i + 1}` });
    }
  }
}

export const KEY = { CONTROL: '\uE009', SHIFT: '\uE008', ENTER: '\uE007', LEFT: '\uE012', UP: '\uE013', RIGHT: '\uE014', DOWN: '\uE015' };

/**
 * Starts the app under test (TENGEN_APP, through the driver at WEBDRIVER_URL, as
 * scripts/test-e2e.sh sets them) with the command-line `args` and waits until its UI is ready.
 */
export async function startApp(args = []) {
  const app = process.env.TENGEN_APP;
  if (!app) throw new Error('TENGEN_APP must point at the built app (scripts/test-e2e.sh sets it)');
  const s = await Session.create(process.env.WEBDRIVER_URL || 'http://127.0.0.1:4444', app, args);
  await s.waitFor(`return document.documentElement.dataset.ready === 'true'`, { timeout: 60000, what: 'the UI to start' });
  return s;
}

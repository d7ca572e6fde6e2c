// A minimal W3C WebDriver client over fetch, enough to drive the real app through
// tauri-driver (which forwards to WebKitWebDriver on Linux). No webdriverio needed.
import fs from 'node:fs/promises';
import path from 'node:path';

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
}

export const KEY = { CONTROL: '\uE009', SHIFT: '\uE008', ENTER: '\uE007', LEFT: '\uE012', UP: '\uE013', RIGHT: '\uE014', DOWN: '\uE015' };

/**
 * Starts the app under test (TENGEN_APP, through the driver at WEBDRIVER_URL, as
 * scripts/test-e2e.sh sets them) and waits until its UI is ready.
 */
export async function startApp() {
  const app = process.env.TENGEN_APP;
  if (!app) throw new Error('TENGEN_APP must point at the built app (scripts/test-e2e.sh sets it)');
  const s = await Session.create(process.env.WEBDRIVER_URL || 'http://127.0.0.1:4444', app);
  await s.waitFor(`return document.documentElement.dataset.ready === 'true'`, { timeout: 60000, what: 'the UI to start' });
  return s;
}

/**
 * Sets a <select> of session `s` by its data-testid through the DOM, as the user's choice
 * (native <select> popups are outside the page; the change event is what the UI listens to).
 */
export async function choose(s, testid, value) {
  const ok = await s.execute(
    `const el = document.querySelector('[data-testid="' + arguments[0] + '"]');
     if (![...el.options].some((o) => o.value === arguments[1])) return false;
     el.value = arguments[1];
     el.dispatchEvent(new Event('change', { bubbles: true }));
     return true;`,
    [testid, String(value)],
  );
  if (!ok) throw new Error(`${testid} has no option ${value}`);
}

/** Starts a game from the start panel with `fields` (data-testid: value). */
export async function startGame(s, fields) {
  const open = await s.execute(`return !!document.querySelector('[data-testid="start-panel"][open]')`);
  if (!open) await s.click('[data-testid="new-game"]');
  await s.waitFor(`return !!document.querySelector('[data-testid="start-panel"][open]')`, { what: 'the start panel' });
  for (const [testid, value] of Object.entries(fields)) await choose(s, testid, value);
  await s.click('[data-testid="start"]');
  await s.waitFor(`return !document.querySelector('[data-testid="start-panel"][open]')`, { what: 'the game to start' });
}

/** Sets the language and the theme in the settings dialog. */
export async function settingsTo(s, language, theme) {
  await s.click('[data-testid="settings"]');
  await s.waitFor(`return !!document.querySelector('[data-testid="settings-panel"][open]')`, { what: 'the settings' });
  await choose(s, 'language', language);
  await choose(s, 'theme', theme);
  await sleep(300);
  await s.execute(`document.querySelector('[data-testid="settings-panel"]').close(); return true;`);
}

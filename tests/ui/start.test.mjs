// The first frame, before the app's modules run (ui/js/boot.js, index.html, board.css): the
// saved theme, else the system's, and the board's place shown; every module app.js imports is
// fetched beside it (modulepreload). node --test tests/ui/start.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { useBrowser, uiDir, screenshot, openApp, closePage, snapshot } from './harness.mjs';

const suite = useBrowser();

/** The page as it stands before any module runs (app.js is never served). */
async function beforeModules({ colorScheme = 'light', saved = null, userAgent } = {}) {
  const context = await suite.browser.newContext({ viewport: { width: 1100, height: 800 }, colorScheme, userAgent });
  if (saved) await context.addInitScript({ content: `localStorage.setItem('tengen.theme', ${JSON.stringify(saved)});` });
  await context.route('**/js/app.js', (route) => route.abort());
  const page = await context.newPage();
  await page.goto(suite.server.url);
  await page.waitForLoadState('load');
  return page;
}

test('the first frame has the saved theme, else the system one, and the board\'s place', async () => {
  for (const [colorScheme, saved, theme] of [
    ['light', null, 'light'],
    ['dark', null, 'dark'],
    ['dark', 'system', 'dark'],
    ['light', 'dark', 'dark'],
    ['dark', 'light', 'light'],
  ]) {
    const page = await beforeModules({ colorScheme, saved });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme, `${colorScheme} system, saved ${saved}`);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, theme === 'dark' ? 'rgb(20, 21, 24)' : 'rgb(243, 239, 231)');
    // The board's place is painted (not the page's background) while the board is missing.
    const host = await page.evaluate(() => {
      const r = document.querySelector('.board-host').getBoundingClientRect();
      return { w: r.width, h: r.height, bg: getComputedStyle(document.querySelector('.board-host')).backgroundColor };
    });
    assert.ok(host.w > 300 && host.h > 300, JSON.stringify(host));
    assert.notEqual(host.bg, 'rgba(0, 0, 0, 0)');
    if (colorScheme === 'dark' && saved === null) await screenshot(page, 'ui-first-frame-dark');
    await page.context().close();
  }
});

test('on Linux the font stacks leave out the macOS and Windows families; elsewhere they keep them', async () => {
  const agents = {
    linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)',
    mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)',
    windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Edg/120.0',
  };
  const foreign = /-apple-system|Segoe UI|Helvetica Neue|PingFang SC|Microsoft YaHei/;
  for (const [os, userAgent] of Object.entries(agents)) {
    const page = await beforeModules({ userAgent });
    const fonts = await page.evaluate(() => {
      const body = getComputedStyle(document.body).fontFamily;
      document.documentElement.lang = 'zh-CN';
      return { body, zh: getComputedStyle(document.body).fontFamily };
    });
    for (const family of [fonts.body, fonts.zh]) {
      if (os === 'linux') assert.doesNotMatch(family, foreign, `${os}: ${family}`);
      else assert.match(family, foreign, `${os}: ${family}`);
      assert.match(family, /Noto Sans CJK SC/, `${os}: ${family}`);
    }
    await page.context().close();
  }
});

test('settings keep the theme for the next start', async () => {
  const src = await fs.readFile(path.join(uiDir, 'js/settings.js'), 'utf8');
  assert.match(src, /localStorage\.setItem\('tengen\.theme', s\.theme\)/);
});

test('every module app.js imports, directly or not, is preloaded by index.html', async () => {
  const html = await fs.readFile(path.join(uiDir, 'index.html'), 'utf8');
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="js\/([\w.-]+)">/g)].map((m) => m[1]));
  const seen = new Set();
  const walk = async (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const src = await fs.readFile(path.join(uiDir, 'js', name), 'utf8');
    for (const m of src.matchAll(/^import [^;]*? from '\.\/([\w.-]+)';/gms)) await walk(m[1]);
  };
  await walk('app.js');
  seen.delete('app.js');
  assert.deepEqual([...seen].filter((m) => !preloaded.has(m)), [], 'imported but not preloaded');
  assert.deepEqual([...preloaded].filter((m) => !seen.has(m)), [], 'preloaded but not imported');
});

test('the board is built at its width: the cells need no second layout when the observer reports', async () => {
  // An observer that never reports: the width must come from the board's build.
  const silent = 'window.ResizeObserver = class { observe() {} unobserve() {} disconnect() {} };';
  const page = await openApp(suite.browser, suite.server.url, { snapshot: snapshot({ moves: [[7, 7]] }), script: silent });
  await page.waitForSelector('.cell[data-x="7"][data-y="7"][data-stone]');
  const [w, width] = await page.evaluate(() => {
    const board = document.querySelector('.board');
    return [board.style.getPropertyValue('--w'), board.getBoundingClientRect().width];
  });
  assert.equal(w, `${width}px`);
  await closePage(page);
});

// Browser tests of the software-painting path (ui/js/paint.js, what WebKitGTK gets): the
// board's wood and stones drawn once as bitmaps from the theme's own gradients, and drawn
// again when the theme changes. Chromium paints on the GPU, so the page is marked by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, closePage, openApp, snapshot } from './harness.mjs';

const suite = useBrowser();

/** Marks the page as painted in software and installs paint.js, as app.js does in WebKitGTK. */
const software = (page) => page.evaluate(async () => {
  document.documentElement.dataset.paint = 'software';
  (await import('./js/paint.js')).installSoftwarePaint();
});

test("the theme's gradients are read as stops and a centre", async () => {
  const page = await openApp(suite.browser, suite.server.url, { snapshot: snapshot() });
  const parsed = await page.evaluate(async () => {
    const { parseRadial } = await import('./js/paint.js');
    const style = getComputedStyle(document.documentElement);
    return { wood: parseRadial(style.getPropertyValue('--wood')), black: parseRadial(style.getPropertyValue('--stone-black')) };
  });
  assert.deepEqual(parsed.wood, { x: 0.28, y: 0.18, rx: 1.3, ry: 1, stops: [[0, '#efcb8e'], [0.52, '#e2b36d'], [1, '#d5a25a']] });
  assert.deepEqual(parsed.black, { x: 0.34, y: 0.3, rx: null, ry: null, stops: [[0, '#6e6e6e'], [0.32, '#2c2c2c'], [0.72, '#0d0d0d'], [1, '#000']] });
  await closePage(page);
});

test('painted in software, the board shows bitmaps of its wood and stones, drawn again for another theme', async () => {
  const page = await openApp(suite.browser, suite.server.url, { snapshot: snapshot({ moves: [[7, 7], [8, 8]] }) });
  await software(page);
  await page.waitForFunction(() => document.documentElement.dataset.bitmaps === 'true');
  const look = () => page.evaluate(() => ({
    wood: getComputedStyle(document.querySelector('.board')).backgroundImage,
    black: getComputedStyle(document.querySelector('.cell[data-stone="black"] .stone')).backgroundImage,
    white: getComputedStyle(document.querySelector('.cell[data-stone="white"] .stone')).backgroundImage,
  }));
  const light = await look();
  assert.match(light.wood, /^url\("data:image\/jpeg;base64,/);
  assert.match(light.black, /^url\("data:image\/png;base64,/);
  assert.notEqual(light.black, light.white);
  await page.click('[data-testid="settings"]');
  await page.selectOption('[data-testid="theme"]', 'dark');
  await page.waitForFunction((before) => getComputedStyle(document.querySelector('.board')).backgroundImage !== before, light.wood);
  const dark = await look();
  assert.match(dark.wood, /^url\("data:image\/jpeg;base64,/);
  await closePage(page, 'ui-software-paint-dark');
});

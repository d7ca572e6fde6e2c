// End-to-end: a Reversi game review in the real app. A whole game (the transcript below, as
// Ctrl+V would paste it) is opened, reviewed by the backend's Master, and the graph shows one
// bar per move with its verdict; in the endgame, where the solver reaches, the verdicts are
// exact: a click on such a bar shows "lost N discs". Screenshots in light/en and dark/zh.
// Run by scripts/test-e2e.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, sleep } from './webdriver.mjs';

let s;
before(async () => {
  s = await startApp();
});
after(() => s?.delete());

// Strong (depth 4) against itself, seed 7: the Reversi game of engine/examples/review_time.rs.
const GAME = 'f5f4f3d6c3g5f6e3f2d3c2d2c4e6g4c5e1h4e2g3h3e7c6f1h5d1f7g6c1e8g1h6h7b6b5a5g7b4a4a3f8b2b1h8g8h2a1g2h1b3a7a6a2d7b7c7c8a8b8d8';
const MOVES = GAME.length / 2;

const BARS = `[...document.querySelectorAll('[data-testid="eval-graph"] > [data-ply]')]`;

test('Reversi: review a whole game, see the graph and an exact verdict in the endgame', async () => {
  await s.execute(`return window.__TAURI__.core.invoke('paste_game', { text: arguments[0] }).then(() => true);`, [GAME]);
  await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '${MOVES}'`, {
    what: 'the pasted game at its end',
  });
  // A finished game opened over a Reversi game already on the board shows its result dialog
  // (what the app started with depends on the tests before this one): close it.
  await s.execute(`const d = document.querySelector('#result-dialog'); if (d.open) d.close(); return true;`);
  await s.click('[data-testid="review"]');
  await s.waitFor(`return ${BARS}.length === ${MOVES}`, { timeout: 120000, what: 'the graph of the whole game' });
  const bars = await s.execute(`return ${BARS}.map((b) => [b.dataset.ply, b.dataset.verdict, b.title]);`);
  assert.deepEqual(bars.map((b) => b[0]), Array.from({ length: MOVES }, (_, i) => String(i + 1)));
  for (const [, v] of bars) assert.ok(['good', 'inaccuracy', 'mistake', 'blunder'].includes(v), v);
  // Exact verdicts ("lost N discs") come only from the solver: in the endgame.
  const exact = bars.filter(([, v, title]) => v !== 'good' && / lost \d+ discs/.test(title));
  assert.ok(exact.length > 0, `an exact verdict in the endgame: ${JSON.stringify(bars.slice(-20))}`);
  for (const [ply] of exact) assert.ok(Number(ply) > MOVES - 24, `ply ${ply}: exact only where the solver reaches`);
  const [ply, verdict] = exact.at(-1);
  await s.click(`[data-testid="eval-graph"] [data-ply="${ply}"]`);
  await s.waitFor(`return document.querySelector('#move-list [aria-current="step"]')?.dataset.ply === '${ply}'`, { what: `ply ${ply} shown` });
  const said = await s.execute(`return document.querySelector('[data-testid="review-verdict"]').textContent`);
  const name = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' }[verdict];
  assert.match(said, new RegExp(`^${name}: [a-h][1-8] lost \\d+ discs; [a-h][1-8] was better\\.$`));
  const lost = Number(said.match(/lost (\d+)/)[1]);
  const least = { inaccuracy: 3, mistake: 6, blunder: 10 }[verdict];
  assert.ok(lost >= least, `${said}: a ${verdict} loses at least ${least} discs`);
  // The move list marks it, and the board marks the better move.
  const mark = await s.execute(`return document.querySelector('#move-list [data-ply="${ply}"] .rv-mark')?.textContent`);
  assert.equal(mark, { inaccuracy: '?!', mistake: '?', blunder: '??' }[verdict]);
  assert.equal(await s.execute(`return document.querySelectorAll('.cell.hint').length`), 1, 'the better move marked');
  await sleep(300);
  await s.shot('review-reversi-light-en');
  await s.setSettings({ language: 'zh-CN', theme: 'dark' });
  await sleep(400);
  const zh = await s.execute(`return document.querySelector('[data-testid="review-verdict"]').textContent`);
  assert.match(zh, new RegExp(`${lost}`), `the verdict in Chinese keeps the discs: ${zh}`);
  await s.shot('review-reversi-dark-zh');
  await s.setSettings({ language: 'en', theme: 'light' });
});

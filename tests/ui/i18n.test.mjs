// Browser tests of the language switch (ui/js/i18n.js and every view that writes words): a page
// switched zh → en (→ zh) shows the same texts, titles and labels as a page started in that
// language, with everything that writes words on screen (a move list with a pass and a
// variation, a review, analysis lines, the coach, the statistics in the settings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, closePage, openApp, emit, snapshot } from './harness.mjs';

const suite = useBrowser();

const xy = (x, y) => ({ x, y });
const chance = (permille) => ({ kind: 'chance', permille });
const STATS = [{ game: 'gomoku', rule: 'renju', level: 'master', wins: 3, losses: 5, draws: 1 }];

/** A game whose views all write words: a pass, a variation, the coach's facts. */
function game() {
  const snap = snapshot({ moves: [[7, 7], [8, 8], { pass: true, color: 'black' }, [6, 6], [7, 8]] });
  snap.moves.forEach((m, i) => (m.node = i + 1));
  snap.moves[1].alts = [{ node: 90, label: 'g9' }];
  snap.moves[3].branch = 1;
  snap.ply = 4;
  snap.coach = { ply: 4, facts: [{ kind: 'threatens', color: 'white', point: xy(8, 6), combo: 'four_three' }] };
  return snap;
}

/** A finished review of game(): the second move a mistake. */
function review() {
  const plies = game().moves.map((m, i) => ({
    ply: i + 1, color: m.color, verdict: i === 1 ? 'mistake' : 'good', played: m.label,
    best: i === 1 ? 'h11' : m.label, bestPoint: i === 1 ? xy(7, 4) : xy(m.x, m.y), bestIsPlayed: i !== 1,
    before: chance(i === 1 ? 620 : 500), after: chance(i === 1 ? 410 : 500), value: (i + 1) / 10,
  }));
  return { version: 1, game: 'gomoku', running: false, done: 0, total: 0, plies };
}

const analysis = {
  run: 1, state: 'running', wanted: 3, color: 'black', depth: 9, nodes: 123456, nps: 400000, elapsed_ms: 300,
  lines: [{ x: 8, y: 6, pass: false, label: 'i9', outlook: chance(623), bound: 'exact', depth: 9, pv: [{ x: 8, y: 6, color: 'black', label: 'i9' }] }],
};

/** Every text the page writes: text nodes, titles and labels, in document order. */
function texts(page) {
  return page.evaluate(() => {
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walk.currentNode; n; n = walk.nextNode()) {
      if (n.nodeType === Node.TEXT_NODE) {
        const s = n.textContent.trim();
        if (s) out.push(s);
        continue;
      }
      for (const a of ['title', 'aria-label', 'placeholder']) if (n.getAttribute(a)) out.push(`${a}=${n.getAttribute(a)}`);
    }
    return out;
  });
}

/** A page in `language` showing game(), its review, analysis and statistics (settings open). */
async function open(language) {
  const page = await openApp(suite.browser, suite.server.url, {
    snapshot: game(),
    settings: { language, coach: true },
    responses: { get_stats: STATS },
    script: `window.__mock.review = ${JSON.stringify(review())}; window.__mock.analysis = { on: true, lines: 3 };`,
  });
  await emit(page, 'analysis', analysis);
  await page.click('[data-testid="settings"]');
  await page.waitForSelector('[data-testid="stats"] table');
  return page;
}

async function switchTo(page, language) {
  await page.selectOption('#settings-dialog [name="language"]', language);
  await page.waitForFunction((l) => document.documentElement.lang === l, language);
  // The statistics are asked for again and written in the new language.
  await page.waitForFunction((l) => document.querySelector('[data-testid="stats"] th')?.textContent === (l === 'en' ? 'Game' : '棋类'), language);
}

/** The texts that differ between two lists, side by side. */
function differences(got, want) {
  const out = [];
  for (let i = 0; i < Math.max(got.length, want.length); i++) if (got[i] !== want[i]) out.push(`${got[i]} ≠ ${want[i]}`);
  return out.slice(0, 20);
}

for (const [from, to] of [['zh-CN', 'en'], ['en', 'zh-CN']]) {
  test(`every text follows a switch from ${from} to ${to} (and back)`, async () => {
    const fresh = await open(to);
    const want = await texts(fresh);
    await closePage(fresh);
    const page = await open(from);
    const before = await texts(page);
    await switchTo(page, to);
    assert.deepEqual(differences(await texts(page), want), [], `switched ${from} → ${to}`);
    await switchTo(page, from);
    assert.deepEqual(differences(await texts(page), before), [], `switched back to ${from}`);
    await closePage(page);
  });
}

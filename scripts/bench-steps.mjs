// Benchmark: stepping through a 200-move game at key-repeat speed (issue 21: no lag at 30
// steps a second). Drives the real UI (ui/, with the IPC mocked as in the browser tests) in
// Debian's Chromium: 150 steps back, one snapshot each as the backend sends them, and times
// each step from the snapshot to the end of the next frame (its render and paint).
// Usage: node scripts/bench-steps.mjs   (prints median, p95 and the longest step in ms)
import { serve, launch, openApp, studySnapshot } from '../tests/ui/harness.mjs';

const STEPS = 150;
const server = await serve();
const browser = await launch();
try {
  const page = await openApp(browser, server.url, { snapshot: studySnapshot(200, 200) });
  await page.waitForSelector('[data-ply="200"][aria-current="step"]');
  const times = await page.evaluate(async (steps) => {
    const base = window.__mock.snapshot;
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    const work = [];
    const framed = [];
    await frame();
    for (let i = 0; i < steps; i++) {
      const s = structuredClone(base);
      s.ply = 199 - i;
      s.seq = (base.seq || 0) + i + 1;
      const t0 = performance.now();
      window.__mock.emit('snapshot', s);
      work.push(performance.now() - t0);
      await frame();
      framed.push(performance.now() - t0);
    }
    // An empty frame, for comparison: what the browser's frame pacing alone takes.
    const idle = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      await frame();
      idle.push(performance.now() - t0);
    }
    return { work, framed, idle };
  }, STEPS);
  const line = (name, xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return `${name}: median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, longest ${sorted.at(-1).toFixed(1)} ms`;
  };
  console.log(`${STEPS} steps back through a 200-move game (30 steps a second leave 33 ms a step)`);
  console.log(line('  the step\'s work (snapshot to DOM updated)', times.work));
  console.log(line('  the step to its next frame painted', times.framed));
  console.log(line('  an empty frame (the browser\'s pacing alone)', times.idle));
} finally {
  await browser.close();
  await server.close();
}

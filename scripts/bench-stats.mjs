// The figures of the stepping benchmarks (scripts/bench-steps.mjs in Chromium, scripts/bench-steps-app.mjs
// in the real app).

/** From the key-repeat run: the frames' spacing, the positions seen, each step's delay to its frame. */
export function keyRepeat({ frames, sent, stepped }) {
  const gaps = frames.slice(1).map(([t], i) => t - frames[i][0]);
  const seen = new Set(frames.map(([, p]) => p));
  const delays = sent.map((t, i) => frames.find(([ft, p]) => ft >= t && p <= stepped[i])?.[0] - t).filter(Number.isFinite);
  return { gaps, seen: stepped.filter((p) => seen.has(p)).length, delays };
}

export const stats = (xs) => {
  if (!xs.length) return 'no data';
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, longest ${sorted.at(-1).toFixed(1)} ms`;
};

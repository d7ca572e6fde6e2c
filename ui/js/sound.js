// A short stone click, synthesised with Web Audio (an <audio> element cannot play from the
// app's own URL on Linux). A filtered noise tick for the contact plus a soft low thump.

let ctx = null;
let enabled = true;
let noise = null;
let creating = false; // the context is made after the current frame (see unlock)
let queued = null; // a click asked for before the context existed
let rest = 0; // the timer that suspends the context after the last sound

// A running context renders silence without end (4% of a core in WebKitGTK's web process
// while the app waits for the human): it is suspended once a sound has played out.
const REST_AFTER_MS = 1000;

export function setEnabled(on) {
  enabled = !!on;
}

function create() {
  creating = false;
  if (!enabled || ctx) return;
  try {
    ctx = new (window.AudioContext || window.webkitAudioContext)();
  } catch {
    ctx = null;
    return;
  }
  const kind = queued;
  queued = null;
  if (kind) click(kind);
  else ctx.suspend().catch(() => {}); // until a sound needs it (see click)
}

/**
 * Call from a user gesture so later (computer) moves may sound too. Making the context starts
 * the audio back end (GStreamer in WebKitGTK), which took 100–200 ms of the first click's
 * task and held back the frame with the player's stone; so it is made once that frame has
 * been painted. The page has had its user gesture by then, which lets the context run.
 */
export function unlock() {
  if (!enabled || creating) return;
  if (ctx) {
    // A gesture may resume it (where the context was made without one); it rests again soon.
    if (ctx.state === 'suspended') ctx.resume().then(restSoon, () => {});
    return;
  }
  creating = true;
  requestAnimationFrame(() => setTimeout(create));
}

function noiseBuffer() {
  if (noise) return noise;
  const length = Math.floor(ctx.sampleRate * 0.05);
  noise = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = noise.getChannelData(0);
  let seed = 12345;
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = ((seed / 0x7fffffff) * 2 - 1) * Math.pow(1 - i / length, 4);
  }
  return noise;
}

/** kind: "stone" (gomoku, bright wood click) or "disc" (reversi, softer). */
export function click(kind = 'stone') {
  if (!enabled) return;
  if (!ctx) {
    if (creating) queued = kind;
    return;
  }
  // The context may still be resuming after the gesture that unlocked it.
  if (ctx.state === 'suspended') {
    ctx.resume().then(() => ctx.state === 'running' && play(kind), () => {});
    return;
  }
  if (ctx.state === 'running') play(kind);
}

/** Suspends the context REST_AFTER_MS after the last call. */
function restSoon() {
  clearTimeout(rest);
  rest = setTimeout(() => ctx.state === 'running' && ctx.suspend().catch(() => {}), REST_AFTER_MS);
}

function play(kind) {
  restSoon();
  const t = ctx.currentTime + 0.005;
  const out = ctx.createGain();
  out.gain.value = 0.6;
  out.connect(ctx.destination);

  const src = ctx.createBufferSource();
  src.buffer = noiseBuffer();
  const band = ctx.createBiquadFilter();
  band.type = 'bandpass';
  band.frequency.value = kind === 'disc' ? 1500 : 2600;
  band.Q.value = 1.4;
  const tickGain = ctx.createGain();
  tickGain.gain.setValueAtTime(kind === 'disc' ? 0.5 : 0.8, t);
  tickGain.gain.exponentialRampToValueAtTime(0.001, t + 0.05);
  src.connect(band).connect(tickGain).connect(out);
  src.start(t);

  const osc = ctx.createOscillator();
  osc.type = 'sine';
  osc.frequency.setValueAtTime(kind === 'disc' ? 160 : 220, t);
  osc.frequency.exponentialRampToValueAtTime(90, t + 0.08);
  const thump = ctx.createGain();
  thump.gain.setValueAtTime(0.35, t);
  thump.gain.exponentialRampToValueAtTime(0.001, t + 0.09);
  osc.connect(thump).connect(out);
  osc.start(t);
  osc.stop(t + 0.1);
}

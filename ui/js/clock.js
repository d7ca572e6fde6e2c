// The clocks beside the board: each side's time left, the running side's counted down on the
// page between snapshots (from the snapshot's time left and when it arrived), urgent in the
// last seconds (FACTS.timeControls.urgentMs), and the pause / resume button. The backend keeps
// the time and decides the loss on time; this only shows it. While no clock runs nothing
// ticks here. Open dialogs stop the clock: the backend is told when the first one opens and
// when the last one closes.

import { api } from './ipc.js';
import { t } from './i18n.js';
import { FACTS } from './facts.generated.js';

const $ = (sel) => document.querySelector(sel);
const COLORS = ['black', 'white'];
/** How often the running clock is redrawn (tenths show in the last seconds). */
const TICK_MS = 100;

const state = { view: null, at: 0, timer: null, dialogOpen: false };
let hooks = { command: async (fn) => fn() };

/** `ms` as the clock shows it: h:mm:ss, m:ss, or s.t under the urgent time. */
export function formatClock(ms) {
  const left = Math.max(0, ms);
  if (left < FACTS.timeControls.urgentMs) return (Math.floor(left / 100) / 10).toFixed(1);
  const s = Math.ceil(left / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The name of a time control in the start panel's words. */
export function timeControlText(tc) {
  switch (tc?.type) {
    case 'sudden_death':
      return t('clock.control.sudden_death', { m: tc.baseMs / 60000 });
    case 'fischer':
      return t('clock.control.fischer', { m: tc.baseMs / 60000, s: tc.incrementMs / 1000 });
    case 'per_move':
      return t('clock.control.per_move', { s: tc.moveMs / 1000 });
    default:
      return t('clock.control.none');
  }
}

/** The time `color` has left now, in ms. */
function leftNow(color, now = performance.now()) {
  const v = state.view;
  const base = color === 'black' ? v.blackMs : v.whiteMs;
  return v.running === color ? base - (now - state.at) : base;
}

function paint() {
  const v = state.view;
  if (!v) return;
  const now = performance.now();
  for (const color of COLORS) {
    const el = $(`#clock-${color}`);
    const ms = leftNow(color, now);
    el.textContent = formatClock(ms);
    el.classList.toggle('running', v.running === color);
    // A per-move allowance under the urgent time would be urgent all game long while it waits.
    const waits = v.control.type === 'per_move' && v.running !== color && ms > 0;
    el.classList.toggle('urgent', ms < FACTS.timeControls.urgentMs && !waits);
    el.classList.toggle('flagged', ms <= 0);
  }
}

function stopTicking() {
  clearInterval(state.timer);
  state.timer = null;
}

/** Shows the snapshot's clocks (none: hidden) and ticks only while one runs. */
export function renderClock(snap) {
  const view = snap?.clock ?? null;
  state.view = view;
  state.at = performance.now();
  $('.players')?.classList.toggle('timed', !!view);
  for (const color of COLORS) {
    const el = $(`#clock-${color}`);
    el.hidden = !view;
    el.setAttribute('aria-label', t('clock.of', { color: t(`color.${color}`) }));
  }
  const button = $('#clock-pause');
  const over = !!snap?.result;
  button.hidden = !view || over || !(view.canPause || view.paused);
  if (view) {
    button.dataset.op = view.paused ? 'resume' : 'pause';
    button.textContent = t(view.paused ? 'clock.resume' : 'clock.pause');
    button.setAttribute('aria-pressed', String(view.paused));
  }
  stopTicking();
  if (!view) return;
  paint();
  if (view.running) state.timer = setInterval(paint, TICK_MS);
}

/** Tells the backend when the first dialog opens and the last one closes. */
function watchDialogs() {
  const sync = () => {
    const open = [...document.querySelectorAll('dialog')].some((d) => d.open);
    if (open === state.dialogOpen) return;
    state.dialogOpen = open;
    hooks.command(() => api.clock({ op: 'dialog', open }));
  };
  const observer = new MutationObserver(sync);
  for (const d of document.querySelectorAll('dialog')) observer.observe(d, { attributes: true, attributeFilter: ['open'] });
}

export function installClock(given) {
  hooks = { ...hooks, ...given };
  $('#clock-pause').addEventListener('click', (e) => hooks.command(() => api.clock({ op: e.currentTarget.dataset.op })));
  watchDialogs();
}

export const _forTests = { state, leftNow };

// Live analysis: the "Analyse" switch, the list of the best lines, the score written on each
// candidate's point, and a candidate's principal variation as numbered ghost stones while it
// is hovered or focused. The backend decides everything (src-tauri/src/analysis.rs): what
// runs, when it restarts, and each score as a player reads it (`outlook`); this module only
// puts the outlook into words from the locale files. Its drawing lives in a layer of its own
// on top of the board's cells, so the board's own rendering is untouched.

import { api, on } from './ipc.js';
import { t } from './i18n.js';

const $ = (sel) => document.querySelector(sel);

const state = {
  settings: { on: false, lines: 3 },
  update: null, // the newest `analysis` event
  focus: null, // index of the line whose variation is shown
  board: null, // the Board view
  onSelect: null, // plays a move at (x, y)
  canPlay: null, // whether the human may move now (Enter/Space on a candidate plays it then)
  editing: false, // the board editor is open: its stones are shown, not the position analysed
  onChange: null, // the page redraws (the heat map follows the lines)
  onError: null,
};

const colorName = (c) => t(`color.${c}`);
const other = (c) => (c === 'black' ? 'white' : 'black');
const signed = (v, digits = 0) => (v > 0 ? '+' : v < 0 ? '−' : '±') + Math.abs(v).toFixed(digits);

/**
 * An outlook in words: `short` for the board (a few characters), else for the list.
 * `mover` is the side to move in the analysed position (the outlook's point of view).
 */
export function outlookText(outlook, mover, bound = 'exact', short = false) {
  if (!outlook) return '';
  const mark = bound === 'lower' ? '≥' : bound === 'upper' ? '≤' : '';
  switch (outlook.kind) {
    case 'chance': {
      const p = Math.round(outlook.permille / 10);
      return mark + t(short ? 'analysis.short.chance' : 'analysis.chance', { p, color: colorName(mover) });
    }
    case 'wins': {
      const mine = outlook.winner === mover;
      if (short) return t(mine ? 'analysis.short.wins' : 'analysis.short.loses', { n: outlook.moves });
      return t('analysis.wins', { color: colorName(outlook.winner), n: outlook.moves });
    }
    case 'discs': {
      const v = signed(outlook.tenths / 10, 1);
      return mark + (short ? v : t('analysis.discs', { value: v }));
    }
    case 'exact': {
      const v = signed(outlook.discs);
      return short ? v : t('analysis.exact', { value: v });
    }
    default:
      return '';
  }
}

/** A number from the outlook for ordering and the heat map (larger is better for the mover). */
function strength(o, mover) {
  switch (o?.kind) {
    case 'wins': return o.winner === mover ? 1e6 - o.moves : -1e6 + o.moves;
    case 'chance': return o.permille;
    case 'discs': return o.tenths * 10;
    case 'exact': return o.discs * 100;
    default: return 0;
  }
}

/** Whether the analysis has something to show now (never over the board editor's stones:
 *  the backend pauses analysis while the editor is open). */
function showing() {
  const u = state.update;
  return !!(state.settings.on && !state.editing && u && u.lines?.length && (u.state === 'running' || u.state === 'done'));
}

/** The analysed moves as candidates for the heat map ({x, y, score}), empty when not shown. */
export function heatCandidates() {
  if (!showing()) return [];
  const u = state.update;
  return u.lines
    .filter((l) => !l.pass)
    .map((l) => ({ x: l.x, y: l.y, score: { kind: 'eval', value: strength(l.outlook, u.color) } }));
}

/** Whether analysis is switched on (the page draws the heat map from it then). */
export function isOn() {
  return state.settings.on;
}

// ---------------------------------------------------------------- the panel

function renderPanel() {
  const s = state.settings;
  const sw = $('#analyse');
  sw.setAttribute('aria-checked', String(s.on));
  sw.classList.toggle('on', s.on);
  $('#analysis-lines').value = String(s.lines);
  const panel = $('#analysis-panel');
  panel.classList.toggle('on', s.on);
  const u = state.update;
  const status = $('#analysis-status');
  const list = $('#analysis-list');
  if (!s.on || !u) {
    status.textContent = s.on ? t('analysis.starting') : '';
    list.replaceChildren();
    return;
  }
  const info = [];
  if (state.editing) info.push(t('analysis.editing'));
  else if (u.state === 'paused') info.push(t('analysis.paused'));
  else if (u.state === 'over') info.push(t('analysis.over'));
  else {
    if (u.depth) info.push(t('analysis.depth', { depth: u.depth }));
    if (u.nodes) info.push(t('analysis.nodes', { nodes: compact(u.nodes) }));
    if (u.state === 'done') info.push(t('analysis.done'));
  }
  status.textContent = info.join(' · ');
  const items = showing()
    ? u.lines.slice(0, u.wanted).map((l, i) => {
        const li = document.createElement('li');
        li.className = 'analysis-line';
        li.dataset.index = i;
        li.tabIndex = 0;
        const mv = document.createElement('span');
        mv.className = 'mv';
        mv.textContent = l.pass ? t('analysis.pass') : l.label;
        const score = document.createElement('span');
        score.className = `score ${l.outlook.kind}`;
        score.textContent = outlookText(l.outlook, u.color, l.bound);
        const depth = document.createElement('span');
        depth.className = 'depth';
        depth.textContent = t('analysis.depth', { depth: l.depth });
        const pv = document.createElement('span');
        pv.className = 'pv';
        pv.textContent = l.pv.map((p) => p.label).join(' ');
        li.append(mv, score, depth, pv);
        return li;
      })
    : [];
  list.replaceChildren(...items);
}

function compact(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

// ---------------------------------------------------------------- the board layer

let layer = null;

function ensureLayer() {
  const board = state.board;
  if (!board) return null;
  if (!layer) {
    layer = document.createElement('div');
    layer.className = 'analysis-layer';
    layer.setAttribute('aria-label', t('analysis.title'));
    layer.addEventListener('click', (e) => {
      const c = e.target.closest?.('[data-testid="candidate"]');
      if (c && state.board?.config.interactive) state.onSelect?.(Number(c.dataset.x), Number(c.dataset.y));
    });
    // Enter or Space on a focused candidate plays it (at the human's turn), not the board
    // cursor's cell: the board's keys never see it.
    layer.addEventListener('keydown', (e) => {
      const c = e.target.closest?.('[data-testid="candidate"]');
      if (!c || (e.key !== 'Enter' && e.key !== ' ') || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      e.stopPropagation();
      if (state.board?.config.interactive && (state.canPlay?.() ?? true)) state.onSelect?.(Number(c.dataset.x), Number(c.dataset.y));
    });
    const show = (e) => {
      const c = e.target.closest?.('[data-testid="candidate"]');
      setFocus(c ? Number(c.dataset.index) : null);
    };
    layer.addEventListener('pointerover', show);
    layer.addEventListener('focusin', show);
    layer.addEventListener('pointerleave', () => setFocus(null));
    layer.addEventListener('focusout', () => setFocus(null));
  }
  // The board rebuilds its children when the game or size changes: put the layer back.
  if (layer.parentNode !== board.el) board.el.append(layer);
  layer.style.setProperty('--n', board.config.size);
  return layer;
}

function setFocus(index) {
  if (state.focus === index) return;
  state.focus = index;
  renderLayer();
}

// The candidates on the board, by point: kept between updates (an update every 50 ms changes
// a few texts, not the elements, so focus and hover stay where they are).
const shown = new Map();

function renderLayer() {
  const el = ensureLayer();
  if (!el) return;
  const u = showing() ? state.update : null;
  const keep = new Set();
  (u?.lines || []).forEach((l, i) => {
    if (l.pass) return;
    const k = `${l.x},${l.y}`;
    keep.add(k);
    let c = shown.get(k);
    if (!c) {
      c = document.createElement('span');
      c.setAttribute('data-testid', 'candidate');
      c.dataset.x = l.x;
      c.dataset.y = l.y;
      c.tabIndex = 0;
      c.setAttribute('role', 'button');
      c.style.gridColumn = String(l.x + 1);
      c.style.gridRow = String(l.y + 1);
      shown.set(k, c);
    }
    const text = outlookText(l.outlook, u.color, l.bound, true);
    const cls = `candidate ${l.outlook.kind}${i === 0 ? ' best' : ''}${i >= u.wanted ? ' more' : ''}`;
    if (c.className !== cls) c.className = cls;
    if (c.dataset.score !== text) {
      c.dataset.score = text;
      c.textContent = text;
    }
    c.dataset.index = i;
    const label = `${l.label} ${outlookText(l.outlook, u.color, l.bound)}`;
    if (c.getAttribute('aria-label') !== label) c.setAttribute('aria-label', label);
    if (c.parentNode !== el) el.append(c);
  });
  for (const [k, c] of shown) {
    if (!keep.has(k)) {
      c.remove();
      shown.delete(k);
    }
  }
  el.querySelectorAll('.pv-stone').forEach((g) => g.remove());
  const focused = u && state.focus != null ? u.lines[state.focus] : null;
  if (focused) {
    focused.pv.forEach((p, k) => {
      const g = document.createElement('span');
      g.className = `pv-stone ${p.color}`;
      g.setAttribute('aria-hidden', 'true');
      g.style.gridColumn = String(p.x + 1);
      g.style.gridRow = String(p.y + 1);
      g.textContent = String(k + 1);
      el.append(g);
    });
  }
  el.classList.toggle('showing-pv', !!focused);
}

// ---------------------------------------------------------------- wiring

/** Redraws the panel and the layer (after each snapshot, `snap`: the board may have been
 *  rebuilt, and the editor opened or closed). */
export function render(snap) {
  if (snap !== undefined) state.editing = !!snap?.editor;
  renderPanel();
  renderLayer();
}

function onUpdate(u) {
  if (state.update && u.run < state.update.run) return; // an older run
  state.update = u;
  if (state.focus != null && !u.lines?.[state.focus]) state.focus = null;
  render();
  state.onChange?.();
}

async function setAnalysis(on, lines) {
  try {
    state.settings = await api.setAnalysis(on, lines);
  } catch (err) {
    state.onError?.(err);
  }
  if (!state.settings.on) state.update = null;
  render();
  state.onChange?.();
}

/**
 * Installs the switch and the layer. `board` is the Board view, `onSelect(x, y)` plays a
 * move, `canPlay()` says whether the human may move now, `onChange()` redraws the page,
 * `onError(err)` says what went wrong; `savedLines` is a promise of the settings' number of
 * lines and `saveLines(n)` keeps a new one in them.
 */
export async function installAnalysis({ board, onSelect, canPlay, onChange, onError, savedLines, saveLines }) {
  Object.assign(state, { board, onSelect, canPlay, onChange, onError });
  $('#analyse').addEventListener('click', () => setAnalysis(!state.settings.on, state.settings.lines));
  $('#analysis-lines').addEventListener('change', (e) => {
    const lines = Number(e.target.value);
    setAnalysis(state.settings.on, lines);
    saveLines?.(lines);
  });
  $('#analysis-list').addEventListener('pointerover', (e) => {
    const li = e.target.closest?.('.analysis-line');
    if (li) setFocus(Number(li.dataset.index));
  });
  $('#analysis-list').addEventListener('focusin', (e) => {
    const li = e.target.closest?.('.analysis-line');
    if (li) setFocus(Number(li.dataset.index));
  });
  $('#analysis-list').addEventListener('pointerleave', () => setFocus(null));
  $('#analysis-list').addEventListener('focusout', () => setFocus(null));
  document.addEventListener('visibilitychange', () => {
    api.analysisVisible(!document.hidden).catch(() => {});
  });
  await on('analysis', onUpdate);
  try {
    state.settings = await api.getAnalysis();
    // The backend starts each run of the app with its default; the settings keep the choice.
    const lines = await savedLines;
    if (lines && lines !== state.settings.lines) state.settings = await api.setAnalysis(state.settings.on, lines);
  } catch {
    /* no backend: the switch stays off */
  }
  render();
}

export const _forTests = { state, other };

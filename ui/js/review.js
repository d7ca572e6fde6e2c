// Game review: the "Review" button with its progress bar and cancel, the evaluation graph
// (one bar per move of the main line, data-ply and data-verdict, the bar of the position
// shown with the class `current`; a click shows that position of the main line), the verdict
// on the move shown in words ("Mistake: h8 was better (62% → 41% for Black)", Reversi
// exact: "this move lost 6 discs") and "next mistake". The backend judges every move
// (engine/src/ai/review.rs) and sends the review once per change as the `review` event;
// this module only draws it and puts it into words from the locale files.

import { api, on } from './ipc.js';
import { t, textsVersion } from './i18n.js';
import { outlookText } from './analysis.js';

const $ = (sel) => document.querySelector(sel);

const state = {
  /** The last `review` view: {version, game, running, done, total, plies}. */
  view: null,
  /** Progress of the run under way: {done, total}. */
  progress: null,
  snapshot: null,
  /** Draws the move list's marks: (plies) => void. */
  onMarks: null,
  navigate: null,
  onError: null,
  /** What the graph was built from (rebuilt only when the review changes). */
  graphKey: null,
};

/** Marks of the move list, as chess programs write them. */
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The verdict on `p` (a review ply) in words. */
export function verdictText(p) {
  if (!p) return '';
  const move = p.played;
  if (p.verdict === 'good') {
    return t(p.bestIsPlayed ? 'review.said.best' : 'review.said.good', { move });
  }
  const verdict = t(`review.verdict.${p.verdict}`);
  if (p.lost != null) return t('review.said.lost', { verdict, move, best: p.best, n: p.lost });
  return t('review.said.better', {
    verdict,
    move,
    best: p.best,
    before: outlookText(p.before, p.color),
    after: outlookText(p.after, p.color),
  });
}

/** The mark written after a move in the list ('' for a good move). */
export function markOf(p) {
  return MARKS[p?.verdict] || '';
}

/** The review plies (empty when there is none). */
function plies() {
  return state.view?.plies || [];
}

/** The ply of the next mistake or blunder after `ply`, or null. */
export function nextMistake(ply) {
  const p = plies().find((q) => q.ply > ply && (q.verdict === 'mistake' || q.verdict === 'blunder'));
  return p ? p.ply : null;
}

/** Reversi's graph spans the largest disc difference of the game (at least this many). */
const MIN_DISC_SCALE = 8;

/** A bar's height (0 to 1) and side (up: Black is ahead) from a ply's value for Black. */
function bar(view, value, scale) {
  const v = view.game === 'reversi' ? Math.max(-1, Math.min(1, value / scale)) : value * 2 - 1;
  return { size: Math.abs(v), up: v >= 0 };
}

function buildGraph() {
  const view = state.view;
  const graph = $('#eval-graph');
  const key = view ? `${view.version}:${plies().length}:${textsVersion()}` : '';
  if (key === state.graphKey) return;
  state.graphKey = key;
  const frag = document.createDocumentFragment();
  const scale = Math.max(MIN_DISC_SCALE, ...plies().map((p) => Math.abs(p.value)));
  for (const p of plies()) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `eval-bar ${p.verdict}`;
    b.dataset.ply = String(p.ply);
    b.dataset.verdict = p.verdict;
    const { size, up } = bar(view, p.value, scale);
    b.style.setProperty('--size', size.toFixed(3));
    b.classList.add(up ? 'up' : 'down');
    const label = `${p.ply}. ${verdictText(p)}`;
    b.title = label;
    b.setAttribute('aria-label', label);
    frag.append(b);
  }
  graph.replaceChildren(frag);
  graph.hidden = plies().length === 0;
  state.onMarks?.(plies().map((p) => ({ ply: p.ply, played: p.played, mark: markOf(p), verdict: p.verdict, text: verdictText(p) })));
}

/** The ply shown (0: the start). */
function shownPly() {
  const snap = state.snapshot;
  return snap?.ply ?? snap?.moves?.length ?? 0;
}

/** Whether the position shown is on the main line (no move of a variation leads to it). */
function onMainLine(snap = state.snapshot) {
  const ply = snap?.ply ?? snap?.moves?.length ?? 0;
  return !(snap?.moves || []).slice(0, ply).some((m) => m.branch);
}

/** Whether the move shown is the main line's move the review judged. */
function reviewedAt(ply, snap = state.snapshot) {
  const p = plies()[ply - 1];
  const m = snap?.moves?.[ply - 1];
  return p && m && m.label === p.played && !m.branch ? p : null;
}

/** The engine's better move where the move shown was judged worse than good ({x, y}, for
 *  the board to mark), or null. */
export function betterMove(snap) {
  if (!snap || snap.editor) return null;
  const p = reviewedAt(snap.ply ?? snap.moves?.length ?? 0, snap);
  return p && p.verdict !== 'good' && !p.bestIsPlayed ? p.bestPoint || null : null;
}

/** Redraws the panel (after every snapshot and review event). */
export function renderReview(snap) {
  if (snap !== undefined) state.snapshot = snap;
  const view = state.view;
  const running = !!view?.running;
  const moves = state.snapshot?.moves?.length || 0;
  const busy = !!state.snapshot?.editor || (!!state.snapshot?.thinking && state.snapshot.thinking.purpose === 'move');
  const start = $('#btn-review');
  start.hidden = running;
  start.disabled = busy || moves === 0;
  $('#review-cancel').hidden = !running;
  const prog = $('#review-progress');
  prog.hidden = !running;
  if (running) {
    const done = state.progress?.done ?? view.done ?? 0;
    const total = state.progress?.total || view.total || 1;
    $('#review-bar').max = total;
    $('#review-bar').value = done;
    $('#review-count').textContent = t('review.progress', { done, total });
  }
  buildGraph();
  const ply = shownPly();
  const graph = $('#eval-graph');
  // The bar of the position shown, while it is the main line's (the move list's entry alone
  // carries aria-current="step").
  const current = onMainLine() ? graph.querySelector(`[data-ply="${ply}"]`) : null;
  for (const el of graph.querySelectorAll('.current')) if (el !== current) el.classList.remove('current');
  current?.classList.add('current');
  const p = reviewedAt(ply);
  $('#review-verdict').textContent = p ? verdictText(p) : '';
  $('#review-verdict').dataset.verdict = p?.verdict || '';
  $('#next-mistake').disabled = nextMistake(ply) == null || busy;
  $('#review-panel').classList.toggle('has-review', plies().length > 0);
}

/** Starts the review of the main line (the result dialog's "Review the game"). */
export function startReview() {
  return act('start');
}

async function act(action) {
  try {
    const view = await api.review(action);
    onView(view);
  } catch (err) {
    state.onError?.(err);
  }
}

function onView(view) {
  if (!view || (state.view && view.version < state.view.version)) return;
  state.view = view;
  if (!view.running) state.progress = null;
  renderReview();
  state.onChange?.();
}

function onProgress(p) {
  state.progress = p;
  if (state.view?.running) renderReview();
}

/**
 * Installs the panel. `navigate(ply)` shows the main line's position after `ply` moves
 * (the review's plies are the main line's, whatever line is shown), `onMarks(marks)` draws the move
 * list's marks, `onChange()` redraws the board (its better-move mark), `onError(err)` says
 * what went wrong.
 */
export async function installReview({ navigate, onMarks, onChange, onError }) {
  Object.assign(state, { navigate, onMarks, onChange, onError });
  $('#btn-review').addEventListener('click', () => act('start'));
  $('#review-cancel').addEventListener('click', () => act('cancel'));
  $('#next-mistake').addEventListener('click', () => {
    const ply = nextMistake(shownPly());
    if (ply != null) state.navigate?.(ply);
  });
  $('#eval-graph').addEventListener('click', (e) => {
    const b = e.target.closest?.('[data-ply]');
    if (b) state.navigate?.(Number(b.dataset.ply));
  });
  await Promise.all([on('review', onView), on('review-progress', onProgress)]);
  try {
    onView(await api.review('get'));
  } catch {
    /* no backend: no review */
  }
}

export const _forTests = { state };

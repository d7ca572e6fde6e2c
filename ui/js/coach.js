// The coach panel: puts the engine's facts about the last move (snapshot.coach; the facts are
// engine/src/coach, sent by src-tauri/src/coach.rs) into words from the locale files, with the
// points in the board's notation. "Show me" plays a forced win's line as numbered ghost stones
// over the board, one every STEP_MS; the game itself is never touched.

import { t } from './i18n.js';

const $ = (sel) => document.querySelector(sel);
const STEP_MS = 600;

let showing = null; // {key, timer, shown}: the line being shown and the ghosts drawn
let lastKey = '';

const label = (snap, p) => (p ? `${snap.columns?.[p.x] ?? ''}${snap.rows?.[p.y] ?? ''}` : '');
const colorName = (c) => t(`color.${c}`);
const span = (snap, f) => `${label(snap, f.from)}–${label(snap, f.to)}`;

/** A block point in words, with its Renju warning when black may not play it. */
function blockText(snap, b) {
  const point = label(snap, b.point);
  return b.forbidden ? t('coach.forbidden_point', { point, kind: t(`forbidden.${b.forbidden}`) }) : point;
}

/**
 * The sentences for `snap.coach`, one per fact, in the current language: [{text, fact}].
 * `you`: the colour the single human player plays (for "You have a forced win"), or null.
 */
export function sentences(snap, you = null) {
  const facts = snap?.coach?.facts;
  if (!Array.isArray(facts)) return [];
  const out = [];
  for (const f of facts) {
    const color = colorName(f.color);
    let text = '';
    switch (f.kind) {
      case 'four': {
        const params = { color, line: span(snap, f), point: label(snap, f.defence.point) };
        text = f.defence.forbidden
          ? t('coach.four.forbidden', { ...params, kind: t(`forbidden.${f.defence.forbidden}`) })
          : t('coach.four', params);
        break;
      }
      case 'open_four':
        text = t('coach.open_four', { color, line: span(snap, f), points: f.points.map((p) => label(snap, p)).join(t('coach.or')) });
        break;
      case 'open_three': {
        const blocks = f.blocks.map((b) => blockText(snap, b)).join(t('coach.or'));
        const weaker = f.weaker.map((b) => blockText(snap, b)).join('/');
        const params = { color, line: span(snap, f), blocks, weaker };
        text = t(weaker ? 'coach.open_three.weaker' : blocks ? 'coach.open_three.blocks' : 'coach.open_three', params);
        break;
      }
      case 'threatens':
        text = t('coach.threatens', { color, point: label(snap, f.point), combo: t(`coach.combo.${f.combo}`) });
        break;
      case 'forced_win':
        text = f.color === you
          ? t('coach.forced_win.you', { by: t(`coach.by.${f.by}`) })
          : t('coach.forced_win', { color, by: t(`coach.by.${f.by}`) });
        break;
      case 'gives_corner':
        text = t(f.corners.length > 1 ? 'coach.gives_corners' : 'coach.gives_corner', {
          color, corners: f.corners.map((p) => label(snap, p)).join(t('coach.and')),
        });
        break;
      case 'must_pass':
        text = t('coach.must_pass', { color });
        break;
      case 'keeps_parity':
        text = t('coach.keeps_parity', { color, point: label(snap, f.point), region: span(snap, f) });
        break;
      default:
        continue; // a fact this UI does not know yet says nothing
    }
    out.push({ text, fact: f });
  }
  return out;
}

/** The forced win's line to show, if there is one. */
const winLine = (snap) => snap?.coach?.facts?.find?.((f) => f.kind === 'forced_win' && Array.isArray(f.line) && f.line.length);

function clearGhosts() {
  if (showing) clearTimeout(showing.timer);
  showing = null;
  for (const g of document.querySelectorAll('.coach-ghost')) g.remove();
  const button = $('#coach-show');
  if (button) button.textContent = t('coach.show');
}

/** Plays `fact.line` as numbered ghost stones, one every STEP_MS. */
function show(fact, key) {
  clearGhosts();
  showing = { key, timer: 0, shown: 0 };
  $('#coach-show').textContent = t('coach.hide');
  const next = () => {
    const i = showing.shown;
    if (i >= fact.line.length) return;
    const p = fact.line[i];
    const cell = document.getElementById(`cell-${p.x}-${p.y}`);
    if (cell) {
      const ghost = document.createElement('span');
      const color = i % 2 === 0 ? fact.color : fact.color === 'black' ? 'white' : 'black';
      ghost.className = `coach-ghost ${color}`;
      ghost.dataset.testid = 'coach-ghost';
      ghost.textContent = String(i + 1);
      cell.append(ghost);
    }
    showing.shown = i + 1;
    if (showing.shown < fact.line.length) showing.timer = setTimeout(next, STEP_MS);
  };
  next();
}

/**
 * Draws the panel for `snap` when the coach setting is on (hidden otherwise). `you` as for
 * sentences(). A different position (or the coach turned off) takes the ghosts away.
 */
export function renderCoach(snap, on, you = null) {
  const panel = $('#coach-panel');
  const key = on && snap ? `${snap.game}:${snap.moves?.length ?? 0}:${snap.generation}:${snap.coach?.ply ?? ''}` : '';
  if (key !== lastKey || !on) clearGhosts();
  lastKey = key;
  panel.hidden = !on || !snap;
  if (panel.hidden) return;
  const lines = sentences(snap, you);
  const box = $('#coach-text');
  const items = lines.length
    ? lines.map((l) => Object.assign(document.createElement('p'), { textContent: l.text, className: `coach-line ${l.fact.kind}` }))
    : [Object.assign(document.createElement('p'), { textContent: t(snap.coach ? 'coach.none' : 'coach.reading'), className: 'coach-line quiet' })];
  box.replaceChildren(...items);
  const line = winLine(snap);
  const button = $('#coach-show');
  button.hidden = !line;
  if (!showing) button.textContent = t('coach.show');
}

/** Wires "Show me"; `snapshot()` answers the snapshot on screen. */
export function installCoach(snapshot) {
  $('#coach-show').addEventListener('click', () => {
    if (showing) {
      clearGhosts();
      return;
    }
    const snap = snapshot();
    const line = winLine(snap);
    if (line) show(line, lastKey);
  });
}

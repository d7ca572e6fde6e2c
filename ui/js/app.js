// Wires backend state to the views. Holds no game rules: everything shown comes from the
// latest snapshot (its fields: src-tauri/src/snapshot.rs; the commands and events:
// src-tauri/src/commands.rs and events.rs; the flow: docs/ARCHITECTURE.md), the user's
// settings (settings.js) and the facts Rust writes (facts.generated.js). The start panel is
// start-panel.js.

import { api, on } from './ipc.js';
import { Board } from './board.js';
import { t, translate, resolveLanguage, errorText, prefetch, levelName } from './i18n.js';
import * as sound from './sound.js';
import { installKeyboard, installWheel } from './keyboard.js';
import { MoveList } from './movelist.js';
import { Editor } from './editor.js';
import { installStartPanel, openStartPanel, isStartPanelOpen, refresh as refreshStartPanel, configOf } from './start-panel.js';
import { installSettings, applySettings, saveSettings, openSettings, settings, withDefaults } from './settings.js';
import { installAnalysis, render as renderAnalysis, heatCandidates } from './analysis.js';
import { installCoach, renderCoach } from './coach.js';
import { installClock, renderClock } from './clock.js';
import { installReview, renderReview, betterMove, startReview } from './review.js';
import { installEngines, engineName, render as renderEngines } from './engines.js';
import { installOpening, renderOpening, boardChoice } from './opening.js';
import { installSoftwarePaint } from './paint.js';

const $ = (sel) => document.querySelector(sel);

// WebKitGTK (Linux) paints this page in software: the app turns its hardware acceleration off
// (src-tauri/src/webview.rs). There a blurred shadow is blurred again at every repaint that
// touches it, so the page uses zero-blur shadows (base.css, `data-paint="software"`, set by
// boot.js before the first frame), and the board's wood and stones as bitmaps (paint.js).

const state = {
  snapshot: null,
  progress: null, // latest ai-progress for the current generation
  cursor: null,
  showCursor: false,
  // The player's stone {x, y, color}, drawn at the click until the backend's snapshot
  // confirms it (the snapshot has the stone) or refuses it (an error, said in words).
  provisional: null,
};

let board;
let moveList;
let editor;

// ---------------------------------------------------------------- helpers

const colorName = (c) => t(`color.${c}`);
const isHuman = (snap, color) => snap?.players?.[color]?.type === 'human';
const otherColor = (c) => (c === 'black' ? 'white' : 'black');
const gameOn = (snap) => !!snap && !snap.result;

/** A point in the game's notation, from the snapshot's labels (the engine's notation). */
function pointLabel(snap, p) {
  return p ? `${snap.columns?.[p.x] ?? ''}${snap.rows?.[p.y] ?? ''}` : '';
}

/** A score as people read it, from the point of view of the side that searched. */
export function formatScore(score, game) {
  if (!score) return '';
  switch (score.kind) {
    case 'win': return t('score.win', { n: score.value });
    case 'loss': return t('score.loss', { n: score.value });
    case 'exact': return t('score.exact', { value: (score.value > 0 ? '+' : '') + score.value });
    default: {
      const v = game === 'reversi' ? score.value / 100 : score.value;
      const text = game === 'reversi' ? v.toFixed(2) : String(v);
      return v > 0 ? `+${text}` : text;
    }
  }
}

function compact(n) {
  if (n == null) return '';
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** Candidate scores to 0..1 intensities for the heat map (best = 1). */
export function heatFrom(candidates) {
  const list = (candidates || []).filter((c) => Number.isInteger(c?.x) && Number.isInteger(c?.y));
  if (!list.length) return [];
  const num = (s) => {
    if (!s) return 0;
    if (s.kind === 'win') return 1e9 - s.value;
    if (s.kind === 'loss') return -1e9 + s.value;
    return s.value ?? 0;
  };
  const values = list.map((c) => num(c.score));
  const ranked = [...values].sort((a, b) => b - a);
  return list.map((c, i) => {
    const rank = ranked.indexOf(values[i]);
    return { x: c.x, y: c.y, v: Math.max(0.12, 1 - rank / Math.max(list.length, 4)) };
  });
}

let toastTimer = 0;
function toast(text, kind = 'error') {
  const el = $('#toast');
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  el.classList.remove('show');
  void el.offsetWidth;
  el.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.classList.remove('show');
    toastTimer = setTimeout(() => (el.hidden = true), 250);
  }, kind === 'error' ? 4500 : 3500);
}

function showError(err) {
  console.warn('command failed', err);
  toast(err?.code === 'bad_setup' ? Editor.refusal(err, colorName) : errorText(err), 'error');
  // A side that must pass: the editor offers the other side to move.
  if (err?.code === 'bad_setup' && err.params?.offer) document.querySelector(`#editor-bar [data-to-move="${err.params.offer}"]`)?.focus();
}

/**
 * Runs a command that answers with a snapshot. The answer and the `snapshot` events may reach
 * the page in any order (a fast computer reply can overtake the answer); apply() draws only
 * the newest of them.
 */
async function command(fn) {
  sound.unlock();
  try {
    const snap = await fn();
    if (snap && typeof snap === 'object' && 'board' in snap) apply(snap);
    return snap;
  } catch (err) {
    showError(err);
    return null;
  }
}

// ---------------------------------------------------------------- snapshots

/** Whether `snap` is older than the one on screen (the backend numbers them in order). */
function stale(snap) {
  const shown = state.snapshot?.seq;
  return typeof snap.seq === 'number' && typeof shown === 'number' && snap.seq <= shown;
}

function apply(snap) {
  if (stale(snap)) return;
  const prev = state.snapshot;
  snap.moves ||= [];
  state.snapshot = snap;
  state.provisional = null;
  if (!snap.thinking || (state.progress && state.progress.generation !== snap.generation)) state.progress = null;

  const sameGame = prev && prev.game === snap.game && prev.size === snap.size;
  const ply = snap.ply ?? snap.moves.length;
  const prevPly = prev ? prev.ply ?? prev.moves.length : 0;
  // Stepping through the line shown changes the ply, not the line (the same nodes); a move
  // played changes both (a new variation may be as long as the line it leaves).
  const sameLine = sameGame && prev.moves.length === snap.moves.length && prev.moves.every((m, i) => m.node === snap.moves[i].node);
  const stepped = sameLine && prevPly !== ply;
  const grew = sameGame && ply > prevPly;
  if (grew) {
    const last = snap.moves[ply - 1];
    if (last && !last.pass) sound.click(snap.game === 'reversi' ? 'disc' : 'stone');
  }
  const newPass = grew && !stepped && snap.moves.slice(prevPly, ply).some((m) => m.pass);
  const noticeChanged = JSON.stringify(prev?.notice ?? null) !== JSON.stringify(snap.notice);
  if (snap.notice && (noticeChanged || newPass)) {
    if (snap.notice.code === 'pass') toast(t('notice.pass', { color: colorName(snap.notice.params?.color) }), 'info');
    else if (snap.notice.code === 'ai_failed') toast(t('notice.ai_failed', snap.notice.params || {}));
    else if (snap.notice.code.startsWith('review_')) toast(t(`notice.${snap.notice.code}`, snap.notice.params || {}));
    else if (snap.notice.code === 'engine_forfeit') toast(forfeitText(snap.notice.params?.color, snap.notice.params?.reason));
    else if (snap.notice.code === 'engine_now_human') toast(t('notice.engine_now_human'), 'info');
    else if (snap.notice.code === 'pasted') toast(t('notice.pasted', { kind: t(`paste.kind.${snap.notice.params?.kind}`) }), 'info');
  }
  // What start-up found wrong with the app's files (corrupt ones moved aside, unreadable ones left alone).
  const fileNotices = snap.fileNotices || [];
  if (fileNotices.length && JSON.stringify(prev?.fileNotices ?? []) !== JSON.stringify(fileNotices)) {
    toast(fileNotices.map((n) => t(`notice.${n.code}`, n.params || {})).join(' '));
  }
  if (!state.cursor || state.cursor.x >= snap.size || state.cursor.y >= snap.size) {
    const mid = Math.floor((snap.size - 1) / 2);
    state.cursor = { x: mid, y: mid };
  }
  render();
  if (snap.result && prev && !prev.result && sameGame && !stepped) showResult(snap);
}

// Progress (up to ten a second) changes only the analysis line and the heat map. Both are
// written in one animation frame, the analysis line at every report and the heat map at most
// HEAT_EVERY_MS apart (the eye needs no more; each repaint of the board costs a core's share
// in WebKitGTK's software painting), and only the heat cells that changed (board.setHeat).
const HEAT_EVERY_MS = 250;
const progressPaint = { frame: 0, timer: 0, heatAt: -Infinity };

function onProgress(p) {
  const snap = state.snapshot;
  if (!snap || p.generation !== snap.generation) return;
  state.progress = p;
  if (!progressPaint.frame) progressPaint.frame = requestAnimationFrame(paintProgress);
}

function paintProgress(now) {
  progressPaint.frame = 0;
  const snap = state.snapshot;
  if (!snap?.thinking) return;
  const text = analysisText(snap);
  const el = $('#analysis');
  if (el.textContent !== text) el.textContent = text;
  const wait = progressPaint.heatAt + HEAT_EVERY_MS - now;
  if (wait <= 0) {
    progressPaint.heatAt = now;
    board.setHeat(heatOf(snap));
  } else if (!progressPaint.timer) {
    progressPaint.timer = setTimeout(() => {
      progressPaint.timer = 0;
      if (!progressPaint.frame) progressPaint.frame = requestAnimationFrame(paintProgress);
    }, wait);
  }
}

/** Drops a pending progress paint (a snapshot draws everything anew). */
function cancelProgressPaint() {
  cancelAnimationFrame(progressPaint.frame);
  clearTimeout(progressPaint.timer);
  progressPaint.frame = 0;
  progressPaint.timer = 0;
}

// ---------------------------------------------------------------- rendering

function boardConfig(snap) {
  const s = settings();
  const reversi = snap?.game === 'reversi';
  const labels = {
    board: snap ? t('board.label', { game: t(`game.${snap.game}`), size: snap.size }) : '',
    empty: t('cell.empty'),
    black: t(reversi ? 'cell.disc.black' : 'cell.stone.black'),
    white: t(reversi ? 'cell.disc.white' : 'cell.stone.white'),
    cell: t('cell.label'),
  };
  if (!snap) {
    return { game: 'gomoku', size: 15, stones: null, labels, interactive: false, ghost: null,
      showCoordinates: s.showCoordinates, lastMove: null, heat: [], line: [], legal: [], forbidden: [], hint: null };
  }
  const editing = !!snap.editor;
  const on = gameOn(snap) && !editing;
  const humanToMove = on && snap.toMove && isHuman(snap, snap.toMove);
  const thinking = snap.thinking;
  const numbers = Array.from({ length: snap.size }, () => Array(snap.size).fill(null));
  const ply = snap.ply ?? snap.moves.length;
  if (!editing) {
    snap.moves.slice(0, ply).forEach((m, i) => {
      if (!m.pass && numbers[m.y]) numbers[m.y][m.x] = i + 1;
    });
  }
  let stones = snap.board;
  const p = state.provisional;
  if (p) {
    stones = snap.board.map((row, y) => (y === p.y ? row.map((c, x) => (x === p.x ? p.color : c)) : row));
  }
  return {
    game: snap.game,
    size: snap.size,
    stones,
    provisional: p,
    lastMove: editing ? null : snap.lastMove,
    numbers,
    showNumbers: s.showMoveNumbers,
    showCoordinates: s.showCoordinates,
    columns: snap.columns,
    rows: snap.rows,
    forbidden: humanToMove && snap.toMove === 'black' ? snap.forbidden || [] : [],
    legal: humanToMove && !thinking ? snap.legalMoves || [] : [],
    // The engine's suggestion: a hint asked for, or the review's better move where the move
    // shown was a mistake.
    hint: (on ? snap.hint : null) ?? betterMove(snap),
    line: editing ? [] : snap.result?.line || [],
    heat: editing ? [] : heatOf(snap),
    flipped: editing ? [] : snap.flipped || [],
    ghost: editing ? (editor.tool === 'erase' ? null : editor.tool) : humanToMove && !thinking ? snap.toMove : null,
    interactive: on || editing,
    cursor: state.cursor,
    showCursor: state.showCursor,
    labels,
  };
}

/** The heat map: the latest progress's candidates while thinking, else the snapshot's. */
function heatOf(snap) {
  if (snap.thinking && state.progress?.candidates?.length) return heatFrom(state.progress.candidates);
  return snap.thinking || snap.hint ? heatFrom(snap.heat) : heatFrom(heatCandidates());
}

function statusText(snap) {
  if (!snap) return t('status.no_game');
  if (snap.result) {
    const reason = reasonText(snap.result);
    return snap.result.winner
      ? t('status.over.win', { color: colorName(snap.result.winner), reason })
      : t('status.over.draw', { reason });
  }
  if (snap.thinking) {
    const player = snap.players?.[snap.thinking.color];
    if (player?.type === 'external') return t('status.engine_thinking', { name: engineName(player.id), color: colorName(snap.thinking.color) });
    return isHuman(snap, snap.thinking.color) ? t('status.hinting') : t('status.thinking', { color: colorName(snap.thinking.color) });
  }
  if (snap.hint) return t('status.hint_ready', { point: pointLabel(snap, snap.hint) });
  if (!snap.toMove) return '';
  const humans = ['black', 'white'].filter((c) => isHuman(snap, c)).length;
  return isHuman(snap, snap.toMove) && humans === 1
    ? t('status.your_turn', { color: colorName(snap.toMove) })
    : t('status.to_move', { color: colorName(snap.toMove) });
}

function reasonText(result) {
  const loser = result.winner ? otherColor(result.winner) : null;
  // A program's forfeit ({forfeit: "timeout"}): the engine that lost, and why.
  const forfeit = result.reason?.forfeit;
  if (forfeit) return forfeitText(loser, forfeit);
  return t(`result.reason.${result.reason}`, { color: loser ? colorName(loser) : '' });
}

/** "pbrain-x lost: it did not answer in time" (the side's colour when no engine played it). */
function forfeitText(color, reason) {
  const player = state.snapshot?.players?.[color];
  const name = player?.type === 'external' ? engineName(player.id) : colorName(color);
  return t('result.reason.forfeit', { name, why: t(`forfeit.${reason}`) });
}

/** The shapes the last stone made, in words: "Black h8: four + open three". */
function shapesText(snap) {
  if (!snap?.lastShapes?.length || snap.result || !snap.lastMove) return '';
  const last = snap.board?.[snap.lastMove.y]?.[snap.lastMove.x];
  if (!last) return '';
  const shapes = snap.lastShapes.map((key) => t(`pattern.${key}`)).join(' + ');
  return t('analysis.shapes', { color: colorName(last), point: pointLabel(snap, snap.lastMove), shapes });
}

function analysisText(snap) {
  if (!snap?.thinking) return '';
  const p = state.progress || snap.thinking;
  const parts = [];
  if (p.depth) parts.push(t('analysis.depth', { depth: p.seldepth && p.seldepth > p.depth ? `${p.depth}/${p.seldepth}` : p.depth }));
  if (p.score) parts.push(t('analysis.score', { score: formatScore(p.score, snap.game) }));
  if (p.nodes) parts.push(t('analysis.nodes', { nodes: compact(p.nodes) }));
  if (p.nps) parts.push(t('analysis.nps', { nps: compact(p.nps) }));
  let text = parts.join(' · ');
  if (p.pv?.length) text += `\n${p.pv.slice(0, 8).join(' ')}`;
  return text;
}

function renderPlayers(snap) {
  const humans = snap ? ['black', 'white'].filter((c) => isHuman(snap, c)).length : 0;
  for (const color of ['black', 'white']) {
    const el = $(`#player-${color}`);
    const player = snap?.players?.[color];
    el.querySelector('.name').textContent = colorName(color);
    let kind = '';
    if (player?.type === 'human') kind = humans === 1 ? t('player.you') : t('player.human');
    else if (player?.type === 'computer') kind = `${t('player.computer')} · ${levelName(player.level)}`;
    else if (player?.type === 'external') kind = `${t('player.engine')} · ${engineName(player.id)}`;
    el.querySelector('.kind').textContent = kind;
    const count = snap?.game === 'reversi' ? snap.counts?.[color] : null;
    el.querySelector('.count').textContent = count == null ? '' : String(count);
    el.querySelector('.count').setAttribute('aria-label', count == null ? '' : t('counts.label', { n: count }));
    el.classList.toggle('active', !!snap && gameOn(snap) && snap.toMove === color);
    el.classList.toggle('thinking', !!snap?.thinking && snap.thinking.color === color && !isHuman(snap, color));
    el.classList.toggle('winner', !!snap?.result && snap.result.winner === color);
  }
}

function renderMoves(snap) {
  moveList.render(snap);
  const ply = snap?.ply ?? snap?.moves?.length ?? 0;
  for (const b of document.querySelectorAll('[data-nav]')) {
    const back = b.dataset.nav === 'first' || b.dataset.nav === 'back';
    b.disabled = !snap || !!snap.editor || (back ? ply === 0 : ply >= (snap.moves?.length || 0));
  }
}

function renderControls(snap) {
  const on = gameOn(snap);
  const thinking = snap?.thinking;
  const computerThinking = !!thinking && !isHuman(snap, thinking.color);
  const humanToMove = on && isHuman(snap, snap.toMove);
  $('#btn-undo').disabled = !snap?.canUndo;
  $('#btn-redo').disabled = !snap?.canRedo;
  $('#btn-hint').disabled = !humanToMove || !!thinking;
  // An external engine keeps its own time: it cannot be told to move now.
  $('#btn-stop').disabled = !computerThinking || snap.players?.[thinking.color]?.type === 'external';
  $('#btn-resign').disabled = !on || !['black', 'white'].some((c) => isHuman(snap, c));
  $('#btn-save').disabled = !snap;
  // A position stepped back to at the computer's turn: it moves from there when asked.
  $('#btn-computer-here').hidden = !snap?.computerCanPlay;
}

function render() {
  const snap = state.snapshot;
  cancelProgressPaint();
  board.set(boardConfig(snap));
  $('#status').textContent = statusText(snap);
  $('#shapes').textContent = shapesText(snap);
  $('#analysis').textContent = analysisText(snap);
  document.body.classList.toggle('is-thinking', !!snap?.thinking);
  $('#game-title').textContent = snap
    ? snap.game === 'gomoku'
      ? `${t('game.gomoku')} · ${t(`rule.${snap.rule}`)} · ${snap.size} × ${snap.size}`
      : t('game.reversi')
    : '';
  renderPlayers(snap);
  renderControls(snap);
  renderMoves(snap);
  renderAnalysis(snap);
  editor.render(snap);
  renderCoach(snap, !!settings().coach, soleHuman(snap));
  renderClock(snap);
  renderReview(snap);
  renderOpening(snap);
}

/** The colour the one human player plays, or null (two players, or none). */
function soleHuman(snap) {
  const humans = ['black', 'white'].filter((c) => isHuman(snap, c));
  return humans.length === 1 ? humans[0] : null;
}

// ---------------------------------------------------------------- result dialog

function showResult(snap) {
  const r = snap.result;
  const humans = ['black', 'white'].filter((c) => isHuman(snap, c));
  let title;
  if (!r.winner) title = t('result.draw');
  else if (humans.length === 1) title = r.winner === humans[0] ? t('result.you_win') : t('result.you_lose');
  else title = t('result.win', { color: colorName(r.winner) });
  const dialog = $('#result-dialog');
  dialog.dataset.winner = r.winner || 'draw';
  dialog.querySelector('.piece').className = `piece ${r.winner || 'draw'}`;
  $('#result-title').textContent = title;
  // A sentence starts with a capital, except an engine's own name ("pbrain-x lost: ...").
  const reason = reasonText(r);
  $('#result-reason').textContent = r.reason?.forfeit ? reason : reason.replace(/^./, (c) => c.toUpperCase());
  const details = [];
  if (r.discs) details.push(t('result.discs', r.discs));
  details.push(t('result.moves', { n: snap.moves.filter((m) => !m.pass).length }));
  $('#result-detail').textContent = details.join(' · ');
  // Closed with Escape, the dialog keeps the last button's value: a new result starts blank.
  dialog.returnValue = '';
  if (!dialog.open) dialog.showModal();
}

// ---------------------------------------------------------------- actions

/** Starts the game `config` (the start panel's choice); throws when the backend refuses it. */
async function startGame(config) {
  const snap = await api.newGame(config);
  $('#result-dialog').open && $('#result-dialog').close();
  if (snap) apply(snap);
  saveSettings({ lastConfig: config });
}

function closeMenus() {
  $('#save-menu').hidden = true;
  $('#btn-save').setAttribute('aria-expanded', 'false');
}

async function save(format) {
  closeMenus();
  try {
    const saved = await api.saveGame(format);
    if (typeof saved === 'string' && saved) toast(t('notice.saved', { path: saved }), 'info');
  } catch (err) {
    if (err.code !== 'cancelled') showError(err);
  }
}

async function open() {
  closeMenus();
  try {
    const snap = await api.openGame();
    if (snap) apply(snap);
  } catch (err) {
    if (err.code !== 'cancelled') showError(err);
  }
}

// Resigning asks once: the first click arms the button for a few seconds.
let resignArmed = 0;
function disarmResign() {
  clearTimeout(resignArmed);
  resignArmed = 0;
  const button = $('#btn-resign');
  button.classList.remove('armed');
  button.querySelector('span').textContent = t('controls.resign');
}
function resign() {
  const button = $('#btn-resign');
  if (!resignArmed) {
    button.classList.add('armed');
    button.querySelector('span').textContent = t('controls.resign_confirm');
    resignArmed = setTimeout(disarmResign, 3000);
    return;
  }
  disarmResign();
  command(api.resign);
}

/**
 * Whether a click at (x, y) may be drawn at once, before the backend answers: only on an empty
 * cell that the snapshot does not mark as forbidden or, when it lists the legal moves, leaves
 * out, at a human's turn. The backend still decides; this only avoids drawing a stone that
 * the current snapshot already shows cannot stay.
 */
function canDrawAtOnce(snap, x, y) {
  if (!gameOn(snap) || snap.thinking || !isHuman(snap, snap.toMove) || state.provisional) return false;
  if (snap.board?.[y]?.[x] !== null) return false;
  const at = (list) => (list || []).some((q) => q.x === x && q.y === y);
  if (snap.toMove === 'black' && at(snap.forbidden)) return false;
  return !snap.legalMoves?.length || at(snap.legalMoves);
}

async function play(x, y) {
  state.cursor = { x, y };
  const snap = state.snapshot;
  const mine = canDrawAtOnce(snap, x, y) ? { x, y, color: snap.toMove } : null;
  if (mine) {
    state.provisional = mine;
    render();
  }
  const answer = await command(() => api.playMove(x, y));
  // Refused (or answered without a snapshot while no event came): take the stone away.
  if (mine && state.provisional === mine) {
    state.provisional = null;
    render();
  }
  return answer;
}

/** Steps through the line shown: back, forward, first, last. */
function step(to) {
  if (!state.snapshot || state.snapshot.editor) return null;
  return command(() => api.navigate({ to }));
}

/** Whether ←/→ move the keyboard cursor (it is shown on the focused board) rather than step. */
function cursorKeys() {
  return state.showCursor && board.el.contains(document.activeElement);
}

/** A click on the board: a move, or in the editor a stone put or taken off. */
function select(x, y) {
  const snap = state.snapshot;
  if (snap?.editor) {
    state.cursor = { x, y };
    return command(() => api.edit({ op: 'set', x, y, stone: editor.stoneFor(snap.board?.[y]?.[x] ?? null) }));
  }
  const choice = boardChoice(snap, x, y);
  if (choice) return command(() => api.openingChoice(choice));
  return play(x, y);
}

/**
 * Copies the line shown (or the position shown) as text: the backend's text, written with
 * the asynchronous clipboard or, where it is refused, through a selected text area. The
 * notice says whether it worked.
 */
async function copy(what) {
  let text;
  try {
    text = await api.copyText(what);
  } catch (err) {
    showError(err);
    return;
  }
  let copied = false;
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      copied = true;
    }
  } catch {
    /* refused: the old way below */
  }
  if (!copied) {
    const focus = document.activeElement;
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.cssText = 'position:fixed;left:-9999px;top:0;opacity:0';
    document.body.append(area);
    area.select();
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    area.remove();
    focus?.focus?.({ preventScroll: true });
  }
  if (copied) toast(t(what === 'line' ? 'notice.copied_line' : 'notice.copied_position'), 'info');
  else toast(t('notice.copy_failed'));
}

function moveCursor(dx, dy) {
  const snap = state.snapshot;
  if (!snap) return;
  const n = snap.size;
  const c = state.cursor || { x: 0, y: 0 };
  state.cursor = { x: Math.min(n - 1, Math.max(0, c.x + dx)), y: Math.min(n - 1, Math.max(0, c.y + dy)) };
  state.showCursor = true;
  render();
}

const anyDialogOpen = () => [...document.querySelectorAll('dialog')].some((d) => d.open);

function wire() {
  board = new Board($('#board'), { onSelect: (x, y) => select(x, y) });
  installOpening({ choose: (choice) => command(() => api.openingChoice(choice)), resume: () => command(() => api.clock({ op: 'resume' })) });
  moveList = new MoveList($('#move-list'), $('#moves-empty'), {
    ply: (ply) => command(() => api.navigate({ to: 'ply', ply })),
    go: (node) => command(() => api.navigate({ to: 'node', node })),
    promote: (node) => command(() => api.variation('promote', node)),
    remove: (node) => command(() => api.variation('delete', node)),
  });
  editor = new Editor({ edit: (op) => command(() => api.edit(op)) });
  installWheel(board.el, step);
  for (const b of document.querySelectorAll('[data-nav]')) b.addEventListener('click', () => step(b.dataset.nav));
  document.addEventListener('paste', (e) => {
    if (anyDialogOpen() || e.target.closest?.('input, select, textarea, [contenteditable="true"]')) return;
    const text = e.clipboardData?.getData('text/plain') || '';
    if (!text.trim()) return;
    e.preventDefault();
    command(() => api.pasteGame(text));
  });

  $('#btn-new').addEventListener('click', openStartPanel);
  $('#btn-open').addEventListener('click', open);
  $('#btn-save').addEventListener('click', (e) => {
    e.stopPropagation();
    const menu = $('#save-menu');
    menu.hidden = !menu.hidden;
    $('#btn-save').setAttribute('aria-expanded', String(!menu.hidden));
    if (!menu.hidden) menu.querySelector('button').focus();
  });
  $('#save-menu').addEventListener('click', (e) => {
    const format = e.target.closest('[data-format]')?.dataset.format;
    if (format) save(format);
  });
  document.addEventListener('click', (e) => {
    if (!e.target.closest('.menu-wrap')) closeMenus();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') closeMenus();
  });
  $('#btn-settings').addEventListener('click', openSettings);
  $('#btn-undo').addEventListener('click', () => command(api.undo));
  $('#btn-redo').addEventListener('click', () => command(api.redo));
  $('#btn-hint').addEventListener('click', () => command(api.hint));
  $('#btn-stop').addEventListener('click', () => command(api.stopThinking));
  $('#btn-computer-here').addEventListener('click', () => command(api.computerPlay));
  $('#btn-resign').addEventListener('click', resign);
  installCoach(() => state.snapshot);
  installClock({ command });

  installStartPanel({
    // The panel opens on the current game's settings (the last ones chosen before any game).
    currentConfig: () => (state.snapshot ? configOf(state.snapshot) : settings().lastConfig),
    start: startGame,
    beforeOpen: closeMenus,
  });
  installEngines({ changed: () => isStartPanelOpen() && refreshStartPanel() });
  installSettings({
    retranslate: () => {
      translate();
      if (isStartPanelOpen()) refreshStartPanel();
      renderEngines();
      render();
    },
    error: showError,
    beforeOpen: closeMenus,
  });

  $('#result-dialog').addEventListener('close', () => {
    const chosen = $('#result-dialog').returnValue;
    if (chosen === 'new') openStartPanel();
    else if (chosen === 'review') startReview();
  });

  installKeyboard(
    {
      left: () => (cursorKeys() ? moveCursor(-1, 0) : step('back')),
      right: () => (cursorKeys() ? moveCursor(1, 0) : step('forward')),
      first: () => step('first'),
      last: () => step('last'),
      escape: () => {
        state.showCursor = false;
        render();
      },
      copy: () => copy('line'),
      copy_position: () => copy('position'),
      up: () => moveCursor(0, -1),
      down: () => moveCursor(0, 1),
      place: () => state.snapshot && state.cursor && select(state.cursor.x, state.cursor.y),
      undo: () => command(api.undo),
      redo: () => command(api.redo),
      new: openStartPanel,
      hint: () => command(api.hint),
      save: () => save('record'),
      open,
    },
    { board: board.el, blocked: anyDialogOpen },
  );
}

async function init() {
  wire();
  // Everything the first screen needs is asked for at once (the texts of the system's
  // language before the setting is known, the snapshot beside the event listeners). A change
  // between the snapshot and the listeners is not lost: once they listen, the snapshot is
  // asked for again, off the first screen's path (apply() keeps the newer of the two).
  prefetch(['en', resolveLanguage('auto')]);
  const saved = api.getSettings().then(withDefaults, (err) => {
    if (err.code !== 'no_backend') showError(err);
    return withDefaults(null);
  });
  const listening = Promise.all([
    on('snapshot', apply),
    on('ai-progress', onProgress),
    installAnalysis({
      board,
      onSelect: (x, y) => play(x, y),
      canPlay: () => {
        const snap = state.snapshot;
        return gameOn(snap) && !snap.editor && !snap.thinking && isHuman(snap, snap.toMove);
      },
      onChange: () => board.set(boardConfig(state.snapshot)),
      onError: showError,
      savedLines: saved.then((s) => s.analysisLines),
      saveLines: (analysisLines) => saveSettings({ analysisLines }),
    }),
    installReview({
      navigate: (ply) => command(() => api.navigate({ to: 'main', ply })),
      onMarks: (marks) => moveList.setMarks(marks),
      onChange: () => board.set(boardConfig(state.snapshot)),
      onError: showError,
    }),
  ]);
  const first = api.getSnapshot().catch(() => null);

  // The marks time the start for scripts/bench-app.mjs.
  const mark = (name) => performance.mark(`tengen-${name}`);
  mark('init');
  // The texts and the board go into one layout and one paint: applied apart, the page is
  // laid out and painted twice before the board shows.
  const [settingsNow, snap] = await Promise.all([saved, first]);
  mark('snapshot');
  await applySettings(settingsNow);
  mark('texts');
  if (snap && snap.board) apply(snap);
  else render();
  if (!state.snapshot) openStartPanel();
  // The first frame with the board has been painted (the listeners need not be in for that);
  // the board's bitmaps (software painting) are drawn after it, off the start's path.
  requestAnimationFrame(() => setTimeout(() => {
    mark('board-drawn');
    installSoftwarePaint();
  }));
  await listening;
  document.documentElement.dataset.ready = 'true';
  mark('rendered');
  api.getSnapshot().then((s) => s?.board && apply(s), () => {});
}

init().catch((err) => {
  console.error(err);
  document.documentElement.dataset.ready = 'error';
});

// The start panel: chooses the next game. Its choices (levels, rules, board sizes, times per
// move, the first game's settings) come from Rust through facts.generated.js; the backend
// checks the game it is asked for (GameConfig::validate), so nothing here decides a rule.

import { t, errorText, levelName } from './i18n.js';
import * as sound from './sound.js';
import { FACTS } from './facts.generated.js';
import { timeControlText } from './clock.js';
import { enginesFor } from './engines.js';

const $ = (sel) => document.querySelector(sel);

let hooks = {
  /** The game to fill the panel from when it opens (a GameConfig, or null). */
  currentConfig: () => null,
  /** Starts the game `config`; throws the backend's error when it is refused. */
  start: async () => {},
  /** Closes whatever else is open before the panel shows. */
  beforeOpen: () => {},
};

// What the panel was filled with, until the fields that depend on the game are rebuilt.
const wanted = { rule: null, size: FACTS.gomokuSizes.default, level: null, time: FACTS.timePerMoveMs.default, clock: 0, opening: null };
const CLOCKS = FACTS.timeControls.offered;
/** The index of a time control among the offered ones (0, no clock, when it is not offered). */
const clockIndex = (tc) => Math.max(0, CLOCKS.findIndex((c) => JSON.stringify(c) === JSON.stringify(tc ?? { type: 'none' })));

/** The settings of the game in a snapshot, in the shape new_game takes. */
export function configOf(snap) {
  return {
    kind: snap.game === 'gomoku' ? { game: 'gomoku', rule: snap.rule, size: snap.size } : { game: snap.game },
    // The settings' players: with an opening rule, black is the first player.
    black: (snap.seats || snap.players)?.black,
    white: (snap.seats || snap.players)?.white,
    timePerMoveMs: snap.timePerMoveMs,
    timeControl: snap.clock?.control ?? { type: 'none' },
    opening: snap.openingRule || 'none',
  };
}

function option(value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  return o;
}

/** Fills the panel from a config; without one, from the backend's first game. */
function fill(config) {
  const form = $('#start-form');
  const c = config?.kind ? config : FACTS.defaultConfig;
  form.game.value = c.kind.game;
  if (c.kind.game === 'gomoku') {
    wanted.rule = c.kind.rule;
    wanted.size = c.kind.size;
  }
  wanted.opening = c.opening || 'none';
  const b = c.black?.type;
  const w = c.white?.type;
  form.side.value = b === 'human' && w === 'human' ? 'both' : b === 'human' ? 'black' : w === 'human' ? 'white' : 'none';
  const program = [c.black, c.white].find((p) => p?.type === 'computer' || p?.type === 'external');
  wanted.level = program?.type === 'external' ? `ext:${program.id}` : program?.level?.level ?? null;
  wanted.time = c.timePerMoveMs;
  wanted.clock = clockIndex(c.timeControl);
  form.size.value = '';
  form.time.value = '';
  form.clock.value = '';
  refresh();
}

/** Rebuilds the fields that depend on the game and the side (and the texts). */
export function refresh() {
  const form = $('#start-form');
  const game = form.game.value;
  const gomoku = game === 'gomoku';
  const sizes = FACTS.gomokuSizes;
  const times = FACTS.timePerMoveMs;

  const rule = wanted.rule || form.rule.value;
  form.rule.replaceChildren(...FACTS.rules.map((r) => option(r, t(`rule.${r}`))));
  form.rule.value = FACTS.rules.includes(rule) ? rule : FACTS.defaultConfig.kind.rule;
  wanted.rule = null;
  // The opening rules that fit the rule (Rust's facts: Soosõrv only under Renju).
  const opening = wanted.opening || form.opening.value || 'none';
  const openings = FACTS.openings.filter((o) => !o.renjuOnly || form.rule.value === 'renju').map((o) => o.rule);
  form.opening.replaceChildren(...openings.map((o) => option(o, t(`opening.rule.${o}`))));
  form.opening.value = gomoku && openings.includes(opening) ? opening : 'none';
  wanted.opening = null;
  $('#field-opening').hidden = !gomoku;
  // Reversi has one rule and one size: only the fields that apply are shown.
  $('#field-rule').hidden = !gomoku;
  $('#field-size').hidden = !gomoku;
  const size = Number(form.size.value) || wanted.size;
  form.size.replaceChildren(...sizes.offered.map((n) => option(n, t('start.size.option', { n }))));
  form.size.value = sizes.offered.includes(size) ? size : sizes.default;

  const levels = FACTS.levels.filter((l) => l.game === game);
  // The external engines the user added for this game (Gomocup brains for Gomoku, NBoard
  // engines for Reversi), beside the levels (value `ext:ID`).
  const external = enginesFor(game).map((e) => ({ level: `ext:${e.id}`, name: e.name, external: true }));
  const choices = [...levels, ...external];
  const byName = (name) => choices.find((l) => l.level === name);
  const first = FACTS.defaultConfig.white.level;
  const pick = byName(wanted.level) || byName(form.level.value) || byName(first?.game === game ? first.level : null) || levels[0];
  form.level.replaceChildren(
    ...choices.map((l) => option(l.level, l.external ? t('start.engine.option', { name: l.name }) : t('level.option', { rank: l.rank, name: levelName(l) }))),
  );
  if (pick) form.level.value = pick.level;
  wanted.level = null;
  form.level.disabled = form.side.value === 'both';

  const clock = form.clock.value === '' ? wanted.clock : Number(form.clock.value);
  form.clock.replaceChildren(...CLOCKS.map((tc, i) => option(i, timeControlText(tc))));
  form.clock.value = String(clock);
  const timed = CLOCKS[clock]?.type !== 'none';

  const time = Number(form.time.value) || wanted.time;
  form.time.replaceChildren(...times.offered.map((ms) => option(ms, t('start.time.option', { s: ms / 1000 }))));
  form.time.value = times.offered.includes(time) ? time : times.default;
  const nobody = form.side.value === 'both';
  // With a clock the computer plans from its clock, not from a time per move.
  form.time.disabled = nobody || timed;
  // Whether the chosen level thinks for this time or at its own pace (Rust's fact).
  const note = pick?.external ? 'start.time.engine' : pick?.followsClock ? 'start.time.follows' : 'start.time.own_pace';
  $('#time-note').textContent = pick && !nobody ? t(note) : '';

  const openingDesc = gomoku && form.opening.value !== 'none'
    ? ` ${t(`opening.rule.${form.opening.value}.desc`)} ${t('start.opening.note')}`
    : '';
  $('#rule-desc').textContent = (gomoku ? t(`rule.${form.rule.value}.desc`) : t('rule.reversi.desc')) + openingDesc;
}

function read() {
  const form = $('#start-form');
  const game = form.game.value;
  const kind = game === 'gomoku' ? { game, rule: form.rule.value, size: Number(form.size.value) } : { game };
  const human = { type: 'human' };
  const ext = /^ext:(\d+)$/.exec(form.level.value);
  const computer = ext ? { type: 'external', id: Number(ext[1]) } : { type: 'computer', level: { game, level: form.level.value } };
  const side = form.side.value;
  return {
    kind,
    black: side === 'black' || side === 'both' ? human : computer,
    white: side === 'white' || side === 'both' ? human : computer,
    timePerMoveMs: Number(form.time.value),
    timeControl: CLOCKS[Number(form.clock.value)] ?? CLOCKS[0],
    opening: game === 'gomoku' ? form.opening.value : 'none',
  };
}

/** Opens the panel on the current game's settings (the last ones chosen before any game). */
export function openStartPanel() {
  hooks.beforeOpen();
  $('#start-error').textContent = '';
  fill(hooks.currentConfig());
  const dialog = $('#start-dialog');
  if (!dialog.open) dialog.showModal();
  $('#start-go').focus();
}

export const isStartPanelOpen = () => $('#start-dialog').open;

async function submit(e) {
  e.preventDefault();
  sound.unlock();
  try {
    await hooks.start(read());
    $('#start-dialog').close();
  } catch (err) {
    $('#start-error').textContent = errorText(err);
  }
}

export function installStartPanel(given) {
  hooks = { ...hooks, ...given };
  const form = $('#start-form');
  form.addEventListener('submit', submit);
  for (const field of [form.game, form.rule, form.side, form.level, form.clock, form.opening]) field.addEventListener('change', () => refresh());
  $('#start-cancel').addEventListener('click', () => $('#start-dialog').close());
}

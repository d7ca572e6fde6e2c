// The settings dialog and the settings in force: language, theme, sound, board marks, search
// threads, engine memory. The
// defaults come from Rust (facts.generated.js); the backend checks and stores what is saved.

import { api } from './ipc.js';
import { t, setLanguage, resolveLanguage, levelName } from './i18n.js';
import * as sound from './sound.js';
import { FACTS } from './facts.generated.js';

const $ = (sel) => document.querySelector(sel);
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');

let current = { ...FACTS.defaultSettings };
let hooks = {
  /** The texts changed language: redraw everything that shows words. */
  retranslate: () => {},
  /** A save failed for another reason than a missing backend. */
  error: () => {},
  /** Closes whatever else is open before the dialog shows. */
  beforeOpen: () => {},
};

/** The settings in force. */
export const settings = () => current;

/** Saved settings over the defaults (a field the backend left out keeps its default). */
export const withDefaults = (saved) => ({ ...FACTS.defaultSettings, ...(saved && typeof saved === 'object' ? saved : {}) });

function resolvedTheme(setting) {
  if (setting === 'light' || setting === 'dark') return setting;
  return systemDark.matches ? 'dark' : 'light';
}

/** Puts `next` in force: theme, sound, language (then `retranslate` unless told not to), form. */
export async function applySettings(next, { translateNow = true } = {}) {
  current = withDefaults(next);
  const s = current;
  document.documentElement.dataset.theme = resolvedTheme(s.theme);
  document.documentElement.dataset.themeSetting = s.theme;
  // For the next start's first frame (boot.js).
  try {
    localStorage.setItem('tengen.theme', s.theme);
  } catch {
    // No storage: the next start begins with the system's theme.
  }
  sound.setEnabled(s.sound);
  await setLanguage(resolveLanguage(s.language));
  if (translateNow) hooks.retranslate();
  const form = $('#settings-dialog form');
  form.language.value = s.language;
  form.theme.value = s.theme;
  form.sound.checked = !!s.sound;
  form.showCoordinates.checked = !!s.showCoordinates;
  form.showMoveNumbers.checked = !!s.showMoveNumbers;
  form.coach.checked = !!s.coach;
  fillThreads(form.threads, s.threads);
  fillMemory(form.engineMemoryMib, s.engineMemoryMib);
}

/** The engine memory choices (the backend's, in MiB), in words of the language in force. */
function fillMemory(select, mib) {
  const offered = FACTS.engineMemoryMib.offered;
  select.replaceChildren(...offered.map((n) => new Option(t('settings.memory.mib', { n }), String(n))));
  select.value = String(offered.includes(mib) ? mib : FACTS.engineMemoryMib.default);
}

/** The threads choices: automatic, then 1 to the machine's cores (and the value in force). */
function fillThreads(select, threads) {
  const most = Math.max(navigator.hardwareConcurrency || 1, Number.isInteger(threads) ? threads : 1);
  while (select.options.length > most + 1) select.remove(select.options.length - 1);
  for (let n = select.options.length; n <= most; n++) select.add(new Option(String(n), String(n)));
  select.value = Number.isInteger(threads) ? String(threads) : 'auto';
}

/** A form control's value as the settings hold it. */
function valueOf(el) {
  if (el.type === 'checkbox') return el.checked;
  if (el.name === 'threads') return el.value === 'auto' ? null : Number(el.value);
  if (el.name === 'engineMemoryMib') return Number(el.value);
  return el.value;
}

/** Applies `change` at once, then has the backend check and keep it. */
export async function saveSettings(change) {
  const next = { ...current, ...change };
  await applySettings(next);
  try {
    const saved = await api.setSettings(next);
    if (saved && typeof saved === 'object') current = withDefaults(saved);
  } catch (err) {
    if (err.code !== 'no_backend') hooks.error(err);
  }
}

export function openSettings() {
  hooks.beforeOpen();
  $('#settings-dialog').showModal();
  renderStats();
}

/** Wins, losses and draws per game, rule and level, when the backend keeps them. */
async function renderStats() {
  const box = $('#stats');
  let rows = null;
  try {
    rows = await api.getStats();
  } catch {
    rows = null;
  }
  const valid = Array.isArray(rows) && rows.filter((r) => r && r.game && Number.isFinite(r.wins ?? 0));
  if (!valid || !valid.length) {
    box.replaceChildren(Object.assign(document.createElement('p'), { textContent: t('settings.stats.none') }));
    return;
  }
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const key of ['stats.game', 'stats.level', 'stats.wins', 'stats.losses', 'stats.draws']) {
    const th = document.createElement('th');
    th.textContent = t(key);
    head.append(th);
  }
  const body = table.createTBody();
  for (const r of valid) {
    const tr = body.insertRow();
    const game = r.game === 'gomoku' && r.rule ? `${t('game.gomoku')} · ${t(`rule.${r.rule}`)}` : t(`game.${r.game}`);
    const level = r.level ? levelName({ game: r.game, level: typeof r.level === 'string' ? r.level : r.level.level }) : '';
    for (const v of [game, level, r.wins ?? 0, r.losses ?? 0, r.draws ?? 0]) tr.insertCell().textContent = String(v);
  }
  box.replaceChildren(table);
}

export function installSettings(given) {
  hooks = { ...hooks, ...given };
  $('#settings-dialog form').addEventListener('change', async (e) => {
    const el = e.target;
    await saveSettings({ [el.name]: valueOf(el) });
    // The statistics table is written in words of the language chosen.
    if (el.name === 'language' && $('#settings-dialog').open) renderStats();
  });
  systemDark.addEventListener('change', () => {
    document.documentElement.dataset.theme = resolvedTheme(current.theme);
  });
}

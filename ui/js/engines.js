// Settings → Engines: the external engines the user added, each with its protocol: Gomocup
// brains (pbrain-*, Gomoku) and NBoard engines (Reversi). "Add Gomoku engine…" / "Add Reversi
// engine…" open the backend's file dialog for that protocol (the page never names a path),
// Check starts the engine again and shows its answer (ABOUT; NBoard: its name), Remove drops it. The list also names the engines in the start panel and
// in the result of a game an engine lost.

import { api } from './ipc.js';
import { t, errorText } from './i18n.js';

const $ = (sel) => document.querySelector(sel);

let list = [];
// What the status line says, kept as a function so a change of language writes it again.
let said = () => '';
let saidKind = 'info';
let hooks = {
  /** The list changed (the start panel offers the engines). */
  changed: () => {},
};

/** The engines the user added: [{id, protocol, name, about, path, added}]. */
export const engines = () => list;

/** The protocol of engine entry `e` (lists from before NBoard engines hold Gomocup brains). */
export const protocolOf = (e) => e?.protocol || 'gomocup';

/** The engines that play `game` ('gomoku': Gomocup brains, 'reversi': NBoard engines). */
export const enginesFor = (game) => list.filter((e) => protocolOf(e) === (game === 'reversi' ? 'nboard' : 'gomocup'));

/** The name of engine `id` (or "#id" when it is no longer listed). */
export function engineName(id) {
  return list.find((e) => e.id === id)?.name || `#${id}`;
}

/** An engine error in words: the backend's `problem` code with the path and the seconds. */
export function engineErrorText(err, protocol = 'gomocup') {
  if (err?.code === 'engine_error' && err.params?.problem) {
    const key = `engines.problem.${err.params.problem}`;
    return t(protocol === 'nboard' && ['no_answer', 'bad_answer'].includes(err.params.problem) ? `${key}.nboard` : key, err.params);
  }
  return errorText(err);
}

/** Reads the list from the backend (empty without one). */
export async function loadEngines() {
  try {
    const got = await api.enginesList();
    list = Array.isArray(got) ? got.filter((e) => e && Number.isInteger(e.id)) : [];
  } catch {
    list = [];
  }
  render();
  hooks.changed();
  return list;
}

function status(words, kind = 'info') {
  said = typeof words === 'function' ? words : () => words;
  saidKind = kind;
  const el = $('#engines-status');
  el.textContent = said();
  el.dataset.kind = kind;
}

function button(key, testid, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn small';
  b.dataset.testid = testid;
  b.textContent = t(key);
  b.addEventListener('click', onClick);
  return b;
}

/** Runs a command that may take seconds (an engine starting), with the buttons disabled. */
async function busy(text, work, protocol) {
  const box = $('#engines');
  box.querySelectorAll('button').forEach((b) => (b.disabled = true));
  status(text);
  try {
    await work();
  } catch (err) {
    if (err?.code !== 'cancelled') status(() => engineErrorText(err, protocol), 'error');
    else status('');
  } finally {
    render();
  }
}

function about(entry) {
  status(() => t('engines.about', { name: entry.name, about: entry.about }));
}

async function add(protocol) {
  await busy(t(`engines.adding.${protocol}`), async () => {
    const entry = await api.engineAdd(protocol);
    await loadEngines();
    about(entry);
  }, protocol);
}

async function check(entry) {
  const protocol = protocolOf(entry);
  await busy(t(`engines.checking.${protocol}`, { name: entry.name }), async () => {
    const fresh = await api.engineCheck(entry.id);
    await loadEngines();
    about(fresh);
  }, protocol);
}

async function remove(entry) {
  await busy('', async () => {
    await api.engineRemove(entry.id);
    await loadEngines();
    status(() => t('engines.removed', { name: entry.name }));
  });
}

/** Draws the list (and the texts in the language in force). */
export function render() {
  const box = $('#engines');
  if (!box) return;
  const rows = list.map((e) => {
    const row = document.createElement('li');
    row.className = 'engine';
    row.dataset.testid = 'engine';
    const text = document.createElement('div');
    const name = Object.assign(document.createElement('strong'), { textContent: e.name });
    const date = new Date((e.added || 0) * 1000).toLocaleDateString(document.documentElement.lang || undefined);
    const where = Object.assign(document.createElement('small'), { textContent: e.path, title: e.path });
    const when = Object.assign(document.createElement('small'), {
      textContent: `${t(`engines.kind.${protocolOf(e)}`)} · ${t('engines.added', { date })}`,
    });
    row.dataset.protocol = protocolOf(e);
    text.append(name, where, when);
    row.append(text, button('engines.check', 'engine-check', () => check(e)), button('engines.remove', 'engine-remove', () => remove(e)));
    return row;
  });
  const ul = document.createElement('ul');
  ul.className = 'engine-list';
  ul.append(...rows);
  const none = Object.assign(document.createElement('p'), { className: 'fine', textContent: t('engines.none') });
  const actions = document.createElement('div');
  actions.className = 'engine-actions';
  actions.append(
    button('engines.add.gomocup', 'engine-add', () => add('gomocup')),
    button('engines.add.nboard', 'engine-add-nboard', () => add('nboard')),
  );
  box.replaceChildren(list.length ? ul : none, actions);
  const el = $('#engines-status');
  if (el) {
    el.textContent = said();
    el.dataset.kind = saidKind;
  }
}

export function installEngines(given) {
  hooks = { ...hooks, ...given };
  loadEngines();
}

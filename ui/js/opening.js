// The opening phase (swap, swap2, Soosõrv-8): a banner that says who places what now, with
// the choice buttons, Soosõrv's offered 5th moves marked on the board (numbered ghost stones;
// a click picks one), and the name of the Renju opening the line starts with. The backend
// decides every step (the snapshot's `opening`); this only shows it and sends the choice.
// The same banner says when a restored game waits for Continue to start an external engine.

import { t, textsVersion } from './i18n.js';
import { FACTS } from './facts.generated.js';

const $ = (sel) => document.querySelector(sel);

let hooks = {
  /** Sends an opening choice ({kind: 'take', color} ...); resolves when it is answered. */
  choose: async () => {},
  /** Continue: lets a restored game's external engine start (the clock's resume). */
  resume: async () => {},
};

/** Who acts, in words: "you" or "the computer" against it, else "first/second player". */
function who(snap, view) {
  const role = view.step.role;
  const humans = ['black', 'white'].filter((c) => snap.players?.[c]?.type === 'human').length;
  if (humans === 1) return t(view.computer ? 'opening.who.computer' : 'opening.who.you');
  return t(`opening.who.${role}`);
}

function pointLabel(snap, p) {
  return `${snap.columns?.[p.x] ?? p.x}${snap.rows?.[p.y] ?? p.y}`;
}

/** The step in words: "You: place black stone 2 within the central 3 × 3". */
export function stepText(snap) {
  const view = snap?.opening;
  if (!view?.step) return '';
  const a = view.step.action;
  const params = { who: who(snap, view), n: (snap.moves?.length ?? 0) + 1 };
  switch (a.kind) {
    case 'place':
      params.color = t(`color.${a.color}`);
      if (a.within == null) return t('opening.step.place', params);
      params.size = 2 * a.within + 1;
      return t(a.within === 0 ? 'opening.step.place_centre' : 'opening.step.place_within', params);
    case 'declare':
      return t('opening.step.declare', { ...params, max: a.max });
    case 'offer':
      return t('opening.step.offer', { ...params, made: a.made, of: a.of });
    default:
      return t(`opening.step.${a.kind}`, params);
  }
}

function button(text, testid, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn';
  b.textContent = text;
  b.dataset.testid = testid;
  b.addEventListener('click', onClick);
  return b;
}

/** The buttons of a choice step the human makes (none for stones or the computer's step). */
function actions(view) {
  if (view.computer) return [];
  const a = view.step.action;
  const take = (color) => button(t(`opening.take.${color}`), `opening-take-${color}`, () => hooks.choose({ kind: 'take', color }));
  switch (a.kind) {
    case 'choose_color':
      return [take('black'), take('white')];
    case 'choose_color_or_place_two':
      return [take('black'), take('white'), button(t('opening.place_two'), 'opening-place-two', () => hooks.choose({ kind: 'place_two' }))];
    case 'declare': {
      const select = document.createElement('select');
      select.dataset.testid = 'opening-count';
      select.setAttribute('aria-label', t('opening.count'));
      for (let n = 1; n <= (a.max || FACTS.maxOffers); n += 1) {
        const o = document.createElement('option');
        o.value = String(n);
        o.textContent = String(n);
        select.append(o);
      }
      return [select, button(t('opening.declare'), 'opening-declare', () => hooks.choose({ kind: 'declare', count: Number(select.value) }))];
    }
    default:
      return [];
  }
}

/** The opening's name as the move list shows it: "Opening: Kagetsu (4D)" / "开局：花月（4D）". */
export function nameText(snap) {
  const n = snap?.openingName;
  if (!n) return '';
  return t('opening.name', { name: t('opening.name.style') === 'chinese' ? n.chinese : n.romaji, code: n.code });
}

let shownKey = null;
let marksKey = null;

/** The offered 5th moves as numbered ghost stones of black, in the order offered. */
function renderOfferMarks(snap) {
  const offers = snap?.opening?.step ? offeredPoints(snap) : [];
  const key = JSON.stringify([snap?.size, offers]);
  if (key === marksKey && document.querySelectorAll('.opening-offer').length === offers.length) return;
  marksKey = key;
  for (const m of document.querySelectorAll('.opening-offer')) m.remove();
  offers.forEach((p, i) => {
    const cell = document.getElementById(`cell-${p.x}-${p.y}`);
    if (!cell) return;
    const mark = document.createElement('span');
    mark.className = 'opening-offer black';
    mark.dataset.testid = 'opening-offer';
    mark.textContent = String(i + 1);
    cell.append(mark);
  });
}

/** A restored game waiting for Continue before its external engine starts. */
function renderEngineWaits(snap) {
  $('#opening-title').textContent = t('engine_waits.title');
  $('#opening-text').textContent = t('engine_waits.text', { name: snap.engineWaits });
  $('#opening-offers').textContent = '';
  const key = JSON.stringify(['waits', textsVersion()]);
  if (key !== shownKey) {
    shownKey = key;
    $('#opening-actions').replaceChildren(button(t('engine_waits.continue'), 'engine-continue', () => hooks.resume()));
  }
}

/** Draws the banner, the offered 5th moves and the opening's name for `snap`. */
export function renderOpening(snap) {
  const view = snap?.opening;
  const banner = $('#opening-banner');
  const name = $('#opening-name');
  name.textContent = nameText(snap);
  name.hidden = !name.textContent;
  renderOfferMarks(snap);
  banner.hidden = !view?.step && !snap?.engineWaits;
  if (!view?.step && snap?.engineWaits) {
    renderEngineWaits(snap);
    return;
  }
  if (!view?.step) {
    shownKey = null;
    return;
  }
  $('#opening-title').textContent = t('opening.title', { rule: t(`opening.rule.${view.rule}`) });
  $('#opening-text').textContent = stepText(snap);
  const offers = (view.offers || []).map((p) => pointLabel(snap, p)).join(' ');
  $('#opening-offers').textContent = offers ? t('opening.offers', { list: offers }) : '';
  // Rebuild the buttons only when the step changes (a select keeps its value meanwhile).
  const key = JSON.stringify([view.step, view.computer, textsVersion()]);
  if (key !== shownKey) {
    shownKey = key;
    $('#opening-actions').replaceChildren(...actions(view));
  }
}

/**
 * The opening choice a board click at (x, y) makes (a Soosõrv offer or pick), or null when
 * the click is a stone (or not the human's step).
 */
export function boardChoice(snap, x, y) {
  const view = snap?.opening;
  const kind = view?.step?.action?.kind;
  if (view?.computer || (kind !== 'offer' && kind !== 'pick')) return null;
  return { kind, point: { x, y } };
}

/** The offered 5th moves, for the board's markers. */
export function offeredPoints(snap) {
  return snap?.opening?.offers || [];
}

export function installOpening(given) {
  hooks = { ...hooks, ...given };
}

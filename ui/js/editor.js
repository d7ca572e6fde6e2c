// The board editor: a palette (black, white, erase, the side to move, clear, from the
// position shown, who plays) over the board, and the switch that opens it
// (data-testid="edit"). Each click sends one `edit` step; the backend keeps the position,
// checks it when the editor is left (a refusal comes back in words) and starts the game.
// Holds no rules.

import { t, levelName, language } from './i18n.js';
import { FACTS } from './facts.generated.js';

const $ = (sel) => document.querySelector(sel);

export class Editor {
  /**
   * edit(op): sends one editor step (a promise of the snapshot, null when refused).
   */
  constructor({ edit }) {
    this.edit = edit;
    this.game = null;
    this.tool = 'black';
    this.open = false;
    this.switch = $('#btn-edit');
    this.bar = $('#editor-bar');
    this.switch.addEventListener('click', () => (this.open ? this.edit({ op: 'cancel' }) : this.edit({ op: 'enter', from_current: true })));
    this.bar.addEventListener('click', (e) => {
      const b = e.target.closest('button');
      if (!b) return;
      if (b.dataset.tool) {
        this.tool = b.dataset.tool;
        this.sync();
      } else if (b.dataset.toMove) this.edit({ op: 'to_move', color: b.dataset.toMove });
      else if (b.dataset.op === 'clear') this.edit({ op: 'clear' });
      else if (b.dataset.op === 'from_current') this.edit({ op: 'from_current' });
      else if (b.dataset.op === 'cancel') this.edit({ op: 'cancel' });
      else if (b.dataset.op === 'done') this.done();
    });
    $('#editor-players').addEventListener('change', () => ($('#editor-level').disabled = $('#editor-players').value === 'both'));
    // The board shrinks under the palette by the palette's own height (one row, or two when
    // a narrow window wraps it).
    new ResizeObserver(([entry]) => {
      const height = entry.target.offsetHeight;
      if (height) this.bar.parentElement.style.setProperty('--editor-bar-h', `${height + 8}px`);
    }).observe(this.bar);
  }

  /** Who plays the edited position: two people, or you against the level chosen. */
  done() {
    const choice = $('#editor-players').value;
    const human = { type: 'human' };
    const computer = { type: 'computer', level: { game: this.game, level: $('#editor-level').value } };
    const black = choice === 'white' ? computer : human;
    const white = choice === 'black' ? computer : human;
    this.edit({ op: 'done', black, white });
  }

  /** The levels of the game edited, the current game's computer level chosen first. */
  fillLevels(snap) {
    const game = snap?.game;
    const select = $('#editor-level');
    const filled = `${game} ${language()}`;
    if (this.open && game && filled !== this.filled) {
      const keep = game === this.game ? select.value : null;
      this.game = game;
      this.filled = filled;
      const levels = FACTS.levels.filter((l) => l.game === game);
      select.replaceChildren(...levels.map((l) => new Option(t('level.option', { rank: l.rank, name: levelName(l) }), l.level)));
      const playing = ['black', 'white'].map((c) => snap.players?.[c]).find((p) => p?.type === 'computer');
      select.value = keep || playing?.level?.level || levels.at(-1)?.level;
    }
    select.disabled = $('#editor-players').value === 'both';
  }

  /** The colour a click on a point puts there (null: take the stone off). */
  stoneFor(current) {
    if (this.tool === 'erase') return null;
    return current === this.tool ? null : this.tool;
  }

  /** Follows the snapshot: open or closed, the side to move. */
  render(snap) {
    this.open = !!snap?.editor;
    this.toMove = snap?.editor?.toMove || null;
    this.switch.setAttribute('aria-pressed', String(this.open));
    this.switch.disabled = !snap;
    this.bar.hidden = !this.open;
    document.body.classList.toggle('is-editing', this.open);
    this.fillLevels(snap);
    this.sync();
  }

  sync() {
    for (const b of this.bar.querySelectorAll('[data-tool]')) b.setAttribute('aria-pressed', String(b.dataset.tool === this.tool));
    for (const b of this.bar.querySelectorAll('[data-to-move]')) b.setAttribute('aria-pressed', String(b.dataset.toMove === this.toMove));
  }

  /** The words of a refused position: `error.bad_setup.<reason>`. */
  static refusal(err, colorName) {
    const p = err?.params || {};
    const named = {};
    for (const k of ['color', 'expected', 'offer']) if (p[k]) named[k] = colorName(p[k]);
    return t(`error.bad_setup.${p.reason}`, { ...p, ...named });
  }
}

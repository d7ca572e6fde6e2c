// The board editor: a palette (black, white, erase, the side to move, clear, from the
// position shown, who plays) over the board, and the switch that opens it
// (data-testid="edit"). Each click sends one `edit` step; the backend keeps the position,
// checks it when the editor is left (a refusal comes back in words) and starts the game.
// Holds no rules.

import { t } from './i18n.js';

const $ = (sel) => document.querySelector(sel);

export class Editor {
  /**
   * edit(op): sends one editor step (a promise of the snapshot, null when refused);
   * players(): the current game's players, for "who plays".
   */
  constructor({ edit, players }) {
    this.edit = edit;
    this.players = players;
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
  }

  /** Who plays the edited position: "you play black / white", or two people. */
  done() {
    const choice = $('#editor-players').value;
    const current = this.players();
    const level = ['black', 'white'].map((c) => current?.[c]).find((p) => p?.type === 'computer') || null;
    const human = { type: 'human' };
    let black = human;
    let white = human;
    if (level && choice === 'black') white = level;
    if (level && choice === 'white') black = level;
    this.edit({ op: 'done', black, white });
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
    const computer = ['black', 'white'].some((c) => snap?.players?.[c]?.type === 'computer');
    $('#editor-players').disabled = !computer;
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

// The move list: the line shown (snapshot.moves) in numbered rows, each move a button that
// shows its position (data-ply, 1-based; aria-current="step" on the position shown), the
// moves after the position shown dimmed, and the variations tried at each move inline after
// its row with their first moves, "(3. h8 i9 j10 …)", each a button into that line, as
// Sabaki and Yixin-Board list them. A right click (or the context-menu key) on a
// move or a variation offers "make main line" and "delete from here". Holds no rules: the
// tree is the backend's (src-tauri/src/snapshot.rs).
//
// Stepping through a long game redraws nothing but the two entries whose aria-current
// changes: the list is rebuilt only when the line itself (its nodes or variations) changes.

import { t, textsVersion } from './i18n.js';

export class MoveList {
  /**
   * list: the <ol>; empty: the "no moves" text; actions: { go(node), ply(n), promote(node),
   * remove(node) }.
   */
  constructor(list, empty, actions) {
    this.list = list;
    this.empty = empty;
    this.actions = actions;
    this.key = null;
    this.entries = [];
    this.current = null;
    this.menu = null;
    /** The review's marks: [{ply, played, mark, verdict, text}] (see review.js). */
    this.marks = [];
    list.addEventListener('click', (e) => {
      const el = e.target.closest('[data-node]');
      if (!el) return;
      if (el.dataset.ply) actions.ply(Number(el.dataset.ply));
      else actions.go(Number(el.dataset.node));
    });
    list.addEventListener('contextmenu', (e) => {
      const el = e.target.closest('[data-node]');
      if (!el) return;
      e.preventDefault();
      this.openMenu(el, Number(el.dataset.node));
    });
    document.addEventListener('click', (e) => {
      if (this.menu && !this.menu.contains(e.target)) this.closeMenu();
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.closeMenu();
    });
  }

  /** Draws `snap`'s line; only aria-current moves when the line and the texts are unchanged. */
  render(snap) {
    const moves = snap?.moves || [];
    this.empty.hidden = moves.length > 0;
    const altKey = (a) => [a.node, ...(a.then || []).map((b) => b.node), a.more ? '…' : ''];
    const key = JSON.stringify(moves.map((m) => [m.node, m.label, m.branch || 0, (m.alts || []).map(altKey)]))
      + (snap?.result ? '!' : '') + textsVersion();
    if (key !== this.key) {
      this.key = key;
      this.build(moves);
      this.current = null;
    }
    this.mark(snap?.ply ?? moves.length);
  }

  build(moves) {
    const rows = [];
    let row = null;
    moves.forEach((m, i) => {
      if (!row || m.color === 'black' || row.white) {
        row = { n: rows.length + 1, black: null, white: null, alts: [] };
        rows.push(row);
      }
      row[m.color === 'white' ? 'white' : 'black'] = { ...m, index: i };
      if (m.alts?.length) row.alts.push({ at: m, alts: m.alts });
    });
    this.entries = [];
    const frag = document.createDocumentFragment();
    for (const r of rows) {
      const li = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'n';
      num.textContent = `${r.n}.`;
      li.append(num);
      for (const color of ['black', 'white']) {
        const m = r[color];
        if (!m) {
          const span = document.createElement('span');
          span.className = `mv ${color}`;
          li.append(span);
          continue;
        }
        const b = document.createElement('button');
        b.type = 'button';
        b.className = `mv ${color}`;
        b.textContent = m.pass ? t('moves.pass') : m.label;
        b.dataset.ply = String(m.index + 1);
        b.dataset.label = m.label;
        b.dataset.node = String(m.node);
        if (m.pass) b.classList.add('pass');
        if (m.branch) {
          b.classList.add('var');
          b.title = t('moves.variation');
        }
        this.entries[m.index] = b;
        li.append(b);
      }
      for (const { at, alts } of r.alts) {
        const box = document.createElement('span');
        box.className = 'alts';
        box.setAttribute('aria-label', t('moves.variations', { label: at.label }));
        // Each variation as Sabaki and Yixin-Board write it: "(3. h8 i9 j10 …)", every move
        // a button into the line at that move.
        const number = at.color === 'white' ? `${r.n}…` : `${r.n}.`;
        for (const a of alts) box.append(this.variation(a, number));
        li.append(box);
      }
      frag.append(li);
    }
    this.list.replaceChildren(frag);
    this.applyMarks();
  }

  /** One variation: its number, its first move and the next ones (a, then …). */
  variation(a, number) {
    const line = document.createElement('span');
    line.className = 'alt-line';
    const n = document.createElement('span');
    n.className = 'alt-n';
    n.textContent = number;
    line.append('(', n);
    const steps = [{ node: a.node, label: a.label, first: true }, ...(a.then || [])];
    for (const step of steps) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = step.first ? 'alt' : 'alt next';
      b.dataset.node = String(step.node);
      b.textContent = step.label;
      line.append(b);
    }
    if (a.more) {
      const more = document.createElement('span');
      more.className = 'alt-more';
      more.textContent = '…';
      more.title = t('moves.variation_more');
      line.append(more);
    }
    line.append(')');
    return line;
  }

  /** Shows the review's marks (?!, ?, ??) after the moves of the main line it judged. */
  setMarks(marks) {
    this.marks = marks || [];
    this.applyMarks();
  }

  applyMarks() {
    for (const b of this.list.querySelectorAll('.rv-mark')) b.remove();
    for (const b of this.list.querySelectorAll('[data-verdict]')) {
      delete b.dataset.verdict;
      b.removeAttribute('title');
    }
    for (const m of this.marks) {
      const b = this.entries[m.ply - 1];
      if (!b || b.dataset.label !== m.played || b.classList.contains('var')) continue;
      b.dataset.verdict = m.verdict;
      b.title = m.text;
      if (!m.mark) continue;
      const span = document.createElement('span');
      span.className = `rv-mark ${m.verdict}`;
      span.textContent = m.mark;
      b.append(span);
    }
  }

  /** Marks the entry of the position shown (ply: how many entries lead to it). */
  mark(ply) {
    const el = this.entries[ply - 1] || null;
    if (el === this.current && this.ply === ply) return;
    // Only the entries between the old and the new position change their look.
    const from = this.current ? Math.min(this.ply ?? 0, ply) : 0;
    const to = this.current ? Math.max(this.ply ?? 0, ply) : this.entries.length;
    for (let i = from; i < to; i++) this.entries[i]?.classList.toggle('future', i >= ply);
    this.ply = ply;
    if (this.current) this.current.removeAttribute('aria-current');
    this.current = el;
    if (el) el.setAttribute('aria-current', 'step');
    // Scrolling reads the layout: once a frame, however many steps arrive in it.
    if (!this.scrolling) {
      this.scrolling = true;
      requestAnimationFrame(() => {
        this.scrolling = false;
        if (this.current) this.current.scrollIntoView({ block: 'nearest' });
        else this.list.parentElement.scrollTop = 0;
      });
    }
  }

  openMenu(anchor, node) {
    this.closeMenu();
    const menu = document.createElement('div');
    menu.className = 'menu move-menu';
    menu.setAttribute('role', 'menu');
    menu.dataset.testid = 'move-menu';
    const item = (key, run) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('role', 'menuitem');
      b.textContent = t(key);
      b.addEventListener('click', () => {
        this.closeMenu();
        run(node);
      });
      menu.append(b);
      return b;
    };
    item('moves.promote', this.actions.promote).dataset.action = 'promote';
    item('moves.delete', this.actions.remove).dataset.action = 'delete';
    const r = anchor.getBoundingClientRect();
    menu.style.position = 'fixed';
    menu.style.left = `${Math.round(r.left)}px`;
    menu.style.top = `${Math.round(r.bottom + 2)}px`;
    document.body.append(menu);
    this.menu = menu;
    menu.querySelector('button').focus();
  }

  closeMenu() {
    this.menu?.remove();
    this.menu = null;
  }
}

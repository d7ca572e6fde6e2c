// The board view: renders whole-board data into a CSS grid of cells. No game rules here —
// like chessground/Shudan, it takes plain data through set(config) and reports clicks
// through onSelect(x, y). Cells carry data-x/data-y (0-based from the top-left) and, when
// occupied, data-stone="black"|"white".
//
// Updates touch only what changed: every cell keeps what it shows (cell._shown), and a write
// goes to the DOM only when a value differs from it. Two entry points:
//   set(config)                 merges config and brings every cell up to date (snapshots);
//   updateCells(layer, points, paint)
//                               one layer of per-cell values, without the rest of the board:
//                               points [{x, y, v}] (cells left out get null); paint(cell, v, old)
//                               runs only for the cells whose v changed, and the call answers
//                               how many cells it touched. setHeat(heat) is the heat map's
//                               layer; an overlay (scores, candidates) adds its own the same way.

const SVG = 'http://www.w3.org/2000/svg';

const DEFAULTS = {
  game: 'gomoku', // 'gomoku' (stones on intersections, wood) | 'reversi' (discs in squares, green)
  size: 15,
  stones: null, // stones[y][x] = 'black' | 'white' | null
  provisional: null, // {x, y}: a stone drawn at a click, not yet confirmed by the backend
  lastMove: null, // {x, y}
  numbers: null, // numbers[y][x] = move number | null
  showNumbers: false,
  showCoordinates: true,
  columns: null, // labels left to right
  rows: null, // labels top to bottom
  forbidden: [], // [{x, y, kind}]
  legal: [], // [{x, y}]
  hint: null, // {x, y}
  line: [], // winning line [{x, y}]
  heat: [], // [{x, y, v}] with v in 0..1
  flipped: [], // discs flipped by the last move, animated outward from lastMove
  ghost: null, // colour previewed under the pointer on playable cells, or null
  interactive: true,
  cursor: null, // {x, y} keyboard cursor
  showCursor: false,
  labels: { board: 'Board', empty: 'empty', black: 'black stone', white: 'white stone', cell: '{point}, {what}' },
};

const key = (x, y) => `${x},${y}`;
const setOf = (points) => new Set((points || []).map((p) => key(p.x, p.y)));

/** Star points (hoshi): 天元 in the centre plus the usual corner points. */
export function starPoints(size) {
  const pts = [];
  const edge = size >= 13 ? 3 : size >= 9 ? 2 : -1;
  if (edge >= 0) {
    const far = size - 1 - edge;
    pts.push([edge, edge], [far, edge], [edge, far], [far, far]);
    if (size >= 19 && size % 2 === 1) {
      const mid = (size - 1) / 2;
      pts.push([mid, edge], [mid, far], [edge, mid], [far, mid]);
    }
  }
  if (size % 2 === 1) pts.push([(size - 1) / 2, (size - 1) / 2]);
  return pts;
}

function defaultColumns(size) {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length: size }, (_, i) => letters[i] || String(i + 1));
}

export class Board {
  /**
   * @param {HTMLElement} host element the board is rendered into
   * @param {{onSelect?: (x: number, y: number) => void}} options
   */
  constructor(host, { onSelect } = {}) {
    this.host = host;
    this.onSelect = onSelect || (() => {});
    this.config = { ...DEFAULTS };
    this.cells = [];
    this.prev = null; // previous stones, to find new and flipped ones
    this.shape = '';
    this.el = document.createElement('div');
    this.el.className = 'board';
    this.el.tabIndex = 0;
    this.el.setAttribute('role', 'grid');
    host.replaceChildren(this.el);
    this.el.addEventListener('click', (e) => {
      const cell = e.target.closest?.('.cell');
      if (!cell || !this.config.interactive) return;
      this.onSelect(Number(cell.dataset.x), Number(cell.dataset.y));
    });
    this.el.addEventListener('pointermove', () => {
      if (this.config.showCursor) this.set({ showCursor: false });
    });
    // The board's width in pixels (--w, which sizes the cells): Chromium restyles and lays
    // out every descendant that uses a container query unit (cqw) at each layout of the
    // container, so one stone changed cost the whole board, 3 frames a step (see
    // scripts/bench-steps.mjs). It is set when the board is built (build()), so the first
    // layout of the cells is the last; the observer follows later changes. The CSS falls
    // back to 100cqw until it is known.
    new ResizeObserver(([entry]) => this.setWidth(entry.contentRect.width)).observe(this.el);
  }

  /** Sizes the cells from the board's width in px (--w), when it changed. */
  setWidth(width) {
    const w = `${width}px`;
    if (width > 0 && this.el.style.getPropertyValue('--w') !== w) this.el.style.setProperty('--w', w);
  }

  /** Merges config into the current one and redraws. */
  set(config) {
    Object.assign(this.config, config);
    const c = this.config;
    const shape = `${c.game}:${c.size}`;
    if (shape !== this.shape) {
      this.build();
      this.shape = shape;
      this.prev = null;
    }
    this.render();
  }

  cell(x, y) {
    return this.cells[y * this.config.size + x];
  }

  /**
   * Brings one layer of per-cell values up to date: `points` [{x, y, v}] give the values (a
   * cell left out has null), and `paint(cell, v, old)` runs only for the cells whose value
   * differs from what they show. Answers the number of cells painted.
   */
  updateCells(layer, points, paint) {
    const { size } = this.config;
    const want = new Map();
    for (const p of points || []) {
      if (p.x >= 0 && p.y >= 0 && p.x < size && p.y < size) want.set(p.y * size + p.x, p.v ?? null);
    }
    let touched = 0;
    this.cells.forEach((cell, i) => {
      const v = want.get(i) ?? null;
      const old = cell._shown[layer] ?? null;
      if (v === old) return;
      cell._shown[layer] = v;
      paint(cell, v, old);
      touched++;
    });
    return touched;
  }

  /**
   * The heat map [{x, y, v}] with v in 0..1 (shown on empty cells only, in 1/100 steps):
   * repaints only the cells whose intensity changed. Answers the number of cells painted.
   */
  setHeat(heat) {
    this.config.heat = heat || [];
    const stones = this.prev;
    const points = this.config.heat
      .filter((h) => !stones?.[h.y]?.[h.x])
      .map((h) => ({ x: h.x, y: h.y, v: Math.round(Math.max(0.08, Math.min(1, h.v)) * 100) / 100 }));
    return this.updateCells('heat', points, (cell, v) => {
      if (v == null) {
        cell._heat.classList.remove('on');
        return;
      }
      cell._heat.style.setProperty('--h', String(v));
      cell._heat.classList.add('on');
    });
  }

  build() {
    const { game, size } = this.config;
    this.el.className = `board board-${game}`;
    this.el.style.setProperty('--n', size);
    this.el.replaceChildren();
    // The width before the cells exist (a layout of the page without them), so that they
    // are laid out once, at their size, instead of again when the observer reports.
    this.setWidth(this.el.getBoundingClientRect().width);

    this.el.append(this.buildLines(game, size));

    const grid = document.createElement('div');
    grid.className = 'cells';
    this.cells = [];
    for (let y = 0; y < size; y++) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      row.className = 'row';
      for (let x = 0; x < size; x++) {
        const cell = document.createElement('div');
        cell.className = 'cell';
        cell.setAttribute('role', 'gridcell');
        cell.dataset.x = x;
        cell.dataset.y = y;
        cell.id = `cell-${x}-${y}`;
        const heat = document.createElement('span');
        heat.className = 'heat';
        const stone = document.createElement('span');
        stone.className = 'stone';
        const mark = document.createElement('span');
        mark.className = 'mark';
        stone.addEventListener('animationend', () => stone.classList.remove('placing', 'flipping'));
        cell.append(heat, stone, mark);
        cell._stone = stone;
        cell._mark = mark;
        cell._heat = heat;
        cell._shown = {}; // what the cell shows, by layer (see updateCells)
        row.append(cell);
        this.cells.push(cell);
      }
      grid.append(row);
    }
    this.el.append(grid);

    for (const side of ['top', 'bottom', 'left', 'right']) {
      const coords = document.createElement('div');
      coords.className = `coords coords-${side}`;
      coords.setAttribute('aria-hidden', 'true');
      for (let i = 0; i < size; i++) coords.append(document.createElement('span'));
      this.el.append(coords);
    }
  }

  buildLines(game, size) {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'lines');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
    svg.setAttribute('preserveAspectRatio', 'none');
    const line = (x1, y1, x2, y2, cls) => {
      const l = document.createElementNS(SVG, 'line');
      l.setAttribute('x1', x1);
      l.setAttribute('y1', y1);
      l.setAttribute('x2', x2);
      l.setAttribute('y2', y2);
      l.setAttribute('class', cls);
      l.setAttribute('vector-effect', 'non-scaling-stroke');
      svg.append(l);
    };
    const dot = (cx, cy, r) => {
      const c = document.createElementNS(SVG, 'circle');
      c.setAttribute('cx', cx);
      c.setAttribute('cy', cy);
      c.setAttribute('r', r);
      c.setAttribute('class', 'star');
      svg.append(c);
    };
    if (game === 'gomoku') {
      // Lines through the cell centres; the outer ones a little heavier.
      for (let i = 0; i < size; i++) {
        const edge = i === 0 || i === size - 1 ? 'line edge' : 'line';
        line(0.5, i + 0.5, size - 0.5, i + 0.5, edge);
        line(i + 0.5, 0.5, i + 0.5, size - 0.5, edge);
      }
      for (const [x, y] of starPoints(size)) dot(x + 0.5, y + 0.5, 0.11);
    } else {
      for (let i = 0; i <= size; i++) {
        const edge = i === 0 || i === size ? 'line edge' : 'line';
        line(0, i, size, i, edge);
        line(i, 0, i, size, edge);
      }
      if (size === 8) for (const [x, y] of [[2, 2], [6, 2], [2, 6], [6, 6]]) dot(x, y, 0.07);
    }
    return svg;
  }

  render() {
    const c = this.config;
    const { size } = c;
    const el = this.el;
    el.classList.toggle('with-coords', !!c.showCoordinates);
    el.classList.toggle('with-numbers', !!c.showNumbers);
    el.classList.toggle('interactive', !!c.interactive);
    el.classList.toggle('show-cursor', !!c.showCursor && !!c.cursor);
    if (c.ghost && c.interactive) el.dataset.ghost = c.ghost;
    else delete el.dataset.ghost;
    el.setAttribute('aria-label', c.labels.board);

    const columns = c.columns?.length === size ? c.columns : defaultColumns(size);
    const rows = c.rows?.length === size ? c.rows : Array.from({ length: size }, (_, i) => String(size - i));
    for (const side of ['top', 'bottom', 'left', 'right']) {
      const labels = side === 'top' || side === 'bottom' ? columns : rows;
      el.querySelectorAll(`.coords-${side} span`).forEach((s, i) => {
        if (s.textContent !== labels[i]) s.textContent = labels[i];
      });
    }

    const forbidden = new Map((c.forbidden || []).map((p) => [key(p.x, p.y), p.kind || '']));
    const legal = setOf(c.legal);
    const line = setOf(c.line);
    const hint = c.hint ? key(c.hint.x, c.hint.y) : null;
    const last = c.lastMove ? key(c.lastMove.x, c.lastMove.y) : null;
    const cursor = c.cursor ? key(c.cursor.x, c.cursor.y) : null;
    const provisional = c.provisional ? key(c.provisional.x, c.provisional.y) : null;

    // Flips ripple outward from the move that caused them.
    const flipDelay = new Map();
    if (c.lastMove) {
      for (const p of c.flipped || []) {
        const d = Math.max(Math.abs(p.x - c.lastMove.x), Math.abs(p.y - c.lastMove.y));
        flipDelay.set(key(p.x, p.y), (d - 1) * 45);
      }
    }

    const prev = this.prev;
    const next = [];
    for (let y = 0; y < size; y++) {
      const rowIn = c.stones?.[y] || [];
      const rowOut = [];
      for (let x = 0; x < size; x++) {
        const k = key(x, y);
        const cell = this.cells[y * size + x];
        const stone = rowIn[x] === 'black' || rowIn[x] === 'white' ? rowIn[x] : null;
        rowOut.push(stone);
        const before = prev ? prev[y][x] : stone;
        const number = c.numbers?.[y]?.[x] ?? null;

        // Classes on the cell.
        let cls = 'cell';
        if (k === last) cls += ' last';
        if (line.has(k)) cls += ' win';
        if (!stone && forbidden.has(k)) cls += ' forbidden';
        if (!stone && legal.has(k)) cls += ' legal';
        if (!stone && k === hint) cls += ' hint';
        if (k === cursor) cls += ' cursor';
        if (stone && k === provisional) cls += ' provisional';
        if (cell.className !== cls) cell.className = cls;

        if (stone) {
          if (cell.dataset.stone !== stone) cell.dataset.stone = stone;
        } else if (cell.dataset.stone) delete cell.dataset.stone;

        const s = cell._stone;
        const sCls = stone ? `stone ${stone}` : 'stone';
        const anim = [...s.classList].filter((n) => n === 'placing' || n === 'flipping');
        if (stone && !before) {
          s.className = `${sCls} placing`;
        } else if (stone && before && stone !== before) {
          s.className = `${sCls} flipping`;
          s.style.setProperty('--delay', `${flipDelay.get(k) ?? 0}ms`);
        } else {
          const want = [sCls, ...anim].join(' ');
          if (s.className !== want) s.className = want;
        }
        const numText = stone && number != null ? String(number) : '';
        if (s.textContent !== numText) s.textContent = numText;

        if (!stone && forbidden.has(k)) cell._mark.title = forbidden.get(k);
        else if (cell._mark.title) cell._mark.removeAttribute('title');

        const point = `${columns[x]}${rows[y]}`;
        const what = stone ? c.labels[stone] : c.labels.empty;
        const label = c.labels.cell.replace('{point}', point).replace('{what}', what);
        if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
      }
      next.push(rowOut);
    }
    this.prev = next;
    this.setHeat(c.heat);
    if (cursor) el.setAttribute('aria-activedescendant', `cell-${c.cursor.x}-${c.cursor.y}`);
    else el.removeAttribute('aria-activedescendant');
  }
}

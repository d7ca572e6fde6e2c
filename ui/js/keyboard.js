// Keyboard play and shortcuts. Arrow keys move the board cursor, Enter/Space place;
// Ctrl+Z undo, Ctrl+Y / Ctrl+Shift+Z redo, Ctrl+N new, H hint, Ctrl+S save, Ctrl+O open.
// Home/End go to the start and the end of the line shown; ←/→ step through it unless the
// keyboard cursor is in use on the board (app.js decides); Ctrl+C copies the line shown,
// Ctrl+Shift+C the position shown (Ctrl+V arrives as the page's paste event). The mouse
// wheel over the board steps too (installWheel).

function typingInto(target) {
  if (!(target instanceof Element)) return false;
  return !!target.closest('input, select, textarea, [contenteditable="true"]');
}

/** Maps a keydown event to an action name (or null). Exported for tests and docs. */
export function actionFor(e) {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod && !e.altKey) {
    if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
    if (key === 'y') return 'redo';
    if (key === 'n') return 'new';
    if (key === 's') return 'save';
    if (key === 'o') return 'open';
    if (key === 'c') return e.shiftKey ? 'copy_position' : 'copy';
    return null;
  }
  if (e.altKey) return null;
  switch (key) {
    case 'ArrowLeft': return 'left';
    case 'ArrowRight': return 'right';
    case 'ArrowUp': return 'up';
    case 'ArrowDown': return 'down';
    case 'Enter':
    case ' ': return 'place';
    case 'h': return 'hint';
    case 'Home': return 'first';
    case 'End': return 'last';
    case 'Escape': return 'escape';
    default: return null;
  }
}

// The keys that put the keyboard cursor on the board (←/→ step the game unless it is there).
const CURSOR_KEYS = new Set(['up', 'down']);

/**
 * handlers: { left, right, up, down, place, undo, redo, new, hint, save, open } and
 * blocked() -> true while a dialog is open. Arrows move the board cursor (and focus the board)
 * unless a form field has the focus; Enter/Space place only when the board or nothing has the
 * focus, so buttons keep Enter/Space.
 */
export function installKeyboard(handlers, { board, blocked = () => false } = {}) {
  window.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || blocked() || typingInto(e.target)) return;
    const action = actionFor(e);
    if (!action || !handlers[action]) return;
    const focus = document.activeElement;
    const free = !focus || focus === document.body || (board && board.contains(focus));
    if (action === 'place' && !free) return;
    // Copy only when no text is selected (a selection copies as usual).
    if (action.startsWith('copy') && String(window.getSelection?.() || '')) return;
    if (action === 'escape' && !(board && board.contains(focus))) return;
    if ((CURSOR_KEYS.has(action) || action === 'place') && board && !board.contains(focus)) board.focus({ preventScroll: true });
    e.preventDefault();
    handlers[action](e);
  });
}

/**
 * Steps through the game with the mouse wheel over `el`: one step per notch (a trackpad's
 * small deltas add up to one), up is back.
 */
export function installWheel(el, step) {
  let sum = 0;
  el.addEventListener('wheel', (e) => {
    if (e.ctrlKey) return;
    e.preventDefault();
    sum += e.deltaMode === 0 ? e.deltaY : e.deltaY * 40;
    while (Math.abs(sum) >= 40) {
      step(sum < 0 ? 'back' : 'forward');
      sum -= Math.sign(sum) * 40;
    }
  }, { passive: false });
}

// Keyboard play and shortcuts. Arrow keys move the board cursor, Enter/Space place;
// Ctrl+Z undo, Ctrl+Y / Ctrl+Shift+Z redo, Ctrl+N new, H hint, Ctrl+S save, Ctrl+O open.

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
    default: return null;
  }
}

const ARROWS = new Set(['left', 'right', 'up', 'down']);

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
    if ((ARROWS.has(action) || action === 'place') && board && !board.contains(focus)) board.focus({ preventScroll: true });
    e.preventDefault();
    handlers[action](e);
  });
}

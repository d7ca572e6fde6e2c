// The only module that talks to the backend (Tauri commands and events). Everything else
// imports `api` and `on` from here, so tests can replace window.__TAURI__ with a mock.

function tauri() {
  const t = window.__TAURI__;
  if (!t?.core?.invoke) throw { code: 'no_backend', message: 'The game engine is not available.', params: {} };
  return t;
}

/** Turns whatever a rejected invoke gives into {code, message, params}. */
export function normalizeError(err) {
  if (err && typeof err === 'object' && typeof err.code === 'string') {
    return { code: err.code, message: String(err.message ?? ''), params: err.params || {} };
  }
  if (typeof err === 'string') {
    try {
      const parsed = JSON.parse(err);
      if (parsed && typeof parsed.code === 'string') return normalizeError(parsed);
    } catch {
      /* a plain message */
    }
    return { code: 'unknown', message: err, params: {} };
  }
  return { code: 'unknown', message: String(err?.message ?? err), params: {} };
}

async function call(command, args) {
  try {
    return await tauri().core.invoke(command, args);
  } catch (err) {
    throw normalizeError(err);
  }
}

export const api = {
  newGame: (config) => call('new_game', { config }),
  playMove: (x, y) => call('play_move', { x, y }),
  // An opening choice: {kind: 'take', color} | {kind: 'place_two'} | {kind: 'declare', count}
  // | {kind: 'offer', point: {x, y}} | {kind: 'pick', point: {x, y}}.
  openingChoice: (choice) => call('opening_choice', { choice }),
  undo: () => call('undo'),
  redo: () => call('redo'),
  hint: () => call('hint'),
  resign: () => call('resign'),
  // The clock: {op: 'pause' | 'resume'} or {op: 'dialog', open}.
  clock: (op) => call('clock', { op }),
  stopThinking: () => call('stop_thinking'),
  // "Computer plays here": at a position stepped back to, the computer moves from there.
  computerPlay: () => call('computer_play'),
  getSnapshot: () => call('get_snapshot'),
  saveGame: (format) => call('save_game', { format }),
  openGame: () => call('open_game'),
  getSettings: () => call('get_settings'),
  setSettings: (settings) => call('set_settings', { settings }),
  // Optional: [{game, rule, level, wins, losses, draws}] when the backend keeps statistics.
  getStats: () => call('get_stats'),
  // Live analysis: {on, lines} (lines 1 to 5); results arrive as `analysis` events.
  getAnalysis: () => call('get_analysis'),
  setAnalysis: (on, lines) => call('set_analysis', { on, lines }),
  analysisVisible: (visible) => call('analysis_visible', { visible }),
  // {to: 'back' | 'forward' | 'first' | 'last'} | {to: 'ply', ply} (of the line shown) |
  // {to: 'main', ply} (of the main line) | {to: 'node', node}.
  navigate: (nav) => call('navigate', { nav }),
  variation: (action, node) => call('variation', { action, node }),
  edit: (op) => call('edit', { op }),
  pasteGame: (text) => call('paste_game', { text }),
  copyText: (what) => call('copy_text', { what }),
  // Game review: action 'start' | 'cancel' | 'get'; answers with the review, which also
  // arrives as the `review` event (progress as `review-progress`).
  review: (action) => call('review', { action }),
  // External engines (Gomocup, NBoard): the list, add (the backend opens the file dialog for
  // `protocol`), check, remove.
  enginesList: () => call('engines_list'),
  engineAdd: (protocol = 'gomocup') => call('engine_add', { protocol }),
  engineCheck: (id) => call('engine_check', { id }),
  engineRemove: (id) => call('engine_remove', { id }),
};

/** Subscribes to a backend event; the handler gets the payload. Resolves to an unlisten function. */
export async function on(event, handler) {
  const listen = window.__TAURI__?.event?.listen;
  if (!listen) return () => {};
  return listen(event, (e) => handler(e.payload));
}

// Injected before the app loads: a stand-in for window.__TAURI__ (withGlobalTauri).
// core.invoke records every call and answers from canned responses; event.listen lets the
// test push events. Controlled from the test through window.__mock.
(() => {
  const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
  const mock = {
    calls: [],
    responses: {}, // command -> value, or {__error: {code, message, params}}
    listeners: {}, // event -> [handler]
    snapshot: null, // the "current" snapshot: get_snapshot answers it, play_move edits it
    analysis: { on: false, lines: 3 }, // the analysis switch (get_analysis / set_analysis)
    review: { version: 0, game: 'gomoku', running: false, done: 0, total: 0, plies: [] }, // the `review` command's answer
    engines: [], // the external engines (engines_list); engine_add adds `nextEngine`
    nextEngine: { name: 'fake', about: 'name="fake", version="1", author="Tengen tests"', path: '/opt/engines/pbrain-fake' },
    setup(init) {
      Object.assign(mock.responses, init.responses || {});
      if (init.snapshot !== undefined) mock.snapshot = init.snapshot;
    },
    respond(command, value) {
      mock.responses[command] = value;
    },
    fail(command, error) {
      mock.responses[command] = { __error: error };
    },
    emit(event, payload) {
      if (event === 'snapshot') mock.snapshot = clone(payload);
      for (const fn of mock.listeners[event] || []) fn({ event, id: 0, payload: clone(payload) });
    },
    callsOf(command) {
      return mock.calls.filter((c) => c.cmd === command);
    },
    // A rule-free default for play_move: put a stone of the side to move and pass the turn.
    fakePlay({ x, y }) {
      const s = clone(mock.snapshot);
      if (!s) throw { code: 'invalid_argument', message: 'no game', params: {} };
      const color = s.toMove || 'black';
      s.board[y][x] = color;
      s.moves.push({ x, y, pass: false, color, ms: 0, label: `${s.columns[x]}${s.rows[y]}` });
      s.lastMove = { x, y };
      s.toMove = color === 'black' ? 'white' : 'black';
      s.canUndo = true;
      if (typeof s.seq === 'number') s.seq += 1;
      mock.snapshot = s;
      return s;
    },
  };
  const defaults = {
    get_settings: () => ({ language: 'en', theme: 'light', sound: false, showCoordinates: true, showMoveNumbers: false, lastConfig: null }),
    set_settings: (args) => args.settings,
    get_snapshot: () => mock.snapshot,
    play_move: (args) => mock.fakePlay(args),
    opening_choice: () => mock.snapshot,
    undo: () => mock.snapshot,
    redo: () => mock.snapshot,
    hint: () => mock.snapshot,
    resign: () => mock.snapshot,
    clock: () => mock.snapshot,
    stop_thinking: () => mock.snapshot,
    computer_play: () => mock.snapshot,
    new_game: () => mock.snapshot,
    save_game: () => null,
    open_game: () => mock.snapshot,
    get_analysis: () => mock.analysis,
    set_analysis: ({ on, lines }) => {
      if (!(lines >= 1 && lines <= 5)) {
        throw { code: 'invalid_argument', message: 'Invalid lines.', params: { field: 'lines', detail: `${lines} is not between 1 and 5` } };
      }
      mock.analysis = { on, lines };
      return mock.analysis;
    },
    analysis_visible: () => null,
    navigate: () => mock.snapshot,
    variation: () => mock.snapshot,
    edit: () => mock.snapshot,
    paste_game: () => mock.snapshot,
    copy_text: () => 'h8 i9',
    review: () => mock.review,
    engines_list: () => mock.engines,
    engine_add: ({ protocol } = {}) => {
      const id = Math.max(0, ...mock.engines.map((e) => e.id)) + 1;
      const entry = { id, added: 1764000000, protocol: protocol || 'gomocup', ...mock.nextEngine };
      mock.engines = [...mock.engines, entry];
      return entry;
    },
    engine_check: ({ id }) => mock.engines.find((e) => e.id === id),
    engine_remove: ({ id }) => {
      mock.engines = mock.engines.filter((e) => e.id !== id);
      return mock.engines;
    },
  };
  window.__mock = mock;
  window.__TAURI__ = {
    core: {
      async invoke(cmd, args = {}) {
        mock.calls.push({ cmd, args: clone(args) });
        await null;
        if (cmd in mock.responses) {
          const r = mock.responses[cmd];
          if (r && r.__error) throw clone(r.__error);
          return clone(r);
        }
        if (cmd in defaults) return clone(defaults[cmd](args));
        throw { code: 'invalid_argument', message: `unknown command ${cmd}`, params: {} };
      },
    },
    event: {
      async listen(event, handler) {
        (mock.listeners[event] ||= []).push(handler);
        return () => {
          mock.listeners[event] = mock.listeners[event].filter((h) => h !== handler);
        };
      },
    },
  };
})();

// Variants for `node scripts/bench-steps-app.mjs --variants scripts/bench-steps-variants.mjs`:
// the page changed at run time, one part at a time, to find what a step costs in WebKitGTK.
// Each is {css?, js?, undo?}: CSS injected while it runs, `js` run before and `undo` after.
export default {
  shipped: {},
  'no board': { css: '.board-host { visibility: hidden !important; }' },
  'no move list': { css: '.moves { visibility: hidden !important; }' },
  'no side panel': { css: '.side { visibility: hidden !important; }' },
  'no scrolling': {
    js: 'window.__scroll = Element.prototype.scrollIntoView; Element.prototype.scrollIntoView = function () {};',
    undo: 'Element.prototype.scrollIntoView = window.__scroll;',
  },
  'flat paint': {
    css: `body { background-image: none !important; }
      .board-gomoku { background: #e2b36d !important; }
      .stone.black { background: #111 !important; } .stone.white { background: #eee !important; }
      * { box-shadow: none !important; }`,
  },
  contain: { css: '.board { contain: strict !important; } .moves, .move-list { contain: layout paint !important; }' },
};

// Variants for `node scripts/bench-steps-app.mjs --variants scripts/bench-steps-variants.mjs`:
// the page changed at run time, one part at a time, to find what a step costs in WebKitGTK.
// Each is {css?, js?, undo?}: CSS injected while it runs, `js` run before and `undo` after.
// Found with them (2026-11-25, main's UI): the board hidden took frames from 57-70 ms to 18;
// the wood, the stones and the shadows flat together to 16-28 (each alone: ~10 ms less),
// the wood and the stones as bitmaps to 31-38 (ui/js/paint.js now does that); the side panel,
// the move list, its scrolling, the analysis layer, the hover rules: no clear difference.
const dropRules = (re) => `window.__dropped = [];
  for (const sheet of document.styleSheets) {
    for (let i = sheet.cssRules.length - 1; i >= 0; i--) {
      if (${re}.test(sheet.cssRules[i].cssText)) { window.__dropped.push([sheet, i, sheet.cssRules[i].cssText]); sheet.deleteRule(i); }
    }
  }`;
const restoreRules = 'for (const [sheet, i, text] of window.__dropped.reverse()) sheet.insertRule(text, i);';

export default {
  shipped: {},
  'no board': { css: '.board-host { visibility: hidden !important; }' },
  'no side panel': { css: '.side { visibility: hidden !important; }' },
  'no move list': { css: '.moves { visibility: hidden !important; }' },
  'no scrolling': {
    js: 'window.__scroll = Element.prototype.scrollIntoView; Element.prototype.scrollIntoView = function () {};',
    undo: 'Element.prototype.scrollIntoView = window.__scroll;',
  },
  'no grid lines': { css: '.lines { visibility: hidden !important; }' },
  'no shadows': { css: '* { box-shadow: none !important; }' },
  'flat wood': { css: '.board-gomoku { background: #e2b36d !important; }' },
  'flat stones': { css: '.stone.black { background: #111 !important; } .stone.white { background: #eee !important; }' },
  'no hover rules': { js: dropRules('/data-ghost/'), undo: restoreRules },
};

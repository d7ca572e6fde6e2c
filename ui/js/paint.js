// Software painting (WebKitGTK: the app turns its hardware acceleration off, see
// src-tauri/src/webview.rs). There every repaint of the board computes its CSS gradients again,
// pixel by pixel: the wood (a radial gradient under two repeating grain gradients) and each
// stone's radial gradient. Stepping back through a game at key-repeat speed repainted them
// in every frame: frames 57-70 ms apart instead of 33 (scripts/bench-steps-app.mjs --variants
// scripts/bench-steps-variants.mjs; the board hidden: 18 ms; the same wood and stones as
// bitmaps: 31-38 ms). So there the wood and the stones are drawn once into bitmaps, from the
// theme's own gradients (base.css's --wood, --wood-grain, --stone-black, --stone-white), and
// the board shows those images (base.css: --wood-image, --stone-*-image). Drawn once the board
// is on screen (app.js; the page starts with the CSS gradients) and again when the theme changes.

const root = document.documentElement;

/** The stops and centre of one of base.css's radial gradients ("... at 34% 30%, #fff 0%, ..."). */
export function parseRadial(css) {
  const at = /at\s+([\d.]+)%\s+([\d.]+)%/.exec(css);
  const stops = [...css.matchAll(/(#[0-9a-f]{3,8}|rgba?\([^)]*\))\s+([\d.]+)%/gi)].map((m) => [Number(m[2]) / 100, m[1]]);
  const size = /radial-gradient\(\s*([\d.]+)%\s+([\d.]+)%/.exec(css);
  return {
    x: at ? Number(at[1]) / 100 : 0.5,
    y: at ? Number(at[2]) / 100 : 0.5,
    // An ellipse's radii as fractions of the box (CSS "130% 100%"); a circle reaches the far corner.
    rx: size ? Number(size[1]) / 100 : null,
    ry: size ? Number(size[2]) / 100 : null,
    stops,
  };
}

function canvas(size) {
  const c = document.createElement('canvas');
  c.width = c.height = size;
  return [c, c.getContext('2d')];
}

const WOOD_PX = 1024;
const STONE_PX = 96;

/**
 * The wood: its radial gradient, the grain of board.css's first layer (a stripe pair every
 * 27 px at 96°), and the light on its top edge and the shade on its bottom one (the inset
 * shadows of base.css's software board, about 1 and 2 px on screen).
 */
function wood(style) {
  const [c, g] = canvas(WOOD_PX);
  const w = parseRadial(style.getPropertyValue('--wood'));
  const [sx, sy] = [w.rx ?? 1, w.ry ?? 1];
  const [cx, cy] = [(w.x * WOOD_PX) / sx, (w.y * WOOD_PX) / sy];
  g.save();
  g.scale(sx, sy);
  const r = g.createRadialGradient(cx, cy, 0, cx, cy, WOOD_PX);
  for (const [at, color] of w.stops) r.addColorStop(at, color);
  g.fillStyle = r;
  g.fillRect(0, 0, WOOD_PX / sx, WOOD_PX / sy);
  g.restore();
  g.save();
  g.translate(WOOD_PX / 2, WOOD_PX / 2);
  g.rotate((6 * Math.PI) / 180);
  g.fillStyle = style.getPropertyValue('--wood-grain').trim() || 'transparent';
  for (let x = -WOOD_PX; x < WOOD_PX; x += 27) {
    g.fillRect(x + 6, -WOOD_PX, 2, 2 * WOOD_PX);
    g.fillRect(x + 15, -WOOD_PX, 1, 2 * WOOD_PX);
  }
  g.restore();
  g.fillStyle = 'rgba(255, 255, 255, .35)';
  g.fillRect(0, 0, WOOD_PX, 1.5);
  g.fillStyle = 'rgba(90, 55, 20, .18)';
  g.fillRect(0, WOOD_PX - 3, WOOD_PX, 3);
  return c.toDataURL('image/jpeg', 0.92);
}

/** A stone: its radial gradient in a circle, with the zero-blur shadow below it baked in. */
function stone(style, name) {
  const [c, g] = canvas(STONE_PX);
  const s = parseRadial(style.getPropertyValue(name));
  const mid = STONE_PX / 2;
  const drop = 2; // the shadow's offset: about 1 px at a stone's size on screen
  const radius = mid - drop; // the shadow stays inside the element's round clip
  g.fillStyle = 'rgba(0, 0, 0, .35)';
  g.beginPath();
  g.arc(mid, mid + drop, radius, 0, 2 * Math.PI);
  g.fill();
  const cx = drop + s.x * 2 * radius;
  const cy = drop + s.y * 2 * radius;
  // CSS "circle at X Y" reaches the farthest corner of the box.
  const reach = Math.hypot(Math.max(cx, STONE_PX - cx), Math.max(cy, STONE_PX - cy));
  const r = g.createRadialGradient(cx, cy, 0, cx, cy, reach);
  for (const [at, color] of s.stops) r.addColorStop(at, color);
  g.fillStyle = r;
  g.beginPath();
  g.arc(mid, mid, radius, 0, 2 * Math.PI);
  g.fill();
  return c.toDataURL('image/png');
}

let drawn = '';

/** Draws the bitmaps for the theme in force (once per theme). */
function draw() {
  const theme = root.dataset.theme || '';
  if (theme === drawn) return;
  drawn = theme;
  const style = getComputedStyle(root);
  root.style.setProperty('--wood-image', `url("${wood(style)}")`);
  root.style.setProperty('--stone-black-image', `url("${stone(style, '--stone-black')}")`);
  root.style.setProperty('--stone-white-image', `url("${stone(style, '--stone-white')}")`);
  root.dataset.bitmaps = 'true';
}

/**
 * On a page painted in software (html[data-paint="software"]): draws the board's bitmaps now,
 * and again at each change of theme.
 */
export function installSoftwarePaint() {
  if (root.dataset.paint !== 'software') return;
  draw();
  new MutationObserver(draw).observe(root, { attributes: true, attributeFilter: ['data-theme'] });
}

// Runs before the page is first drawn (a classic script in <head>, not a module: modules run
// after the first paint may have happened). It sets what the first frame must already show:
//   - the theme the user chose last (settings.js keeps it in localStorage), else the
//     system's, so that a dark-theme user never sees the light page first;
//   - whether WebKitGTK paints the page in software (Linux: the app turns its hardware
//     acceleration off, src-tauri/src/webview.rs), where base.css uses zero-blur shadows;
//   - Linux, where base.css leaves the macOS and Windows fonts out of its font stacks.
(() => {
  const root = document.documentElement;
  let saved = null;
  try {
    saved = localStorage.getItem('tengen.theme');
  } catch {
    // No storage: the system's theme.
  }
  const dark = saved === 'dark' || (saved !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  root.dataset.theme = dark ? 'dark' : 'light';
  const agent = navigator.userAgent;
  if (/Linux/.test(agent) && !/Android/.test(agent)) root.dataset.os = 'linux';
  if (/Linux/.test(agent) && !/Chrome\//.test(agent)) root.dataset.paint = 'software';
})();

// Every user-facing string comes from ui/locales/*.json through t().
// Elements carry data-i18n="key" (text) and data-i18n-attr="attr:key;attr:key" (attributes).

export const LANGUAGES = ['en', 'zh-CN'];
const FALLBACK = 'en';

const tables = new Map(); // language -> its texts, once loaded
const loading = new Map(); // language -> the promise of its texts
let current = FALLBACK;
let version = 0; // counts the texts put in force (see textsVersion)

function load(lang) {
  if (!loading.has(lang)) {
    const texts = fetch(new URL(`../locales/${lang}.json`, import.meta.url))
      .then((response) => {
        if (!response.ok) throw new Error(`locale ${lang}: HTTP ${response.status}`);
        return response.json();
      })
      .then((table) => {
        tables.set(lang, table);
        return table;
      });
    loading.set(lang, texts);
    texts.catch(() => loading.delete(lang)); // a later call tries again
  }
  return loading.get(lang);
}

/** Starts loading languages that will likely be needed, so that setLanguage finds them. */
export function prefetch(langs) {
  for (const lang of langs) load(lang).catch(() => {});
}

/** The language for a setting: "auto" follows the system locale. */
export function resolveLanguage(setting, systemLanguages = navigator.languages || [navigator.language]) {
  if (LANGUAGES.includes(setting)) return setting;
  for (const tag of systemLanguages) {
    if (/^zh\b/i.test(tag || '')) return 'zh-CN';
    if (/^en\b/i.test(tag || '')) return 'en';
  }
  return FALLBACK;
}

/**
 * Loads a language (and the fallback) and makes it current. Never throws: if the locale files
 * cannot be read (e.g. a Content-Security-Policy without 'self' in connect-src), the keys show.
 */
export async function setLanguage(lang) {
  const [fallback, wanted] = await Promise.allSettled([load(FALLBACK), load(lang)]);
  if (fallback.status === 'rejected') console.error('cannot load the English texts', fallback.reason);
  if (wanted.status === 'fulfilled') {
    current = lang;
  } else {
    console.warn(wanted.reason);
    current = FALLBACK;
  }
  document.documentElement.lang = current;
  version++;
  return current;
}

/**
 * Changes whenever the texts in force change (a language set, also the first one at start-up):
 * a view that keeps what it built keys it on this, so a language switch rebuilds it.
 */
export function textsVersion() {
  return version;
}

export function language() {
  return current;
}

export function has(key) {
  return key in (tables.get(current) || {}) || key in (tables.get(FALLBACK) || {});
}

/** The text for a key with {name} placeholders filled from params. */
export function t(key, params = {}) {
  const table = tables.get(current) || {};
  let text = table[key] ?? tables.get(FALLBACK)?.[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Translates the static texts under root. */
export function translate(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':').map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/** Words for an IPC error {code, message, params}: the locale's text, else the English message. */
export function errorText(error) {
  const code = error?.code || 'unknown';
  const params = { ...(error?.params || {}), message: error?.message || '' };
  if (params.kind && has(`forbidden.${params.kind}`)) params.kind = t(`forbidden.${params.kind}`);
  if (params.color && has(`color.${params.color}`)) params.color = t(`color.${params.color}`);
  // A refusal with a reason (an illegal move, an opening step) has its own words per reason.
  if (params.reason && has(`error.${code}.${params.reason}`)) return t(`error.${code}.${params.reason}`, params);
  if (has(`error.${code}`)) return t(`error.${code}`, params);
  return error?.message || t('error.unknown', params);
}

/** A computer level's name: `level` is {game, level}. */
export function levelName(level) {
  return level ? t(`level.${level.game}.${level.level}`) : '';
}

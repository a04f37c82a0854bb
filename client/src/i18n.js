// The language choice and the lookup of the client's strings (en, fr, nl, de, he; Hebrew is right-to-left).
// Each language's strings are a module of their own in lang/, loaded on demand: the page's language before
// the first render, English (the fallback for a missing key) beside it. Strings are plain text with
// {placeholders}; the UI always sets them with textContent.

export const LANGS = ['en', 'fr', 'nl', 'de', 'he'];
export const RTL = new Set(['he']);
export const LANG_NAMES = { en: 'English', fr: 'Français', nl: 'Nederlands', de: 'Deutsch', he: 'עברית' };

// Literal paths, so that the bundler makes one chunk per language.
const LOADERS = {
  en: () => import('./lang/en.js'),
  fr: () => import('./lang/fr.js'),
  nl: () => import('./lang/nl.js'),
  de: () => import('./lang/de.js'),
  he: () => import('./lang/he.js'),
};

/** The strings of every language loaded so far, by language. */
export const DICTS = {};
const loading = new Map();

function load(lang) {
  if (!loading.has(lang)) {
    const p = LOADERS[lang]().then((m) => { DICTS[lang] = m.default; });
    // a failed load (the network) may be tried again later
    p.catch(() => loading.delete(lang));
    loading.set(lang, p);
  }
  return loading.get(lang);
}

/** Load the strings of `lang` (a language of LANGS); resolves once `translator(lang)` has them. English,
 *  the fallback, is fetched at the same time but not waited for: every language has every key. */
export function loadLanguage(lang) {
  if (!LOADERS[lang]) return Promise.reject(new Error(`unknown language ${lang}`));
  if (lang !== 'en') load('en').catch(() => {});
  return load(lang);
}
/** Best language for a list of browser languages (navigator.languages). */
export function pickLanguage(prefs) {
  for (const p of prefs || []) {
    const base = String(p || '').toLowerCase().split('-')[0];
    if (base === 'iw') return 'he';
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

const PLURALS = new Map();

/** Fill {placeholders}; `{n|boat|boats}` picks the word for the number n with Intl.PluralRules of `lang`
 *  (the first word for the category "one", the second for every other). */
export function format(str, args = {}, lang = 'en') {
  return String(str)
    // a plural's words may hold a placeholder themselves ("{n|one boat|{n} boats}")
    .replace(/\{(\w+)\|((?:[^|{}]|\{\w+\})*)\|((?:[^{}]|\{\w+\})*)\}/g, (m, k, one, other) => {
      const n = Number(args[k]);
      if (!Number.isFinite(n)) return other;
      if (!PLURALS.has(lang)) PLURALS.set(lang, new Intl.PluralRules(lang));
      return PLURALS.get(lang).select(n) === 'one' ? one : other;
    })
    .replace(/\{(\w+)\}/g, (m, k) => (args[k] === undefined || args[k] === null ? m : String(args[k])));
}

/** The lookup of `lang`'s strings (loaded with loadLanguage first): key and {placeholder} values to text.
 *  A key the language lacks falls back to English, then to the key itself. */
export function translator(lang) {
  const d = DICTS[lang] || {};
  return (key, args) => format(d[key] ?? DICTS.en?.[key] ?? key, args, DICTS[lang] ? lang : 'en');
}

/** A refused request in the person's words: its code's sentence (`refusal.<code>`) when the language has
 *  one, else the server's message (English) after "Server:". */
export function refusal(t, error) {
  const key = `refusal.${error?.code}`;
  const words = t(key);
  return words !== key ? words : t('err.server', { message: error?.message || error?.code || '' });
}

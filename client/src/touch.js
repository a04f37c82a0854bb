// On a touch screen the prompts say "tap", not "click", and name no keys to press: the same strings,
// their pointer words swapped per language (a table here rather than a second copy of every prompt).

const WORDS = {
  en: [[/\bclick\b/g, 'tap'], [/ \(Enter\)/g, '']],
  fr: [[/\bcliquez\b/g, 'touchez'], [/\(clic ou /g, '(toucher ou '], [/ \(Entrée\)/g, '']],
  nl: [[/\bklik\b/g, 'tik'], [/ \(Enter\)/g, '']],
  de: [[/\bklicke zuerst\b/g, 'tippe zuerst auf'], [/\bklicke\b/g, 'tippe auf'], [/\(Klick oder /g, '(Tippen oder '], [/ \(Enter\)/g, '']],
  he: [[/לחצו/g, 'הקישו'], [/ \(Enter\)/g, '']],
};

/** Whether this page is used with a finger (no hovering pointer). */
export function isTouch() {
  return !!globalThis.matchMedia?.('(hover: none) and (pointer: coarse)').matches;
}

/** The translator `t` of `lang`, whose prompts ("prompt.*") speak of tapping when `touch`. */
export function touchWords(t, lang, touch = isTouch()) {
  const swaps = touch ? WORDS[lang] : null;
  if (!swaps) return t;
  const wrapped = (key, args) => {
    let s = t(key, args);
    if (typeof key === 'string' && key.startsWith('prompt.')) for (const [from, to] of swaps) s = s.replace(from, to);
    return s;
  };
  return Object.assign(wrapped, t);
}

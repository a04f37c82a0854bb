// The page's frame: the header (the title, the lobby, who this is, the connection's state, the language
// menu), the screen below it, and the page-wide toast.
import { el, clear } from './dom.js';
import { LANGS, LANG_NAMES } from '../i18n.js';

export class Shell {
  /** Draws the frame in `root`, in the language of `t` (`lang` chosen in its menu); `onLang(lang)` when the
   *  menu picks another. `main` is the screen's element. */
  constructor(root, { t, lang, onLang }) {
    this.t = t;
    this.connEl = el('span', { class: 'conn', 'data-testid': 'conn', role: 'status' });
    const langSel = el('select', { 'data-testid': 'lang', 'aria-label': t('nav.language'), onchange: () => onLang(langSel.value) },
      LANGS.map((l) => el('option', { value: l, text: LANG_NAMES[l] })));
    langSel.value = lang;
    this.whoEl = el('span', { class: 'who', 'data-testid': 'who' });
    const header = el('header', { class: 'top' },
      el('a', { href: '#/', class: 'brand', text: t('app.title') }),
      el('nav', {}, el('a', { href: '#/', 'data-testid': 'nav-lobby', text: t('nav.lobby') })),
      el('span', { class: 'spacer' }), this.whoEl, this.connEl, langSel);
    this.main = el('main', { id: 'screen' });
    this.toastEl = el('div', { class: 'global-toast', role: 'alert', 'data-testid': 'global-toast' });
    clear(root).append(header, this.main, this.toastEl);
    // the table fills the window below the header, whatever the header's height (fonts, a wrapped line)
    const headerHeight = () => { if (header.isConnected) document.documentElement.style.setProperty('--header-h', `${header.offsetHeight}px`); };
    this._headerSize = globalThis.ResizeObserver ? new ResizeObserver(headerHeight) : null;
    if (this._headerSize) this._headerSize.observe(header); else headerHeight();
  }

  /** The connection's state (`connecting`, `online`, `offline`, …), in words; the page greys while offline. */
  conn(state) {
    this.connEl.dataset.state = state;
    this.connEl.textContent = this.t(`conn.${state}`);
    document.body.classList.toggle('offline', state === 'offline');
  }

  who(name) { this.whoEl.textContent = name; }

  /** A brief message over the page. */
  toast(text) {
    this.toastEl.textContent = text;
    this.toastEl.classList.add('show');
    clearTimeout(this._toast);
    this._toast = setTimeout(() => this.toastEl.classList.remove('show'), 3500);
  }

  /** The frame is drawn again (a language switch): this one stops watching its header. */
  destroy() { this._headerSize?.disconnect(); }
}

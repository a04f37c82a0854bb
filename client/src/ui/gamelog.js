// The game log: its entries (kept per room, so a language switch or a rebuilt table keeps them, and in
// localStorage for the last room, so a reload keeps them) and the panel that shows them in the current
// language.
import { el, clear, swatch } from './dom.js';
import { describeEvent } from '../describe.js';

const STORE_KEY = 'tongiaki.log';
const KEEP = 300;      // entries saved across a reload
const SHOW = 400;      // lines kept in the panel

/** The entries of one room's log. An entry is {ev?, msg?: [key, args], text, colour, type}. */
export class GameLog {
  constructor(roomId) {
    this.roomId = roomId;
    this.items = [];
    this._subs = new Set();
  }

  subscribe(fn) { this._subs.add(fn); return () => this._subs.delete(fn); }

  add(item) {
    this.items.push(item);
    this._saveSoon();
    for (const fn of [...this._subs]) fn(item);
  }

  get length() { return this.items.length; }

  /** The entries saved for this room before a reload (none for another room). */
  restore() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
      if (saved && saved.room === this.roomId && Array.isArray(saved.items)) this.items.push(...saved.items);
    } catch { /* ignore */ }
    return this;
  }

  _saveSoon() {
    if (this._saveTimer) return;
    this._saveTimer = setTimeout(() => {
      this._saveTimer = null;
      try {
        localStorage.setItem(STORE_KEY, JSON.stringify({ room: this.roomId, items: this.items.slice(-KEEP) }));
      } catch { /* full or private mode */ }
    }, 300);
  }
}

/** An entry's line in language `t` (events are described again, so a language switch re-words them). */
export function logLine(item, t) {
  let text = (item.ev && describeEvent(item.ev, t)) || (item.msg && t(item.msg[0], item.msg[1])) || item.text || '';
  text = text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  return text;
}

/** The log panel: an <ol> following a GameLog. */
export class LogPanel {
  constructor(log, t) {
    this.log = log; this.t = t;
    this.node = el('ol', { class: 'log', 'data-testid': 'log' });
    for (const it of log.items) this._append(it);
    this._unsub = log.subscribe((it) => this._append(it));
  }

  _append(item) {
    const { colour, type } = item;
    this.node.append(el('li', { class: type ? `ev-${type}` : '' }, colour ? swatch(colour) : null, colour ? ' ' : null, logLine(item, this.t)));
    while (this.node.children.length > SHOW) this.node.removeChild(this.node.firstChild);
    this.node.scrollTop = this.node.scrollHeight;
  }

  destroy() { this._unsub(); clear(this.node); }
}

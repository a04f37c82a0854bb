// The game log: its entries (kept per room, so a language switch or a rebuilt table keeps them, and in
// localStorage for the last room, so a reload keeps them) and the panel that shows them in the current
// language. An entry of a game message carries its version `v`, and the log knows the version whose events
// it holds all of (`v`): what a page did not log (it went away, or a snapshot dropped the animations still
// queued) is filled in from the server's action log when the page next shows a snapshot (`backfillLog`).
import { el, clear, swatch } from './dom.js';
import { describeEvent, dangersOf } from '../describe.js';
import { apiJson } from '../net.js';

const STORE_KEY = 'tongiaki.log';
const KEEP = 300;      // entries saved across a reload
const SHOW = 400;      // lines kept in the panel

let unsaved = null;   // the log whose last entries wait for _saveSoon's timer
// a page that goes away (a reload, a closed tab) saves what it logged in its last moments
globalThis.addEventListener?.('pagehide', () => unsaved?._saveNow());

/** The entries of one room's log. An entry is {ev?, msg?: [key, args], text, colour, type, v?}. */
export class GameLog {
  constructor(roomId) {
    this.roomId = roomId;
    this.items = [];
    this.v = null;   // every event of the game up to this version is in the log (null: not known)
    this._subs = new Set();
  }

  subscribe(fn) { this._subs.add(fn); return () => this._subs.delete(fn); }

  add(item) {
    this.items.push(item);
    this._saveSoon();
    for (const fn of [...this._subs]) fn(item);
  }

  get length() { return this.items.length; }

  /** The events of the game message of version v are all in the log now (the event player says so). */
  logged(v) {
    if (!Number.isInteger(v) || (this.v !== null && v <= this.v)) return;
    this.v = v;
    this._saveSoon();
  }

  /** The events of the versions after `after` up to `upTo`, from the server: they replace what the log
   *  holds of those versions (a message's events only partly logged) and go before later entries. */
  fill(items, after, upTo) {
    const kept = this.items.filter((it) => !(it.v > after && it.v <= upTo));
    const at = kept.findIndex((it) => it.v > upTo);
    kept.splice(at < 0 ? kept.length : at, 0, ...items);
    this.items = kept;
    this.logged(upTo);
    this._saveSoon();
    for (const fn of [...this._subs]) fn(null);
  }

  /** Entries from before this page joined, put ahead of the ones it has seen (the panels redraw). */
  prepend(items) {
    if (!items.length) return;
    this.items.unshift(...items);
    this._saveSoon();
    for (const fn of [...this._subs]) fn(null);
  }

  /** The entries saved for this room before a reload (none for another room). */
  restore() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
      if (saved && saved.room === this.roomId && Array.isArray(saved.items)) {
        this.items.push(...saved.items);
        this.v = Number.isInteger(saved.v) ? saved.v : null;
      }
    } catch { /* ignore */ }
    return this;
  }

  _saveSoon() {
    unsaved = this;
    if (this._saveTimer) return;
    this._saveTimer = setTimeout(() => this._saveNow(), 300);
  }

  _saveNow() {
    clearTimeout(this._saveTimer);
    this._saveTimer = null;
    if (unsaved === this) unsaved = null;
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify({ room: this.roomId, items: this.items.slice(-KEEP), v: this.v }));
    } catch { /* full or private mode */ }
  }
}

/** The entry an event makes in the log (null: an event the log does not tell). */
export function eventEntry(ev, t, dangers = null) {
  const text = describeEvent(dangers ? { ...ev, dangers } : ev, t);
  if (!text) return null;
  const type = ev.type === 'crossing' ? (ev.passed ? 'crossing_pass' : 'crossing_fail') : ev.type;
  // `ev` stays the server's event; what the client learnt of a drawn tile (its dangers) rides beside it
  return { text, colour: ev.colour || (ev.type === 'turn_passed' ? ev.to : null), type, ev, ...(dangers ? { dangers } : {}) };
}

/** A drawn ocean tile's dangers when the event (which names only the tile) is `tile_drawn`: from `find(name)`,
 *  the tile as the client knows it (in hand, on the table, where it was placed), else null. */
export function drawnDangers(ev, find) {
  if (ev.type !== 'tile_drawn' || ev.kind !== 'ocean') return null;
  const paths = find(ev.tile);
  return paths ? dangersOf(paths) : null;
}

/** The game's log from the action log the server keeps (the live record's replay, docs/protocol.md §12),
 *  up to version `upTo`. A page that joined a game late (a spectator, another device, a cleared storage)
 *  has an empty log (`after` null): the game's log from its start goes ahead of what the page has logged
 *  since. A page that came back (a reload) or skipped ahead (a snapshot) has the log up to version `after`:
 *  the versions after it are filled in (`GameLog.fill`). */
export async function backfillLog(log, roomId, upTo, t, fetchJson = apiJson, after = null, code = null) {
  const query = code ? `?code=${encodeURIComponent(code)}` : '';   // a private room's, for a spectator
  const body = await fetchJson(`/api/games/${encodeURIComponent(roomId)}/replay${query}`).catch(() => null);
  if (!body || !Array.isArray(body.frames)) return 0;
  const items = [];
  // a drawn ocean tile told by its dangers, as the live table tells it (eventplayer.js): from where it was placed
  const placed = new Map();
  for (const f of body.frames) {
    for (const ev of f.events || []) if (ev.type === 'tile_placed' && ev.view?.paths) placed.set(ev.tile, ev.view.paths);
  }
  for (const f of body.frames) {
    if (f.v < 1 || f.v > upTo || (after !== null && f.v <= after)) continue;
    for (const ev of f.events || []) {
      const entry = eventEntry(ev, t, drawnDangers(ev, (name) => placed.get(name)));
      if (entry) items.push({ ...entry, v: f.v });
    }
  }
  if (after === null) {
    log.prepend(items);
    log.logged(upTo);
  } else {
    log.fill(items, after, upTo);
  }
  return items.length;
}

/** An entry's line in language `t` (events are described again, so a language switch re-words them). */
export function logLine(item, t) {
  const ev = item.ev && item.dangers ? { ...item.ev, dangers: item.dangers } : item.ev;
  let text = (ev && describeEvent(ev, t)) || (item.msg && t(item.msg[0], item.msg[1])) || item.text || '';
  text = text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  return text;
}

/** The log panel: an <ol> following a GameLog. */
export class LogPanel {
  constructor(log, t) {
    this.log = log; this.t = t;
    this.node = el('ol', { class: 'log', 'data-testid': 'log' });
    for (const it of log.items) this._append(it);
    // null: entries were put ahead of the others (a late join's backfill): draw the whole log again
    this._unsub = log.subscribe((it) => {
      if (it) this._append(it);
      else {
        clear(this.node);
        for (const x of log.items.slice(-SHOW)) this._append(x);
      }
      this.toEnd();   // once per change: reading the height lays the page out
    });
  }

  _append(item) {
    const { colour, type } = item;
    this.node.append(el('li', { class: type ? `ev-${type}` : '' }, colour ? swatch(colour) : null, colour ? ' ' : null, logLine(item, this.t)));
    while (this.node.children.length > SHOW) this.node.removeChild(this.node.firstChild);
  }

  /** Scrolls to the newest entry. Entries appended before the panel is on the page (a reload's log,
   *  drawn as the table is built) scroll nothing: the table calls this again once it is mounted. */
  toEnd() {
    this.node.scrollTop = this.node.scrollHeight;
    // on a phone the sheet around the log scrolls, not the log itself
    const sheet = this.node.closest('.panel');
    if (sheet) sheet.scrollTop = sheet.scrollHeight;
  }

  destroy() { this._unsub(); clear(this.node); }
}

// The table's state: what is on screen and what the network layer knows, in one place with subscribers.
// Written only by the event player (shown, target, recent, animating, playing) and the network layer
// (room, me, v, legal, sending, waitV); read by the event player, the panels and the decision bar. Pure.

/** Keys and who writes them (kept here so a reader sees the whole state at once). */
export const FIELDS = Object.freeze({
  room: 'network',      // the room's state (seats, settings, spectators), as the server last sent it
  me: 'network',        // this person's id
  v: 'network',         // the latest game version this client holds
  legal: 'network',     // our legal actions for version `v`, or null when we have none for it
  legals: 'network',    // Expeditions: each of our seats' order forms of version `v` by colour, or null
  sending: 'network',   // an action is on its way to the server
  waitV: 'network',     // the version the server answered our last action with: wait for it
  deadline: 'network',  // the turn clock of version v: {v, colour, end} (end: performance.now() ms), or null
  shown: 'player',      // the view on screen (while animating: the board as the events leave it)
  target: 'player',     // the latest view from the server
  recent: 'player',     // cells placed by the message just played (drawn highlighted)
  animating: 'player',  // a message's events are being played
  playing: 'player',    // animation tasks are queued or running
});

export class TableState {
  constructor(init = {}) {
    this.room = null; this.me = null; this.v = null; this.legal = null; this.legals = null;
    this.sending = false; this.waitV = 0; this.deadline = null;
    this.shown = null; this.target = null; this.recent = new Set();
    this.animating = false; this.playing = false;
    this._subs = new Set();
    Object.assign(this, init);
  }

  /** Call fn(changedKeys: Set, state) after every change; returns the function that unsubscribes. */
  subscribe(fn) {
    this._subs.add(fn);
    return () => this._subs.delete(fn);
  }

  /** Change some fields and tell the subscribers which ones changed (nothing when none did). */
  set(patch) {
    const changed = new Set();
    for (const [k, val] of Object.entries(patch)) {
      if (!(k in FIELDS)) throw new Error(`TableState has no field ${k}`);
      if (this[k] !== val) { this[k] = val; changed.add(k); }
    }
    if (changed.size) for (const fn of [...this._subs]) fn(changed, this);
    return changed;
  }

  /** True when the view on screen is the latest, nothing is playing or sending: a click can count. */
  get interactive() {
    return !this.animating && !this.playing && !this.sending && this.shown !== null &&
      this.shown === this.target && (this.v ?? 0) >= (this.waitV || 0);
  }

  /** The legal actions of the view on screen, when it is the latest and they have come. */
  get legalShown() { return this.shown === this.target ? this.legal : null; }

  /** The colours this client plays (from the room's seats and our person id). */
  myColours() {
    if (!this.room || !this.me) return [];
    return (this.room.seats || []).filter((s) => s.person === this.me && s.kind === 'human').flatMap((s) => s.colours);
  }

  seatOfColour(colour) {
    return (this.room?.seats || []).find((s) => (s.colours || []).includes(colour)) || null;
  }

  toString() { return `TableState(v=${this.v}, shown=${this.shown ? 'view' : 'none'}, interactive=${this.interactive})`; }
}

// The turn clock on the table: every element marked `data-clock` inside the table shows the time left of
// the pending decision (the table state's `deadline`), ticking; the last 10 s are a warning (a class, and
// a short sound when sound is on).

import { el } from './dom.js';

export const WARN_MS = 10000;

/** A countdown element (filled and ticked by ClockTicker). */
export function countdown() {
  return el('span', { class: 'countdown', role: 'timer', 'data-clock': '', 'data-testid': 'countdown', hidden: true });
}

/** "1:05", "0:09": the time left, rounded up to the second. */
export function formatLeft(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The milliseconds left of the decision on screen, or null when it has no clock (or is not current). */
export function timeLeft(state, now = performance.now()) {
  const d = state.deadline;
  if (!d || d.v !== state.v || !state.shown || state.shown !== state.target) return null;
  if (state.shown.pending?.colour !== d.colour) return null;
  return Math.max(0, d.end - now);
}

/** The milliseconds left of an Expeditions turn (its clock times the turn, not a decision): while a view of a
 *  game not over is on screen, or null. */
export function turnTimeLeft(state, now = performance.now()) {
  const d = state.deadline;
  if (!d || !state.shown || state.shown.phase === 'over') return null;
  return Math.max(0, d.end - now);
}

export class ClockTicker {
  /** root: the table's element; state: TableState; onWarn(): called once per decision at WARN_MS;
   *  left(state): the time left to show (`timeLeft` by default: a decision's clock); onTick(left, deadline):
   *  after each tick, for what a table shows beside the countdowns. */
  constructor(root, state, { onWarn, left = timeLeft, onTick } = {}) {
    this.root = root; this.state = state; this.onWarn = onWarn || (() => {});
    this.left = left; this.onTick = onTick || (() => {});
    this._warned = null;
    this._timer = setInterval(() => this.tick(), 250);
  }

  tick() {
    const left = this.left(this.state);
    // (only what changed is written: a write, even of the same text, is a mutation the page lays out again,
    // four times a second for as long as the clock runs)
    for (const node of this.root.querySelectorAll('[data-clock]')) {
      if (node.hidden !== (left === null)) node.hidden = left === null;
      if (left === null) continue;
      const text = formatLeft(left);
      if (node.textContent !== text) node.textContent = text;
      node.dataset.ms = String(Math.round(left));
      node.classList.toggle('warn', left <= WARN_MS);   // (a toggle to the state it has changes nothing)
    }
    const d = this.state.deadline;
    if (left !== null && left <= WARN_MS && left > 0 && this._warned !== d) {
      this._warned = d;
      this.onWarn(d);
    }
    this.onTick(left, d);
  }

  destroy() { clearInterval(this._timer); }
}

// The event player: plays each game message's events on the board in order (a fleet sails, a tile flips
// in, boats land), adds them to the log, then shows the message's view. It alone writes what is on screen
// into the table state (shown, target, recent, animating, playing).
import { AnimationQueue } from '../queue.js';
import { applyEventToDisplay } from '../display.js';
import { eventEntry, drawnDangers } from './gamelog.js';
import { cellKey } from '../hex.js';

/** The animation speed a page starts with: the URL's `anim`, else the person's last choice, else 1. */
export function initialSpeed() {
  try {
    const q = new URLSearchParams(location.search).get('anim');
    if (q !== null) return Number(q);
    const s = localStorage.getItem('tongiaki.speed');
    if (s !== null) return Number(s);
  } catch { /* ignore */ }
  return 1;
}

export class EventPlayer {
  /** state: TableState; board: BoardView; log: GameLog; t: translator; toast(text): a passing notice.
   *  The table sets `fillLog(after, upTo)`: fills the log from the server (gamelog.js backfillLog). */
  constructor({ state, board, log, t, toast }) {
    this.state = state; this.board = board; this.log = log; this.t = t; this.toast = toast;
    this.queue = new AnimationQueue({ speed: initialSpeed(), skipWhen: () => !!globalThis.document?.hidden });
  }

  setSpeed(s) {
    this.queue.setSpeed(s);
    try { localStorage.setItem('tongiaki.speed', String(s)); } catch { /* ignore */ }
  }

  /** A fresh snapshot (of version v): drop queued animations, show it as is. */
  snapshot(view, v) {
    this.queue.clear();
    this.board.clearOverlay();
    this._set({ target: view, playing: true });
    this.queue.push(async () => { this._set({ shown: view, recent: new Set(), animating: false }); }).then(() => this._settled());
    if (!this.log.length && view.phase === 'play') {
      this.log.add({ msg: ['phase.play', { turn: view.turn }] });
      this.fillLog?.(null, v);   // the log from the game's start, from the server (gamelog.js backfillLog)
    } else if (this.log.v !== null && Number.isInteger(v) && v > this.log.v) {
      // events this page never logged: it went away meanwhile (a reload), or the animations that would
      // have logged them were just dropped
      this.fillLog?.(this.log.v, v);
    }
  }

  /** An applied game message (of version v): play its events, then show the new view. */
  /** `by`: who decided when the server did ("clock", "autopilot", "bot"), else null. */
  message(prev, events, view, by = null, v = undefined) {
    this._set({ target: view, playing: true });
    // far behind (a hidden tab, a long catch-up): jump to the present instead of replaying it all
    if (this.queue.pending > 60 || globalThis.document?.hidden) this.queue.skip();
    const tasks = [];
    let disp = null;
    tasks.push(async () => {
      disp = this.state.shown || prev || view;
      this._set({ recent: new Set(), animating: true });
      const colour = prev?.pending?.colour;
      const who = by === 'takeover' ? 'autopilot' : by;   // the server says "takeover" (docs/protocol.md)
      if ((who === 'clock' || who === 'autopilot') && colour) {
        const name = this.state.seatOfColour(colour)?.name || this.t(`colour.${colour}`);
        this.log.add({ msg: [who === 'clock' ? 'log.by_clock' : 'log.by_autopilot', { name }], colour, type: `by-${who}`, v });
      }
    });
    for (const ev of events) tasks.push((ctx) => this._event(ctx, ev, v, () => disp, (d) => { disp = d; }));
    tasks.push(async () => {
      this.board.clearOverlay();
      this._set({ animating: false, shown: view });
      this.log.logged(v);
    });
    this.queue.pushAll(tasks).then(() => this._settled());
  }

  /** Writes to the table state, unless this player was destroyed (a task still running then must not
   *  overwrite what the next table's player shows). */
  _set(patch) { if (!this.dead) this.state.set(patch); }

  /** A batch of animations ended: when nothing else is queued, the decision becomes live. */
  _settled() {
    if (!this.queue.busy) this._set({ playing: false });
  }

  async _event(ctx, ev, v, getDisp, setDisp) {
    const b = this.board;
    // a drawn ocean tile is told by its dangers: the event names only its id; the message's view has it in
    // hand or already placed (a chain reaction places it in the same message)
    const after = this.state.target;
    const dangers = drawnDangers(ev, (name) => (after?.hand?.tile === name ? after.hand : (after?.tiles || []).find((x) => x.tile === name))?.paths);
    const entry = eventEntry(ev, this.t, dangers);
    const text = entry?.text;
    if (entry) this.log.add({ ...entry, v });
    const show = (d) => { setDisp(d); this._set({ shown: d }); };
    switch (ev.type) {
      case 'fleet_departed': {
        await b.follow(ctx, b.cellPoint(ev.cell));
        show(applyEventToDisplay(getDisp(), ev));
        b.showFleet(ev.boats || [], b.cellPoint(ev.cell));
        await b.moveFleetTo(ctx, b.sidePoint(ev.cell, ev.pier), 450);
        return;
      }
      case 'tile_drawn': {
        this.toast(text);
        await ctx.wait(250);
        return;
      }
      case 'tile_placed': {
        const d = applyEventToDisplay(getDisp(), ev);
        setDisp(d);
        await b.follow(ctx, b.cellPoint(ev.cell));
        this._set({ shown: d, recent: new Set([...this.state.recent, cellKey(ev.cell)]) });
        await b.flipIn(ctx, ev.cell, 550);
        return;
      }
      case 'path_followed': {
        if (!b.fleetNode) b.showFleet([], b.sidePoint(ev.cell, ev.entry));
        await b.follow(ctx, b.cellPoint(ev.cell));
        await b.sailPath(ctx, ev.cell, ev.entry, ev.exit, 650);
        return;
      }
      case 'crossing': {
        if (!ev.passed || ev.danger) await b.flash(ctx, ev.cell, ev.passed ? 'pass' : 'fail', `${ev.danger} vs ${ev.colours}`, 500);
        return;
      }
      case 'sunk': {
        await b.sink(ctx, 1100);
        return;
      }
      case 'turned_back': {
        await b.flash(ctx, ev.cell, 'royal', '↩', 400);
        await b.moveFleetTo(ctx, b.cellPoint(ev.to), 700);
        return;
      }
      case 'fleet_arrived': {
        if (!b.fleetNode) b.showFleet(ev.boats || [], b.cellPoint(ev.cell));
        await b.moveFleetTo(ctx, b.cellPoint(ev.cell), 350);
        return;
      }
      case 'landed': {
        await b.follow(ctx, b.cellPoint(ev.cell));
        const d = applyEventToDisplay(getDisp(), ev);
        b.hideFleet();
        show(d);
        await b.flash(ctx, ev.cell, 'land', null, 400);
        return;
      }
      case 'fleet_at_sea': case 'game_over': case 'endless_chain': {
        await ctx.wait(300);
        return;
      }
      case 'island_removed': {
        await b.flash(ctx, ev.cell, 'fail', '✕', 500);
        show(applyEventToDisplay(getDisp(), ev));
        return;
      }
      case 'turn_passed': return;
      default: {
        show(applyEventToDisplay(getDisp(), ev));
        await ctx.wait(250);
      }
    }
  }

  destroy() { this.dead = true; this.queue.clear(); this.board.clearOverlay(); }
}

// One room as this page knows it, between the network (net.js) and the screens: the room's state, the game
// stream (versions, gaps, catch-up), the table state and its turn clock, the game log, and the requests sent
// for the room (a decision with its ack, seat and host requests, chat). Screens are given this narrow
// interface and callbacks; they never see the network or the app.
import { GameStream } from './patch.js';
import { TableState } from './ui/tablestate.js';
import { GameLog } from './ui/gamelog.js';

export class RoomSession {
  /**
   * @param net the connection (`request(event, data)` answered by an ack)
   * @param id the room's id; `state` its first room state; `me` the person this page is
   * @param hooks `render()` draws the room's screen again (waiting room or table); `rejoin()` joins the room
   *   again (a catch-up with no version yet); `refused(error)` tells the person a request was refused
   */
  constructor(net, id, state, me, hooks) {
    this.net = net;
    this.id = id;
    this.state = state;
    this.stream = new GameStream();
    this.tableState = new TableState({ room: state, me });
    this.log = new GameLog(id).restore();
    this.hooks = hooks;
    this.chat = null;     // the chat's screen part (`add(line)`), set by the composition root
    this.table = null;    // the table on screen (`show(message)`, `destroy()`), set by the composition root
    this.end = null;      // the end of the game's buttons (`update()`)
    this.invite = null;   // a rematch another player asked for
    this._catching = false;
  }

  /** The `room_join` payload: `since` the version held, when joining again. */
  joinPayload(rejoin) {
    const payload = { room: this.id };
    if (rejoin && this.stream.v !== null) payload.since = this.stream.v;
    return payload;
  }

  /** A `room_join` answer for this room: its state (unless older than the one held), chat, and the game. */
  joined(res, fresh) {
    if (!fresh && (!this.state || (res.room.rev ?? 0) >= (this.state.rev ?? 0))) {
      this.state = res.room;
      this.tableState.set({ room: res.room });
    }
    this.clockFromRoom(res.room);
    for (const line of res.chat || []) this.chat?.add(line);
    this.hooks.render();
    if (res.game) this.applyCatchUp(res.game);
  }

  /** A `room` broadcast: the newer state; the screen is drawn again when the room's status changes. */
  onRoom(state) {
    if (this.state && (state.rev ?? 0) < (this.state.rev ?? 0)) return;
    const was = this.state?.status;
    this.state = state;
    this.tableState.set({ room: state });
    if (state.rematch) this.invite = state.rematch;
    this.end?.update();
    this.clockFromRoom(state);
    if (was !== state.status || state.status === 'waiting') this.hooks.render();
  }

  /** A `game` message of this room: shown when it follows the version held, a catch-up when one was missed. */
  async onGame(msg) {
    const res = this.stream.receive(msg);
    if (res.status === 'applied') {
      this._show(res);
      this.clockFromMessage(res.view, res.prev);
      this.streamChanged();
    } else if (res.status === 'gap') {
      await this.catchUp();
    }
  }

  /** The legal actions of a decision of ours (they come apart from the room's `game` messages). */
  onLegal(payload) {
    this.stream.setLegal(payload);
    this.streamChanged();
  }

  applyCatchUp(answer) {
    for (const x of this.stream.catchUp(answer)) {
      if (x.status === 'snapshot' || x.status === 'applied') this._show(x);
    }
    this.streamChanged();
  }

  /** Ask for what was missed since the version held (or join again when none is). */
  async catchUp() {
    if (this._catching) return;
    this._catching = true;
    try {
      if (this.stream.v === null) { await this.hooks.rejoin(); return; }
      const res = await this.net.request('since', { room: this.id, v: this.stream.v });
      if (res.ok) {
        if (res.snapshot || res.messages) this.applyCatchUp(res);
        for (const line of res.chat || []) this.chat?.add(line);
      }
    } finally { this._catching = false; }
  }

  /** Whether the room waits for its game to start (no game message yet): the waiting room, not the table. */
  get waiting() { return this.state.status === 'waiting' && this.stream.v === null; }

  /** A message (or snapshot) on the table, drawn first if it is not yet (the game started meanwhile). */
  _show(x) {
    if (!this.table) {
      if (this.state?.status === 'waiting') this.state = { ...this.state, status: 'playing' };
      this.hooks.render();
      if (!this.table) return;   // (no longer the room on screen)
    }
    this.table.show(x);
  }

  /** The game stream moved on or our legal actions came: the table state learns the version and them. */
  streamChanged() { this.tableState.set({ v: this.stream.v, legal: this.stream.legalNow(), legals: this.stream.legalSeatsNow() }); }

  /** The turn clock from a room state: the server's milliseconds left, counted from now on this machine
   *  (so a skewed clock here does not matter). */
  clockFromRoom(state) {
    const ts = this.tableState;
    const c = state.clock;
    if (c && typeof c.remaining_ms === 'number') {
      // Expeditions: `starts_ms` while the turn's clock waits for its report to be seen (§14)
      if (!ts.deadline || c.v >= ts.deadline.v) ts.set({ deadline: { v: c.v, colour: c.colour, end: performance.now() + c.remaining_ms,
        starts: typeof c.starts_ms === 'number' ? performance.now() + c.starts_ms : null } });
    } else if (ts.deadline && (state.v === ts.deadline.v || state.status !== 'playing')) {
      ts.set({ deadline: null });   // a bot took the seat over, or the game ended
    }
  }

  /** A live game message starts a decision: with a turn clock and a person to decide, it runs from now.
   *  In Expeditions the clock times the turn: it starts afresh only when a new turn begins. */
  clockFromMessage(view, prev) {
    const ts = this.tableState;
    const clock = this.state?.settings?.clock;
    if (view?.mode === 'expeditions') {
      const d = ts.deadline;
      if (view.phase === 'over') ts.set({ deadline: null });
      else if (!d || !prev || prev.turn !== view.turn) {
        // a live game's clock waits for the report (25 s at the latest, §14) until the room says it started
        const wait = prev && clock <= 600 ? 25_000 : 0;
        ts.set({ deadline: { v: this.stream.v, turn: view.turn, end: performance.now() + wait + clock * 1000,
          starts: wait ? performance.now() + wait : null } });
      }
      else ts.set({ deadline: { ...d, v: this.stream.v } });
      return;
    }
    const colour = view?.pending?.colour;
    const seat = colour ? ts.seatOfColour(colour) : null;
    const runs = clock && seat && seat.kind === 'human' && !seat.autopilot;
    ts.set({ deadline: runs ? { v: this.stream.v, colour, end: performance.now() + clock * 1000 } : null });
  }

  /** Send a decision (for `colour`, one of our seats', when we hold several: docs/protocol.md §14); the
   *  table state knows it is on its way, and which version answers it. */
  async act(action, colour = null) {
    const ts = this.tableState;
    if (ts.sending) return { ok: false, error: { code: 'busy' } };
    ts.set({ sending: true });
    let res;
    try {
      res = await this.net.request('act', { room: this.id, v: this.stream.v, action, ...(colour ? { colour } : {}) });
      if (!res.ok && res.error?.code === 'stale_version') await this.catchUp();
    } finally {
      ts.set({ sending: false, ...(res?.ok && typeof res.v === 'number' ? { waitV: res.v } : {}) });
    }
    return res;
  }

  /** A request about this room, its answer as it came (the caller handles a refusal). */
  send(event, extra) { return this.net.request(event, { room: this.id, ...extra }); }

  /** A request about this room (sit, stand, bots, start, …): a refusal is told, the state it answers with taken. */
  async request(event, extra) {
    const res = await this.send(event, extra);
    if (!res.ok) { this.hooks.refused(res.error); return res; }
    if (res.room) this.onRoom(res.room);
    return res;
  }

  /** The whole game so far (`since` version 0), for a table that shows earlier turns. */
  history() { return this.send('since', { v: 0 }); }

  /** Expeditions (docs/protocol.md §14): the report shown lets the next turn's deadline start. */
  seen(turn) { return this.send('report_seen', { turn }).catch(() => null); }

  /** Expeditions: an order that is in (of `colour`, when we hold several seats) may be taken back until
   *  the turn resolves. */
  withdraw(colour = null) { return this.send('withdraw', colour ? { colour } : {}); }

  /** Leave the room: its table goes, and the server stops sending its messages. */
  async leave() {
    this.table?.destroy();
    this.table = null;
    await this.net.request('room_leave', { room: this.id });
  }
}

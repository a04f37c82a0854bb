// Applying the room stream (docs/protocol.md §5): patches of the public view, versions, gaps, and the
// legal actions this client is sent when it is to decide. Pure.

const clone = (x) => (x === undefined ? x : JSON.parse(JSON.stringify(x)));

/** Key numbers of protocol 2 (docs/protocol.md §5): in a patch, a map key listed here is sent as its
 *  index. The same table as server/patch.py. */
export const KEYS = [
  'colours', 'variants', 'phase', 'turn', 'active', 'tiles', 'players', 'stack', 'removed', 'fleet',
  'at_sea', 'in_hand', 'hand', 'pending', 'legal', 'result', 'you',
  'tile', 'rotation', 'kind', 'value', 'beaches', 'royal', 'cell', 'paths', 'moorings', 'piers', 'boats',
  'colour', 'supply', 'on_board', 'royal_left', 'score', 'islands', 'oceans', 'island_values',
  'ocean_dangers', 'remaining',
  'from', 'reason', 'full', 'island', 'beach', 'free',
  'scores', 'ranking', 'winners', 'decided_by', 'teams', 'team_ranking', 'two_colours', 'free_follow_up',
];

const isMap = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A patch that sets the whole view ({"=": view}). */
export const isWhole = (patch) => isMap(patch) && '=' in patch;

/** Apply a patch to a copy of `view`; returns the new view. A patch is {"=": view} or the change of the
 *  root map: a flat list [step, what, step, what, …] (see docs/protocol.md §5). */
export function applyPatch(view, patch) {
  if (isWhole(patch)) return clone(patch['=']);
  const root = clone(view);
  if (!isMap(root)) throw new Error('a change needs a view to change');
  applyChange(root, patch);
  return root;
}

function applyChange(node, change) {
  if (!Array.isArray(change) || change.length % 2) throw new Error(`bad change: ${JSON.stringify(change)}`);
  for (let i = 0; i < change.length; i += 2) {
    let step = change[i];
    let what = change[i + 1];
    if (Array.isArray(node)) {
      if (step === '@') {
        for (const [at, remove, ...items] of what) {
          if (!(at >= 0 && at <= node.length)) throw new Error(`splice at ${at} of an array of ${node.length}`);
          node.splice(at, remove, ...clone(items));
        }
        continue;
      }
      if (!Number.isInteger(step) || step < 0 || step > node.length) throw new Error(`no index ${step} in an array of ${node.length}`);
    } else if (isMap(node)) {
      if (typeof step === 'number') {
        if (!(step in KEYS)) throw new Error(`unknown key number ${step}`);
        step = KEYS[step];
      }
    } else {
      throw new Error(`step ${JSON.stringify(step)} into a scalar`);
    }
    if (Array.isArray(what)) {
      if (node[step] === null || typeof node[step] !== 'object') throw new Error(`no map or array at ${JSON.stringify(step)}`);
      applyChange(node[step], what);
      continue;
    }
    if (isMap(what)) {
      if (!('=' in what)) { delete node[step]; continue; }
      what = clone(what['=']);
    }
    node[step] = what;   // arrays: index === length appends
  }
}

/**
 * Holds (v, view) of one game and sorts incoming `game` messages:
 *   receive(msg) → {status: 'ignored'} | {status: 'applied', view, events, prev, v} | {status: 'gap', since}
 * and the legal actions this client was sent (`legal` events, catch-up answers), by version.
 */
export class GameStream {
  constructor() { this.v = null; this.view = null; this.legal = null; }

  loadSnapshot(snap) {
    this.v = snap.v;
    this.view = clone(snap.view);
    return this.view;
  }

  receive(msg) {
    const m = msg.v;
    if (this.v === null) {
      // nothing held yet: only a whole-view message (v = 0) can start the stream
      if (!isWhole(msg.patch)) return { status: 'gap', since: -1 };
      this.view = applyPatch(null, msg.patch);
      this.v = m;
      return { status: 'applied', view: this.view, events: msg.events || [], prev: null, v: m };
    }
    if (m <= this.v) return { status: 'ignored' };
    if (m > this.v + 1) return { status: 'gap', since: this.v };
    const prev = this.view;
    this.view = applyPatch(this.view, msg.patch);
    this.v = m;
    return { status: 'applied', view: this.view, events: msg.events || [], prev, by: msg.by || null, v: m };
  }

  /** A `legal` payload {v, actions}: kept unless an older one arrives late. `actions` is a list of legal
   *  actions (Tongiaki) or a map of the seat's options and own order (Expeditions, docs/protocol.md §14). */
  setLegal(payload) {
    if (!payload || !payload.actions || typeof payload.actions !== 'object') return;
    const colour = Array.isArray(payload.actions) ? null : payload.actions.colour;
    // the same version's actions again (a catch-up answer repeats them): keep the ones held, so nothing
    // downstream sees a change
    if (!this.legal || payload.v > this.legal.v) {
      this.legal = { v: payload.v, actions: payload.actions, seats: colour ? { [colour]: payload.actions } : null };
    } else if (payload.v === this.legal.v && colour && this.legal.seats && !(colour in this.legal.seats)) {
      // a person holding several seats of an Expeditions table gets one form per seat (docs/protocol.md §14)
      this.legal = { ...this.legal, seats: { ...this.legal.seats, [colour]: payload.actions } };
    }
  }

  /** The legal actions of the current version, or null when this client has none for it. */
  legalNow() { return this.legal && this.legal.v === this.v ? this.legal.actions : null; }

  /** Expeditions: each of our seats' forms of the current version by colour, or null (none). */
  legalSeatsNow() { return this.legal && this.legal.v === this.v ? this.legal.seats : null; }

  /** A catch-up answer: {v, messages:[…]} or {v, snapshot:{v, view}}, with `legal` when this client is
   *  to decide. Returns the list of results. */
  catchUp(answer) {
    if (!answer) return [];
    for (const legal of answer.legals || (answer.legal ? [answer.legal] : [])) this.setLegal(legal);
    if (answer.snapshot) {
      // a snapshot of the version already held changes nothing: the view on screen stays as it is
      if (this.view !== null && answer.snapshot.v === this.v) return [];
      this.loadSnapshot(answer.snapshot);
      return [{ status: 'snapshot', view: this.view, v: this.v }];
    }
    const out = [];
    for (const msg of answer.messages || []) out.push(this.receive(msg));
    return out;
  }
}

// Applying the room stream (docs/protocol.md §5): patches of the public view, versions, gaps. Pure.

const clone = (x) => (x === undefined ? x : JSON.parse(JSON.stringify(x)));

/** Apply a patch (list of ["set"|"del"|"trunc", path, arg]) to a copy of `view`; returns the new view. */
export function applyPatch(view, patch) {
  let root = clone(view);
  for (const op of patch || []) {
    const [kind, path, arg] = op;
    if (!Array.isArray(path)) throw new Error(`bad patch path: ${JSON.stringify(op)}`);
    if (path.length === 0) {
      if (kind === 'set') root = clone(arg);
      else throw new Error(`bad root op: ${kind}`);
      continue;
    }
    let node = root;
    for (const step of path.slice(0, -1)) {
      node = node?.[step];
      if (node === null || typeof node !== 'object') throw new Error(`patch path not found: ${JSON.stringify(path)}`);
    }
    const last = path[path.length - 1];
    if (kind === 'set') {
      if (Array.isArray(node) && typeof last === 'number' && last > node.length) throw new Error(`patch index past end: ${JSON.stringify(path)}`);
      node[last] = clone(arg);
    } else if (kind === 'del') {
      if (Array.isArray(node)) node.splice(last, 1);
      else delete node[last];
    } else if (kind === 'trunc') {
      if (!Array.isArray(node[last])) throw new Error(`trunc of a non-array: ${JSON.stringify(path)}`);
      node[last].length = Math.min(node[last].length, arg);
    } else {
      throw new Error(`unknown patch op: ${kind}`);
    }
  }
  return root;
}

/**
 * Holds (v, view) of one game and sorts incoming `game` messages:
 *   receive(msg) → {status: 'ignored'} | {status: 'applied', view, events, prev} | {status: 'gap', since}
 */
export class GameStream {
  constructor() { this.v = null; this.view = null; }

  loadSnapshot(snap) {
    this.v = snap.v;
    this.view = clone(snap.view);
    return this.view;
  }

  receive(msg) {
    const m = msg.v;
    if (this.v === null) {
      // nothing held yet: only a whole-view message (v = 0, or a root set) can start the stream
      const root = (msg.patch || []).find((op) => op[0] === 'set' && Array.isArray(op[1]) && op[1].length === 0);
      if (!root) return { status: 'gap', since: -1 };
      const prev = null;
      this.view = applyPatch(null, msg.patch);
      this.v = m;
      return { status: 'applied', view: this.view, events: msg.events || [], prev };
    }
    if (m <= this.v) return { status: 'ignored' };
    if (m > this.v + 1) return { status: 'gap', since: this.v };
    const prev = this.view;
    this.view = applyPatch(this.view, msg.patch);
    this.v = m;
    return { status: 'applied', view: this.view, events: msg.events || [], prev };
  }

  /** A catch-up answer: {v, messages:[…]} or {v, snapshot:{v, view}}. Returns the list of results. */
  catchUp(answer) {
    if (!answer) return [];
    if (answer.snapshot) {
      this.loadSnapshot(answer.snapshot);
      return [{ status: 'snapshot', view: this.view }];
    }
    if (answer.view && answer.v !== undefined && !answer.messages) {
      this.loadSnapshot(answer);
      return [{ status: 'snapshot', view: this.view }];
    }
    const out = [];
    for (const msg of answer.messages || []) out.push(this.receive(msg));
    return out;
  }
}

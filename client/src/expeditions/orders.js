// The order being made (EXPEDITIONS.md E4), pure: it offers only what the server's `options` allow and
// builds the wire form. The server checks again; this only keeps the form from offering what it refuses.

export const SIDES = ['N', 'E', 'S', 'W'];

/** The kinds of order open this turn, in the form's order. */
export function kindsOf(options) {
  if (!options) return [];
  const out = [];
  if (options.expand.length && (options.supply > 0 || options.expand.some((a) => Object.keys(a.own).length))) out.push('expand');
  if (options.royal.length) out.push('royal');
  if (options.place.length) out.push('place');
  if (options.take_back.length && options.expand.length) out.push('take_back');
  out.push('pass');
  return out;
}

export class OrderDraft {
  /** options: the `legal` payload's options (docs/protocol.md §14). */
  constructor(options) {
    this.options = options;
    this.kind = kindsOf(options)[0] || 'pass';
    this.island = null;
    this.beach = 'N';
    this.back = null;           // take_back: index into options.take_back
    this.moves = {};            // side -> signed count
    this.choose(this.kind);
  }

  choose(kind) {
    this.kind = kind;
    this.moves = {};
    const o = this.options;
    const first = { expand: o.expand[0]?.island, royal: o.royal[0], place: o.place[0], take_back: o.expand[0]?.island };
    this.island = first[kind] ?? null;
    this.back = kind === 'take_back' ? 0 : null;
  }

  setIsland(island) { this.island = island; this.moves = {}; }

  /** The activation of the chosen island (expand, take_back). */
  get activation() { return this.options.expand.find((a) => a.island === this.island) || null; }

  get used() { return Object.values(this.moves).reduce((s, n) => s + Math.abs(n), 0); }
  get placed() { return Object.values(this.moves).reduce((s, n) => s + Math.max(0, n), 0); }
  get removed() { return Object.values(this.moves).reduce((s, n) => s + Math.max(0, -n), 0); }

  /** Moves the island allows (take_back: exactly one placement). */
  get allowed() {
    if (this.kind === 'take_back') return 1;
    return this.activation ? this.activation.moves : 0;
  }

  get left() { return this.allowed - this.used; }

  /** Whether one more boat may go onto `side` (E4: within the moves, and the supply after take-backs). */
  canAdd(side) {
    const n = this.moves[side] || 0;
    if (this.kind === 'take_back') return this.used === 0;
    if (this.kind !== 'expand' || !this.activation) return false;
    if (n < 0) return true;   // undoing a take-back frees a move
    return this.left > 0 && this.placed < this.options.supply + this.removed;
  }

  /** Whether one boat may come off `side` (back to the supply: only the colour's own boats there). */
  canRemove(side) {
    const n = this.moves[side] || 0;
    if (n > 0) return true;   // undoing a placement
    if (this.kind !== 'expand' || !this.activation) return false;
    const own = this.activation.own[side] || 0;
    return this.left > 0 && -n < own;
  }

  add(side) { if (this.canAdd(side)) this.moves[side] = (this.moves[side] || 0) + 1; }
  remove(side) { if (this.canRemove(side)) this.moves[side] = (this.moves[side] || 0) - 1; }

  /** The islands an order of this kind may name. */
  get islands() {
    const o = this.options, k = this.kind;
    return k === 'royal' ? o.royal : k === 'place' ? o.place : (k === 'expand' || k === 'take_back') ? o.expand.map((a) => a.island) : [];
  }

  /** What the form holds, as plain data (kept across a reload of the page: ui/draft.js). */
  snapshot() {
    return { kind: this.kind, island: this.island, beach: this.beach, back: this.back, moves: { ...this.moves } };
  }

  /** Rebuild a snapshot on these options through the same checks as the form's buttons: whatever they
   *  no longer allow is left out. Returns this draft. */
  restore(saved) {
    if (!saved || !kindsOf(this.options).includes(saved.kind)) return this;
    this.choose(saved.kind);
    if (this.islands.includes(saved.island)) this.setIsland(saved.island);
    if (SIDES.includes(saved.beach)) this.beach = saved.beach;
    if (this.kind === 'take_back' && Number.isInteger(saved.back) && saved.back >= 0 && saved.back < this.options.take_back.length) this.back = saved.back;
    // take-backs first: a boat taken back is one more to place (canAdd)
    for (const sign of [-1, 1]) {
      for (const side of SIDES) {
        const n = Number(saved.moves?.[side]) || 0;
        if (Math.sign(n) !== sign) continue;
        for (let i = 0; i < Math.min(Math.abs(n), 64); i++) (n > 0 ? this.add(side) : this.remove(side));
      }
    }
    return this;
  }

  /** Whether the order may be sent as it stands. */
  get ready() {
    if (this.kind === 'pass') return true;
    if (this.kind === 'royal' || this.kind === 'place') return !!this.island;
    if (this.kind === 'take_back') return this.placed === 1;
    return this.used > 0;
  }

  /** The wire form (docs/expeditions.md, "Orders"). */
  toWire() {
    const moves = {};
    for (const s of SIDES) if (this.moves[s]) moves[s] = this.moves[s];
    switch (this.kind) {
      case 'royal': return { type: 'royal', island: this.island };
      case 'place': return { type: 'place', island: this.island, beach: this.beach };
      case 'expand': return { type: 'expand', island: this.island, moves };
      case 'take_back': return { type: 'expand', island: this.island, moves, take_back: this.options.take_back[this.back] };
      default: return { type: 'pass' };
    }
  }
}

/** An order in words ("expand on Tonga (2 boats onto the north beach)", "royal island on Oahu"), for the
 *  form, the report and the log; `view` names the islands. */
export function orderWords(order, t, view = null) {
  const isle = (abbr) => (view?.tiles || []).find((x) => x.tile === abbr)?.name || abbr;
  if (!order) return t('ex.order.none');
  if (order.type === 'royal') return t('ex.order.royal', { island: isle(order.island) });
  if (order.type === 'place') return t('ex.order.place', { beach: t(`ex.beach.${order.beach}`, { island: isle(order.island) }) });
  if (order.type === 'expand') {
    return t('ex.order.expand', { island: isle(order.island), moves: movesWords(order.moves, t) || t('ex.order.no_move') })
      + (order.take_back ? ' ' + t('ex.order.take_back', { beach: t(`ex.beach.${order.take_back.beach}`, { island: isle(order.take_back.island) }) }) : '');
  }
  return t('ex.order.pass');
}

/** An expansion's signed moves per beach in words ("2 boats onto the north beach, 1 back from the east"). */
export function movesWords(moves, t) {
  return SIDES.filter((s) => moves?.[s]).map((s) => t(moves[s] > 0 ? 'ex.order.onto' : 'ex.order.off',
    { n: Math.abs(moves[s]), side: t(`ex.side.${s}`) })).join(', ');
}

/** What the order being made means, in plain words: where its moves come from, what it does, and what
 *  follows from it (a beach past 3 boats sails, E6-E7). `view`: the map at the start of the turn. */
export function explainDraft(d, t, view, me) {
  const isle = (abbr) => (view?.tiles || []).find((x) => x.tile === abbr);
  const name = (abbr) => isle(abbr)?.name || abbr;
  const lines = [];
  if (d.kind === 'expand' || d.kind === 'take_back') {
    const act = d.activation;
    const back = d.kind === 'take_back' ? d.options.take_back[d.back] : null;
    if (back) lines.push(t('ex.explain.take_back', { from: t(`ex.beach.${back.beach}`, { island: name(back.island) }), island: name(d.island) }));
    else if (d.island === 'TONG') lines.push(t('ex.explain.tonga'));
    else if (act) lines.push(t('ex.explain.island', { island: name(d.island), n: act.moves }));
    const words = movesWords(d.moves, t);
    lines.push(words ? t('ex.explain.this_order', { moves: words }) : t('ex.explain.moves'));
    const tile = isle(d.island);
    for (const s of SIDES) {
      const after = (tile?.beaches?.[s]?.length || 0) + (d.moves[s] || 0);
      if ((d.moves[s] || 0) > 0 && after > 3) lines.push(t('ex.explain.overflow', { beach: t(`ex.beach.${s}`, { island: name(d.island) }), n: after, side: t(`ex.side.${s}`) }));
    }
  } else if (d.kind === 'royal') {
    const tile = isle(d.island);
    const own = SIDES.reduce((n, s) => n + (tile?.beaches?.[s] || []).filter((c) => c === me).length, 0);
    lines.push(t('ex.explain.royal', { island: name(d.island), n: own, value: tile?.value ?? '?' }));
  } else if (d.kind === 'place') {
    lines.push(t('ex.explain.place', { beach: t(`ex.beach.${d.beach}`, { island: name(d.island) }) }));
  } else {
    lines.push(t('ex.explain.pass'));
  }
  return lines;
}

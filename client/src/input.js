// The decision input state machine (pure). It never decides what is legal: it only narrows the server's
// list of legal actions (the `legal` event, docs/protocol.md §5) as the player points and clicks,
// highlights what can still be clicked, and hands back the one legal action dict that the clicks designate
// (sent verbatim to the server).
import { turnedTile } from './tiles.js';
import { cellKey } from './hex.js';

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const clone = (a) => JSON.parse(JSON.stringify(a));

/** Is multiset `part` (array of strings) contained in multiset `whole`? */
export function multisetContains(whole, part) {
  const counts = new Map();
  for (const x of whole) counts.set(x, (counts.get(x) || 0) + 1);
  for (const x of part) {
    const n = counts.get(x) || 0;
    if (!n) return false;
    counts.set(x, n - 1);
  }
  return true;
}
const pairKey = ([c, b]) => `${c}#${b}`;

export function myColours(view) {
  const y = view?.you;
  if (!y) return [];
  return Array.isArray(y) ? y : [y];
}

const notHere = Object.freeze({ error: 'err.not_here' });   // shared: callers only read it

/** A tile decision's preview: the tile in hand on the chosen cell, at the chosen (or first legal) rotation. */
function tilePreview(d, ui) {
  const pc = d._previewCell();
  if (!pc) return;
  const rots = d._rotationsAt(pc);
  const rot = rots.includes(d.sel.rotation) ? d.sel.rotation : rots[0];
  if (rot !== undefined) ui.preview = turnedTile(d.view?.hand, pc, rot);
}

/** The rotate and place buttons of a tile decision. */
function tileButtons(d, out) {
  const pc = d._previewCell();
  const can = !!pc && d._rotationsAt(pc).length > 0;
  out.push({ id: 'rotate:-1', label: 'btn.rotate_left', enabled: can && d._rotationsAt(pc).length > 1 });
  out.push({ id: 'rotate:1', label: 'btn.rotate_right', enabled: can && d._rotationsAt(pc).length > 1 });
  out.push({ id: 'place', label: 'btn.place', enabled: can, primary: true });
}

/** The rotate and place buttons of a tile decision, pressed: the tile in hand turned, or placed. */
function tilePress(d, id) {
  if (!id.startsWith('rotate:') && id !== 'place') return undefined;
  const pc = d._previewCell();
  if (!pc) return { error: 'err.choose_cell' };
  const rots = d._rotationsAt(pc);
  if (id === 'place') {
    const rot = rots.includes(d.sel.rotation) ? d.sel.rotation : rots[0];
    const a = d.legal.find((x) => (x.type === 'place_tile' && same(x.cell, pc) && x.rotation === rot) || (x.type === 'turn_tile' && x.rotation === rot));
    return a ? { send: clone(a) } : notHere;
  }
  const i = Math.max(0, rots.indexOf(d.sel.rotation));
  const step = Number(id.slice(7));
  d.sel.rotation = rots[(i + step + rots.length) % rots.length];
  return {};
}

/** The colonise button (a turn's or a restart's), pressed: the drastic choice waits for its confirmation. */
function colonisePress(d, id) {
  if (id !== 'colonise') return undefined;
  const a = d.legal.find((x) => x.type === 'colonise');
  if (!a) return notHere;
  d.sel.confirm = clone(a);
  return {};
}

/** The expansion of a turn, once its mode is chosen: take a boat back (an empty supply), the island, its beaches. */
function expandClick(d, at) {
  const { hit, isl, b, beachHit, pending } = at;
  const { stage, E } = d._expandCandidates();
  if (stage === 'take_back') {
    if (beachHit && E.some((a) => a.take_back.island === isl && a.take_back.beach === b)) {
      d.sel.takeBack = { island: isl, beach: b };
      return d._expandAuto();
    }
    return notHere;
  }
  if (stage === 'island') {
    if (!E.some((a) => a.island === isl)) return notHere;
    d.sel.island = isl; d.sel.beaches = [];
    if (beachHit) return d.click(hit);
    return d._expandAuto();
  }
  // choosing beaches
  if (isl !== d.sel.island) {
    if (pending) return {};
    if (E.some((a) => a.island === isl)) { d.sel.island = isl; d.sel.beaches = []; return beachHit ? d.click(hit) : {}; }
    return notHere;
  }
  if (!beachHit) return {};
  const chosen = d.sel.beaches;
  if (chosen.includes(b)) { d.sel.beaches = chosen.filter((x) => x !== b); delete d.sel.confirm; return {}; }
  if (pending) return {};   // every beach is chosen: a click elsewhere does not undo the choice
  const next = [...chosen, b];
  const cand = E.filter((a) => a.island === isl && next.every((x) => a.beaches.includes(x)));
  if (!cand.length) return notHere;
  d.sel.beaches = next;
  const done = cand.find((a) => a.beaches.length === next.length);
  if (done) d.sel.confirm = clone(done);
  return {};
}

/**
 * A handler per decision kind. Each part is optional and takes the DecisionInput `d` (its view, legal actions
 * and selection `sel`):
 * - `reset(d)` sets the selection up for a new decision;
 * - `highlights(d, ui)` fills what the board lights up;
 * - `buttons(d, out)` pushes the decision bar's buttons (a pending confirmation has its own, for every kind);
 * - `prompt(d)` the prompt's i18n key and args;
 * - `click(d, at)` a board click (`at`: `hit`, `isl`, `b` the beach as a number, `beachHit`, `pending` the type of
 *   the action awaiting confirmation): {send: action}, {error: key}, {} (the selection changed), or undefined
 *   (the click means nothing here: `err.not_here`);
 * - `press(d, id)` one of its buttons (`buttons`), the same results (Confirm and Undo of a pending confirmation,
 *   and Clear, are every kind's: the input handles them).
 */
export const HANDLERS = {
  setup: {
    highlights(d, ui) { for (const a of d.legal) if (a.type === 'setup') ui.beaches.add(`Tonga|${a.beach}`); },
    prompt() { return { key: 'prompt.setup' }; },
    click(d, { isl, b, beachHit }) {
      if (!beachHit) return undefined;
      const a = d.legal.find((x) => x.type === 'setup' && x.beach === b && isl === 'Tonga');
      return a ? { send: clone(a) } : notHere;
    },
  },

  turn: {
    reset(d) {
      const L = d.legal;
      d.sel.mode = L.some((a) => a.type === 'expand') ? 'expand' : (L.some((a) => a.type === 'royal') ? 'royal' : 'none');
    },
    highlights(d, ui) {
      if (d.sel.mode === 'expand') {
        const { stage, E } = d._expandCandidates();
        if (stage === 'take_back') {
          for (const a of E) ui.beaches.add(`${a.take_back.island}|${a.take_back.beach}`);
        } else if (stage === 'island') {
          for (const a of E) { ui.islands.add(a.island); for (const b of a.beaches) ui.beaches.add(`${a.island}|${b}`); }
        } else {
          const cand = E.filter((a) => a.island === d.sel.island);
          const chosen = d.sel.beaches || [];
          for (const b of chosen) ui.selectedBeaches.set(`${d.sel.island}|${b}`, 1);
          for (const a of cand) {
            if (!chosen.every((b) => a.beaches.includes(b))) continue;
            for (const b of a.beaches) ui.beaches.add(`${a.island}|${b}`);
          }
          ui.selectedIsland = d.sel.island;
        }
        if (d.sel.takeBack) ui.selectedBeaches.set(`${d.sel.takeBack.island}|${d.sel.takeBack.beach}`, '−');
      } else if (d.sel.mode === 'royal') {
        for (const a of d.legal) if (a.type === 'royal') ui.islands.add(a.island);
      }
    },
    buttons(d, out) {
      const L = d.legal;
      if (L.some((a) => a.type === 'expand')) out.push({ id: 'mode:expand', label: 'btn.expand', pressed: d.sel.mode === 'expand', enabled: true });
      if (L.some((a) => a.type === 'royal')) out.push({ id: 'mode:royal', label: 'btn.royal', pressed: d.sel.mode === 'royal', enabled: true });
      if (L.some((a) => a.type === 'colonise')) out.push({ id: 'colonise', label: 'btn.colonise', enabled: true, danger: true });
      if (d.sel.island || d.sel.takeBack) out.push({ id: 'clear', label: 'btn.clear', enabled: true });
    },
    prompt(d) {
      if (d.sel.mode === 'royal') return { key: 'prompt.royal' };
      if (d.sel.mode === 'expand') {
        const { stage, E } = d._expandCandidates();
        if (stage === 'take_back') return { key: 'prompt.take_back' };
        if (stage === 'island') return { key: 'prompt.expand_island' };
        const cand = E.filter((a) => a.island === d.sel.island);
        const n = cand.length ? cand[0].beaches.length : 0;
        return { key: 'prompt.expand_beaches', args: { n, left: n - (d.sel.beaches || []).length, island: d.sel.island } };
      }
      return { key: 'prompt.turn' };
    },
    click(d, at) {
      if (d.sel.mode === 'royal' && (at.hit.hit === 'island' || at.beachHit)) {
        const a = d.legal.find((x) => x.type === 'royal' && x.island === at.isl);
        if (!a) return at.pending ? {} : notHere;
        d.sel.confirm = clone(a);
        return {};
      }
      if (d.sel.mode === 'expand') return expandClick(d, at);
      return { error: 'err.choose_mode' };
    },
    press(d, id) {
      if (id.startsWith('mode:')) { d.sel = { mode: id.slice(5) }; if (d.sel.mode === 'expand') d._expandAuto(); return {}; }
      return colonisePress(d, id);
    },
  },

  restart: {
    reset(d) { d.sel.tonga = []; },
    highlights(d, ui) {
      const chosen = d.sel.tonga || [];
      const counts = new Map();
      for (const b of chosen) counts.set(`Tonga|${b}`, (counts.get(`Tonga|${b}`) || 0) + 1);
      ui.selectedBeaches = counts;
      for (const a of d.legal) {
        if (a.type !== 'restart') continue;
        if (a.tonga) {
          for (const b of a.tonga) {
            if (multisetContains(a.tonga.map(String), [...chosen, b].map(String))) ui.beaches.add(`Tonga|${b}`);
          }
        } else if (a.island !== undefined && !chosen.length) ui.beaches.add(`${a.island}|${a.beach}`);
      }
    },
    buttons(d, out) {
      if (d.legal.some((a) => a.type === 'colonise')) out.push({ id: 'colonise', label: 'btn.colonise', enabled: true, danger: true });
      if ((d.sel.tonga || []).length) out.push({ id: 'clear', label: 'btn.clear', enabled: true });
    },
    prompt() { return { key: 'prompt.restart' }; },
    click(d, { isl, b, beachHit }) {
      if (!beachHit) return undefined;
      const L = d.legal;
      if (isl === 'Tonga') {
        const next = [...d.sel.tonga, b];
        const cand = L.filter((a) => a.type === 'restart' && a.tonga && multisetContains(a.tonga.map(String), next.map(String)));
        if (cand.length) {
          d.sel.tonga = next;
          const done = cand.find((a) => a.tonga.length === next.length);
          return done ? { send: clone(done) } : {};
        }
      }
      const a = L.find((x) => x.type === 'restart' && x.island === isl && x.beach === b);
      return a ? { send: clone(a) } : notHere;
    },
    press: colonisePress,
  },

  migrate: {
    highlights(d, ui) {
      for (const a of d.legal) {
        if (a.type !== 'migrate') continue;
        const bk = `${a.island}|${a.beach}`;
        ui.beaches.add(bk);
        if (!d.sel.beach || d.sel.beach === bk) ui.piers.add(`${bk}|${a.pier}`);
      }
      if (d.sel.beach) ui.selectedBeaches.set(d.sel.beach, '•');
    },
    buttons(d, out) { if (d.sel.beach) out.push({ id: 'clear', label: 'btn.clear', enabled: true }); },
    prompt(d) { return { key: d.sel.beach ? 'prompt.migrate_pier' : 'prompt.migrate' }; },
    click(d, { hit, isl, b }) {
      const M = d.legal.filter((x) => x.type === 'migrate' && x.island === isl && x.beach === b);
      if (!M.length) return notHere;
      if (hit.hit === 'pier') {
        const a = M.find((x) => x.pier === Number(hit.dir));
        return a ? { send: clone(a) } : notHere;
      }
      if (M.length === 1) return { send: clone(M[0]) };
      d.sel.beach = `${isl}|${b}`;
      return {};
    },
  },

  land: {
    reset(d) { d.sel.assign = []; },
    highlights(d, ui) {
      const island = d._landIsland();
      // the boats placed so far, drawn at the moorings they will take
      ui.planned = new Map();
      for (const [c, b] of d.sel.assign) ui.planned.set(`${island}|${b}`, [...(ui.planned.get(`${island}|${b}`) || []), c]);
      if (d.sel.confirm) return;
      const rem = [...new Set(d._landRemaining())];
      const cols = d.sel.colour ? [d.sel.colour] : rem;
      const free = d.decision.free || [];
      for (let b = 0; b < Math.max(free.length, 8); b++) {
        if (cols.some((c) => d._landExtends([[c, b]]).length)) ui.beaches.add(`${island}|${b}`);
      }
    },
    buttons(d, out) {
      const rem = d._landRemaining();
      // the fleet's colours in its own order, each in its place even when none is left: a button never
      // moves under the pointer
      for (const c of new Set(d._landFleet())) {
        const n = rem.filter((x) => x === c).length;
        out.push({ id: `colour:${c}`, label: 'btn.boat', args: { colour: c, n }, colour: c,
          pressed: d.sel.colour === c && n > 0, enabled: n > 0 });
      }
      out.push({ id: 'confirm', label: 'btn.confirm_landing', enabled: !!d._landExact(), primary: true });
      if (d.sel.assign.length) out.push({ id: 'clear', label: 'btn.clear', enabled: true });
    },
    prompt(d) { return { key: d.sel.colour ? 'prompt.land' : 'prompt.land_colour', args: { island: d._landIsland(), colour: d.sel.colour } }; },
    click(d, { isl, b, beachHit }) {
      if (!beachHit) return undefined;
      if (isl !== d._landIsland()) return notHere;
      const rem = [...new Set(d._landRemaining())];
      let colour = d.sel.colour;
      if (!colour) {
        const ok = rem.filter((c) => d._landExtends([[c, b]]).length);
        if (ok.length === 1) colour = ok[0];
        else return { error: ok.length ? 'err.choose_colour' : 'err.not_here' };
      }
      if (!d._landExtends([[colour, b]]).length) return notHere;
      d.sel.assign.push([colour, b]);
      d._autoLand();
      return d._landAuto();
    },
    press(d, id) {
      if (id.startsWith('colour:')) { d.sel.colour = id.slice(7); return {}; }
      if (id !== 'confirm') return undefined;
      const a = d._landExact();   // every boat placed by hand, before the input asks to confirm
      return a ? { send: clone(a) } : { error: 'err.incomplete' };
    },
  },

  place_tile: {
    highlights(d, ui) {
      for (const a of d.legal) if (a.type === 'place_tile') ui.cells.add(cellKey(a.cell));
      tilePreview(d, ui);
    },
    buttons: tileButtons,
    prompt(d) { return { key: d._previewCell() ? 'prompt.place_tile_turn' : 'prompt.place_tile', args: { tile: d._tileInHand() } }; },
    click(d, { hit }) {
      if (hit.hit === 'cell') {
        const cell = hit.cell.split(',').map(Number);
        const rots = d._rotationsAt(cell);
        if (!rots.length) return notHere;
        d.sel.cell = cell; d.sel.rotation = rots[0];
        return {};
      }
      return hit.hit === 'preview' ? d.press('rotate:1') : undefined;
    },
    press: tilePress,
  },

  turn_tile: {
    highlights: tilePreview,
    buttons: tileButtons,
    prompt(d) { return { key: 'prompt.turn_tile', args: { tile: d._tileInHand() } }; },
    click(d, { hit }) { return hit.hit === 'preview' ? d.press('rotate:1') : undefined; },
    press: tilePress,
  },

  settle: {
    highlights(d, ui) {
      const isl = d._settleIsland();
      for (const a of d.legal) if (a.type === 'settle') ui.beaches.add(`${isl}|${a.beach}`);
    },
    prompt(d) { return { key: 'prompt.settle', args: { island: d._settleIsland() } }; },
    click(d, { isl, b, beachHit }) {
      if (!beachHit) return undefined;
      const a = d.legal.find((x) => x.type === 'settle' && x.beach === b && isl === d._settleIsland());
      return a ? { send: clone(a) } : notHere;
    },
  },
};

/** The prompt of an action awaiting its confirmation (the last step of a drastic or many-click decision). */
function confirmPrompt(d, c) {
  if (c.type === 'colonise') {
    const me = (d.view?.players || []).find((p) => p.colour === d.decision.colour);
    return { key: 'prompt.confirm_colonise', args: { n: me?.on_board ?? 0 } };
  }
  if (c.type === 'royal') return { key: 'prompt.confirm_royal', args: { island: c.island } };
  if (c.type === 'land') {
    const back = d._landFleet().length - c.boats.length;
    return { key: back ? 'prompt.confirm_land_back' : 'prompt.confirm_land', args: { island: c.island ?? d._landIsland(), n: back } };
  }
  if (c.type === 'expand') return { key: 'prompt.confirm_expand', args: { island: c.island, beaches: c.beaches.map((b) => b + 1).join(', '), n: c.beaches.length } };
  return null;
}

export class DecisionInput {
  constructor() { this.view = null; this.sel = {}; this.mine = []; this.actions = null; }

  /** Start over for a (new) view. `mine`: colours this client plays; `legal`: the legal actions of this
   *  view's decision when this client has them (null: not, or not yet — nothing can be chosen). */
  reset(view, mine = myColours(view), legal = null) {
    this.view = view;
    this.mine = mine;
    this.actions = Array.isArray(legal) ? legal : null;
    this.sel = {};
    this.handler?.reset?.(this);
    this._initialMode = this.sel.mode;
    this._autoLand();
    this._initialColour = this.sel.colour;   // a landing's only colour is picked by itself: no choice yet
    return this;
  }

  get decision() { return this.view?.pending || null; }
  get legal() { return this.actions || []; }
  /** Whether this client decides now (and holds the legal actions to choose from). */
  get canAct() { const d = this.decision; return !!d && this.mine.includes(d.colour) && this.actions !== null; }
  /** This client is to decide but its legal actions have not arrived yet. */
  get awaitingLegal() { const d = this.decision; return !!d && this.mine.includes(d.colour) && this.actions === null; }
  get kind() { return this.canAct ? this.decision.kind : null; }
  /** The handler of the decision this client makes now (null: none, or a kind this page does not know). */
  get handler() { const k = this.kind; return (k && Object.hasOwn(HANDLERS, k) && HANDLERS[k]) || null; }
  /** Whether the person has begun to choose (something selected beyond what a reset sets up). */
  get started() {
    const s = this.sel;
    return !!(s.confirm || s.island || s.takeBack || s.beach || s.cell || (s.beaches || []).length || (s.assign || []).length ||
      (s.tonga || []).length || (s.mode && s.mode !== this._initialMode) || (s.colour && s.colour !== this._initialColour));
  }

  // ---------------------------------------------------------------- expand helpers
  _expandCandidates() {
    let E = this.legal.filter((a) => a.type === 'expand');
    if (E.some((a) => a.take_back)) {
      if (!this.sel.takeBack) return { stage: 'take_back', E };
      E = E.filter((a) => a.take_back && a.take_back.island === this.sel.takeBack.island && a.take_back.beach === this.sel.takeBack.beach);
    }
    return { stage: this.sel.island ? 'beaches' : 'island', E };
  }

  // ---------------------------------------------------------------- land helpers
  _landFleet() { return (this.decision?.fleet || []).slice(); }
  _landRemaining() {
    const rem = this._landFleet();
    for (const [c] of this.sel.assign || []) { const i = rem.indexOf(c); if (i >= 0) rem.splice(i, 1); }
    return rem;
  }
  _landExtends(extra) {
    const want = [...(this.sel.assign || []), ...extra].map(pairKey);
    return this.legal.filter((a) => a.type === 'land' && multisetContains(a.boats.map(pairKey), want));
  }
  _landExact() {
    const want = (this.sel.assign || []).map(pairKey).sort();
    return this.legal.find((a) => a.type === 'land' && same(a.boats.map(pairKey).sort(), want)) || null;
  }
  _autoLand() {
    if (this.kind !== 'land') return;
    const distinct = [...new Set(this._landRemaining())];
    if (!this.sel.colour || !distinct.includes(this.sel.colour)) this.sel.colour = distinct.length === 1 ? distinct[0] : null;
  }
  _landIsland() { return this.decision?.island; }

  // ---------------------------------------------------------------- tile helpers
  _tileInHand() { return this.decision?.tile || this.view?.in_hand || null; }
  _rotationsAt(cell) {
    return this.legal.filter((a) => (a.type === 'place_tile' && same(a.cell, cell)) || (a.type === 'turn_tile'))
      .map((a) => a.rotation);
  }
  _previewCell() {
    if (this.kind === 'turn_tile') return this.decision.cell || this.sel.cell || null;
    return this.sel.cell || null;
  }
  _settleIsland() {
    const d = this.decision || {};
    if (d.island) return d.island;
    if (d.tile && this.view?.tiles?.some((t) => t.tile === d.tile)) return d.tile;
    // the colonist's island is the one placed last (the view lists tiles in placement order)
    const isl = (this.view?.tiles || []).filter((t) => t.kind === 'island');
    return isl.length ? isl[isl.length - 1].tile : null;
  }

  /** What the board should highlight. */
  highlights() {
    const ui = { islands: new Set(), beaches: new Set(), piers: new Set(), cells: new Set(), selectedBeaches: new Map() };
    this.handler?.highlights?.(this, ui);
    return ui;
  }

  /** Buttons for the decision bar: [{id, label (i18n key), args, enabled, pressed, danger, primary}]. */
  buttons() {
    const out = [];
    if (!this.kind) return out;
    if (this.sel.confirm) {
      // the last step of a drastic or many-click decision: say it, then send on Confirm (or Enter)
      const type = this.sel.confirm.type;
      const danger = type !== 'expand' && type !== 'land';
      // the action that completes the decision is the primary one (a drastic one keeps its warning style)
      out.push({ id: 'confirm', label: type === 'land' ? 'btn.confirm_landing' : `btn.confirm_${type}`, enabled: true,
        danger, primary: !danger });
      out.push({ id: 'undo', label: 'btn.undo', enabled: true });
      return out;
    }
    this.handler?.buttons?.(this, out);
    return out;
  }

  /** The i18n key of the prompt for the current stage. */
  prompt() {
    if (!this.decision) return { key: 'prompt.none' };
    if (!this.kind) return { key: 'prompt.waiting', args: { colour: this.decision.colour, kind: this.decision.kind } };
    const c = this.sel.confirm;
    return (c && confirmPrompt(this, c)) || this.handler?.prompt?.(this) || { key: 'prompt.setup' };
  }

  /** A board click. Returns {send: action} when the clicks designate a legal action, {error: key} when the
   * click means nothing now, otherwise {} (the selection changed: re-render). */
  click(hit) {
    if (!this.kind) return { error: 'err.not_your_turn' };
    // waiting for a confirmation: only another royal island, or a chosen beach (to take it back), counts
    const pending = this.sel.confirm?.type;
    if (pending === 'colonise' || pending === 'land') return {};
    const at = { hit, isl: hit.island, b: hit.beach === undefined ? undefined : Number(hit.beach),
      beachHit: hit.hit === 'beach' || hit.hit === 'pier', pending };
    return this.handler?.click?.(this, at) || notHere;
  }

  _expandAuto() {
    const { stage, E } = this._expandCandidates();
    if (stage === 'island') {
      const islands = [...new Set(E.map((a) => a.island))];
      if (islands.length === 1) { this.sel.island = islands[0]; this.sel.beaches = []; }
    }
    return {};
  }

  /** Every boat placed (or no mooring left for the rest): say it, and land on Confirm, as an expansion
   *  asks (Undo takes the last boat back). */
  _landAuto() {
    const exact = this._landExact();
    const complete = exact && (!this._landRemaining().length || this._landExtends([]).every((a) => a.boats.length === this.sel.assign.length));
    if (complete) this.sel.confirm = clone(exact);
    return {};
  }

  /** A decision-bar button. Same return shape as click(). Confirm and Undo of a pending confirmation, and
   *  Clear, are every kind's; the rest go to the decision's handler. */
  press(id) {
    if (!this.kind) return { error: 'err.not_your_turn' };
    if (id === 'confirm' && this.sel.confirm) return { send: clone(this.sel.confirm) };
    if (id === 'undo') {
      const c = this.sel.confirm;
      delete this.sel.confirm;
      // an expansion goes back one beach; the other choices back to before their click
      if (c?.type === 'expand') this.sel.beaches = (this.sel.beaches || []).slice(0, -1);
      if (c?.type === 'land') { this.sel.assign.pop(); this._autoLand(); }
      return {};
    }
    if (id === 'clear') { this.reset(this.view, this.mine, this.actions); return {}; }
    return this.handler?.press?.(this, id) || notHere;
  }
}

// The Expeditions map, view → SVG vnodes (pure). Square tiles on an 11 × 11 grid (x, y = 1…11, y down),
// never rotated; an island has a beach on each side (3 moorings); a sea tile has two routes between side
// midpoints, with the weather factor printed at each end (the view's factors already hold a typhoon's +1).
import { h } from '../vdom.js';
import { boatShape, COLOURS } from '../board.js';
import { markOf, markPath } from '../marks.js';

export const CELL = 100;
export const GRID = 11;
const R = (v) => Math.round(v * 10) / 10;

/** The top-left corner of cell [x, y]. */
export const origin = ([x, y]) => ({ x: (x - 1) * CELL, y: (y - 1) * CELL });

const MID = { N: [0.5, 0], E: [1, 0.5], S: [0.5, 1], W: [0, 0.5] };
const INWARD = { N: [0, 1], E: [-1, 0], S: [0, -1], W: [1, 0] };

/** A point of cell `c` at fractions (fx, fy) of its side. */
const at = (c, fx, fy) => ({ x: R(origin(c).x + fx * CELL), y: R(origin(c).y + fy * CELL) });

/** The curve of a route from side a to side b: straight across, or bending through the middle. */
export function routePath(c, a, b) {
  const p = at(c, ...MID[a]), q = at(c, ...MID[b]), m = at(c, 0.5, 0.5);
  return `M${p.x},${p.y} Q${m.x},${m.y} ${q.x},${q.y}`;
}

/** Where a factor is printed: just inside the route's end at side `s`, a little off the route. */
function factorAt(c, s, k) {
  const [fx, fy] = MID[s], [ix, iy] = INWARD[s];
  const off = (k === 0 ? -1 : 1) * 0.12;   // the two routes' numbers at one side stay apart
  return at(c, fx + ix * 0.15 + (iy ? off : 0), fy + iy * 0.15 + (ix ? off : 0));
}

/** Boat positions on the beach at side s (3 moorings along the side, inside the sand). */
function moorings(c, s, n) {
  const [fx, fy] = MID[s], [ix, iy] = INWARD[s];
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = (i - (n - 1) / 2) * 0.2;
    out.push(at(c, fx + ix * 0.14 + (iy ? t : 0), fy + iy * 0.14 + (ix ? t : 0)));
  }
  return out;
}

/** A small spiral: a typhoon struck this tile (its factors hold +1, E10). */
function spiral(cx, cy) {
  let d = '';
  for (let i = 0; i <= 24; i++) {
    const a = i * 0.55, r = 1.2 + i * 0.42;
    d += `${i ? 'L' : 'M'}${R(cx + r * Math.cos(a))},${R(cy + r * Math.sin(a))} `;
  }
  return d.trim();
}

function seaTile(t, ui) {
  const o = origin(t.cell);
  const routes = (t.routes || []).map(([a, b, fa, fb], k) => h('g', { class: 'route' },
    h('path', { class: 'current', d: routePath(t.cell, a, b) }),
    h('path', { class: 'foam', d: routePath(t.cell, a, b) }),
    ...[[a, fa], [b, fb]].map(([s, f]) => {
      const p = factorAt(t.cell, s, k);
      return h('g', { class: `factor${t.boosted ? ' boosted' : ''}`, 'data-side': s },
        h('circle', { cx: p.x, cy: p.y, r: 9 }), h('text', { x: p.x, y: p.y + 4 }, String(f)));
    })));
  return h('g', { class: `tile sea${t.boosted ? ' boosted' : ''}${ui.recent?.has(t.tile) ? ' recent' : ''}`,
    'data-tile': t.tile, 'data-cell': t.cell.join(',') },
  h('rect', { class: 'water', x: o.x + 1, y: o.y + 1, width: CELL - 2, height: CELL - 2, rx: 6 }),
  routes,
  t.boosted ? h('path', { class: 'typhoon-mark', d: spiral(o.x + CELL - 15, o.y + 15) }) : null);
}

function islandTile(t, ui) {
  const o = origin(t.cell);
  const cx = o.x + CELL / 2, cy = o.y + CELL / 2;
  const royal = t.royal;
  const beaches = ['N', 'E', 'S', 'W'].map((s) => {
    const boats = t.beaches?.[s] || [];
    const pts = moorings(t.cell, s, 3);
    return h('g', { class: 'beach', 'data-beach': s, 'data-boats': boats.join(',') },
      pts.map((p) => h('circle', { class: 'mooring', cx: p.x, cy: p.y, r: 2.2 })),
      boats.slice(0, 6).map((c, i) => boatShape(pts[i % 3], c, 6.5, { class: 'boat', 'data-colour': c })));
  });
  return h('g', { class: `tile island${royal ? ' royal' : ''}${ui.selected === t.tile ? ' selected' : ''}${ui.options?.has(t.tile) ? ' option' : ''}`,
    'data-tile': t.tile, 'data-cell': t.cell.join(','), 'data-island': t.tile },
  h('rect', { class: 'water', x: o.x + 1, y: o.y + 1, width: CELL - 2, height: CELL - 2, rx: 6 }),
  h('rect', { class: 'reef', x: o.x + 9, y: o.y + 9, width: CELL - 18, height: CELL - 18, rx: 26 }),
  h('rect', { class: 'sand', x: o.x + 14, y: o.y + 14, width: CELL - 28, height: CELL - 28, rx: 22 }),
  h('ellipse', { class: 'green', cx, cy: cy + 2, rx: 20, ry: 16 }),
  h('path', { class: 'palm', d: `M${cx + 8},${cy + 8} q-2,-10 3,-18 M${cx + 11},${cy - 10} l-9,2 M${cx + 11},${cy - 10} l8,-1 M${cx + 11},${cy - 10} l-4,-7 M${cx + 11},${cy - 10} l5,7` }),
  h('text', { class: 'name', x: cx, y: cy + 5 }, t.name || t.tile),
  h('g', { class: 'value' }, h('circle', { cx: o.x + 20, cy: o.y + 20, r: 9 }), h('text', { x: o.x + 20, y: o.y + 24 }, String(t.value))),
  royal ? h('g', { class: 'royal-mask', 'data-colour': royal },
    h('path', { d: `M${cx - 11},${cy - 20} h22 v8 q0,10 -11,13 q-11,-3 -11,-13 Z`, fill: COLOURS[royal] }),
    h('path', { class: 'mark', d: markPath(markOf(royal), cx, cy - 12, 4) })) : null,
  beaches);
}

/** The map's signs alone, for its legend and the rules page: a route end's weather factor (boosted: a
 *  typhoon's), the typhoon spiral, an island's value; each a vnode in a 28 × 28 box. */
export function signTree(kind, n = 2) {
  if (kind === 'typhoon') return h('path', { class: 'typhoon-mark', d: spiral(14, 14) });
  if (kind === 'value') return h('g', { class: 'value' }, h('circle', { cx: 14, cy: 14, r: 9 }), h('text', { x: 14, y: 18 }, String(n)));
  return h('g', { class: `factor${kind === 'boosted' ? ' boosted' : ''}` }, h('circle', { cx: 14, cy: 14, r: 9 }), h('text', { x: 14, y: 18 }, String(n)));
}

/** The area to show: every tile with a cell of sea around it, within the map (`whole`: all of it). */
export function viewBoxOf(view, whole = false) {
  if (whole || !view?.tiles?.length) return `-20 -20 ${GRID * CELL + 40} ${GRID * CELL + 40}`;
  let x0 = GRID, y0 = GRID, x1 = 1, y1 = 1;
  for (const t of view.tiles) {
    x0 = Math.min(x0, t.cell[0]); y0 = Math.min(y0, t.cell[1]);
    x1 = Math.max(x1, t.cell[0]); y1 = Math.max(y1, t.cell[1]);
  }
  x0 = Math.max(1, x0 - 1); y0 = Math.max(1, y0 - 1); x1 = Math.min(GRID, x1 + 1); y1 = Math.min(GRID, y1 + 1);
  const pad = 20;
  return `${(x0 - 1) * CELL - pad} ${(y0 - 1) * CELL - pad} ${(x1 - x0 + 1) * CELL + 2 * pad} ${(y1 - y0 + 1) * CELL + 2 * pad}`;
}

/** The whole map as a vnode tree. ui: {selected, options: Set of islands, recent: Set of tiles,
 *  focus: [x, y] (a report step's cell), hidden: Set of tiles not drawn yet, fleet: {cell, boats, lost}
 *  (a fleet under way), whole}. */
export function mapTree(view, ui = {}) {
  const cells = [];
  for (let y = 1; y <= GRID; y++) {
    for (let x = 1; x <= GRID; x++) {
      const o = origin([x, y]);
      cells.push(h('rect', { class: 'cell', x: o.x + 1, y: o.y + 1, width: CELL - 2, height: CELL - 2, rx: 6 }));
    }
  }
  const tiles = (view?.tiles || []).filter((t) => !ui.hidden?.has(t.tile))
    .map((t) => (t.kind === 'island' ? islandTile(t, ui) : seaTile(t, ui)));
  const fleets = (view?.at_sea || []).map((f) => {
    const o = origin(f.cell);
    return h('g', { class: 'fleet-at-sea', 'data-cell': f.cell.join(',') },
      f.boats.map((c, i) => boatShape({ x: o.x + 30 + (i % 4) * 14, y: o.y + 40 + Math.floor(i / 4) * 14 }, c, 6)));
  });
  const focus = ui.focus ? (() => {
    const o = origin(ui.focus);
    return h('rect', { class: 'focus-ring', x: o.x - 3, y: o.y - 3, width: CELL + 6, height: CELL + 6, rx: 10, 'data-testid': 'report-focus' });
  })() : null;
  const sailing = ui.fleet ? (() => {
    const o = origin(ui.fleet.cell);
    return h('g', { class: `sailing-fleet${ui.fleet.lost ? ' lost' : ''}`, 'data-testid': 'sailing-fleet' },
      h('circle', { cx: o.x + CELL / 2, cy: o.y + CELL / 2, r: 30 }),
      ui.fleet.boats.map((c, i) => boatShape({ x: o.x + CELL / 2 + ((i % 3) - 1) * 16, y: o.y + CELL / 2 + 4 + Math.floor(i / 3) * 14 - 6 }, c, 7)));
  })() : null;
  return h('g', { class: 'map' },
    h('rect', { class: 'ocean', x: -20, y: -20, width: GRID * CELL + 40, height: GRID * CELL + 40 }),
    h('rect', { class: 'edge', x: 0, y: 0, width: GRID * CELL, height: GRID * CELL }),
    cells, tiles, fleets, focus, sailing);
}

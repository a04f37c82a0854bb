// View → SVG mapping (pure). `boardTree(view, ui)` returns a vnode tree; src/boardview.js mounts it.
// Everything drawn here is our own simple geometry: flat-top hexagons, islands with their name and value,
// beaches with moorings and boats, piers as jetties on their sides, the royal mask, ocean tiles with foam
// paths and danger numbers.
import { h } from './vdom.js';
import { markOf, markPath } from './marks.js';
import {
  cellCenter, hexCorners, pointsAttr, sideAngle, sideMidpoint, sideVector, round, boundsOf, cellKey,
} from './hex.js';

export const COLOURS = {
  red: '#d63a32', blue: '#2f6fd6', green: '#2e9e4c', yellow: '#e7c318', orange: '#f08a1c', purple: '#8c4bb8',
};
export const SIZE = 60;

const RAD = Math.PI / 180;
const polar = (c, angle, r) => ({ x: round(c.x + r * Math.cos(angle * RAD)), y: round(c.y + r * Math.sin(angle * RAD)) });

/** Circular mean (degrees) of the side angles of a beach's piers: where the beach sits on the island. */
export function beachAngle(piers) {
  let x = 0, y = 0;
  for (const p of piers) { x += Math.cos(sideAngle(p) * RAD); y += Math.sin(sideAngle(p) * RAD); }
  if (Math.abs(x) < 1e-9 && Math.abs(y) < 1e-9) return sideAngle(piers[0] ?? 0);
  return round(((Math.atan2(y, x) / RAD) + 360) % 360);
}

/** Pixel positions of a beach's moorings, spread along an arc facing its piers. */
export function mooringPoints(c, beach, size = SIZE) {
  const a = beachAngle(beach.piers);
  const r = size * 0.5;
  const step = 19;
  const n = beach.moorings;
  const pts = [];
  for (let i = 0; i < n; i++) pts.push(polar(c, a + (i - (n - 1) / 2) * step, r));
  return pts;
}

/** A canoe with a crab-claw sail in the player's colour, the colour's mark in white on the sail. */
export function boatShape(p, colour, scale, extra = {}) {
  const s = scale, R = (v) => round(v);
  const fill = COLOURS[colour] || '#888';
  const hull = `M${R(p.x - s * 1.15)},${R(p.y + s * 0.2)} Q${R(p.x)},${R(p.y + s * 0.95)} ${R(p.x + s * 1.15)},${R(p.y + s * 0.2)} ` +
    `Q${R(p.x)},${R(p.y + s * 0.45)} ${R(p.x - s * 1.15)},${R(p.y + s * 0.2)} Z`;
  const sail = `M${R(p.x - s * 0.25)},${R(p.y + s * 0.3)} Q${R(p.x - s * 0.95)},${R(p.y - s * 0.6)} ${R(p.x - s * 0.15)},${R(p.y - s * 1.35)} ` +
    `Q${R(p.x + s * 0.05)},${R(p.y - s * 0.55)} ${R(p.x + s * 0.95)},${R(p.y - s * 0.75)} Q${R(p.x + s * 0.45)},${R(p.y + s * 0.05)} ${R(p.x - s * 0.25)},${R(p.y + s * 0.3)} Z`;
  const mark = markOf(colour);
  const { class: cls, ...rest } = extra;
  return h('g', { class: cls || 'boat', 'data-colour': colour, 'data-mark': mark, ...rest },
    h('path', { class: 'hull', d: hull }),
    h('path', { class: 'sail', d: sail, fill }),
    h('path', { class: 'mark', d: markPath(mark, p.x + s * 0.02, p.y - s * 0.5, s * 0.34) }));
}

/** Points of a ring sector around c from angle a0 to a1 (degrees), radii r0 to r1: a generous invisible
 *  hit area, so that a finger (44 CSS px at the phone's default zoom) or a mouse finds the target. */
export function wedgePoints(c, a0, a1, r0, r1) {
  const n = Math.max(2, Math.ceil((a1 - a0) / 12));
  const outer = [], inner = [];
  for (let i = 0; i <= n; i++) {
    const a = a0 + ((a1 - a0) * i) / n;
    outer.push(polar(c, a, r1));
    inner.push(polar(c, a, r0));
  }
  return [...outer, ...inner.reverse()].map((p) => `${p.x},${p.y}`).join(' ');
}

/** Half the angular room of each beach of an island: up to halfway to its neighbours, at most 60°. */
function beachHalfWidths(beaches) {
  const angles = beaches.map((b) => beachAngle(b.piers));
  return angles.map((a, i) => {
    let hw = 60;
    angles.forEach((o, j) => {
      if (j === i) return;
      const d = Math.abs(((a - o + 540) % 360) - 180);
      hw = Math.min(hw, d / 2 - 1);
    });
    return Math.max(hw, 10);
  });
}

function hexPoly(c, size, attrs) {
  return h('polygon', { points: pointsAttr(hexCorners(c, size)), ...attrs });
}

/** SVG path `d` of a foam path between world sides a and b of the hexagon at c. */
export function foamPath(c, a, b, size = SIZE) {
  const A = sideMidpoint(c, a, size), B = sideMidpoint(c, b, size);
  const k = 0.45;
  const cA = { x: round(A.x + (c.x - A.x) * k), y: round(A.y + (c.y - A.y) * k) };
  const cB = { x: round(B.x + (c.x - B.x) * k), y: round(B.y + (c.y - B.y) * k) };
  return { d: `M${A.x},${A.y} C${cA.x},${cA.y} ${cB.x},${cB.y} ${B.x},${B.y}`, A, B, cA, cB };
}

/** A point at parameter t on the cubic Bézier of a foam path. */
export function bezierPoint(fp, t) {
  const u = 1 - t;
  const f = (a, b, c, d) => u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d;
  return { x: round(f(fp.A.x, fp.cA.x, fp.cB.x, fp.B.x)), y: round(f(fp.A.y, fp.cA.y, fp.cB.y, fp.B.y)) };
}

/** The red marker every tile but Tonga has on its side 0 (RULES.md R2): a tile drawn from the stack is laid
 *  with it touching the tile the fleet came from (R7). Turned with the tile, it lies on world side
 *  `rotation`: a short red bar along the inside of that edge. */
export function redMark(t, c, size = SIZE) {
  if (t.tile === 'Tonga') return null;
  const d = t.rotation ?? 0;
  const v = sideVector(d);
  const ap = (Math.sqrt(3) / 2) * size * 0.985;   // the edge of the drawn hexagon (hexPoly at 0.985)
  const m = { x: c.x + v.x * ap, y: c.y + v.y * ap };
  const e = { x: -v.y * size * 0.2, y: v.x * size * 0.2 }, u = { x: -v.x * size * 0.08, y: -v.y * size * 0.08 };
  const pts = [[m.x + e.x, m.y + e.y], [m.x - e.x, m.y - e.y], [m.x - e.x + u.x, m.y - e.y + u.y], [m.x + e.x + u.x, m.y + e.y + u.y]];
  return h('polygon', { class: 'red-mark', 'data-side': d, points: pts.map(([x, y]) => `${round(x)},${round(y)}`).join(' ') });
}

export function oceanTile(t, size = SIZE, ui = {}) {
  const c = cellCenter(t.cell, size);
  const kids = [hexPoly(c, size * 0.985, { class: 'hex ocean' }), redMark(t, c, size)];
  const labels = [];
  const taken = [];
  // Numbers sit on their paths; a path through the centre takes the free spot along it (greedy), so the
  // numbers of crossing paths never overlap.
  const paths = (t.paths || []).map(([a, b, danger]) => ({ a, b, danger, fp: foamPath(c, a, b, size), diam: Math.abs(a - b) === 3 }));
  for (const p of paths) {
    kids.push(h('path', { class: 'foam-under', d: p.fp.d }));
    kids.push(h('path', { class: 'foam', d: p.fp.d, 'data-path': `${p.a}-${p.b}` }));
  }
  // (any two paths may cross, not only a diameter: every number may move along its path, away from the
  // others, so that "4 3 4" never reads as one number)
  const order = [...paths].filter((p) => p.danger).sort((x, y) => Number(x.diam) - Number(y.diam));
  for (const p of order) {
    let best = null;
    for (const tt of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.12, 0.88]) {
      const q = bezierPoint(p.fp, tt);
      const free = Math.min(Infinity, ...taken.map((o) => Math.hypot(o.x - q.x, o.y - q.y)));
      if (!best || free > best.free) best = { q, free };
      if (free > size * 0.45) break;
    }
    taken.push(best.q);
    const q = best.q;
    labels.push(h('g', { class: `danger d${p.danger}`, 'data-danger': p.danger },
      h('circle', { cx: q.x, cy: q.y, r: round(size * 0.13) }),
      h('text', { x: q.x, y: round(q.y + size * 0.05), 'text-anchor': 'middle', 'font-size': round(size * 0.15) }, String(p.danger))));
  }
  const cls = ['tile', 'ocean-tile'];
  if (ui.recent?.has(cellKey(t.cell))) cls.push('recent');
  return h('g', { class: cls.join(' '), 'data-tile': t.tile, 'data-cell': cellKey(t.cell) }, kids, labels);
}

/** A small palm leaning outward (`flip` -1: the other way): a curved trunk and four fronds. */
export function palm(p, s, flip = 1) {
  const R = (v) => round(v);
  const top = { x: p.x - flip * s * 0.5, y: p.y - s * 1.6 };
  const trunk = `M${R(p.x)},${R(p.y)} Q${R(p.x + flip * s * 0.1)},${R(p.y - s)} ${R(top.x)},${R(top.y)}`;
  const fronds = [[-1.3, -0.2], [-0.7, -0.9], [0.6, -0.9], [1.3, -0.1]].map(([fx, fy]) =>
    `M${R(top.x)},${R(top.y)} q${R(fx * s * 0.5)},${R((fy - 0.6) * s * 0.5)} ${R(fx * s)},${R(fy * s * 0.4 + s * 0.35)}`);
  return h('g', { class: 'palm' }, h('path', { class: 'trunk', d: trunk }), h('path', { class: 'fronds', d: fronds.join(' ') }));
}

export function islandTile(t, size = SIZE, ui = {}) {
  const c = cellCenter(t.cell, size);
  const name = t.tile;
  const clickableIsland = ui.islands?.has(name);
  const cls = ['tile', 'island-tile'];
  if (t.royal) cls.push('royal');
  if (clickableIsland) cls.push('clickable');
  if (ui.recent?.has(cellKey(t.cell))) cls.push('recent');
  if (ui.selectedIsland === name) cls.push('selected');
  const attrs = { class: cls.join(' '), 'data-tile': name, 'data-cell': cellKey(t.cell) };
  if (clickableIsland) Object.assign(attrs, { 'data-hit': 'island', 'data-island': name });

  const kids = [hexPoly(c, size * 0.985, { class: 'hex lagoon' }), redMark(t, c, size)];
  // the island's land inside its lagoon: the reef's surf, the sand, the green, and two palms
  kids.push(h('circle', { class: 'reef', cx: c.x, cy: c.y, r: round(size * 0.6) }));
  kids.push(h('circle', { class: 'land-sand', cx: c.x, cy: c.y, r: round(size * 0.47) }));
  kids.push(h('circle', { class: 'land', cx: c.x, cy: c.y, r: round(size * 0.4) }));
  for (const [dx, flip] of [[-0.25, 1], [0.25, -1]]) kids.push(palm({ x: c.x + size * dx, y: c.y - size * 0.12 }, size * 0.12, flip));

  const halfWidths = beachHalfWidths(t.beaches || []);
  (t.beaches || []).forEach((b, i) => {
    const key = `${name}|${i}`;
    const a = beachAngle(b.piers);
    const bcls = ['beach'];
    const bAttrs = { 'data-beach-of': name, 'data-beach': i };
    if (ui.beaches?.has(key)) {
      bcls.push('clickable');
      Object.assign(bAttrs, { 'data-hit': 'beach', 'data-island': name });
    }
    if (ui.selectedBeaches?.has(key)) bcls.push('selected');
    const full = b.boats.length >= b.moorings;
    if (full) bcls.push('full');
    bAttrs.class = bcls.join(' ');
    const parts = [];
    // piers: jetties from the beach out to the side they point through
    for (const d of b.piers) {
      const p0 = polar(c, sideAngle(d), size * 0.6);
      const p1 = polar(c, sideAngle(d), size * 0.84);
      const pk = `${key}|${d}`;
      const pAttrs = { class: 'pier', x1: p0.x, y1: p0.y, x2: p1.x, y2: p1.y, 'data-dir': d };
      if (ui.piers?.has(pk)) {
        pAttrs.class = 'pier clickable';
        Object.assign(pAttrs, { 'data-hit': 'pier', 'data-island': name, 'data-beach': i });
      }
      parts.push(h('line', { class: 'pier-hit', x1: p0.x, y1: p0.y, x2: p1.x, y2: p1.y }));
      parts.push(h('line', pAttrs));
    }
    const pts = mooringPoints(c, b, size);
    const arcR = size * 0.5;
    const span = (b.moorings - 1) * 19 / 2 + 7;
    const s0 = polar(c, a - span, arcR), s1 = polar(c, a + span, arcR);
    if (ui.beaches?.has(key)) {
      // an invisible sector from near the island's centre out past the beach, as wide as the beach's room
      const hw = halfWidths[i];
      parts.push(h('polygon', { class: 'beach-target', points: wedgePoints(c, a - hw, a + hw, size * 0.1, size * 0.64) }));
    }
    parts.push(h('path', {
      class: 'beach-arc',
      d: `M${s0.x},${s0.y} A${round(arcR)},${round(arcR)} 0 0 1 ${s1.x},${s1.y}`,
      'stroke-width': round(size * 0.2),
    }));
    const planned = ui.planned?.get(key) || [];
    pts.forEach((p, m) => {
      const colour = b.boats[m];
      const next = planned[m - b.boats.length];
      if (colour) parts.push(boatShape(p, colour, size * 0.095, { 'data-mooring': m }));
      else if (next) parts.push(boatShape(p, next, size * 0.095, { class: 'planned-boat', 'data-mooring': m }));
      else parts.push(h('circle', { class: 'mooring', cx: p.x, cy: p.y, r: round(size * 0.045), 'data-mooring': m }));
    });
    for (const d of b.piers) {
      const pk = `${key}|${d}`;
      if (!ui.piers?.has(pk)) continue;
      // an invisible sector around the jetty, from the beach to the tile's edge, on top of everything of the
      // beach (choosing a pier is the decision; a beach only narrows the piers shown)
      const sa = sideAngle(d);
      parts.push(h('polygon', { class: 'pier-target', 'data-hit': 'pier', 'data-island': name, 'data-beach': i, 'data-dir': d,
        points: wedgePoints(c, sa - 29, sa + 29, size * 0.35, size * 0.86) }));
    }
    const pick = ui.selectedBeaches?.get(key);
    if (pick) {
      const lp = polar(c, a, size * 0.3);
      parts.push(h('g', { class: 'pick' }, h('circle', { cx: lp.x, cy: lp.y, r: round(size * 0.1) }),
        h('text', { x: lp.x, y: round(lp.y + size * 0.045), 'text-anchor': 'middle', 'font-size': round(size * 0.12) }, String(pick))));
    }
    kids.push(h('g', bAttrs, parts));
  });

  // name, value and the royal mask
  // readable at the smallest scale the board is drawn (boardview.js MIN_SCALE): a long name may reach over
  // the sand, its halo (app.css) keeps it legible
  kids.push(h('text', { class: 'island-name', x: c.x, y: round(c.y - size * 0.05), 'text-anchor': 'middle', 'font-size': round(size * Math.min(0.2, 1.8 / Math.max(1, name.length))) }, name));
  kids.push(h('text', { class: 'island-value', x: c.x, y: round(c.y + size * 0.19), 'text-anchor': 'middle', 'font-size': round(size * 0.19) }, String(t.value ?? 0)));
  if (name !== 'Tonga') {
    const m = { x: c.x, y: round(c.y + size * 0.33) };
    const w = size * 0.13;
    kids.push(h('path', {
      class: 'mask',
      d: `M${round(m.x - w)},${round(m.y - w * 0.5)} Q${m.x},${round(m.y - w)} ${round(m.x + w)},${round(m.y - w * 0.5)} ` +
        `Q${round(m.x + w * 0.9)},${round(m.y + w * 0.8)} ${m.x},${round(m.y + w)} Q${round(m.x - w * 0.9)},${round(m.y + w * 0.8)} ${round(m.x - w)},${round(m.y - w * 0.5)} Z`,
    }));
    if (t.royal) kids.push(boatShape({ x: m.x, y: round(m.y - size * 0.02) }, t.royal, size * 0.1, { class: 'boat royal-boat' }));
  }
  return h('g', attrs, kids);
}

export function fleetGroup(boats, p, size = SIZE, attrs = {}) {
  const n = boats.length;
  const kids = [h('circle', { class: 'fleet-ring', cx: p.x, cy: p.y, r: round(size * (0.16 + 0.03 * Math.min(n, 6))) })];
  boats.forEach((col, i) => {
    const ang = n === 1 ? 0 : (360 / n) * i - 90;
    const r = n === 1 ? 0 : size * 0.12;
    kids.push(boatShape(polar(p, ang, r), col, size * 0.08));
  });
  return h('g', { class: 'fleet', ...attrs }, kids);
}

/** All cells the board must show: tiles, clickable empty cells, a tile preview. */
export function boardCells(view, ui = {}) {
  const cells = (view.tiles || []).map((t) => t.cell);
  if (ui.cells) for (const k of ui.cells) cells.push(k.split(',').map(Number));
  return cells;
}

export function viewBoxOf(view, ui = {}, size = SIZE) {
  const b = boundsOf(boardCells(view, ui), size, 1);
  return { x: round(b.x), y: round(b.y), w: round(b.w), h: round(b.h) };
}

/**
 * The whole board as a vnode `<g>`.
 * ui: { size, islands:Set(name), beaches:Set('Name|i'), piers:Set('Name|i|d'), cells:Set('q,r'),
 *       selectedBeaches:Map('Name|i'→count), selectedIsland, preview:{tile view dict}, recent:Set('q,r'),
 *       hideFleet: bool }
 */
export function boardTree(view, ui = {}) {
  const size = ui.size || SIZE;
  const tiles = view.tiles || [];
  const layers = [];
  // empty cells that can take a tile (new colonisation, redraw)
  if (ui.cells) {
    for (const k of ui.cells) {
      const cell = k.split(',').map(Number);
      const c = cellCenter(cell, size);
      if (ui.preview && cellKey(ui.preview.cell) === k) continue;
      layers.push(h('g', { class: 'empty-cell clickable', 'data-hit': 'cell', 'data-cell': k },
        hexPoly(c, size * 0.94, { class: 'hex slot' })));
    }
  }
  for (const t of tiles) layers.push(t.kind === 'ocean' ? oceanTile(t, size, ui) : islandTile(t, size, ui));
  if (ui.preview) {
    const p = ui.preview;
    const g = p.kind === 'ocean' ? oceanTile(p, size, {}) : islandTile(p, size, {});
    layers.push(h('g', { class: 'preview clickable', 'data-hit': 'preview', 'data-cell': cellKey(p.cell) }, g,
      hexPoly(cellCenter(p.cell, size), size * 0.985, { class: 'preview-outline' })));
  }
  if (view.fleet && view.fleet.cell && !ui.hideFleet) {
    const c = cellCenter(view.fleet.cell, size);
    layers.push(fleetGroup(view.fleet.boats || [], { x: c.x, y: round(c.y - size * 0.55) }, size, { 'data-fleet': 'waiting' }));
  }
  for (const s of view.at_sea || []) {
    const c = cellCenter(s.cell, size);
    layers.push(fleetGroup(s.boats || [], c, size, { 'data-fleet': 'at-sea' }));
  }
  return h('g', { class: 'board' }, layers);
}

// The board on the page: mounts boardTree() into an <svg>, handles pan/zoom and clicks, and offers
// animation primitives (each returns a promise resolved when it ends) for the event player.
import { boardTree, viewBoxOf, fleetGroup, foamPath, bezierPoint, SIZE } from './board.js';
import { toDom, h, SVG_NS } from './vdom.js';
import { cellCenter, sideMidpoint } from './hex.js';
import { tween, ease } from './tween.js';

// The smallest the board is drawn, in CSS px per board unit (a tile is 120 units wide): an island's name
// (12 units, board.js) at least 11 px and a boat's hull 12 px, and on a touch screen every target's hit
// area at least 44×44 px. A board that would need less is shown at this scale and scrolls (drag, or the
// camera following the action).
const MIN_SCALE = 0.92;
const MIN_SCALE_TOUCH = 1.45;

export function minScale() {
  const touch = globalThis.matchMedia?.('(pointer: coarse)').matches || (globalThis.innerWidth || 1000) <= 820;
  return touch ? MIN_SCALE_TOUCH : MIN_SCALE;
}

export class BoardView {
  /** onHit(hit): a target was chosen (click, tap, Enter or Space); label(dataset): a target's accessible name;
   *  covers(): elements that may lie over the board (a phone's tab bar and sheet), kept clear of targets;
   *  still: a picture (the rules page), drawn whole in its box: no readable-size zoom, no camera. */
  constructor(container, { onHit, label, covers, still = false } = {}) {
    this.container = container;
    this.still = still;
    this.covers = covers || (() => []);
    this.onHit = onHit || (() => {});
    this.label = label || (() => null);
    this.svg = document.createElementNS(SVG_NS, 'svg');
    this.svg.setAttribute('class', 'board-svg');
    this.svg.setAttribute('role', 'group');   // not 'img': its targets are buttons a screen reader must reach
    this.svg.setAttribute('data-testid', 'board');
    this.viewport = document.createElementNS(SVG_NS, 'g');
    this.viewport.setAttribute('class', 'viewport');
    this.layer = document.createElementNS(SVG_NS, 'g');
    this.overlay = document.createElementNS(SVG_NS, 'g');
    this.overlay.setAttribute('class', 'overlay');
    this.routeLayer = document.createElementNS(SVG_NS, 'g');   // a pier's route, previewed (route.js)
    this.routeLayer.setAttribute('class', 'route-preview');
    this.routeLayer.setAttribute('data-testid', 'route-preview');
    this.viewport.append(this.layer, this.routeLayer, this.overlay);
    this.svg.appendChild(this.viewport);
    container.appendChild(this.svg);
    this.zoom = 1; this.panX = 0; this.panY = 0;
    this.userMoved = false;
    this.following = true;   // the camera follows the action (a toggle on the table)
    this.dragging = false;
    this.box = { x: -100, y: -100, w: 200, h: 200 };
    this._initInput();
    // a phone turned, a window resized, the decision bar grown: keep the board readable unless the person has
    // zoomed or panned, then frame the decision's targets again (the readable zoom would undo a zoom out)
    if (globalThis.ResizeObserver) {
      new ResizeObserver(() => {
        if (this.userMoved || !this.lastView) return;
        this._readable();
        if (this.following && !this.dragging && !this.still) this.frame([...this.layer.querySelectorAll('[data-hit]')]);
      }).observe(this.svg);
    }
  }

  /** Draw `view` with the input highlights `ui`. */
  render(view, ui = {}) {
    this.lastView = view; this.lastUi = ui;
    const focused = this._focusKey();
    const tree = boardTree(view, ui);
    const node = toDom(tree);
    // every target is a button for keyboards and screen readers
    for (const t of node.querySelectorAll('[data-hit]')) {
      t.setAttribute('tabindex', '0');
      t.setAttribute('role', 'button');
      const name = this.label(t.dataset);
      if (name) t.setAttribute('aria-label', name);
    }
    this.layer.replaceWith(node);
    this.layer = node;
    if (focused) this._refocus(focused);
    const box = viewBoxOf(view, ui);
    // grow the box (never shrink it mid-game: the board should not jump)
    if (!this.fixedBox || box.x < this.box.x || box.y < this.box.y ||
        box.x + box.w > this.box.x + this.box.w || box.y + box.h > this.box.y + this.box.h) {
      const first = !this.fixedBox;
      const x0 = Math.min(box.x, this.fixedBox ? this.box.x : Infinity);
      const y0 = Math.min(box.y, this.fixedBox ? this.box.y : Infinity);
      const x1 = Math.max(box.x + box.w, this.fixedBox ? this.box.x + this.box.w : -Infinity);
      const y1 = Math.max(box.y + box.h, this.fixedBox ? this.box.y + this.box.h : -Infinity);
      this.box = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
      this.fixedBox = true;
      this.svg.setAttribute('viewBox', `${this.box.x} ${this.box.y} ${this.box.w} ${this.box.h}`);
      // phones size the board to its shape (see app.css), so a wide board leaves room for the panels
      this.container.style.setProperty('--board-aspect', String(Math.round((this.box.w / this.box.h) * 1000) / 1000));
      if (!this.userMoved) this._frameIslands(first ? null : ui.recent);
    }
    this._showTargets(node);
  }

  /** A new decision (a new set of targets): unless the person is dragging the board or has turned
   *  following off, every target is brought wholly into view, in the part of the board nothing covers
   *  (the window's edge, a phone's tab bar and sheet, the decision bar): moved there at this zoom when
   *  they fit, else zoomed out to fit them. Once per new set of targets. */
  _showTargets(node) {
    const targets = [...node.querySelectorAll('[data-hit]')];
    const key = targets.map((t) => `${t.dataset.hit}:${t.dataset.island || ''}:${t.dataset.beach || ''}:${t.dataset.cell || ''}`).join('|');
    if (key === this._targetsKey) return;
    this._targetsKey = key;
    if (!targets.length || !this.following || this.dragging || this.still) return;
    this.frame(targets);
  }

  /** The part of the board's element a person sees: inside the window, below and above whatever lies
   *  over it (`covers()`, the table's fixed tab bar and sheet); in CSS px. */
  clearArea() {
    const r = this.svg.getBoundingClientRect();
    const c = { left: Math.max(r.left, 0), top: Math.max(r.top, 0),
      right: Math.min(r.right, globalThis.innerWidth || r.right), bottom: Math.min(r.bottom, globalThis.innerHeight || r.bottom) };
    for (const o of this.covers()) {
      const b = o.getBoundingClientRect();
      if (!b.width || !b.height || b.right <= c.left || b.left >= c.right || b.bottom <= c.top || b.top >= c.bottom) continue;
      // a bar across the board cuts it from above or below; anything narrower from its side
      if (b.width >= (c.right - c.left) / 2) {
        if (b.top + b.height / 2 > (c.top + c.bottom) / 2) c.bottom = Math.min(c.bottom, b.top); else c.top = Math.max(c.top, b.bottom);
      } else if (b.left + b.width / 2 > (c.left + c.right) / 2) c.right = Math.min(c.right, b.left); else c.left = Math.max(c.left, b.right);
    }
    return c;
  }

  /** Board units → CSS px on screen, for the zoom and pan given. */
  _toScreen(p, zoom = this.zoom, panX = this.panX, panY = this.panY) {
    const r = this.svg.getBoundingClientRect(), s = this.fitScale();
    const ox = r.left + (r.width - this.box.w * s) / 2, oy = r.top + (r.height - this.box.h * s) / 2;
    return { x: ox + (panX + zoom * p.x - this.box.x) * s, y: oy + (panY + zoom * p.y - this.box.y) * s };
  }

  /** Bring every node of `nodes` wholly into the clear area: nothing moves when they are; else they are
   *  centred in it, zoomed out just enough when they do not fit at this zoom. True when the camera moved. */
  frame(nodes, pad = 8) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const n of nodes) {
      const b = n.getBBox();
      x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y); x1 = Math.max(x1, b.x + b.width); y1 = Math.max(y1, b.y + b.height);
    }
    if (!Number.isFinite(x0)) return false;
    const c = this.clearArea();
    if (c.right - c.left < 60 || c.bottom - c.top < 60) return false;   // the board is scrolled out of the window
    const a = this._toScreen({ x: x0, y: y0 }), z = this._toScreen({ x: x1, y: y1 });
    if (a.x >= c.left && a.y >= c.top && z.x <= c.right && z.y <= c.bottom) return false;
    const s = this.fitScale();
    const w = c.right - c.left - 2 * pad, hgt = c.bottom - c.top - 2 * pad;
    let zoom = this.zoom;
    if ((x1 - x0) * zoom * s > w || (y1 - y0) * zoom * s > hgt) zoom = Math.max(0.2, Math.min(w / ((x1 - x0) * s), hgt / ((y1 - y0) * s)));
    // the targets' centre on the clear area's centre
    const centre = { x: (x0 + x1) / 2, y: (y0 + y1) / 2 };
    const at = this._toScreen(centre, zoom, 0, 0);
    this.zoom = zoom;
    this.panX = ((c.left + c.right) / 2 - at.x) / s;
    this.panY = ((c.top + c.bottom) / 2 - at.y) / s;
    this._centre = centre;
    this._applyTransform();
    return true;
  }

  /** A board drawn first or grown: at a readable zoom, its islands' centre in the middle of the part of
   *  the board nothing covers (not the old centre, which left half the screen empty), moved no farther
   *  than keeps the tiles just placed (`recent`, 'q,r' keys: the camera had followed a voyage there)
   *  wholly in view. */
  _frameIslands(recent) {
    this._readable(this.islandsCentre());
    if (this.zoom <= 1.001) return;   // the whole board fits
    const islands = this.islandsCentre();
    if (islands) this._lookAt(islands);
    if (recent?.size) {
      const cells = [...recent].map((k) => cellCenter(k.split(',').map(Number), SIZE));
      const hw = SIZE, hh = SIZE * Math.sqrt(3) / 2;
      this._keepInView({ x0: Math.min(...cells.map((p) => p.x)) - hw, y0: Math.min(...cells.map((p) => p.y)) - hh,
        x1: Math.max(...cells.map((p) => p.x)) + hw, y1: Math.max(...cells.map((p) => p.y)) + hh });
    }
  }

  /** Put board point p at the centre of the clear area (keeping the zoom). */
  _lookAt(p) {
    const c = this.clearArea();
    if (c.right - c.left < 60 || c.bottom - c.top < 60) return;   // the board is scrolled out of the window
    const at = this._toScreen(p), s = this.fitScale();
    this.panX += ((c.left + c.right) / 2 - at.x) / s;
    this.panY += ((c.top + c.bottom) / 2 - at.y) / s;
    this._centre = this.viewCentre();
    this._applyTransform();
  }

  /** Pan as little as brings the board rectangle r ({x0, y0, x1, y1}, board units) wholly into the clear
   *  area (centred in it when it is larger). True when the camera moved. */
  _keepInView(r, pad = 8) {
    const c = this.clearArea();
    if (c.right - c.left < 60 || c.bottom - c.top < 60) return false;
    const a = this._toScreen({ x: r.x0, y: r.y0 }), z = this._toScreen({ x: r.x1, y: r.y1 });
    const shift = (lo, hi, min, max) => {
      if (hi - lo > max - min - 2 * pad) return (min + max) / 2 - (lo + hi) / 2;
      if (lo < min + pad) return min + pad - lo;
      if (hi > max - pad) return max - pad - hi;
      return 0;
    };
    const dx = shift(a.x, z.x, c.left, c.right), dy = shift(a.y, z.y, c.top, c.bottom);
    if (!dx && !dy) return false;
    const s = this.fitScale();
    this.panX += dx / s; this.panY += dy / s;
    this._centre = this.viewCentre();
    this._applyTransform();
    return true;
  }

  /** The islands' centre (board units): what a board that grew is framed on. */
  islandsCentre() {
    const cells = (this.lastView?.tiles || []).filter((x) => x.kind === 'island').map((x) => cellCenter(x.cell, SIZE));
    if (!cells.length) return undefined;
    const xs = cells.map((p) => p.x), ys = cells.map((p) => p.y);
    return { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
  }

  /** CSS px per board unit of the whole box fitted into the element (zoom 1). */
  fitScale() {
    const r = this.svg.getBoundingClientRect();
    return Math.min(r.width / this.box.w, r.height / this.box.h) || 1;
  }

  /** Zoom in, if fitting the whole board would make it smaller than readable, around `at` (a board point;
   *  default: where the view is centred now, or Tonga). */
  _readable(at) {
    if (this.still) return;
    const need = minScale() / this.fitScale();
    if (need <= 1.001) {
      if (this.zoom !== 1 && !this.userMoved) { this.zoom = 1; this.panX = 0; this.panY = 0; this._applyTransform(); }
      return;
    }
    this.zoom = need;
    this.centreOn(at || this._centre || { x: 0, y: 0 }, false);
  }

  /** The board point at the centre of the element now. */
  viewCentre() {
    const cx = this.box.x + this.box.w / 2, cy = this.box.y + this.box.h / 2;
    return { x: (cx - this.panX) / this.zoom, y: (cy - this.panY) / this.zoom };
  }

  /** Put board point p at the centre of the element (keeping the zoom). */
  centreOn(p, mark = true) {
    const cx = this.box.x + this.box.w / 2, cy = this.box.y + this.box.h / 2;
    this.panX = cx - this.zoom * p.x; this.panY = cy - this.zoom * p.y;
    this._centre = p;
    if (mark) this.userMoved = false;
    this._applyTransform();
  }

  /** What the focused target is (to find it again after a redraw), or null when focus is elsewhere. */
  _focusKey() {
    const a = document.activeElement;
    if (!a || !this.layer.contains(a) || !a.dataset?.hit) return null;
    const d = a.dataset;
    return { hit: d.hit, island: d.island, beach: d.beach, dir: d.dir, cell: d.cell };
  }

  /** Focus the same target again after a redraw, or the nearest one still there (keyboard users keep
   *  their place); nothing to focus: the board itself. */
  _refocus(k) {
    const all = [...this.layer.querySelectorAll('[data-hit]')];
    const same = (t, keys) => keys.every((x) => (t.dataset[x] ?? null) === (k[x] ?? null));
    const node = all.find((t) => same(t, ['hit', 'island', 'beach', 'dir', 'cell'])) ||
      all.find((t) => same(t, ['island', 'cell']) && t.dataset.island) || all.find((t) => k.cell && t.dataset.cell === k.cell) || all[0];
    if (node) { node.focus({ preventScroll: true }); this._ring(node); } else { this.svg.focus({ preventScroll: true }); }
  }

  /** The focus ring: a rounded box around the focused target, drawn over the board. */
  _ring(node) {
    this.ringNode?.remove();
    this.ringNode = null;
    // for the keyboard only: a click or a tap focuses its target too, and draws no box
    if (!node || !node.matches(':focus-visible')) return;
    const b = node.getBBox();
    const pad = 3;
    this.ringNode = this._mount(h('rect', { class: 'focus-ring', x: b.x - pad, y: b.y - pad, width: b.width + 2 * pad, height: b.height + 2 * pad, rx: 6 }));
  }

  /** Arrow keys: the nearest target in that direction (a cone of ±60°, distance weighted by the angle). */
  _arrow(from, key) {
    const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
    const rtl = getComputedStyle(this.svg).direction === 'rtl';
    if (rtl && dir[1] === 0) dir[0] = -dir[0];
    const c = (n) => { const r = n.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; };
    const p = c(from);
    let best = null, bestScore = Infinity;
    for (const t of this.layer.querySelectorAll('[data-hit]')) {
      if (t === from) continue;
      const q = c(t), dx = q.x - p.x, dy = q.y - p.y;
      const along = dx * dir[0] + dy * dir[1];
      const across = Math.abs(dx * dir[1] - dy * dir[0]);
      if (along <= 1 || across > along * 1.8) continue;
      const score = along + 2 * across;
      if (score < bestScore) { best = t; bestScore = score; }
    }
    return best;
  }

  /** Whether an element of the board is on screen (its centre at least `margin` px inside the board). */
  onScreen(node, margin = 24) {
    const r = node.getBoundingClientRect(), s = this.svg.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x >= s.left + margin && x <= s.right - margin && y >= s.top + margin && y <= s.bottom - margin;
  }

  /** The camera follows the action: bring board point p into view, smoothly (at once when the person
   *  prefers reduced motion or animations are instant), unless the person is dragging the board or has
   *  turned following off. Resolves when the camera is there. */
  follow(ctx, p, ms = 350) {
    if (!this.following || this.dragging) return Promise.resolve(false);
    const r = this.svg.getBoundingClientRect();
    const s = this.fitScale() * this.zoom;
    const ox = r.left + r.width / 2 + (this.panX + this.zoom * p.x - (this.box.x + this.box.w / 2)) * this.fitScale();
    const oy = r.top + r.height / 2 + (this.panY + this.zoom * p.y - (this.box.y + this.box.h / 2)) * this.fitScale();
    const margin = Math.min(90, 60 * s);
    if (ox >= r.left + margin && ox <= r.right - margin && oy >= r.top + margin && oy <= r.bottom - margin) return Promise.resolve(false);
    const cx = this.box.x + this.box.w / 2, cy = this.box.y + this.box.h / 2;
    const from = { x: this.panX, y: this.panY }, to = { x: cx - this.zoom * p.x, y: cy - this.zoom * p.y };
    this._centre = p;   // where the camera now looks: a redraw that must re-centre keeps it
    const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (reduced || !ctx || ctx.skipping) { this.panX = to.x; this.panY = to.y; this._applyTransform(); return Promise.resolve(true); }
    return tween(ctx, ms, (t) => {
      const k = ease(t);
      this.panX = from.x + (to.x - from.x) * k; this.panY = from.y + (to.y - from.y) * k;
      this._applyTransform();
    }).then(() => { this.panX = to.x; this.panY = to.y; this._applyTransform(); return true; });
  }

  /** Bring an element of the board into view (centred) when it is not on screen. */
  reveal(node) {
    if (!node || this.onScreen(node)) return false;
    const b = node.getBBox();
    this.centreOn({ x: b.x + b.width / 2, y: b.y + b.height / 2 }, false);
    return true;
  }

  /** Forget the zoom and fit the whole board. */
  fit() {
    this.fixedBox = false; this.zoom = 1; this.panX = 0; this.panY = 0; this.userMoved = false;
    this._applyTransform();
    if (this.lastView) this.render(this.lastView, this.lastUi);
    this._readable();
  }

  zoomBy(f, cx, cy) {
    const z = Math.min(6, Math.max(0.4, this.zoom * f));
    const k = z / this.zoom;
    if (cx === undefined) { cx = this.box.x + this.box.w / 2; cy = this.box.y + this.box.h / 2; }
    // keep the point (cx, cy) in place
    this.panX = cx - k * (cx - this.panX);
    this.panY = cy - k * (cy - this.panY);
    this.zoom = z;
    this.userMoved = true;
    this._applyTransform();
  }

  _applyTransform() {
    this.viewport.setAttribute('transform', `translate(${this.panX} ${this.panY}) scale(${this.zoom})`);
  }

  _svgPoint(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    // account for preserveAspectRatio xMidYMid meet
    const s = Math.min(r.width / this.box.w, r.height / this.box.h) || 1;
    const ox = r.left + (r.width - this.box.w * s) / 2, oy = r.top + (r.height - this.box.h * s) / 2;
    return { x: this.box.x + (clientX - ox) / s, y: this.box.y + (clientY - oy) / s, s };
  }

  _initInput() {
    const pointers = new Map();
    let dragStart = null, moved = false, pinch = null;
    this.svg.addEventListener('pointerdown', (e) => {
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) { dragStart = { x: e.clientX, y: e.clientY, px: this.panX, py: this.panY }; moved = false; }
      this.dragging = true;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), z: this.zoom };
      }
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        const p = this._svgPoint((a.x + b.x) / 2, (a.y + b.y) / 2);
        this.zoomBy((pinch.z * d / pinch.d) / this.zoom, p.x, p.y);
        moved = true;
        return;
      }
      if (!dragStart) return;
      const dx = e.clientX - dragStart.x, dy = e.clientY - dragStart.y;
      if (!moved && Math.hypot(dx, dy) < 6) return;
      moved = true;
      const s = this._svgPoint(0, 0).s;
      this.panX = dragStart.px + dx / s; this.panY = dragStart.py + dy / s;
      this.userMoved = true;
      this._applyTransform();
    });
    const up = (e) => { pointers.delete(e.pointerId); if (pointers.size < 2) pinch = null; if (!pointers.size) { dragStart = null; this.dragging = false; } };
    this.svg.addEventListener('pointerup', up);
    this.svg.addEventListener('pointercancel', up);
    this.svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const p = this._svgPoint(e.clientX, e.clientY);
      this.zoomBy(e.deltaY < 0 ? 1.15 : 1 / 1.15, p.x, p.y);
    }, { passive: false });
    // keyboard: Enter or Space chooses the focused target (Enter on a tile preview is left to the decision
    // bar: it places the tile); arrows move between targets
    this.svg.addEventListener('keydown', (e) => {
      const t = e.target.closest?.('[data-hit]');
      if (!t || !this.svg.contains(t)) return;
      if (e.key.startsWith('Arrow')) {
        const next = this._arrow(t, e.key);
        e.preventDefault();
        if (next) { next.focus({ preventScroll: true }); this.reveal(next); }
        return;
      }
      if (e.key === ' ' || (e.key === 'Enter' && t.dataset.hit !== 'preview')) {
        e.preventDefault();
        const d = t.dataset;
        this.onHit({ hit: d.hit, island: d.island, beach: d.beach, dir: d.dir, cell: d.cell }, { key: e.key });
      }
    });
    this.svg.addEventListener('focusin', (e) => {
      const t = e.target.closest?.('[data-hit]');
      if (t) { this.reveal(t); this._ring(t); }
    });
    this.svg.addEventListener('focusout', () => { this.ringNode?.remove(); this.ringNode = null; });
    // a finger cannot point without choosing: the table previews a pier on a first tap (table.js)
    this.svg.addEventListener('pointerdown', (e) => { this.lastPointer = e.pointerType; this.lastPointerAt = performance.now(); });
    this.svg.addEventListener('click', (e) => {
      if (moved) { moved = false; return; }
      const t = e.target.closest?.('[data-hit]');
      if (!t || !this.svg.contains(t)) {
        // a click on something that cannot be chosen now: let the table explain
        if (e.target.closest?.('.tile')) this.onHit({ hit: 'none' });
        return;
      }
      const d = t.dataset;
      this.onHit({ hit: d.hit, island: d.island, beach: d.beach, dir: d.dir, cell: d.cell }, { pointer: this.lastPointer });
    });
  }

  // ------------------------------------------------------------------ animation primitives
  clearOverlay() {
    while (this.overlay.firstChild) this.overlay.removeChild(this.overlay.firstChild);
    this.fleetNode = null;
    if (this.ringNode) { this.overlay.appendChild(this.ringNode); }
  }

  _mount(vnode) { const n = toDom(vnode); this.overlay.appendChild(n); return n; }

  /** Show a fleet marker (boats list) at a point. */
  showFleet(boats, p) {
    if (this.fleetNode) this.fleetNode.remove();
    this.fleetNode = this._mount(h('g', { class: 'anim-fleet', 'data-testid': 'anim-fleet' }, fleetGroup(boats, { x: 0, y: 0 }, SIZE)));
    this.fleetPos = p;
    this._placeFleet(p);
  }

  _placeFleet(p, extra = '') {
    if (this.fleetNode) this.fleetNode.setAttribute('transform', `translate(${p.x} ${p.y}) ${extra}`);
    this.fleetPos = p;
  }

  hideFleet() { if (this.fleetNode) { this.fleetNode.remove(); this.fleetNode = null; } }

  /** Shows the route a fleet would sail from the island on `from` through its pier toward `dir`
   *  (route.js routeAhead), or clears it (no route). */
  showRoute(from, dir, route) {
    while (this.routeLayer.firstChild) this.routeLayer.removeChild(this.routeLayer.firstChild);
    if (!route) return;
    const kids = [];
    const start = this.sidePoint(from, dir);
    kids.push(h('circle', { class: 'route-start', cx: start.x, cy: start.y, r: SIZE * 0.08 }));
    for (const s of route.steps) {
      const fp = foamPath(cellCenter(s.cell, SIZE), s.entry, s.exit, SIZE);
      kids.push(h('path', { class: `route-leg${s.passes ? '' : ' sinks'}`, d: fp.d }));
      if (s.danger > 0) {
        const q = bezierPoint(fp, 0.5);
        kids.push(h('g', { class: `route-danger ${s.passes ? 'ok' : 'sinks'}`, 'data-danger': s.danger },
          h('circle', { cx: q.x, cy: q.y, r: SIZE * 0.17 }),
          h('text', { x: q.x, y: q.y + SIZE * 0.07, 'text-anchor': 'middle', 'font-size': SIZE * 0.2 }, s.passes ? '✓' : '✕')));
      }
    }
    const c = cellCenter(route.cell, SIZE);
    const mark = { island: '⚓', royal: '↩', sinks: '', unknown: '?' }[route.end];
    kids.push(h('g', { class: `route-end ${route.end}`, 'data-end': route.end },
      h('circle', { cx: c.x, cy: c.y, r: SIZE * 0.42 }),
      mark ? h('text', { x: c.x, y: c.y + SIZE * 0.12, 'text-anchor': 'middle', 'font-size': SIZE * 0.34 }, mark) : null));
    this.routeLayer.appendChild(toDom(h('g', {}, kids)));
  }

  cellPoint(cell) { return cellCenter(cell, SIZE); }
  sidePoint(cell, d) { return sideMidpoint(cellCenter(cell, SIZE), d, SIZE); }

  /** Move the fleet in a straight line to p. */
  moveFleetTo(ctx, p, ms = 450) {
    const from = this.fleetPos || p;
    return tween(ctx, ms, (t) => {
      const k = ease(t);
      this._placeFleet({ x: from.x + (p.x - from.x) * k, y: from.y + (p.y - from.y) * k });
    });
  }

  /** Move the fleet along the foam path of `cell` from side `entry` to side `exit`. */
  sailPath(ctx, cell, entry, exit, ms = 700) {
    const fp = foamPath(cellCenter(cell, SIZE), entry, exit, SIZE);
    const trail = this._mount(h('path', { class: 'trail', d: fp.d, 'stroke-dasharray': '4 6' }));
    return tween(ctx, ms, (t) => this._placeFleet(bezierPoint(fp, ease(t)))).then(() => {
      setTimeout(() => trail.remove(), 1200);
    });
  }

  /** A pulse on a cell: 'pass', 'fail', 'land', 'royal'. */
  async flash(ctx, cell, kind, label, ms = 600) {
    const c = cellCenter(cell, SIZE);
    const g = this._mount(h('g', { class: `flash flash-${kind}` },
      h('circle', { cx: c.x, cy: c.y, r: SIZE * 0.3 }),
      label ? h('text', { x: c.x, y: c.y - SIZE * 0.35, 'text-anchor': 'middle', 'font-size': SIZE * 0.2 }, label) : null));
    await tween(ctx, ms, (t) => g.setAttribute('opacity', String(1 - t * 0.8)));
    g.remove();
  }

  /** The fleet goes down where it is: it lists and settles into the water while rings of foam spread
   *  and fade around it (a fleet that just vanished was missed). */
  async sink(ctx, ms = 1100) {
    const p = this.fleetPos || { x: 0, y: 0 };
    if (!this.fleetNode) this.showFleet([], p);
    this.fleetNode.classList.add('sinking');
    const rings = this._mount(h('g', { class: 'sink-rings', 'data-testid': 'sink-rings' },
      [0, 1, 2].map((i) => h('circle', { cx: p.x, cy: p.y, r: SIZE * 0.1, 'data-ring': i }))));
    await tween(ctx, ms, (t) => {
      const k = ease(t);
      this._placeFleet(p, `translate(0 ${k * SIZE * 0.18}) rotate(${k * 35}) scale(${1 - k * 0.75})`);
      this.fleetPos = p;
      if (this.fleetNode) this.fleetNode.setAttribute('opacity', String(1 - k));
      rings.querySelectorAll('circle').forEach((c, i) => {
        const u = Math.max(0, Math.min(1, t * 1.4 - i * 0.2));
        c.setAttribute('r', String(SIZE * (0.1 + 0.45 * u)));
        c.setAttribute('opacity', String(u > 0 ? 1 - u : 0));
      });
    });
    rings.remove();
    this.hideFleet();
  }

  /** A tile appears on its cell with a flip (drawn and turned into place). */
  async flipIn(ctx, cell, ms = 600) {
    const node = this.layer.querySelector(`[data-cell="${cell[0]},${cell[1]}"].tile`);
    if (!node) return;
    const c = cellCenter(cell, SIZE);
    await tween(ctx, ms, (t) => {
      const k = ease(t);
      node.setAttribute('transform', `translate(${c.x} ${c.y}) scale(${Math.max(0.05, Math.sin(k * Math.PI / 2))} 1) translate(${-c.x} ${-c.y})`);
    });
    node.removeAttribute('transform');
  }
}

// Hex geometry for flat-top hexagons on an axial grid (RULES.md R2, docs/engine.md).
// World directions 0..5 = S, SW, NW, N, NE, SE. Screen coordinates: x right, y down.
// Pure module: no DOM.

export const DIRS = [
  [0, 1],   // 0 S
  [-1, 1],  // 1 SW
  [-1, 0],  // 2 NW
  [0, -1],  // 3 N
  [1, -1],  // 4 NE
  [1, 0],   // 5 SE
];
export const DIR_NAMES = ['S', 'SW', 'NW', 'N', 'NE', 'SE'];
const SQRT3 = Math.sqrt(3);

/** Neighbouring cell of [q, r] in world direction d. */
export function neighbour([q, r], d) {
  const [dq, dr] = DIRS[((d % 6) + 6) % 6];
  return [q + dq, r + dr];
}

/** Direction from cell a to the adjacent cell b, or -1 when they are not adjacent. */
export function directionTo(a, b) {
  const dq = b[0] - a[0], dr = b[1] - a[1];
  return DIRS.findIndex(([x, y]) => x === dq && y === dr);
}

/** Pixel centre of a cell for hexagons of circumradius `size`. */
export function cellCenter([q, r], size) {
  return { x: 1.5 * size * q, y: SQRT3 * size * (r + q / 2) };
}

/** Angle in degrees (screen, clockwise from +x) of the midpoint of the side facing world direction d. */
export function sideAngle(d) {
  return 90 + 60 * (((d % 6) + 6) % 6);
}

/** Unit vector from a cell centre toward the midpoint of side d. */
export function sideVector(d) {
  const a = (sideAngle(d) * Math.PI) / 180;
  return { x: Math.cos(a), y: Math.sin(a) };
}

/** Midpoint of side d of the hexagon centred at c (apothem = size·√3/2). */
export function sideMidpoint(c, d, size) {
  const v = sideVector(d);
  const ap = (SQRT3 / 2) * size;
  return { x: round(c.x + v.x * ap), y: round(c.y + v.y * ap) };
}

/** The six corners of a flat-top hexagon centred at c. */
export function hexCorners(c, size) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i);
    pts.push({ x: round(c.x + size * Math.cos(a)), y: round(c.y + size * Math.sin(a)) });
  }
  return pts;
}

export function pointsAttr(points) {
  return points.map((p) => `${p.x},${p.y}`).join(' ');
}

/** Tile side s shown toward world direction (s + rotation) mod 6 (R2). */
export function sideToWorld(side, rotation) {
  return (((side + rotation) % 6) + 6) % 6;
}

/** Pixel → fractional axial → nearest cell. */
export function pixelToCell(x, y, size) {
  const q = (2 / 3) * x / size;
  const r = (-1 / 3) * x / size + (SQRT3 / 3) * y / size;
  return axialRound(q, r);
}

export function axialRound(q, r) {
  const s = -q - r;
  let rq = Math.round(q), rr = Math.round(r), rs = Math.round(s);
  const dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return [rq + 0, rr + 0];
}

export function cellKey([q, r]) {
  return `${q},${r}`;
}

/** Bounding box (pixels) of a list of cells, padded by one hexagon. */
export function boundsOf(cells, size, pad = 1) {
  if (!cells.length) cells = [[0, 0]];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const cell of cells) {
    const c = cellCenter(cell, size);
    minX = Math.min(minX, c.x); maxX = Math.max(maxX, c.x);
    minY = Math.min(minY, c.y); maxY = Math.max(maxY, c.y);
  }
  const px = size * (1 + pad * 1.5), py = size * (SQRT3 / 2) * (1 + pad * 2);
  return { x: minX - px, y: minY - py, w: maxX - minX + 2 * px, h: maxY - minY + 2 * py };
}

export function round(v) {
  return Math.round(v * 100) / 100 + 0;
}

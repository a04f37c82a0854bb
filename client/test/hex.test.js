import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DIRS, neighbour, directionTo, cellCenter, sideMidpoint, sideAngle, hexCorners, pixelToCell, sideToWorld, boundsOf,
} from '../src/hex.js';

test('directions follow docs/engine.md: S, SW, NW, N, NE, SE', () => {
  assert.deepEqual(DIRS, [[0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1], [1, 0]]);
  assert.deepEqual(neighbour([0, 0], 0), [0, 1]);
  assert.deepEqual(neighbour([2, -1], 4), [3, -2]);
  assert.deepEqual(neighbour([0, 0], 6), [0, 1]);
});

test('opposite directions are 3 apart and directionTo inverts neighbour', () => {
  for (let d = 0; d < 6; d++) {
    const n = neighbour([3, -2], d);
    assert.equal(directionTo([3, -2], n), d);
    assert.equal(directionTo(n, [3, -2]), (d + 3) % 6);
  }
  assert.equal(directionTo([0, 0], [2, 0]), -1);
});

test('pixel centre x = 1.5·size·q, y = √3·size·(r + q/2)', () => {
  assert.deepEqual(cellCenter([0, 0], 10), { x: 0, y: 0 });
  const c = cellCenter([2, -1], 10);
  assert.equal(c.x, 30);
  assert.ok(Math.abs(c.y - 0) < 1e-9);
  const s = cellCenter([0, 1], 10);
  assert.ok(Math.abs(s.y - 10 * Math.sqrt(3)) < 1e-9);
});

test('the side toward direction d points at the neighbour in direction d', () => {
  const size = 50;
  for (let d = 0; d < 6; d++) {
    const c = cellCenter([0, 0], size);
    const n = cellCenter(neighbour([0, 0], d), size);
    const m = sideMidpoint(c, d, size);
    // the side midpoint is halfway between the two centres
    assert.ok(Math.abs(m.x - n.x / 2) < 0.02, `x for ${d}`);
    assert.ok(Math.abs(m.y - n.y / 2) < 0.02, `y for ${d}`);
  }
  assert.equal(sideAngle(0), 90);   // S is straight down on screen
  assert.equal(sideAngle(3), 270);  // N is up
});

test('flat-top corners: two corners on the horizontal axis', () => {
  const pts = hexCorners({ x: 0, y: 0 }, 10);
  assert.equal(pts.length, 6);
  assert.deepEqual(pts[0], { x: 10, y: 0 });
  assert.deepEqual(pts[3], { x: -10, y: 0 });
});

test('pixelToCell inverts cellCenter', () => {
  for (const cell of [[0, 0], [1, 0], [-2, 3], [4, -5], [0, -1]]) {
    const c = cellCenter(cell, 37);
    assert.deepEqual(pixelToCell(c.x + 3, c.y - 2, 37), cell);
  }
});

test('tile side s shows toward world direction (s + ρ) mod 6 (R2)', () => {
  assert.equal(sideToWorld(0, 3), 3);
  assert.equal(sideToWorld(5, 4), 3);
  assert.equal(sideToWorld(2, 0), 2);
});

test('bounds cover every cell with a margin', () => {
  const b = boundsOf([[0, 0], [2, 0]], 10, 0);
  assert.ok(b.x <= -10 && b.x + b.w >= 40);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardTree, beachAngle, mooringPoints, foamPath, bezierPoint, viewBoxOf, oceanTile, SIZE } from '../src/board.js';
import { findAll, toMarkup } from '../src/vdom.js';
import { turnedTile } from '../src/tiles.js';
import { cellCenter, sideMidpoint } from '../src/hex.js';

const tonga = {
  tile: 'Tonga', kind: 'island', cell: [0, 0], rotation: 0, value: 0, royal: null,
  beaches: [0, 1, 2, 3, 4, 5].map((d) => ({ moorings: 3, piers: [d], boats: d === 0 ? ['red', 'blue'] : [] })),
};
// The shapes the engine sends in `view.hand` (tile_shape with rotation 0), from the catalogue.
const C = { tile: 'c', kind: 'ocean', rotation: 0, paths: [[0, 3, 4], [1, 5, 3], [2, 4, 0]] };
const HAWAII = { tile: 'Hawaii', kind: 'island', rotation: 0, value: 5, royal: null,
  beaches: [{ moorings: 3, piers: [1, 2], boats: [] }, { moorings: 5, piers: [3], boats: [] }, { moorings: 2, piers: [4, 5], boats: [] }] };
const view = {
  colours: ['red', 'blue'], phase: 'play', turn: 1, active: 'red',
  tiles: [tonga, turnedTile(C, [0, 1], 3), { ...turnedTile(HAWAII, [0, 2], 3), royal: 'blue' }],
  players: [], legal: [], pending: null,
};

const byAttr = (tree, k, v) => findAll(tree, (n) => n.attrs[k] !== undefined && (v === undefined || String(n.attrs[k]) === String(v)));

test('a tile in hand turns into world directions (docs/engine.md example for c at rotation 3)', () => {
  assert.deepEqual(turnedTile(C, [0, 1], 3).paths, [[3, 0, 4], [4, 2, 3], [5, 1, 0]]);
  assert.deepEqual(turnedTile(HAWAII, [0, 2], 3).beaches.map((b) => b.piers), [[4, 5], [0], [1, 2]]);
});

test('every tile of the view becomes one group on its cell', () => {
  const tree = boardTree(view);
  const tiles = byAttr(tree, 'data-tile');
  assert.deepEqual(tiles.map((t) => t.attrs['data-tile']), ['Tonga', 'c', 'Hawaii']);
  assert.deepEqual(tiles.map((t) => t.attrs['data-cell']), ['0,0', '0,1', '0,2']);
});

test('islands show name, value, beaches with moorings and boats in player colours', () => {
  const tree = boardTree(view);
  const tongaG = byAttr(tree, 'data-tile', 'Tonga')[0];
  const md = toMarkup(tongaG);
  assert.match(md, />Tonga</);
  assert.equal(byAttr(tongaG, 'data-beach-of').length, 6);
  const boats = findAll(tongaG, (n) => n.attrs.class === 'boat');
  assert.deepEqual(boats.map((b) => b.attrs['data-mark']), ['circle', 'square']);
  assert.deepEqual(boats.map((b) => b.attrs['data-colour']), ['red', 'blue']);
  const moorings = findAll(tongaG, (n) => n.attrs.class === 'mooring');
  assert.equal(moorings.length, 18 - 2);
  const hawaii = byAttr(tree, 'data-tile', 'Hawaii')[0];
  assert.match(toMarkup(hawaii), />5</);
  // royal boat on the mask in the owner's colour
  const royal = findAll(hawaii, (n) => /royal-boat/.test(n.attrs.class || ''));
  assert.equal(royal.length, 1);
  assert.equal(royal[0].attrs['data-colour'], 'blue');
});

test('piers are jetties pointing at the side midpoint of their world direction', () => {
  const tree = boardTree(view);
  const hawaii = byAttr(tree, 'data-tile', 'Hawaii')[0];
  const piers = findAll(hawaii, (n) => n.tag === 'line' && n.attrs['data-dir'] !== undefined);
  assert.deepEqual(piers.map((p) => Number(p.attrs['data-dir'])).sort(), [0, 1, 2, 4, 5]);
  const c = cellCenter([0, 2], SIZE);
  for (const p of piers) {
    const m = sideMidpoint(c, Number(p.attrs['data-dir']), SIZE);
    const dx = p.attrs.x2 - c.x, dy = p.attrs.y2 - c.y;
    const mx = m.x - c.x, my = m.y - c.y;
    // same direction as the side midpoint
    assert.ok(Math.abs(dx * my - dy * mx) < 1, 'collinear');
    assert.ok(dx * mx + dy * my > 0, 'same side');
  }
});

test('ocean tiles draw three foam paths and the danger numbers (none for 0)', () => {
  const tree = boardTree(view);
  const c = byAttr(tree, 'data-tile', 'c')[0];
  assert.equal(findAll(c, (n) => n.attrs.class === 'foam').length, 3);
  const dangers = byAttr(c, 'data-danger').map((n) => Number(n.attrs['data-danger'])).sort();
  assert.deepEqual(dangers, [3, 4]);
});

test('a foam path runs from side midpoint to side midpoint', () => {
  const c = { x: 0, y: 0 };
  const fp = foamPath(c, 0, 3, 10);
  assert.deepEqual(bezierPoint(fp, 0), sideMidpoint(c, 0, 10));
  assert.deepEqual(bezierPoint(fp, 1), sideMidpoint(c, 3, 10));
});

test('beaches sit toward their piers; moorings count matches', () => {
  assert.equal(beachAngle([0]), 90);
  assert.equal(beachAngle([4, 5]), 0);
  assert.equal(beachAngle([1, 2]), 180);
  const pts = mooringPoints({ x: 0, y: 0 }, { moorings: 5, piers: [3] });
  assert.equal(pts.length, 5);
  assert.ok(pts.every((p) => p.y < 0), 'a north beach is above the centre');
});

test('highlights: clickable islands, beaches, piers and empty cells carry data-hit', () => {
  const ui = {
    islands: new Set(['Tonga']), beaches: new Set(['Tonga|2']), piers: new Set(['Tonga|0|0']), cells: new Set(['1,0']),
  };
  const tree = boardTree(view, ui);
  const hits = byAttr(tree, 'data-hit').map((n) => `${n.attrs['data-hit']}:${n.attrs['data-island'] ?? n.attrs['data-cell']}:${n.attrs['data-beach'] ?? ''}`);
  assert.ok(hits.includes('island:Tonga:'));
  assert.ok(hits.includes('beach:Tonga:2'));
  assert.ok(hits.includes('pier:Tonga:0'));
  assert.ok(hits.includes('cell:1,0:'));
  // nothing else is clickable
  assert.equal(byAttr(boardTree(view, {}), 'data-hit').length, 0);
});

test('a preview tile and the waiting fleet are drawn', () => {
  const ui = { preview: turnedTile(C, [1, 0], 2), cells: new Set(['1,0']) };
  const tree = boardTree({ ...view, fleet: { boats: ['red', 'blue'], colours: 2, from: 'Tonga', cell: [0, 2] } }, ui);
  assert.equal(byAttr(tree, 'data-hit', 'preview').length, 1);
  assert.equal(byAttr(tree, 'data-hit', 'cell').length, 0, 'the previewed cell is not also a slot');
  const fleet = byAttr(tree, 'data-fleet', 'waiting')[0];
  assert.equal(findAll(fleet, (n) => n.attrs.class === 'boat').length, 2);
});

test('text is escaped in markup (no injection through tile names)', () => {
  const evil = { ...tonga, tile: '<script>x</script>' };
  const md = toMarkup(boardTree({ tiles: [evil] }));
  assert.ok(!md.includes('<script>'));
});

test('the view box contains every tile', () => {
  const b = viewBoxOf(view);
  for (const t of view.tiles) {
    const c = cellCenter(t.cell, SIZE);
    assert.ok(c.x > b.x && c.x < b.x + b.w && c.y > b.y && c.y < b.y + b.h);
  }
});

test('danger numbers of crossing paths stand apart (never "4 3 4" read as one number)', () => {
  const pairings = (sides) => {
    if (!sides.length) return [[]];
    const [a, ...rest] = sides;
    return rest.flatMap((b, i) => pairings(rest.filter((_, j) => j !== i)).map((p) => [[a, b], ...p]));
  };
  for (const pr of pairings([0, 1, 2, 3, 4, 5])) {
    const g = oceanTile({ tile: 'x', cell: [0, 0], paths: pr.map(([a, b], i) => [a, b, 2 + i]) }, SIZE);
    const cs = findAll(g, (n) => n.tag === 'circle').map((n) => n.attrs);
    for (let i = 0; i < cs.length; i++) {
      for (let j = i + 1; j < cs.length; j++) {
        // a third of a tile's radius between centres: a clear gap between two numbers' discs
        assert.ok(Math.hypot(cs[i].cx - cs[j].cx, cs[i].cy - cs[j].cy) >= SIZE * 0.4, JSON.stringify(pr));
      }
    }
  }
});

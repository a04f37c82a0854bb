// The route a pier leads to, over the tiles on the table (RULES.md R7), before the person chooses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routeAhead, fleetColours, routeWords } from '../src/route.js';
import { translator, loadLanguage } from '../src/i18n.js';

await loadLanguage('en');

// Tonga on [0,0]; to its N ([0,-1]) an ocean tile whose path S(0)→N(3) has danger 2; beyond it, N of
// [0,-1] is [0,-2]: Samoa. Its path SW(1)-NE(4) has danger 4 (not on the route).
const tiles = [
  { tile: 'Tonga', kind: 'island', cell: [0, 0], beaches: [{ boats: ['red', 'blue', 'red'] }, { boats: ['red'] }] },
  { tile: 'a', kind: 'ocean', cell: [0, -1], paths: [[0, 3, 2], [1, 4, 4], [2, 5, 0]] },
  { tile: 'Samoa', kind: 'island', cell: [0, -2] },
];

test('R7: over the placed tiles to an island, each danger against the fleet colours', () => {
  const r = routeAhead(tiles, [0, 0], 3, 2);
  assert.deepEqual(r.steps, [{ cell: [0, -1], entry: 0, exit: 3, danger: 2, passes: true }]);
  assert.equal(r.end, 'island');
  assert.equal(r.island, 'Samoa');
  assert.equal(routeWords(r, 2, translator('en')), 'danger 2 ✓ (2 colours) → lands on Samoa');
});

test('R7.2: a danger greater than the colours sinks the fleet; an empty cell is unknown water', () => {
  assert.equal(routeAhead(tiles, [0, 0], 3, 1).end, 'sinks');
  assert.match(routeWords(routeAhead(tiles, [0, 0], 3, 1), 1, translator('en')), /^danger 2 ✕ sinks \(1 colour\)/);
  const open = routeAhead(tiles, [0, 0], 0, 3);
  assert.deepEqual([open.end, open.cell, open.steps.length], ['unknown', [0, 1], 0]);
});

test('R7.3: a royal island turns the fleet back; the fleet colours are its beach boats', () => {
  const royal = tiles.map((t) => (t.tile === 'Samoa' ? { ...t, royal: 'blue' } : t));
  assert.equal(routeAhead(royal, [0, 0], 3, 2).end, 'royal');
  assert.equal(fleetColours(tiles, 'Tonga', 0), 2);
  assert.equal(fleetColours(tiles, 'Tonga', '1'), 1);
});

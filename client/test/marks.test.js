import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MARKS, markPath } from '../src/marks.js';
import { COLOURS } from '../src/board.js';

test('every colour has its own mark, and every pair of marks is drawn differently', () => {
  const colours = Object.keys(COLOURS);
  assert.deepEqual(Object.keys(MARKS).sort(), colours.sort());
  const shapes = colours.map((c) => markPath(MARKS[c], 0, 0, 1));
  for (const d of shapes) assert.ok(d.length > 10);
  assert.equal(new Set(shapes).size, colours.length);
  assert.equal(new Set(Object.values(MARKS)).size, colours.length);
});

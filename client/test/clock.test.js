import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLeft, timeLeft } from '../src/ui/clock.js';
import { TableState } from '../src/ui/tablestate.js';

test('time left is shown rounded up to the second', () => {
  assert.equal(formatLeft(65000), '1:05');
  assert.equal(formatLeft(9001), '0:10');
  assert.equal(formatLeft(0), '0:00');
  assert.equal(formatLeft(-50), '0:00');
});

test('the clock counts only for the decision on screen, at its version', () => {
  const view = { pending: { colour: 'red' } };
  const s = new TableState({ v: 4, shown: view, target: view, deadline: { v: 4, colour: 'red', end: 10000 } });
  assert.equal(timeLeft(s, 4000), 6000);
  assert.equal(timeLeft(s, 12000), 0);
  s.set({ v: 5 });
  assert.equal(timeLeft(s, 4000), null);
  s.set({ deadline: { v: 5, colour: 'blue', end: 10000 } });
  assert.equal(timeLeft(s, 4000), null);
});

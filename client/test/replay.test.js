import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayReports } from '../src/ui/replay.js';

const one = { turn: 1, events: [{ type: 'orders', turn: 1 }] };
const two = { turn: 2, events: [{ type: 'orders', turn: 2 }] };
const byVersion = [null, null, one, null, null, two];

test('a replay holds the reports of the turns resolved up to its version', () => {
  assert.deepEqual(replayReports(byVersion, 2), [one]);
  assert.deepEqual(replayReports(byVersion, 4), [one]);
  assert.deepEqual(replayReports(byVersion, 5), [one, two]);
});

test('while the first turn is ordered, its report is told ahead', () => {
  for (const v of [0, 1]) assert.deepEqual(replayReports(byVersion, v), [{ ...one, ahead: true }]);
  assert.equal(one.ahead, undefined, 'the kept report is not marked');
  assert.deepEqual(replayReports([null, null], 1), []);
});

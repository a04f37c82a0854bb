import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TableState } from '../src/ui/tablestate.js';

test('subscribers hear which fields changed, and nothing when nothing did', () => {
  const s = new TableState();
  const heard = [];
  const off = s.subscribe((changed) => heard.push([...changed].sort()));
  s.set({ v: 3, sending: false });
  s.set({ v: 3 });
  s.set({ sending: true, v: 4 });
  off();
  s.set({ v: 5 });
  assert.deepEqual(heard, [['v'], ['sending', 'v']]);
});

test('an unknown field is refused', () => {
  assert.throws(() => new TableState().set({ shwon: {} }), /no field shwon/);
});

test('interactive only when the latest view is shown and nothing plays or is sent', () => {
  const view = { phase: 'play' };
  const s = new TableState({ v: 2 });
  assert.equal(s.interactive, false);
  s.set({ shown: view, target: view });
  assert.equal(s.interactive, true);
  s.set({ sending: true }); assert.equal(s.interactive, false); s.set({ sending: false });
  s.set({ waitV: 3 }); assert.equal(s.interactive, false); s.set({ v: 3 });
  assert.equal(s.interactive, true);
  s.set({ target: { phase: 'play' } });
  assert.equal(s.interactive, false);
  assert.equal(s.legalShown, null);
});

test('my colours come from the human seats of this person', () => {
  const s = new TableState({ me: 'p1', room: { seats: [
    { person: 'p1', kind: 'human', colours: ['red', 'green'] },
    { person: 'p2', kind: 'human', colours: ['blue'] },
    { person: null, kind: 'bot', colours: ['yellow'] }] } });
  assert.deepEqual(s.myColours(), ['red', 'green']);
  assert.equal(s.seatOfColour('yellow').kind, 'bot');
  assert.equal(s.seatOfColour('black'), null);
});

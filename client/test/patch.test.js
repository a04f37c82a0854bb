import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, GameStream } from '../src/patch.js';

test('set, del and trunc on maps and arrays (docs/protocol.md §5)', () => {
  const v0 = { a: 1, list: [1, 2, 3], m: { x: { y: 1 } }, gone: true };
  const v1 = applyPatch(v0, [
    ['set', ['a'], 2], ['set', ['list', 3], 4], ['set', ['list', 0], 9], ['set', ['m', 'x', 'z'], null],
    ['del', ['gone']], ['trunc', ['list'], 2], ['set', ['new'], { k: [1] }],
  ]);
  assert.deepEqual(v1, { a: 2, list: [9, 2], m: { x: { y: 1, z: null } }, new: { k: [1] } });
  assert.deepEqual(v0, { a: 1, list: [1, 2, 3], m: { x: { y: 1 } }, gone: true }, 'the old view is untouched');
});

test('a root set replaces the view', () => {
  assert.deepEqual(applyPatch({ a: 1 }, [['set', [], { b: 2 }]]), { b: 2 });
  assert.deepEqual(applyPatch(null, [['set', [], { b: 2 }], ['set', ['c'], 3]]), { b: 2, c: 3 });
});

test('bad patches throw instead of corrupting silently', () => {
  assert.throws(() => applyPatch({ a: [] }, [['set', ['a', 5], 1]]));
  assert.throws(() => applyPatch({ a: 1 }, [['set', ['x', 'y'], 1]]));
  assert.throws(() => applyPatch({ a: 1 }, [['zap', ['a']]]));
});

test('the stream applies v+1, ignores old messages and reports gaps', () => {
  const s = new GameStream();
  assert.equal(s.receive({ v: 3, events: [], patch: [['set', ['x'], 1]] }).status, 'gap');
  const first = s.receive({ v: 0, events: [], patch: [['set', [], { turn: 0, tiles: [] }]] });
  assert.equal(first.status, 'applied');
  assert.equal(s.v, 0);
  const r = s.receive({ v: 1, events: [{ type: 'tile_placed' }], patch: [['set', ['turn'], 1]] });
  assert.equal(r.status, 'applied');
  assert.deepEqual(r.prev, { turn: 0, tiles: [] });
  assert.deepEqual(r.view, { turn: 1, tiles: [] });
  assert.equal(r.events.length, 1);
  assert.equal(s.receive({ v: 1, patch: [['set', ['turn'], 99]] }).status, 'ignored');
  assert.deepEqual(s.receive({ v: 5, patch: [] }), { status: 'gap', since: 1 });
  assert.equal(s.view.turn, 1);
});

test('catch-up answers: missing messages or a snapshot', () => {
  const s = new GameStream();
  s.loadSnapshot({ v: 10, view: { turn: 5 } });
  const out = s.catchUp({ ok: true, v: 12, messages: [
    { v: 11, events: [], patch: [['set', ['turn'], 6]] }, { v: 12, events: [], patch: [['set', ['turn'], 7]] }] });
  assert.deepEqual(out.map((o) => o.status), ['applied', 'applied']);
  assert.equal(s.v, 12);
  assert.equal(s.view.turn, 7);
  const snap = s.catchUp({ ok: true, v: 40, snapshot: { v: 40, view: { turn: 30 } } });
  assert.equal(snap[0].status, 'snapshot');
  assert.equal(s.v, 40);
  assert.equal(s.view.turn, 30);
});

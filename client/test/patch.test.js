import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, GameStream, KEYS } from '../src/patch.js';

const K = (name) => KEYS.indexOf(name);

test('changes of maps and arrays: scalars, nested changes, whole values, deletions (docs/protocol.md §5)', () => {
  const v0 = { a: 1, list: [1, 2, 3], m: { x: { y: 1 } }, gone: true, turn: 3 };
  const v1 = applyPatch(v0, [
    'a', 2, 'list', [0, 9, 3, 4], 'm', ['x', ['z', null]], 'gone', {}, 'new', { '=': { k: [1] } }, K('turn'), 4,
  ]);
  assert.deepEqual(v1, { a: 2, list: [9, 2, 3, 4], m: { x: { y: 1, z: null } }, new: { k: [1] }, turn: 4 });
  assert.deepEqual(v0, { a: 1, list: [1, 2, 3], m: { x: { y: 1 } }, gone: true, turn: 3 }, 'the old view is untouched');
});

test('array splices first, then changes at the new indexes', () => {
  const tiles = [{ tile: 'a', boats: [] }, { tile: 'c', boats: ['red'] }];
  const v = applyPatch({ tiles, remaining: ['x', 'y', 'z'] }, [
    K('tiles'), ['@', [[1, 0, { tile: 'b', boats: [] }]], 2, [K('boats'), ['@', [[0, 1]]]]],
    K('remaining'), ['@', [[1, 1]]],
  ]);
  assert.deepEqual(v, { tiles: [{ tile: 'a', boats: [] }, { tile: 'b', boats: [] }, { tile: 'c', boats: [] }], remaining: ['x', 'z'] });
});

test('a whole-view patch replaces the view', () => {
  assert.deepEqual(applyPatch({ a: 1 }, { '=': { b: 2 } }), { b: 2 });
  assert.deepEqual(applyPatch(null, { '=': { b: 2 } }), { b: 2 });
});

test('bad patches throw instead of corrupting silently', () => {
  assert.throws(() => applyPatch({ a: [] }, ['a', [5, 1]]));
  assert.throws(() => applyPatch({ a: 1 }, ['x', ['y', 1]]));
  assert.throws(() => applyPatch({ a: 1 }, ['a']));
  assert.throws(() => applyPatch({ a: 1 }, [999, 1]));
  assert.throws(() => applyPatch({ a: [1] }, ['a', ['@', [[5, 0, 1]]]]));
});

test('the stream applies v+1, ignores old messages and reports gaps', () => {
  const s = new GameStream();
  assert.equal(s.receive({ v: 3, events: [], patch: ['x', 1] }).status, 'gap');
  const first = s.receive({ v: 0, events: [], patch: { '=': { turn: 0, tiles: [] } } });
  assert.equal(first.status, 'applied');
  assert.equal(s.v, 0);
  const r = s.receive({ v: 1, events: [{ type: 'tile_placed' }], patch: [K('turn'), 1] });
  assert.equal(r.status, 'applied');
  assert.deepEqual(r.prev, { turn: 0, tiles: [] });
  assert.deepEqual(r.view, { turn: 1, tiles: [] });
  assert.equal(r.events.length, 1);
  assert.equal(s.receive({ v: 1, patch: [K('turn'), 99] }).status, 'ignored');
  assert.deepEqual(s.receive({ v: 5, patch: [] }), { status: 'gap', since: 1 });
  assert.equal(s.view.turn, 1);
});

test('legal actions count for their version only', () => {
  const s = new GameStream();
  s.loadSnapshot({ v: 4, view: { turn: 1 } });
  assert.equal(s.legalNow(), null);
  s.setLegal({ room: 'r', v: 5, actions: [{ type: 'colonise' }] });   // came before its game message
  assert.equal(s.legalNow(), null);
  s.receive({ v: 5, patch: [K('turn'), 2] });
  assert.deepEqual(s.legalNow(), [{ type: 'colonise' }]);
  s.setLegal({ room: 'r', v: 3, actions: [] });   // a late, older one changes nothing
  assert.deepEqual(s.legalNow(), [{ type: 'colonise' }]);
  s.receive({ v: 6, patch: [K('turn'), 3] });
  assert.equal(s.legalNow(), null);
});

test('a person holding two Expeditions seats keeps both forms of a version (docs/protocol.md §14)', () => {
  const s = new GameStream();
  s.loadSnapshot({ v: 7, view: { turn: 2 } });
  const red = { colour: 'red', turn: 2, order: null }, blue = { colour: 'blue', turn: 2, order: { type: 'pass' } };
  s.setLegal({ room: 'r', v: 7, actions: red });
  s.setLegal({ room: 'r', v: 7, actions: blue });
  s.setLegal({ room: 'r', v: 7, actions: { ...red, order: { type: 'pass' } } });   // a repeat changes nothing
  assert.deepEqual(s.legalNow(), red);   // the first stays what one seat's client used
  assert.deepEqual(s.legalSeatsNow(), { red, blue });
  s.receive({ v: 8, patch: [] });
  assert.equal(s.legalSeatsNow(), null);
  s.catchUp({ v: 8, messages: [], legal: { v: 8, actions: red }, legals: [{ v: 8, actions: red }, { v: 8, actions: blue }] });
  assert.deepEqual(s.legalSeatsNow(), { red, blue });
  assert.deepEqual(s.legalNow(), red);
});

test('catch-up answers: missing messages or a snapshot, with legal actions', () => {
  const s = new GameStream();
  s.loadSnapshot({ v: 10, view: { turn: 5 } });
  const out = s.catchUp({ ok: true, v: 12, messages: [
    { v: 11, events: [], patch: [K('turn'), 6] }, { v: 12, events: [], patch: [K('turn'), 7] }] });
  assert.deepEqual(out.map((o) => o.status), ['applied', 'applied']);
  assert.equal(s.v, 12);
  assert.equal(s.view.turn, 7);
  const snap = s.catchUp({ ok: true, v: 40, snapshot: { v: 40, view: { turn: 30 } },
    legal: { room: 'r', v: 40, actions: [{ type: 'setup', beach: 1 }] } });
  assert.equal(snap[0].status, 'snapshot');
  assert.equal(s.v, 40);
  assert.equal(s.view.turn, 30);
  assert.deepEqual(s.legalNow(), [{ type: 'setup', beach: 1 }]);
});

test('a catch-up that brings nothing new changes nothing: same-version legal actions and snapshot are kept', () => {
  const s = new GameStream();
  s.receive({ v: 0, patch: { '=': { turn: 1 } } });
  s.setLegal({ v: 0, actions: [{ type: 'setup', beach: 0 }] });
  const view = s.view, actions = s.legalNow();
  const out = s.catchUp({ v: 0, snapshot: { v: 0, view: { turn: 1 } }, legal: { v: 0, actions: [{ type: 'setup', beach: 0 }] } });
  assert.deepEqual(out, []);
  assert.equal(s.view, view);
  assert.equal(s.legalNow(), actions);
  // a newer version's actions do replace them
  s.receive({ v: 1, patch: [K('turn'), 2] });
  s.setLegal({ v: 1, actions: [] });
  assert.deepEqual(s.legalNow(), []);
});

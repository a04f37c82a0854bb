// The Expeditions order form's rules (EXPEDITIONS.md E4) and the turn report's words, pure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrderDraft, kindsOf, orderWords } from '../src/expeditions/orders.js';
import { eventWords, reportOf } from '../src/expeditions/words.js';
import { stepScene } from '../src/expeditions/table.js';
import { translator, loadLanguage } from '../src/i18n.js';

await loadLanguage('en');

const t = translator('en');
const options = (over = {}) => ({ royal: [], expand: [{ island: 'TONG', moves: 2, own: {} }], place: [], take_back: [], supply: 15, ...over });

test('E4: Tonga gives two moves, no more, and nothing comes off a beach without an own boat', () => {
  const d = new OrderDraft(options());
  assert.equal(d.kind, 'expand');
  d.add('N'); d.add('N');
  assert.equal(d.left, 0);
  assert.equal(d.canAdd('E'), false);
  assert.equal(d.canRemove('E'), false);
  assert.equal(d.canRemove('N'), true);   // undoing a placement
  assert.deepEqual(d.toWire(), { type: 'expand', island: 'TONG', moves: { N: 2 } });
});

test('a kept order is rebuilt through the same checks: what the options no longer allow is left out', () => {
  const d = new OrderDraft(options({ expand: [{ island: 'MURO', moves: 3, own: { S: 1 } }], supply: 1, royal: ['MURO'] }));
  d.remove('S'); d.add('N'); d.add('N');
  const kept = JSON.parse(JSON.stringify(d.snapshot()));
  const again = new OrderDraft(options({ expand: [{ island: 'MURO', moves: 3, own: { S: 1 } }], supply: 1, royal: ['MURO'] })).restore(kept);
  assert.deepEqual(again.toWire(), d.toWire());
  // the same snapshot on a turn with less: one move, no own boat on S, an island that is not offered
  const less = new OrderDraft(options({ expand: [{ island: 'MURO', moves: 1, own: {} }], supply: 1 })).restore(kept);
  assert.deepEqual(less.toWire(), { type: 'expand', island: 'MURO', moves: { N: 1 } });
  const other = new OrderDraft(options()).restore({ ...kept, kind: 'royal' });
  assert.equal(other.kind, 'expand', 'no royal island is offered: the kind is not taken');
  assert.deepEqual(new OrderDraft(options()).restore(null).toWire(), new OrderDraft(options()).toWire());
});

test('E4: placements stay within the supply after take-backs, and take-backs within the own boats', () => {
  const d = new OrderDraft(options({ expand: [{ island: 'MURO', moves: 3, own: { S: 1 } }], supply: 0 }));
  assert.equal(d.canAdd('N'), false, 'an empty supply places nothing');
  d.remove('S');
  assert.equal(d.canRemove('S'), false, 'one own boat on S: one take-back');
  assert.equal(d.canAdd('N'), true, 'the boat taken back may be placed again');
  d.add('N');
  assert.equal(d.canAdd('E'), false);
  assert.deepEqual(d.toWire(), { type: 'expand', island: 'MURO', moves: { N: 1, S: -1 } });
});

test('only the kinds the options allow are offered; pass always', () => {
  assert.deepEqual(kindsOf(options({ royal: ['MURO'] })), ['expand', 'royal', 'pass']);
  assert.deepEqual(kindsOf(options({ expand: [], place: ['MURO'] })), ['place', 'pass']);
  const d = new OrderDraft(options({ royal: ['MURO'] }));
  d.choose('royal');
  assert.deepEqual(d.toWire(), { type: 'royal', island: 'MURO' });
});

test('the report in words, plurals by Intl.PluralRules, from the revealed orders on', () => {
  const who = (c) => c;
  assert.equal(orderWords({ type: 'expand', island: 'TONG', moves: { N: 2, E: -1 } }, t), 'TONG N+2 E-1');
  assert.equal(eventWords({ type: 'fleet_departed', island: 'TONG', beach: 'N', boats: ['red'], mv: 1, tied: 0 }, t, who),
    'A fleet of 1 boat leaves TONG N');
  assert.equal(eventWords({ type: 'migration_phase', overflowing: [[1], [2]] }, t, who), 'Migrations: 2 beaches overflow');
  assert.equal(eventWords({ type: 'boat_moved', colour: 'red', island: 'TONG', cell: [6, 6], beach: 'N', to: 'supply' }, t, who),
    'red: a boat from TONG N back to the supply');
  const events = [{ type: 'submitted', colour: 'red', turn: 1 }, { type: 'orders', turn: 1, orders: {} }];
  assert.deepEqual(reportOf(events), [events[1]]);
});

test('a report step shows the tiles found so far and the fleet under way on its tile', () => {
  const events = [
    { type: 'orders', turn: 1, orders: {} },
    { type: 'fleet_departed', island: 'TONG', cell: [6, 6], beach: 'N', boats: ['red', 'blue'], mv: 2, tied: 0 },
    { type: 'tile_placed', tile: 'S05', cell: [6, 5], left: {} },
    { type: 'route_sailed', tile: 'S05', cell: [6, 5], entry: 'S', exit: 'N', factor: 1, mv: 2, survived: true },
    { type: 'tile_placed', tile: 'MURO', cell: [6, 4], left: {} },
  ];
  const at = stepScene(events, 2, null);
  assert.deepEqual([...at.hidden], ['MURO']);
  assert.deepEqual(at.fleet, { cell: [6, 5], boats: ['red', 'blue'], lost: false });
  assert.deepEqual([...stepScene(events, 4, null).hidden], []);
});

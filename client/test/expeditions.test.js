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

// a map naming its islands (the view's tiles), for the words below
const VIEW = { tiles: [
  { tile: 'TONG', kind: 'island', name: 'Tonga', value: 0, cell: [6, 6], beaches: { N: ['red', 'red', 'blue'] } },
  { tile: 'S05', kind: 'sea', cell: [6, 5], routes: [['N', 'S', 2, 2], ['E', 'W', 1, 3]] },
  { tile: 'OAHU', kind: 'island', name: 'Oahu', value: 4, cell: [6, 4], beaches: {} },
] };
const names = { red: 'Red', blue: 'Blue' };
const who = (c) => names[c] || c;

test('E13: the report in sentences: islands by name, beaches by side, places by the island beside them, never a code', () => {
  assert.equal(orderWords({ type: 'expand', island: 'TONG', moves: { N: 2, E: -1 } }, t, VIEW),
    'expand on Tonga (2 boats onto the north beach, 1 boat back from the east beach)');
  assert.equal(orderWords({ type: 'place', island: 'OAHU', beach: 'W' }, t, VIEW), "a boat on Oahu's west beach");
  const voyage = [
    { type: 'fleet_departed', island: 'TONG', cell: [6, 6], beach: 'N', boats: ['red', 'red', 'blue'], mv: 2, tied: 0 },
    { type: 'tile_placed', tile: 'S05', cell: [6, 5], left: {} },
    { type: 'route_sailed', tile: 'S05', cell: [6, 5], entry: 'S', exit: 'N', factor: 2, mv: 2, survived: true },
    { type: 'tile_placed', tile: 'OAHU', cell: [6, 4], left: {} },
    { type: 'landfall', island: 'OAHU', cell: [6, 4], placements: [['red', 'N'], ['red', 'E'], ['blue', 'N']] },
  ];
  assert.deepEqual(voyage.map((e) => eventWords(e, t, who, VIEW)), [
    "The fleet of Red and Blue (3 boats, 2 colours) sails north from Tonga's north beach.",
    'Unknown water: a new sea tile is laid north of Tonga.',
    'It crosses the sea tile with weather 2 at that end: 2 colours are enough, and it sails on north.',
    'It discovers Oahu, worth 4, north of Tonga.',
    'It lands on Oahu: Red on the north beach, Red on the east beach, Blue on the north beach.',
  ]);
  for (const line of voyage.map((e) => eventWords(e, t, who, VIEW))) assert.doesNotMatch(line, /\bS\d\d\b|TONG|OAHU|\d,\d/);
  // one boat, one colour: the singular
  assert.equal(eventWords({ type: 'fleet_departed', island: 'TONG', beach: 'E', boats: ['red'], mv: 1, tied: 0 }, t, who, VIEW),
    "The fleet of Red (1 boat, 1 colour) sails east from Tonga's east beach.");
  assert.equal(eventWords({ type: 'route_sailed', cell: [6, 5], entry: 'S', exit: 'N', factor: 3, mv: 1, survived: false }, t, who, VIEW),
    'It enters the sea tile with weather 3 at that end: more than its 1 colour.');
  assert.equal(eventWords({ type: 'migration_phase', overflowing: [[1], [2]] }, t, who, VIEW), 'Migrations: 2 beaches hold more than 3 boats.');
  assert.equal(eventWords({ type: 'boat_moved', colour: 'red', island: 'TONG', cell: [6, 6], beach: 'N', to: 'supply' }, t, who, VIEW),
    "Red takes a boat back from Tonga's north beach.");
  assert.equal(eventWords({ type: 'typhoon', cell: [6, 5], struck: 'S05', tile: 'S09' }, t, who, VIEW),
    'The typhoon sweeps away the sea tile north of Tonga: a new one from the deck takes its place, its weather 1 higher.');
  const events = [{ type: 'submitted', colour: 'red', turn: 1 }, { type: 'orders', turn: 1, orders: {} }];
  assert.deepEqual(reportOf(events), [events[1]]);
});

test('the same sentences in every language, with their plurals (a placeholder inside a plural too)', async () => {
  await Promise.all(['fr', 'de', 'nl', 'he'].map(loadLanguage));
  const e = { type: 'fleet_departed', island: 'TONG', beach: 'N', boats: ['red', 'red', 'blue'], mv: 2, tied: 0 };
  assert.equal(eventWords(e, translator('fr'), who, VIEW), 'La flotte de Red et Blue (3 bateaux, 2 couleurs) part vers le nord depuis la plage nord de Tonga.');
  assert.equal(eventWords(e, translator('de'), who, VIEW), 'Die Flotte von Red und Blue (3 Boote, 2 Farben) segelt vom Nordstrand von Tonga nach Norden.');
  assert.equal(eventWords(e, translator('nl'), who, VIEW), 'De vloot van Red en Blue (3 boten, 2 kleuren) vaart van het noordstrand van Tonga naar het noorden.');
  const he = translator('he');
  assert.match(eventWords(e, he, who, VIEW), /3 סירות, 2 צבעים/);
  assert.match(eventWords({ ...e, boats: ['red'], mv: 1 }, he, who, VIEW), /סירה אחת, צבע אחד/);
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

// The decision input's handlers, one per decision kind (src/input.js HANDLERS), each tested on its own:
// plain data in, a selection and a result out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecisionInput, HANDLERS } from '../src/input.js';

const input = (kind, legal, extra = {}, view = {}) =>
  new DecisionInput().reset({ tiles: [], ...view, pending: { colour: 'red', kind, ...extra } }, ['red'], legal);
const at = (hit, island, beach, more = {}) => ({ hit: { hit, island, beach: String(beach), ...more }, isl: island,
  b: beach, beachHit: hit === 'beach' || hit === 'pier', pending: undefined });

test('every decision kind of the engine has a handler; an unknown kind has none and means nothing', () => {
  assert.deepEqual(Object.keys(HANDLERS).sort(),
    ['land', 'migrate', 'place_tile', 'restart', 'settle', 'setup', 'turn', 'turn_tile'].sort());
  const d = input('dance', [{ type: 'dance' }]);
  assert.equal(d.handler, null);
  assert.deepEqual(d.buttons(), []);
  assert.deepEqual(d.click({ hit: 'beach', island: 'Tonga', beach: '0' }), { error: 'err.not_here' });
  assert.equal(input('setup', [], {}, {}).handler, HANDLERS.setup);
  assert.equal(new DecisionInput().reset({ pending: { colour: 'blue', kind: 'setup' } }, ['red'], []).handler, null,
    'another colour\'s decision has no handler here');
});

test('a handler that does not know a click leaves it to the input (undefined: not here)', () => {
  const d = input('setup', [{ type: 'setup', beach: 2 }]);
  assert.equal(HANDLERS.setup.click(d, at('island', 'Tonga', undefined)), undefined);
  assert.deepEqual(HANDLERS.setup.click(d, at('beach', 'Tonga', 2)), { send: { type: 'setup', beach: 2 } });
  assert.deepEqual(HANDLERS.setup.click(d, at('beach', 'Samoa', 2)), { error: 'err.not_here' });
  const s = input('settle', [{ type: 'settle', beach: 1 }], { island: 'Fiji' });
  assert.equal(HANDLERS.settle.click(s, at('cell', undefined, undefined)), undefined);
  assert.deepEqual(HANDLERS.settle.click(s, at('beach', 'Fiji', 1)), { send: { type: 'settle', beach: 1 } });
  assert.equal(HANDLERS.turn_tile.click(input('turn_tile', []), at('beach', 'Fiji', 1)), undefined);
});

test('turn: the reset picks the mode from the legal actions; a click without a mode asks for one', () => {
  assert.equal(input('turn', [{ type: 'expand', island: 'Tonga', beaches: [0] }]).sel.mode, 'expand');
  assert.equal(input('turn', [{ type: 'royal', island: 'Tonga' }]).sel.mode, 'royal');
  const none = input('turn', [{ type: 'colonise' }]);
  assert.equal(none.sel.mode, 'none');
  assert.deepEqual(HANDLERS.turn.click(none, at('island', 'Tonga', undefined)), { error: 'err.choose_mode' });
  const royal = input('turn', [{ type: 'royal', island: 'Tonga' }]);
  assert.deepEqual(HANDLERS.turn.click(royal, at('island', 'Tonga', undefined)), {});
  assert.deepEqual(royal.sel.confirm, { type: 'royal', island: 'Tonga' });
  assert.deepEqual(HANDLERS.turn.prompt(royal), { key: 'prompt.royal' });
});

test('restart: its reset starts an empty Tonga choice; two Tonga beaches send; its buttons offer colonise', () => {
  const legal = [{ type: 'restart', tonga: [1, 1] }, { type: 'restart', island: 'Fiji', beach: 0 }, { type: 'colonise' }];
  const d = input('restart', legal);
  assert.deepEqual(d.sel.tonga, []);
  const out = [];
  HANDLERS.restart.buttons(d, out);
  assert.deepEqual(out.map((b) => b.id), ['colonise']);
  assert.deepEqual(HANDLERS.restart.click(d, at('beach', 'Tonga', 1)), {});
  assert.deepEqual(HANDLERS.restart.click(d, at('beach', 'Tonga', 1)), { send: { type: 'restart', tonga: [1, 1] } });
  assert.deepEqual(HANDLERS.restart.click(input('restart', legal), at('beach', 'Fiji', 0)),
    { send: { type: 'restart', island: 'Fiji', beach: 0 } });
});

test('migrate: a beach with two piers narrows, its highlights then show only that beach\'s piers', () => {
  const legal = [{ type: 'migrate', island: 'Fiji', beach: 0, pier: 2 }, { type: 'migrate', island: 'Fiji', beach: 0, pier: 3 },
    { type: 'migrate', island: 'Fiji', beach: 4, pier: 5 }];
  const d = input('migrate', legal);
  assert.deepEqual(HANDLERS.migrate.click(d, at('beach', 'Fiji', 0)), {});
  assert.equal(d.sel.beach, 'Fiji|0');
  const ui = d.highlights();
  assert.deepEqual([...ui.piers].sort(), ['Fiji|0|2', 'Fiji|0|3']);
  assert.deepEqual(HANDLERS.migrate.prompt(d), { key: 'prompt.migrate_pier' });
  assert.deepEqual(HANDLERS.migrate.click(d, at('pier', 'Fiji', 0, { dir: '3' })),
    { send: { type: 'migrate', island: 'Fiji', beach: 0, pier: 3 } });
});

test('land: its reset starts an empty assignment with the only colour picked; a boat per click', () => {
  const legal = [{ type: 'land', island: 'Fiji', boats: [['red', 0], ['red', 1]] }];
  const d = input('land', legal, { island: 'Fiji', fleet: ['red', 'red'], free: [0, 1] });
  assert.deepEqual(d.sel.assign, []);
  assert.equal(d.sel.colour, 'red');
  assert.deepEqual(HANDLERS.land.click(d, at('beach', 'Samoa', 0)), { error: 'err.not_here' });
  assert.deepEqual(HANDLERS.land.click(d, at('beach', 'Fiji', 0)), {});
  assert.deepEqual(HANDLERS.land.click(d, at('beach', 'Fiji', 1)), {});
  assert.deepEqual(d.sel.confirm, legal[0], 'the complete landing waits for Confirm');
});

test('place_tile: a legal cell is chosen at its first rotation and previewed; another cell is not here', () => {
  const legal = [{ type: 'place_tile', cell: [1, 0], rotation: 2 }, { type: 'place_tile', cell: [1, 0], rotation: 4 }];
  const d = input('place_tile', legal, { tile: 'o1' }, { hand: { tile: 'o1', kind: 'ocean', sides: [] } });
  assert.deepEqual(HANDLERS.place_tile.click(d, { hit: { hit: 'cell', cell: '0,1' } }), { error: 'err.not_here' });
  assert.deepEqual(HANDLERS.place_tile.click(d, { hit: { hit: 'cell', cell: '1,0' } }), {});
  assert.deepEqual([d.sel.cell, d.sel.rotation], [[1, 0], 2]);
  assert.deepEqual(HANDLERS.place_tile.prompt(d).key, 'prompt.place_tile_turn');
  const out = [];
  HANDLERS.place_tile.buttons(d, out);
  assert.deepEqual(out.map((b) => [b.id, b.enabled]), [['rotate:-1', true], ['rotate:1', true], ['place', true]]);
});

test('each handler presses only its own buttons; the rest are not here', () => {
  const pressable = {
    setup: [], settle: [], migrate: [],
    turn: ['mode:royal', 'colonise'], restart: ['colonise'], land: ['colour:red', 'confirm'],
    place_tile: ['rotate:1', 'place'], turn_tile: ['rotate:1', 'place'] };
  for (const [kind, ids] of Object.entries(pressable)) {
    const d = input(kind, [{ type: 'colonise' }]);
    for (const id of ['mode:royal', 'colonise', 'colour:red', 'confirm', 'rotate:1', 'place']) {
      const known = HANDLERS[kind].press?.(d, id) !== undefined;
      assert.equal(known, ids.includes(id), `${kind} ${id}`);
    }
  }
});

test('turn: a mode button starts that mode afresh; colonise waits for its confirmation, then the input sends it', () => {
  const legal = [{ type: 'expand', island: 'Tonga', beaches: [0] }, { type: 'royal', island: 'Samoa' }, { type: 'colonise' }];
  const d = input('turn', legal);
  assert.deepEqual(HANDLERS.turn.press(d, 'mode:royal'), {});
  assert.deepEqual(d.sel, { mode: 'royal' });
  assert.deepEqual(HANDLERS.turn.press(d, 'mode:expand'), {});
  assert.deepEqual(d.sel, { mode: 'expand', island: 'Tonga', beaches: [] }, 'the only island is chosen by itself');
  assert.deepEqual(HANDLERS.turn.press(d, 'colonise'), {});
  assert.deepEqual(d.sel.confirm, { type: 'colonise' });
  assert.deepEqual(d.press('confirm'), { send: { type: 'colonise' } });
  assert.deepEqual(HANDLERS.turn.press(input('turn', legal.slice(0, 2)), 'colonise'), { error: 'err.not_here' });
});

test('land: a colour button picks the boats placed next; Confirm sends the exact landing, else asks for the rest', () => {
  const legal = [{ type: 'land', island: 'Fiji', boats: [['red', 0], ['blue', 1]] }];
  const d = input('land', legal, { island: 'Fiji', fleet: ['red', 'blue'], free: [0, 1] });
  assert.equal(d.sel.colour, null);
  assert.deepEqual(HANDLERS.land.press(d, 'colour:blue'), {});
  assert.equal(d.sel.colour, 'blue');
  assert.deepEqual(HANDLERS.land.press(d, 'confirm'), { error: 'err.incomplete' });
  d.sel.assign = [['red', 0], ['blue', 1]];
  assert.deepEqual(HANDLERS.land.press(d, 'confirm'), { send: legal[0] });
});

test('place_tile and turn_tile: rotate steps through the legal rotations both ways; place sends the one shown', () => {
  const legal = [{ type: 'place_tile', cell: [1, 0], rotation: 2 }, { type: 'place_tile', cell: [1, 0], rotation: 4 }];
  const d = input('place_tile', legal, { tile: 'o1' }, { hand: { tile: 'o1', kind: 'ocean', sides: [] } });
  assert.deepEqual(HANDLERS.place_tile.press(d, 'rotate:1'), { error: 'err.choose_cell' });
  assert.deepEqual(HANDLERS.place_tile.press(d, 'place'), { error: 'err.choose_cell' });
  HANDLERS.place_tile.click(d, { hit: { hit: 'cell', cell: '1,0' } });
  assert.deepEqual(HANDLERS.place_tile.press(d, 'rotate:1'), {});
  assert.equal(d.sel.rotation, 4);
  assert.deepEqual(HANDLERS.place_tile.press(d, 'rotate:1'), {});
  assert.equal(d.sel.rotation, 2, 'round again');
  assert.deepEqual(HANDLERS.place_tile.press(d, 'rotate:-1'), {});
  assert.deepEqual(HANDLERS.place_tile.press(d, 'place'), { send: legal[1] });
  const turn = [{ type: 'turn_tile', rotation: 0 }, { type: 'turn_tile', rotation: 3 }];
  const t = input('turn_tile', turn, { tile: 'o1', cell: [2, 2] }, { hand: { tile: 'o1', kind: 'ocean', sides: [] } });
  assert.deepEqual(HANDLERS.turn_tile.press(t, 'rotate:-1'), {});
  assert.deepEqual(HANDLERS.turn_tile.press(t, 'place'), { send: turn[1] });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecisionInput } from '../src/input.js';
import { applyEventToDisplay } from '../src/display.js';
import { describeEvent, describeAction } from '../src/describe.js';
import { translator, pickLanguage, loadLanguage } from '../src/i18n.js';

await loadLanguage('en');

// test views carry their legal actions along (the server sends them apart: the `legal` event)
const V = (kind, legal, extra = {}) => ({ tiles: [], pending: { colour: 'red', kind, ...extra }, legal });
const input = (view, mine) => new DecisionInput().reset(view, mine, view.legal);

test('nothing is clickable before the legal actions arrive', () => {
  const inp = new DecisionInput().reset(V('setup', [{ type: 'setup', beach: 0 }]), ['red']);
  assert.equal(inp.canAct, false);
  assert.equal(inp.awaitingLegal, true);
  assert.equal(inp.highlights().beaches.size, 0);
  inp.reset(inp.view, ['red'], [{ type: 'setup', beach: 0 }]);
  assert.equal(inp.canAct, true);
  assert.deepEqual([...inp.highlights().beaches], ['Tonga|0']);
});

test('nothing is clickable for a spectator or another colour', () => {
  const inp = input(V('setup', [{ type: 'setup', beach: 0 }]), []);
  assert.equal(inp.canAct, false);
  assert.equal(inp.highlights().beaches.size, 0);
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Tonga', beach: '0' }), { error: 'err.not_your_turn' });
});

test('setup: the legal Tonga beaches light up; a click sends that action', () => {
  const inp = input(V('setup', [{ type: 'setup', beach: 0 }, { type: 'setup', beach: 3 }]), ['red']);
  assert.deepEqual([...inp.highlights().beaches], ['Tonga|0', 'Tonga|3']);
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Tonga', beach: '3' }), { send: { type: 'setup', beach: 3 } });
  assert.equal(inp.click({ hit: 'beach', island: 'Tonga', beach: '1' }).error, 'err.not_here');
});

test('expand: island, then the n beaches; the last click sends the legal action', () => {
  const legal = [
    { type: 'expand', island: 'Tonga', beaches: [0, 1] }, { type: 'expand', island: 'Tonga', beaches: [0, 2] },
    { type: 'expand', island: 'Tonga', beaches: [1, 2] }, { type: 'expand', island: 'Samoa', beaches: [2] },
    { type: 'royal', island: 'Samoa' }, { type: 'colonise' },
  ];
  const inp = input(V('turn', legal), ['red']);
  assert.deepEqual([...inp.highlights().islands].sort(), ['Samoa', 'Tonga']);
  assert.deepEqual(inp.buttons().map((b) => b.id), ['mode:expand', 'mode:royal', 'colonise']);
  assert.deepEqual(inp.click({ hit: 'island', island: 'Tonga' }), {});
  assert.equal(inp.prompt().args.n, 2);
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Tonga', beach: '2' }), {});
  assert.deepEqual([...inp.highlights().beaches].sort(), ['Tonga|0', 'Tonga|1', 'Tonga|2']);
  // every beach chosen: the bar asks to confirm (Enter or the button); Undo takes the last beach back
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Tonga', beach: '0' }), {});
  assert.equal(inp.prompt().key, 'prompt.confirm_expand');
  assert.equal(inp.prompt().args.beaches, '1, 3');
  assert.deepEqual(inp.buttons().map((b) => b.id), ['confirm', 'undo']);
  // the action that completes the decision is the primary one
  assert.deepEqual(inp.buttons().map((b) => !!b.primary), [true, false]);
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Tonga', beach: '1' }), {}, 'a stray click keeps the choice');
  assert.deepEqual(inp.press('undo'), {});
  assert.deepEqual(inp.sel.beaches, [2]);
  assert.equal(inp.prompt().key, 'prompt.expand_beaches');
  inp.click({ hit: 'beach', island: 'Tonga', beach: '0' });
  assert.deepEqual(inp.press('confirm'), { send: { type: 'expand', island: 'Tonga', beaches: [0, 2] } });
  // a click on a beach directly selects its island
  inp.reset(inp.view, ['red'], inp.legal);
  inp.click({ hit: 'beach', island: 'Samoa', beach: '2' });
  assert.deepEqual(inp.press('confirm'), { send: { type: 'expand', island: 'Samoa', beaches: [2] } });
  // royal mode: the island, then a confirmation
  inp.reset(inp.view, ['red'], inp.legal);
  inp.press('mode:royal');
  assert.deepEqual([...inp.highlights().islands], ['Samoa']);
  assert.deepEqual(inp.click({ hit: 'island', island: 'Samoa' }), {});
  assert.deepEqual(inp.prompt(), { key: 'prompt.confirm_royal', args: { island: 'Samoa' } });
  assert.deepEqual(inp.press('confirm'), { send: { type: 'royal', island: 'Samoa' } });
  // new colonisation says how many boats leave the board, and can be called off
  inp.reset({ ...inp.view, players: [{ colour: 'red', on_board: 11 }] }, ['red'], inp.legal);
  assert.deepEqual(inp.press('colonise'), {});
  assert.deepEqual(inp.prompt(), { key: 'prompt.confirm_colonise', args: { n: 11 } });
  assert.deepEqual(inp.click({ hit: 'island', island: 'Tonga' }), {}, 'a board click does not confirm');
  inp.press('undo');
  assert.equal(inp.prompt().key, 'prompt.expand_island');
  inp.press('colonise');
  assert.deepEqual(inp.press('confirm'), { send: { type: 'colonise' } });
});

test('expand with an empty supply: take a boat back first', () => {
  const legal = [
    { type: 'expand', island: 'Tonga', beaches: [1], take_back: { island: 'Samoa', beach: 0 } },
    { type: 'expand', island: 'Tonga', beaches: [2], take_back: { island: 'Samoa', beach: 0 } },
    { type: 'expand', island: 'Samoa', beaches: [1], take_back: { island: 'Tonga', beach: 4 } },
  ];
  const inp = input(V('turn', legal), ['red']);
  assert.equal(inp.prompt().key, 'prompt.take_back');
  assert.deepEqual([...inp.highlights().beaches].sort(), ['Samoa|0', 'Tonga|4']);
  inp.click({ hit: 'beach', island: 'Samoa', beach: '0' });
  assert.equal(inp.sel.island, 'Tonga', 'the only island left is chosen by itself');
  inp.click({ hit: 'beach', island: 'Tonga', beach: '2' });
  assert.deepEqual(inp.press('confirm').send, legal[1]);
});

test('restart: two boats on Tonga (same beach twice allowed) or one elsewhere', () => {
  const legal = [
    { type: 'restart', tonga: [0, 0] }, { type: 'restart', tonga: [0, 1] }, { type: 'restart', tonga: [1, 1] },
    { type: 'restart', island: 'Samoa', beach: 1 }, { type: 'colonise' },
  ];
  const inp = input(V('restart', legal), ['red']);
  assert.ok(inp.highlights().beaches.has('Samoa|1'));
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Tonga', beach: '0' }), {});
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Tonga', beach: '0' }), { send: { type: 'restart', tonga: [0, 0] } });
  inp.reset(inp.view, ['red'], inp.legal);
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Samoa', beach: '1' }), { send: legal[3] });
});

test('migrate: a pier click sends; a beach click with one pier sends; otherwise it narrows', () => {
  const legal = [
    { type: 'migrate', island: 'Tonga', beach: 2, pier: 2 },
    { type: 'migrate', island: 'Samoa', beach: 1, pier: 3 }, { type: 'migrate', island: 'Samoa', beach: 1, pier: 4 },
  ];
  const inp = input(V('migrate', legal), ['red']);
  const hl = inp.highlights();
  assert.deepEqual([...hl.piers].sort(), ['Samoa|1|3', 'Samoa|1|4', 'Tonga|2|2']);
  assert.deepEqual(inp.click({ hit: 'pier', island: 'Samoa', beach: '1', dir: '4' }), { send: legal[2] });
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Tonga', beach: '2' }), { send: legal[0] });
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Samoa', beach: '1' }), {});
  assert.deepEqual([...inp.highlights().piers].sort(), ['Samoa|1|3', 'Samoa|1|4']);
});

test('land: assign boats to beaches by colour; the complete landing asks, Undo takes the last boat back, Confirm sends', () => {
  const legal = [
    { type: 'land', boats: [['blue', 0], ['red', 1]] }, { type: 'land', boats: [['blue', 1], ['red', 0]] },
  ];
  const inp = input(V('land', legal, { island: 'Samoa', fleet: ['red', 'blue'], free: [1, 1, 0] }), ['red']);
  assert.equal(inp.sel.colour, null);
  assert.deepEqual([...inp.highlights().beaches].sort(), ['Samoa|0', 'Samoa|1']);
  assert.equal(inp.click({ hit: 'beach', island: 'Samoa', beach: '0' }).error, 'err.choose_colour');
  assert.equal(inp.started, false);
  inp.press('colour:red');
  assert.equal(inp.started, true, 'a colour picked among several is a choice begun (kept across a reload)');
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Samoa', beach: '0' }), {});
  assert.equal(inp.sel.colour, 'blue', 'the last colour is picked by itself');
  assert.deepEqual([...inp.highlights().beaches], ['Samoa|1']);
  const order = () => inp.buttons().filter((b) => b.id.startsWith('colour:')).map((b) => `${b.id}:${b.args.n}`);
  assert.deepEqual(order(), ['colour:red:0', 'colour:blue:1'], 'the colours keep their places, a spent one stays');
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Samoa', beach: '1' }), {}, 'the last boat does not send at once');
  assert.deepEqual(inp.sel.confirm, legal[1]);
  assert.equal(inp.prompt().key, 'prompt.confirm_land');
  assert.deepEqual(inp.highlights().beaches.size, 0);
  assert.deepEqual([...inp.highlights().planned], [['Samoa|0', ['red']], ['Samoa|1', ['blue']]]);
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Samoa', beach: '0' }), {}, 'a click while asked changes nothing');
  assert.deepEqual(inp.press('undo'), {});
  assert.deepEqual(inp.sel.assign, [['red', 0]]);
  assert.equal(inp.sel.colour, 'blue');
  inp.click({ hit: 'beach', island: 'Samoa', beach: '1' });
  assert.deepEqual(inp.press('confirm'), { send: legal[1] });
  // one colour in the fleet: picked by itself, nothing begun yet
  const one = input(V('land', [{ type: 'land', boats: [['red', 0]] }], { island: 'Samoa', fleet: ['red'], free: [1, 0, 0] }), ['red']);
  assert.equal(one.sel.colour, 'red');
  assert.equal(one.started, false);
});

test('place_tile: choose a cell, turn through the legal rotations, place', () => {
  const legal = [
    { type: 'place_tile', cell: [1, 0], rotation: 0 }, { type: 'place_tile', cell: [1, 0], rotation: 3 },
    { type: 'place_tile', cell: [0, -1], rotation: 5 },
  ];
  const hand = { tile: 'a', kind: 'ocean', rotation: 0, paths: [[0, 3, 4], [1, 5, 4], [2, 4, 4]] };
  const inp = input({ ...V('place_tile', legal, { tile: 'a', reason: 'colonise' }), hand }, ['red']);
  assert.deepEqual([...inp.highlights().cells].sort(), ['0,-1', '1,0']);
  assert.deepEqual(inp.click({ hit: 'cell', cell: '1,0' }), {});
  assert.equal(inp.highlights().preview.rotation, 0);
  inp.click({ hit: 'preview', cell: '1,0' });
  assert.equal(inp.highlights().preview.rotation, 3);
  assert.deepEqual(inp.highlights().preview.paths, [[3, 0, 4], [4, 2, 4], [5, 1, 4]]);
  assert.deepEqual(inp.press('place'), { send: legal[1] });
});

test('turn_tile and settle', () => {
  const legal = [{ type: 'turn_tile', rotation: 1 }, { type: 'turn_tile', rotation: 4 }];
  const hand = { tile: 'b', kind: 'ocean', rotation: 0, paths: [[0, 4, 4], [1, 3, 4], [2, 5, 3]] };
  const inp = input({ ...V('turn_tile', legal, { tile: 'b', cell: [2, 0] }), hand }, ['red']);
  assert.equal(inp.highlights().preview.rotation, 1);
  inp.press('rotate:1');
  assert.deepEqual(inp.press('place'), { send: legal[1] });
  const view = { tiles: [{ tile: 'Tonga', kind: 'island' }, { tile: 'Samoa', kind: 'island' }],
    pending: { colour: 'red', kind: 'settle' }, legal: [{ type: 'settle', beach: 2 }] };
  inp.reset(view, ['red'], view.legal);
  assert.deepEqual([...inp.highlights().beaches], ['Samoa|2']);
  assert.deepEqual(inp.click({ hit: 'beach', island: 'Samoa', beach: '2' }), { send: { type: 'settle', beach: 2 } });
});

test('the display view follows events: tile placed, fleet departs, boats land', () => {
  let v = { tiles: [{ tile: 'Tonga', kind: 'island', cell: [0, 0], beaches: [{ moorings: 3, piers: [0], boats: ['red', 'red', 'blue'] }] }] };
  v = applyEventToDisplay(v, { type: 'fleet_departed', island: 'Tonga', cell: [0, 0], beach: 0, pier: 0, boats: ['red', 'red', 'blue'] });
  assert.deepEqual(v.tiles[0].beaches[0].boats, []);
  const samoa = { tile: 'Samoa', kind: 'island', cell: [0, 1], rotation: 3, value: 5, royal: null,
    beaches: [{ moorings: 3, piers: [4, 5], boats: [] }, { moorings: 4, piers: [0, 1], boats: [] }, { moorings: 5, piers: [2], boats: [] }] };
  v = applyEventToDisplay(v, { type: 'tile_placed', tile: 'Samoa', kind: 'island', cell: [0, 1], rotation: 3, view: samoa });
  assert.equal(v.tiles.length, 2);
  v = applyEventToDisplay(v, { type: 'landed', island: 'Samoa', cell: [0, 1], placements: [['red', 0], ['blue', 2]] });
  assert.deepEqual(v.tiles[1].beaches.map((b) => b.boats), [['red'], [], ['blue']]);
});

test('log lines and moves read well; the language of the browser is picked', () => {
  const t = translator('en');
  assert.equal(describeEvent({ type: 'crossing', danger: 3, colours: 2, passed: false }, t), 'Danger 3 against 2 colours: too dangerous!');
  assert.equal(describeAction({ type: 'migrate', island: 'Tonga', beach: 0, pier: 4 }, t), 'Sail from Tonga beach 1, pier NE');
  assert.equal(pickLanguage(['he-IL', 'en']), 'he');
  assert.equal(pickLanguage(['pt-BR', 'nl-BE']), 'nl');
  assert.equal(pickLanguage([]), 'en');
});

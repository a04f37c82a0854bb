import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLeft, timeLeft, turnTimeLeft } from '../src/ui/clock.js';
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

test('an Expeditions turn clock counts while a game not over is on screen, whatever the version', () => {
  const view = { turn: 2, phase: 'orders' };
  const s = new TableState({ v: 4, shown: view, target: view, deadline: { v: 3, turn: 2, end: 10000 } });
  assert.equal(turnTimeLeft(s, 4000), 6000);
  assert.equal(turnTimeLeft(s, 12000), 0);
  assert.equal(timeLeft(s, 4000), null, "a decision's clock would not count it");
  s.set({ shown: { ...view, phase: 'over' } });
  assert.equal(turnTimeLeft(s, 4000), null);
  s.set({ shown: view, deadline: null });
  assert.equal(turnTimeLeft(s, 4000), null);
});

test('plurals follow Intl.PluralRules of each language', async () => {
  const { translator, loadLanguage, LANGS } = await import('../src/i18n.js');
  await Promise.all(LANGS.map(loadLanguage));
  const en = translator('en'), fr = translator('fr'), de = translator('de');
  assert.equal(en('ev.landed', { n: 1, island: 'Samoa' }), '1 boat lands on Samoa.');
  assert.equal(en('ev.landed', { n: 3, island: 'Samoa' }), '3 boats land on Samoa.');
  assert.equal(fr('ev.boats_placed', { n: 0, colour: 'Rouge', island: 'Tonga' }), 'Rouge pose 0 bateau sur Tonga.');
  assert.equal(de('ev.sunk', { n: 2 }), 'Die Flotte sinkt: 2 Boote gehen zurück.');
  for (const lang of ['en', 'fr', 'nl', 'de', 'he']) assert.doesNotMatch(translator(lang)('ev.fleet_departed', { n: 2, colours: 1, island: 'X', dir: 'N' }), /\(s\)|\(e\)|\|/);
});

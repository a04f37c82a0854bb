// A page that joins a game late fills its empty log from the server's action log (the live replay).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GameLog, backfillLog, eventEntry, logLine } from '../src/ui/gamelog.js';
import { translator, loadLanguage } from '../src/i18n.js';

await loadLanguage('en');

const t = translator('en');

test('the frames up to the joined version go ahead of what the page logged since', async () => {
  const log = new GameLog('r_test');
  log.add({ msg: ['phase.play', { turn: 3 }] });
  const frames = [
    { v: 0, events: [] },
    { v: 1, events: [{ type: 'boats_placed', colour: 'red', island: 'Tonga', beaches: [0] }] },
    { v: 2, events: [{ type: 'turn_passed', from: 'red', to: 'blue' }] },
    { v: 9, events: [{ type: 'boats_placed', colour: 'blue', island: 'Tonga', beaches: [1] }] },
  ];
  let asked = null;
  const added = await backfillLog(log, 'r_test', 2, t, async (url) => { asked = url; return { frames, live: true }; });
  assert.equal(asked, '/api/games/r_test/replay');
  assert.equal(added, 2);
  assert.equal(log.items.length, added + 1);
  assert.deepEqual(log.items.at(-1).msg, ['phase.play', { turn: 3 }], 'what the page logged stays last');
  assert.ok(log.items.every((it) => logLine(it, t)));
  assert.ok(!log.items.some((it) => it.ev?.colour === 'blue' && it.ev?.type === 'boats_placed'), 'nothing after the joined version');
});

test('no record (a finished or unknown game): the log stays as it is', async () => {
  const log = new GameLog('r_none');
  assert.equal(await backfillLog(log, 'r_none', 5, t, async () => null), 0);
  assert.equal(log.items.length, 0);
});

test('a page that comes back fills in the versions it never logged, in their place', async () => {
  const store = new Map();
  globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) };
  try {
    const before = new GameLog('r_back');
    before.add({ ...eventEntry({ type: 'boats_placed', colour: 'red', island: 'Tonga', beaches: [0] }, t), v: 1 });
    before.logged(1);
    // version 2's first event was logged, its second not yet (its animation still queued) when the page went
    before.add({ ...eventEntry({ type: 'boats_placed', colour: 'blue', island: 'Tonga', beaches: [1] }, t), v: 2 });
    before._saveNow();

    const log = new GameLog('r_back').restore();
    assert.equal(log.v, 1);
    assert.equal(log.items.length, 2);
    // the page shows a snapshot of version 3; meanwhile version 4's event is logged live
    log.add({ ...eventEntry({ type: 'boats_placed', colour: 'red', island: 'Tonga', beaches: [2] }, t), v: 4 });
    const frames = [
      { v: 1, events: [{ type: 'boats_placed', colour: 'red', island: 'Tonga', beaches: [0] }] },
      { v: 2, events: [{ type: 'boats_placed', colour: 'blue', island: 'Tonga', beaches: [1] },
        { type: 'boats_placed', colour: 'blue', island: 'Tonga', beaches: [3] }] },
      { v: 3, events: [{ type: 'boats_placed', colour: 'green', island: 'Tonga', beaches: [4] }] },
      { v: 4, events: [{ type: 'boats_placed', colour: 'red', island: 'Tonga', beaches: [2] }] },
    ];
    const added = await backfillLog(log, 'r_back', 3, t, async () => ({ frames, live: true }), log.v);
    assert.equal(added, 3, 'versions 2 and 3, not 1 (logged) nor 4 (after the snapshot)');
    assert.deepEqual(log.items.map((it) => [it.v, it.ev.colour, it.ev.beaches[0]]),
      [[1, 'red', 0], [2, 'blue', 1], [2, 'blue', 3], [3, 'green', 4], [4, 'red', 2]], 'each event once, in order');
    assert.equal(log.v, 3);
  } finally {
    delete globalThis.localStorage;
  }
});

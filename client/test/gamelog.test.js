// A page that joins a game late fills its empty log from the server's action log (the live replay).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GameLog, backfillLog, logLine } from '../src/ui/gamelog.js';
import { translator } from '../src/i18n.js';

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

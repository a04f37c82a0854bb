// One room as a page knows it (src/roomsession.js), over a scripted connection (each request recorded and
// answered as docs/protocol.md says) with a table that records what it is asked to show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RoomSession } from '../src/roomsession.js';

function scripted(answers = {}) {
  const net = { sent: [] };
  net.request = async (event, data) => {
    net.sent.push([event, data]);
    const a = answers[event];
    return typeof a === 'function' ? a(data) : (a ?? { ok: true });
  };
  return net;
}

const whole = (v, view) => ({ v, events: [], patch: { '=': view } });
const seats = [{ seat: 0, colours: ['red'], kind: 'human', person: 'p1' }, { seat: 1, colours: ['blue'], kind: 'bot' }];
const state = (rev, status = 'playing', more = {}) => ({ id: 'r_1', rev, status, seats, settings: { clock: 60 }, ...more });

/** A session of room r_1 for person p1, its screen recorded: renders, and the messages its table shows. */
function session(net, first = state(1)) {
  const seen = { renders: 0, shown: [], refused: [], rejoins: 0 };
  const s = new RoomSession(net, 'r_1', first, 'p1', {
    render: () => { seen.renders += 1; s.table ??= { show: (x) => seen.shown.push(x.status === 'snapshot' ? `snap ${x.v}` : `v${x.v}`), destroy() {} }; },
    rejoin: async () => { seen.rejoins += 1; },
    refused: (e) => seen.refused.push(e.code) });
  return [s, seen];
}

test('game messages in order are shown; a gap asks for what was missed since the version held', async () => {
  const net = scripted({ since: ({ v }) => ({ ok: true, messages: [whole(v + 1, { turn: 2 }), whole(v + 2, { turn: 2 })] }) });
  const [s, seen] = session(net);
  await s.onGame(whole(0, { turn: 1 }));
  await s.onGame(whole(1, { turn: 1 }));
  await s.onGame(whole(1, { turn: 1 }));   // again: ignored
  await s.onGame(whole(4, { turn: 3 }));   // 2 and 3 missed
  assert.deepEqual(net.sent, [['since', { room: 'r_1', v: 1 }]]);
  assert.deepEqual(seen.shown, ['v0', 'v1', 'v2', 'v3']);
  assert.equal(s.stream.v, 3);
  assert.equal(s.tableState.v, 3, 'the table state knows the version');
});

test('a message before any version held: the room is joined again', async () => {
  const net = scripted();
  const [s, seen] = session(net);
  await s.onGame({ v: 5, events: [], patch: [] });
  assert.equal(seen.rejoins, 1);
  assert.deepEqual(net.sent, []);
  assert.equal(s.joinPayload(true).since, undefined, 'nothing held: no `since`');
  await s.onGame(whole(0, {}));
  assert.deepEqual(s.joinPayload(true), { room: 'r_1', since: 0 });
  assert.deepEqual(s.joinPayload(false), { room: 'r_1' });
});

test('room states: an older revision is ignored; a change of status draws the screen again', () => {
  const [s, seen] = session(scripted(), state(3, 'waiting'));
  s.onRoom(state(2, 'finished'));
  assert.equal(s.state.status, 'waiting');
  const before = seen.renders;
  s.onRoom(state(4, 'playing'));
  assert.equal(s.state.status, 'playing');
  assert.equal(s.tableState.room.rev, 4);
  assert.equal(seen.renders, before + 1);
  s.onRoom(state(5, 'playing', { rematch: { by: 'p2' } }));
  assert.equal(seen.renders, before + 1, 'same status: not drawn again');
  assert.deepEqual(s.invite, { by: 'p2' });
});

test('a decision: sent for the version held, one at a time, the answer\'s version kept to wait for', async () => {
  const waiting = [];
  const net = scripted({ act: () => new Promise((r) => { waiting.push(r); }) });
  const [s] = session(net);
  await s.onGame(whole(0, {}));
  const sent = s.act({ type: 'pass' });
  assert.equal(s.tableState.sending, true);
  const again = s.act({ type: 'pass' });
  for (const answer of waiting) answer({ ok: true, v: 1 });
  assert.deepEqual(await again, { ok: false, error: { code: 'busy' } });
  assert.deepEqual(await sent, { ok: true, v: 1 });
  assert.deepEqual([s.tableState.sending, s.tableState.waitV], [false, 1]);
  assert.deepEqual(net.sent, [['act', { room: 'r_1', v: 0, action: { type: 'pass' } }]]);
});

test('a decision refused as stale catches up; a request refused is told, its room state taken when ok', async () => {
  const net = scripted({ act: { ok: false, error: { code: 'stale_version' } },
    since: { ok: true, messages: [whole(1, { turn: 2 })] },
    sit: { ok: false, error: { code: 'seat_taken' } },
    stand: { ok: true, room: state(9, 'waiting') } });
  const [s, seen] = session(net, state(1, 'waiting'));
  await s.onGame(whole(0, {}));
  await s.act({ type: 'pass' }, 'red');
  assert.deepEqual(net.sent.map(([e]) => e), ['act', 'since']);
  assert.equal(net.sent[0][1].colour, 'red');
  assert.equal(s.stream.v, 1);
  await s.request('sit', { seat: 1 });
  assert.deepEqual(seen.refused, ['seat_taken']);
  await s.request('stand', { seat: 0 });
  assert.equal(s.state.rev, 9);
  assert.deepEqual(net.sent.at(-1), ['stand', { room: 'r_1', seat: 0 }]);
});

test('the turn clock: from the room\'s milliseconds left, counted from now; gone when the game ends', () => {
  const [s] = session(scripted());
  const before = performance.now();
  s.onRoom(state(2, 'playing', { v: 4, clock: { v: 4, colour: 'red', remaining_ms: 30_000 } }));
  const d = s.tableState.deadline;
  assert.deepEqual([d.v, d.colour], [4, 'red']);
  assert.ok(d.end >= before + 30_000 && d.end <= performance.now() + 30_000);
  s.onRoom(state(3, 'finished', { v: 5 }));
  assert.equal(s.tableState.deadline, null);
});

test('leaving the room: its table goes and the server is told', async () => {
  const net = scripted();
  const [s] = session(net);
  let destroyed = false;
  s.table = { show() {}, destroy() { destroyed = true; } };
  await s.leave();
  assert.equal(destroyed, true);
  assert.equal(s.table, null);
  assert.deepEqual(net.sent, [['room_leave', { room: 'r_1' }]]);
});

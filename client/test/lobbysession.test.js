// The lobby as a page knows it (src/lobbysession.js), over a scripted connection: each request is recorded
// and answered as the server's protocol answers it (docs/protocol.md), some answers held back to interleave
// the lobby's events with them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LobbySession } from '../src/lobbysession.js';

/** A connection whose answers the test gives: `answers[event]` (a value, or a function of the data);
 *  `hold(event)` keeps the next such request unanswered until the test calls the returned function. */
function scripted(answers = {}) {
  const net = { sent: [], held: new Map() };
  net.request = (event, data) => {
    net.sent.push([event, data]);
    const held = net.held.get(event);
    if (held) { net.held.delete(event); return new Promise((resolve) => { held.resolve = resolve; }); }
    const a = answers[event];
    return Promise.resolve(typeof a === 'function' ? a(data) : (a ?? { ok: true }));
  };
  net.hold = (event) => { const h = {}; net.held.set(event, h); return (answer) => h.resolve(answer); };
  return net;
}

function lobby(net) {
  const told = { changed: 0, refused: [] };
  const l = new LobbySession(net, { changed: () => { told.changed += 1; }, refused: (e) => told.refused.push(e.code) });
  return [l, told];
}

const room = (id, status = 'waiting') => ({ id, status });

test('the listing, then the events heard while it was on its way applied over it in order', async () => {
  const net = scripted();
  const [l, told] = lobby(net);
  const answer = net.hold('lobby_watch');
  const watched = l.watch();
  l.onLobby({ op: 'upsert', room: room('b', 'playing') });   // newer than the listing's b
  l.onLobby({ op: 'remove', room: 'a' });
  answer({ ok: true, rooms: [room('a'), room('b'), room('c')] });
  assert.equal(await watched, true);
  assert.deepEqual([...l.rooms.keys()], ['b', 'c']);
  assert.equal(l.rooms.get('b').status, 'playing');
  assert.equal(told.changed, 3);
  // later events change the listing as they come, and only then
  l.onLobby({ op: 'upsert', room: room('d') });
  l.onLobby({ op: 'remove', room: 'c' });
  assert.deepEqual([...l.rooms.keys()], ['b', 'd']);
  assert.deepEqual(net.sent, [['lobby_watch', {}]]);
});

test('a room\'s change older than one already heard is dropped: events come from every server process', async () => {
  const net = scripted({ lobby_watch: { ok: true, rooms: [{ ...room('a'), rev: 3 }] } });
  const [l] = lobby(net);
  await l.watch();
  l.onLobby({ op: 'upsert', room: { ...room('a', 'playing'), rev: 5 } });
  l.onLobby({ op: 'upsert', room: { ...room('a'), rev: 4 } });   // sent before the one above, arrived after
  assert.equal(l.rooms.get('a').status, 'playing');
  // its game ended: removed; an older change does not bring it back, a newer one does
  l.onLobby({ op: 'remove', room: 'a', rev: 7 });
  l.onLobby({ op: 'upsert', room: { ...room('a', 'playing'), rev: 6 } });
  assert.equal(l.rooms.has('a'), false);
  l.onLobby({ op: 'upsert', room: { ...room('a'), rev: 8 } });
  assert.equal(l.rooms.get('a').rev, 8);
  // people coming and going change no revision: the same revision applies, in the order it comes
  l.onLobby({ op: 'remove', room: 'a', rev: 8 });
  l.onLobby({ op: 'upsert', room: { ...room('a'), rev: 8, spectators: 2 } });
  assert.equal(l.rooms.get('a').spectators, 2);
  // a room that expired (a removal without a revision) is gone for good
  l.onLobby({ op: 'remove', room: 'a' });
  l.onLobby({ op: 'upsert', room: { ...room('a'), rev: 8 } });
  assert.equal(l.rooms.has('a'), false);
});

test('an event heard while the listing was on its way and older than the listing is dropped', async () => {
  const net = scripted();
  const [l] = lobby(net);
  const answer = net.hold('lobby_watch');
  const watched = l.watch();
  l.onLobby({ op: 'upsert', room: { ...room('a'), rev: 2 } });   // from before the listing was read
  l.onLobby({ op: 'upsert', room: { ...room('b', 'playing'), rev: 5 } });   // from after
  answer({ ok: true, rooms: [{ ...room('a', 'playing'), rev: 3 }, { ...room('b'), rev: 4 }] });
  await watched;
  assert.deepEqual([...l.rooms.values()].map((r) => [r.id, r.status, r.rev]), [['a', 'playing', 3], ['b', 'playing', 5]]);
});

test('a refused watch is told and keeps the listing', async () => {
  const [l, told] = lobby(scripted({ lobby_watch: { ok: false, error: { code: 'rate_limited' } } }));
  l.rooms.set('a', room('a'));
  assert.equal(await l.watch(), false);
  assert.deepEqual(told.refused, ['rate_limited']);
  assert.deepEqual([...l.rooms.keys()], ['a']);
  assert.equal(told.changed, 0);
});

test('the page stops watching once, and only when it watches', async () => {
  const net = scripted({ lobby_watch: { ok: true, rooms: [] } });
  const [l] = lobby(net);
  l.unwatch();
  assert.deepEqual(net.sent, []);
  await l.watch();
  l.unwatch();
  l.unwatch();
  assert.deepEqual(net.sent.map(([e]) => e), ['lobby_watch', 'lobby_unwatch']);
});

test('a new table: its room, the lobby left; refused: told, still watching', async () => {
  const net = scripted({ lobby_watch: { ok: true, rooms: [] },
    room_create: (s) => (s.seats > 6 ? { ok: false, error: { code: 'bad_settings' } } : { ok: true, room: { id: 'r_new' } }) });
  const [l, told] = lobby(net);
  await l.watch();
  assert.equal(await l.createRoom({ seats: 9 }), null);
  assert.deepEqual(told.refused, ['bad_settings']);
  assert.equal(l.watching, true);
  assert.equal(await l.createRoom({ seats: 3 }), 'r_new');
  assert.deepEqual(net.sent.map(([e]) => e), ['lobby_watch', 'room_create', 'room_create', 'lobby_unwatch']);
});

test('a table joined by its code: the lobby left first, the answer handed back; a wrong code told', async () => {
  const net = scripted({ lobby_watch: { ok: true, rooms: [] },
    room_join: ({ code }) => (code === 'ABCD' ? { ok: true, room: { id: 'r_1' } } : { ok: false, error: { code: 'not_found' } }) });
  const [l, told] = lobby(net);
  await l.watch();
  assert.deepEqual(await l.joinCode('ABCD'), { ok: true, room: { id: 'r_1' } });
  assert.deepEqual(net.sent.slice(1), [['lobby_unwatch', {}], ['room_join', { code: 'ABCD' }]]);
  assert.equal(await l.joinCode('ZZZZ'), null);
  assert.deepEqual(told.refused, ['not_found']);
});

test('a table joined by its code where the proxy routes by room: followed to its replica and joined there', async () => {
  const net = scripted({ room_join: (d) => ({ ok: true, room: { id: 'r_1' }, joined: d }) });
  net.byRoom = true;
  net.follow = async (room) => { net.sent.push(['follow', room]); };
  const [l] = lobby(net);
  const res = await l.joinCode('ABCD');
  assert.deepEqual(net.sent, [['room_join', { code: 'ABCD' }], ['follow', 'r_1'],
    ['room_join', { room: 'r_1' }]]);
  assert.deepEqual(res.joined, { room: 'r_1' }, 'the answer of the table\'s own replica');
});

test('a name is trimmed to 24 characters; an empty one is not sent; the server\'s name is the one taken', async () => {
  const net = scripted({ set_name: ({ name }) => (name === 'taken' ? { ok: false, error: { code: 'name_taken' } }
    : { ok: true, name: name === 'Ann' ? 'Ann 2' : undefined }) });
  const [l, told] = lobby(net);
  assert.equal(await l.setName('   '), null);
  assert.deepEqual(net.sent, []);
  assert.equal(await l.setName('  Ann '), 'Ann 2');
  assert.equal(await l.setName(`${'x'.repeat(30)}`), 'x'.repeat(24));
  assert.deepEqual(net.sent.map(([, d]) => d.name), ['Ann', 'x'.repeat(24)]);
  assert.equal(await l.setName('taken'), null);
  assert.deepEqual(told.refused, ['name_taken']);
});

"""Bad input and abuse: every malformed request gets its error, nothing changes, everyone else is served."""

from __future__ import annotations

import asyncio
import random

import socketio
from tablekit import Client, InProcessServer, packed, people, table

from server.realtime.transport import MALFORMED_FRAMES


async def test_a_battery_of_malformed_requests_changes_nothing(server, clients, store):
    room, (a, b) = await table(server.url, humans=2, first=0)
    clients.extend([a, b])
    spectator, = await people(server.url, clients, "Spectator")
    await spectator.join(room)
    await a.wait(lambda: a.my_turn(room))
    v, view = a.views[room]
    legal = a.legal(room)[0]
    mover, waiter = (a, b) if a.my_turn(room) else (b, a)

    async def code(client: Client, event: str, *args: object) -> str:
        if not args:
            answer = await client.sio.call(event, timeout=5)
        elif len(args) == 1:
            answer = await client.sio.call(event, args[0], timeout=5)
        else:
            answer = await client.sio.call(event, tuple(args), timeout=5)
        assert answer["ok"] is False, (event, args, answer)
        assert set(answer["error"]) >= {"code", "message"}
        return answer["error"]["code"]

    battery = [
        (mover, "act", (), "malformed"),                                     # no payload
        (mover, "act", ("expand",), "malformed"),                            # not a map
        (mover, "act", ([1, 2, 3],), "malformed"),
        (mover, "act", ({"room": room}, {"v": v}), "malformed"),             # two arguments
        (mover, "act", ({1: 2},), "malformed"),                              # non-string keys
        (mover, "no_such_event", ({},), "unknown_event"),
        (mover, "act", ({"room": 5, "v": v, "action": legal},), "malformed"),
        (mover, "act", ({"room": b"raw", "v": v, "action": legal},), "malformed"),
        (mover, "act", ({"room": room, "v": "7", "action": legal},), "malformed"),
        (mover, "act", ({"room": room, "v": -1, "action": legal},), "malformed"),
        (mover, "act", ({"room": room, "v": True, "action": legal},), "malformed"),
        (mover, "act", ({"room": room, "v": 2**40, "action": legal},), "malformed"),
        (mover, "act", ({"room": room, "v": v, "action": "expand"},), "malformed"),
        (mover, "act", ({"room": room, "v": v},), "malformed"),
        (mover, "act", ({"room": room, "v": v, "action": {"type": "teleport"}},), "illegal_action"),
        (mover, "act", ({"room": room, "v": v, "action": {"type": "setup", "beach": 99}},), "illegal_action"),
        (mover, "act", ({"room": room, "v": v, "action": {"type": "setup", "beach": "0"}},), "illegal_action"),
        (mover, "act", ({"room": room, "v": v, "action": {"type": ["setup"]}},), "illegal_action"),
        (mover, "act", ({"room": room, "v": v, "action": {"type": "setup", "beaches": list(range(2000))}},),
         "too_large"),
        (mover, "act", ({"room": room, "v": v, "action": {"a": [[[[[[[[[[1]]]]]]]]]]}},), "malformed"),
        (mover, "act", ({"room": "r_nope", "v": v, "action": legal},), "not_in_room"),
        (mover, "act", ({"room": room, "v": v + 1, "action": legal},), "stale_version"),
        (mover, "act", ({"room": room, "v": v - 1 if v else v + 5, "action": legal},), "stale_version"),
        (waiter, "act", ({"room": room, "v": v, "action": legal},), "not_your_turn"),  # another seat's turn
        (spectator, "act", ({"room": room, "v": v, "action": legal},), "not_seated"),
        (waiter, "withdraw", ({"room": room},), "not_your_turn"),     # no orders to take back in Tongiaki
        (mover, "withdraw", ({"room": room},), "illegal_action"),
        (mover, "withdraw", ({"room": "r_nope"},), "not_in_room"),
        (spectator, "sit", ({"room": room, "seat": 0},), "not_waiting"),
        (spectator, "room_start", ({"room": room},), "not_host"),
        (mover, "sit", ({"room": room, "seat": 9},), "not_waiting"),
        (mover, "since", ({"room": room, "v": "x"},), "malformed"),
        (mover, "room_join", ({"room": "r_nope"},), "no_room"),
        (mover, "room_join", ({"room": ["x"]},), "malformed"),
        (mover, "room_create", ({"name": "x", "seats": 99},), "malformed"),
        (mover, "chat", ({"room": room, "text": 5},), "malformed"),
        (mover, "chat", ({"room": room, "text": "x" * 3000},), "too_large"),
        (mover, "set_name", ({"name": ""},), "malformed"),
    ]
    for client, event, args, expected in battery:
        assert await code(client, event, *args) == expected, (event, args)
    # malformed msgpack and an oversized frame on two throwaway sockets: they are dropped, nobody else is
    vandal = await Client("vandal").connect(server.url)
    clients.append(vandal)
    bad = [b"\xc1\xc1\xc1 not msgpack", b"\x92\x02\xc1", packed({"type": 2, "nsp": "/", "data": 5}),
           packed({"type": 2, "nsp": "/", "data": [{"x": 1}], "id": 7}), packed([1, 2])]
    assert len(bad) == MALFORMED_FRAMES
    for raw in bad[:-1]:
        await vandal.sio.eio.send(raw)
        assert (await vandal.call("set_name", {"name": "still here"}))["ok"]  # the socket is still served
    await vandal.sio.eio.send(bad[-1])   # one too many: that socket is closed
    await vandal.sio.wait()
    # a frame over the 64 KiB limit closes that socket only
    vandal = await Client("vandal").connect(server.url)
    clients.append(vandal)
    await vandal.sio.eio.send(b"\x00" * (70 * 1024))
    await vandal.sio.wait()
    # nothing changed: same version, same log, and the game plays on to the end for everyone
    assert (await store.games.game_head(room)).v == v and len(await store.games.actions(room)) == v
    assert mover.v(room) == waiter.v(room) == spectator.v(room) == v
    await asyncio.gather(a.play(room, random.Random(1)), b.play(room, random.Random(2)))
    await spectator.wait(lambda: spectator.over(room))
    # replaying an old version once the game is over changes nothing either
    assert await code(a, "act", {"room": room, "v": v, "action": legal}) == "not_playing"
    # the action that lost the race to the game's last action is told so, like any other lost race
    final = a.v(room)
    assert await code(a, "act", {"room": room, "v": final - 1, "action": legal}) == "stale_version"


async def test_rate_limit_per_connection(config, clients):
    server = await InProcessServer(config.with_(rate=2.0, burst=5.0)).start()
    try:
        c, = await people(server.url, clients, "Hasty")
        answers = [await c.call("lobby_watch") for _ in range(8)]
        assert [x["ok"] for x in answers[:5]] == [True] * 5
        assert any(not x["ok"] and x["error"]["code"] == "rate_limited" for x in answers[5:])
        other, = await people(server.url, clients, "Calm")
        assert (await other.call("lobby_watch"))["ok"]
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_origin_is_checked_on_the_websocket(server, clients):
    evil = socketio.AsyncClient(serializer="msgpack", reconnection=False)
    try:
        await evil.connect(server.url, auth={"protocol": 2}, transports=["websocket"],
                           headers={"Origin": "http://evil.example"}, wait_timeout=5)
    except socketio.exceptions.ConnectionError:
        pass
    else:
        await evil.disconnect()
        raise AssertionError("a foreign Origin was accepted")
    same = await Client().connect(server.url, headers={"Origin": server.url})
    clients.append(same)
    assert same.session["token"]

"""Several server processes sharing one Redis: a whole game with players on different processes, and a
process killed mid-game while the game goes on on the other."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

from tablekit import Client, packed, stored_view


async def seat_everyone(host: Client, others: list[Client], seats: int, **settings) -> str:
    room = (await host.ok("room_create", {"name": "two processes", "seats": seats, "bot_pace": 0,
                                          **settings}))["room"]["id"]
    await host.join(room)
    for i, c in enumerate(others, start=1):
        await c.join(room)
        await c.ok("sit", {"room": room, "seat": i})
    return room


async def test_players_on_two_processes_play_a_whole_game(two_servers, clients, store):
    a_url, b_url = (s.url for s in two_servers)
    on_a = [await Client(f"A{i}").connect(a_url, name=f"A{i}") for i in range(2)]
    on_b = [await Client(f"B{i}").connect(b_url, name=f"B{i}") for i in range(2)]
    watchers = [await Client("WA").connect(a_url), await Client("WB").connect(b_url)]
    clients.extend(on_a + on_b + watchers)
    players = [on_a[0], on_b[0], on_a[1], on_b[1]]
    room = await seat_everyone(players[0], players[1:], 4, first=0)
    for w in watchers:
        await w.join(room)
    await players[0].ok("room_start", {"room": room})
    for c in players + watchers:
        await c.wait(lambda c=c: room in c.views)
    # the seat of A0 from a second tab on the other process: two actions on one version, one wins
    twin = await Client("A0 on B").connect(b_url, token=on_a[0].session["token"])
    clients.append(twin)
    await twin.join(room)
    await on_a[0].wait(lambda: on_a[0].my_turn(room))
    v, view = on_a[0].views[room]
    answers = await asyncio.gather(*(c.call("act", {"room": room, "v": v, "action": on_a[0].legal(room)[0]})
                                     for c in (on_a[0], twin)))
    assert sorted(x["ok"] for x in answers) == [False, True]
    await asyncio.gather(*(p.play(room, random.Random(i)) for i, p in enumerate(players)))
    final = await stored_view(store, room)
    for c in players + watchers:
        await c.wait(lambda c=c: c.v(room) == final["v"])
        assert c.view(room) == final["view"]
    streams = [[packed(d) for e, d in sorted(((e, d) for e, d in w.received if e == "game"),
                                              key=lambda x: x[1]["v"])] for w in watchers]
    assert streams[0] == streams[1] and len(streams[0]) == final["v"] + 1


async def test_a_process_killed_mid_game_and_the_game_goes_on(two_servers, clients, store):
    doomed, survivor = two_servers
    on_doomed = [await Client(f"D{i}").connect(doomed.url, name=f"D{i}") for i in range(2)]
    on_survivor = [await Client("S0").connect(survivor.url, name="S0")]
    watcher = await Client("W").connect(survivor.url)
    clients.extend(on_doomed + on_survivor + [watcher])
    players = [on_doomed[0], on_survivor[0], on_doomed[1]]
    # a long grace: this is about a process dying, not about bots taking over seats while people come back
    room = await seat_everyone(players[0], players[1:], 4, grace=600)
    await watcher.join(room)
    await players[0].ok("room_start", {"room": room, "fill_with_bots": True})  # seat 3: a bot
    for c in players + [watcher]:
        await c.wait(lambda c=c: room in c.views)
    tasks = [asyncio.create_task(p.play(room, random.Random(i))) for i, p in enumerate(players)]
    await watcher.wait(lambda: watcher.v(room) >= 15, timeout=30)
    doomed.kill()                                  # mid-game, with actions possibly in flight
    for t in tasks[0], tasks[2]:
        t.cancel()
        with contextlib.suppress(BaseException):
            await t
    # the people of the dead process come back through the survivor, with their tokens
    back = []
    for old in on_doomed:
        with contextlib.suppress(Exception):
            await old.sio.wait()
        again = await Client(old.name).connect(survivor.url, token=old.session["token"])
        assert {"room": room, "seat": players.index(old)} in again.session["seats"]
        again.views[room], again.rooms[room] = old.views[room], old.rooms[room]
        await again.join(room, since=old.v(room))
        back.append(again)
    clients.extend(back)
    await asyncio.gather(tasks[1], *(p.play(room, random.Random(10 + i)) for i, p in enumerate(back)))
    final = await stored_view(store, room)
    assert final["view"]["phase"] == "over"
    log = await store.games.actions(room)
    assert [x["v"] for x in log] == list(range(1, final["v"] + 1))    # nothing lost, nothing twice
    for c in back + [on_survivor[0], watcher]:
        await c.wait(lambda c=c: c.v(room) == final["v"])
        assert c.view(room) == final["view"]


async def test_a_process_stopped_gracefully_exits_and_its_players_show_disconnected(two_servers, clients):
    leaving, staying = two_servers
    player = await Client("P").connect(leaving.url, name="P")
    watcher = await Client("W").connect(staying.url)
    clients.extend([player, watcher])
    room = (await player.ok("room_create", {"name": "graceful", "seats": 2, "bot_pace": 0}))["room"]["id"]
    await player.ok("bot_add", {"room": room, "seat": 1})
    await watcher.join(room)
    await player.ok("room_start", {"room": room})
    await watcher.wait(lambda: watcher.rooms[room]["status"] == "playing"
                       and watcher.rooms[room]["seats"][0]["connected"])
    started = time.monotonic()
    leaving.proc.terminate()                       # SIGTERM: graceful shutdown
    await asyncio.to_thread(leaving.proc.wait, 15)
    assert time.monotonic() - started < 10
    await player.sio.wait()                        # its socket was closed by the server
    await watcher.wait(lambda: not watcher.rooms[room]["seats"][0]["connected"], timeout=10)

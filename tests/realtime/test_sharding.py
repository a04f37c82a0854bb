"""Fan-out sharded by table (server/realtime/fanout.py): a process hears the broadcasts of the tables it has
sockets in, and only those; the lobby reaches every process. Two servers sharing one real Redis."""

from __future__ import annotations

import asyncio
import json
import random

from tablekit import Client, InProcessServer, stored_view, table

from server.app import SIO
from server.realtime.fanout import Fanout


def heard_by(server: InProcessServer) -> list[tuple[str, object]]:
    """Records (event, Socket.IO room) of every broadcast another process sent that this one heard."""
    manager = server.app[SIO].manager
    assert isinstance(manager, Fanout)
    heard: list[tuple[str, object]] = []
    handle = manager._handle_emit

    async def recording(message):
        heard.append((message["event"], message.get("room")))
        await handle(message)

    manager._handle_emit = recording
    return heard


async def test_a_process_hears_the_tables_it_has_sockets_in_and_the_lobby_only(config, clients, store):
    a, b = [await InProcessServer(config).start() for _ in range(2)]
    try:
        on_b = heard_by(b)
        looker = await Client("looker").connect(b.url)   # on B: the lobby only
        clients.append(looker)
        await looker.ok("lobby_watch")
        room, players = await table(a.url, humans=2, first=0)   # the table lives on A
        clients.extend(players)
        await asyncio.wait_for(asyncio.gather(*(p.play(room, random.Random(i), stop_at=8)
                                                for i, p in enumerate(players))), 60)
        await looker.wait(lambda: any(room in str(update) for update in looker.lobby))   # the lobby reached B
        assert not [e for e, r in on_b if r is not None and str(r).startswith(f"room:{room}")]
        assert b.app[SIO].manager.tables == {}
        assert set(a.app[SIO].manager.tables) == {room}
        # a watcher on B: B hears the table from then on, and the watcher is caught up and follows
        await looker.join(room)
        assert set(b.app[SIO].manager.tables) == {room}
        await asyncio.wait_for(asyncio.gather(*(p.play(room, random.Random(10 + i), stop_at=14)
                                                for i, p in enumerate(players))), 60)
        final = await stored_view(store, room)
        await looker.wait(lambda: looker.v(room) == final["v"])
        assert looker.view(room) == final["view"]
        assert [e for e, r in on_b if r == f"room:{room}" and e == "game"]
        # it leaves: B stops hearing the table
        await looker.ok("room_leave", {"room": room})
        assert b.app[SIO].manager.tables == {}
        await looker.wait(lambda: not b.app[SIO].manager._subscribed)   # (its UNSUBSCRIBE is sent)
        before = len(on_b)
        await asyncio.wait_for(asyncio.gather(*(p.play(room, random.Random(20 + i), stop_at=18)
                                                for i, p in enumerate(players))), 60)
        assert not [e for e, r in on_b[before:] if e == "game"]
    finally:
        for s in (a, b):
            await s.stop()


def published_by(server: InProcessServer) -> list[tuple[str, str]]:
    """Records (channel, event) of every broadcast this process puts on pub/sub."""
    manager = server.app[SIO].manager
    assert isinstance(manager, Fanout)
    published: list[tuple[str, str]] = []
    enqueue = manager._enqueue

    def recording(text, channel=None):
        published.append((channel or manager.channel, json.loads(text).get("event", "")))
        enqueue(text, channel)

    manager._enqueue = recording
    return published


async def test_a_move_goes_through_pub_sub_only_while_another_process_has_a_socket_at_the_table(config, clients,
                                                                                              store):
    a, b = [await InProcessServer(config).start() for _ in range(2)]
    try:
        from_a = published_by(a)
        room, players = await table(a.url, humans=2, first=0)   # every socket of the table on A
        clients.extend(players)
        channel = a.app[SIO].manager.table_channel(room)
        started = len(from_a)   # (the start goes out as any change of the room does)
        await asyncio.wait_for(asyncio.gather(*(p.play(room, random.Random(i), stop_at=8)
                                                for i, p in enumerate(players))), 60)
        moves = [e for c, e in from_a[started:] if c == channel and e in ("game", "legal")]
        assert not moves, f"{len(moves)} moves published that no other process hears"
        # a spectator on B: from its join on, every move reaches B through pub/sub, and B's socket follows
        looker = await Client("looker").connect(b.url)
        clients.append(looker)
        await looker.join(room)
        before = len(from_a)
        await asyncio.wait_for(asyncio.gather(*(p.play(room, random.Random(10 + i), stop_at=14)
                                                for i, p in enumerate(players))), 60)
        final = await stored_view(store, room)
        await looker.wait(lambda: looker.v(room) == final["v"])
        assert looker.view(room) == final["view"]
        assert [e for c, e in from_a[before:] if c == channel and e == "game"]
    finally:
        for s in (a, b):
            await s.stop()


async def test_the_session_asks_for_a_tables_socket_to_carry_its_room_only_where_configured(config, clients):
    plain = await InProcessServer(config).start()
    routed = await InProcessServer(config.with_(route_by_room=True)).start()
    try:
        a = await Client("a").connect(plain.url)
        b = await Client("b").connect(routed.url)
        clients.extend([a, b])
        assert "route" not in a.session and b.session["route"] == "room"
    finally:
        for s in (plain, routed):
            await s.stop()

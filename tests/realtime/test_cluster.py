"""The service on a real Redis Cluster (three primaries, a replica each, redis-server processes in cluster
mode on loopback): every key of a room in one slot, rooms spread over the primaries, and a whole game
played through the service on it, unchanged from a single Redis."""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import aiohttp
import pytest
import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster
from redis.cluster import key_slot
from rediskit import Cluster
from tablekit import Client, InProcessServer, stored_view, table

from server.config import Config, redis_client
from server.lobby import Settings, Store
from server.lobby.rooms import Room
from server.lobby.store.keys import ROOM_KEYS


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    running = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
async def cluster_store(cluster: Cluster) -> AsyncIterator[Store]:
    client = redis_client(cluster.url)
    assert isinstance(client, RedisCluster)
    store = Store(client, f"test-{secrets.token_hex(4)}")
    yield store
    await client.aclose()


def test_a_rooms_keys_share_one_slot_and_the_directory_another() -> None:
    store = Store(redis.Redis(), "tongiaki")   # (key names only: it never connects)
    rooms = [f"r_{secrets.token_hex(6)}" for _ in range(40)]
    for room in rooms:
        assert len({key_slot(store.keys.key(kind, room).encode()) for kind in ROOM_KEYS}) == 1
    assert len({key_slot(store.keys.key("game", room).encode()) for room in rooms}) > 30   # rooms spread
    directory = {key_slot(store.keys.key(*parts).encode()) for parts in
                 (("lobby",), ("rooms",), ("timers",), ("procs",), ("code", "ABCD"), ("seated", "p_1"),
                  ("hosted", "p_1"), ("hosted_from", "10.0.0.1"), ("searching",), ("searching", "n"),
                  ("metrics_lease",), ("lobby_gen",))}
    assert len(directory) == 1


async def test_concurrent_changes_of_one_room_all_apply_on_the_cluster(cluster_store: Store) -> None:
    """update_room's optimistic transaction retried under contention (WATCH conflicts) on the cluster:
    every change applies once (a retry on the conflicted pipeline wrote to a closed connection)."""
    room = Room.new("r_" + secrets.token_hex(4), "C" + secrets.token_hex(3).upper(), "p_host", "Host",
                    Settings(name="t", seats=4), time.time())
    assert await cluster_store.rooms.create(room, ttl=600)
    ttls = {"waiting": 600.0, "finished": 600.0}
    await asyncio.gather(*(cluster_store.rooms.update(room.id, lambda r: True, ttls=ttls) for _ in range(30)))
    stored = await cluster_store.rooms.get(room.id)
    assert stored is not None and stored.rev == room.rev + 30
    assert room.id in await cluster_store.rooms.listed()


@pytest.mark.timeout(120)   # (a deadlock: WATCH in redis-py's cluster pipeline blocked the event loop)
async def test_a_burst_of_room_changes_beyond_the_pool_all_apply_on_the_cluster(cluster_store: Store) -> None:
    """Many more changes at once than the client has connections to a node (a timer tick over 100 due
    rooms, sockets joining together): each waits its turn and applies once, none fails for want of a
    connection (redis-py's cluster client refused them at once: MaxConnectionsError, `unavailable` to the
    player), and the room's update runs on the service's own event loop (WATCH in redis-py's cluster
    pipeline ran on a private one)."""
    rooms = [Room.new("r_" + secrets.token_hex(4), "C" + secrets.token_hex(3).upper(), f"p_{i}", f"Host {i}",
                      Settings(name=f"t{i}", seats=4), time.time()) for i in range(100)]
    for room in rooms:
        assert await cluster_store.rooms.create(room, ttl=600)
    ttls = {"waiting": 600.0, "finished": 600.0}
    seated = [(room, f"p_guest{i}_{j}", j) for i, room in enumerate(rooms) for j in (1, 2, 3)]

    def sit(person: str, seat: int) -> Callable[[Room], bool]:
        def change(r: Room) -> bool:
            r.sit(seat, person, person)
            return True
        return change

    await asyncio.wait_for(asyncio.gather(
        *(cluster_store.rooms.update(room.id, sit(person, seat), ttls=ttls) for room, person, seat in seated)),
        timeout=60)
    for room in rooms:   # (a game's head, enough for the marks)
        await cluster_store.redis.hset(cluster_store.keys.key("game", room.id), mapping={"v": 2, "sent": 0})
    await cluster_store.redis.script_flush()   # (the marks' script, lost: sent once more)
    await asyncio.gather(*(cluster_store.games.mark_sent({room.id: 2 for room in rooms[i::4]}) for i in range(4)))
    assert [await cluster_store.games.sent(room.id) for room in rooms] == [2] * len(rooms)
    stored = await cluster_store.rooms.many([room.id for room in rooms])
    for room, after in zip(rooms, stored, strict=True):
        assert after is not None and after.rev == room.rev + 3
        assert after.humans() == {room.host, *(p for r, p, _ in seated if r is room)}
    for _room, person, _seat in seated:
        assert await cluster_store.rooms.seated(person) == [_room.id]
    assert set(await cluster_store.rooms.listed()) == {room.id for room in rooms}   # real tables, listed


async def test_one_slots_commands_that_go_together_start_no_thread_on_the_cluster(cluster_store: Store) -> None:
    """A chat line, a session, a report seen, a game's log read, search bots released: each a few commands
    of one slot sent together, on the service's event loop (redis-py's cluster transaction runs each
    command queued in it on a loop of its own, in a thread the service's loop stops for)."""
    started: list[str] = []
    threading.settrace(lambda frame, event, arg: started.append(threading.current_thread().name))
    try:
        room = "r_" + secrets.token_hex(4)
        line = await cluster_store.chat.add(room, {"text": "hello"}, cap=10)
        await cluster_store.people.save_session("t" * 24, person="p_1", name="Ann", ttl=60, kept=True)
        assert await cluster_store.games.report_seen(room, began_v=3, person="p_1", ttl=60) == {"p_1"}
        assert await cluster_store.settled_actions(room) is None
        await cluster_store.searches.release(room)
    finally:
        threading.settrace(None)  # type: ignore[arg-type]
    assert started == []
    assert await cluster_store.chat.lines(room) == [line]
    assert await cluster_store.people.session("t" * 24) == ("p_1", "Ann", True)


async def test_a_whole_game_through_the_service_on_a_redis_cluster(cluster: Cluster, cluster_store: Store,
                                                                   tmp_path: Path) -> None:
    config = Config(host="127.0.0.1", port=0, redis_url=cluster.url, prefix=cluster_store.prefix, tick=0.01,
                    presence_ttl=3.0, client_dir=tmp_path / "dist", rate=1000.0, burst=1000.0, bot_workers=1)
    server = await InProcessServer(config).start()
    made: list[Client] = []
    try:
        room, players = await table(server.url, humans=2, bots=1, first=0)
        made += players
        watcher = await Client("W").connect(server.url)
        made.append(watcher)
        lobby = await watcher.ok("lobby_watch")
        assert room in str(lobby)   # the listing (the directory's slot) names the room
        await watcher.join(room)
        await asyncio.wait_for(asyncio.gather(*(p.play(room, random.Random(i)) for i, p in enumerate(players))),
                               timeout=60)
        final = await stored_view(cluster_store, room)
        assert final is not None
        for c in [*players, watcher]:
            await c.wait(lambda c=c: c.v(room) == final["v"])
            assert c.view(room) == final["view"]
        assert players[0].over(room)
        # the game's keys are all on the primary that serves the room's slot
        actions = await cluster_store.games.actions(room)
        assert len(actions) == final["v"]
        async with aiohttp.ClientSession() as http, http.get(server.url + "/metrics",
                                                             timeout=aiohttp.ClientTimeout(total=10)) as r:
            assert r.status == 200 and "tongiaki_sockets" in await r.text()
    finally:
        for c in made:
            await c.close()
        await server.stop()



async def test_tongiaki_serve_on_the_cluster_starts_a_notifier_that_reads_and_sends(cluster: Cluster,
                                                                                    tmp_path: Path) -> None:
    """`tongiaki serve`'s notifier connects to the cluster as the service does (`redis+cluster://`, which a
    plain client cannot open), reads the facts and sends the confirmation an address asks for."""
    from test_notify import a_served_notifier_confirms_an_address

    await a_served_notifier_confirms_an_address(cluster.url, tmp_path)

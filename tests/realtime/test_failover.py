"""Failover behind Sentinel (a primary with a replica, three Sentinels, the service on `redis+sentinel://`)
and on a Redis Cluster (three primaries with a replica each, `redis+cluster://`). The primary that holds the
game is killed (kill -9) mid-game: no acknowledged action is lost (each commit waits for the replica,
`WAIT 1 100`), the game goes on on the promoted replica with every client caught up, and the pause is
measured and printed."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import cast

import pytest
from redis.asyncio.cluster import RedisCluster
from rediskit import Cluster, Sentinels, cli
from tablekit import Client, InProcessServer, stored_view, table

from server.app import STORE
from server.config import Config, redis_client
from server.lobby import Store


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    running = Cluster(tmp_path / "cluster")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def sentinels(tmp_path: Path) -> Iterator[Sentinels]:
    running = Sentinels(tmp_path / "redis")
    try:
        yield running
    finally:
        running.stop()


async def heal(c: Client, room: str, predicate, most: float = 60.0) -> None:
    """Waits for `predicate`, asking `since` after each second without it (the browser's watchdog); a
    `since` refused as unavailable (Redis failing over) is asked again a second later."""
    deadline = time.monotonic() + most
    while True:
        with contextlib.suppress(TimeoutError):
            await c.wait(predicate, timeout=1.0)
            return
        assert time.monotonic() < deadline, f"{c.name}: not within {most:.0f} s"
        with contextlib.suppress(AssertionError):   # unavailable: Redis is failing over
            await c.since(room)


async def act_until(c: Client, room: str, rng: random.Random, acked: list[tuple[int, object, float]],
                    stop_at: int, failed: list[float] | None = None) -> None:
    """Plays this client's turns until version `stop_at` (or the end), asking `since` whenever a second
    passes without news (the browser's watchdog), and trying again an action refused as unavailable (Redis
    failing over). Every acknowledged action is recorded with its version and when it was sent."""
    while True:
        await heal(c, room, lambda: c.over(room) or c.my_turn(room) or c.v(room) >= stop_at)
        if c.over(room) or c.v(room) >= stop_at:
            return
        v, _ = c.views[room]
        action = rng.choice(c.legal(room))
        sent = time.monotonic()
        answer = await c.call("act", {"room": room, "v": v, "action": action})
        if answer["ok"]:
            acked.append((v + 1, action, sent))
            await heal(c, room, lambda v=v: c.v(room) > v)
        elif answer["error"]["code"] == "stale_version":
            await heal(c, room, lambda v=v: c.v(room) > v)
        else:
            assert answer["error"]["code"] == "unavailable", answer
            if failed is not None:
                failed.append(sent)
            await asyncio.sleep(0.05)   # Redis is failing over: as the client does, after a moment
            with contextlib.suppress(AssertionError):
                await c.since(room)


async def test_tongiaki_serve_behind_sentinel_starts_a_notifier_that_reads_and_sends(sentinels: Sentinels,
                                                                                     tmp_path: Path) -> None:
    """`tongiaki serve`'s notifier connects to the primary Sentinel names (`redis+sentinel://`), as the
    service does, reads the facts and sends the confirmation an address asks for."""
    from test_notify import a_served_notifier_confirms_an_address

    await a_served_notifier_confirms_an_address(sentinels.url, tmp_path)


async def test_a_primary_killed_mid_game_loses_no_acknowledged_action(sentinels: Sentinels, tmp_path: Path) -> None:
    async def kill(server: InProcessServer, store: Store, room: str) -> Callable[[], bool]:
        assert server.app[STORE].games.replicas == 1   # the server saw the replica: its commits wait for it
        old = sentinels.primary()
        sentinels.node(old).kill()
        return lambda: sentinels.primary() != old

    await kill_mid_game(sentinels.url, tmp_path, kill)


async def test_a_cluster_primary_killed_mid_game_loses_no_acknowledged_action(cluster: Cluster,
                                                                              tmp_path: Path) -> None:
    """On a cluster the commit's WAIT goes to the node that holds the room's slot, on the commit's own
    connection: that node is killed."""
    async def kill(server: InProcessServer, store: Store, room: str) -> Callable[[], bool]:
        cluster_client = cast(RedisCluster, store.redis)
        node = cluster_client.get_node_from_key(store.keys.key("game", room))
        assert node is not None
        assert calls(int(node.port), "wait") >= 10, "no WAIT on the room's primary: its commits do not wait"
        old = int(node.port)
        next(n for n in cluster.nodes if n.port == old).kill()
        return lambda: old not in cluster.primaries() and len(cluster.primaries()) == 3

    await kill_mid_game(cluster.url, tmp_path, kill)


def calls(port: int, command: str) -> int:
    """How many times the node on `port` has run `command`."""
    for line in cli(port, "info", "commandstats").split():
        if line.startswith(f"cmdstat_{command}:"):
            return int(line.split("calls=")[1].split(",")[0])
    return 0


async def kill_mid_game(url: str, tmp_path: Path,
                        kill: Callable[[InProcessServer, Store, str], Awaitable[Callable[[], bool]]]) -> None:
    """A two-player game on the Redis at `url`: ten actions, then `kill` kills the primary holding the game
    (kill -9) while actions are in flight, and answers whether a replica has taken over; the game goes on
    to forty actions, every acknowledged one is in the action log, and every client is caught up."""
    prefix = f"test-{secrets.token_hex(4)}"
    config = Config(host="127.0.0.1", port=0, redis_url=url, prefix=prefix, tick=0.01, presence_ttl=3.0,
                    client_dir=tmp_path / "dist", rate=1000.0, burst=1000.0, bot_workers=0)
    server = await InProcessServer(config).start()
    client = redis_client(url)
    store = Store(client, prefix)
    made: list[Client] = []
    try:
        room, players = await table(server.url, humans=2, first=0)
        made += players
        acked: list[tuple[int, object, float]] = []
        await asyncio.wait_for(asyncio.gather(*(act_until(p, room, random.Random(i), acked, 10)
                                                for i, p in enumerate(players))), 60)
        await store.games.game_head(room)   # (a cluster client learns the slot map)
        failed: list[float] = []
        playing = [asyncio.create_task(act_until(p, room, random.Random(10 + i), acked, 40, failed))
                   for i, p in enumerate(players)]
        await players[0].wait(lambda: players[0].v(room) >= 14)
        taken_over = await kill(server, store, room)   # mid-game, actions in flight
        killed = time.monotonic()
        await asyncio.wait_for(asyncio.gather(*playing), 90)
        assert taken_over()
        after = sorted(at for _, _, at in acked if at > killed)
        assert len(after) >= 10, "the game did not go on after the failover"
        refused = [at for at in failed if at > killed]
        print(f"\n  failover: the first action sent after kill -9 and acknowledged was sent "
              f"{1000 * (after[0] - killed):.0f} ms after it; {len(refused)} requests refused as unavailable "
              f"meanwhile, the last {1000 * (max(refused) - killed) if refused else 0:.0f} ms after it; "
              f"{len(acked)} actions acknowledged in all")
        log = {line["v"]: line["action"] for line in await store.games.actions(room)}
        lost = [(v, action) for v, action, _ in acked if log.get(v) != action]
        assert not lost, f"acknowledged actions lost in the failover: {lost}"
        final = await stored_view(store, room)
        assert final is not None
        for p in players:
            await heal(p, room, lambda p=p: p.v(room) == final["v"])
            assert p.view(room) == final["view"]
    finally:
        for c in made:
            await c.close()
        await server.stop()
        await client.aclose()

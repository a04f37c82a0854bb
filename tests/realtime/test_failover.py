"""Failover behind Sentinel: a primary with a replica, three Sentinels, the service on
`redis+sentinel://`. The primary is killed (kill -9) mid-game: no acknowledged action is lost (each commit
waits for the replica, `WAIT 1 100`), the game goes on on the promoted replica with every client caught up,
and the pause is measured and printed."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rediskit import Sentinels
from tablekit import Client, InProcessServer, table

from server.app import STORE
from server.config import Config, redis_client
from server.lobby import Store


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


async def test_a_primary_killed_mid_game_loses_no_acknowledged_action(sentinels: Sentinels, tmp_path: Path) -> None:
    prefix = f"test-{secrets.token_hex(4)}"
    config = Config(host="127.0.0.1", port=0, redis_url=sentinels.url, prefix=prefix, tick=0.01, presence_ttl=3.0,
                    client_dir=tmp_path / "dist", rate=1000.0, burst=1000.0, bot_workers=0)
    server = await InProcessServer(config).start()
    client = redis_client(sentinels.url)
    store = Store(client, prefix)
    made: list[Client] = []
    try:
        room, players = await table(server.url, humans=2, first=0)
        made += players
        acked: list[tuple[int, object, float]] = []
        await asyncio.wait_for(asyncio.gather(*(act_until(p, room, random.Random(i), acked, 10)
                                                for i, p in enumerate(players))), 60)
        assert server.app[STORE].replicas == 1   # the server saw the replica: its commits wait for it
        old = sentinels.primary()
        failed: list[float] = []
        playing = [asyncio.create_task(act_until(p, room, random.Random(10 + i), acked, 40, failed))
                   for i, p in enumerate(players)]
        await players[0].wait(lambda: players[0].v(room) >= 14)
        sentinels.node(old).kill()   # mid-game, actions in flight
        killed = time.monotonic()
        await asyncio.wait_for(asyncio.gather(*playing), 90)
        assert sentinels.primary() != old
        after = sorted(at for _, _, at in acked if at > killed)
        assert len(after) >= 10, "the game did not go on after the failover"
        refused = [at for at in failed if at > killed]
        print(f"\n  failover: the first action sent after kill -9 and acknowledged was sent "
              f"{1000 * (after[0] - killed):.0f} ms after it; {len(refused)} requests refused as unavailable "
              f"meanwhile, the last {1000 * (max(refused) - killed) if refused else 0:.0f} ms after it; "
              f"{len(acked)} actions acknowledged in all")
        log = {line["v"]: line["action"] for line in await store.actions(room)}
        lost = [(v, action) for v, action, _ in acked if log.get(v) != action]
        assert not lost, f"acknowledged actions lost in the failover: {lost}"
        final = await store.snapshot(room)
        assert final is not None
        for p in players:
            await heal(p, room, lambda p=p: p.v(room) == final["v"])
            assert p.view(room) == final["view"]
    finally:
        for c in made:
            await c.close()
        await server.stop()
        await client.aclose()

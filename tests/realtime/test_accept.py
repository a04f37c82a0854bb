"""TCP connections at accept (server/realtime/accept.py), through the real `tongiaki serve` command: the
connections one address holds open are capped before any HTTP is read (the excess closed at once, other
addresses served as usual), and a connection that sends no complete request head in time is closed."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from tablekit import Client, ServerProcess

CAP = 60
HELD = 4 * CAP
HEADER_TIMEOUT = 3.0


async def idle(port: int, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the server closes this connection within `seconds` (read returns the end or a reset)."""
    try:
        return await asyncio.wait_for(reader.read(1), seconds) == b""
    except ConnectionError:
        return True
    except TimeoutError:
        return False


async def answered(reader: asyncio.StreamReader) -> bool:
    """Whether a whole 200 answer comes on this connection."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length"))
    await reader.readexactly(length)
    return head.startswith(b"HTTP/1.1 200")


@pytest.fixture
async def capped(redis_url, prefix, tmp_path):
    server = ServerProcess(redis_url, prefix, tmp_path, TONGIAKI_TCP_PER_ADDRESS=str(CAP),
                           TONGIAKI_HEADER_TIMEOUT=str(HEADER_TIMEOUT), TONGIAKI_BOT_WORKERS="1")
    try:
        yield await server.ready()
    finally:
        server.stop()


async def test_idle_connections_from_one_address_are_capped_at_accept(capped, clients):
    held = []
    for _ in range(HELD):   # one after the other: which are kept is then known
        held.append(await idle(capped.port))
    try:
        fates = await asyncio.gather(*(closed_within(reader, 0.5) for reader, _ in held))
        # the first CAP are kept (until the header timeout); every one after them was closed at once
        assert fates == [False] * CAP + [True] * (HELD - CAP), (fates.count(False), fates.index(True))
        # another address connects and plays while the first holds its whole share
        far = Client("Far", source="127.0.0.2")
        clients.append(far)
        await far.connect(capped.url, name="Far")
        room = (await far.ok("room_create", {"name": "far table", "seats": 2, "bot_pace": 0}))["room"]["id"]
        await far.join(room)
        await far.ok("room_start", {"room": room, "fill_with_bots": True})
        await far.wait(lambda: room in far.views)
        assert await far.play(room, random.Random(7), stop_at=12) > 0
        assert far.v(room) >= 12
    finally:
        for _, writer in held:
            writer.transport.abort()
    # the places are given back: the first address is served again
    await asyncio.sleep(0.2)
    near = Client("Near")
    clients.append(near)
    await near.connect(capped.url, name="Near")
    assert (await near.call("lobby_watch"))["ok"]
    assert "Traceback" not in capped.log.read_text()


async def test_a_connection_without_a_complete_head_is_closed_after_the_header_timeout(capped):
    silent, _ = await idle(capped.port)
    slow, slow_writer = await idle(capped.port)
    fine, fine_writer = await idle(capped.port)
    request = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
    fine_writer.write(request)
    assert await answered(fine)
    started = time.monotonic()

    async def trickle() -> None:   # a head a few bytes at a time, never finished
        for i in range(40):
            slow_writer.write(request[i:i + 1])
            await asyncio.sleep(0.1)

    trickling = asyncio.ensure_future(trickle())
    try:
        assert await closed_within(silent, HEADER_TIMEOUT + 3)
        assert await closed_within(slow, 3)
        took = time.monotonic() - started
        assert HEADER_TIMEOUT - 1 < took < HEADER_TIMEOUT + 2, took
        # a connection whose request came in time is kept alive past the timeout, and served again
        fine_writer.write(request)
        assert await answered(fine)
    finally:
        trickling.cancel()
        for writer in (slow_writer, fine_writer):
            writer.transport.abort()

"""Malformed frames, at Engine.IO's level and Socket.IO's, text and binary, websocket and long-polling:
each is counted against its socket and logged within the per-address log budget, the socket is closed
after a few (transport.MALFORMED_FRAMES), and no client input makes a traceback. Real sockets on
loopback: hand-made websocket frames (bench/rawsocket.py) and long-polling POSTs of garbage."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import random

import aiohttp
import msgpack
import pytest
import socketio
from tablekit import people

from bench.rawsocket import RawSocket
from server.app import NAMESPACE
from server.realtime.transport import MALFORMED_FRAMES, ws_frame

SENT = 2 * MALFORMED_FRAMES
"""Frames of one kind sent on one socket: many more than it may send before it is closed."""


def garbage_texts(rng: random.Random) -> list[str]:
    """Engine.IO text frames that do not decode: unknown packet types, types a client never sends on an
    open session, bad base64, and a fuzz over prefixes (a packet type or sign, then anything)."""
    fixed = ["9", "-1", "7", "8", "99", "-", "+4", " 4", "x", "\x00", "é", "0", "0{}", "6", "b", "b!!!", "b===",
             "40", "42[\"set_name\"]", "4" + "x" * 200, "2", "2ping"]
    alphabet = "0123456789-+b{}[]\"x\x1e\x00é"
    fuzz = [rng.choice("-0123456789b") + "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
            for _ in range(16)]
    # (a fuzzed frame that happens to be a PONG, MESSAGE, UPGRADE or CLOSE is not garbage: left out)
    return fixed + [f for f in fuzz if f[:1] not in ("1", "3", "4", "5") and not f.startswith("b")]


def garbage_binaries(rng: random.Random) -> list[bytes]:
    """Binary frames that are not a client's msgpack Socket.IO packet."""
    return [b"\xc1", b"\x00", b"\xff" * 9, msgpack.packb([1, 2, 3]), msgpack.packb({"type": 9, "nsp": "/"}),
            msgpack.packb({"type": 2, "nsp": 5, "data": ["x"]}), msgpack.packb({"type": 2, "nsp": "/", "data": []}),
            msgpack.packb({"type": 5, "nsp": "/", "data": ["act"]}), rng.randbytes(40)]


def assert_quiet(caplog: pytest.LogCaptureFixture, frames: int) -> None:
    """No traceback from anything a client sent, and the log bounded whatever the number of frames."""
    tracebacks = [r for r in caplog.records if r.exc_info or r.exc_text or "Traceback" in r.getMessage()]
    assert tracebacks == [], [r.getMessage() for r in tracebacks[:3]]
    assert "Traceback" not in caplog.text
    # 5 lines a minute per address (logs.LogBudget), a few hundred bytes each: whatever the frames sent
    # (the test runner's access log is left out: the service runs without one, server/__main__.py)
    lines = [r.getMessage() for r in caplog.records if r.name != "aiohttp.access"]
    assert sum(map(len, lines)) < 3_000, (frames, len(lines), lines[:20])


async def a_token(url: str) -> str:
    """A person's session token: the sockets of a test come back as that person (one address makes
    only so many new people a minute)."""
    raw = await RawSocket.open(url)
    try:
        session = await raw.next_packet()
        assert session["data"][0] == "session"
        return str(session["data"][1]["token"])
    finally:
        raw.close()


async def test_garbage_websocket_frames_close_the_socket_and_log_within_the_budget(server, clients, caplog):
    caplog.set_level(logging.INFO)
    rng = random.Random(30)
    frames = 0
    auth = {"protocol": 2, "token": await a_token(server.url)}
    kinds: list[tuple[str, str | bytes, bool]] = [("text", t, True) for t in garbage_texts(rng)]
    kinds += [("binary", b, True) for b in garbage_binaries(rng)]
    # and before the socket has connected to the namespace (Socket.IO dropped those unseen)
    kinds += [("text", "40x", False), ("binary", b"\xc1", False), ("binary", msgpack.packb([1]), False)]
    for opcode, frame, connect in kinds:
        raw = await RawSocket.open(server.url, auth=auth, connect=connect)
        try:
            for _ in range(SENT):
                if opcode == "text":
                    assert isinstance(frame, str)
                    raw.send_frame(frame.encode(), 1)
                else:
                    assert isinstance(frame, bytes)
                    raw.send_frame(frame, 2)
                frames += 1
            await raw.writer.drain()
            assert await raw.closed(5.0), (opcode, frame)
        finally:
            raw.close()
    assert frames >= 30 * SENT
    # nobody else is hurt: a well-behaved client connects and is served
    fine, = await people(server.url, clients, "Fine")
    assert (await fine.call("lobby_watch"))["ok"]
    assert len(server.app[NAMESPACE].connections) == 1
    assert_quiet(caplog, frames)


async def test_a_few_malformed_frames_are_answered_and_the_socket_stays(server, caplog):
    caplog.set_level(logging.INFO)
    raw = await RawSocket.open(server.url)
    try:
        for ack in range(MALFORMED_FRAMES - 1):   # under the limit: each answered, the socket kept
            await raw.packet({"type": 5, "nsp": "/", "data": ["act", {}], "id": ack})
            assert (await raw.answer(ack))["error"]["code"] == "malformed"
        await raw.emit("set_name", {"name": "Still here"}, ack=100)
        assert (await raw.answer(100)) == {"ok": True, "name": "Still here"}
        await raw.text("9")                       # one more (of Engine.IO's): the socket is closed
        assert await raw.closed(5.0)
    finally:
        raw.close()
    assert_quiet(caplog, MALFORMED_FRAMES)


async def _polling_session(http: aiohttp.ClientSession, url: str, token: str) -> str:
    """A long-polling Engine.IO session connected to Socket.IO (msgpack, base64 in text): its URL."""
    async with http.get(url + "/socket.io/?EIO=4&transport=polling") as r:
        sid = json.loads((await r.text())[1:])["sid"]
    session = url + f"/socket.io/?EIO=4&transport=polling&sid={sid}"
    connect = msgpack.packb({"type": 0, "nsp": "/", "data": {"protocol": 2, "token": token}})
    async with http.post(session, data=b"b" + base64.b64encode(connect)) as r:
        assert r.status == 200, await r.text()
    async with http.get(session) as r:   # the CONNECT answer (and the `session` event)
        assert r.status == 200
        assert (await r.text()).startswith("b")
    return session


async def test_garbage_long_polling_posts_close_the_session_and_log_within_the_budget(server, caplog):
    caplog.set_level(logging.INFO)
    rng = random.Random(5)
    bodies: list[bytes] = [t.encode() for t in garbage_texts(rng)]
    bodies += [b"\xff\xfe\x00", "\x1e".join(["6"] * 17).encode(), b"4x\x1e9", b"b" + base64.b64encode(b"\xc1"),
               b"d=%ZZ", rng.randbytes(64)]
    posts = 0
    token = await a_token(server.url)
    timeout = aiohttp.ClientTimeout(total=5)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        for body in bodies:
            session = await _polling_session(http, server.url, token)
            statuses = []
            for _ in range(SENT):
                async with http.post(session, data=body) as r:
                    statuses.append(r.status)
                posts += 1
            # answered while the session lives, then refused: the session was closed after a few
            assert statuses[0] == 200 and statuses[-1] == 400, (body, statuses)
            assert statuses.count(200) <= MALFORMED_FRAMES, (body, statuses)
        fine = await _polling_session(http, server.url, token)
        ping = msgpack.packb({"type": 2, "nsp": "/", "data": ["set_name", {"name": "Polite"}], "id": 1})
        async with http.post(fine, data=b"b" + base64.b64encode(ping)) as r:
            assert r.status == 200
    assert posts >= 30 * SENT
    assert_quiet(caplog, posts)


async def test_a_long_polling_session_still_upgrades_to_a_websocket(server):
    # (the upgrade's frames are decoded by the same guarded code as any other)
    client = socketio.AsyncClient(serializer="msgpack", reconnection=False)
    try:
        await client.connect(server.url, auth={"protocol": 2}, transports=["polling", "websocket"],
                             wait_timeout=10)
        async with asyncio.timeout(10):
            while client.transport() != "websocket":
                await asyncio.sleep(0.05)   # the client library upgrades in its own task: no event to wait on
        assert (await client.call("set_name", {"name": "Upgraded"}, timeout=5)) == {"ok": True, "name": "Upgraded"}
    finally:
        await client.disconnect()



async def test_frames_written_at_once_read_as_aiohttps_own() -> None:
    """`ws_frame` (what `Session.send_now` writes without aiohttp's coroutine): a real aiohttp client reads
    each, text and binary, at every length where the header changes (RFC 6455 §5.2: 7, 16, 64 bits)."""
    messages: list[bytes | str] = [b"", "", b"\x00" * 125, "é" * 62 + "x", b"\xff" * 126, "a" * 127,
                                   b"m" * 65535, b"n" * 65536, "t" * 70_000]

    async def handler(request: aiohttp.web.Request) -> aiohttp.web.WebSocketResponse:
        ws = aiohttp.web.WebSocketResponse()
        await ws.prepare(request)
        assert request.transport is not None
        request.transport.writelines([ws_frame(m) for m in messages])
        await ws.receive()   # (the client's close)
        return ws

    app = aiohttp.web.Application()
    app.router.add_get("/", handler)
    runner = aiohttp.web.AppRunner(app)
    await runner.setup()
    site = aiohttp.web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"http://127.0.0.1:{port}/") as ws:
            got = [(await ws.receive()).data for _ in messages]
            await ws.close()
        assert got == messages
        assert [type(g) for g in got] == [type(m) for m in messages]
    finally:
        await runner.cleanup()

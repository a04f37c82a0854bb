"""Engine.IO's aiohttp websocket, with per-message deflate chosen by us (docs/protocol.md §9), every open
websocket tracked (a graceful shutdown closes them: aiohttp waits for open handlers), and the guards
against clients that do not play by the transport's rules:

- a **slow reader** (never reads, answers pings) is dropped once `send_queue` messages or
  `send_bytes` bytes wait for it, or when one write has not gone out in `write_timeout` seconds; its
  connection is aborted, so what was buffered for it is freed at once;
- a frame of exactly the limit is accepted (only larger ones close the connection);
- an empty frame closes the connection quietly (Engine.IO has no empty packet);
- a closed session gives back what it held at once (`release_closed`), not at Engine.IO's next sweep,
  and leaves no reference cycle holding it (a read that ends returns None, `_unlink`, a weak reference
  in the overflow): reference counting frees it, not a full collection;
- an accepted session (`Session`) reads and writes its websocket without a task or a timer per frame,
  whose pending objects, for thousands of sockets, the garbage collector would walk at every young
  collection; a client gone silent is closed by Engine.IO's ping timeout and its connection cut."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import socketio
from aiohttp import WSCloseCode, web
from engineio import exceptions
from engineio import packet as eio_packet
from engineio import payload as eio_payload
from engineio.async_drivers import aiohttp as eio_aiohttp
from engineio.async_socket import AsyncSocket

from server.logs import LogBudget
from server.realtime import wire

log = logging.getLogger(__name__)

MALFORMED_FRAMES = 5
"""Malformed frames a socket may send before it is closed (at this one): our client sends none."""

CLIENT_PACKETS = frozenset({eio_packet.CLOSE, eio_packet.PONG, eio_packet.MESSAGE, eio_packet.UPGRADE})
"""The Engine.IO packet types a client sends on an open session (PING and UPGRADE's probe belong to the
upgrade handshake, read apart)."""


class Websockets:
    """The open websockets of one Socket.IO server."""

    def __init__(self) -> None:
        self.open: set[web.WebSocketResponse] = set()

    async def close_all(self, timeout: float = 2.0) -> None:
        async def close(ws: web.WebSocketResponse) -> None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown"),
                                       timeout)
        await asyncio.gather(*(close(ws) for ws in list(self.open)))


class SendQueue(asyncio.Queue[Any]):
    """An Engine.IO socket's outgoing packets, bounded in count and in bytes: one packet over `limit`
    packets or `byte_limit` bytes calls `overflow` once and is dropped (the socket is being closed).
    `None`, the writer's stop signal, always goes in. `bound()` turns the socket's existing queue into
    one (its writer may already be waiting on it). The byte bound is what caps a slow reader's memory:
    a few catch-up answers of a long game weigh more than hundreds of moves."""

    limit: int
    byte_limit: int
    overflow: Callable[[], None]
    overflowed: bool
    queued_bytes: int
    peak: int                      # the most packets that ever waited (tests, soak benchmark)
    peak_bytes: int                # and the most bytes

    @classmethod
    def bound(cls, queue: asyncio.Queue[Any], limit: int, overflow: Callable[[], None],
              byte_limit: int) -> SendQueue:
        queue.__class__ = cls
        assert isinstance(queue, SendQueue)
        queue.limit, queue.byte_limit, queue.overflow, queue.overflowed = limit, byte_limit, overflow, False
        waiting: list[Any] = list(getattr(queue, "_queue", ()))   # what a writer has not taken yet
        queue.queued_bytes = sum(_weight(p) for p in waiting)
        queue.peak, queue.peak_bytes = queue.qsize(), queue.queued_bytes
        return queue

    def put_nowait(self, item: Any) -> None:
        weight = _weight(item)
        if item is not None and (self.overflowed or self.qsize() >= self.limit
                                 or self.queued_bytes + weight > self.byte_limit):
            if not self.overflowed:
                self.overflowed = True
                self.overflow()
            return
        super().put_nowait(item)
        self.queued_bytes += weight
        if item is not None:
            self.peak = max(self.peak, self.qsize())
            self.peak_bytes = max(self.peak_bytes, self.queued_bytes)

    def _get(self) -> Any:
        item = super()._get()
        self.queued_bytes -= _weight(item)
        return item


def ws_frame(message: bytes | str) -> bytes:
    """One websocket frame as a server sends it (RFC 6455 §5.2: final, unmasked, not compressed; binary
    for bytes, text for str). aiohttp's writer writes frames only in a coroutine; `Session.send_now`
    writes in the caller's turn, and the frame's header is these few lines."""
    payload, opcode = (message, 0x2) if isinstance(message, bytes) else (message.encode(), 0x1)
    n = len(payload)
    if n < 126:
        return bytes((0x80 | opcode, n)) + payload
    if n < 1 << 16:
        return struct.pack("!BBH", 0x80 | opcode, 126, n) + payload
    return struct.pack("!BBQ", 0x80 | opcode, 127, n) + payload


def _weight(packet: Any) -> int:
    """The bytes an Engine.IO packet holds (its encoded Socket.IO payload)."""
    data = getattr(packet, "data", None)
    return len(data) if isinstance(data, (bytes, str)) else 0


def _abort(eio_socket: Any) -> None:
    """Drops a socket at once: its TCP connection is aborted (buffers freed, no close handshake a slow
    reader would never read) and Engine.IO closes the session (Socket.IO's disconnect follows)."""
    ws = getattr(eio_socket, "tongiaki_ws", None)
    if ws is not None:
        ws.abort()
    task = asyncio.ensure_future(eio_socket.close(wait=False, abort=True))
    task.add_done_callback(lambda t: t.cancelled() or t.exception())  # errors of a dying socket: none to report


class Malformed:
    """The cost of malformed frames: each is counted against its Engine.IO socket and logged in one line
    (no traceback: it is the client's fault, not the server's) within `budget`, the per-address log
    budget the namespace shares; the socket is closed at the `limit`-th. Engine.IO itself logged a
    491-byte traceback for a frame of an unknown packet type, outside any budget: 3 s of such frames
    wrote 46.6 MB of log."""

    def __init__(self, budget: LogBudget, limit: int = MALFORMED_FRAMES,
                 closed: Callable[[], None] = lambda: None) -> None:
        self.budget, self.limit, self.closed = budget, limit, closed

    def frame(self, eio_socket: Any, what: str) -> None:
        """One malformed frame from `eio_socket`; `what` says why (never the frame itself, only its start)."""
        count = getattr(eio_socket, "tongiaki_malformed", 0) + 1
        eio_socket.tongiaki_malformed = count
        address = getattr(eio_socket, "tongiaki_address", "")
        closing = count >= self.limit and not (eio_socket.closed or eio_socket.closing)
        if self.budget.allow(address):
            log.info("a malformed frame from %s (session %s, %d so far)%s: %s", address, eio_socket.sid,
                     count, "; closing it" if closing else "", what[:120])
        if closing:
            self.closed()
            if getattr(eio_socket, "tongiaki_ws", None) is not None:
                _abort(eio_socket)
            else:   # long-polling: its next (or waiting) GET is told the session closed
                task = asyncio.ensure_future(eio_socket.close(wait=False, abort=False))
                task.add_done_callback(lambda t: t.cancelled() or t.exception())


def _start(data: Any) -> str:
    """The first bytes of a frame, for a log line."""
    return repr(data[:24]) + ("..." if len(data) > 24 else "")


def count_malformed(sio: socketio.AsyncServer, malformed: Malformed) -> None:
    """Makes every frame of this server that does not decode a malformed frame of its socket
    (`Malformed`): Engine.IO's packets (in `Session`), Socket.IO's packets (wire.py notes each it could
    not decode, before the socket has connected to the namespace as after), and whatever else fails in
    Socket.IO's handling of a message."""
    sio.eio.tongiaki_malformed = malformed
    handle = sio.eio.handlers["message"]

    async def message(eio_sid: str, data: Any) -> Any:
        failures: list[str] = []
        noted = wire.FAILURES.set(failures)   # what wire.WirePacket could not decode in this message
        try:
            return await handle(eio_sid, data)
        except Exception as e:  # noqa: BLE001 - whatever the client sent, one counted line and no traceback
            failures.append(f"{type(e).__name__} {str(e)[:60]}")
            return None
        finally:
            wire.FAILURES.reset(noted)
            eio_socket = sio.eio.sockets.get(eio_sid) if failures else None
            for failure in failures if eio_socket is not None else ():
                malformed.frame(eio_socket, f"Socket.IO packet: {failure} in {_start(data)}")

    sio.eio.on("message", message)


def bound_send_queue(sio: socketio.AsyncServer, sid: str, limit: int, dropped: Callable[[], None],
                     byte_limit: int) -> None:
    """Bounds the send queue of the Engine.IO socket under Socket.IO session `sid` (packets and bytes).
    Works for both transports: an upgrade keeps the socket and its queue."""
    eio_sid = sio.manager.eio_sid_from_sid(sid, "/")
    eio_socket = sio.eio.sockets.get(eio_sid) if eio_sid else None
    if eio_socket is None or isinstance(eio_socket.queue, SendQueue):
        return

    socket_ref = weakref.ref(eio_socket)   # not the socket itself: the queue it holds would hold it (a cycle)

    def overflow() -> None:
        eio_socket = socket_ref()
        if eio_socket is None:
            return
        queue = eio_socket.queue
        log.info("dropping a slow reader: %d messages (%d bytes) wait for socket %s", queue.qsize(),
                 queue.queued_bytes, sid)
        dropped()
        _abort(eio_socket)

    SendQueue.bound(eio_socket.queue, limit, overflow, byte_limit)


def client_address(environ: dict[str, Any], forwarded_for: bool) -> str:
    """The client's address: the peer's, or behind our proxy (`forwarded_for`) the last address it
    added to X-Forwarded-For (earlier entries are whatever the client claimed). The peer's comes from
    the aiohttp request: Engine.IO's aiohttp driver writes REMOTE_ADDR as "127.0.0.1" for every
    request, which made every client one address to the per-address caps."""
    if forwarded_for:
        forwarded = str(environ.get("HTTP_X_FORWARDED_FOR", "")).rsplit(",", 1)[-1].strip()
        if forwarded:
            return forwarded[:64]
    request = environ.get("aiohttp.request")
    peer = request.remote if request is not None else environ.get("REMOTE_ADDR")
    return str(peer or "")[:64]


def cap_sessions(sio: socketio.AsyncServer, cap: int, forwarded_for: bool) -> dict[str, int]:
    """Caps Engine.IO sessions per client address at `cap` (refused with 401 beyond it): a client that
    opens transports without ever connecting to Socket.IO (or after being refused there) holds no more
    than that. Returns the live counts by address."""
    counts: dict[str, int] = {}
    by_session: dict[str, str] = {}
    connect, disconnect = sio.eio.handlers["connect"], sio.eio.handlers["disconnect"]

    async def capped_connect(eio_sid: str, environ: dict[str, Any]) -> Any:
        address = client_address(environ, forwarded_for)
        if cap and counts.get(address, 0) >= cap:
            return f"too_many_connections: at most {cap} at once from one address"
        counts[address] = counts.get(address, 0) + 1
        by_session[eio_sid] = address
        eio_socket = sio.eio.sockets.get(eio_sid)
        if eio_socket is not None:
            eio_socket.tongiaki_address = address   # for the log lines about it (`Malformed`)
        return await connect(eio_sid, environ)

    async def counted_disconnect(eio_sid: str, *args: Any) -> Any:
        address = by_session.pop(eio_sid, None)
        if address is not None:
            left = counts.get(address, 1) - 1
            if left > 0:
                counts[address] = left
            else:
                counts.pop(address, None)
        return await disconnect(eio_sid, *args)

    sio.eio.on("connect", capped_connect)
    sio.eio.on("disconnect", counted_disconnect)
    return counts


LINGER = 5.0
"""Seconds a closed session's websocket stays open for its client to close it (a goodbye in flight)."""


def release_closed(sio: socketio.AsyncServer, closed: Callable[[], None] | None = None) -> None:
    """Makes a closed Engine.IO session give back what it holds as soon as it closes. Engine.IO itself
    forgets a closed session only when its service task next walks past it (a cycle of ping_timeout
    seconds), and the session's ping task, asleep for ping_interval, keeps it alive until it wakes:
    meanwhile a dropped slow reader still held its unsent packets and its websocket's buffers, and a
    flood of short connections kept hundreds of dead sessions (bench.soak: +15 MB in 60 s from one
    address opening and dropping connections within its cap). `closed` is told of each closed session
    (what is left of it in reference cycles waits for a full collection: server/lobby/timers.py)."""
    connect, disconnect = sio.eio.handlers["connect"], sio.eio.handlers["disconnect"]

    async def tracked(eio_sid: str, *args: Any) -> Any:
        accepted = await connect(eio_sid, *args)
        eio_socket = sio.eio.sockets.get(eio_sid)
        if eio_socket is not None and (accepted is None or accepted is True):
            eio_socket.__class__ = Session   # (the same object, with the methods below)
        return accepted

    def forget(eio_sid: str, eio_socket: Any) -> None:
        if not eio_socket.closed:
            return
        if closed is not None:
            closed()
        ping = getattr(eio_socket, "tongiaki_ping", None)
        if ping is not None:
            ping.cancel()
            # the cancelled task's error holds the ping's frame, which holds the socket: a cycle that
            # only a full collection (rare by design: server/__main__.py) would free
            eio_socket.tongiaki_ping = None
        if getattr(eio_socket, "tongiaki_ws", None) is None:
            return   # long-polling: Engine.IO's close hands its last packets to the client's next poll
        if sio.eio.sockets.get(eio_sid) is eio_socket:
            del sio.eio.sockets[eio_sid]
        queue, stop = eio_socket.queue, False
        while not queue.empty():   # unsent packets: nobody will write them now (and a close that waits
            stop = queue.get_nowait() is None or stop   # for the queue to drain returns)
            queue.task_done()
        if stop:   # the writer's stop signal stays for the writer (its reader put it in)
            queue.put_nowait(None)
        ws, eio_socket.tongiaki_ws = eio_socket.tongiaki_ws, None   # the websocket, its request and buffers
        # Its read ends when the client closes the connection; a client that went silent (closed for a
        # ping timeout) is cut off a moment later, which ends the read (Session reads without a timeout).
        # A weak reference: a websocket whose read has ended is not kept for this
        asyncio.get_running_loop().call_later(LINGER, _cut, weakref.ref(ws))

    async def released(eio_sid: str, *args: Any) -> Any:
        eio_socket = sio.eio.sockets.get(eio_sid)
        try:
            return await disconnect(eio_sid, *args)
        finally:
            if eio_socket is not None:   # once Engine.IO's close() has marked it closed (it calls us first)
                asyncio.get_running_loop().call_soon(forget, eio_sid, eio_socket)

    sio.eio.on("connect", tracked)
    sio.eio.on("disconnect", released)


def _cut(ws: weakref.ref[Any]) -> None:
    """Aborts the connection of a closed session's websocket if its read still waits on it."""
    websocket = ws()
    if websocket is not None:
        websocket.abort()


def _unlink(error: BaseException | None) -> None:
    """Drops what a closed websocket's error holds: aiohttp keeps the error of its closing write on the
    websocket, and the error's traceback (and the end-of-stream error it was raised in) holds the frames
    that hold the websocket: a reference cycle, with the request and its buffers, that only a full
    collection would free."""
    while error is not None:
        error.__traceback__, error.__cause__, error = None, None, error.__context__


class Session(AsyncSocket):  # type: ignore[misc]
    """An accepted Engine.IO session (`release_closed` gives it this class), lighter on the event loop
    than Engine.IO's: its pending reads, writes and pings are most of the young objects the garbage
    collector walks at every collection (docs/deploy.md)."""

    tongiaki_ping: Any = None
    tongiaki_ws: Any = None
    tongiaki_writing = False   # the writer holds packets it has not written yet
    last_ping: float | None   # (Engine.IO's)
    connected: bool
    upgraded: bool

    def send_now(self, packets: list[Any]) -> None:
        """Sends these packets: written into the connection at once when nothing waits before them and
        it takes them without waiting (the common case: a broadcast then wakes no writer task, one per
        recipient, and costs no turn of the event loop), else queued for the writer, in order."""
        ws = self.tongiaki_ws
        if (not self.upgraded or self.tongiaki_writing or ws is None or not self.queue.empty()
                or not ws.write_now(packets)):
            for pkt in packets:
                self.queue.put_nowait(pkt)   # (the queue is unbounded or a SendQueue: it never waits)

    async def send(self, pkt: Any) -> None:
        """Engine.IO's (an ack, a ping, a packet to one socket), written at once when it can be
        (`send_now`)."""
        if await self.check_ping_timeout():
            self.send_now([pkt])

    def schedule_ping(self) -> None:
        """Engine.IO's, keeping the ping task so that closing can cancel it."""
        if self.last_ping:
            self.last_ping = None
            self.tongiaki_ping = self.server.start_background_task(self._send_ping)

    async def poll(self) -> list[Any]:
        """The packets waiting to be sent. A long-polling GET waits at most a ping period (Engine.IO's
        own); the websocket's writer waits without a timer, until a packet or the None its read loop
        puts in when it ends: Engine.IO's `wait_for` made a task and a timer at every wake-up, several
        for each move of a table."""
        if not self.upgraded:
            return await super().poll()  # type: ignore[no-any-return]
        packets = [await self.queue.get()]
        self.queue.task_done()
        if packets == [None]:
            return []
        while not self.queue.empty():
            pkt = self.queue.get_nowait()
            self.queue.task_done()
            if pkt is None:   # for the next call: the writer stops after sending these
                self.queue.put_nowait(None)
                break
            packets.append(pkt)
        return packets

    def _malformed(self, what: str) -> None:
        self.server.tongiaki_malformed.frame(self, what)

    async def receive(self, pkt: Any) -> None:
        """Engine.IO's, for the packet types a client sends; any other is a malformed frame (Engine.IO
        failed on a type it has no name for, "9" or "-1", with a traceback)."""
        if pkt.packet_type not in CLIENT_PACKETS:
            self._malformed(f"Engine.IO packet type {pkt.packet_type!r}")
            return
        await super().receive(pkt)

    def _decode(self, data: Any) -> Any:
        """The Engine.IO packet of one frame, or None for a malformed frame."""
        try:
            return eio_packet.Packet(encoded_packet=data)
        except Exception as e:  # noqa: BLE001 - a frame that does not decode (ValueError, IndexError, ...)
            self._malformed(f"{type(e).__name__} decoding {_start(data)}")
            return None

    async def handle_post_request(self, environ: dict[str, Any]) -> None:
        """A long-polling POST: Engine.IO's, with a body that does not decode (not UTF-8, a packet that
        does not decode, too many packets) a malformed frame instead of a traceback."""
        length = int(environ.get("CONTENT_LENGTH") or 0)   # (aiohttp checked the header)
        if length > self.server.max_http_buffer_size:
            raise exceptions.ContentTooLongError()
        body = await environ["wsgi.input"].read(length)
        try:
            packets = eio_payload.Payload(encoded_payload=body.decode("utf-8")).packets
        except Exception as e:  # noqa: BLE001 - whatever the client posted
            self._malformed(f"{type(e).__name__} decoding a POST of {_start(body)}")
            return
        for pkt in packets:
            await self.receive(pkt)

    async def _upgrade(self, ws: Any) -> bool:
        """Engine.IO's upgrade of a long-polling session to `ws` (a probe PING, our PONG, then UPGRADE),
        whose frames are decoded as any other: one that does not decode fails the upgrade, counted."""
        self.upgrading = True
        try:
            probe = self._decode(await ws.wait())
            if probe is None or probe.packet_type != eio_packet.PING or probe.data != "probe":
                return False
            await ws.send(eio_packet.Packet(eio_packet.PONG, data="probe").encode())
            await self.queue.put(eio_packet.Packet(eio_packet.NOOP))   # ends the waiting poll
            upgrade = self._decode(await ws.wait())
            if upgrade is None or upgrade.packet_type != eio_packet.UPGRADE:
                return False
        except OSError:   # the connection ended
            return False
        finally:
            self.upgrading = False
        self.upgraded = True
        return True

    async def _websocket_handler(self, ws: Any) -> None:
        """A session's websocket: Engine.IO's loop, reading each frame without the task and `wait_for`
        (a task, a timer) it wraps every read in. Its 50 s timeout is not needed: a client that stops
        answering pings is closed by Engine.IO, and closing aborts the connection (`release_closed`),
        which ends the read. A frame that does not decode is a malformed frame (`Malformed`)."""
        if self.connected:
            if not await self._upgrade(ws):
                return
        else:
            self.connected = self.upgraded = True
        limit = self.server.max_http_buffer_size

        async def writer() -> None:
            while packets := await self.poll():
                self.tongiaki_writing = True   # (taken from the queue: what comes now waits behind them)
                try:
                    for pkt in packets:
                        await ws.send(pkt.encode())
                except Exception:  # noqa: BLE001 - the connection went away: the read ends too
                    break
                finally:
                    self.tongiaki_writing = False
            await ws.close()

        writing = asyncio.ensure_future(writer())
        while True:
            try:
                data = await ws.wait()
            except Exception:  # noqa: BLE001 - the connection failed
                break
            if data is None or len(data) > limit:
                break
            pkt = self._decode(data)
            try:
                if pkt is not None:
                    await self.receive(pkt)
            except exceptions.SocketIsClosedError:
                break
            except Exception:
                if self.server.tongiaki_malformed.budget.allow(getattr(self, "tongiaki_address", "")):
                    log.exception("receiving a frame")
            if self.closed:   # closed for malformed frames (or by the client's CLOSE)
                break
            # a turn of the loop between frames, as Engine.IO's task per read gave: frames a client
            # sent in a burst are read without waiting, and their answers and broadcasts must reach
            # the writers in between (or one client's burst fills every other socket's queue)
            await asyncio.sleep(0)
        await self.queue.put(None)   # the writer stops after what waits
        await writing
        await self.close(wait=False, abort=True, reason=self.server.reason.TRANSPORT_CLOSE)


def polling_guard(sio: socketio.AsyncServer, limit: int) -> Any:
    """An aiohttp middleware for long-polling POSTs: one larger than `limit` bytes is answered 413 at once
    (Engine.IO itself would close the session and wait for its queue to drain, which a client that is
    not polling never lets happen: the POST was never answered), and one for a closed session that
    Engine.IO still holds (closed for malformed frames, or for a ping timeout, until the next GET) 400
    (Engine.IO raised a KeyError there, logged with a traceback by aiohttp)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        if request.method == "POST" and request.path.startswith("/socket.io/"):
            length = request.content_length
            if length is not None and length > limit:
                raise web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=length)
            eio_socket = sio.eio.sockets.get(request.query.get("sid", ""))
            if eio_socket is not None and eio_socket.closed:
                raise web.HTTPBadRequest(text="the session is closed")
        response: web.StreamResponse = await handler(request)
        return response

    return middleware


def install_websocket(sio: socketio.AsyncServer, deflate: bool, write_timeout: float = 10.0,
                      dropped: Callable[[], None] = lambda: None) -> Websockets:
    """Replaces this server's websocket class (the driver table is copied, never shared)."""
    tracked = Websockets()
    limit = sio.eio.max_http_buffer_size   # (engineio's driver keeps no `server` before 4.13.2: take it here)

    class TongiakiWebSocket(eio_aiohttp.WebSocket):  # type: ignore[misc]
        # Without deflate: our frames are small msgpack messages, and deflating each one costs more
        # CPU than the bytes it saves (measured by bench/load.py, see docs/protocol.md §10).
        transport: Any = None
        eio_socket: Any = None

        async def __call__(self, environ: dict[str, Any]) -> web.StreamResponse:
            request = environ["aiohttp.request"]
            self.transport = request.transport
            # aiohttp refuses a message of max_msg_size bytes or more; the limit itself is allowed
            self._sock = web.WebSocketResponse(max_msg_size=limit + 1,
                                               compress=deflate)
            try:
                await self._sock.prepare(request)
            except ConnectionError:   # the client left before the handshake's answer: nothing to log
                self.abort()
                session = getattr(self.handler, "__self__", None)   # its Engine.IO session goes now, not
                if session is not None:                              # at the ping timeout (it holds a place
                    await session.close(wait=False, abort=True)      # in the caps per address meanwhile)
                # not the half-prepared websocket: aiohttp's finish of it raised "Call .prepare() first",
                # a traceback in the log per abandoned handshake; a plain answer to the closed connection
                # ends quietly (its write meets the ConnectionError aiohttp expects)
                return web.Response(status=400, text="the connection closed during the handshake")
            self.environ = environ
            self.eio_socket = getattr(self.handler, "__self__", None)
            if self.eio_socket is not None:
                self.eio_socket.tongiaki_ws = self
            tracked.open.add(self._sock)
            try:
                await self.handler(self)
            finally:
                tracked.open.discard(self._sock)
                _unlink(self._sock.exception())
            return self._sock

        def abort(self) -> None:
            if self.transport is not None:
                self.transport.abort()

        def write_now(self, packets: list[Any]) -> bool:
            """Writes these Engine.IO packets into the connection now, if it takes them without waiting
            (its buffer empty, they fit under the high-water mark, no deflate); False: nothing written
            (and nothing encoded: the writer encodes what it sends)."""
            transport, sock = self.transport, self._sock
            if (deflate or transport is None or transport.is_closing() or sock is None or sock.closed
                    or transport.get_write_buffer_size()):
                return False
            frames = [ws_frame(pkt.encode()) for pkt in packets]
            if sum(map(len, frames)) > transport.get_write_buffer_limits()[1]:
                return False
            transport.writelines(frames)
            return True

        async def send(self, message: bytes | str) -> None:
            # a client that does not read makes the write wait for buffer space: not longer than this
            # (`timeout`, not `wait_for`: a write nearly always completes without waiting, and
            # `wait_for` made a task and two more loop turns for each one: ~7% of a loaded server's time).
            # Into an empty buffer, a frame under the high-water mark cannot wait (aiohttp waits only
            # while the transport is paused: from above the high mark until back at the low one, and
            # an empty buffer is below both): no timer for it, the common case by far
            transport = self.transport
            # aiohttp's own send: Engine.IO's asks `inspect.iscoroutinefunction` of it at every message
            send: Callable[[Any], Awaitable[None]] = (self._sock.send_bytes if isinstance(message, bytes)
                                                      else self._sock.send_str)
            if (not deflate and transport is not None and not transport.is_closing()
                    and transport.get_write_buffer_size() == 0
                    and len(message) <= transport.get_write_buffer_limits()[1]):
                await send(message)
                return
            try:
                async with asyncio.timeout(write_timeout):
                    await send(message)
            except TimeoutError:
                log.info("dropping a slow reader: a write waited %.1f s", write_timeout)
                dropped()
                if self.eio_socket is not None:
                    _abort(self.eio_socket)
                else:
                    self.abort()
                raise

        async def wait(self) -> bytes | str | None:
            # The end of the connection (closed, or an empty frame): Engine.IO's read loop stops on None
            # as on an OSError; but an error raised there is kept by its read task, and its traceback
            # holds the loop's frame, which holds that task: a reference cycle holding the whole
            # session, freed only by a full collection (docs/deploy.md). So None, once the websocket
            # carries the session; before that (an upgrade from long-polling) Engine.IO wants an error.
            try:
                data: bytes | str | None = await super().wait()
            except OSError:
                data = None
            if data:
                return data
            if self.eio_socket is None or not self.eio_socket.upgraded:
                raise OSError("the connection ended (closed, or an empty frame)")
            return None

    sio.eio._async = {**sio.eio._async, "websocket": TongiakiWebSocket}
    return tracked

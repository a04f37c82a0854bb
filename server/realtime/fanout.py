"""Broadcasts between processes through Redis pub/sub (python-socketio's Redis manager), with a quick way
back after a Redis outage: the listener retries every `RETRY_MAX` seconds at most (python-socketio's own
back-off doubles up to 60 s, so broadcasts resumed 11 s after Redis came back), and once it is
subscribed again every socket of this process is told `resync` (docs/protocol.md §6): broadcasts sent
while Redis was away were lost, and the client asks again for what it shows (lobby, room, chat, game).

What a process broadcasts goes out from one publisher task, in pipelines: an emit does not wait for
Redis's answer, and the messages of one turn of the event loop cost one round trip, not one each (in
order: one task sends them all). And the listener drops this process's own messages (it delivered them
when it sent them) before decoding them.

Delivery to this process's sockets (`deliver`) encodes an event once and writes it into each
recipient's connection at once (`Session.send_now`; into its send queue when something waits there);
python-socketio's own emit makes a task per recipient and waits for them all, which for the six sockets
of a table at every move was a good part of what a broadcast cost. Both managers deliver that way:
`Fanout` (several processes) and `LocalManager` (one).

Broadcasts are sharded by table: what goes to a table's Socket.IO rooms (`room_channel`, `person_channel`)
is published on that table's own channel, `{channel}:{room id}`, which a process subscribes to while it has
sockets in the table, and only then; the lobby, invitations, rematches and python-socketio's own messages
go on the common channel, which every process hears. So a process decodes the actions of its own tables
only, however many processes there are (docs/deploy.md, "Scaling")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

import redis.asyncio as aioredis
import socketio
from engineio import packet as eio_packet
from socketio import packet

from server.config import CLUSTER_SCHEME, cluster_nodes

log = logging.getLogger(__name__)

RETRY_FIRST = 0.1
RETRY_MAX = 1.0
"""Seconds between the listener's attempts while Redis is away: back within about a second of its return."""

PUBLISH_BATCH = 256
"""Messages in one pipeline at most."""

PUBLISH_BACKLOG = 10_000
"""Messages waiting for Redis at most (an outage): beyond, the oldest are dropped. Broadcasts lost in an
outage are made up for by `resync`, which the other processes' listeners send when they subscribe again."""


SUBSCRIBE_WITHIN = 2.0
"""Seconds a socket entering a table waits for its process to be subscribed to the table's channel (Redis
away: it goes on, and `resync` makes up for what it missed once Redis is back)."""


def room_channel(room_id: str) -> str:
    """The Socket.IO room that carries one table's stream."""
    return f"room:{room_id}"


def person_channel(room_id: str, person: str) -> str:
    """The Socket.IO room of one person's sockets in one table (their `legal` events)."""
    return f"room:{room_id}:{person}"


def table_of(sio_room: Any) -> str | None:
    """The table a Socket.IO room belongs to (`room_channel`, `person_channel`), or None (the lobby, a sid)."""
    if not isinstance(sio_room, str) or not sio_room.startswith("room:"):
        return None
    return sio_room[5:].split(":", 1)[0] or None


def arguments(data: Any) -> list[Any]:
    """An emit's data as the event's arguments (python-socketio's rule: a tuple is several, None none)."""
    return list(data) if isinstance(data, tuple) else [] if data is None else [data]


def deliver(manager: socketio.AsyncManager, event: str, args: list[Any], namespace: str | None,
            room: Any, skip_sid: Any) -> None:
    """Sends `event` to this process's sockets in `room` (a room, a sid, several, or None: everyone in
    the namespace) but `skip_sid`: encoded once, written to each socket at once, in order. What
    python-socketio's emit without a callback does, without its task per recipient. A socket closed
    meanwhile is skipped; one whose client stopped answering pings is sent to the slow way, which closes
    it."""
    if (namespace := namespace or "/") not in manager.rooms:
        return
    skip = skip_sid if isinstance(skip_sid, list) else [skip_sid]
    engine = manager.server.eio
    silent_since = time.time() - engine.ping_timeout   # a ping unanswered since before this: gone silent
    frames: list[Any] | None = None
    for sid, eio_sid in manager.get_participants(namespace, room):
        if sid in skip:
            continue
        if frames is None:   # encoded only if someone is here to get it
            encoded = manager.server.packet_class(packet.EVENT, namespace=namespace, data=[event, *args]).encode()
            frames = [eio_packet.Packet(eio_packet.MESSAGE, e)
                      for e in (encoded if isinstance(encoded, list) else [encoded])]
        socket = engine.sockets.get(eio_sid)
        if socket is None or socket.closed:
            continue
        if socket.last_ping and socket.last_ping < silent_since:
            for frame in frames:   # (Engine.IO's send notices the silence and closes the socket)
                task = asyncio.ensure_future(socket.send(frame))
                task.add_done_callback(lambda t: t.cancelled() or t.exception())
            continue
        send_now = getattr(socket, "send_now", None)   # (an accepted session: transport.Session)
        if send_now is not None:
            send_now(frames)
            continue
        for frame in frames:
            socket.queue.put_nowait(frame)   # (the queue is unbounded or a SendQueue: it never waits)


class RoomIndex:
    """The rooms of each socket, kept beside python-socketio's rooms (a mixin of both managers): its
    `basic_disconnect` and `get_rooms` look for a socket in every room of the namespace, and every socket
    has a room of its own, so a disconnect cost as much as the sockets connected and a replica losing
    all its sockets at once (a network blip, a shutdown) paid their square: 10,000 sockets took 5.6 s of
    the event loop (bench/disconnect.py). Here a disconnect leaves the socket's own rooms only."""

    rooms: dict[Any, dict[Any, Any]]
    callbacks: dict[str, Any]
    pending_connect: dict[str, list[str]]
    pending_disconnect: dict[str, list[str]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rooms_of: dict[tuple[str, str], set[Any]] = {}   # (namespace, sid) → its rooms (None: connected)

    def basic_enter_room(self, sid: str, namespace: str, room: Any, eio_sid: Any = None) -> None:
        super().basic_enter_room(sid, namespace, room, eio_sid)  # type: ignore[misc]
        self.rooms_of.setdefault((namespace, sid), set()).add(room)

    def basic_leave_room(self, sid: str, namespace: str, room: Any) -> None:
        super().basic_leave_room(sid, namespace, room)  # type: ignore[misc]
        mine = self.rooms_of.get((namespace, sid))
        if mine is not None:
            mine.discard(room)
            if not mine:
                del self.rooms_of[(namespace, sid)]

    def basic_disconnect(self, sid: str, namespace: str, **kwargs: Any) -> None:
        # python-socketio's, but leaving only the rooms the socket is in
        for room in list(self.rooms_of.get((namespace, sid), ())):
            self.basic_leave_room(sid, namespace, room)
        self.callbacks.pop(sid, None)
        for pending in (self.pending_connect, self.pending_disconnect):
            if sid in pending.get(namespace, ()):
                pending[namespace].remove(sid)
                if not pending[namespace]:
                    del pending[namespace]

    def get_rooms(self, sid: str, namespace: str) -> list[Any]:
        """The rooms the socket is in (not counting python-socketio's room of every connected socket)."""
        return [r for r in self.rooms_of.get((namespace, sid), ()) if r is not None]


class LocalManager(RoomIndex, socketio.AsyncManager):  # type: ignore[misc]
    """The client manager of a process alone (no Redis between processes): delivers at once (`deliver`)."""

    async def emit(self, event: str, data: Any, namespace: str | None, room: Any = None, skip_sid: Any = None,
                   callback: Any = None, to: Any = None, **kwargs: Any) -> None:
        if callback is not None:   # (not used here) a packet per recipient, each with its ack id
            await super().emit(event, data, namespace, room=room, skip_sid=skip_sid, callback=callback,
                               to=to, **kwargs)
            return
        deliver(self, event, arguments(data), namespace, to or room, skip_sid)


class Fanout(RoomIndex, socketio.AsyncRedisManager):  # type: ignore[misc]
    """The Redis manager with a short retry, a publisher that pipelines, and each time it subscribes again,
    `resync` sent to this process's sockets (`local_sids`: their ids; None: nobody is told)."""

    def __init__(self, url: str, channel: str, redis_options: dict[str, Any] | None = None, *,
                 local_sids: Callable[[], list[str]] | None = None) -> None:
        super().__init__(url, channel=channel, redis_options=redis_options)
        self.json = json   # (not every python-socketio takes it as an argument; initialize() below keeps it)
        self.local_sids = local_sids
        self._outgoing: deque[tuple[str, str]] = deque()   # (channel, message)
        self._queued = asyncio.Event()
        self._publisher: asyncio.Task[None] | None = None
        self._sending = self._failing = False
        self.dropped = 0   # messages lost (Redis away, or a full backlog)
        self._node = 0   # the cluster node tried next (`_redis_connect`)
        self.tables: dict[str, int] = {}   # table → its Socket.IO rooms with sockets here (subscribed while > 0)
        self._subscribed: set[str] = set()   # table channels the current connection is subscribed to
        self._confirmed: dict[str, asyncio.Future[None]] = {}   # channel → its subscription's confirmation
        self._prefix = (channel + ":").encode()
        self.heard = 0   # messages this process's listener took from Redis (others' broadcasts)
        # python-socketio ends the JSON of what this process sends with its host id (emit, disconnect,
        # room changes; a callback's ends with its arguments), and its listener ignores those of its own
        self._own = (', "host_id": ' + json.dumps(self.host_id) + "}").encode()

    async def resync(self, sids: list[str]) -> None:
        """Sends `resync` to each of these local sockets (locally, not through Redis): broadcasts may have
        been missed while Redis was away."""
        for sid in sids:
            try:
                await self.emit("resync", {"reason": "broadcasts may have been missed while Redis was away"},
                                namespace="/", room=sid, ignore_queue=True)
            except Exception:  # noqa: BLE001 - a socket that went away meanwhile
                continue

    def _redis_connect(self) -> None:
        """python-socketio's connection, or for a Redis Cluster (`redis+cluster://`) a plain client of one of
        its nodes, the next one at each new attempt: a cluster's pub/sub reaches every node, so any serves."""
        if not self.redis_url.startswith(CLUSTER_SCHEME):
            super()._redis_connect()
            return
        nodes = cluster_nodes(self.redis_url)
        host, port = nodes[self._node % len(nodes)]
        self._node += 1
        self.redis = aioredis.Redis(host=host, port=port, **self.redis_options)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.connected = True

    def _connect(self) -> None:
        """A new connection, whose pub/sub reports subscriptions (`enter_room` waits for them)."""
        self._redis_connect()
        self.pubsub = self.redis.pubsub()
        self._subscribed = set()

    def initialize(self) -> None:
        super().initialize()
        # python-socketio's initialize() swaps in Engine.IO's JSON module, which parses every integer of
        # every message in a Python function (a guard against huge numbers from clients): 2.7 times the
        # standard module's time on a table's message. These come from our own processes.
        self.json = json

    async def emit(self, event: str, data: Any, namespace: str | None = None, room: Any = None,
                   skip_sid: Any = None, callback: Any = None, to: Any = None, **kwargs: Any) -> None:
        room, namespace = to or room, namespace or "/"
        table = table_of(room)
        if callback is not None:   # (not used here) python-socketio's way, which routes the ack back
            await super().emit(event, data, namespace=namespace, room=room, skip_sid=skip_sid,
                               callback=callback, **kwargs)
            return
        if kwargs.get("ignore_queue"):
            deliver(self, event, arguments(data), namespace, room, skip_sid)
            return
        # python-socketio's message, which its listener (any version) reads; binary data (never sent by
        # this server) goes its way, which encodes the bytes for JSON
        message = {"method": "emit", "event": event, "data": list(data) if isinstance(data, tuple) else [data],
                   "binary": False, "namespace": namespace, "room": room, "skip_sid": skip_sid,
                   "callback": None, "host_id": self.host_id}
        try:
            text = self.json.dumps(message)
        except TypeError:
            await super().emit(event, data, namespace=namespace, room=room, skip_sid=skip_sid, **kwargs)
            return
        deliver(self, event, arguments(data), namespace, room, skip_sid)
        self._enqueue(text, self.channel if table is None else self.table_channel(table))

    def table_channel(self, table: str) -> str:
        """The pub/sub channel of one table's broadcasts."""
        return f"{self.channel}:{table}"

    # -- which tables this process hears --------------------------------------------------------------
    def basic_enter_room(self, sid: str, namespace: str, room: Any, eio_sid: Any = None) -> None:
        fresh = room not in self.rooms.get(namespace, {})
        super().basic_enter_room(sid, namespace, room, eio_sid)
        if fresh and (table := table_of(room)) is not None:
            self.tables[table] = self.tables.get(table, 0) + 1
            if self.tables[table] == 1:
                self._resubscribe_soon()

    def basic_leave_room(self, sid: str, namespace: str, room: Any) -> None:
        there = room in self.rooms.get(namespace, {})
        super().basic_leave_room(sid, namespace, room)
        if there and room not in self.rooms.get(namespace, {}) and (table := table_of(room)) is not None:
            self.tables[table] -= 1
            if self.tables[table] <= 0:
                del self.tables[table]
                self._resubscribe_soon()

    async def enter_room(self, sid: str, namespace: str, room: Any, eio_sid: Any = None) -> None:
        """Enters the room; a table's room once this process hears the table's channel (the caller reads
        the table's state next: a message published in between is then a duplicate, never a gap)."""
        self.basic_enter_room(sid, namespace, room, eio_sid)
        table = table_of(room)
        if table is None or self.redis is None:
            return
        await self._sync_subscriptions()
        waiter = self._confirmed.get(self.table_channel(table))
        if waiter is not None and not waiter.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(waiter), SUBSCRIBE_WITHIN)

    def _resubscribe_soon(self) -> None:
        if self.pubsub is not None:
            task = asyncio.ensure_future(self._sync_subscriptions())
            task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _sync_subscriptions(self) -> None:
        """Subscribes the current connection to the channels of the tables with sockets here, and
        unsubscribes it from the others."""
        pubsub = self.pubsub
        if pubsub is None or not pubsub.subscribed:
            return   # (the listener subscribes to them all when it connects)
        want = {self.table_channel(t) for t in self.tables}
        new, old = sorted(want - self._subscribed), sorted(self._subscribed - want)
        self._subscribed |= set(new)
        self._subscribed -= set(old)
        loop = asyncio.get_running_loop()
        for channel in new:
            self._confirmed.setdefault(channel, loop.create_future())
        try:
            if new:
                await pubsub.subscribe(*new)
            if old:
                for channel in old:
                    self._confirmed.pop(channel, None)
                await pubsub.unsubscribe(*old)
        except Exception:  # noqa: BLE001 - Redis away: the listener subscribes to them all when back
            self._subscribed -= set(new)

    async def _handle_emit(self, message: dict[str, Any]) -> None:
        """Another process's emit: delivered to the sockets here."""
        if message.get("callback") or message.get("binary"):
            await super()._handle_emit(message)
            return
        data = message["data"]
        if isinstance(data, list):   # as python-socketio unpacks it
            data = data[0] if len(data) == 1 else tuple(data)
        deliver(self, message["event"], arguments(data), message.get("namespace"), message.get("room"),
                message.get("skip_sid"))

    async def _publish(self, data: dict[str, Any]) -> None:
        self._enqueue(self.json.dumps(data))

    def _enqueue(self, text: str, channel: str | None = None) -> None:
        """`text` goes out with the publisher's next pipeline."""
        if len(self._outgoing) >= PUBLISH_BACKLOG:
            self._outgoing.popleft()
            self.dropped += 1
            if self.dropped % PUBLISH_BACKLOG == 1:
                log.warning("pub/sub: %d broadcasts waiting: Redis does not take them; the oldest are "
                            "dropped", PUBLISH_BACKLOG)
        self._outgoing.append((channel or self.channel, text))   # encoded now: it cannot change while it waits
        self._queued.set()
        if self._publisher is None or self._publisher.done():
            self._publisher = asyncio.ensure_future(self._send_queued())

    async def _send_queued(self) -> None:
        """The publisher: sends what waits, in order, a pipeline at a time."""
        while True:
            await self._queued.wait()
            self._queued.clear()
            while self._outgoing:
                batch = [self._outgoing.popleft() for _ in range(min(PUBLISH_BATCH, len(self._outgoing)))]
                self._sending = True
                try:
                    await self._send(batch)
                finally:
                    self._sending = False

    async def _send(self, batch: list[tuple[str, str]]) -> None:
        try:
            if self.redis is None:
                self._redis_connect()
            async with self.redis.pipeline(transaction=False) as pipe:
                for channel, message in batch:
                    pipe.publish(channel, message)
                await pipe.execute()   # (redis-py retries on a broken connection)
        except Exception as e:  # noqa: BLE001 - Redis is away: these are lost (resync makes up for them)
            self.dropped += len(batch)
            if not self._failing:   # once an outage, not for each batch
                log.warning("pub/sub: broadcasts not sent (%s)", str(e)[:200])
                self._failing = True
            return
        if self._failing:
            log.warning("pub/sub: broadcasts go out again; %d lost since the process started", self.dropped)
            self._failing = False

    async def _redis_listen_with_retries(self) -> AsyncIterator[Any]:
        retry = RETRY_FIRST
        subscribed = False
        lost = False
        while True:
            try:
                if not subscribed:
                    await self._drop_connections()   # the broken ones are closed, not left to the GC
                    self._connect()
                    tables = {self.table_channel(t) for t in self.tables}
                    await self.pubsub.subscribe(self.channel, *sorted(tables))
                    self._subscribed = tables
                    subscribed = True
                    retry = RETRY_FIRST
                    if lost:
                        lost = False
                        log.warning("pub/sub: subscribed again; telling this process's sockets to resync")
                        if self.local_sids is not None:
                            task = asyncio.ensure_future(self.resync(self.local_sids()))
                            task.add_done_callback(lambda t: t.cancelled() or t.exception())
                async for message in self.pubsub.listen():
                    kind = message.get("type")
                    if kind == "subscribe":   # a table's channel is heard from now on (`enter_room`)
                        waiter = self._confirmed.pop(text_of(message.get("channel")), None)
                        if waiter is not None and not waiter.done():
                            waiter.set_result(None)
                        continue
                    if kind != "message":
                        continue
                    data = message.get("data")
                    if isinstance(data, bytes) and data.endswith(self._own):
                        continue   # this process's own: delivered here when it was sent
                    self.heard += 1
                    yield message
            except Exception as e:  # noqa: BLE001 - any failure of the listener: Redis is away
                if not lost:
                    log.warning("pub/sub: lost Redis (%s); retrying every %.1f s at most", str(e)[:200], RETRY_MAX)
                lost = True
                subscribed = False
                await asyncio.sleep(retry)
                retry = min(RETRY_MAX, retry * 2)


    async def _listen(self) -> AsyncIterator[Any]:
        """The messages of the common channel and of the tables' channels (python-socketio's takes only
        the common one's)."""
        async for message in self._redis_listen_with_retries():
            if "data" in message:
                yield message["data"]

    async def _drop_connections(self) -> None:
        for client in (self.pubsub, self.redis):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()

    async def aclose(self) -> None:
        """Sends what waits to be published, stops the listener and closes its connections (at shutdown)."""
        if self._publisher is not None:
            while (self._outgoing or self._sending) and not self._publisher.done():
                await asyncio.sleep(0.01)   # (the caller bounds the wait)
            self._publisher.cancel()
            with contextlib.suppress(BaseException):
                await self._publisher
        listener = getattr(self, "thread", None)   # python-socketio's name for the listener task
        if isinstance(listener, asyncio.Task) and not listener.done():
            listener.cancel()
            with contextlib.suppress(BaseException):
                await listener
        await self._drop_connections()


def text_of(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)

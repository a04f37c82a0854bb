"""The Socket.IO namespace: identity, payload validation, rate limits, and the mapping of events to the
lobby and the game authority (docs/protocol.md). Handlers are thin: they parse the request into a typed
value (requests.py) and translate rejections into acks."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import socketio

from server.config import Config
from server.lobby import WAITING, Authority, Lobby, Person, Rejected, Settings, Store
from server.lobby.rematch import rematch
from server.lobby.store.keys import StoreUnavailable
from server.logs import LogBudget
from server.metrics import Metrics
from server.realtime import validate
from server.realtime.fanout import person_channel, room_channel
from server.realtime.requests import (
    Act,
    BotLevel,
    Chat,
    Join,
    Payload,
    ReportSeen,
    SeatChange,
    SetName,
    Since,
    Start,
    Withdraw,
    room_of,
)
from server.realtime.transport import bound_send_queue, client_address
from server.realtime.wire import MALFORMED, RESERVED
from server.tutorial import Tutorials

log = logging.getLogger(__name__)

PROTOCOL = 2
LOBBY = "lobby"
LEAVE_RETRY = 1.0
"""Seconds between two tries of the room leaves of sockets that closed while Redis was away."""


@dataclass
class Connection:
    """What this process knows about one socket."""

    person: Person
    token: str
    tokens: float
    refilled: float
    address: str = ""
    rooms: set[str] = field(default_factory=set)
    kept: bool = False   # the session was used (a seat, a name): it lives SESSION_TTL, not the short TTL


class SocketOutbox:
    """The lobby's Outbox: one emit per message to a Socket.IO room (encoded once, fanned out by the
    client manager to every process hearing the room; `local`: to this process's sockets alone, python-
    socketio's `ignore_queue`)."""

    def __init__(self, sio: socketio.AsyncServer) -> None:
        self.sio = sio

    async def room_changed(self, room_id: str, state: dict[str, Any]) -> None:
        await self.sio.emit("room", state, room=room_channel(room_id))

    async def game_message(self, room_id: str, message: dict[str, Any], *, local: bool = False) -> None:
        await self.sio.emit("game", message, room=room_channel(room_id), ignore_queue=local)

    async def legal(self, room_id: str, person: str, payload: dict[str, Any], *, local: bool = False) -> None:
        await self.sio.emit("legal", payload, room=person_channel(room_id, person), ignore_queue=local)

    async def lobby_changed(self, update: dict[str, Any]) -> None:
        await self.sio.emit("lobby", update, room=LOBBY)

    async def chat_line(self, room_id: str, payload: dict[str, Any]) -> None:
        await self.sio.emit("chat", payload, room=room_channel(room_id))


@dataclass(frozen=True)
class Call:
    """One request being handled: the socket, what this process knows of it, and when it arrived."""

    sid: str
    conn: Connection
    arrived: float


Handler = Callable[[Call, Payload], Awaitable[dict[str, Any]]]


class TableNamespace(socketio.AsyncNamespace):  # type: ignore[misc]
    """Every client event of protocol version 2."""

    def __init__(self, lobby: Lobby, authority: Authority, *, store: Store, config: Config,
                 metrics: Metrics, log_budget: LogBudget | None = None) -> None:
        super().__init__("/")
        self.lobby = lobby
        self.authority = authority
        self.store = store
        self.config = config
        self.metrics = metrics
        self.connections: dict[str, Connection] = {}
        self.per_address: dict[str, int] = {}   # open sockets by client address (this process)
        # log lines about one client address, bounded (shared with the transport's: app.py)
        self.log_budget = log_budget or LogBudget()
        # what shutdown waits for: each request being handled (a future its handler completes: handlers run
        # on their socket's reader, whose task outlives them, server/app.py) and each session greeting
        self.inflight: set[asyncio.Future[Any]] = set()
        self.closing = False
        self.handlers: dict[str, Handler] = {
            "set_name": self.set_name, "lobby_watch": self.lobby_watch, "lobby_unwatch": self.lobby_unwatch,
            "room_create": self.room_create, "room_join": self.room_join, "room_leave": self.room_leave,
            "sit": self.sit, "stand": self.stand, "bot_add": self.bot_add, "bot_remove": self.bot_remove,
            "bot_level": self.bot_level,
            "kick": self.kick,
            "room_start": self.room_start, "act": self.act, "withdraw": self.withdraw, "since": self.since,
            "report_seen": self.report_seen, "chat": self.chat,
            "rematch": self.rematch, "tutorial_start": self.tutorial_start, "tutorial_act": self.tutorial_act,
        }
        self.unfinished_leaves: dict[tuple[str, str], Connection] = {}   # (room, sid): left in an outage
        self._leaver: asyncio.Task[None] | None = None
        self.tutorials = Tutorials(store.redis, store.prefix)

    # -- connection and identity -------------------------------------------------------------------
    def client_address(self, environ: dict[str, Any]) -> str:
        """The client's address (transport.client_address, with this configuration)."""
        return client_address(environ, self.config.forwarded_for)

    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        if sid in self.connections:  # Socket.IO calls this once per session; never a second identity
            raise socketio.exceptions.ConnectionRefusedError("already connected")
        if self.closing:
            self.metrics.refused_connection("shutting_down")
            raise socketio.exceptions.ConnectionRefusedError("shutting down")
        auth = auth if isinstance(auth, dict) else {}
        if auth.get("protocol", PROTOCOL) != PROTOCOL:
            # a page loaded before the server was updated: it must reload to get a client of this version
            self.metrics.refused_connection("protocol")
            raise socketio.exceptions.ConnectionRefusedError(
                f"protocol: server speaks {PROTOCOL}, not {str(auth.get('protocol'))[:16]}; reload the page")
        address = self.client_address(environ)
        cap = self.config.connections_per_address
        if cap and self.per_address.get(address, 0) >= cap:
            self.metrics.refused_connection("per_address")
            raise socketio.exceptions.ConnectionRefusedError(
                f"too_many_connections: at most {cap} at once from one address")
        # the place is taken before the first await: connections arriving together cannot all pass
        self.per_address[address] = self.per_address.get(address, 0) + 1
        try:
            session = await self._identify(sid, auth, address)
        except StoreUnavailable:
            self._release_address(address)
            self.metrics.refused_connection("unavailable")
            raise socketio.exceptions.ConnectionRefusedError(
                "unavailable: the service cannot reach its storage; retry in a few seconds") from None
        except Rejected as e:
            self._release_address(address)
            self.metrics.refused_connection(e.code)
            raise socketio.exceptions.ConnectionRefusedError(f"{e.code}: {e.message}") from None
        except BaseException:
            self._release_address(address)
            raise
        # sent after the CONNECT packet: the handler must return first
        task = asyncio.ensure_future(self.emit("session", session, to=sid))
        self.inflight.add(task)
        task.add_done_callback(self.inflight.discard)

    async def _identify(self, sid: str, auth: dict[str, Any], address: str) -> dict[str, Any]:
        """The person behind a new socket (from its token, else a new one), registered on this process."""
        claimed = auth.get("token")
        ttl, fresh = self.config.session_ttl, self.config.fresh_session_ttl
        token = claimed if isinstance(claimed, str) and 8 <= len(claimed) <= 64 else ""
        known = await self.store.people.session(token, ttl=ttl, fresh_ttl=fresh) if token else None
        if known is None:
            cap = self.config.new_people_per_minute
            if cap and await self.store.people.count_new_person(address, 60.0) > cap:
                raise Rejected("too_many_people", f"at most {cap} new people a minute from one address; "
                                                  "retry in a minute, or connect with your token")
            token = secrets.token_urlsafe(24)
            person_id, name, kept = "p_" + secrets.token_urlsafe(9), f"Guest-{secrets.token_hex(2)}", False
        else:
            person_id, name, kept = known
        if auth.get("name") is not None:
            # a bad name in auth is not worth refusing the connection: keep the stored one
            with contextlib.suppress(Rejected):
                name = validate.text(auth, "name", 24)
        # a session lives long only once used (a seat, a name): until then a short TTL, so connections
        # without a token cost Redis minutes, not a month
        await self.store.people.save_session(token, person=person_id, name=name, ttl=ttl if kept else fresh,
                                             kept=kept)
        seats = []
        for room in await self.store.rooms.many(await self.store.rooms.seated(person_id)):
            if room is not None and room.status != "finished":
                seats += [{"room": room.id, "seat": i} for i in room.seats_of(person_id)]
        self.connections[sid] = Connection(Person(person_id, name, address), token, self.config.burst,
                                           time.monotonic(), address, kept=kept)
        self.metrics.sockets += 1
        bound_send_queue(self.server, sid, self.config.send_queue, self.metrics.dropped_slow_socket,
                         self.config.send_bytes)
        return {"protocol": PROTOCOL, "token": token, "person": person_id, "name": name,
                "resumed": known is not None, "seats": seats,
                **({"route": "room"} if self.config.route_by_room else {})}

    def _release_address(self, address: str) -> None:
        left = self.per_address.get(address, 1) - 1
        if left > 0:
            self.per_address[address] = left
        else:
            self.per_address.pop(address, None)

    async def on_disconnect(self, sid: str, reason: Any = None) -> None:
        conn = self.connections.pop(sid, None)
        if conn is None:
            return
        self.metrics.sockets -= 1
        self._release_address(conn.address)
        if self.closing:
            # the whole process is going: its presence records die with its heartbeat, no need to
            # unwatch socket by socket (the other processes see the seats disconnected)
            return
        for room_id in conn.rooms:
            await self._leave_closed(conn, room_id, sid)

    async def _leave_closed(self, conn: Connection, room_id: str, sid: str) -> None:
        """A closed socket leaves a room. In a Redis outage that waits until Redis is back (`_retry_leaves`):
        its presence record would otherwise hold its person's seat, and list the room, for ever."""
        try:
            await self.lobby.leave(conn.person, room_id, sid, explicit=False)
        except StoreUnavailable:
            self.unfinished_leaves[(room_id, sid)] = conn
            if self._leaver is None or self._leaver.done():
                self._leaver = asyncio.ensure_future(self._retry_leaves())
        except Exception:
            if self.log_budget.allow(conn.address):
                log.exception("leaving %s on disconnect", room_id)

    async def _retry_leaves(self) -> None:
        """Every second, the leaves a Redis outage held up, until none is left."""
        while self.unfinished_leaves and not self.closing:
            await asyncio.sleep(LEAVE_RETRY)
            for (room_id, sid), conn in list(self.unfinished_leaves.items()):
                try:
                    await self.lobby.leave(conn.person, room_id, sid, explicit=False)
                except StoreUnavailable:
                    break   # still away: all of them next time
                except Exception:
                    if self.log_budget.allow(conn.address):
                        log.exception("leaving %s on disconnect", room_id)
                self.unfinished_leaves.pop((room_id, sid), None)

    # -- dispatch ----------------------------------------------------------------------------------
    async def trigger_event(self, event: str, *args: Any) -> Any:
        if event in ("connect", "disconnect"):
            return await super().trigger_event(event, *args)
        sid, rest = args[0], args[1:]
        handled: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inflight.add(handled)
        arrived = time.monotonic()
        self.metrics.request()
        try:
            conn = self.connections.get(sid)
            if conn is None:
                raise Rejected("internal", "this connection is closing")
            if event == MALFORMED:   # (and counted against its socket: transport.count_malformed)
                raise Rejected("malformed", "the frame is not a msgpack Socket.IO packet")
            self._rate(conn, arrived)
            if event == RESERVED:
                raise Rejected("reserved_event", f"{str(rest[0] if rest else '')[:40]!r} is Socket.IO's own "
                                                 "event name; clients may not send it")
            handler = self.handlers.get(event) if isinstance(event, str) else None
            if handler is None:
                raise Rejected("unknown_event", f"no event {str(event)[:40]!r} in protocol {PROTOCOL}")
            data = validate.payload(rest)
            return {"ok": True, **await handler(Call(sid, conn, arrived), data)}
        except StoreUnavailable:
            # an outage of Redis, not a fault: said plainly, once per outage in the log (the timer loop)
            self.metrics.refused_request("unavailable")
            return {"ok": False, "error": {"code": "unavailable", "message": "the service cannot reach its "
                                           "storage; retry in a few seconds (nothing may have changed)"}}
        except Rejected as e:
            if event in ("act", "withdraw"):
                self.metrics.rejected(e.code)
            self.metrics.refused_request(e.code)
            return {"ok": False, "error": e.to_wire()}
        except Exception:
            if sid not in self.connections:   # the socket left while its request was handled: nobody to tell
                return {"ok": False, "error": {"code": "internal", "message": "this connection is closing"}}
            self.metrics.refused_request("internal")
            conn = self.connections.get(sid)
            # a fault is logged, but only a few lines a minute per client address: what one client
            # sends cannot grow the log without bound
            if self.log_budget.allow(conn.address if conn else sid):
                log.exception("handling %r", str(event)[:40])
            return {"ok": False, "error": {"code": "internal", "message": "server fault; nothing changed"}}
        finally:
            handled.set_result(None)
            self.inflight.discard(handled)

    def _rate(self, conn: Connection, now: float) -> None:
        """A token bucket per connection: `rate` per second on average, `burst` at once."""
        conn.tokens = min(self.config.burst, conn.tokens + (now - conn.refilled) * self.config.rate)
        conn.refilled = now
        if conn.tokens < 1:
            raise Rejected("rate_limited", "too many requests; slow down")
        conn.tokens -= 1

    @staticmethod
    def _joined(call: Call, data: Payload) -> str:
        """The room a request names, which the socket must have joined."""
        room_id = room_of(data)
        if room_id not in call.conn.rooms:
            raise Rejected("not_in_room", "join the room first (room_join)")
        return room_id

    # -- handlers ----------------------------------------------------------------------------------
    async def set_name(self, call: Call, data: Payload) -> dict[str, Any]:
        name = SetName.from_wire(data).name
        conn = call.conn
        # unique within every table this person sits at or has joined (another player's or a bot's
        # name would let them pass for that seat in chat)
        tables = set(conn.rooms) | set(await self.store.rooms.seated(conn.person.id))
        for room in await self.store.rooms.many(sorted(tables)):
            if room is not None and room.name_taken(name, conn.person.id):
                raise Rejected("name_taken", f"someone at table {room.settings.name!r} is already called {name!r}")
        await self.store.people.save_session(conn.token, person=conn.person.id, name=name,
                                             ttl=self.config.session_ttl, kept=True)
        for other in self.connections.values():
            if other.person.id == conn.person.id:
                other.person = replace(other.person, name=name)
                other.kept = other.kept or other.token == conn.token
        return {"name": name}

    async def _keep(self, conn: Connection) -> None:
        """The session was used (a seat, a room): from now on it lives `session_ttl` after its last use."""
        if not conn.kept:
            await self.store.people.save_session(conn.token, person=conn.person.id, name=conn.person.name,
                                                 ttl=self.config.session_ttl, kept=True)
            for other in self.connections.values():
                other.kept = other.kept or other.token == conn.token

    async def lobby_watch(self, call: Call, data: Payload) -> dict[str, Any]:
        await self.enter_room(call.sid, LOBBY)
        return {"rooms": await self.lobby.listing()}

    async def lobby_unwatch(self, call: Call, data: Payload) -> dict[str, Any]:
        await self.leave_room(call.sid, LOBBY)
        return {}

    async def room_create(self, call: Call, data: Payload) -> dict[str, Any]:
        state = await self.lobby.create(call.conn.person, Settings.from_wire(data, self.lobby.modes), call.sid)
        await self._keep(call.conn)   # a room made (not one refused): the session is used
        room = await self.lobby.room(state["id"])
        await self._enter(call, room.id)
        _room, joined = await self.lobby.join(call.conn.person, room, call.sid)
        await self._left_meanwhile(call, room.id)
        return {"room": joined}

    async def room_join(self, call: Call, data: Payload) -> dict[str, Any]:
        request = Join.from_wire(data)
        if request.code is not None:
            room = await self.lobby.by_code(request.code)
        else:
            assert request.room is not None
            room = await self.lobby.room(request.room)
        # enter the stream before reading the snapshot: a message in between is a duplicate, never a gap
        await self._enter(call, room.id)
        person = call.conn.person
        room, state = await self.lobby.join(person, room, call.sid)
        await self._left_meanwhile(call, room.id)
        game = None if room.status == WAITING else await self.authority.catch_up(room.id, request.since,
                                                                                  person.id)
        return {"room": state, "game": game, "chat": await self.lobby.chat_lines(room.id)}

    async def _enter(self, call: Call, room_id: str) -> None:
        """The socket enters the table's stream. One closed meanwhile enters nothing (python-socketio
        refuses a sid it no longer has), and `_left_meanwhile` then takes it out of the room."""
        try:
            await self.enter_room(call.sid, room_channel(room_id))
            await self.enter_room(call.sid, person_channel(room_id, call.conn.person.id))
        except (KeyError, ValueError):
            if self.connections.get(call.sid) is call.conn:
                raise
        call.conn.rooms.add(room_id)

    async def _left_meanwhile(self, call: Call, room_id: str) -> None:
        """A socket that closed while it was joining a room (its disconnect ran before the join was
        stored) leaves it now: else its presence record would hold its seat, and list the room, for ever."""
        if self.connections.get(call.sid) is not call.conn:
            await self._leave_closed(call.conn, room_id, call.sid)

    async def room_leave(self, call: Call, data: Payload) -> dict[str, Any]:
        room_id = self._joined(call, data)
        conn = call.conn
        await self.leave_room(call.sid, room_channel(room_id))
        await self.leave_room(call.sid, person_channel(room_id, conn.person.id))
        conn.rooms.discard(room_id)
        await self.lobby.leave(conn.person, room_id, call.sid, explicit=True)
        return {}

    async def sit(self, call: Call, data: Payload) -> dict[str, Any]:
        request = SeatChange.from_wire(self._joined(call, data), data)
        state = await self.lobby.sit(call.conn.person, request.room, request.seat)
        await self._keep(call.conn)
        return {"room": state}

    async def stand(self, call: Call, data: Payload) -> dict[str, Any]:
        request = SeatChange.from_wire(self._joined(call, data), data)
        return {"room": await self.lobby.stand(call.conn.person, request.room, request.seat)}

    async def bot_add(self, call: Call, data: Payload) -> dict[str, Any]:
        request = BotLevel.from_wire(self._joined(call, data), data)
        return {"room": await self.lobby.add_bot(call.conn.person, request.room, request.seat, request.level)}

    async def bot_level(self, call: Call, data: Payload) -> dict[str, Any]:
        request = BotLevel.from_wire(self._joined(call, data), data, required=True)
        assert request.level is not None
        return {"room": await self.lobby.set_bot_level(call.conn.person, request.room, request.seat, request.level)}

    async def bot_remove(self, call: Call, data: Payload) -> dict[str, Any]:
        request = SeatChange.from_wire(self._joined(call, data), data)
        return {"room": await self.lobby.remove_bot(call.conn.person, request.room, request.seat)}

    async def kick(self, call: Call, data: Payload) -> dict[str, Any]:
        request = SeatChange.from_wire(self._joined(call, data), data)
        return {"room": await self.lobby.kick(call.conn.person, request.room, request.seat)}

    async def room_start(self, call: Call, data: Payload) -> dict[str, Any]:
        request = Start.from_wire(self._joined(call, data), data)
        return await self.authority.start(call.conn.person, request.room, request.fill_with_bots)

    async def rematch(self, call: Call, data: Payload) -> dict[str, Any]:
        answer = await rematch(self.lobby, call.conn.person, room_of(data))
        await self._keep(call.conn)
        return answer

    async def tutorial_start(self, call: Call, data: Payload) -> dict[str, Any]:
        return await self.tutorials.start(call.conn.person.id, data.get("lesson"))

    async def tutorial_act(self, call: Call, data: Payload) -> dict[str, Any]:
        return await self.tutorials.act(call.conn.person.id, data.get("lesson"), data.get("action"))

    async def act(self, call: Call, data: Payload) -> dict[str, Any]:
        request = Act.from_wire(self._joined(call, data), data)
        return {"v": await self.authority.act(call.conn.person, request.room, request.v, request.action,
                                              call.arrived, request.colour)}

    async def withdraw(self, call: Call, data: Payload) -> dict[str, Any]:
        request = Withdraw.from_wire(self._joined(call, data), data)
        return {"v": await self.authority.withdraw(call.conn.person, request.room, call.arrived, request.colour)}

    async def report_seen(self, call: Call, data: Payload) -> dict[str, Any]:
        request = ReportSeen.from_wire(self._joined(call, data), data)
        return {"started": await self.authority.report_seen(call.conn.person, request.room, request.turn)}

    async def since(self, call: Call, data: Payload) -> dict[str, Any]:
        request = Since.from_wire(self._joined(call, data), data)
        answer = await self.authority.catch_up(request.room, request.v, call.conn.person.id)
        return {**answer, "chat": await self.lobby.chat_lines(request.room)}

    async def chat(self, call: Call, data: Payload) -> dict[str, Any]:
        request = Chat.from_wire(self._joined(call, data), data)
        # limited per person (in Redis), not per socket: more sockets do not mean more lines
        await self.lobby.chat(call.conn.person, request.room, request.text, self.config.chat_lines,
                              self.config.chat_window)
        return {}

    # -- shutdown ----------------------------------------------------------------------------------
    async def close(self, timeout: float = 5.0) -> None:
        """Graceful shutdown: refuse new connections, finish in-flight requests, close every socket."""
        self.closing = True
        if self._leaver is not None:
            self._leaver.cancel()
        pending = [f for f in self.inflight if not f.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)
        for sid in list(self.connections):
            await self.disconnect(sid)

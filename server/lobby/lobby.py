"""The lobby service: rooms, seats, the lifecycle of a game, bots, grace periods and the turn clock.

It knows nothing of Socket.IO: whatever must reach clients goes through an `Outbox`. Every change goes
through the Store, so any number of server processes can serve the same rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from server.lobby import patch
from server.lobby.errors import Rejected
from server.lobby.rooms import FINISHED, PLAYING, WAITING, Room
from server.lobby.settings import Settings
from server.lobby.store import Store, StoreUnavailable, pack, unpack
from server.metrics import Metrics

if TYPE_CHECKING:
    from server.game import Game

log = logging.getLogger(__name__)

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


@dataclass(frozen=True)
class Person:
    """Who sent a request: the public id and display name behind a session token."""

    id: str
    name: str


class Outbox(Protocol):
    """Where the lobby sends what clients must see (the realtime layer implements it)."""

    async def room_changed(self, room_id: str, state: dict[str, Any]) -> None: ...
    async def game_message(self, room_id: str, message: dict[str, Any]) -> None: ...
    async def legal(self, room_id: str, person: str, payload: dict[str, Any]) -> None: ...
    async def lobby_changed(self, update: dict[str, Any]) -> None: ...
    async def chat_line(self, room_id: str, payload: dict[str, Any]) -> None: ...


@dataclass(frozen=True)
class Timings:
    """The lobby's knobs (from Config)."""

    tick: float = 0.05
    presence_ttl: float = 15.0
    finished_ttl: float = 3600.0
    waiting_ttl: float = 3 * 3600.0
    patch_log: int = 200
    chat_log: int = 50

    @property
    def ttls(self) -> dict[str, float]:
        return {"waiting": self.waiting_ttl, "finished": self.finished_ttl}


@dataclass
class Held:
    """A game as this process last stored (or read) it: version `v`, the colour to move, the engine state
    and the view as stored (msgpack bytes), and the room as stored (bytes, and parsed). Any process may
    change a room or its game: an action computed on a held game is stored only if the stored version is
    still `v` and the stored room still `room_raw` (Store.commit), so what is held need not be fresh, only
    exactly what it says. Kept as bytes, not as objects: a live game and view are ~600 objects that
    would sit in the young generation of the garbage collector until the room's next action, and each
    collection walks them all (200 rooms: 60+ ms pauses of the event loop, measured)."""

    v: int
    to_move: str | None
    state: bytes
    view: bytes
    room: Room
    room_raw: bytes


def _protocol_1(stored_patch: Any) -> bool:
    """A patch stored by protocol 1: a list of operations (`["set", path, value]`, ...)."""
    return isinstance(stored_patch, list) and bool(stored_patch) and isinstance(stored_patch[0], list)


def public_view(game: Game) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The view every player and spectator gets (docs/protocol.md §5), and apart from it the legal
    actions of the pending decision, which only the person deciding gets (the `legal` event)."""
    view = game.view()
    return view, view.pop("legal", [])


def pending_clock(room: Room, head: tuple[int, str | None, float] | None, now: float) -> dict[str, Any] | None:
    """The turn clock of the pending decision, for the room state (docs/protocol.md §4): its version, the
    colour to decide, the milliseconds left and the server's time in milliseconds, so that a client counts
    down from when it got this, whatever its own clock says. None without a clock, or when a bot decides."""
    clock = room.settings.clock
    if clock is None or head is None or head[1] is None or room.status != PLAYING:
        return None
    v, to_move, at = head[0], head[1], head[2]
    seat = room.seats[room.seat_of_colour(to_move)]
    if seat.kind != "human" or seat.autopilot:
        return None
    return {"v": v, "colour": to_move, "remaining_ms": max(0, round((at + clock - now) * 1000)),
            "server_ms": round(now * 1000)}


MIN_WAIT = 0.01
"""The timer loop's shortest sleep (seconds): it looks at most 100 times a second for due rooms."""

HELD_ROOMS = 4096
"""Games a process keeps in memory (least recently used go first); one is a few tens of KB."""


class Lobby:
    """Rooms and games for one server process (`proc` names it in presence records)."""

    def __init__(self, store: Store, outbox: Outbox, metrics: Metrics, timings: Timings, proc: str) -> None:
        self.store = store
        self.outbox = outbox
        self.metrics = metrics
        self.timings = timings
        self.proc = proc
        self._inflight: set[asyncio.Task[Any]] = set()
        self._held: OrderedDict[str, Held] = OrderedDict()
        self._sent: dict[str, int] = {}   # versions broadcast, not yet recorded in the store (run_timers)

    # -- reading -----------------------------------------------------------------------------------
    async def listing(self) -> list[dict[str, Any]]:
        """Open rooms and live games for the lobby list, newest first."""
        rooms = [r for r in await self.store.rooms(await self.store.listed()) if r is not None]
        present = await self.store.watchers_many([r.id for r in rooms], time.time() - self.timings.presence_ttl)
        return [room.summary(self._spectators(room, p)) for room, p in zip(rooms, present, strict=True)]

    async def rooms_by_status(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for room in await self.store.rooms(await self.store.all_rooms()):
            if room is not None:
                counts[room.status] = counts.get(room.status, 0) + 1
        return counts

    async def _present(self, room_id: str) -> dict[str, int]:
        return await self.store.watchers(room_id, time.time() - self.timings.presence_ttl)

    @staticmethod
    def _spectators(room: Room, present: dict[str, int]) -> int:
        return len(set(present) - room.humans())

    async def _room(self, room_id: Any) -> Room:
        if not isinstance(room_id, str) or len(room_id) > 64:
            raise Rejected("malformed", "room must be a room id string")
        room = await self.store.room(room_id)
        if room is None:
            raise Rejected("no_room", f"no room {room_id!r}")
        return room

    async def state(self, room: Room) -> dict[str, Any]:
        present = await self._present(room.id)
        head = await self.store.game_head(room.id) if room.status != WAITING else None
        state = room.to_wire(set(present), self._spectators(room, present), head[0] if head else None)
        state["clock"] = pending_clock(room, head, time.time())
        return state

    async def publish(self, room: Room) -> dict[str, Any]:
        """Sends the room's state to its watchers (and its summary to the lobby); returns the state."""
        present = await self._present(room.id)
        head = await self.store.game_head(room.id) if room.status != WAITING else None
        spectators = self._spectators(room, present)
        state = room.to_wire(set(present), spectators, head[0] if head else None)
        state["clock"] = pending_clock(room, head, time.time())
        await self.outbox.room_changed(room.id, state)
        if not room.settings.private:
            await self.outbox.lobby_changed({"op": "upsert", "room": room.summary(spectators)})
        return state

    async def _update(self, room_id: str, change: Any, game: dict[str, Any] | None = None) -> Room:
        room = await self.store.update_room(room_id, change, self.timings.ttls, game)
        if room is None:
            raise Rejected("no_room", f"no room {room_id!r}")
        return room

    # -- lobby and seats ---------------------------------------------------------------------------
    async def create(self, person: Person, settings: Settings) -> dict[str, Any]:
        """A new room; the creator is host and sits in seat 0."""
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
            room = Room.new("r_" + secrets.token_hex(4), code, person.id, person.name, settings, time.time())
            if await self.store.create_room(room, self.timings.waiting_ttl):
                break
        return await self.publish(room)

    async def _seat_change(self, room_id: Any, change: Any) -> dict[str, Any]:
        room = await self._room(room_id)
        room = await self._update(room.id, lambda r: change(r) or True)
        return await self.publish(room)

    async def sit(self, person: Person, room_id: Any, seat: Any) -> dict[str, Any]:
        return await self._seat_change(room_id, lambda r: r.sit(seat, person.id, person.name))

    async def stand(self, person: Person, room_id: Any, seat: Any) -> dict[str, Any]:
        return await self._seat_change(room_id, lambda r: r.stand(seat, person.id))

    async def add_bot(self, person: Person, room_id: Any, seat: Any) -> dict[str, Any]:
        return await self._seat_change(room_id, lambda r: r.add_bot(seat, person.id))

    async def remove_bot(self, person: Person, room_id: Any, seat: Any) -> dict[str, Any]:
        return await self._seat_change(room_id, lambda r: r.remove_bot(seat, person.id))

    async def resolve(self, room_id: Any = None, code: Any = None) -> Room:
        """The room named by id or by join code."""
        if code is not None:
            if not isinstance(code, str) or len(code) > 16:
                raise Rejected("malformed", "code must be a short string")
            found = await self.store.room_by_code(code.strip().upper())
            if found is None:
                raise Rejected("no_room", f"no room with code {code!r}")
            room_id = found
        return await self._room(room_id)

    async def join(self, person: Person, room: Room, sid: str, since: int | None) -> dict[str, Any]:
        """A socket joins the room's stream (as player or spectator); a returning player is back."""
        await self.store.watch(room.id, self.proc, sid, person.id)
        if room.status == PLAYING and person.id in room.humans():
            def back(r: Room) -> bool:
                changed = False
                for seat in r.seats:
                    if seat.person == person.id and (seat.away_since is not None or seat.autopilot):
                        seat.away_since, seat.autopilot = None, False
                        changed = True
                return changed
            room = await self._update(room.id, back)
        state = await self.publish(room)
        game = None if room.status == WAITING else await self.catch_up(room.id, since, person.id)
        return {"room": state, "game": game, "chat": await self.store.chat(room.id)}

    async def leave(self, person: Person, room_id: str, sid: str, explicit: bool) -> None:
        """A socket leaves the room's stream (room_leave, or its connection closed)."""
        await self.store.unwatch(room_id, self.proc, sid)
        room = await self.store.room(room_id)
        if room is None:
            return
        present = await self._present(room_id)
        if person.id not in present and person.id in room.humans():
            if room.status == WAITING and explicit:
                room = await self._update(room_id, lambda r: r.release(person.id))
            elif room.status == PLAYING:
                now = time.time()

                def away(r: Room) -> bool:
                    changed = False
                    for seat in r.seats:
                        if seat.person == person.id and seat.away_since is None:
                            seat.away_since = now
                            changed = True
                    return changed
                room = await self._update(room_id, away)
                await self.store.schedule(room_id, now + room.settings.grace, earlier_only=True)
        await self.publish(room)

    # -- the game ----------------------------------------------------------------------------------
    async def start(self, person: Person, room_id: Any, fill_with_bots: bool) -> dict[str, Any]:
        """Starts the game: the seed is drawn here from a cryptographic source and never leaves the server."""
        from server.game import Game

        room = await self._room(room_id)
        room.must_host(person.id)
        room.must_wait()
        if not fill_with_bots and any(s.kind == "empty" for s in room.seats):
            raise Rejected("seats_empty", "a seat is empty: fill it, or start with bots")
        settings = room.settings
        first = None if settings.first is None else settings.seat_colours(settings.first)[0]
        seed = secrets.randbits(63)  # R15: never leaves the server (only inside the stored state)
        game = Game.new(settings.colours(), seed=seed, variants=settings.variants, first=first)
        view, legal = public_view(game)
        message = {"room": room.id, "v": 0, "events": [], "patch": patch.diff(None, view)}
        state_raw, view_raw = game.to_bytes(), pack(view)
        record = {"v": 0, "sent": 0, "state": state_raw, "view": view_raw, "to_move": game.to_move or "",
                  "at": time.time(), "message": pack(message)}

        def begin(r: Room) -> bool:
            r.must_host(person.id)
            r.must_wait()
            if fill_with_bots:
                r.fill_with_bots()
            elif any(s.kind == "empty" for s in r.seats):
                raise Rejected("seats_empty", "a seat is empty: fill it, or start with bots")
            r.status = PLAYING
            return True
        room = await self._update(room.id, begin, game=record)
        self._hold(room.id, Held(0, game.to_move, state_raw, view_raw, room, pack(room.to_store())))
        await self.outbox.game_message(room.id, message)
        await self._send_legal(room, 0, game.to_move, legal)
        state = await self.publish(room)
        await self.store.schedule(room.id, time.time(), earlier_only=True)
        return {"room": state, "v": 0}

    async def act(self, person: Person, room_id: Any, v: Any, action: Any, arrived: float) -> int:
        """A person's action for their seat at version v; returns the new version."""
        if not isinstance(room_id, str) or len(room_id) > 64:
            raise Rejected("malformed", "room must be a room id string")
        held = self._take(room_id, v)
        if held is not None:
            # No read: checked against the room and game held at v; stored only if both are unchanged.
            # Anything else (a refusal, or the room or game moved on) is answered from the store below.
            with contextlib.suppress(Rejected):
                self._may_act(held.room, person, v, held.v, held.to_move)
                done = await self._apply(held, action, person.id, arrived)
                if done is not None:
                    return done[0]
        room, raw, record = await self.store.room_and_game(room_id)   # one round trip
        if room is None:
            raise Rejected("no_room", f"no room {room_id!r}")
        self._may_act(room, person, v, None if record is None else record["v"],
                      None if record is None else record["to_move"])
        assert record is not None
        done = await self._apply(self._load(room, raw, record), action, person.id, arrived)
        if done is None:
            raise Rejected("stale_version", "another action was applied first")
        return done[0]

    @staticmethod
    def _may_act(room: Room, person: Person, v: Any, stored: int | None, to_move: str | None) -> None:
        """The checks of docs/protocol.md §5, in its order."""
        if room.status != PLAYING:
            raise Rejected("not_playing", f"the room is {room.status}")
        mine = room.seats_of(person.id)
        if not mine:
            raise Rejected("not_seated", "spectators can only watch and chat")
        if stored is None or to_move is None:
            raise Rejected("not_playing", "the game is over")
        if v != stored:
            raise Rejected("stale_version", f"the game is at version {stored}, you sent {v}")
        if room.seat_of_colour(to_move) not in mine:
            raise Rejected("not_your_turn", f"{to_move} is to move")

    @staticmethod
    def _load(room: Room, raw: bytes, record: dict[str, Any]) -> Held:
        """The stored game, to play on."""
        return Held(record["v"], record["to_move"], record["state"], record["view"], room, raw)

    def _take(self, room_id: str, v: Any) -> Held | None:
        """The game held for the room if it is at version v (it leaves the cache: whoever takes it plays
        on it, and puts back what results)."""
        held = self._held.get(room_id)
        if held is None or held.v != v:
            return None
        del self._held[room_id]
        return held

    def _hold(self, room_id: str, held: Held) -> None:
        self._held[room_id] = held
        self._held.move_to_end(room_id)
        while len(self._held) > HELD_ROOMS:
            self._held.popitem(last=False)

    async def _apply(self, held: Held, action: Any, by: str, arrived: float,
                     game: Game | None = None, played_by: str | None = None) -> tuple[int, float | None] | None:
        """Applies the action to the held game (`game`: that game already built from its state), stores
        it, then broadcasts. Returns the new version and the room's next timer check (None when the game
        ended), or None when the stored game or room moved on meanwhile (nothing was stored)."""
        from server.game import Game, IllegalAction

        room = held.room
        game = game or Game.from_bytes(held.state)
        before = unpack(held.view)
        before.pop("legal", None)   # stored by protocol 1
        colour = game.to_move
        try:
            events = game.apply(action, colour=colour)
        except IllegalAction as e:
            raise Rejected("illegal_action", e.message, reason=e.code) from None
        after, legal = public_view(game)
        v = held.v + 1
        message = {"room": room.id, "v": v, "events": events, "patch": patch.diff(before, after)}
        if played_by is not None:   # the server decided for a seat: "bot", "autopilot" or "clock"
            message["by"] = played_by
        logged = {"v": v, "colour": colour, "action": action, "by": by}
        now = time.time()
        check = self._next_check(room, game.to_move, now, now) if game.to_move else None
        state, view = game.to_bytes(), pack(after)
        if not await self.store.commit(room.id, held.v, state, view, game.to_move, message, logged,
                                       self.timings.patch_log, check, held.room_raw):
            return None
        self._hold(room.id, Held(v, game.to_move, state, view, room, held.room_raw))
        # The move is stored: from here on a failure (say Redis going away) must not be answered as
        # "nothing changed". A message stored but not marked sent is resent by `advance` (`_resend`), and
        # clients heal gaps with `since`.
        try:
            await self.outbox.game_message(room.id, message)
            self.metrics.messages += 1
            self.metrics.accepted(time.monotonic() - arrived)
            await self._send_legal(room, v, game.to_move, legal)
            # marked sent only now: a process that dies before the legal actions went out leaves them
            # to `_resend`, or the person deciding would wait for them forever
            self._sent[room.id] = max(v, self._sent.get(room.id, 0))
            if game.to_move is None:
                await self._finish_room(room.id)
        except Exception:
            log.exception("room %s v%s is stored, but what follows it failed; it will be resent", room.id, v)
        return v, check

    async def _finish_room(self, room_id: str) -> None:
        """The game is over: the room is finished (viewable until it expires), nobody is away any more."""
        now = time.time()

        def finish(r: Room) -> bool:
            r.status, r.finished = FINISHED, now
            for seat in r.seats:
                seat.away_since, seat.autopilot = None, False
            return True
        self._held.pop(room_id, None)
        room = await self._update(room_id, finish)
        await self.store.unschedule(room_id)
        await self.publish(room)

    def _next_check(self, room: Room, to_move: str, at: float, now: float) -> float:
        """When the room's timers must next be looked at (at `now`; the pending decision began at `at`):
        a bot's or the clock's deadline, a grace period's end, and presence every `presence_ttl`."""
        seat = room.seats[room.seat_of_colour(to_move)]
        # presence within presence_ttl, at a random point of its second half: rooms started together (or
        # all of them after a restart) do not all come due in the same tick
        times = [now + self.timings.presence_ttl * random.uniform(0.5, 1.0)]
        if seat.kind == "bot" or seat.autopilot:
            times.append(at + room.settings.bot_pace)
        if room.settings.clock is not None:
            times.append(at + room.settings.clock)
        for s in room.seats:
            if s.away_since is not None and not s.autopilot:
                times.append(s.away_since + room.settings.grace)
        return min(times)

    async def catch_up(self, room_id: Any, since: Any, person: str | None = None) -> dict[str, Any]:
        """The missing game messages after `since`, or a snapshot when they are no longer held; and the
        legal actions when `person` is the one to decide."""
        head = await self.store.game_head(room_id)
        if head is None:
            return {"v": None}
        answer: dict[str, Any] | None = None
        if since is not None and since <= head[0]:   # a client "ahead" of the server gets a snapshot
            messages = await self.store.messages_since(room_id, since)
            # messages stored by protocol 1 (a game older than this server) cannot be sent: a snapshot can
            if messages is not None and not any(_protocol_1(m["patch"]) for m in messages):
                answer = {"v": messages[-1]["v"] if messages else since, "messages": messages}
        if answer is None:
            snapshot = await self.store.snapshot(room_id)
            assert snapshot is not None
            snapshot["view"].pop("legal", None)   # stored by protocol 1
            answer = {"v": snapshot["v"], "snapshot": snapshot}
        if person is not None:
            decides = await self._legal_for(room_id, answer["v"])
            if decides is not None and decides[0] == person:
                answer["legal"] = decides[1]
        return answer

    async def _legal_for(self, room_id: str, v: int) -> tuple[str, dict[str, Any]] | None:
        """The person to decide at version v (if v is still current and a person decides) and the
        `legal` payload they get."""
        from server.game import Game

        room, _raw, record = await self.store.room_and_game(room_id)
        if room is None or record is None or record["v"] != v or record["to_move"] is None:
            return None
        seat = room.seats[room.seat_of_colour(record["to_move"])]
        if seat.kind != "human" or not seat.person:
            return None
        actions = Game.from_bytes(record["state"]).legal_actions()
        return seat.person, {"room": room_id, "v": v, "actions": actions}

    async def _send_legal(self, room: Room, v: int, to_move: str | None, legal: list[dict[str, Any]]) -> None:
        """The legal actions of version v, to the person whose seat decides (nobody for a bot)."""
        if to_move is None:
            return
        seat = room.seats[room.seat_of_colour(to_move)]
        if seat.kind == "human" and seat.person:
            await self.outbox.legal(room.id, seat.person, {"room": room.id, "v": v, "actions": legal})

    # -- timers: bots, grace periods, the turn clock, presence ---------------------------------------
    async def advance(self, room_id: str, lease: float | None = None) -> None:
        """Looks at one room whose timer is due: presence, grace, clock, and a bot's move if one is due.
        `lease`: the timer's score while this process holds the claim on it (`Store.claim_due`); the room
        is rescheduled at its next check when done."""
        room, head, present = await self.store.look(room_id, time.time() - self.timings.presence_ttl)
        if room is None or room.status != PLAYING:
            await self.store.unschedule(room_id)
            return
        if head is None:
            return
        v, to_move, at, sent = head
        now = time.time()
        await self._resend(room, v, at, now, sent)

        def presence(r: Room) -> bool:
            changed = False
            for seat in r.seats:
                if seat.kind != "human":
                    continue
                if seat.person in present:
                    if seat.away_since is not None or seat.autopilot:
                        seat.away_since, seat.autopilot = None, False
                        changed = True
                    continue
                if seat.away_since is None:
                    seat.away_since = now
                    changed = True
                if not seat.autopilot and now >= seat.away_since + r.settings.grace:
                    seat.autopilot = True   # a bot plays this seat until the person returns
                    changed = True
            return changed
        probe = Room.from_store(room.to_store())
        if presence(probe):
            room = await self._update(room_id, presence)
            await self.publish(room)
        if to_move is None:  # over, but the room was not finished (its process failed right after)
            await self._finish_room(room_id)
            return
        seat = room.seats[room.seat_of_colour(to_move)]
        due = None
        if seat.kind == "bot" or seat.autopilot:
            due = at + room.settings.bot_pace
        elif room.settings.clock is not None:
            due = at + room.settings.clock
        check = self._next_check(room, to_move, at, now)
        if due is not None and now >= due:
            moved = await self._bot_move(room_id, v)
            # not moved (someone else acted first, or the move failed): look again at once
            check = time.time() if moved is None else moved
        if lease is None:
            await self.store.schedule(room_id, check, earlier_only=True)
        else:
            await self.store.reschedule(room_id, check, lease)

    async def _resend(self, room: Room, v: int, at: float, now: float, sent: int) -> None:
        """A process that died between storing a version and broadcasting it leaves its message unsent
        (`sent`, the version last recorded as broadcast, is behind): any process sends it again (clients
        ignore duplicates), and the legal actions of that version."""
        if now - at < 1.0 or sent >= v:
            return
        for message in await self.store.messages_since(room.id, sent) or []:
            log.warning("resending %s v%s (its process stopped before broadcasting)", room.id, message["v"])
            await self.outbox.game_message(room.id, message)
        decides = await self._legal_for(room.id, v)
        if decides is not None:
            await self.outbox.legal(room.id, *decides)
        await self.store.mark_sent({room.id: v})

    async def _bot_move(self, room_id: str, v: int) -> float | None:
        """A bot's move for the pending seat at version v; returns the room's next check (None: not
        applied, because the game moved on)."""
        from server.game import Game
        from server.game.bots import RandomBot

        held = self._take(room_id, v)
        for attempt in range(2):
            if held is None or attempt:   # not held, or it moved on: play on what is stored
                room, raw, record = await self.store.room_and_game(room_id)
                if room is None or room.status != PLAYING or record is None or record["v"] != v:
                    return None
                held = self._load(room, raw, record)
            game = Game.from_bytes(held.state)
            action = RandomBot(secrets.randbits(32)).choose(game)
            seat = held.room.seats[held.room.seat_of_colour(game.to_move)] if game.to_move else None
            played_by = ("bot" if seat is None or seat.kind == "bot" else "autopilot" if seat.autopilot
                         else "clock")
            try:
                done = await self._apply(held, action, "bot", time.monotonic(), game, played_by)
            except Rejected as e:  # not expected: a bot plays a legal action
                log.warning("bot move in %s not applied: %s", room_id, e)
                return None
            if done is not None:
                return done[1]
        return None

    async def sweep(self) -> None:
        """Forgets rooms whose keys expired (finished or idle) and tells the lobby."""
        for room_id in await self.store.expired_rooms():
            if await self.store.forget(room_id):
                await self.outbox.lobby_changed({"op": "remove", "room": room_id})

    async def run_timers(self, stop: asyncio.Event) -> None:
        """The process's timer loop: claims due rooms (any process may) and advances them. It sleeps until
        the next timer falls due (another process may bring one forward: at most a tick, and at least
        MIN_WAIT), so bots and clocks act when they are due instead of all together at the next tick."""
        last_beat = last_sweep = last_flush = 0.0
        redis_down = False
        while not stop.is_set():
            wait = self.timings.tick
            try:
                now = time.time()
                if now - last_beat >= min(1.0, self.timings.presence_ttl / 3):
                    await self.store.heartbeat(self.proc)
                    last_beat = now
                if now - last_sweep >= min(5.0, self.timings.finished_ttl):
                    await self.sweep()
                    last_sweep = now
                if now - last_flush >= self.timings.tick:
                    await self.flush_sent()
                    last_flush = now
                lease = now + 2.0
                due, next_at = await self.store.claim_due(now, lease)
                if redis_down:
                    log.warning("timer loop: Redis is reachable again")
                    redis_down = False
                if due:   # they set their next checks: look again soon, the claim then tells the next one
                    await asyncio.gather(*(self._guarded(self.advance(r, lease)) for r in due))
                    wait = MIN_WAIT
                elif next_at is not None:
                    wait = min(self.timings.tick, max(MIN_WAIT, next_at - time.time()))
            except StoreUnavailable as e:  # an outage: say so once, not every tick
                if not redis_down:
                    log.warning("timer loop: Redis unreachable (%s); retrying every tick", e)
                    redis_down = True
            except Exception:  # a bug in one room: keep the loop alive
                log.exception("timer loop")
            slept = time.monotonic()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)
            self.metrics.lag(max(0.0, time.monotonic() - slept - wait))
        with contextlib.suppress(Exception):   # what was broadcast since the last tick
            await self.flush_sent()

    async def flush_sent(self) -> None:
        """Records the versions broadcast since the last tick, in one round trip (kept on failure)."""
        sent, self._sent = self._sent, {}
        try:
            await self.store.mark_sent(sent)
        except BaseException:
            for room_id, v in sent.items():
                self._sent[room_id] = max(v, self._sent.get(room_id, 0))
            raise

    async def _guarded(self, work: Any) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._inflight.add(task)
        try:
            await work
        except Exception:
            log.exception("advancing a room")
        finally:
            if task is not None:
                self._inflight.discard(task)

    # -- chat --------------------------------------------------------------------------------------
    async def chat(self, person: Person, room_id: Any, text: str) -> None:
        room = await self._room(room_id)
        seats = room.seats_of(person.id)
        line = {"at": time.time(), "person": person.id, "name": person.name,
                "seat": seats[0] if seats else None, "text": text}
        line = await self.store.add_chat(room.id, line, self.timings.chat_log)
        await self.outbox.chat_line(room.id, {"room": room.id, "line": line})

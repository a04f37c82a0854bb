"""The game authority: it loads a room's game, checks an action against the room and the game's
version, applies it through the game mode (server/lobby/mode.py), commits it with the version check,
broadcasts it, and answers catch-up requests. Any number of processes may serve the same rooms: a move
is stored only if the stored game is still the one it was computed on (Store.commit)."""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from server.bots.worker import BotJob, BotQueue
from server.lobby.errors import Rejected
from server.lobby.lobby import Lobby
from server.lobby.mode import Action, GameMode, Illegal, LiveGame
from server.lobby.person import Outbox, Person, Timings
from server.lobby.rooms import FINISHED, PLAYING, Room
from server.lobby.store import GameRecord, Store, pack, unpack
from server.metrics import Metrics
from server.realtime import patch
from server.records import Records, logged
from server.records.keeper import keep_finished

log = logging.getLogger(__name__)


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

    def __repr__(self) -> str:
        return f"Held(room={self.room.id!r}, v={self.v}, to_move={self.to_move!r})"

    @classmethod
    def stored(cls, room: Room, raw: bytes, record: GameRecord) -> Held:
        """The stored game, to play on."""
        return cls(record.v, record.to_move, record.state, record.view, room, raw)


HELD_ROOMS = 4096
"""Games a process keeps in memory (least recently used go first); one is a few tens of KB."""


def _protocol_1(stored_patch: Any) -> bool:
    """A patch stored by protocol 1: a list of operations (`["set", path, value]`, ...)."""
    return isinstance(stored_patch, list) and bool(stored_patch) and isinstance(stored_patch[0], list)


class Authority:
    """The game authority of one server process."""

    def __init__(self, mode: GameMode, store: Store, outbox: Outbox, lobby: Lobby, metrics: Metrics,
                 timings: Timings, bots: BotQueue) -> None:
        self.mode = mode
        self.bots = bots
        self.store = store
        self.outbox = outbox
        self.lobby = lobby
        self.metrics = metrics
        self.timings = timings
        self._held: OrderedDict[str, Held] = OrderedDict()
        self._sent: dict[str, int] = {}   # versions broadcast, not yet recorded in the store (flush_sent)
        self.records: Records | None = None   # where finished games are kept (set by the app)

    def __repr__(self) -> str:
        return f"Authority(mode={self.mode!r}, held={len(self._held)})"

    # -- starting ----------------------------------------------------------------------------------
    async def start(self, person: Person, room_id: str, fill_with_bots: bool) -> dict[str, Any]:
        """Starts the game: the seed is drawn here from a cryptographic source and never leaves the server."""
        room = await self.lobby.room(room_id)
        room.must_host(person.id)
        room.must_wait()
        if not fill_with_bots and any(s.kind == "empty" for s in room.seats):
            raise Rejected("seats_empty", "a seat is empty: fill it, or start with bots")
        seed = secrets.randbits(63)  # R15: never leaves the server (only inside the stored state)
        game = self.mode.new(room.settings, seed)
        view, legal = game.public_view(), game.legal_actions()
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
        room = await self.lobby.update(room.id, begin, game=record)
        self._hold(room.id, Held(0, game.to_move, state_raw, view_raw, room, pack(room.to_store())))
        await self.outbox.game_message(room.id, message)
        await self._send_legal(room, 0, game.to_move, legal)
        state = await self.lobby.publish(room)
        await self.store.schedule(room.id, time.time(), earlier_only=True)
        return {"room": state, "v": 0}

    # -- acting ------------------------------------------------------------------------------------
    async def act(self, person: Person, room_id: str, v: int, action: Action, arrived: float) -> int:
        """A person's action for their seat at version v; returns the new version."""
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
        self._may_act(room, person, v, None if record is None else record.v,
                      None if record is None else record.to_move)
        assert record is not None
        done = await self._apply(Held.stored(room, raw, record), action, person.id, arrived)
        if done is None:
            raise Rejected("stale_version", "another action was applied first")
        return done[0]

    @staticmethod
    def _may_act(room: Room, person: Person, v: int, stored: int | None, to_move: str | None) -> None:
        """The checks of docs/protocol.md §5, in its order."""
        if room.status == FINISHED and stored is not None and v == stored - 1 and room.seats_of(person.id):
            # made against the version the game's last action replaced: it lost a race, as any other
            raise Rejected("stale_version", f"the game is at version {stored} (over), you sent {v}")
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

    def _take(self, room_id: str, v: int) -> Held | None:
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

    async def _apply(self, held: Held, action: Action, by: str, arrived: float,
                     game: LiveGame | None = None, how: str = "person") -> tuple[int, float | None] | None:
        """Applies the action to the held game (`game`: that game already loaded from its state), stores
        it, then broadcasts. Returns the new version and the room's next timer check (None when the game
        ended), or None when the stored game or room moved on meanwhile (nothing was stored)."""
        room = held.room
        game = game or self.mode.load(held.state)
        before = unpack(held.view)
        before.pop("legal", None)   # stored by protocol 1
        colour = game.to_move
        try:
            events = game.apply(action, colour)
        except Illegal as e:
            raise Rejected("illegal_action", e.message, reason=e.reason) from None
        after, legal = game.public_view(), game.legal_actions()
        v = held.v + 1
        message = {"room": room.id, "v": v, "events": events, "patch": patch.diff(before, after)}
        if how != "person":   # the log says who decided for a seat: a bot, the clock or the takeover bot
            message["by"] = how
        now = time.time()
        line = logged(v, colour, action, by, how, now, events)   # who, when, and the tiles it drew
        to_move = game.to_move
        check = room.next_check(to_move, now, now, self.timings.presence_ttl) if to_move else None
        state, view = game.to_bytes(), pack(after)
        if not await self.store.commit(room.id, held.v, state, view, to_move, message, line,
                                       self.timings.patch_log, check, held.room_raw):
            return None
        self._hold(room.id, Held(v, to_move, state, view, room, held.room_raw))
        # The move is stored: from here on a failure (say Redis going away) must not be answered as
        # "nothing changed". A message stored but not marked sent is resent by the timers (`resend`), and
        # clients heal gaps with `since`.
        try:
            await self.outbox.game_message(room.id, message)
            self.metrics.messages += 1
            self.metrics.accepted(time.monotonic() - arrived)
            await self._send_legal(room, v, to_move, legal)
            # marked sent only now: a process that dies before the legal actions went out leaves them
            # to `resend`, or the person deciding would wait for them forever
            self._sent[room.id] = max(v, self._sent.get(room.id, 0))
            if to_move is None:
                await self.finish(room.id)
        except Exception:
            log.exception("room %s v%s is stored, but what follows it failed; it will be resent", room.id, v)
        return v, check

    async def finish(self, room_id: str) -> None:
        """The game is over: the room is finished (viewable until it expires), nobody is away any more."""
        now = time.time()
        self._held.pop(room_id, None)
        room = await self.lobby.update(room_id, lambda r: r.finish(now))
        await self.store.unschedule(room_id)
        # the record first: whoever sees the room finished can open its record (end screen, replay)
        if self.records is not None:
            await keep_finished(self.records, self.store, room)
        await self.lobby.publish(room)

    async def bot_due(self, room_id: str, v: int, how: str, level: str) -> None:
        """A bot's decision is due for the pending seat at version v: a job for the bot workers
        (server/bots/worker.py), posted once per version. Their answer comes back through `bot_done`."""
        held = self._held.get(room_id)
        if held is not None and held.v == v:
            state = held.state
        else:
            room, _raw, record = await self.store.room_and_game(room_id)
            if room is None or room.status != PLAYING or record is None or record.v != v:
                return
            state = record.state
        await self.bots.post(BotJob(room_id, v, level, how), state)

    async def bot_done(self, job: BotJob, action: Action) -> float | None:
        """Applies the action a bot worker chose for `job`, version-checked like a person's; returns the
        room's next check (None: not applied, because the game moved on meanwhile)."""
        held = self._take(job.room, job.v)
        for attempt in range(2):
            if held is None or attempt:   # not held, or it moved on: play on what is stored
                room, raw, record = await self.store.room_and_game(job.room)
                if room is None or room.status != PLAYING or record is None or record.v != job.v:
                    return None
                held = Held.stored(room, raw, record)
            try:
                done = await self._apply(held, action, "bot", time.monotonic(), None, job.how)
            except Rejected as e:  # not expected: a bot plays a legal action
                log.warning("%r not applied: %s", job, e)
                return None
            if done is not None:
                return done[1]
        return None

    # -- catching up -------------------------------------------------------------------------------
    async def catch_up(self, room_id: str, since: int | None, person: str | None = None) -> dict[str, Any]:
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
        room, _raw, record = await self.store.room_and_game(room_id)
        if room is None or record is None or record.v != v or record.to_move is None:
            return None
        seat = room.seats[room.seat_of_colour(record.to_move)]
        if seat.kind != "human" or not seat.person:
            return None
        actions = self.mode.load(record.state).legal_actions()
        return seat.person, {"room": room_id, "v": v, "actions": actions}

    async def _send_legal(self, room: Room, v: int, to_move: str | None, legal: list[Action]) -> None:
        """The legal actions of version v, to the person whose seat decides (nobody for a bot)."""
        if to_move is None:
            return
        seat = room.seats[room.seat_of_colour(to_move)]
        if seat.kind == "human" and seat.person:
            await self.outbox.legal(room.id, seat.person, {"room": room.id, "v": v, "actions": legal})

    # -- broadcasts --------------------------------------------------------------------------------
    async def resend(self, room: Room, v: int, at: float, now: float, sent: int) -> None:
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

    async def flush_sent(self) -> None:
        """Records the versions broadcast since the last call, in one round trip (kept on failure)."""
        sent, self._sent = self._sent, {}
        try:
            await self.store.mark_sent(sent)
        except BaseException:
            for room_id, v in sent.items():
                self._sent[room_id] = max(v, self._sent.get(room_id, 0))
            raise

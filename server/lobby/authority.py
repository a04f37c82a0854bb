"""The game authority: it loads a room's game, checks an action against the room and the game's
version, applies it through the game mode (server/lobby/mode.py), commits it with the version check,
broadcasts it, and answers catch-up requests. Any number of processes may serve the same rooms: a move
is stored only if the stored game is still the one it was computed on (Store.commit)."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from server import patch
from server.bots.worker import BotJob, BotQueue
from server.lobby.errors import Rejected
from server.lobby.keeper import keep_finished
from server.lobby.lobby import Lobby
from server.lobby.mode import WITHDRAW, Action, GameMode, Illegal, LiveGame
from server.lobby.offload import Offload, privates_of
from server.lobby.person import Facts, Outbox, Person, Timings
from server.lobby.rooms import FINISHED, PLAYING, Room
from server.lobby.store import Store
from server.lobby.store.games import Head, StoredGame
from server.lobby.store.keys import StoreUnavailable, pack
from server.metrics import Metrics
from server.records import Records, logged

log = logging.getLogger(__name__)


@dataclass
class Held:
    """A game as this process last stored (or read) it: the stored game (`stored`: its version, the colours
    deciding, when and at which version the pending round began, the engine state as stored), the room as
    stored (bytes, and parsed), and, once this process has played on it, the live engine object and the
    public view it stands for (`game`, `public`): the next action needs neither to rebuild the game from its
    bytes nor to compute the view again, and keeps the engine's caches (its R9 verdicts). Any
    process may change a room or its game: an action computed on a held game is stored only if the stored
    version is still `v` and the stored room still `room_raw` (Store.commit), so what is held need not be
    fresh, only exactly what it says."""

    stored: StoredGame
    room: Room
    room_raw: bytes
    game: LiveGame | None = None
    public: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"Held(room={self.room.id!r}, v={self.v}, deciding={self.deciding!r})"

    # the stored game's own values, read through
    @property
    def v(self) -> int:
        return self.stored.v

    @property
    def deciding(self) -> tuple[str, ...]:
        return self.stored.deciding

    @property
    def began(self) -> float:
        return self.stored.began

    @property
    def began_v(self) -> int:
        return self.stored.began_v

    @property
    def turn_at(self) -> float:
        """When the deciding colour's turn began (its bot's pace counts from there)."""
        return self.stored.turn_at

    @property
    def state(self) -> bytes:
        return self.stored.state

    def in_round(self, v: int) -> bool:
        """Whether version v belongs to the pending round (an action sent at v still stands)."""
        return self.stored.in_round(v)


MARK_AFTER = 1 / 3
"""Presence TTLs a broadcast version waits for its room's next commit to record it as sent (`flush_sent`):
within the heartbeat's period, so a process found dead (a TTL without a beat) has recorded nearly all it
sent, and another process resends at most these last seconds' messages again (clients ignore duplicates).
Recording each version with a script of its own cost Redis a tenth of an action's time."""

HELD_ROOMS = 4096
"""Games a process keeps in memory (least recently used go first); one is a few tens of KB."""


def _protocol_1(stored_patch: Any) -> bool:
    """A patch stored by protocol 1: a list of operations (`["set", path, value]`, ...)."""
    return isinstance(stored_patch, list) and bool(stored_patch) and isinstance(stored_patch[0], list)


class Authority:
    """The game authority of one server process; `modes` are the rule sets rooms may play, by name."""

    def __init__(self, modes: dict[str, GameMode], store: Store, *, outbox: Outbox, lobby: Lobby,
                 metrics: Metrics, timings: Timings, bots: BotQueue, live_games: bool = True,
                 offload: Offload | None = None, facts: Facts | None = None,
                 records: Records | None = None) -> None:
        self.modes = modes
        self.facts = facts   # what the notifier hears of (server/notify/); None: nobody
        self.offload = offload or Offload(0)   # 0: every engine call on the loop (tests that build one)
        self.live_games = live_games   # off: every action rebuilds its game from bytes (to measure the gain)
        self.bots = bots
        self.store = store
        self.outbox = outbox
        self.lobby = lobby
        self.metrics = metrics
        self.timings = timings
        self._held: OrderedDict[str, Held] = OrderedDict()
        # versions broadcast, not yet recorded in the store: room -> (version, since when it waits); the
        # room's next commit records it, or `flush_sent` once it waited MARK_AFTER presence TTLs
        self._sent: dict[str, tuple[int, float]] = {}
        self._unsent: dict[str, int] = {}  # versions stored whose broadcast failed (resend_failed)
        self.records = records   # where finished games are kept (None: nowhere)

    def __repr__(self) -> str:
        return f"Authority(modes={sorted(self.modes)}, held={len(self._held)})"

    def mode_of(self, room: Room) -> GameMode:
        """The rule set the room plays."""
        return self.modes[room.settings.game]

    # -- starting ----------------------------------------------------------------------------------
    async def start(self, person: Person, room_id: str, fill_with_bots: bool) -> dict[str, Any]:
        """Starts the game: the seed is drawn here from a cryptographic source and never leaves the server."""
        room = await self.lobby.room(room_id)
        room.must_host(person.id)
        room.must_wait()
        if not fill_with_bots and any(s.kind == "empty" for s in room.seats):
            raise Rejected("seats_empty", "a seat is empty: fill it, or start with bots")
        searches = room.search_bots()
        if searches:   # held against the cap on all search bots at play (the bot workers' share)
            others = await self.store.searches.hold(room.id, bots=searches, cap=self.timings.search_bots,
                                                    until=time.time() + self.timings.waiting_ttl)
            if others is not None:
                raise Rejected("search_bots_busy", f"{others} search bots are playing, at most "
                                                   f"{self.timings.search_bots} at once: seat fewer, or try later")
        seed = secrets.randbits(63)  # R15: never leaves the server (only inside the stored state)
        game = self.mode_of(room).new(room.settings, seed)
        view = game.public_view()
        message = {"room": room.id, "v": 0, "events": [], "patch": patch.diff(None, view)}
        state_raw = game.to_bytes()
        now = time.time()
        record = {"v": 0, "sent": 0, "state": state_raw, "to_move": ",".join(game.deciding),
                  "at": now, "began": now, "began_v": 0, "turn_at": now, "proc": self.lobby.proc,
                  "message": pack(message)}

        def begin(r: Room) -> bool:
            r.must_host(person.id)
            r.must_wait()
            if fill_with_bots:
                r.fill_with_bots(self.lobby.levels.default)
            elif any(s.kind == "empty" for s in r.seats):
                raise Rejected("seats_empty", "a seat is empty: fill it, or start with bots")
            if r.search_bots() > searches:
                raise Rejected("too_many_search_bots", "the table's bots changed meanwhile: start again")
            r.status = PLAYING
            return True
        try:
            room = await self.lobby.update(room.id, begin, game=record)
        except Exception:
            if searches:
                await self.store.searches.release(room.id)
            raise
        self._hold(room.id, Held(StoredGame(0, game.deciding, now, now, 0, proc=self.lobby.proc, turn_at=now,
                                            state=state_raw), room, pack(room.to_store())))
        await self.outbox.game_message(room.id, message)
        await self._send_private(room, 0, privates_of(game, self._human_colours(room)))
        await self._tell_round(room.id, 0, game.deciding, now, room)
        state = await self.lobby.publish(room)
        await self.store.timers.schedule(room.id, time.time(), earlier_only=True)
        return {"room": state, "v": 0}

    # -- acting ------------------------------------------------------------------------------------
    async def act(self, person: Person, room_id: str, v: int, action: Action, arrived: float,
                  colour: str | None = None) -> int:
        """A person's action for their seat at version v (any version of the pending round); returns the
        new version. `colour`: which of the person's colours it is for (None: the one deciding), for a
        person who holds several seats."""
        held = self._take(room_id, v)
        if held is not None:
            # No read: checked against the room and game held; stored only if both are unchanged.
            # Anything else (a refusal, or the room or game moved on) is answered from the store below.
            with contextlib.suppress(Rejected):
                mine = self._may_act(held.room, person, v, held, self.mode_of(held.room).simultaneous,
                                       colour, action)
                done = await self._apply(held, action, person.id, arrived, mine)
                if done is not None:
                    return done[0]
        for _attempt in range(3):   # another seat's order of the same round may be stored first: play on it
            room, raw, record = await self.store.room_and_game(room_id)   # one round trip
            if room is None:
                raise Rejected("no_room", f"no room {room_id!r}")
            stored = None if record is None else Held(record, room, raw)
            mine = self._may_act(room, person, v, stored, self.mode_of(room).simultaneous, colour, action)
            assert stored is not None
            done = await self._apply(stored, action, person.id, arrived, mine)
            if done is not None:
                return done[0]
        raise Rejected("stale_version", "another action was applied first")

    async def withdraw(self, person: Person, room_id: str, arrived: float, colour: str | None = None) -> int:
        """Takes back the pending order of the current round of `colour` (None: the person's first colour
        with an order in), in a mode with simultaneous orders (docs/protocol.md §14); returns the new
        version."""
        held = self._held.get(room_id)
        if held is not None:
            v = held.v   # if another process moved the round on, `act` finds out from the store
        else:
            head = await self.store.games.game_head(room_id)
            if head is None:
                raise Rejected("not_playing", "no game is being played here")
            v = head.v
        return await self.act(person, room_id, v, WITHDRAW, arrived, colour)

    @staticmethod
    def _may_act(room: Room, person: Person, v: int, stored: Held | None, simultaneous: bool = False,
                 colour: str | None = None, action: Action | None = None) -> str:
        """The checks of docs/protocol.md §5, in its order; the colour the person acts for: `colour` if
        it is one of their seats' and may act now (in a mode with simultaneous orders, any of theirs while
        the round is open: a decision in may be replaced or withdrawn), else the first of theirs deciding
        (a withdrawal: the first with a decision in)."""
        over = room.status == FINISHED or (room.status == PLAYING and stored is not None and not stored.deciding)
        if over and stored is not None and room.seats_of(person.id) and (
                v == stored.v - 1 or stored.began_v <= v < stored.v):
            # made against a version the game's last action replaced (whether or not the room is marked
            # finished yet): it lost a race, as any other
            raise Rejected("stale_version", f"the game is over at version {stored.v}; you sent {v}")
        if room.status != PLAYING:
            raise Rejected("not_playing", f"the room is {room.status}")
        mine = room.seats_of(person.id)
        if not mine:
            raise Rejected("not_seated", "spectators can only watch and chat")
        if stored is None or not stored.deciding:
            raise Rejected("not_playing", "the game is over")
        if not stored.in_round(v):
            raise Rejected("stale_version", f"the game is at version {stored.v}, you sent {v}")
        theirs = [c for i in mine for c in room.settings.seat_colours(i)]
        if colour is not None:
            if colour not in theirs:
                raise Rejected("not_your_turn", f"{colour} is not the colour of a seat you hold")
            if simultaneous or colour in stored.deciding:
                return colour
            raise Rejected("not_your_turn", f"{stored.deciding[0]} is to move")
        if simultaneous and action is not None and action.get("type") == WITHDRAW["type"]:
            ordered = [c for c in theirs if c not in stored.deciding]
            if ordered:
                return ordered[0]
        for deciding in stored.deciding:
            if deciding in theirs:
                return deciding
        if simultaneous:
            return theirs[0]
        raise Rejected("not_your_turn", f"{stored.deciding[0]} is to move")

    def _take(self, room_id: str, v: int) -> Held | None:
        """The game held for the room if version v is of its pending round (it leaves the cache: whoever
        takes it plays on it, and puts back what results)."""
        held = self._held.get(room_id)
        if held is None or not held.in_round(v):
            return None
        del self._held[room_id]
        return held

    def _hold(self, room_id: str, held: Held) -> None:
        self._held[room_id] = held
        self._held.move_to_end(room_id)
        while len(self._held) > HELD_ROOMS:
            self._held.popitem(last=False)

    async def _apply(self, held: Held, action: Action | None, by: str, arrived: float, colour: str | None,
                     how: str = "person") -> tuple[int, float | None] | None:
        """Applies the action for `colour` (None, None: the round's deadline) to the held game, stores it, then
        broadcasts. Returns the new version and the room's next timer check (None when the game ended),
        or None when the stored game or room moved on meanwhile (nothing was stored)."""
        room = held.room
        mode = self.mode_of(room)
        # Taken: from here the held game may be changed (or half changed by a step abandoned on the loop),
        # so nobody plays on it again; what results is held below once stored.
        game, held.game = held.game, None
        if self._held.get(room.id) is held:
            del self._held[room.id]
        if held.public is not None:
            before = held.public
        else:   # the view before, from the state (not stored); the game loaded for it is the one the step plays on
            if game is None:
                game = mode.load(held.state)
            before = game.public_view()
        try:
            step, live = await self.offload.step(room.id, mode, game, held.state, action, colour,
                                                 self._human_colours(room))
        except Illegal as e:   # nothing was stored; the next action rebuilds the game from its bytes
            raise Rejected("illegal_action", e.message, reason=e.reason) from None
        events, after, deciding = step.events, step.view, step.deciding
        v = held.v + 1
        message = {"room": room.id, "v": v, "events": events, "patch": patch.diff(before, after)}
        if how != "person":   # the log says who decided for a seat: a bot, the clock or the takeover bot
            message["by"] = how
        now = time.time()
        kept = None if action is None else mode.logged(action)   # None: the deadline closed the round
        line = logged(v, colour, kept, by, how, now, mode.drawn(events))   # who, when, tiles drawn
        began, began_v = (held.began, held.began_v) if step.same_round else (now, v)
        waited = not step.same_round and bool(deciding) and self._connected(room)
        if waited:   # the new round's clock starts once its report was seen (report_seen), at the latest then
            began += mode.report_wait(room.settings)
        # the colour that decided decides again (a chain of its turn): its turn goes on, and a bot's pace,
        # waited once at the turn's start, is not waited again
        turn_at = held.turn_at if colour is not None and held.deciding == deciding == (colour,) else now
        check = room.next_check(deciding, turn_at, began, now, self.timings.presence_ttl) if deciding else None
        state = step.state
        carried = self._sent.get(room.id, (0, 0.0))
        committed = await self.store.games.commit(room.id, held.v, state=state, deciding=deciding,
                                                  message=message, action=line, cap=self.timings.patch_log,
                                                  check=check, room=held.room_raw, began=(began, began_v),
                                                  proc=self.lobby.proc, turn_at=turn_at, sent=carried[0])
        if committed is None:
            return None
        if self._sent.get(room.id) == carried:   # recorded (unless a later broadcast came meanwhile)
            del self._sent[room.id]
        local = not committed.heard_elsewhere   # no other process has a socket in the room: tell only ours
        keep = self.live_games and live is not None
        stored = StoredGame(v, deciding, now, began, began_v, proc=self.lobby.proc, turn_at=turn_at, state=state)
        self._hold(room.id, Held(stored, room, held.room_raw, live if keep else None,
                                 after if self.live_games else None))
        # The move is stored: from here on a failure (say Redis going away) must not be answered as
        # "nothing changed". A message stored but not marked sent is resent by the timers (`resend`), and
        # clients heal gaps with `since`.
        try:
            await self.outbox.game_message(room.id, message, local=local)
            self.metrics.messages += 1
            self.metrics.accepted(time.monotonic() - arrived)
            await self._send_private(room, v, step.privates, local=local)
            # marked sent only now: a process that dies before the legal actions went out leaves them
            # to `resend`, or the person deciding would wait for them forever
            self._broadcast(room.id, v, time.monotonic())
            if deciding and not step.same_round and (mode.simultaneous or deciding != held.deciding):
                await self._tell_round(room.id, v, deciding, began, room)   # a new turn, not a chain's next step
            if not deciding:
                await self.finish(room.id)
            elif began > now:   # the room's clock says when it starts at the latest
                await self.lobby.publish(room)
        except Exception as e:
            if isinstance(e, StoreUnavailable):   # an outage: the timer loop says so once, not per room
                log.debug("room %s v%s is stored; sending it waits for Redis", room.id, v)
            else:
                log.exception("room %s v%s is stored, but what follows it failed; it will be resent", room.id, v)
            self._unsent[room.id] = max(v, self._unsent.get(room.id, 0))
        return v, check

    @staticmethod
    def _connected(room: Room) -> set[str]:
        """The seated persons whose sockets are in the room (bots and away seats are not waited for)."""
        return {s.person for s in room.seats if s.kind == "human" and s.person and s.away_since is None}

    async def report_seen(self, person: Person, room_id: str, turn: int) -> bool:
        """The person's client has played (or skipped) the report of `turn`, which began the pending round:
        once every connected seated person's has, the round's clock starts (docs/protocol.md §14). True
        when this started it."""
        room, _raw, record = await self.store.room_and_game(room_id)
        if room is None:
            raise Rejected("no_room", f"no room {room_id!r}")
        if room.status != PLAYING or record is None or not record.deciding:
            raise Rejected("not_playing", "no game is being played here")
        if not room.seats_of(person.id):
            raise Rejected("not_seated", "spectators can only watch and chat")
        mode = self.mode_of(room)
        wait, clock = mode.report_wait(room.settings), room.settings.clock
        if not wait or clock is None:
            raise Rejected("not_playing", "this game's clock does not wait for reports")
        held = self._held.get(room_id)
        game = held.game if held is not None and held.v == record.v and held.game is not None else None
        current = (game or mode.load(record.state)).round
        if current is None or current < 2 or turn != current - 1:   # (the first round follows no report)
            raise Rejected("stale_version", f"turn {turn} is not the one whose report was the last")
        now = time.time()
        if record.began <= now:
            return False   # its clock runs already (everyone had seen it, or the wait ran out)
        seen = await self.store.games.report_seen(room_id, began_v=record.began_v, person=person.id,
                                                 ttl=2 * wait + clock)
        if self._connected(room) - seen:
            return False
        if not await self.store.games.start_clock(room_id, began_v=record.began_v, now=now, deadline=now + clock):
            return False
        if held is not None and held.began_v == record.began_v:
            held.stored = dataclasses.replace(held.stored, began=now)
        await self.lobby.publish(room)
        await self._tell_round(room_id, record.began_v, record.deciding, now, room)   # its deadline is known now
        return True

    async def finish(self, room_id: str) -> None:
        """The game is over: the room is finished (viewable until it expires), nobody is away any more."""
        now = time.time()
        self._held.pop(room_id, None)
        room = await self.lobby.update(room_id, lambda r: r.finish(now))
        await self.store.timers.unschedule(room_id)
        await self.store.searches.release(room_id)
        # the record first: whoever sees the room finished can open its record (end screen, replay)
        if self.records is not None:
            await keep_finished(self.records, self.store, room, self.mode_of(room))
        await self.lobby.publish(room)
        if self.facts is not None:
            try:
                await self.facts.game_ended(room_id)
            except Exception as e:   # a message less, never a game less
                log.warning("room %s: the notifier was not told of the end (%r)", room_id, e)

    async def _tell_round(self, room_id: str, v: int, deciding: tuple[str, ...], began: float, room: Room) -> None:
        """Tells the notifier a round of `deciding` began at version v (best effort: play never waits on it)."""
        if self.facts is None:
            return
        try:
            await self.facts.round_began(room_id, v, deciding, began, room.settings.clock)
        except Exception as e:
            log.warning("room %s v%s: the notifier was not told of the turn (%r)", room_id, v, e)

    async def _current(self, room_id: str, v: int) -> Held | None:
        """The game held or stored for a playing room if version v is of its pending round."""
        held = self._held.get(room_id)
        if held is not None and held.in_round(v):
            return held
        room, raw, record = await self.store.room_and_game(room_id)
        if room is None or room.status != PLAYING or record is None:
            return None
        stored = Held(record, room, raw)
        return stored if stored.in_round(v) else None

    async def bot_due(self, room_id: str, v: int, colour: str, how: str, level: str, turn: float = 0.0) -> None:
        """A bot's decision is due for `colour`'s seat at version v, in a turn whose thinking began at
        `turn` (epoch seconds): a job for the bot workers (server/bots/worker.py), posted once per round
        and colour. Their answer comes back through `bot_done`."""
        held = await self._current(room_id, v)
        if held is None or colour not in held.deciding:
            return
        job = BotJob(room_id, held.v, colour, level, how, held.room.settings.game, turn)
        await self.bots.post(job, held.state, held.began_v)

    async def bot_done(self, job: BotJob, action: Action) -> float | None:
        """Applies the action a bot worker chose for `job`, version-checked like a person's; returns the
        room's next check (None: not applied, because the game moved on meanwhile, or the person a
        takeover played for is back)."""
        if job.how == "takeover":
            # the person may have come back while the bot thought: their seat is theirs again at once
            room = await self.store.rooms.get(job.room)
            if room is None or not room.seats[room.seat_of_colour(job.colour)].autopilot:
                return None
        held = self._take(job.room, job.v)
        for attempt in range(3):
            if held is None or attempt:   # not held, or it moved on: play on what is stored
                room, raw, record = await self.store.room_and_game(job.room)
                if room is None or room.status != PLAYING or record is None:
                    return None
                held = Held(record, room, raw)
            if not held.in_round(job.v) or job.colour not in held.deciding:
                return None   # the round is over, or this seat's decision was taken meanwhile
            try:
                done = await self._apply(held, action, "bot", time.monotonic(), job.colour, job.how)
            except Rejected as e:  # not expected: a bot plays a legal action
                log.warning("%r not applied: %s", job, e)
                return None
            if done is not None:
                return done[1]
        return None

    async def deadline(self, room_id: str, v: int) -> float | None:
        """The pending round's deadline passed (a mode with simultaneous orders): it is resolved with the
        decisions in, version-checked (any process may do it, once). Returns the room's next check."""
        for _attempt in range(3):
            held = await self._current(room_id, v)
            if held is None or not held.deciding:
                return None
            done = await self._apply(held, None, "clock", time.monotonic(), None, "clock")
            if done is not None:
                return done[1]
        return None

    # -- catching up -------------------------------------------------------------------------------
    async def catch_up(self, room_id: str, since: int | None, person: str | None = None) -> dict[str, Any]:
        """The missing game messages after `since`, or a snapshot when they are no longer held; and the
        legal actions when `person` is the one to decide."""
        head = await self.store.games.game_head(room_id)
        if head is None:
            return {"v": None}
        answer: dict[str, Any] | None = None
        if since is not None and since <= head.v:   # a client "ahead" of the server gets a snapshot
            messages = await self.store.games.messages_since(room_id, since)
            # messages stored by protocol 1 (a game older than this server) cannot be sent: a snapshot can
            if messages is not None and not any(_protocol_1(m["patch"]) for m in messages):
                answer = {"v": messages[-1]["v"] if messages else since, "messages": messages}
        if answer is None:
            snapshot = await self._snapshot(room_id, head.v)
            if snapshot is None:
                return {"v": None}
            answer = {"v": snapshot["v"], "snapshot": snapshot}
        if person is not None:
            mine = [payload for p, payload in await self._privates(room_id, answer["v"]) if p == person]
            if mine:
                answer["legal"] = mine[0]
            if len(mine) > 1:   # a person holding several seats gets each seat's (docs/protocol.md §14)
                answer["legals"] = mine
        return answer

    async def _snapshot(self, room_id: str, v: int) -> dict[str, Any] | None:
        """The game's version and public view (`{v, view}`; None: gone): the view this process holds when it
        holds the game at version v, else computed from the stored state (the view is not stored)."""
        held = self._held.get(room_id)
        if held is not None and held.v == v and held.public is not None:
            return {"v": v, "view": held.public}
        room, raw, record = await self.store.room_and_game(room_id)
        if room is None or record is None:
            return None
        # from the stored bytes, not the held game: a call abandoned on the loop would leave that one unsure
        view = await self.offload.public_view(self.mode_of(room), record.state)
        if room_id not in self._held:   # held with its view: the next snapshot (or action) at v needs none
            # again (a late state's costs 0.36 ms; every client asking for one asks at the same version)
            self._hold(room_id, Held(record, room, raw, None, view))
        return {"v": record.v, "view": view}

    async def _privates(self, room_id: str, v: int) -> list[tuple[str, dict[str, Any]]]:
        """The `legal` payloads of version v (if v is still current), to the persons they belong to."""
        room, _raw, record = await self.store.room_and_game(room_id)
        if room is None or record is None or record.v != v or not record.deciding:
            return []
        # from the stored bytes, not the held game: a call abandoned on the loop would leave that one unsure
        privates = await self.offload.privates(self.mode_of(room), record.state, self._human_colours(room))
        return self._payloads(room, v, privates)

    @staticmethod
    def _human_colours(room: Room) -> tuple[str, ...]:
        """The colours of the seats people sit in: only theirs get private payloads (a bot's goes nowhere)."""
        return tuple(colour for i, seat in enumerate(room.seats) if seat.kind == "human" and seat.person
                     for colour in room.settings.seat_colours(i))

    @staticmethod
    def _payloads(room: Room, v: int, privates: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Each seated person's `legal` payload at version v, from each colour's private payload
        (`LiveGame.private`): what their seat alone may see (nobody's for a bot seat)."""
        out = []
        for i, seat in enumerate(room.seats):
            if seat.kind != "human" or not seat.person:
                continue
            for colour in room.settings.seat_colours(i):
                mine = privates.get(colour)
                if mine is not None:
                    out.append((seat.person, {"room": room.id, "v": v, "actions": mine}))
        return out

    async def _send_private(self, room: Room, v: int, privates: dict[str, Any], *, local: bool = False) -> None:
        """The `legal` events of version v: to each person what their seat alone may see (`local`: to this
        process's sockets only)."""
        for person, payload in self._payloads(room, v, privates):
            await self.outbox.legal(room.id, person, payload, local=local)

    # -- broadcasts --------------------------------------------------------------------------------
    async def resend(self, room: Room, head: Head, now: float) -> None:
        """A process that died between storing a version and broadcasting it leaves its message unsent
        (`sent`, the version last recorded as broadcast, is behind): any process sends it again (clients
        ignore duplicates), and the legal actions of that version. A process still beating is only busy
        (it records what it sent with the room's next commit, or within MARK_AFTER presence TTLs) or resends
        its own failures (`resend_failed`)."""
        if now - head.at < 1.0 or head.sent >= head.v or head.proc == self.lobby.proc:
            return   # (this process's own versions: sent, or being sent, or resent by `resend_failed`)
        if head.proc and await self.store.presence.alive(head.proc, now - self.timings.presence_ttl):
            return
        await self._send_again(room.id, head, "its process stopped before broadcasting")

    async def resend_failed(self) -> None:
        """Sends again what this process stored but failed to broadcast (its Redis link went away, say);
        kept for the next call while that fails too."""
        for room_id in list(self._unsent):
            head = await self.store.games.game_head(room_id)
            if head is not None and head.sent < head.v:
                await self._send_again(room_id, head, "its broadcast failed")
            self._unsent.pop(room_id, None)

    async def _send_again(self, room_id: str, head: Head, why: str) -> None:
        for message in await self.store.games.messages_since(room_id, head.sent) or []:
            log.warning("resending %s v%s (%s)", room_id, message["v"], why)
            await self.outbox.game_message(room_id, message)
        for person, payload in await self._privates(room_id, head.v):
            await self.outbox.legal(room_id, person, payload)
        await self.store.games.mark_sent({room_id: head.v})

    async def flush_sent(self, everything: bool = False) -> None:
        """Records the versions broadcast that waited MARK_AFTER presence TTLs for their room's next commit
        to record them (`everything`: all of them, as the process stops), in one round trip (kept on
        failure). A room in play records them with its commits: no script of its own a version."""
        now = time.monotonic()
        after = MARK_AFTER * self.timings.presence_ttl
        due = {r: w for r, w in self._sent.items() if everything or now - w[1] >= after}
        if not due:
            return
        for room_id in due:
            del self._sent[room_id]
        try:
            await self.store.games.mark_sent({room_id: v for room_id, (v, _since) in due.items()})
        except BaseException:
            for room_id, (v, since) in due.items():
                self._broadcast(room_id, v, since)
            raise

    def _broadcast(self, room_id: str, v: int, since: float) -> None:
        """Version v of the room was broadcast and waits to be recorded as sent, since `since` at the latest
        (the oldest unrecorded broadcast's time is kept: MARK_AFTER counts from it)."""
        waiting = self._sent.get(room_id)
        self._sent[room_id] = (v, since) if waiting is None else (max(v, waiting[0]), min(since, waiting[1]))

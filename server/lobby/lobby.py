"""Rooms and seats: the lobby list, creating and joining rooms, seats and bots before a game, presence,
and chat. It knows nothing of Socket.IO (whatever must reach clients goes through an `Outbox`) nor of
the game (server/lobby/authority.py). Every change goes through the Store, so any number of server
processes can serve the same rooms.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from server.lobby.errors import Rejected
from server.lobby.mode import GameMode
from server.lobby.person import Outbox, Person, Timings
from server.lobby.rooms import FINISHED, PLAYING, SEARCH, SEARCH_PER_PERSON, WAITING, BotLevels, Room
from server.lobby.settings import Settings
from server.lobby.store import Store
from server.lobby.store.games import Head
from server.lobby.store.rooms import AtCap

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


def new_code() -> str:
    """A random join code."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(6))


def pending_clock(room: Room, head: Head | None, now: float, simultaneous: bool) -> dict[str, Any] | None:
    """The turn clock of the pending decision, for the room state (docs/protocol.md §4, §14): its version,
    the colours to decide, the milliseconds left and the server's time in milliseconds, so that a client
    counts down from when it got this, whatever its own clock says. None without a clock, or when a bot
    decides (one decision at a time: the clock is then the bot's pace)."""
    clock = room.settings.clock
    if clock is None or head is None or room.status != PLAYING or not head.deciding:
        return None
    if not simultaneous:
        seat = room.seats[room.seat_of_colour(head.deciding[0])]
        if seat.kind != "human" or seat.autopilot:
            return None
    out = {"v": head.v, "colour": head.deciding[0], "remaining_ms": max(0, round((head.began + clock - now) * 1000)),
           "server_ms": round(now * 1000)}
    if simultaneous:
        out["colours"] = list(head.deciding)
        if head.began > now:   # the clock starts once the report was seen, at the latest then
            out["starts_ms"] = round((head.began - now) * 1000)
    return out


class Lobby:
    """Rooms and seats for one server process (`proc` names it in presence records); `modes` are the rule sets
    rooms may play, by name, and `levels` the bots a host may seat."""

    def __init__(self, store: Store, outbox: Outbox, *, timings: Timings, proc: str, modes: Mapping[str, GameMode],
                 levels: BotLevels) -> None:
        self.store = store
        self.outbox = outbox
        self.timings = timings
        self.proc = proc
        self.modes = modes
        self.levels = levels
        self._listing: tuple[int, asyncio.Future[list[dict[str, Any]]]] | None = None

    def __repr__(self) -> str:
        return f"Lobby(proc={self.proc!r})"

    # -- reading -----------------------------------------------------------------------------------
    async def listing(self) -> list[dict[str, Any]]:
        """Open rooms and live games for the lobby list, newest first. The listing is read once per change
        of the lobby (its generation, bumped before each `lobby` update is sent) and shared by every
        request until the next change, so asking often costs one GET each, not a read of every room."""
        generation = await self.store.rooms.listing_generation()
        if self._listing is None or self._listing[0] != generation:
            self._listing = (generation, asyncio.ensure_future(self._read_listing()))
        task = self._listing[1]
        try:
            return await asyncio.shield(task)
        except Exception:
            if self._listing is not None and self._listing[1] is task:
                self._listing = None   # a failed read is not kept
            raise

    async def _read_listing(self) -> list[dict[str, Any]]:
        listed = await self.store.rooms.listed(self.timings.listing)
        rooms = [r for r in await self.store.rooms.many(listed) if r is not None]
        alive_after = time.time() - self.timings.presence_ttl
        present = await self.store.presence.watchers_many([r.id for r in rooms], alive_after)
        return [room.summary(self._spectators(room, p)) for room, p in zip(rooms, present, strict=True)
                if room.listed(set(p))]

    async def present(self, room_id: str) -> dict[str, int]:
        """Person → number of their live sockets in the room."""
        return await self.store.presence.watchers(room_id, time.time() - self.timings.presence_ttl)

    @staticmethod
    def _spectators(room: Room, present: dict[str, int]) -> int:
        return len(set(present) - room.humans())

    async def room(self, room_id: str) -> Room:
        """The room (Rejected 'no_room' when there is none)."""
        room = await self.store.rooms.get(room_id)
        if room is None:
            raise Rejected("no_room", f"no room {room_id!r}")
        return room

    async def publish(self, room: Room) -> dict[str, Any]:
        """Sends the room's state to its watchers (and its summary to the lobby); returns the state."""
        present = await self.present(room.id)
        head = await self.store.games.game_head(room.id) if room.status != WAITING else None
        spectators = self._spectators(room, present)
        state = room.to_wire(set(present), spectators, head.v if head else None)
        state["clock"] = pending_clock(room, head, time.time(), self.modes[room.settings.game].simultaneous)
        await self.outbox.room_changed(room.id, state)
        if room.listed(set(present)):
            await self.announce({"op": "upsert", "room": room.summary(spectators)})
        elif room.status == FINISHED or not room.settings.private:
            await self.announce({"op": "remove", "room": room.id, "rev": room.rev})
        return state

    async def announce(self, update: dict[str, Any]) -> None:
        """A change of the lobby listing: its generation first (a cached listing is then stale), then the
        `lobby` update to its watchers."""
        await self.store.rooms.bump_listing()
        await self.outbox.lobby_changed(update)

    async def update(self, room_id: str, change: Callable[[Room], bool],
                     game: dict[str, Any] | None = None) -> Room:
        """Applies `change` to the stored room atomically (see Store.update_room); the room after it."""
        room = await self.store.rooms.update(room_id, change, ttls=self.timings.ttls, game=game)
        if room is None:
            raise Rejected("no_room", f"no room {room_id!r}")
        return room

    # -- lobby and seats ---------------------------------------------------------------------------
    async def create(self, person: Person, settings: Settings, sid: str = "") -> dict[str, Any]:
        """A new room; the creator is host and sits in seat 0 (watching it from socket `sid`, when given,
        before it is published: a room is listed only while someone seated is there)."""
        room = Room.new("r_" + secrets.token_hex(4), new_code(), person.id, person.name, settings, time.time())
        await self.store_new(room, person)
        if sid:
            await self.store.presence.watch(room.id, proc=self.proc, sid=sid, person=person.id)
        return await self.publish(room)

    async def store_new(self, room: Room, person: Person) -> None:
        """Stores a room `person` creates, within the caps on open rooms (waiting or playing) created by
        one person and from one client address (Rejected 'too_many_rooms'), atomically."""
        caps = {self.store.rooms.hosted_key("person", person.id): self.timings.rooms_per_person}
        if person.address:
            caps[self.store.rooms.hosted_key("address", person.address)] = self.timings.rooms_per_address
        try:
            while not await self.store.rooms.create(room, ttl=self.timings.waiting_ttl, caps=caps):
                room.code = new_code()   # taken: draw another
        except AtCap as e:
            who = "you have" if e.key == self.store.rooms.hosted_key("person", person.id) else "your address has"
            raise Rejected("too_many_rooms", f"{who} {e.count} open rooms; at most {e.count}") from None

    async def _seat_change(self, room_id: str, change: Callable[[Room], None]) -> dict[str, Any]:
        room = await self.room(room_id)

        def changed(r: Room) -> bool:
            change(r)
            return True
        return await self.publish(await self.update(room.id, changed))

    async def sit(self, person: Person, room_id: str, seat: object) -> dict[str, Any]:
        return await self._seat_change(room_id, lambda r: r.sit(seat, person.id, person.name))

    async def stand(self, person: Person, room_id: str, seat: object) -> dict[str, Any]:
        return await self._seat_change(room_id, lambda r: r.stand(seat, person.id))

    async def add_bot(self, person: Person, room_id: str, seat: object, level: str | None = None) -> dict[str, Any]:
        capped = await self._search_cap(person, room_id, level)

        def add(room: Room) -> None:
            room.add_bot(seat, person.id, self.levels, level)
            capped(room)
        return await self._seat_change(room_id, add)

    async def set_bot_level(self, person: Person, room_id: str, seat: object, level: str) -> dict[str, Any]:
        capped = await self._search_cap(person, room_id, level)

        def change(room: Room) -> None:
            room.set_bot_level(seat, person.id, level, self.levels)
            capped(room)
        return await self._seat_change(room_id, change)

    async def _search_cap(self, person: Person, room_id: str, level: object) -> Callable[[Room], None]:
        """The check, after a bot seat's change, that the person's open rooms seat at most
        SEARCH_PER_PERSON search bots (else `too_many_search_bots`, nothing changed)."""
        others = 0
        if level == SEARCH:
            hosted = [i for i in await self.store.rooms.hosted(person.id) if i != room_id]
            others = sum(r.search_bots() for r in await self.store.rooms.many(hosted)
                         if r is not None and r.status != FINISHED)

        def check(room: Room) -> None:
            if level == SEARCH and others + room.search_bots() > SEARCH_PER_PERSON:
                raise Rejected("too_many_search_bots", f"your open tables seat {others} search bots; "
                                                       f"at most {SEARCH_PER_PERSON} in all")
        return check

    async def remove_bot(self, person: Person, room_id: str, seat: object) -> dict[str, Any]:
        return await self._seat_change(room_id, lambda r: r.remove_bot(seat, person.id))

    async def kick(self, person: Person, room_id: str, seat: object) -> dict[str, Any]:
        """The host frees another person's seat in a waiting room."""
        def kick(room: Room) -> None:
            room.kick(seat, person.id)
        return await self._seat_change(room_id, kick)

    async def by_code(self, code: str) -> Room:
        """The room with this join code."""
        found = await self.store.rooms.by_code(code.strip().upper())
        if found is None:
            raise Rejected("no_room", f"no room with code {code!r}")
        return await self.room(found)

    async def join(self, person: Person, room: Room, sid: str) -> tuple[Room, dict[str, Any]]:
        """A socket joins the room's stream (as player or spectator); a returning player is back. The
        room and its published state."""
        await self.store.presence.watch(room.id, proc=self.proc, sid=sid, person=person.id)
        if room.status in (PLAYING, WAITING) and person.id in room.humans():
            room = await self.update(room.id, lambda r: r.mark_back(person.id))
        return room, await self.publish(room)

    async def leave(self, person: Person, room_id: str, sid: str, explicit: bool) -> None:
        """A socket leaves the room's stream (room_leave, or its connection closed)."""
        await self.store.presence.unwatch(room_id, proc=self.proc, sid=sid)
        room = await self.store.rooms.get(room_id)
        if room is None:
            return
        present = await self.present(room_id)
        if person.id not in present and person.id in room.humans():
            if room.status == WAITING and explicit:
                room = await self.update(room_id, lambda r: r.release(person.id))
            elif room.status in (PLAYING, WAITING):   # waiting: the seat is freed after the grace (Timers)
                now = time.time()
                room = await self.update(room_id, lambda r: r.mark_away(person.id, now))
                await self.store.timers.schedule(room_id, now + room.settings.grace, earlier_only=True)
        await self.publish(room)

    # -- chat --------------------------------------------------------------------------------------
    async def chat(self, person: Person, room_id: str, text: str, lines: int = 5, window: float = 10.0) -> None:
        """A chat line from `person` to everyone in the room: at most `lines` per `window` seconds per
        person, whatever the number of their sockets or processes."""
        room = await self.room(room_id)
        if room.name_taken(person.name, person.id):   # a spectator may not speak as a seated player
            raise Rejected("name_taken", f"someone at this table is called {person.name!r}; set_name first")
        if await self.store.people.count_chat(person.id, window) > lines:
            raise Rejected("rate_limited", f"at most {lines} chat lines per {window:g} s; wait a little")
        seats = room.seats_of(person.id)
        line = {"at": time.time(), "person": person.id, "name": person.name,
                "seat": seats[0] if seats else None, "text": text}
        line = await self.store.chat.add(room.id, line, cap=self.timings.chat_log)
        await self.outbox.chat_line(room.id, {"room": room.id, "line": line})

    async def chat_lines(self, room_id: str) -> list[dict[str, Any]]:
        """The room's recent chat lines."""
        return await self.store.chat.lines(room_id)

"""Rooms and seats: the pure bookkeeping of a table (no I/O); the Lobby persists it through the Store."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from server.lobby.errors import Rejected
from server.lobby.settings import Settings

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"

PRESENCE_ROUNDS = 4
"""A playing room's own look at who is present comes every 2 to 4 presence TTLs (`Room.next_check`):
what a socket's leaving does not tell, a process's falling silent does (Store.heartbeat)."""

SEARCH = "search"
"""The level whose every decision thinks for up to a second (server/bots): the one the caps count."""

SEARCH_PER_PERSON = 4
"""Search bots in the open rooms (waiting or playing) one person hosts, all together."""

SEARCH_PER_ROOM = 3
"""Search bots one room may seat (more is refused `too_many_search_bots`): each thinks a budget per turn in
the bot workers, so a table of them costs the service whole seconds per round."""


@dataclass(frozen=True, slots=True)
class BotLevels:
    """The bot levels a host may seat (`names`, weakest first) and `default`: a bot seat's level when the host
    names none, and the level of the bot that decides for a person (their clock ran out, or a takeover). The
    composition root gives them (server.bots.LEVELS, DEFAULT_LEVEL): rooms are bookkeeping and import no bot."""

    names: tuple[str, ...]
    default: str

    def check(self, level: object) -> str:
        """`level` when it is one of `names`, else Rejected 'malformed'."""
        if not isinstance(level, str) or level not in self.names:
            raise Rejected("malformed", f"a bot's level is one of {', '.join(self.names)}, not {level!r}")
        return level


@dataclass
class Seat:
    """One seat at the table: empty, a person, or a bot."""

    kind: str = "empty"              # empty | human | bot
    person: str | None = None        # public person id (never the token)
    name: str | None = None
    away_since: float | None = None  # when the person's last socket left the room (playing only)
    autopilot: bool = False          # a bot plays for the away person (grace ran out)
    level: str | None = None         # a bot's level (one of BotLevels.names); None for a person or an empty seat
    held_for: str | None = None      # an empty seat of a rematch, kept for the person who held it last game

    def to_store(self) -> dict[str, Any]:
        return {"kind": self.kind, "person": self.person, "name": self.name, "away_since": self.away_since,
                "autopilot": self.autopilot, "level": self.level, "held_for": self.held_for}

    def bot_level(self, default: str) -> str:
        """The level of the bot that decides for this seat: its own bot's, or for a person's seat played by
        the takeover bot or the clock, `default` (BotLevels.default)."""
        return self.level if self.kind == "bot" and self.level else default

    @property
    def shown_level(self) -> str | None:
        """The level the room state, the lobby and the game record show: a bot seat's, else None."""
        return self.level if self.kind == "bot" else None


@dataclass
class Room:
    """A table: settings, seats, host and lifecycle status (waiting → playing → finished → expired)."""

    id: str
    code: str
    host: str | None
    settings: Settings
    seats: list[Seat]
    status: str = WAITING
    created: float = 0.0
    finished: float | None = None
    rev: int = 0
    bots_named: int = 0
    barred: list[str] = field(default_factory=list)   # persons the host kicked: they may not sit here again

    @classmethod
    def new(cls, id: str, code: str, host: str, host_name: str, settings: Settings, now: float) -> Room:
        seats = [Seat() for _ in range(settings.seats)]
        seats[0] = Seat("human", host, host_name)
        return cls(id=id, code=code, host=host, settings=settings, seats=seats, created=now)

    # -- seats -------------------------------------------------------------------------------------
    def seat(self, index: Any) -> Seat:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.seats):
            raise Rejected("malformed", f"seat must be an integer from 0 to {len(self.seats) - 1}")
        return self.seats[index]

    def must_wait(self) -> None:
        if self.status != WAITING:
            raise Rejected("not_waiting", f"the room is {self.status}; seats are fixed once it starts")

    def must_host(self, person: str) -> None:
        if person != self.host:
            raise Rejected("not_host", "only the host may do this")

    def sit(self, index: Any, person: str, name: str) -> None:
        self.must_wait()
        seat = self.seat(index)
        if seat.kind != "empty" and seat.person != person:
            raise Rejected("seat_taken", f"seat {index} is taken")
        if seat.held_for not in (None, person):
            raise Rejected("seat_taken", f"seat {index} is kept for its player of the last game")
        if person in self.barred:
            raise Rejected("barred", "the host removed you from this table; you may watch, not sit")
        if self.name_taken(name, person):
            raise Rejected("name_taken", f"someone at this table is already called {name!r}; set_name first")
        self.seats[index] = Seat("human", person, name)
        if self.host is None:
            self.host = person

    def stand(self, index: Any, person: str) -> None:
        self.must_wait()
        seat = self.seat(index)
        if seat.kind != "human" or seat.person != person:
            raise Rejected("not_seated", f"you do not hold seat {index}")
        self.seats[index] = Seat()

    def add_bot(self, index: Any, person: str, levels: BotLevels, level: str | None = None) -> None:
        """The host seats a bot of `level`, one of `levels` (None: their default)."""
        self.must_wait()
        self.must_host(person)
        seat = self.seat(index)
        if seat.kind != "empty":
            raise Rejected("seat_taken", f"seat {index} is taken")
        level = levels.check(level or levels.default)
        self._room_for(level, seat)
        self.seats[index] = self._bot(level)

    def set_bot_level(self, index: Any, person: str, level: str, levels: BotLevels) -> None:
        """The host changes a bot seat's level (one of `levels`) before the game starts."""
        self.must_wait()
        self.must_host(person)
        seat = self.seat(index)
        if seat.kind != "bot":
            raise Rejected("malformed", f"seat {index} holds no bot")
        level = levels.check(level)
        self._room_for(level, seat)
        seat.level = level

    def search_bots(self) -> int:
        """The search bots seated here (what the caps on search bots count)."""
        return sum(1 for s in self.seats if s.kind == "bot" and s.level == SEARCH)

    def _room_for(self, level: str, seat: Seat) -> None:
        """Refuses a search bot for `seat` beyond SEARCH_PER_ROOM (nothing changed)."""
        already = seat.kind == "bot" and seat.level == SEARCH
        if level == SEARCH and not already and self.search_bots() >= SEARCH_PER_ROOM:
            raise Rejected("too_many_search_bots", f"a table seats at most {SEARCH_PER_ROOM} search bots")

    def kick(self, index: Any, host: str) -> str:
        """The host frees a seat another person holds in the waiting room (a squatter, someone gone), who
        may not sit at this table again (else a kick is undone at once); or opens an empty seat kept for
        a player of the last game to anyone. The person kicked (or the seat was kept for)."""
        self.must_wait()
        self.must_host(host)
        seat = self.seat(index)
        if seat.kind == "empty" and seat.held_for is not None:
            self.seats[index] = Seat()
            return seat.held_for
        if seat.kind != "human" or seat.person is None or seat.person == host:
            raise Rejected("malformed", f"seat {index} holds no other person")
        self.seats[index] = Seat()
        if seat.person not in self.barred:
            self.barred.append(seat.person)
        return seat.person

    def name_taken(self, name: str, person: str) -> bool:
        """Whether another seat (another person's, or a bot's) carries this name, ignoring case."""
        wanted = name.casefold()
        return any(s.name is not None and s.name.casefold() == wanted and (s.kind == "bot" or s.person != person)
                   for s in self.seats)

    def release_away(self, present: set[str], now: float) -> bool:
        """Waiting room: the seats of a person away for longer than the grace period (and still not
        present) are freed, so a stranger who sat and left does not hold them."""
        if self.status != WAITING:
            return False
        changed = False
        for seat in self.seats:
            if seat.kind == "human" and seat.person in present and seat.away_since is not None:
                seat.away_since = None   # back in time (on some socket): the seat stays theirs
                changed = True
        gone = {s.person for s in self.seats if s.kind == "human" and s.person not in present
                and s.away_since is not None and now >= s.away_since + self.settings.grace}
        for person in gone:
            if person is not None:
                changed = self.release(person) or changed
        return changed

    def next_away_end(self) -> float | None:
        """When the earliest grace period of an away seat ends (None: nobody is away)."""
        ends = [s.away_since + self.settings.grace for s in self.seats
                if s.kind == "human" and s.away_since is not None]
        return min(ends) if ends else None

    def remove_bot(self, index: Any, person: str) -> None:
        self.must_wait()
        self.must_host(person)
        seat = self.seat(index)
        if seat.kind != "bot":
            raise Rejected("malformed", f"seat {index} holds no bot")
        self.seats[index] = Seat()

    def _bot(self, level: str) -> Seat:
        self.bots_named += 1
        return Seat("bot", None, f"Bot {self.bots_named}", level=level)

    def fill_with_bots(self, level: str) -> None:
        """Seats a bot of `level` (BotLevels.default) in every empty seat."""
        for i, seat in enumerate(self.seats):
            if seat.kind == "empty":
                self.seats[i] = self._bot(level)

    def release(self, person: str) -> bool:
        """A person leaves a waiting room: their seats are freed and hosting passes on."""
        if self.status != WAITING:
            return False
        changed = False
        for i, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.person == person:
                self.seats[i] = Seat()
                changed = True
        if self.host == person:
            self.host = next((s.person for s in self.seats if s.kind == "human"), None)
            changed = True
        return changed

    def seats_of(self, person: str) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and s.person == person]

    def seat_of_colour(self, colour: str) -> int:
        for i in range(len(self.seats)):
            if colour in self.settings.seat_colours(i):
                return i
        raise KeyError(colour)

    def humans(self) -> set[str]:
        return {s.person for s in self.seats if s.kind == "human" and s.person}

    def next_check(self, deciding: tuple[str, ...], turn_at: float, began: float, now: float,
                   presence_ttl: float) -> float:
        """When the room's timers must next be looked at (at `now`; the deciding colour's turn began at
        `turn_at`, the pending round of `deciding` at `began`): a bot's pace (once per turn) or the clock's
        deadline, a grace period's end, and presence every `PRESENCE_ROUNDS` times `presence_ttl`."""
        # Presence changes without a socket's leaving only when a process falls silent or comes back, and
        # then every room is looked at (Store.heartbeat): this look only mends what was missed. At a random
        # point of its second half: rooms started together (or all after a restart) do not all come due
        # in the same tick.
        times = [now + PRESENCE_ROUNDS * presence_ttl * random.uniform(0.5, 1.0)]
        if any(s.kind == "bot" or s.autopilot for s in (self.seats[self.seat_of_colour(c)] for c in deciding)):
            times.append(turn_at + self.settings.bot_pace)
        if self.settings.clock is not None:
            times.append(began + self.settings.clock)
        for s in self.seats:
            if s.away_since is not None and not s.autopilot:
                times.append(s.away_since + self.settings.grace)
        return min(times)

    def mark_back(self, person: str) -> bool:
        """A person's socket is back in the playing room: their seats are no longer away."""
        changed = False
        for seat in self.seats:
            if seat.person == person and (seat.away_since is not None or seat.autopilot):
                seat.away_since, seat.autopilot = None, False
                changed = True
        return changed

    def mark_away(self, person: str, now: float) -> bool:
        """A person's last socket left the playing room at `now`: their seats are away from then on."""
        changed = False
        for seat in self.seats:
            if seat.person == person and seat.away_since is None:
                seat.away_since = now
                changed = True
        return changed

    def mark_presence(self, present: set[str], now: float) -> bool:
        """The timer loop's presence pass: seats of present persons are back, the others away; an away
        seat whose grace ran out is played by a bot until its person returns."""
        changed = False
        for seat in self.seats:
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
            if not seat.autopilot and now >= seat.away_since + self.settings.grace:
                seat.autopilot = True   # a bot plays this seat until the person returns
                changed = True
        return changed

    def finish(self, now: float) -> bool:
        """The game is over: the room is finished (viewable until it expires), nobody is away any more."""
        self.status, self.finished = FINISHED, now
        for seat in self.seats:
            seat.away_since, seat.autopilot = None, False
        return True

    def listed(self, present: set[str]) -> bool:
        """Whether the lobby lists the room, given the persons with a socket in it: a public room that is
        playing, or waiting with someone seated there (a table whose people all left is not offered to
        strangers; it is listed again when one of them is back). Finished games are listed as records."""
        if self.settings.private or self.status == FINISHED:
            return False
        return self.status == PLAYING or bool(self.humans() & present)

    # -- wire --------------------------------------------------------------------------------------
    def to_wire(self, present: set[str], spectators: int, v: int | None) -> dict[str, Any]:
        """The RoomState map of docs/protocol.md §4; `present`: persons with a socket in the room."""
        return {
            "id": self.id, "name": self.settings.name, "code": self.code, "status": self.status,
            "host": self.host, "settings": self.settings.to_wire(),
            "seats": [{"seat": i, "colours": self.settings.seat_colours(i), "kind": s.kind,
                       "person": s.person, "name": s.name,
                       "connected": s.kind == "bot" or (s.kind == "human" and s.person in present),
                       "autopilot": s.autopilot, "level": s.shown_level, "held_for": s.held_for}
                      for i, s in enumerate(self.seats)],
            "spectators": spectators, "v": v, "rev": self.rev, "created": self.created,
            "finished": self.finished,
        }

    def summary(self, spectators: int) -> dict[str, Any]:
        """The RoomSummary map of the lobby list."""
        return {
            "id": self.id, "name": self.settings.name, "status": self.status, "seats": len(self.seats),
            "players": [{"seat": i, "kind": s.kind, "name": s.name, "level": s.shown_level}
                        for i, s in enumerate(self.seats) if s.kind != "empty"],
            "spectators": spectators, "variants": self.settings.variants, "clock": self.settings.clock,
            "game": self.settings.game, "created": self.created, "rev": self.rev,
        }

    def to_store(self) -> dict[str, Any]:
        return {"id": self.id, "code": self.code, "host": self.host, "settings": self.settings.to_store(),
                "seats": [s.to_store() for s in self.seats], "status": self.status, "created": self.created,
                "finished": self.finished, "rev": self.rev, "bots_named": self.bots_named, "barred": self.barred}

    @classmethod
    def from_store(cls, data: dict[str, Any]) -> Room:
        return cls(id=data["id"], code=data["code"], host=data["host"],
                   settings=Settings.from_store(data["settings"]),
                   seats=[Seat(**s) for s in data["seats"]], status=data["status"], created=data["created"],
                   finished=data["finished"], rev=data["rev"], bots_named=data["bots_named"],
                   barred=data.get("barred", []))

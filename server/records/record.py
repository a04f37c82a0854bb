"""The record of one finished game, as a small value, and the log line the lobby stores per action.

A record never holds the seed. The stack appears only as it was drawn (R15): `drawn` lists the tiles in
the order they came off the stack, which is everything a replay needs (`replay.rebuild`).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgpack  # type: ignore[import-untyped]

HOW = ("person", "bot", "clock", "takeover")
"""Who made an action: the seated person, a bot seat, the turn clock running out (a bot chose for the
person), or a bot playing for a person who went away (grace ran out)."""


def logged(v: int, colour: str | None, action: dict[str, Any] | None, by: str, how: str, at: float,
           drawn: list[str]) -> dict[str, Any]:
    """The line the lobby appends to a game's action log (`P:actions:{id}`) when an action is applied:
    version, colour, action (colour and action None: a round closed by its deadline), who (`by`: person id
    or "bot", and `how`, one of HOW), when, and the tiles this action drew (public once drawn: the mode says
    which, `GameMode.drawn`)."""
    line: dict[str, Any] = {"v": v, "colour": colour, "action": action, "by": by, "how": how, "at": round(at, 3)}
    if drawn:
        line["drawn"] = drawn
    return line


class RoomSeat(Protocol):
    """What a record reads of a seat (server.lobby.Seat has it): the records layer imports no lobby."""

    @property
    def kind(self) -> str: ...
    @property
    def person(self) -> str | None: ...
    @property
    def name(self) -> str | None: ...
    @property
    def shown_level(self) -> str | None: ...


class RoomSettings(Protocol):
    """What a record reads of a room's settings (server.lobby.Settings has it)."""

    @property
    def name(self) -> str: ...
    @property
    def private(self) -> bool: ...
    def colours(self) -> list[str]: ...
    def seat_colours(self, seat: int) -> list[str]: ...
    def to_wire(self) -> dict[str, Any]: ...


class FinishedRoom(Protocol):
    """What a record reads of the room its game was played in (server.lobby.Room has it)."""

    @property
    def id(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def settings(self) -> RoomSettings: ...
    @property
    def seats(self) -> Sequence[RoomSeat]: ...


@dataclass(frozen=True)
class GameRecord:
    """A finished game: `id` (the room's), `name`, `settings` (RoomSettings), `colours` in turn order,
    `first` colour, `seats` (`{seat, colours, kind, person, name, level}`: level, a bot's), `started`/`finished` (epoch
    seconds), `drawn` (tiles in the order drawn), `actions` (`{v, colour, action, by, how, at}`, `by` the
    person's public id or None, `at` seconds after `started`) and the engine's `result`. `frames`: the game
    messages as the table received them, for a mode whose replay cannot be rebuilt from the actions without
    the seed (Expeditions: its random state decides landfalls and typhoons), rebuilt by its engine from the
    stored game when the record is made (`GameMode.frames`), whatever the game's length; None for Tongiaki,
    rebuilt from `drawn` (server/records/replay.py). `code`: a private room's join code, which opens its
    record to whoever has it (never sent; None: a public game, listed and readable by anyone)."""

    id: str
    name: str
    settings: dict[str, Any]
    colours: list[str]
    first: str
    seats: list[dict[str, Any]]
    started: float
    finished: float
    drawn: list[str]
    actions: list[dict[str, Any]] = field(repr=False)
    result: dict[str, Any] = field(repr=False)
    frames: list[dict[str, Any]] | None = field(default=None, repr=False)
    code: str | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return (f"GameRecord({self.id}, {len(self.seats)} seats, {len(self.actions)} actions, "
                f"winners={self.result.get('winners')})")

    @property
    def variants(self) -> dict[str, bool]:
        return dict(self.settings.get("variants") or {})

    @classmethod
    def of_room(cls, room: FinishedRoom, log: list[dict[str, Any]], result: dict[str, Any], finished: float,
                frames: list[dict[str, Any]] | None = None) -> GameRecord:
        """The record of a finished room from its action log (lines of `logged`)."""
        settings = room.settings
        colours = settings.colours()
        seats = []
        for i, s in enumerate(room.seats):
            seats.append({"seat": i, "colours": settings.seat_colours(i), "kind": s.kind,
                          "person": s.person if s.kind == "human" else None, "name": s.name,
                          "level": s.shown_level})
        started = log[0].get("at", finished) if log else finished
        actions, drawn = [], []
        for line in log:
            by = line.get("by")
            how = line.get("how") or ("bot" if by == "bot" else "person")   # logged before `how` existed
            actions.append({"v": line["v"], "colour": line["colour"], "action": line["action"],
                            "by": None if how != "person" else by, "how": how,
                            "at": round(max(0.0, line.get("at", started) - started), 3)})
            drawn += line.get("drawn", [])
        wire = settings.to_wire()
        first = colours[0]
        setup = [a["colour"] for a in actions[:1]]
        if setup:
            first = setup[0]   # the first set-up boat is placed by the first player (R3.3)
        return cls(id=room.id, name=settings.name, settings=wire, colours=colours, first=first, seats=seats,
                   started=round(started, 3), finished=round(finished, 3), drawn=drawn, actions=actions,
                   result=result, frames=frames, code=room.code if settings.private else None)

    @property
    def game(self) -> str:
        """The game mode played (records kept before modes: tongiaki)."""
        return str(self.settings.get("game", "tongiaki"))

    @property
    def rebuilt(self) -> bool:
        """Whether its replay is rebuilt from its actions and the tiles they drew (server/records/replay.py:
        the board game's), not read from its frames (kept where the game's mode rebuilds them from the
        stored game, `GameMode.frames`)."""
        return self.frames is None and self.game == "tongiaki"

    @property
    def private(self) -> bool:
        """A private room's game: listed only to its players, readable only by them or with the code."""
        return self.code is not None

    @property
    def people(self) -> set[str]:
        """The public ids of the people seated."""
        return {s["person"] for s in self.seats if s.get("person")}

    def open_to(self, person: str | None, code: str | None) -> bool:
        """Whether `person` (None: unknown) holding `code` (None: none) may read this record."""
        if self.code is None or (person is not None and person in self.people):
            return True
        return code is not None and code.strip().upper() == self.code

    # -- forms -------------------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """What a list of games shows: no actions."""
        return {"id": self.id, "name": self.name, "finished": self.finished, "started": self.started,
                "seats": self.seats, "variants": self.variants, "game": self.game, "actions": len(self.actions),
                "winners": self.result.get("winners"), "scores": self.result.get("scores"), "private": self.private}

    def to_json(self) -> dict[str, Any]:
        """The record as `GET /api/games/<id>` sends it."""
        return {"id": self.id, "name": self.name, "settings": self.settings, "colours": self.colours,
                "first": self.first, "seats": self.seats, "started": self.started, "finished": self.finished,
                "drawn": self.drawn, "actions": self.actions, "result": self.result}

    def to_bytes(self) -> bytes:
        """Compact stored form: msgpack, the actions as rows, deflated."""
        how = {h: i for i, h in enumerate(HOW)}
        rows = [[a["v"], a["colour"], a["action"], a["by"], how[a["how"]], round(a["at"] * 1000)]
                for a in self.actions]
        body = {**self.to_json(), "actions": rows}
        if self.frames is not None:
            body["frames"] = self.frames
        if self.code is not None:
            body["code"] = self.code
        return zlib.compress(bytes(msgpack.packb(body, use_bin_type=True)), 9)

    @classmethod
    def from_bytes(cls, blob: bytes) -> GameRecord:
        body = msgpack.unpackb(zlib.decompress(blob), raw=False, strict_map_key=False)
        actions = [{"v": v, "colour": c, "action": a, "by": by, "how": HOW[h], "at": ms / 1000}
                   for v, c, a, by, h, ms in body.pop("actions")]
        return cls(actions=actions, **body)

"""Client requests parsed once, at the edge, into typed values (docs/protocol.md §3–§6). A request that
does not parse is rejected with `malformed` (or `too_large`) and changes nothing. A request on a room
is parsed in two steps, the room first: the namespace checks that the socket joined it before the rest
of the request is looked at (the order of docs/protocol.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.lobby.errors import Rejected
from server.lobby.mode import WITHDRAW
from server.realtime import validate

Payload = dict[str, Any]


def room_of(data: Payload) -> str:
    """The room id a request names (the one place a room id from a client is checked)."""
    return validate.room_id(data)


@dataclass(frozen=True)
class SetName:
    name: str

    @classmethod
    def from_wire(cls, data: Payload) -> SetName:
        return cls(validate.text(data, "name", 24))


@dataclass(frozen=True)
class Join:
    """`room_join`: a room by id or by join code, and the version the client last saw."""

    room: str | None
    code: str | None
    since: int | None

    @classmethod
    def from_wire(cls, data: Payload) -> Join:
        room = code = None
        if "code" in data:
            code = data["code"]
            if not isinstance(code, str) or len(code) > 16:
                raise Rejected("malformed", "code must be a short string")
        else:
            room = room_of(data)
        return cls(room, code, validate.optional_integer(data, "since"))


@dataclass(frozen=True)
class SeatChange:
    """`sit`, `stand`, `bot_add`, `bot_remove`: the seat is checked against the room's seats (Room.seat),
    whose number the edge does not know."""

    room: str
    seat: object

    @classmethod
    def from_wire(cls, room: str, data: Payload) -> SeatChange:
        return cls(room, data.get("seat"))


@dataclass(frozen=True)
class BotLevel:
    """`bot_add` (the level is optional: the default level) and `bot_level` (a bot seat's new level): the
    level is one of server.bots.LEVELS, checked by the room."""

    room: str
    seat: object
    level: str | None

    @classmethod
    def from_wire(cls, room: str, data: Payload, required: bool = False) -> BotLevel:
        level = data.get("level")
        if (level is not None or required) and not isinstance(level, str):
            raise Rejected("malformed", "level must be a bot level: random, greedy or search")
        return cls(room, data.get("seat"), level)


@dataclass(frozen=True)
class Start:
    room: str
    fill_with_bots: bool

    @classmethod
    def from_wire(cls, room: str, data: Payload) -> Start:
        return cls(room, validate.boolean(data, "fill_with_bots"))


@dataclass(frozen=True)
class Act:
    """`act`: an action for the version the client saw (the engine checks the action itself), and the
    colour it is for when the person holds several seats (None: the one deciding, docs/protocol.md §5)."""

    room: str
    v: int
    action: dict[str, Any]
    colour: str | None = None

    @classmethod
    def from_wire(cls, room: str, data: Payload) -> Act:
        v = validate.integer(data, "v")
        action = data.get("action")
        if not isinstance(action, dict):
            raise Rejected("malformed", "action must be a map")
        if action.get("type") == WITHDRAW["type"]:   # one way to take an order back: the `withdraw` event
            raise Rejected("malformed", "to take back an order, send withdraw")
        return cls(room, v, action, validate.optional_colour(data))


@dataclass(frozen=True)
class Withdraw:
    """`withdraw`: take back the order of the current turn of `colour` (None: the person's first seat
    with an order in, docs/protocol.md §14)."""

    room: str
    colour: str | None

    @classmethod
    def from_wire(cls, room: str, data: Payload) -> Withdraw:
        return cls(room, validate.optional_colour(data))


@dataclass(frozen=True)
class ReportSeen:
    """`report_seen`: the report of `turn` has been played or skipped (docs/protocol.md §14)."""

    room: str
    turn: int

    @classmethod
    def from_wire(cls, room: str, data: Payload) -> ReportSeen:
        return cls(room, validate.integer(data, "turn"))


@dataclass(frozen=True)
class Since:
    room: str
    v: int

    @classmethod
    def from_wire(cls, room: str, data: Payload) -> Since:
        v = validate.integer(data, "v")
        return cls(room, v)


@dataclass(frozen=True)
class Chat:
    room: str
    text: str

    @classmethod
    def from_wire(cls, room: str, data: Payload) -> Chat:
        return cls(room, validate.text(data, "text", 300))

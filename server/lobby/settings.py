"""A room's settings (chosen at creation): the game mode, seats, variants (R14), starting player, clock,
pace, grace."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from server.lobby.errors import Rejected
from server.lobby.text import clean

COLOURS = ("red", "blue", "green", "yellow", "orange", "purple")  # R1 order
GAMES = ("tongiaki", "expeditions")
"""The game modes a room may play (server/lobby/mode.py; docs/protocol.md §14)."""
DEADLINE = (30, 72 * 3600)
"""An Expeditions turn's deadline, in seconds: from live play to play over days (docs/protocol.md §14)."""


@dataclass(frozen=True)
class Settings:
    """What the host chose; see docs/protocol.md §3 RoomSettings."""

    name: str
    seats: int = 4
    two_colours: bool = False
    free_follow_up: bool = False
    first: int | None = None      # starting seat, None: drawn on the server (R3.2)
    private: bool = False
    clock: float | None = None    # seconds per decision, None: no turn clock
    bot_pace: float = 1.0         # seconds a bot waits before acting
    grace: float = 30.0           # seconds before a bot plays for a disconnected person
    game: str = "tongiaki"        # the game mode (GAMES); with "expeditions" `clock` is the turn deadline

    @classmethod
    def from_wire(cls, data: Any) -> Settings:
        """Validates a `room_create` payload; raises Rejected('malformed' | 'too_large')."""
        if not isinstance(data, dict):
            raise Rejected("malformed", "room settings must be a map")
        unknown = set(data) - {"name", "seats", "variants", "first", "private", "clock", "bot_pace",
                               "grace", "game"}
        if unknown:
            raise Rejected("malformed", f"unknown settings: {sorted(unknown)}")
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise Rejected("malformed", "name must be a non-empty string")
        name = clean(name)   # no control or bidi characters (as every display text)
        if not name:
            raise Rejected("malformed", "name must be a non-empty string")
        if len(name) > 40:
            raise Rejected("too_large", "name is longer than 40 characters")
        game = data.get("game", "tongiaki")
        if game not in GAMES:
            raise Rejected("malformed", f"game must be one of {', '.join(GAMES)}")
        if game == "expeditions" and ({"variants", "first"} & set(data)):
            raise Rejected("malformed", "an Expeditions room has no variants and no starting seat")
        variants = data.get("variants") or {}
        if not isinstance(variants, dict) or set(variants) - {"two_colours", "free_follow_up"} or not all(
                isinstance(v, bool) for v in variants.values()):
            raise Rejected("malformed", "variants must map two_colours/free_follow_up to booleans")
        two = variants.get("two_colours", False)
        seats = data.get("seats", 2 if two else 4)
        if not _is_int(seats) or not 2 <= seats <= 6:
            raise Rejected("malformed", "seats must be an integer from 2 to 6")
        if two and seats != 2:
            raise Rejected("malformed", "the two-colours variant is for 2 seats (R14)")
        first = data.get("first")
        if first is not None and (not _is_int(first) or not 0 <= first < seats):
            raise Rejected("malformed", "first must be null or a seat index")
        private = data.get("private", False)
        if not isinstance(private, bool):
            raise Rejected("malformed", "private must be a boolean")
        if game == "expeditions":   # the turn deadline: required
            clock = _number(data, "clock", None, *DEADLINE)
        else:
            clock = _number(data, "clock", None, 1, 600, nullable=True)
        pace = _required(data, "bot_pace", 1.0, 0, 10)
        grace = _required(data, "grace", 30.0, 0, 600)
        return cls(name=name, seats=seats, two_colours=two,
                   free_follow_up=variants.get("free_follow_up", False), first=first, private=private,
                   clock=clock, bot_pace=pace, grace=grace, game=game)

    @property
    def variants(self) -> dict[str, bool]:
        """The engine's variants dict (R14)."""
        return {"two_colours": self.two_colours, "free_follow_up": self.free_follow_up}

    def seat_colours(self, seat: int) -> list[str]:
        """The engine colours one seat plays; with two colours seat 0 plays red+green, seat 1 blue+yellow."""
        if self.two_colours:
            return [COLOURS[seat], COLOURS[seat + 2]]
        return [COLOURS[seat]]

    def colours(self) -> list[str]:
        """All colours in turn order (R14: A1, B1, A2, B2)."""
        return list(COLOURS[: self.seats * 2 if self.two_colours else self.seats])

    def to_wire(self) -> dict[str, Any]:
        """The RoomSettings map of docs/protocol.md."""
        return {"name": self.name, "seats": self.seats, "variants": self.variants, "first": self.first,
                "private": self.private, "clock": self.clock, "bot_pace": self.bot_pace, "grace": self.grace,
                "game": self.game}

    def to_store(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_store(cls, data: dict[str, Any]) -> Settings:
        return cls(**data)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(data: dict[str, Any], key: str, default: float | None, low: float, high: float,
            nullable: bool = False) -> float | None:
    value = data.get(key, default)
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise Rejected("malformed", f"{key} must be a number from {low} to {high}")
    return float(value)


def _required(data: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = _number(data, key, default, low, high)
    assert value is not None   # only a nullable number is None
    return value

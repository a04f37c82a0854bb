"""A room's settings (chosen at creation): the game mode, seats, variants (R14), starting player, clock,
pace, grace. The settings every room has are read here; the game mode reads its own (`SettingsRules`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from server.game.catalogue import COLOURS  # R1 order
from server.lobby.errors import Rejected
from server.lobby.text import clean


class SettingsRules(Protocol):
    """A game mode's part of a room's settings (GameMode has it, server/lobby/mode.py)."""

    def settings(self, data: dict[str, Any]) -> dict[str, Any]:
        """The mode's own settings from a `room_create` payload (a map holding only keys `Settings.from_wire`
        knows): the values of Settings' fields `seats`, `two_colours`, `free_follow_up`, `first` and
        `clock` that the mode has (the others keep their defaults). Raises Rejected('malformed')."""
        ...


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
    game: str = "tongiaki"        # the game mode (modes.py); with "expeditions" `clock` is the turn deadline

    @classmethod
    def from_wire(cls, data: Any, modes: Mapping[str, SettingsRules]) -> Settings:
        """Validates a `room_create` payload, the settings of its game (one of `modes`, by name) by that
        mode; raises Rejected('malformed' | 'too_large')."""
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
        if not isinstance(game, str) or game not in modes:
            raise Rejected("malformed", f"game must be one of {', '.join(modes)}")
        own = modes[game].settings(data)
        private = data.get("private", False)
        if not isinstance(private, bool):
            raise Rejected("malformed", "private must be a boolean")
        pace = _required(data, "bot_pace", 1.0, 0, 10)
        grace = _required(data, "grace", 30.0, 0, 600)
        return cls(name=name, private=private, bot_pace=pace, grace=grace, game=game, **own)

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


def is_int(value: Any) -> bool:
    """Whether `value` is an integer (a boolean is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat_count(data: dict[str, Any], default: int) -> int:
    """The payload's `seats` (`default` when absent): an integer from 2 to 6, else Rejected('malformed')."""
    seats = data.get("seats", default)
    if not is_int(seats) or not 2 <= seats <= 6:
        raise Rejected("malformed", "seats must be an integer from 2 to 6")
    return int(seats)


def number(data: dict[str, Any], key: str, default: float | None, low: float, high: float,
           nullable: bool = False) -> float | None:
    """The payload's number `key` (`default` when absent) from `low` to `high`, or None when `nullable`;
    else Rejected('malformed')."""
    value = data.get(key, default)
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise Rejected("malformed", f"{key} must be a number from {low} to {high}")
    return float(value)


def _required(data: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = number(data, key, default, low, high)
    assert value is not None   # only a nullable number is None
    return value

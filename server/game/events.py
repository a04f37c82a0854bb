"""The events as typed values: one small frozen class per event type of docs/engine.md ("Events"), with
its wire form (`to_wire`, the dict in the list `Game.apply` returns, keys in the same order) and back
(`EventValue.from_wire`). Fields hold the wire's own values (lists, dicts), so reprs paste back into Python.

    >>> EventValue.from_wire({"type": "sunk", "cell": [1, 2], "boats": ["red"]})
    Sunk(cell=[1, 2], boats=['red'])
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .wire import Event

_RENAMED = {"previous": "from"}
"""Fields whose wire name is a Python keyword."""


class EventValue:
    """An event of any type (the base of the classes below)."""

    def to_wire(self) -> Event:
        """The event as the dict of docs/engine.md, its keys in the engine's order."""
        out: Event = {"type": _TYPE_OF[type(self)]}
        for field in fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            if value is None and field.name in _OPTIONAL:
                continue
            out[_RENAMED.get(field.name, field.name)] = _copy(value)
        return out

    @staticmethod
    def from_wire(wire: Event) -> EventValue:
        """The typed value of an event dict (KeyError or ValueError when it is not one)."""
        cls = _TYPES.get(wire.get("type", ""))
        if cls is None:
            raise ValueError(f"unknown event type {wire.get('type')!r}")
        names = [field.name for field in fields(cls)]  # type: ignore[arg-type]
        extra = set(wire) - {"type"} - {_RENAMED.get(name, name) for name in names}
        if extra:
            raise ValueError(f"unexpected field(s) {sorted(extra)} in a {wire['type']} event")
        given = {name: _copy(wire.get(_RENAMED.get(name, name))) for name in names}
        for name in names:
            if name not in _OPTIONAL and _RENAMED.get(name, name) not in wire:
                raise KeyError(f"a {wire['type']} event needs {name!r}")
        return cls(**given)


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


_OPTIONAL = {"value"}
"""Fields left out of the wire form when None (a drawn ocean tile has no value)."""


@dataclass(frozen=True)
class BoatsPlaced(EventValue):
    """Boats from the supply onto beaches (R3 set-up, R5, R11 settling, R12)."""

    colour: str
    island: str
    cell: list[int]
    beaches: list[int]
    reason: str


@dataclass(frozen=True)
class BoatTakenBack(EventValue):
    """R5 with all 15 on the board: a boat taken back before it is placed again."""

    colour: str
    island: str
    cell: list[int]
    beach: int


@dataclass(frozen=True)
class Colonisation(EventValue):
    """R11: every boat of the colour off the board."""

    colour: str
    returned: int


@dataclass(frozen=True)
class RoyalFounded(EventValue):
    """R10: a royal island founded."""

    colour: str
    island: str
    cell: list[int]
    returned: int


@dataclass(frozen=True)
class TileDrawn(EventValue):
    """A tile drawn from the stack (its `value` for islands only), and what is left of each kind."""

    tile: str
    kind: str
    value: int | None
    left: dict[str, int]


@dataclass(frozen=True)
class TilePlaced(EventValue):
    """A tile put on the table (`how`: forced, turned or free), with its drawing."""

    tile: str
    kind: str
    cell: list[int]
    rotation: int
    how: str
    auto: bool
    view: dict[str, Any]


@dataclass(frozen=True)
class FleetDeparted(EventValue):
    """R6: a full beach's boats sail out of a pier."""

    island: str
    cell: list[int]
    beach: int
    pier: int
    boats: list[str]
    colours: int
    auto: bool


@dataclass(frozen=True)
class PathFollowed(EventValue):
    """R7: the fleet follows a path over an ocean tile."""

    cell: list[int]
    entry: int
    exit: int
    danger: int
    colours: int


@dataclass(frozen=True)
class Crossing(EventValue):
    """R7: the danger of the path against the fleet's colours."""

    cell: list[int]
    danger: int
    colours: int
    passed: bool


@dataclass(frozen=True)
class Sunk(EventValue):
    """R7: the fleet sank; its boats go back to their supplies."""

    cell: list[int]
    boats: list[str]


@dataclass(frozen=True)
class TurnedBack(EventValue):
    """R10: a royal island turns the fleet back to the island it came from."""

    cell: list[int]
    island: str
    to: list[int]


@dataclass(frozen=True)
class FleetArrived(EventValue):
    """The fleet reached an island."""

    island: str
    cell: list[int]
    boats: list[str]


@dataclass(frozen=True)
class Landed(EventValue):
    """R8: the fleet's boats on the island's beaches, the rest back to their supplies."""

    island: str
    cell: list[int]
    placements: list[list[Any]]
    returned: list[str]
    auto: bool


@dataclass(frozen=True)
class FleetAtSea(EventValue):
    """R13: the fleet drew the last ocean tile and stays at sea."""

    cell: list[int]
    boats: list[str]


@dataclass(frozen=True)
class EndlessChain(EventValue):
    """R9: every option leads into an endless chain on these islands."""

    islands: list[str]


@dataclass(frozen=True)
class IslandRemoved(EventValue):
    """R9: an island of an endless chain leaves the game with its boats."""

    island: str
    cell: list[int]
    returned: list[str]


@dataclass(frozen=True)
class TurnPassed(EventValue):
    """The turn passes from one colour to the next (`previous` is the wire's `from`)."""

    previous: str
    to: str
    turn: int


@dataclass(frozen=True)
class GameOver(EventValue):
    """R13: the game is over, with its result."""

    result: dict[str, Any]


_TYPES: dict[str, type[EventValue]] = {
    "boats_placed": BoatsPlaced,
    "boat_taken_back": BoatTakenBack,
    "colonisation": Colonisation,
    "royal_founded": RoyalFounded,
    "tile_drawn": TileDrawn,
    "tile_placed": TilePlaced,
    "fleet_departed": FleetDeparted,
    "path_followed": PathFollowed,
    "crossing": Crossing,
    "sunk": Sunk,
    "turned_back": TurnedBack,
    "fleet_arrived": FleetArrived,
    "landed": Landed,
    "fleet_at_sea": FleetAtSea,
    "endless_chain": EndlessChain,
    "island_removed": IslandRemoved,
    "turn_passed": TurnPassed,
    "game_over": GameOver,
}
"""Each event type's class (a class attribute would be a field to the compiler's dataclasses)."""
_TYPE_OF = {cls: name for name, cls in _TYPES.items()}

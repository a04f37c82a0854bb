"""The events as typed values: one small frozen class per event type of docs/engine.md ("Events"). The
rules build these; `Game.apply` hands out their wire form (`to_wire`: the dict of docs/engine.md, keys in
the documented order, lists fresh), and `EventValue.from_wire` reads a dict back. Fields hold immutable
values where the wire has lists (a cell is a tuple), so reprs paste back into Python.

    >>> EventValue.from_wire({"type": "sunk", "cell": [1, 2], "boats": ["red"]})
    Sunk(cell=(1, 2), boats=('red',))
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .geometry import Cell
from .wire import Event

_RENAMED = {"previous": "from"}
"""Fields whose wire name is a Python keyword."""


class EventValue:
    """An event of any type (the base of the classes below)."""

    def to_wire(self) -> Event:
        """The event as the dict of docs/engine.md, its keys in the engine's order."""
        raise NotImplementedError

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
        for name in names:
            if name not in _OPTIONAL and _RENAMED.get(name, name) not in wire:
                raise KeyError(f"a {wire['type']} event needs {name!r}")
        return cls(**{name: _frozen(wire.get(_RENAMED.get(name, name))) for name in names})


def _frozen(value: Any) -> Any:
    """A wire value as a field holds it: lists as tuples, maps copied."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return _copy(value)
    return value


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
    cell: Cell
    beaches: tuple[int, ...]
    reason: str

    def to_wire(self) -> Event:
        return {"type": "boats_placed", "colour": self.colour, "island": self.island, "cell": list(self.cell),
                "beaches": list(self.beaches), "reason": self.reason}


@dataclass(frozen=True)
class BoatTakenBack(EventValue):
    """R5 with all 15 on the board: a boat taken back before it is placed again."""

    colour: str
    island: str
    cell: Cell
    beach: int

    def to_wire(self) -> Event:
        return {"type": "boat_taken_back", "colour": self.colour, "island": self.island, "cell": list(self.cell),
                "beach": self.beach}


@dataclass(frozen=True)
class Colonisation(EventValue):
    """R11: every boat of the colour off the board."""

    colour: str
    returned: int

    def to_wire(self) -> Event:
        return {"type": "colonisation", "colour": self.colour, "returned": self.returned}


@dataclass(frozen=True)
class RoyalFounded(EventValue):
    """R10: a royal island founded."""

    colour: str
    island: str
    cell: Cell
    returned: int

    def to_wire(self) -> Event:
        return {"type": "royal_founded", "colour": self.colour, "island": self.island, "cell": list(self.cell),
                "returned": self.returned}


@dataclass(frozen=True)
class TileDrawn(EventValue):
    """A tile drawn from the stack (its `value` for islands only), and what is left of each kind
    (`left`: {"islands": n, "oceans": n})."""

    tile: str
    kind: str
    value: int | None
    left: dict[str, int]

    def to_wire(self) -> Event:
        out: Event = {"type": "tile_drawn", "tile": self.tile, "kind": self.kind}
        if self.value is not None:
            out["value"] = self.value
        out["left"] = dict(self.left)
        return out


@dataclass(frozen=True)
class TilePlaced(EventValue):
    """A tile put on the table (`how`: forced, turned or free), with its drawing (`view`: the tile as the
    view draws it, shared with the view as the view's tiles are: read, never changed)."""

    tile: str
    kind: str
    cell: Cell
    rotation: int
    how: str
    auto: bool
    view: dict[str, Any]

    def to_wire(self) -> Event:
        return {"type": "tile_placed", "tile": self.tile, "kind": self.kind, "cell": list(self.cell),
                "rotation": self.rotation, "how": self.how, "auto": self.auto, "view": self.view}


@dataclass(frozen=True)
class FleetDeparted(EventValue):
    """R6: a full beach's boats sail out of a pier."""

    island: str
    cell: Cell
    beach: int
    pier: int
    boats: tuple[str, ...]
    colours: int
    auto: bool

    def to_wire(self) -> Event:
        return {"type": "fleet_departed", "island": self.island, "cell": list(self.cell), "beach": self.beach,
                "pier": self.pier, "boats": list(self.boats), "colours": self.colours, "auto": self.auto}


@dataclass(frozen=True)
class PathFollowed(EventValue):
    """R7: the fleet follows a path over an ocean tile."""

    cell: Cell
    entry: int
    exit: int
    danger: int
    colours: int

    def to_wire(self) -> Event:
        return {"type": "path_followed", "cell": list(self.cell), "entry": self.entry, "exit": self.exit,
                "danger": self.danger, "colours": self.colours}


@dataclass(frozen=True)
class Crossing(EventValue):
    """R7: the danger of the path against the fleet's colours."""

    cell: Cell
    danger: int
    colours: int
    passed: bool

    def to_wire(self) -> Event:
        return {"type": "crossing", "cell": list(self.cell), "danger": self.danger, "colours": self.colours,
                "passed": self.passed}


@dataclass(frozen=True)
class Sunk(EventValue):
    """R7: the fleet sank; its boats go back to their supplies."""

    cell: Cell
    boats: tuple[str, ...]

    def to_wire(self) -> Event:
        return {"type": "sunk", "cell": list(self.cell), "boats": list(self.boats)}


@dataclass(frozen=True)
class TurnedBack(EventValue):
    """R10: a royal island turns the fleet back to the island it came from."""

    cell: Cell
    island: str
    to: Cell

    def to_wire(self) -> Event:
        return {"type": "turned_back", "cell": list(self.cell), "island": self.island, "to": list(self.to)}


@dataclass(frozen=True)
class FleetArrived(EventValue):
    """The fleet reached an island."""

    island: str
    cell: Cell
    boats: tuple[str, ...]

    def to_wire(self) -> Event:
        return {"type": "fleet_arrived", "island": self.island, "cell": list(self.cell), "boats": list(self.boats)}


@dataclass(frozen=True)
class Landed(EventValue):
    """R8: the fleet's boats on the island's beaches, each as (colour, beach); the rest back to their
    supplies."""

    island: str
    cell: Cell
    placements: tuple[tuple[str, int], ...]
    returned: tuple[str, ...]
    auto: bool

    def to_wire(self) -> Event:
        return {"type": "landed", "island": self.island, "cell": list(self.cell),
                "placements": [[c, b] for c, b in self.placements], "returned": list(self.returned),
                "auto": self.auto}


@dataclass(frozen=True)
class FleetAtSea(EventValue):
    """R13: the fleet drew the last ocean tile and stays at sea."""

    cell: Cell
    boats: tuple[str, ...]

    def to_wire(self) -> Event:
        return {"type": "fleet_at_sea", "cell": list(self.cell), "boats": list(self.boats)}


@dataclass(frozen=True)
class EndlessChain(EventValue):
    """R9: every option leads into an endless chain on these islands."""

    islands: tuple[str, ...]

    def to_wire(self) -> Event:
        return {"type": "endless_chain", "islands": list(self.islands)}


@dataclass(frozen=True)
class IslandRemoved(EventValue):
    """R9: an island of an endless chain leaves the game with its boats."""

    island: str
    cell: Cell
    returned: tuple[str, ...]

    def to_wire(self) -> Event:
        return {"type": "island_removed", "island": self.island, "cell": list(self.cell),
                "returned": list(self.returned)}


@dataclass(frozen=True)
class TurnPassed(EventValue):
    """The turn passes from one colour to the next (`previous` is the wire's `from`)."""

    previous: str
    to: str
    turn: int

    def to_wire(self) -> Event:
        return {"type": "turn_passed", "from": self.previous, "to": self.to, "turn": self.turn}


@dataclass(frozen=True)
class GameOver(EventValue):
    """R13: the game is over, with its result."""

    result: dict[str, Any]

    def to_wire(self) -> Event:
        return {"type": "game_over", "result": _copy(self.result)}


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

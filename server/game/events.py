"""The events as typed values: one small frozen class per event type of docs/engine.md ("Events"). The
rules build these; `Game.apply` hands out their wire form (`to_wire`: the dict of docs/engine.md, keys in
the documented order, lists fresh), and `EventValue.from_wire` reads a dict back. Fields hold immutable
values where the wire has lists (a cell is a tuple), so reprs paste back into Python.

    >>> EventValue.from_wire({"type": "sunk", "cell": [1, 2], "boats": ["red"]})
    Sunk(cell=(1, 2), boats=('red',))
"""

from __future__ import annotations

from typing import Any, final

from .geometry import Cell
from .wire import Event

_RENAMED = {"previous": "from"}
"""Fields whose wire name is a Python keyword."""


class EventValue:
    """An event of any type (the base of the classes below). A value is never changed once made. Plain
    compiled classes, not dataclasses: the methods a dataclass generates stay interpreted under mypyc."""

    __slots__ = ()

    def to_wire(self) -> Event:
        """The event as the dict of docs/engine.md, its keys in the engine's order."""
        raise NotImplementedError

    def fields(self) -> tuple[tuple[str, Any], ...]:
        """The value's fields, (name, value) in order: what equality and the repr read."""
        return tuple([(name, getattr(self, name)) for name in _FIELDS[_TYPE_OF[type(self)]]])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EventValue) and type(other) is type(self) and self.fields() == other.fields()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={value!r}' for name, value in self.fields())})"

    @staticmethod
    def from_wire(wire: Event) -> EventValue:
        """The typed value of an event dict (KeyError or ValueError when it is not one)."""
        cls = _TYPES.get(wire.get("type", ""))
        if cls is None:
            raise ValueError(f"unknown event type {wire.get('type')!r}")
        names = _FIELDS[wire["type"]]
        extra = set(wire) - {"type"} - {_RENAMED.get(name, name) for name in names}
        if extra:
            raise ValueError(f"unexpected field(s) {sorted(extra)} in a {wire['type']} event")
        for name in names:
            if name not in _OPTIONAL and _RENAMED.get(name, name) not in wire:
                raise KeyError(f"a {wire['type']} event needs {name!r}")
        return cls(*[_frozen(wire.get(_RENAMED.get(name, name))) for name in names])


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


@final
class BoatsPlaced(EventValue):
    """Boats from the supply onto beaches (R3 set-up, R5, R11 settling, R12)."""

    __slots__ = ("colour", "island", "cell", "beaches", "reason")

    def __init__(self, colour: str, island: str, cell: Cell, beaches: tuple[int, ...], reason: str) -> None:
        self.colour = colour
        self.island = island
        self.cell = cell
        self.beaches = beaches
        self.reason = reason

    def to_wire(self) -> Event:
        return {"type": "boats_placed", "colour": self.colour, "island": self.island, "cell": list(self.cell),
                "beaches": list(self.beaches), "reason": self.reason}


@final
class BoatTakenBack(EventValue):
    """R5 with all 15 on the board: a boat taken back before it is placed again."""

    __slots__ = ("colour", "island", "cell", "beach")

    def __init__(self, colour: str, island: str, cell: Cell, beach: int) -> None:
        self.colour = colour
        self.island = island
        self.cell = cell
        self.beach = beach

    def to_wire(self) -> Event:
        return {"type": "boat_taken_back", "colour": self.colour, "island": self.island, "cell": list(self.cell),
                "beach": self.beach}


@final
class Colonisation(EventValue):
    """R11: every boat of the colour off the board."""

    __slots__ = ("colour", "returned")

    def __init__(self, colour: str, returned: int) -> None:
        self.colour = colour
        self.returned = returned

    def to_wire(self) -> Event:
        return {"type": "colonisation", "colour": self.colour, "returned": self.returned}


@final
class RoyalFounded(EventValue):
    """R10: a royal island founded."""

    __slots__ = ("colour", "island", "cell", "returned")

    def __init__(self, colour: str, island: str, cell: Cell, returned: int) -> None:
        self.colour = colour
        self.island = island
        self.cell = cell
        self.returned = returned

    def to_wire(self) -> Event:
        return {"type": "royal_founded", "colour": self.colour, "island": self.island, "cell": list(self.cell),
                "returned": self.returned}


@final
class TileDrawn(EventValue):
    """A tile drawn from the stack (its `value` for islands only), and what is left of each kind
    (`left`: {"islands": n, "oceans": n})."""

    __slots__ = ("tile", "kind", "value", "left")

    def __init__(self, tile: str, kind: str, value: int | None, left: dict[str, int]) -> None:
        self.tile = tile
        self.kind = kind
        self.value = value
        self.left = left

    def to_wire(self) -> Event:
        out: Event = {"type": "tile_drawn", "tile": self.tile, "kind": self.kind}
        if self.value is not None:
            out["value"] = self.value
        out["left"] = dict(self.left)
        return out


@final
class TilePlaced(EventValue):
    """A tile put on the table (`how`: forced, turned or free), with its drawing (`view`: the tile as the
    view draws it, shared with the view as the view's tiles are: read, never changed)."""

    __slots__ = ("tile", "kind", "cell", "rotation", "how", "auto", "view")

    def __init__(
        self, tile: str, kind: str, cell: Cell, rotation: int, how: str, auto: bool, view: dict[str, Any]
    ) -> None:
        self.tile = tile
        self.kind = kind
        self.cell = cell
        self.rotation = rotation
        self.how = how
        self.auto = auto
        self.view = view

    def to_wire(self) -> Event:
        return {"type": "tile_placed", "tile": self.tile, "kind": self.kind, "cell": list(self.cell),
                "rotation": self.rotation, "how": self.how, "auto": self.auto, "view": self.view}


@final
class FleetDeparted(EventValue):
    """R6: a full beach's boats sail out of a pier."""

    __slots__ = ("island", "cell", "beach", "pier", "boats", "colours", "auto")

    def __init__(
        self, island: str, cell: Cell, beach: int, pier: int, boats: tuple[str, ...], colours: int, auto: bool
    ) -> None:
        self.island = island
        self.cell = cell
        self.beach = beach
        self.pier = pier
        self.boats = boats
        self.colours = colours
        self.auto = auto

    def to_wire(self) -> Event:
        return {"type": "fleet_departed", "island": self.island, "cell": list(self.cell), "beach": self.beach,
                "pier": self.pier, "boats": list(self.boats), "colours": self.colours, "auto": self.auto}


@final
class PathFollowed(EventValue):
    """R7: the fleet follows a path over an ocean tile."""

    __slots__ = ("cell", "entry", "exit", "danger", "colours")

    def __init__(self, cell: Cell, entry: int, exit: int, danger: int, colours: int) -> None:
        self.cell = cell
        self.entry = entry
        self.exit = exit
        self.danger = danger
        self.colours = colours

    def to_wire(self) -> Event:
        return {"type": "path_followed", "cell": list(self.cell), "entry": self.entry, "exit": self.exit,
                "danger": self.danger, "colours": self.colours}


@final
class Crossing(EventValue):
    """R7: the danger of the path against the fleet's colours."""

    __slots__ = ("cell", "danger", "colours", "passed")

    def __init__(self, cell: Cell, danger: int, colours: int, passed: bool) -> None:
        self.cell = cell
        self.danger = danger
        self.colours = colours
        self.passed = passed

    def to_wire(self) -> Event:
        return {"type": "crossing", "cell": list(self.cell), "danger": self.danger, "colours": self.colours,
                "passed": self.passed}


@final
class Sunk(EventValue):
    """R7: the fleet sank; its boats go back to their supplies."""

    __slots__ = ("cell", "boats")

    def __init__(self, cell: Cell, boats: tuple[str, ...]) -> None:
        self.cell = cell
        self.boats = boats

    def to_wire(self) -> Event:
        return {"type": "sunk", "cell": list(self.cell), "boats": list(self.boats)}


@final
class TurnedBack(EventValue):
    """R10: a royal island turns the fleet back to the island it came from."""

    __slots__ = ("cell", "island", "to")

    def __init__(self, cell: Cell, island: str, to: Cell) -> None:
        self.cell = cell
        self.island = island
        self.to = to

    def to_wire(self) -> Event:
        return {"type": "turned_back", "cell": list(self.cell), "island": self.island, "to": list(self.to)}


@final
class FleetArrived(EventValue):
    """The fleet reached an island."""

    __slots__ = ("island", "cell", "boats")

    def __init__(self, island: str, cell: Cell, boats: tuple[str, ...]) -> None:
        self.island = island
        self.cell = cell
        self.boats = boats

    def to_wire(self) -> Event:
        return {"type": "fleet_arrived", "island": self.island, "cell": list(self.cell), "boats": list(self.boats)}


@final
class Landed(EventValue):
    """R8: the fleet's boats on the island's beaches, each as (colour, beach); the rest back to their
    supplies."""

    __slots__ = ("island", "cell", "placements", "returned", "auto")

    def __init__(
        self, island: str, cell: Cell, placements: tuple[tuple[str, int], ...], returned: tuple[str, ...], auto: bool
    ) -> None:
        self.island = island
        self.cell = cell
        self.placements = placements
        self.returned = returned
        self.auto = auto

    def to_wire(self) -> Event:
        return {"type": "landed", "island": self.island, "cell": list(self.cell),
                "placements": [[c, b] for c, b in self.placements], "returned": list(self.returned),
                "auto": self.auto}


@final
class FleetAtSea(EventValue):
    """R13: the fleet drew the last ocean tile and stays at sea."""

    __slots__ = ("cell", "boats")

    def __init__(self, cell: Cell, boats: tuple[str, ...]) -> None:
        self.cell = cell
        self.boats = boats

    def to_wire(self) -> Event:
        return {"type": "fleet_at_sea", "cell": list(self.cell), "boats": list(self.boats)}


@final
class EndlessChain(EventValue):
    """R9: every option leads into an endless chain on these islands."""

    __slots__ = ("islands",)

    def __init__(self, islands: tuple[str, ...]) -> None:
        self.islands = islands

    def to_wire(self) -> Event:
        return {"type": "endless_chain", "islands": list(self.islands)}


@final
class IslandRemoved(EventValue):
    """R9: an island of an endless chain leaves the game with its boats."""

    __slots__ = ("island", "cell", "returned")

    def __init__(self, island: str, cell: Cell, returned: tuple[str, ...]) -> None:
        self.island = island
        self.cell = cell
        self.returned = returned

    def to_wire(self) -> Event:
        return {"type": "island_removed", "island": self.island, "cell": list(self.cell),
                "returned": list(self.returned)}


@final
class TurnPassed(EventValue):
    """The turn passes from one colour to the next (`previous` is the wire's `from`)."""

    __slots__ = ("previous", "to", "turn")

    def __init__(self, previous: str, to: str, turn: int) -> None:
        self.previous = previous
        self.to = to
        self.turn = turn

    def to_wire(self) -> Event:
        return {"type": "turn_passed", "from": self.previous, "to": self.to, "turn": self.turn}


@final
class GameOver(EventValue):
    """R13: the game is over, with its result."""

    __slots__ = ("result",)

    def __init__(self, result: dict[str, Any]) -> None:
        self.result = result

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
"""Each event type's class."""
_FIELDS: dict[str, tuple[str, ...]] = {
    "boats_placed": ("colour", "island", "cell", "beaches", "reason"),
    "boat_taken_back": ("colour", "island", "cell", "beach"),
    "colonisation": ("colour", "returned"),
    "royal_founded": ("colour", "island", "cell", "returned"),
    "tile_drawn": ("tile", "kind", "value", "left"),
    "tile_placed": ("tile", "kind", "cell", "rotation", "how", "auto", "view"),
    "fleet_departed": ("island", "cell", "beach", "pier", "boats", "colours", "auto"),
    "path_followed": ("cell", "entry", "exit", "danger", "colours"),
    "crossing": ("cell", "danger", "colours", "passed"),
    "sunk": ("cell", "boats"),
    "turned_back": ("cell", "island", "to"),
    "fleet_arrived": ("island", "cell", "boats"),
    "landed": ("island", "cell", "placements", "returned", "auto"),
    "fleet_at_sea": ("cell", "boats"),
    "endless_chain": ("islands",),
    "island_removed": ("island", "cell", "returned"),
    "turn_passed": ("previous", "to", "turn"),
    "game_over": ("result",),
}
"""Each event type's fields, in order (`from_wire` reads them by name)."""
_TYPE_OF = {cls: name for name, cls in _TYPES.items()}

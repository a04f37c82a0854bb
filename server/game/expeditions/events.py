"""What a resolution reports, step by step (E5-E13): frozen value types with wire forms.

Each event's wire form is a dict with `"type"` (the class's `kind`) and its fields; cells are `[x, y]`,
tuples are lists. `event_from_wire` reverses it. The list of a turn's events is the turn report (E13)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .catalogue import Cell

Wire = dict[str, Any]


def _plain(value: Any) -> Any:
    if isinstance(value, Cell):
        return [value.x, value.y]
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    if isinstance(value, dict):
        return {k: _tupled(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Event:
    """Base of every event."""

    kind: ClassVar[str] = ""

    def to_wire(self) -> Wire:
        wire: Wire = {"type": self.kind}
        for f in fields(self):
            wire[f.name] = _plain(getattr(self, f.name))
        return wire


@dataclass(frozen=True)
class OrdersRevealed(Event):
    """E13: every player's order of the turn, now public (None: no order, did nothing)."""

    kind: ClassVar[str] = "orders"
    turn: int
    orders: dict[str, Any]


@dataclass(frozen=True)
class RoyalFounded(Event):
    """E5.1: the island is the colour's royal island; its boats (all the founder's) went back to the supply."""

    kind: ClassVar[str] = "royal_founded"
    colour: str
    island: str
    cell: Cell
    returned: int


@dataclass(frozen=True)
class BoatMoved(Event):
    """E5.2: one boat move: `to` is "beach" (from the supply) or "supply" (from the beach)."""

    kind: ClassVar[str] = "boat_moved"
    colour: str
    island: str
    cell: Cell
    beach: str
    to: str


@dataclass(frozen=True)
class MoveFailed(Event):
    """E5.2: a move onto an island made royal this turn fails; the rest of the order still applies."""

    kind: ClassVar[str] = "move_failed"
    colour: str
    island: str
    beach: str
    reason: str


@dataclass(frozen=True)
class MigrationStarted(Event):
    """E7: the overflowing beaches at the start of the migration phase, for the report's first picture."""

    kind: ClassVar[str] = "migration_phase"
    overflowing: tuple[tuple[str, str, int], ...]


@dataclass(frozen=True)
class FleetDeparted(Event):
    """E7: a beach's boats leave as a fleet; `mv` is its migration value (distinct colours); `tied` the
    beaches that had as many boats (the random pick among them)."""

    kind: ClassVar[str] = "fleet_departed"
    island: str
    cell: Cell
    beach: str
    boats: tuple[str, ...]
    mv: int
    tied: int


@dataclass(frozen=True)
class TilePlaced(Event):
    """E8.1: the deck's top tile placed on an empty cell, as printed; `left` the tiles of each kind left."""

    kind: ClassVar[str] = "tile_placed"
    tile: str
    cell: Cell
    left: dict[str, int]


@dataclass(frozen=True)
class RouteSailed(Event):
    """E8.2: a fleet enters a sea tile's route; `factor` is the one at the entry end (typhoon +1 included);
    `survived` is factor <= mv."""

    kind: ClassVar[str] = "route_sailed"
    tile: str
    cell: Cell
    entry: str
    exit: str
    factor: int
    mv: int
    survived: bool


@dataclass(frozen=True)
class FleetLost(Event):
    """E8.1/E8.5: the fleet is destroyed (`how`: "weather" or "edge"); its boats go back to their supplies."""

    kind: ClassVar[str] = "fleet_lost"
    how: str
    cell: Cell
    boats: tuple[str, ...]


@dataclass(frozen=True)
class Bounced(Event):
    """E8.3: the fleet reached a royal island and turns back to the island it departed from."""

    kind: ClassVar[str] = "bounced"
    royal: str
    cell: Cell
    back_to: str


@dataclass(frozen=True)
class Landfall(Event):
    """E8.4: each boat, in the fleet's order, went to the beach shown: `placements` = ((colour, beach), ...)."""

    kind: ClassVar[str] = "landfall"
    island: str
    cell: Cell
    placements: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class FleetAtSea(Event):
    """E11: the game ended on a sea tile just placed: the fleet stays there and scores nothing."""

    kind: ClassVar[str] = "fleet_at_sea"
    cell: Cell
    boats: tuple[str, ...]


@dataclass(frozen=True)
class TyphoonDrawn(Event):
    """E10: the tile number drawn; `struck` says whether it is a sea tile on the map (a typhoon follows)."""

    kind: ClassVar[str] = "typhoon_drawn"
    number: int
    tile: str
    struck: bool


@dataclass(frozen=True)
class Typhoon(Event):
    """E10: `struck` went back into the deck; `tile`, drawn from the deck, now lies on `cell` with +1 factors."""

    kind: ClassVar[str] = "typhoon"
    cell: Cell
    struck: str
    tile: str


@dataclass(frozen=True)
class TurnScored(Event):
    """E12: after every turn, each colour's score, islands present (royal included) and boats on the map."""

    kind: ClassVar[str] = "turn_scored"
    turn: int
    scores: dict[str, int]
    islands: dict[str, int]
    boats: dict[str, int]


@dataclass(frozen=True)
class GameOver(Event):
    """E11: why the game ended ("last_tile", "islands", "turns") and the result."""

    kind: ClassVar[str] = "game_over"
    reason: str
    result: dict[str, Any]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        OrdersRevealed,
        RoyalFounded,
        BoatMoved,
        MoveFailed,
        MigrationStarted,
        FleetDeparted,
        TilePlaced,
        RouteSailed,
        FleetLost,
        Bounced,
        Landfall,
        FleetAtSea,
        TyphoonDrawn,
        Typhoon,
        TurnScored,
        GameOver,
    )
}


def event_from_wire(wire: Wire) -> Event:
    """The event a wire dict describes (inverse of `Event.to_wire`)."""
    cls = EVENT_TYPES[wire["type"]]
    values: dict[str, Any] = {}
    for f in fields(cls):
        value = wire[f.name]
        if f.name == "cell":
            value = Cell(*value)
        elif f.name in ("orders", "result"):
            value = dict(value)
        else:
            value = _tupled(value)
        values[f.name] = value
    return cls(**values)

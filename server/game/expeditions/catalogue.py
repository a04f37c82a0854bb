"""Tiles, sides and cells of Expeditions (E1, E2): small frozen value types over `tiledata`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..catalogue import COLOURS as COLOURS  # the six colours in RULES.md R1's order (E1); a game's are 2-6 of them
from .tiledata import ISLAND_DATA, SEA_DATA

SIDES: tuple[str, ...] = ("N", "E", "S", "W")
"""The four sides of a square tile, in the catalogue's order; an island has one beach on each."""

STEP: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE: dict[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}
SIZE = 11
"""The board is SIZE × SIZE cells, x and y from 1 to SIZE (E2)."""
CAPACITY = 3
"""A beach overflows when it holds more than CAPACITY boats (E6)."""
BOATS = 15
"""Boats per colour (E1)."""


class Cell(NamedTuple):
    """A square of the board: x left to right, y top to bottom (E2)."""

    x: int
    y: int

    def step(self, side: str) -> Cell:
        """The neighbouring cell on `side`."""
        dx, dy = STEP[side]
        return Cell(self.x + dx, self.y + dy)

    def on_board(self) -> bool:
        """False beyond the edge of the world."""
        return 1 <= self.x <= SIZE and 1 <= self.y <= SIZE

    def __repr__(self) -> str:
        return f"({self.x},{self.y})"


TONGA_CELL = Cell(6, 6)
START_SEA_CELLS: tuple[Cell, ...] = (Cell(5, 5), Cell(7, 5), Cell(5, 7), Cell(7, 7))


@dataclass(frozen=True)
class Island:
    """An island tile: number 1-16 (E10), name, four-letter abbreviation (its id on the wire), value."""

    number: int
    name: str
    abbr: str
    value: int

    @property
    def id(self) -> str:
        return self.abbr

    def __repr__(self) -> str:
        return f"Island({self.number} {self.abbr} {self.value})"


@dataclass(frozen=True)
class Route:
    """A route across a sea tile: two ends (sides) and the weather factor printed at each end."""

    a: str
    b: str
    factor_a: int
    factor_b: int

    def entered_by(self, side: str) -> tuple[str, int] | None:
        """(exit side, factor printed at the entry end) for a fleet entering by `side`, or None."""
        if side == self.a:
            return self.b, self.factor_a
        if side == self.b:
            return self.a, self.factor_b
        return None


@dataclass(frozen=True)
class Sea:
    """A sea tile: number 17-48 (E10), id S01..S32, two routes pairing its four sides."""

    number: int
    id: str
    routes: tuple[Route, Route]

    def route(self, entry: str) -> tuple[str, int]:
        """(exit side, printed factor at the entry end) of the route with an end on `entry` (E8.2)."""
        for route in self.routes:
            found = route.entered_by(entry)
            if found is not None:
                return found
        raise AssertionError(f"{self.id} has no route end on {entry}")

    def __repr__(self) -> str:
        ends = " ".join(f"{r.a}{r.factor_a}-{r.b}{r.factor_b}" for r in self.routes)
        return f"Sea({self.number} {self.id} {ends})"


Tile = Island | Sea

ISLANDS: tuple[Island, ...] = tuple(
    Island(n + 1, name, abbr, value) for n, (name, abbr, value) in enumerate(ISLAND_DATA)
)
SEAS: tuple[Sea, ...] = tuple(
    Sea(len(ISLANDS) + n + 1, sid, (Route(*routes[0]), Route(*routes[1]))) for n, (sid, routes) in enumerate(SEA_DATA)
)
_ALL: tuple[Tile, ...] = (*ISLANDS, *SEAS)
TILES: dict[str, Tile] = {t.id: t for t in _ALL}
"""Every tile by its wire id: island abbreviation or sea id."""
BY_NUMBER: dict[int, Tile] = {t.number: t for t in TILES.values()}
"""Every tile by its number 1-48 (E10's typhoon draw)."""
TONGA: Island = ISLANDS[0]

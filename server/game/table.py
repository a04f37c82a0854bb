"""What lies on the table: placed tiles with the boats on their beaches, and a fleet at sea.

These are plain state with cached derived values; a tile's boats change only through its methods below
(`add_boats`, `sail`, `crown`, ...), which keep those values right.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable
from typing import Any

from . import arrangements
from .catalogue import TILES, Island
from .geometry import NOWHERE, SIDES, START, Cell, neighbours, world_side


class Placed:
    """A tile on the table: which tile, where, how turned, and for islands the boats on its beaches."""

    __slots__ = (
        "name",
        "cell",
        "rotation",
        "island",
        "exits",
        "piers",
        "beaches",
        "royal",
        "moorings",
        "_codes",
        "_counts",
        "_free",
        "_full",
        "_open",
        "drawn",
    )

    def __init__(self, name: str, cell: Cell, rotation: int) -> None:
        tile = TILES[name]
        self.name = name
        self.cell = cell
        self.rotation = rotation
        self.royal: str | None = None
        self._codes: tuple[int, ...] | None = None
        self._free: tuple[int, ...] | None = None
        self._full: tuple[int, ...] | None = None
        self._open: tuple[int, ...] | None = None
        self._counts: dict[str, int] | None = None
        self.drawn: dict[str, Any] | None = None   # its view (drawing.tile_view), until it changes
        shape = _SHAPES.get((name, rotation))
        if shape is None:
            shape = _SHAPES[(name, rotation)] = _shape(name, rotation)
        self.piers, self.moorings, self.exits = shape  # shared by every tile so turned: never changed
        if isinstance(tile, Island):
            self.island: Island | None = tile
            self.beaches: list[list[str]] = [[] for _ in tile.beaches]
        else:
            self.island = None
            self.beaches = []

    def full(self, beach: int) -> bool:
        """R6: every mooring of the beach holds a boat."""
        return len(self.beaches[beach]) == self.moorings[beach]

    def codes(self) -> tuple[int, ...]:
        """The boats on each beach as codes: this island's part of an arrangement (R9). Cached; every
        change to `beaches` goes through a method that forgets it."""
        if self._codes is None:
            self._codes = tuple([arrangements.code(b) for b in self.beaches])
        return self._codes

    def counts(self) -> dict[str, int]:
        """Boats on the island's beaches by colour (cached like `codes`)."""
        if self._counts is None:
            counts: dict[str, int] = {}
            for boats in self.beaches:
                for c in boats:
                    counts[c] = counts.get(c, 0) + 1
            self._counts = counts
        return self._counts

    # ------------------------------------------------------------------ the boats change only here

    def add_boats(self, pairs: Iterable[tuple[str, int]]) -> None:
        """A boat of `colour` on `beach`, for each (colour, beach) (R3, R5, R8, R11, R12)."""
        for colour, beach in pairs:
            self.beaches[beach].append(colour)
        self._changed()

    def take_back(self, beach: int, colour: str) -> None:
        """R5 with the supply empty: one boat of `colour` off the beach."""
        self.beaches[beach].remove(colour)
        self._changed()

    def sail(self, beach: int) -> list[str]:
        """R6: the beach's boats leave it as a fleet; they are returned, in their order."""
        boats = self.beaches[beach]
        self.beaches[beach] = []
        self._changed()
        return boats

    def remove_colour(self, colour: str) -> int:
        """R11: every boat of `colour` off the island; how many there were."""
        taken = 0
        for boats in self.beaches:
            n = boats.count(colour)
            if n:
                boats[:] = [c for c in boats if c != colour]
                taken += n
        if taken:
            self._changed()
        return taken

    def crown(self, colour: str) -> int:
        """R10: every boat off the island and `colour`'s royal boat on its mask; how many boats left."""
        boats = sum(len(b) for b in self.beaches)
        for b in self.beaches:
            b.clear()
        self.royal = colour
        self._changed()
        return boats

    def restore(self, beaches: list[list[str]], royal: str | None) -> None:
        """Exactly these boats on the beaches (the lists are taken, not copied) and this royal boat: a
        position being built or a game being loaded."""
        self.beaches = beaches
        self.royal = royal
        self._changed()

    def _changed(self) -> None:
        """Forget the cached values: the boats on the beaches (or the royal boat) changed."""
        self._codes = None
        self._counts = None
        self._free = None
        self._full = None
        self._open = None
        self.drawn = None

    def free(self) -> tuple[int, ...]:
        """Free moorings per beach (cached like `codes`)."""
        if self._free is None:
            self._free = tuple([m - len(self.beaches[b]) for b, m in enumerate(self.moorings)])
        return self._free

    def full_beaches(self) -> tuple[int, ...]:
        """The beaches that are full (R6), in order (cached like `codes`)."""
        if self._full is None:
            self._full = tuple([b for b, free in enumerate(self.free()) if free == 0])
        return self._full

    def open_beaches(self) -> tuple[int, ...]:
        """The beaches with a free mooring, in order (cached like `codes`)."""
        if self._open is None:
            self._open = tuple([b for b, free in enumerate(self.free()) if free > 0])
        return self._open


Shape = tuple[list[list[int]], tuple[int, ...], list[tuple[int, int]]]


def _shape(name: str, rotation: int) -> Shape:
    """A tile turned by `rotation`, in world directions: each beach's piers and moorings (islands), and
    for oceans exits[entry direction] = (exit direction, danger)."""
    tile = TILES[name]
    if isinstance(tile, Island):
        return (
            [[world_side(s, rotation) for s in b.piers] for b in tile.beaches],
            tuple(b.moorings for b in tile.beaches),
            [],
        )
    exits = [(0, 0)] * SIDES
    for a, b, danger in tile.paths:
        wa, wb = world_side(a, rotation), world_side(b, rotation)
        exits[wa] = (wb, danger)
        exits[wb] = (wa, danger)
    return [], (), exits


_SHAPES: dict[tuple[str, int], Shape] = {}


class Fleet:
    """A fleet at sea (R6, R7): its boats, the island it set out from, the cell it is on and the direction
    it sails out of, the tiles it drew, the cell ahead and, once known, the island it will land on."""

    __slots__ = ("boats", "colours", "origin", "at", "heading", "drawn", "next", "target")

    def __init__(
        self, boats: list[str], colours: int, origin: Cell, heading: int, at: Cell | None = None, drawn: int = 0
    ) -> None:
        self.boats = boats
        self.colours = colours
        self.origin = origin
        self.at = origin if at is None else at
        self.heading = heading
        self.drawn = drawn
        self.next: Cell = NOWHERE  # known once it sails into it
        self.target: Cell = NOWHERE  # known once it reaches an island


class Frontier:
    """The empty cells next to a placed tile, where a tile may be placed freely (R9 redraw, R11), or the
    centre of an empty table. Kept up to date as tiles are placed rather than recomputed (a hot path of
    random playouts); forgotten when a tile is removed."""

    __slots__ = ("tiles", "_cells", "_sorted")

    def __init__(self, tiles: dict[Cell, Placed]) -> None:
        self.tiles = tiles  # the table's own dict, read only
        self._cells: set[Cell] | None = None
        self._sorted: list[Cell] | None = None

    def cells(self) -> list[Cell]:
        """The frontier, sorted."""
        if self._sorted is None:
            self._sorted = sorted(self.cell_set())
        return self._sorted

    def cell_set(self) -> set[Cell]:
        """The frontier, as a set."""
        if self._cells is None:
            if not self.tiles:
                self._cells = {START}
            else:
                self._cells = {n for cell in self.tiles for n in neighbours(cell) if n not in self.tiles}
        return self._cells

    def placed(self, cell: Cell) -> None:
        """A tile was placed on `cell` (already in `tiles`): the frontier moves out past it."""
        if self._cells is None:
            self._sorted = None
            return
        self._cells.discard(cell)
        added = [n for n in neighbours(cell) if n not in self.tiles and n not in self._cells]
        self._cells.update(added)
        if self._sorted is not None:
            at = bisect_left(self._sorted, cell)
            if at < len(self._sorted) and self._sorted[at] == cell:
                del self._sorted[at]
            for n in added:
                insort(self._sorted, n)

    def removed(self) -> None:
        """A tile was removed: the frontier is found again when next asked."""
        self._cells = None
        self._sorted = None

"""Hex geometry (R2): flat-top hexagons on an unbounded axial grid.

World directions 0..5 are S, SW, NW, N, NE, SE, clockwise seen from above. A tile placed with rotation ρ
shows its own side s toward world direction (s + ρ) mod 6. The grid's neighbour function and side count
live here only, so another board shape (R14's square mode) would swap this module, not the rules.
"""

from __future__ import annotations

SIDES = 6
"""Sides of a tile (and world directions)."""

Cell = tuple[int, int]
"""An axial cell (q, r)."""

OFFSETS: tuple[Cell, ...] = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))
"""Neighbour offsets by world direction: S, SW, NW, N, NE, SE."""

START: Cell = (0, 0)
"""Tonga's cell."""


NOWHERE: Cell = (1 << 20, 1 << 20)
"""A cell no table reaches (the 32 tiles span a few dozen cells): where a fleet heads before it knows."""


def neighbour(cell: Cell, direction: int) -> Cell:
    """The cell next to `cell` in world `direction`."""
    dq, dr = OFFSETS[direction]
    return (cell[0] + dq, cell[1] + dr)


def opposite(direction: int) -> int:
    """The world direction pointing back."""
    return (direction + 3) % SIDES


def world_side(side: int, rotation: int) -> int:
    """The world direction a tile's own `side` faces when placed with `rotation`."""
    return (side + rotation) % SIDES


def tile_side(direction: int, rotation: int) -> int:
    """The tile's own side that faces world `direction` when placed with `rotation`."""
    return (direction - rotation) % SIDES


def forced_rotation(direction: int) -> int:
    """R2 forced placement: a tile entered by leaving a tile through `direction` turns its red marker
    (side 0) toward that tile."""
    return (direction + 3) % SIDES


def neighbours(cell: Cell) -> list[Cell]:
    """The six neighbouring cells, by world direction."""
    return [neighbour(cell, d) for d in range(SIDES)]

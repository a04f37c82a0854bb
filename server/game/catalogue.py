"""The component catalogue (R1): every island's beaches and piers, every ocean tile's foam paths.

Transcribed from the verified catalogue. Sides are a tile's own sides 0..5, clockwise seen from above with
the tile upright: 0 = S (the red-marker side), 1 = SW, 2 = NW, 3 = N, 4 = NE, 5 = SE. Ocean paths are
(side, side, danger); danger 0 means no number is printed. Tonga, the start tile, has no marker.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("red", "blue", "green", "yellow", "orange", "purple")
"""Player colours in set-up order (R1)."""


@dataclass(frozen=True, slots=True)
class Beach:
    """A beach of an island: how many boats it holds and the sides its piers point out of."""

    moorings: int
    piers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Island:
    """An island tile: name, value in points, beaches in catalogue order."""

    name: str
    value: int
    beaches: tuple[Beach, ...]
    start: bool = False


@dataclass(frozen=True, slots=True)
class Ocean:
    """An ocean tile: three foam paths pairing its six sides, each with a danger number."""

    name: str
    paths: tuple[tuple[int, int, int], ...]


ISLANDS: tuple[Island, ...] = (
    Island(
        "Tonga",
        0,
        (
            Beach(3, (0,)),
            Beach(3, (1,)),
            Beach(3, (2,)),
            Beach(3, (3,)),
            Beach(3, (4,)),
            Beach(3, (5,)),
        ),
        start=True,
    ),
    Island(
        "Muroroa",
        2,
        (
            Beach(2, (1,)),
            Beach(2, (2,)),
            Beach(3, (4, 5)),
        ),
    ),
    Island(
        "Nauru",
        2,
        (
            Beach(2, (1, 2)),
            Beach(3, (3,)),
            Beach(2, (4, 5)),
        ),
    ),
    Island(
        "Tubuai",
        2,
        (
            Beach(3, (1, 2)),
            Beach(3, (4, 5)),
        ),
    ),
    Island(
        "Rarotonga",
        3,
        (
            Beach(3, (1, 2)),
            Beach(4, (3, 4, 5)),
        ),
    ),
    Island(
        "Rapa Nui",
        3,
        (
            Beach(5, (1, 2)),
            Beach(3, (3, 4, 5)),
        ),
    ),
    Island(
        "Tokelau",
        3,
        (
            Beach(4, (1,)),
            Beach(3, (2, 3)),
            Beach(2, (4, 5)),
        ),
    ),
    Island(
        "Tuamotu",
        3,
        (
            Beach(4, (1, 2, 3)),
            Beach(4, (4, 5)),
        ),
    ),
    Island(
        "Hiva Oa",
        4,
        (
            Beach(2, (1, 2)),
            Beach(2, (3,)),
            Beach(5, (4, 5)),
        ),
    ),
    Island(
        "Mangareva",
        4,
        (
            Beach(2, (1, 2)),
            Beach(3, (3, 4)),
            Beach(4, (5,)),
        ),
    ),
    Island(
        "Oahu",
        4,
        (
            Beach(3, (1, 2)),
            Beach(5, (3,)),
            Beach(3, (4, 5)),
        ),
    ),
    Island(
        "Tahiti",
        4,
        (
            Beach(2, (1, 2)),
            Beach(3, (3, 4)),
            Beach(4, (5,)),
        ),
    ),
    Island(
        "Tuvalu",
        4,
        (
            Beach(2, (1, 2)),
            Beach(4, (3,)),
            Beach(3, (4, 5)),
        ),
    ),
    Island(
        "Fidschi",
        5,
        (
            Beach(5, (1,)),
            Beach(4, (2, 3)),
            Beach(4, (4, 5)),
        ),
    ),
    Island(
        "Hawaii",
        5,
        (
            Beach(3, (1, 2)),
            Beach(5, (3,)),
            Beach(2, (4, 5)),
        ),
    ),
    Island(
        "Samoa",
        5,
        (
            Beach(3, (1, 2)),
            Beach(4, (3, 4)),
            Beach(5, (5,)),
        ),
    ),
)

OCEANS: tuple[Ocean, ...] = (
    Ocean("a", ((0, 3, 4), (1, 5, 4), (2, 4, 4))),
    Ocean("b", ((0, 4, 4), (1, 3, 4), (2, 5, 3))),
    Ocean("c", ((0, 3, 4), (1, 5, 3), (2, 4, 0))),
    Ocean("d", ((0, 4, 3), (1, 3, 3), (2, 5, 4))),
    Ocean("e", ((0, 1, 3), (2, 3, 2), (4, 5, 4))),
    Ocean("f", ((0, 3, 3), (1, 5, 3), (2, 4, 3))),
    Ocean("g", ((0, 3, 3), (1, 5, 2), (2, 4, 0))),
    Ocean("h", ((0, 1, 3), (2, 3, 0), (4, 5, 2))),
    Ocean("i", ((0, 4, 2), (1, 3, 3), (2, 5, 4))),
    Ocean("j", ((0, 5, 2), (1, 2, 2), (3, 4, 2))),
    Ocean("k", ((0, 1, 2), (2, 3, 0), (4, 5, 2))),
    Ocean("l", ((0, 5, 0), (1, 2, 3), (3, 4, 4))),
    Ocean("m", ((0, 4, 0), (1, 3, 4), (2, 5, 2))),
    Ocean("n", ((0, 5, 0), (1, 2, 4), (3, 4, 2))),
    Ocean("o", ((0, 1, 0), (2, 3, 2), (4, 5, 0))),
    Ocean("p", ((0, 5, 0), (1, 2, 0), (3, 4, 0))),
)

TONGA = "Tonga"

_ALL: tuple[Island | Ocean, ...] = (*ISLANDS, *OCEANS)

TILES: dict[str, Island | Ocean] = {t.name: t for t in _ALL}
"""Every tile by its id: islands by name, ocean tiles by letter."""

STACK_TILES: tuple[str, ...] = tuple(t.name for t in _ALL if t.name != TONGA)
"""The 31 tiles shuffled into the stack at set-up (R3), in catalogue order."""

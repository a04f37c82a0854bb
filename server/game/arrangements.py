"""Arrangements for the chain searches of R9: the boats on every non-royal beach of the table.

A search may visit tens of thousands of arrangements, so a beach's boats are one integer, not a tuple of
colours: four bits per colour of `COLOURS` hold how many boats of that colour stand there (a beach has at
most five moorings). Landing a fleet adds its code; the code says the boat count and how many colours.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

from . import landing
from .catalogue import COLOURS

Arrangement = tuple[int, ...]
"""The boats on each beach (codes) in the topology's numbering of the non-royal beaches."""

_BITS = 4
_ONE = {colour: 1 << (_BITS * i) for i, colour in enumerate(COLOURS)}


def code(boats: list[str] | tuple[str, ...]) -> int:
    """The code of these boats (any order)."""
    total = 0
    for colour in boats:
        total += _ONE[colour]
    return total


def boats(beach: int) -> tuple[str, ...]:
    """The sorted colours of a code: the inverse of `code`."""
    return _BOATS[beach]


def _tables(most: int) -> tuple[dict[int, int], dict[int, int], dict[int, tuple[str, ...]]]:
    size, kinds, colours = {}, {}, {}
    for n in range(most + 1):
        for chosen in combinations_with_replacement(COLOURS, n):
            c = code(chosen)
            size[c] = n
            kinds[c] = len(set(chosen))
            colours[c] = tuple(sorted(chosen))
    return size, kinds, colours


SIZE, KINDS, _BOATS = _tables(10)
"""SIZE[code]: boats on the beach; KINDS[code]: how many colours among them (what a danger is checked
against, R7)."""


@lru_cache(maxsize=65536)
def landings(free: tuple[int, ...], fleet: int) -> tuple[tuple[int, ...], ...]:
    """Every landing of the fleet `fleet` (a code) on beaches with `free` moorings (R8), each as the code
    added to every beach (0 where nothing lands)."""
    return tuple(tuple(code(added) for added in p) for p in landing.placements(free, _BOATS[fleet]))

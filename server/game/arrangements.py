"""Boats on a beach as one integer, for the chain searches of R9 and the landings of R8.

A search may visit tens of thousands of arrangements (the boats on every non-royal beach), so a beach's
boats are one integer, not a tuple of colours: four bits per colour of `COLOURS` hold how many boats of
that colour stand there (a beach has at most five moorings). Landing a fleet adds its code; the code says
the boat count and how many colours.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from .catalogue import COLOURS

Arrangement = tuple[int, ...]
"""The boats on each beach (codes) in the topology's numbering of the non-royal beaches."""

BITS = 4
"""Bits per colour in a code."""
ONE = {colour: 1 << (BITS * i) for i, colour in enumerate(COLOURS)}
"""The code of one boat of each colour."""


def code(boats: list[str] | tuple[str, ...]) -> int:
    """The code of these boats (any order)."""
    total = 0
    for colour in boats:
        total += ONE[colour]
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


SIZE, KINDS, _BOATS = _tables(5)  # a beach has at most five moorings (R1), a fleet is one beach's boats
"""SIZE[code]: boats on the beach; KINDS[code]: how many colours among them (what a danger is checked
against, R7)."""

"""Boats on a beach as one integer, for the chain searches of R9 and the landings of R8.

A search may visit tens of thousands of arrangements (the boats on every non-royal beach), so a beach's
boats are one integer, not a tuple of colours: the low three bits count the boats, then four bits per
colour of `COLOURS` count those of that colour (a beach has at most five moorings). Landing a fleet adds
its code; `code & COUNT` is the number of boats, with no lookup.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Final

from .catalogue import COLOURS

Arrangement = tuple[int, ...]
"""The boats on each beach (codes) in the topology's numbering of the non-royal beaches."""

COUNT: Final = 0b111
"""The bits of a code that count its boats."""
ONE = {colour: 1 << (3 + 4 * i) | 1 for i, colour in enumerate(COLOURS)}
"""The code of one boat of each colour."""
_FIRST: Final = 0b1001  # one boat of the first colour


def code(boats: list[str] | tuple[str, ...]) -> int:
    """The code of these boats (any order)."""
    total = 0
    for colour in boats:
        total += ONE[colour]
    return total


def boats(beach: int) -> tuple[str, ...]:
    """The sorted colours of a code: the inverse of `code`."""
    return _BOATS[beach]


def counted(beach: int) -> int:
    """The code of as many boats as `beach` holds, all of the first colour: its colour-blind form."""
    return (beach & COUNT) * _FIRST


def _tables(most: int) -> tuple[dict[int, int], dict[int, tuple[str, ...]]]:
    kinds, colours = {}, {}
    for n in range(most + 1):
        for chosen in combinations_with_replacement(COLOURS, n):
            c = code(chosen)
            kinds[c] = len(set(chosen))
            colours[c] = tuple(sorted(chosen))
    return kinds, colours


KINDS, _BOATS = _tables(5)  # a beach has at most five moorings (R1), a fleet is one beach's boats
"""KINDS[code]: how many colours among the boats (what a danger is checked against, R7)."""

"""R8 landing: every way a fleet may be spread over an island's beaches.

Pure functions of (free moorings per beach, the fleet), memoised because chain searches (R9) ask the same
questions many times. The core works on boat codes (arrangements.py); `placements` gives the same landings
as colours, for actions and events.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TypeVar

from .arrangements import COUNT, ONE, boats, code

Landing = tuple[int, ...]
"""The boats added to each beach of the island, as codes (0 where none)."""
Placement = tuple[tuple[str, ...], ...]
"""The same as colours: sorted per beach, empty where none."""

# Colours in the order landings are listed: alphabetical, so the listing does not depend on seat order.
_LISTING = sorted(ONE)
_UNITS = [ONE[colour] for colour in _LISTING]
_SHIFTS = [ONE[colour].bit_length() - 1 for colour in _LISTING]  # where each colour's count starts


_PICKS: dict[int, tuple[tuple[int, int], ...]] = {}


def _picks(fleet: int, size: int) -> tuple[tuple[int, int], ...]:
    """Every way to take `size` boats out of the boats `fleet` (codes): (taken, left), the colours in
    listing order, the most of each first. Memoised (a plain dict: this is the innermost loop of R8)."""
    key = fleet * 8 + size
    found = _PICKS.get(key)
    if found is None:
        picked: list[tuple[int, int]] = []
        _pick(fleet, size, 0, 0, picked)
        found = _PICKS[key] = tuple(picked)
    return found


def _pick(left: int, size: int, k: int, taken: int, out: list[tuple[int, int]]) -> None:
    if size == 0:
        out.append((taken, left))
        return
    if k == len(_UNITS):
        return
    unit = _UNITS[k]
    have = (left >> _SHIFTS[k]) & 15
    for take in range(min(have, size), -1, -1):
        _pick(left - take * unit, size - take, k + 1, taken + take * unit, out)


_VECTORS: dict[tuple[tuple[int, ...], int, int], tuple[tuple[int, ...], ...]] = {}


def _count_vectors(caps: tuple[int, ...], total: int, low: int) -> tuple[tuple[int, ...], ...]:
    """Vectors x with low <= x[i] <= caps[i] and sum(x) == total. Memoised (few: caps are moorings)."""
    key = (caps, total, low)
    found = _VECTORS.get(key)
    if found is None:
        if not caps:
            found = ((),) if total == 0 else ()
        else:
            head, tail = caps[0], caps[1:]
            out: list[tuple[int, ...]] = []
            for x in range(max(low, total - sum(tail)), min(head, total) + 1):
                out.extend((x, *rest) for rest in _count_vectors(tail, total - x, low))
            found = tuple(out)  # a tuple of ints, which the garbage collector stops tracking
        _VECTORS[key] = found
    return found


MEMO_ENTRIES = 256
"""Entries each landing memo keeps; a process forgets a memo all at once when it is full. The memos
serve the R9 chain searches within a step, whose questions repeat; across games they barely help.
Measured over 400 random games and the two slowest of bench/held.py in one process (interleaved, two runs
each): the engine took 11.1–12.7 s at 128 entries, 12.4–14.1 s at 512, 13.4–13.8 s at 2,048, and the
slowest step was no longer; a search bot's decisions took as long at 256 as at 2,048. What they cost is
memory: at 20,000 entries ~100 MB more after 600 games, and a server with a large bound fills them for
hours, its memory growing all that while (`bench.soak`: +9 MB in 9 minutes at 2,048 entries, flat
with none)."""


K = TypeVar("K")
V = TypeVar("V")


def _remember(memo: dict[K, V], key: K, value: V) -> None:
    if len(memo) >= MEMO_ENTRIES:
        memo.clear()
    memo[key] = value


_LANDINGS: dict[tuple[tuple[int, ...], int], tuple[Landing, ...]] = {}


def landings(free: tuple[int, ...], fleet: int) -> tuple[Landing, ...]:
    """All distinct landings of the boats `fleet` (a code) on beaches with `free` moorings (R8), each as
    the code added to every beach (0 where nothing lands).

    With m boats and B the beaches that have a free mooring: if m >= |B| every beach of B gets one boat
    first, otherwise each boat goes on a different beach; the rest go on any free mooring; what finds no
    mooring goes back (the boats not placed). The boats already on a beach play no part.

    Memoised in a plain dict: the chain searches of R9 ask it for every arrangement they reach.
    """
    key = (free, fleet)
    found = _LANDINGS.get(key)
    if found is None:
        found = _landings(free, fleet)
        _remember(_LANDINGS, key, found)
    return found


_ISLAND_LANDINGS: dict[tuple[tuple[int, ...], tuple[int, ...], int], tuple[tuple[int, ...], ...]] = {}


def free_moorings(beaches: tuple[int, ...], moorings: tuple[int, ...]) -> tuple[int, ...]:
    """The free moorings of each beach holding `beaches` (codes) with these moorings."""
    return tuple([moorings[b] - (boats & COUNT) for b, boats in enumerate(beaches)])


def landed(beaches: tuple[int, ...], added: Landing) -> tuple[int, ...]:
    """The boats on the beaches (codes) after a landing adds `added` to them."""
    return tuple([boats + added[b] for b, boats in enumerate(beaches)])


def island_landings(beaches: tuple[int, ...], moorings: tuple[int, ...], fleet: int) -> tuple[tuple[int, ...], ...]:
    """The boats on an island's beaches (codes, with these moorings) after each landing of `fleet` there:
    what the chain searches of R9 ask of every arrangement they reach, so memoised."""
    key = (beaches, moorings, fleet)
    found = _ISLAND_LANDINGS.get(key)
    if found is None:
        # a tuple, not a list: the garbage collector stops tracking tuples of ints, so thousands of
        # remembered landings add nothing to its full collections
        found = tuple([landed(beaches, added) for added in landings(free_moorings(beaches, moorings), fleet)])
        _remember(_ISLAND_LANDINGS, key, found)
    return found


def _landings(free: tuple[int, ...], fleet: int) -> tuple[Landing, ...]:
    m = fleet & COUNT
    open_beaches = [i for i, f in enumerate(free) if f > 0]
    placed = min(m, sum(free))
    if m >= len(open_beaches):
        caps, low = tuple([free[i] for i in open_beaches]), 1
    else:
        caps, low = (1,) * len(open_beaches), 0
    out: list[Landing] = []
    every = len(open_beaches) == len(free)
    for vector in _count_vectors(caps, placed, low):
        spread = _spread(vector, fleet)
        if every:
            out.extend(spread)
            continue
        for part in spread:  # the closed beaches get nothing
            row = [0] * len(free)
            for k, beach in enumerate(open_beaches):
                row[beach] = part[k]
            out.append(tuple(row))
    return tuple(out)


_SPREADS: dict[tuple[tuple[int, ...], int], tuple[Landing, ...]] = {}


def _spread(vector: tuple[int, ...], fleet: int) -> tuple[Landing, ...]:
    """Every way to put vector[k] of the boats `fleet` on the k-th beach, each beach's boats picked in
    listing order (see `_picks`), the first beach's choice varying slowest. Memoised: the same counts
    of the same fleet come back on islands with other free moorings."""
    key = (vector, fleet)
    found = _SPREADS.get(key)
    if found is None:
        rows: list[tuple[Landing, int]] = [((), fleet)]
        for size in vector:
            rows = [((*row, taken), rest) for row, left in rows for taken, rest in _picks(left, size)]
        found = tuple([row for row, _left in rows])
        _remember(_SPREADS, key, found)
    return found


@lru_cache(maxsize=MEMO_ENTRIES)
def placements(free: tuple[int, ...], fleet: tuple[str, ...]) -> tuple[Placement, ...]:
    """All distinct landings of `fleet` (sorted colours) on beaches with `free` moorings (R8), as the
    colours added to each beach (see `landings`)."""
    return tuple([tuple([boats(added) for added in row]) for row in landings(free, code(fleet))])


@lru_cache(maxsize=MEMO_ENTRIES)
def landing_set(free: tuple[int, ...], fleet: int) -> frozenset[Landing]:
    """`landings` as a set, for checking one landing."""
    return frozenset(landings(free, fleet))


_AVOIDS: dict[tuple[tuple[int, ...], int], bool] = {}


def can_avoid_filling(free: tuple[int, ...], boats: int) -> bool:
    """Whether some landing of `boats` boats on beaches with `free` moorings leaves every beach with a
    free mooring (R8). Only counts matter, not colours: the fast answer of most chain searches (R9).
    Memoised in a plain dict, which compiled callers reach without a Python-level call."""
    key = (free, boats)
    found = _AVOIDS.get(key)
    if found is None:
        found = _can_avoid_filling(free, boats)
        _remember(_AVOIDS, key, found)
    return found


def _can_avoid_filling(free: tuple[int, ...], boats: int) -> bool:
    open_free = [f for f in free if f > 0]
    if not open_free:
        return True  # nothing lands: every boat goes back
    placed = min(boats, sum(open_free))
    if boats >= len(open_free):
        return all(f >= 2 for f in open_free) and placed <= sum(f - 1 for f in open_free)
    return sum(1 for f in open_free if f >= 2) >= boats

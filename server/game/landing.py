"""R8 landing: every way a fleet may be spread over an island's beaches.

Pure functions of (free moorings per beach, the fleet's colours), memoised because chain searches (R9)
ask the same questions many times.
"""

from __future__ import annotations

from functools import lru_cache

Placement = tuple[tuple[str, ...], ...]
"""Colours added to each beach of the island (sorted per beach; empty where none)."""


@lru_cache(maxsize=65536)
def _sub_multisets(
    counts: tuple[tuple[str, int], ...], size: int
) -> list[tuple[tuple[str, ...], tuple[tuple[str, int], ...]]]:
    """Every sub-multiset of `size` colours from `counts`, with what remains."""
    if size == 0:
        return [((), counts)]
    if not counts:
        return []
    (colour, n), rest = counts[0], counts[1:]
    out = []
    for take in range(min(n, size), -1, -1):
        for picked, remaining in _sub_multisets(rest, size - take):
            left = ((colour, n - take), *remaining) if n - take else remaining
            out.append(((colour,) * take + picked, left))
    return out


@lru_cache(maxsize=65536)
def _count_vectors(caps: tuple[int, ...], total: int, low: int) -> list[tuple[int, ...]]:
    """Vectors x with low <= x[i] <= caps[i] and sum(x) == total."""
    if not caps:
        return [()] if total == 0 else []
    head, tail = caps[0], caps[1:]
    out: list[tuple[int, ...]] = []
    room = sum(tail)
    for x in range(max(low, total - room), min(head, total) + 1):
        out.extend((x, *rest) for rest in _count_vectors(tail, total - x, low))
    return out


@lru_cache(maxsize=65536)
def placements(free: tuple[int, ...], fleet: tuple[str, ...]) -> tuple[Placement, ...]:
    """All distinct landings of `fleet` (sorted colours) on beaches with `free` moorings (R8).

    With m boats and B the beaches that have a free mooring: if m >= |B| every beach of B gets one boat
    first, otherwise each boat goes on a different beach; the rest go on any free mooring; what finds no
    mooring goes back (the boats not placed). The colours already on a beach play no part.
    """
    m = len(fleet)
    open_beaches = [i for i, f in enumerate(free) if f > 0]
    placed = min(m, sum(free))
    if m >= len(open_beaches):
        caps, low = tuple(free[i] for i in open_beaches), 1
    else:
        caps, low = (1,) * len(open_beaches), 0
    counts: dict[str, int] = {}
    for colour in fleet:
        counts[colour] = counts.get(colour, 0) + 1
    start = tuple(sorted(counts.items()))
    out: list[Placement] = []
    for vector in _count_vectors(caps, placed, low):
        partial: list[tuple[list[tuple[str, ...]], tuple[tuple[str, int], ...]]] = [([], start)]
        for size in vector:
            partial = [
                (chosen + [picked], rest) for chosen, rest in partial for picked, rest in _sub_multisets(rest, size)
            ]
        for chosen, _rest in partial:
            per_beach: list[tuple[str, ...]] = [()] * len(free)
            for beach, picked in zip(open_beaches, chosen, strict=True):
                per_beach[beach] = picked
            out.append(tuple(per_beach))
    return tuple(out)


@lru_cache(maxsize=65536)
def placement_set(free: tuple[int, ...], fleet: tuple[str, ...]) -> frozenset[Placement]:
    """`placements` as a set, for checking one landing."""
    return frozenset(placements(free, fleet))


def returned(fleet: tuple[str, ...], placement: Placement) -> list[str]:
    """The boats of `fleet` that `placement` leaves without a mooring (back to their owners)."""
    left = list(fleet)
    for beach in placement:
        for colour in beach:
            left.remove(colour)
    return left


@lru_cache(maxsize=4096)
def can_avoid_filling(free: tuple[int, ...], boats: int) -> bool:
    """Whether some landing of `boats` boats on beaches with `free` moorings leaves every beach with a
    free mooring (R8). Only counts matter, not colours: the fast answer of most chain searches (R9)."""
    open_free = [f for f in free if f > 0]
    if not open_free:
        return True  # nothing lands: every boat goes back
    placed = min(boats, sum(open_free))
    if boats >= len(open_free):
        return all(f >= 2 for f in open_free) and placed <= sum(f - 1 for f in open_free)
    return sum(1 for f in open_free if f >= 2) >= boats

"""Each rule's options, written once: the legal-action listing, the sampler and the check of a given
action are all built on these (R3 set-up, R5 expansion, R10 royal islands, R12 restarts).

They work on the islands of the table as given and know nothing of decisions or of the chain (R9), which
the rules apply on top.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement
from math import comb

from .catalogue import TONGA
from .table import Placed

SETUP_BOATS = 2
"""R3: boats a beach of Tonga may hold during set-up."""


def setup_beaches(tonga: Placed) -> list[int]:
    """R3: the beaches of Tonga a set-up boat may go on (no Tonga beach is filled during set-up)."""
    return [b for b, boats in enumerate(tonga.beaches) if len(boats) < SETUP_BOATS]


# ---------------------------------------------------------------------- R5 expansion


def new_boats(on_island: int, supply: int, open_beaches: int) -> int:
    """R5: how many new boats an expansion places, one per beach: as many as the colour has on the island,
    no more than its supply or the island's beaches with a free mooring. (min() without a call to the
    builtin: a compiled hot path.)"""
    least = on_island if on_island < supply else supply
    return least if least < open_beaches else open_beaches


def expansion_of(t: Placed, colour: str, supply: int) -> tuple[tuple[int, ...], int] | None:
    """R5 on one non-royal island, supply > 0: the beaches with a free mooring and how many of them an
    expansion takes (any such combination), or None when the colour has no boat there."""
    k = t.counts().get(colour, 0)
    if not k:
        return None
    open_beaches = t.open_beaches()
    return open_beaches, new_boats(k, supply, len(open_beaches))


def expansions(islands: list[Placed], colour: str, supply: int) -> list[tuple[int, str, tuple[int, ...], int]]:
    """R5 with boats in supply: per island with the colour's boats, (how many expansions, the island, the
    beaches with a free mooring, how many of them an expansion takes)."""
    out = []
    for t in islands:
        if t.royal is None:
            found = expansion_of(t, colour, supply)
            if found is not None:
                open_beaches, n = found
                out.append((CHOOSE[len(open_beaches)][n], t.name, open_beaches, n))
    return out


def take_backs(islands: list[Placed], colour: str) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """R5 with all 15 boats on the board: the beaches the colour may take a boat back from, and those it
    may put it on (not full; any but the one it came from)."""
    mine = [t for t in islands if t.royal is None and colour in t.counts()]
    sources = [(t.name, b) for t in mine for b, boats in enumerate(t.beaches) if colour in boats]
    targets = [(t.name, b) for t in mine for b, free in enumerate(t.free()) if free > 0]
    return sources, targets


def take_back_count(sources: list[tuple[str, int]], targets: list[tuple[str, int]]) -> int:
    """How many take-back expansions there are: every source with every target but itself."""
    return sum(len(targets) - (source in targets) for source in sources)


def expansion_keys(
    islands: list[Placed], colour: str, supply: int
) -> Iterator[tuple[str, tuple[int, ...], tuple[str, int] | None]]:
    """R5, every expansion as (island, beaches, the beach a boat is taken back from or None)."""
    if supply > 0:
        for _count, name, open_beaches, n in expansions(islands, colour, supply):
            for chosen in combinations(open_beaches, n):
                yield name, chosen, None
        return
    sources, targets = take_backs(islands, colour)
    for source in sources:
        for name, b in targets:
            if (name, b) != source:
                yield name, (b,), source


# ---------------------------------------------------------------------- R10 royal islands


def royal_candidates(islands: list[Placed], colour: str) -> list[str]:
    """R10: the islands (not Tonga, not royal) on which the colour alone has boats."""
    return [t.name for t in islands if t.name != TONGA and t.royal is None and t.counts().keys() == {colour}]


# ---------------------------------------------------------------------- R12 restarts


def restarts(
    tonga: Placed | None, islands: list[Placed], supply: int
) -> tuple[list[tuple[int, ...]], list[tuple[str, int]]]:
    """R12's restarts: the beaches of Tonga that take the two boats (or fewer, when the supply or Tonga
    holds fewer), as sorted tuples, and the free beaches of the other non-royal islands."""
    if supply == 0:
        return [], []
    pairs: list[tuple[int, ...]] = []
    if tonga is not None:
        free = tonga.free()
        want = min(2, supply, sum(free))
        for pair in combinations_with_replacement(range(len(free)), want):
            if all(pair.count(b) <= free[b] for b in pair):
                pairs.append(pair)
    others = [
        (t.name, b) for t in islands if t.name != TONGA and t.royal is None for b, f in enumerate(t.free()) if f > 0
    ]
    return pairs, others


# ---------------------------------------------------------------------- counting and unranking

CHOOSE = [[comb(n, k) for k in range(7)] for n in range(7)]
"""CHOOSE[n][k]: the binomial coefficient, for the at most six beaches of an island."""


def unrank_combination(items: tuple[int, ...], n: int, rank: int) -> tuple[int, ...]:
    """The `rank`-th n-combination of `items` in lexicographic order (as itertools.combinations)."""
    chosen = []
    start = 0
    for left in range(n, 0, -1):
        for i in range(start, len(items)):
            count = CHOOSE[len(items) - i - 1][left - 1]
            if rank < count:
                chosen.append(items[i])
                start = i + 1
                break
            rank -= count
    return tuple(chosen)

"""Bots for Expeditions: they submit legal orders through the same contract a person uses."""

from __future__ import annotations

import random

from .catalogue import SIDES
from .errors import OrderError
from .game import Expeditions
from .orders import Expand, Order, Pass, Place, Royal
from .rules import Activation
from .scoring import scores

CANDIDATES = 20
"""Orders worth comparing for a colour (`candidates`): every royal island it may found and `pass`, then
expansions (one beach filled, the moves spread, boats taken back, random ones) up to this many."""

ISLAND_WEIGHT = 0.3
"""The greedy bot's worth of a position: the score (E12), this much per island present (what the score's
tie-break counts, and what later migrations build on), and a hundredth per boat on the map."""


def worth(game: Expeditions, colour: str) -> float:
    """The greedy bot's worth of a position for `colour` (ISLAND_WEIGHT)."""
    return worths(game)[colour]


def worths(game: Expeditions) -> dict[str, float]:
    """Every colour's `worth`, the scores counted once (a search judges every colour's)."""
    s = scores(game)
    royal = set(game.royal.values())   # the scores' boats count a royal island as one; the map does not
    return {c: s["scores"][c] + ISLAND_WEIGHT * s["islands"][c] + 0.01 * (s["boats"][c] - (c in royal))
            for c in game.colours}


def _expansion(rng: random.Random, a: Activation, supply: int) -> Expand:
    """A random legal expansion on `a`: some take-backs of own boats, then placements the supply allows."""
    own = dict(a.own)
    moves: dict[str, int] = {}
    left = rng.randint(0, a.moves)
    for _ in range(left):
        side = rng.choice(("N", "E", "S", "W"))
        takeable = own.get(side, 0) + min(moves.get(side, 0), 0)
        placed = sum(n for n in moves.values() if n > 0)
        removed = -sum(n for n in moves.values() if n < 0)
        if moves.get(side, 0) <= 0 and takeable > 0 and rng.random() < 0.3:
            moves[side] = moves.get(side, 0) - 1
        elif moves.get(side, 0) >= 0 and placed < supply + removed:
            moves[side] = moves.get(side, 0) + 1
    return Expand.of(a.island, moves)


def candidates(game: Expeditions, colour: str, rng: random.Random, limit: int = CANDIDATES) -> list[Order]:
    """Distinct legal orders for `colour` worth comparing (E4): pass, every royal island, then expansions
    and special-circumstance orders, at most `limit` in all."""
    options = game.legal_orders(colour)
    must: list[Order] = [Pass(), *(Royal(i) for i in options.royal)]
    more: list[Order] = []
    for a in options.expand:
        room = options.supply
        own = dict(a.own)
        if room > 0:
            for side in SIDES:   # one beach filled: overflows (E6) send fleets out to find islands (E7, E8)
                more.append(Expand.of(a.island, {side: min(a.moves, room)}))
            spread: dict[str, int] = {}
            for i in range(min(a.moves, room)):   # the moves spread over the beaches: presence, no overflow
                side = SIDES[i % 4]
                spread[side] = spread.get(side, 0) + 1
            more.append(Expand.of(a.island, spread))
        for side, n in own.items():   # boats taken back: a beach about to overflow, or boats for elsewhere
            more.append(Expand.of(a.island, {side: -min(n, a.moves)}))
    random_bot = RandomBot(rng.randrange(2**32))
    for _ in range(limit):
        more.append(random_bot.choose(game, colour))
    for island in options.place:
        more.append(Place(island, rng.choice(SIDES)))
    rng.shuffle(more)
    out: list[Order] = []
    seen: set[str] = set()
    for order in must + more:
        key = repr(order)
        if key in seen or len(out) >= max(limit, len(must)):
            continue
        try:
            game.check(colour, order)
        except OrderError:
            continue
        seen.add(key)
        out.append(order)
    return out


class RandomBot:
    """Chooses a random legal order: the floor every better bot must beat."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Expeditions, colour: str) -> Order:
        o = game.legal_orders(colour)
        kinds = (
            ["pass", "expand"] + ["royal"] * bool(o.royal) + ["place"] * bool(o.place) + ["back"] * bool(o.take_back)
        )
        kind = self.rng.choice(kinds)
        if kind == "royal":
            return Royal(self.rng.choice(o.royal))
        if kind == "place":
            island = self.rng.choice(o.place)
            return Place(island, self.rng.choice(("N", "E", "S", "W")))
        if kind == "back":
            back = self.rng.choice(o.take_back)
            a = self.rng.choice(o.expand)
            return Expand.of(a.island, {self.rng.choice(("N", "E", "S", "W")): 1}, back)
        if kind == "expand" and o.expand:
            return _expansion(self.rng, self.rng.choice(o.expand), o.supply)
        return Pass()


class GreedyBot:
    """Tries the colour's candidate orders (`candidates`) on the same few imagined copies of the game (deck
    and dice redrawn: no peeking) with only its own order in, and keeps the one worth most after the turn
    (score, islands present, boats on the map)."""

    def __init__(self, seed: int | None = None, worlds: int = 2) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds

    def choose(self, game: Expeditions, colour: str) -> Order:
        found = candidates(game, colour, self.rng)
        seeds = [self.rng.randrange(2**32) for _ in range(self.worlds)]   # the same worlds for every order
        best: tuple[float, Order] | None = None
        for order in found:
            total = 0.0
            for seed in seeds:
                trial = game.imagine(seed)
                trial.pending = {colour: order}
                trial.resolve()
                total += worth(trial, colour)
            if best is None or total > best[0]:
                best = (total, order)
        assert best is not None
        return best[1]


def play_out(game: Expeditions, bots: dict[str, RandomBot | GreedyBot]) -> int:
    """Every colour orders through its bot each turn until the game ends; returns the turns played."""
    turns = 0
    while game.over is None:
        for colour in game.colours:
            game.submit(colour, bots[colour].choose(game, colour))
        game.resolve()
        turns += 1
    return turns

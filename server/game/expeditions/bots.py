"""Bots for Expeditions: they submit legal orders through the same contract a person uses."""

from __future__ import annotations

import random

from .game import Expeditions
from .orders import Expand, Order, Pass, Place, Royal
from .rules import Activation


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
    """Tries a few legal orders on imagined copies of the game (deck and dice redrawn: no peeking) with
    only its own order in, and keeps the one with the best score after the turn."""

    def __init__(self, seed: int | None = None, tries: int = 12) -> None:
        self.rng = random.Random(seed)
        self.tries = tries
        self.random = RandomBot(self.rng.randrange(2**32))

    def choose(self, game: Expeditions, colour: str) -> Order:
        o = game.legal_orders(colour)
        candidates: list[Order] = [Royal(i) for i in o.royal]
        candidates += [self.random.choose(game, colour) for _ in range(self.tries)]
        best: tuple[float, Order] | None = None
        for order in candidates:
            trial = game.imagine(self.rng.randrange(2**32))
            trial.pending = {colour: order}
            trial.resolve()
            score = trial.view()["players"][game.colours.index(colour)]["score"] + 0.01 * trial.on_map(colour)
            if best is None or score > best[0]:
                best = (score, order)
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

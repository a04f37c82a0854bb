"""The Expeditions bot levels (EXPEDITIONS.md E1–E13), as the bot workers play them: `random` and `greedy`
(the engine's own, server/game/expeditions/bots.py) and `search`, a Monte Carlo search for simultaneous
orders.

The search (`SearchBot`): every colour orders at once and in secret (E3), so there is no turn order to
search down, and the deck's order and the random state are unseen (R15). Each iteration imagines the game
afresh (`imagine`: the deck reshuffled and the dice redrawn, never the real ones, and nobody's pending
order), lets every colour pick one of its candidate orders by its own UCB1 over its own statistics
(decoupled UCT: each seat's choice is a bandit of its own, as in simultaneous-move MCTS), resolves the turn
with those orders, plays the game on to its end with random orders, and credits each colour's choice with
that colour's result (its share of the win, and a little its score). The order of the bot's colour chosen
most often is played. Deterministic with an iteration budget and a seed.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from server.game.expeditions import Expeditions, Order
from server.game.expeditions.bots import GreedyBot, RandomBot, candidates
from server.game.expeditions.scoring import ranking

from .levels import Budget

EXPLORATION = 0.5
"""UCB1's exploration constant (rewards are in [0, 1])."""

WIN_WEIGHT = 0.75
"""A playout's reward: this much the share of the win (E12), the rest the score against the best score."""


@dataclass(frozen=True, slots=True)
class Thought:
    """What one decision cost: iterations (one playout each), seconds, and the chosen order's visits."""

    iterations: int
    seconds: float
    visits: int


def rewards(game: Expeditions) -> dict[str, float]:
    """Each colour's result of a finished game in [0, 1]."""
    result = ranking(game)
    winners = result["winners"]
    scores = result["scores"]
    best = max(scores.values()) or 1
    return {c: WIN_WEIGHT * (1.0 / len(winners) if c in winners else 0.0) + (1 - WIN_WEIGHT) * scores[c] / best
            for c in game.colours}


class _Bandit:
    """One colour's statistics over its candidate orders (UCB1)."""

    __slots__ = ("reward", "total", "visits")

    def __init__(self, arms: int) -> None:
        self.visits = [0] * arms
        self.reward = [0.0] * arms
        self.total = 0

    def pick(self, rng: random.Random) -> int:
        unvisited = [i for i, n in enumerate(self.visits) if n == 0]
        if unvisited:
            return rng.choice(unvisited)
        log_total = math.log(self.total)
        return max(range(len(self.visits)), key=lambda i: self.reward[i] / self.visits[i]
                   + EXPLORATION * math.sqrt(log_total / self.visits[i]))

    def credit(self, arm: int, reward: float) -> None:
        self.visits[arm] += 1
        self.reward[arm] += reward
        self.total += 1


class SearchBot:
    """Decoupled-UCT Monte Carlo search over the seats' simultaneous orders, determinised on the unseen deck
    and dice (module docstring). `iterations` or `seconds` bound it (seconds: 1 when neither is given)."""

    def __init__(self, seed: int | None = None, iterations: int | None = None, seconds: float | None = None) -> None:
        self.seed = seed if seed is not None else random.randrange(2**32)
        self.iterations = iterations
        self.seconds = seconds if seconds is not None or iterations is not None else 1.0
        self.last: Thought | None = None

    def __repr__(self) -> str:
        return f"ExpeditionsSearchBot(iterations={self.iterations}, seconds={self.seconds})"

    def choose(self, game: Expeditions, colour: str) -> Order:
        began = time.perf_counter()
        rng = random.Random(self.seed * 1_000_003 + game.turn)
        arms = {c: candidates(game, c, rng) for c in game.colours}
        if len(arms[colour]) == 1:
            self.last = Thought(0, time.perf_counter() - began, 0)
            return arms[colour][0]
        bandits = {c: _Bandit(len(arms[c])) for c in game.colours}
        rollout = {c: RandomBot(rng.randrange(2**32)) for c in game.colours}
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if self.seconds is not None and done:
                spent = time.perf_counter() - began
                if spent + spent / done > self.seconds:   # another playout would likely end past the budget
                    break
            world = game.imagine(rng.randrange(2**63))   # R15: an imagined deck and dice, never the real ones
            picks = {c: bandits[c].pick(rng) for c in game.colours}
            world.pending = {c: arms[c][i] for c, i in picks.items()}   # nobody's real pending order
            world.resolve()
            while world.over is None:
                world.pending = {c: rollout[c].choose(world, c) for c in world.colours}
                world.resolve()
            result = rewards(world)
            for c, i in picks.items():
                bandits[c].credit(i, result[c])
            done += 1
        mine = bandits[colour]
        best = max(range(len(arms[colour])), key=lambda i: (mine.visits[i], mine.reward[i]))
        self.last = Thought(done, time.perf_counter() - began, mine.visits[best])
        return arms[colour][best]


ExpeditionsBot = RandomBot | GreedyBot | SearchBot


def expeditions_bot(level: str, seed: int | None = None,
                    budget: Budget | int | float | str | None = None) -> ExpeditionsBot:
    """The Expeditions bot of `level` (one of server.bots.LEVELS); `budget` bounds the search level's
    thinking per decision (a turn is one decision). Raises ValueError for an unknown level."""
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed)
    if level == "search":
        b = Budget.of(budget)
        return SearchBot(seed, iterations=b.iterations, seconds=b.seconds)
    raise ValueError(f"unknown bot level {level!r}")

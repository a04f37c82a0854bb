"""The Expeditions bot levels (EXPEDITIONS.md E1–E13), as the bot workers play them: `random` and `greedy`
(the engine's own, server/game/expeditions/bots.py) and `search`, a Monte Carlo search for simultaneous
orders.

The search (`SearchBot`): every colour orders at once and in secret (E3), so there is no turn order to
search down, and the deck's order and the random state are unseen (R15). It first takes the greedy bot's
one-turn look (`shortlist`) on a few imagined worlds (the deck reshuffled and the dice redrawn, never the
real ones, and nobody's pending order): each other colour's candidate orders with only its own order in,
which gives its likely order and a few more, then the bot's own candidates with the others' likely orders
in; a few of the best of each are the arms, and the look's results count as their first playouts (under
load, when few playouts fit the budget, the choice is then still an informed one). Each iteration then
imagines the game afresh, lets every other colour pick one of its arms by its own UCB1 over its own
statistics (decoupled selection, as in simultaneous-move MCTS: each seat's choice a bandit of its own),
plays every one of the bot's arms against those picks in that same world (common random numbers: the
arms differ by their orders alone), resolves the turn, plays HORIZON more turns in which every colour
orders as a quick greedy bot (`quick_order`), and credits each colour's arm with that colour's result
(`rewards`). The bot's arm with the best mean result is played. Deterministic with an iteration budget
and a seed.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from server.game.expeditions import Expand, Expeditions, Order, Pass, Place, Royal
from server.game.expeditions.bots import GreedyBot, RandomBot, candidates, worth
from server.game.expeditions.catalogue import SIDES
from server.game.expeditions.scoring import ranking

from .levels import Budget

EXPLORATION = 0.5
"""UCB1's exploration constant (rewards are in [0, 1])."""

WIN_WEIGHT = 0.75
"""A playout's reward: this much the share of the win (E12), the rest the score against the best score."""


LEAD_SCALE = 3.0
"""Points of lead in worth that make a cut-short playout's reward about 0.73 (`rewards`)."""

HORIZON = 0
"""Turns a playout plays on after the searched one (quick greedy orders for every colour, `quick_order`)
before the position is judged by its worth. Measured against two greedy bots on a loaded machine (40
games each, the table's turn budget): 0 turns won 52 %, 1 turn 48 %, 2 turns 48 % (more worlds beat
deeper ones there: a turn on costs some 25 resolutions a playout)."""

MY_ARMS = 4
"""Candidate orders of the bot's colour the search compares: the best by a one-turn look (`shortlist`)
(6 won 45 % where 4 won 52 %: fewer arms, more worlds each)."""

THEIR_ARMS = 1
"""Candidate orders of each other colour the search lets it choose from: its likely one (the others'
orders as the greedy bot's look foresees them)."""

SCREEN_WORLDS = 2
"""Imagined worlds the one-turn look that shortlists the candidates tries each order on."""

LEAN_BELOW = 0.25
"""Seconds of budget below which the search does not foresee the other colours' orders before it starts
(a table's later decisions get little time: server.bots.turn_budget)."""

QUICK = 8
"""Orders a playout's colour compares at most (`quick_order`)."""


@dataclass(frozen=True, slots=True)
class Thought:
    """What one decision cost: iterations (one playout each), seconds, and the chosen order's visits."""

    iterations: int
    seconds: float
    visits: int


def rewards(game: Expeditions) -> dict[str, float]:
    """Each colour's result in [0, 1]: of a finished game its share of the win (E12) and a little its
    score; of a running one its lead in worth (`worth`: the score, islands present, boats on the map)
    over the best other colour, squashed (a playout cut short says by how much a colour leads, which
    tells the arms apart in fewer playouts than who leads)."""
    if game.over is not None:
        result = ranking(game)
        winners = result["winners"]
        scores = result["scores"]
        best = max(scores.values()) or 1
        return {c: WIN_WEIGHT * (1.0 / len(winners) if c in winners else 0.0) + (1 - WIN_WEIGHT) * scores[c] / best
                for c in game.colours}
    values = {c: worth(game, c) for c in game.colours}
    return {c: 1.0 / (1.0 + math.exp(-(v - max(w for o, w in values.items() if o != c)) / LEAD_SCALE))
            for c, v in values.items()}


def shortlist(worlds: list[Expeditions], colour: str, orders: list[Order], keep: int,
              others: dict[str, Order] | None = None) -> list[tuple[Order, list[float]]]:
    """The `keep` orders of `orders` worth most to `colour` after one turn in which it orders (and the
    other colours as `others` say: none by default, the greedy bot's look), on the same imagined `worlds`,
    best first; each with its `rewards` for `colour` in those worlds (a look one turn deep: the search
    starts from them)."""
    rated = []
    for n, order in enumerate(orders):
        total, results = 0.0, []
        for world in worlds:
            trial = world.clone()
            trial.pending = {**(others or {}), colour: order}
            trial.resolve()
            total += worth(trial, colour)
            results.append(rewards(trial)[colour])
        rated.append((-total, n, order, results))
    rated.sort(key=lambda r: (r[0], r[1]))
    return [(order, results) for _w, _n, order, results in rated[:keep]]


def quick_order(world: Expeditions, colour: str, rng: random.Random) -> Order:
    """A playout's order for `colour`: the greedy bot's choice among a few plain orders (pass, each royal
    island, one beach of an island filled, the moves spread, a boat placed), each tried once with only
    its own order in, on the playout's world with its dice redrawn."""
    o = world.legal_orders(colour)
    orders: list[Order] = [Pass(), *(Royal(i) for i in o.royal)]
    for a in o.expand:
        n = min(a.moves, o.supply)
        if n > 0:
            orders.extend(Expand.of(a.island, {side: n}) for side in SIDES)
            orders.append(Expand.of(a.island, {SIDES[i % 4]: 1 for i in range(n)} if n <= 4 else
                                    {side: (n + 3 - i) // 4 for i, side in enumerate(SIDES)}))
    if o.place:
        orders.append(Place(rng.choice(o.place), rng.choice(SIDES)))
    if len(orders) > QUICK:
        orders = orders[:1] + rng.sample(orders[1:], QUICK - 1)
    best: tuple[float, Order] = (-1.0, orders[0])
    for order in orders:
        trial = world.imagine(rng.randrange(2**63))
        trial.pending = {colour: order}
        trial.resolve()
        value = worth(trial, colour)
        if value > best[0]:
            best = (value, order)
    return best[1]


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

    def __init__(self, seed: int | None = None, iterations: int | None = None, seconds: float | None = None,
                 horizon: int = HORIZON, mine: int = MY_ARMS, theirs: int = THEIR_ARMS, model: bool = True) -> None:
        self.seed = seed if seed is not None else random.randrange(2**32)
        self.iterations = iterations
        self.seconds = seconds if seconds is not None or iterations is not None else 1.0
        self.horizon = horizon
        self.mine = mine
        self.theirs = theirs
        self.model = model
        self.last: Thought | None = None

    def __repr__(self) -> str:
        return f"ExpeditionsSearchBot(iterations={self.iterations}, seconds={self.seconds})"

    def choose(self, game: Expeditions, colour: str) -> Order:
        began = time.perf_counter()
        rng = random.Random(self.seed * 1_000_003 + game.turn)
        screen = [game.imagine(rng.randrange(2**63)) for _ in range(SCREEN_WORLDS)]   # the same for every order
        found = {c: candidates(game, c, rng) for c in game.colours}
        # a budget too short to foresee the others' orders too: theirs unrated, and a look at one world
        lean = self.seconds is not None and self.seconds < LEAN_BELOW
        rated = {c: shortlist([] if lean else screen, c, found[c], self.theirs) for c in game.colours if c != colour}
        likely = {c: short[0][0] for c, short in rated.items()} if self.model and not lean else None
        screen = screen[:1] if lean else screen
        rated[colour] = shortlist(screen, colour, found[colour], self.mine, likely)
        arms = {c: [order for order, _r in short] for c, short in rated.items()}
        if len(arms[colour]) == 1:
            self.last = Thought(0, time.perf_counter() - began, 0)
            return arms[colour][0]
        bandits = {c: _Bandit(len(arms[c])) for c in game.colours}
        for c, short in rated.items():   # the one-turn look counts as the first playouts: a short search
            for i, (_order, results) in enumerate(short):   # (a loaded machine) still chooses as well as it
                for value in results:
                    bandits[c].credit(i, value)
        done, searching, out_of_time = 0, time.perf_counter(), False
        while not out_of_time:
            if self.iterations is not None and done >= self.iterations:
                break
            # one imagined world (R15: a deck and dice of its own, never the real ones), the others' picks
            # by their own bandits, and every one of the bot's arms played in that same world, its later
            # turns drawn alike: the arms differ by their orders alone (common random numbers)
            seed, later = rng.randrange(2**63), rng.randrange(2**63)
            picks = {c: bandits[c].pick(rng) for c in game.colours if c != colour}
            for arm, order in enumerate(arms[colour]):
                if self.seconds is not None and done:
                    now = time.perf_counter()   # another playout (at the pace so far) would end past the budget
                    out_of_time = now - began + (now - searching) / done > self.seconds
                    if out_of_time:   # (a sweep cut short: its arms' means stay fair, each result its world's)
                        break
                world = game.imagine(seed)
                world.pending = {**{c: arms[c][i] for c, i in picks.items()}, colour: order}   # nobody's real one
                world.resolve()
                policy = random.Random(later)
                for _ in range(self.horizon):
                    if world.over is not None:
                        break
                    world.pending = {c: quick_order(world, c, policy) for c in world.colours}
                    world.resolve()
                result = rewards(world)
                bandits[colour].credit(arm, result[colour])
                for c, i in picks.items():
                    bandits[c].credit(i, result[c])
                done += 1
        mine = bandits[colour]
        best = max(range(len(arms[colour])), key=lambda i: (mine.reward[i] / mine.visits[i], -i))
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

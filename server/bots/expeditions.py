"""The Expeditions bot levels (EXPEDITIONS.md E1–E13), as the bot workers play them: `random` and `greedy`
(the engine's own, server/game/expeditions/bots.py) and `search`, a Monte Carlo search for simultaneous
orders.

The search (`SearchBot`): every colour orders at once and in secret (E3), so there is no turn order to
search down, and the deck's order and the random state are unseen (R15): every look runs on imagined
worlds (`game.imagine`: the deck reshuffled and the dice redrawn, never the real ones, and nobody's
pending order).

1. The other colours' likely orders (`likely_orders`): each one's candidates tried on a few imagined
   worlds with only its own order in, as the greedy bot looks; the greedy bot looks at two worlds, so the
   best order in each pair of those worlds is one it may well give, and each playout draws one of them
   (with a budget too short for that look, or past LOOK_SHARE of it, the colour's `rough_order`).
2. The bot's own candidates (`candidates`) compared by sequential halving: rounds that share the budget
   equally among the candidates still in, the better half by mean result going on to the next round.
   Each sweep plays every candidate still in against the same imagined world and the same draws of the
   others' orders (common random numbers: the candidates differ by their orders alone).
3. A playout resolves the turn, plays HORIZON more turns in which every colour orders roughly as the
   greedy bots do (`rough_order`: cheap, no look of its own), and judges the position by `rewards`.

The best mean of the last round is played. Deterministic with an iteration budget and a seed.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from server.game.expeditions import Expand, Expeditions, Order, Pass, Place
from server.game.expeditions.bots import GreedyBot, RandomBot, candidates, worth, worths
from server.game.expeditions.catalogue import BOATS, SIDES, TONGA
from server.game.expeditions.rules import activations
from server.game.expeditions.scoring import ranking

from .levels import Budget

WIN_WEIGHT = 0.75
"""A finished playout's reward: this much the share of the win (E12), the rest the score against the best."""

LEAD_SCALE = 3.0
"""Points of lead in worth that make a cut-short playout's reward about 0.73 (`rewards`)."""

HORIZON = 1
"""Turns a playout plays on after the searched one (`rough_order` for every colour) before the position is
judged. Against two greedy bots (the same 80 games, 300 playouts a decision): 0 turns won 47.5 %, 1 turn
61.3 %, 2 turns 60.0 % (a turn's orders show their worth a turn later: the fleets they send out, the
beaches others fill); 1 is the cheaper."""

RIVAL_WORLDS = 4
"""Imagined worlds each other colour's candidates are tried on (`likely_orders`: one likely order per pair)."""

LOOK_SHARE = 0.3
"""Share of a time budget the look at the other colours' likely orders may take before it stops."""

LEAN_BELOW = 0.25
"""Seconds of budget below which the search takes the others' rough orders and looks one turn deep: a
table's later decisions get little time (server.bots.turn_budget)."""


@dataclass(frozen=True, slots=True)
class Thought:
    """What one decision cost: playouts, seconds, and the playouts of the chosen order."""

    iterations: int
    seconds: float
    visits: int


def rewards(game: Expeditions) -> dict[str, float]:
    """Each colour's result in [0, 1]: of a finished game its share of the win (E12) and a little its
    score; of a running one its lead in worth (`worth`: the score, islands present, boats on the map)
    over the best other colour, squashed (a playout cut short says by how much a colour leads, which
    tells the orders apart in fewer playouts than who leads)."""
    if game.over is not None:
        result = ranking(game)
        winners = result["winners"]
        scores = result["scores"]
        best = max(scores.values()) or 1
        return {c: WIN_WEIGHT * (1.0 / len(winners) if c in winners else 0.0) + (1 - WIN_WEIGHT) * scores[c] / best
                for c in game.colours}
    values = worths(game)
    return {c: 1.0 / (1.0 + math.exp(-(v - max(w for o, w in values.items() if o != c)) / LEAD_SCALE))
            for c, v in values.items()}


def likely_orders(worlds: list[Expeditions], colour: str, orders: list[Order]) -> list[Order]:
    """What `colour` likely orders as the greedy bot chooses (its own order alone in, worth after the
    turn, two imagined worlds): the best of `orders` in each pair of `worlds`, one per pair."""
    values = []
    for order in orders:
        row = []
        for world in worlds:
            trial = world.clone()
            trial.pending = {colour: order}
            trial.resolve()
            row.append(worth(trial, colour))
        values.append(row)
    pairs = [(a, b) for a in range(len(worlds)) for b in range(a + 1, len(worlds))]
    return [orders[max(range(len(orders)), key=lambda k: (values[k][a] + values[k][b], -k))] for a, b in pairs]


def rough_order(world: Expeditions, colour: str, rng: random.Random) -> Order:
    """A playout's cheap order for `colour`, as the greedy bots mostly play: the island with the most
    moves expanded, all of them on one beach (a fleet out) or spread over the beaches; with no boat on the
    map, one boat on a random island (E4); nothing with an empty supply."""
    supply = world.supply[colour]
    if supply == BOATS:   # none on the map: one boat on an island not royal, or Tonga's two moves
        island = rng.choice([world.board[cell] for cell in world.beaches if cell not in world.royal])
        return Place(island, rng.choice(SIDES)) if island != TONGA.id else Expand.of(island, {rng.choice(SIDES): 2})
    if supply == 0:
        return Pass()
    a = max(activations(world, colour), key=lambda a: (a.moves, rng.random()))
    n = min(a.moves, supply)
    if rng.random() < 0.5:
        return Expand.of(a.island, {rng.choice(SIDES): n})
    return Expand.of(a.island, {SIDES[i % 4]: 1 for i in range(n)} if n <= 4 else
                     {side: (n + 3 - i) // 4 for i, side in enumerate(SIDES)})


class SearchBot:
    """Monte Carlo search over the bot's candidate orders against the others' likely ones, determinised on
    the unseen deck and dice (module docstring). `iterations` (playouts) or `seconds` bound it (seconds:
    1 when neither is given)."""

    def __init__(self, seed: int | None = None, iterations: int | None = None, seconds: float | None = None,
                 horizon: int = HORIZON) -> None:
        self.seed = seed if seed is not None else random.randrange(2**32)
        self.iterations = iterations
        self.seconds = seconds if seconds is not None or iterations is not None else 1.0
        self.horizon = horizon
        self.last: Thought | None = None

    def __repr__(self) -> str:
        return f"ExpeditionsSearchBot(iterations={self.iterations}, seconds={self.seconds})"

    def choose(self, game: Expeditions, colour: str) -> Order:
        began = time.perf_counter()
        rng = random.Random(self.seed * 1_000_003 + game.turn)
        arms = candidates(game, colour, rng)
        # a budget too short for a look at the others' orders and for later turns: their rough orders, one
        # turn deep; and a look that would take more than its share of the budget (many colours, a loaded
        # machine) stops there, the colours left to their rough orders
        lean = self.seconds is not None and self.seconds < LEAN_BELOW
        horizon = 0 if lean else self.horizon
        screen = [] if lean else [game.imagine(rng.randrange(2**63)) for _ in range(RIVAL_WORLDS)]
        likely: dict[str, list[Order]] = {}
        for c in game.colours:
            if c == colour:
                continue
            if lean or self.seconds is not None and time.perf_counter() - began > self.seconds * LOOK_SHARE:
                likely[c] = [rough_order(game, c, rng)]
            else:
                likely[c] = likely_orders(screen, c, candidates(game, c, rng))
        if len(arms) == 1:
            self.last = Thought(0, time.perf_counter() - began, 0)
            return arms[0]
        total, plays = [0.0] * len(arms), [0] * len(arms)
        alive = list(range(len(arms)))
        rounds = math.ceil(math.log2(len(arms)))
        done, searching, out_of_time = 0, time.perf_counter(), False
        for r in range(rounds):
            final = r == rounds - 1
            sweeps = None if self.iterations is None else max(   # every candidate once at least, the rest shared
                int(r == 0), (self.iterations - done) // (rounds - r) // len(alive))
            if self.seconds is not None:   # each round an equal share of the time left
                ends = searching + (self.seconds - (searching - began)) * (r + 1) / rounds
            swept = 0
            while not out_of_time and (sweeps is None or swept < sweeps):
                if self.seconds is not None and done >= len(arms) and not final:
                    now = time.perf_counter()   # another sweep (at the pace so far) would end past the round's share
                    if now + (now - searching) / done * len(alive) > ends:
                        break
                # one imagined world, one draw of the others' likely orders, the later turns drawn alike
                seed, later, pick = rng.randrange(2**63), rng.randrange(2**63), rng.randrange(2**31)
                others = {c: orders[pick % len(orders)] for c, orders in likely.items()}
                for i in alive:
                    if self.seconds is not None and done >= len(arms):   # (every candidate played once first)
                        now = time.perf_counter()   # another playout would likely end past the budget
                        out_of_time = now - began + (now - searching) / done > self.seconds
                        if out_of_time:   # (a sweep cut short: the means stay fair, each result its world's)
                            break
                    total[i] += self._playout(game, colour, {**others, colour: arms[i]}, seed, later, horizon)
                    plays[i] += 1
                    done += 1
                swept += 1
            if out_of_time or final:
                break
            alive.sort(key=lambda i: (-total[i] / plays[i], i))
            alive = sorted(alive[: (len(alive) + 1) // 2])
        best = min(alive, key=lambda i: (-total[i] / plays[i], i))
        self.last = Thought(done, time.perf_counter() - began, plays[best])
        return arms[best]

    @staticmethod
    def _playout(game: Expeditions, colour: str, orders: dict[str, Order], seed: int, later: int,
                 horizon: int) -> float:
        """`colour`'s reward from one imagined world (`seed`) in which the turn resolves with `orders` and
        `horizon` more turns follow with rough orders (drawn from `later`)."""
        world = game.imagine(seed)
        world.pending = orders   # nobody's real one
        world.resolve()
        policy = random.Random(later)
        for _ in range(horizon):
            if world.over is not None:
                break
            world.pending = {c: rough_order(world, c, policy) for c in world.colours}
            world.resolve()
        return rewards(world)[colour]


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

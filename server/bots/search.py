"""The search level: information-set Monte Carlo tree search over determinisations (single observer).

Each iteration imagines the game afresh (`game.imagine(seed)`: the unseen stack reshuffled, never the real
order: R15), walks down one shared tree of actions, choosing by UCB among the actions legal in that
imagined game (a child's exploration term counts the iterations in which it was available), adds one
node, plays on at random until every rival has had a turn (or the game ends) and credits every
node on the path with the result for the colour that chose it: the table's worth by the greedy evaluation,
less its worth at the root, squashed into [0, 1]. The action most often chosen at the root is played.

Deterministic given the seed and an iteration budget: every random draw comes from one generator seeded
by the bot's seed and the game's version.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from server.game import Game
from server.game.actions import ActionValue
from server.game.wire import Action

from .evaluate import evaluate, people, ratings
from .greedy import GreedyBot

ROUND = "round"
"""The default horizon: a playout ends when each rival has played one turn, at random (2 players: one turn,
4 players: three), so that what the rivals may do next (fill a beach and send one's boats off, R6) is
sampled rather than only guessed by the evaluation."""

ROOT_RATED = 48
"""At most this many of the root's actions are rated by the greedy evaluation (drawn at random when there are
more): the children the search starts from."""


@dataclass(frozen=True, slots=True)
class Thought:
    """What one decision cost: iterations (one playout each), seconds, and the root's visit count of the
    chosen action."""

    iterations: int
    seconds: float
    visits: int

    @property
    def playouts_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


class _Node:
    """A node of the tree: reached by an action (the engine's typed value, its key among its parent's
    children); `reward` sums the results of the colour that chose it."""

    __slots__ = ("avail", "children", "prior", "reward", "visits")

    def __init__(self, prior: float = 0.0) -> None:
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.prior = prior
        self.children: dict[ActionValue, _Node] = {}


def rewards(game: Game) -> dict[str, float]:
    """Each colour's result of a finished game in [0, 1]: mostly the share of the win (R13, R14's
    winners included), a little the points, so playouts that lose narrowly still say something."""
    result = game.result()
    assert result is not None
    winners = result["winners"]
    scores = result["scores"]
    top = max(1, max(scores.values()))
    share = 1.0 / len(winners)
    if result.get("teams"):
        share = 1.0
    return {c: 0.85 * (share if c in winners else 0.0) + 0.15 * scores[c] / top for c in scores}


def worths(game: Game, temperature: float, baseline: dict[str, float] | None = None) -> dict[str, float]:
    """Each colour's result of a game stopped anywhere, in [0, 1]: the greedy evaluation of its table (in
    points, a won game worth 10 more), less its `baseline` (the rating of the table the search decides
    from), through a logistic of `temperature` points, so a gain of a few points reads as nearly won."""
    view = game.view()
    rated = ratings(view)
    out: dict[str, float] = {}
    for side in people(view):
        value = rated[side[0]] - (baseline[side[0]] if baseline else 0.0)
        for c in side:
            out[c] = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, value / temperature))))
    return out


class SearchBot:
    """ISMCTS within a budget of iterations (deterministic) or seconds (at least one iteration).

    `exploration` is UCB's constant; `horizon` is how many turns a playout plays (at random) before the
    table is judged by the greedy evaluation through a logistic of `temperature` points (`ROUND`: one turn
    per rival; None: play to the end and count the win, R13); `guide` is how many sampled actions a
    playout's turn decision compares with the greedy evaluation (0: plain random playouts); `bias` weighs
    the greedy ratings of the root's actions as a progressive bias that fades with visits."""

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        horizon: int | str | None = ROUND,
        temperature: float = 2.0,
        guide: int = 0,
        bias: float = 1.0,
    ) -> None:
        if iterations is None and seconds is None:
            seconds = 1.0
        self.seed = random.Random(seed).getrandbits(32)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.horizon = horizon
        self.temperature = temperature
        self.guide = guide
        self.bias = bias
        self.last: Thought | None = None

    def __repr__(self) -> str:
        budget = f"iterations={self.iterations}" if self.iterations is not None else f"seconds={self.seconds}"
        return f"SearchBot({budget}, horizon={self.horizon}, guide={self.guide})"

    def choose(self, game: Game) -> Action:
        """A legal action for `game.to_move`."""
        colour = game.to_move
        assert colour is not None, "the game is over: there is nothing to choose"
        legal = game.legal_values()
        if len(legal) == 1:
            self.last = Thought(0, 0.0, 0)
            return legal[0].to_wire()
        began = time.perf_counter()
        turns = self._horizon_turns(game)
        rng = random.Random(self.seed * 1_000_003 + game.version)
        root = _Node()
        deadline = None if self.seconds is None else began + self.seconds
        self._priors(game, legal, colour, root, rng, deadline)
        # Judged against the table it decides from: a colour far ahead (or behind) would otherwise rate
        # every table near 1 (or 0), and the logistic would leave its search nothing to tell apart.
        baseline = ratings(game.view())
        done = 0
        while True:
            self._iterate(game, root, rng, baseline, turns)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        # The most visited action, then the best mean; ties go to the first in the listing's order.
        best = legal[0]
        best_rank = (-1, 0.0)
        for action in legal:
            child = root.children.get(action)
            if child is not None and child.visits > 0:
                rank = (child.visits, child.reward / child.visits)
                if rank > best_rank:
                    best, best_rank = action, rank
        self.last = Thought(done, time.perf_counter() - began, max(0, best_rank[0]))
        return best.to_wire()

    def _horizon_turns(self, game: Game) -> int:
        """Turns a playout plays before it is judged (-1: to the end)."""
        if self.horizon is None:
            return -1
        if self.horizon == ROUND:
            return max(1, len(game.colours) - 1)
        return int(self.horizon)

    def _priors(self, game: Game, legal: list[ActionValue], colour: str, root: _Node, rng: random.Random,
                deadline: float | None = None) -> None:
        """The greedy ratings of the root's actions (0 best, negative worse, in points), as children; those
        rated by `deadline` only (a short budget is not overrun by the ratings: each may take tens of ms)."""
        if self.bias <= 0:
            return
        rater = GreedyBot(seed=rng.getrandbits(32), samples=1, depth=1, follow=3)
        copy = game.imagine(rng.getrandbits(32))
        # a wide decision (a free tile placement has over a hundred actions) is rated on a sample, not on
        # the first of its listing, which are all in one corner of the table
        rated = legal if len(legal) <= ROOT_RATED else rng.sample(legal, ROOT_RATED)
        ratings: dict[ActionValue, float] = {}
        for a in rated:
            if ratings and deadline is not None and time.perf_counter() >= deadline:
                break
            ratings[a] = rater.rate(copy, a.to_wire(), colour)
        top = max(ratings.values())
        for k, value in ratings.items():
            root.children[k] = _Node(prior=max(-1.0, (value - top) / 4.0))

    def _iterate(self, game: Game, root: _Node, rng: random.Random, baseline: dict[str, float],
                 turns: int) -> None:
        world = game.imagine(rng.getrandbits(32))
        node = root
        path: list[tuple[_Node, str]] = []
        c = self.exploration
        while world.to_move is not None:
            mover = world.to_move
            legal = world.legal_values()
            if len(legal) == 1:
                world.apply(legal[0])
                continue
            untried: list[int] = []
            best_i = -1
            best_score = float("-inf")
            children = node.children
            for i, k in enumerate(legal):
                child = children.get(k)
                if child is None:
                    untried.append(i)
                    continue
                child.avail += 1
                if child.visits == 0:
                    score = 1e9 + child.prior
                else:
                    score = (
                        child.reward / child.visits
                        + c * math.sqrt(math.log(child.avail) / child.visits)
                        + self.bias * child.prior / (1 + child.visits)
                    )
                if score > best_score:
                    best_i, best_score = i, score
            # Progressive widening: a node visited n times grows at most 2 + 2√n children, so wide
            # decisions (a free tile placement has over a hundred) are searched deeply among the first.
            if untried and (best_i < 0 or (best_score < 1e9 and len(children) < 2 + 2 * math.sqrt(node.visits))):
                i = untried[rng.randrange(len(untried))]
                child = _Node()
                child.avail = 1
                children[legal[i]] = child
                world.apply(legal[i])
                path.append((child, mover))
                break
            child = children[legal[best_i]]
            world.apply(legal[best_i])
            path.append((child, mover))
            if child.visits == 0:
                break
            node = child
        self._play_out(world, rng, turns)
        result = rewards(world) if self.horizon is None else worths(world, self.temperature, baseline)
        root.visits += 1
        for child, mover in path:
            child.visits += 1
            child.reward += result[mover]

    def _play_out(self, world: Game, rng: random.Random, turns: int) -> None:
        """Play on at random (a turn decision compares `guide` sampled actions) to the end (`turns` -1), or
        until `turns` turns have been played (each rival's, by default): random play far ahead says more
        about chance than about the position, so the evaluation judges the table once they and their chains
        have run out."""
        guide = self.guide
        while (mover := world.to_move) is not None:
            decision = world.decision
            if decision is not None and decision["kind"] == "turn":
                if turns == 0:
                    return
                turns -= 1
                if guide > 1:
                    world.apply(_best_of(world, [world.sample_action(rng) for _ in range(guide)], mover))
                    continue
            world.apply(world.sample_action(rng))


def _best_of(world: Game, actions: list[Action], colour: str) -> Action:
    """The action of `actions` after which `evaluate` likes the table best (tried on clones of `world`,
    itself an imagined game, so nothing is peeked at)."""
    best = actions[0]
    best_value = float("-inf")
    for action in actions:
        after = world.clone()
        after.apply(action)
        value = evaluate(after.view(), colour)
        if value > best_value:
            best, best_value = action, value
    return best

"""The greedy level: looks one decision ahead and takes the action whose table it likes best."""

from __future__ import annotations

import random

from server.game import Game
from server.game.actions import Migrate
from server.game.wire import Action

from .evaluate import DEFAULT, Weights, evaluate


class GreedyBot:
    """Tries each legal action (at most `width` of them, drawn at random when there are more) on its own
    imagined copy of the game, the unseen stack reshuffled (R15: it never sees the real order), and takes
    the one whose resulting table `evaluate` rates best for the colour to move. An action that sends a
    fleet to sea is tried on `samples` copies with differently shuffled stacks and its ratings averaged,
    since the tiles it will meet are unknown. Ties go to the first in the legal listing's order."""

    def __init__(
        self,
        seed: int | None = None,
        width: int = 48,
        samples: int = 2,
        depth: int = 4,
        follow: int = 4,
        weights: Weights = DEFAULT,
    ) -> None:
        self.rng = random.Random(seed)
        self.width = width
        self.depth = depth
        self.follow = follow
        self.samples = samples
        self.weights = weights

    def __repr__(self) -> str:
        return f"GreedyBot(width={self.width}, samples={self.samples})"

    def choose(self, game: Game) -> Action:
        """A legal action for `game.to_move`."""
        colour = game.to_move
        assert colour is not None, "the game is over: there is nothing to choose"
        legal = game.legal_values()
        if len(legal) == 1:
            return legal[0].to_wire()
        if len(legal) > self.width:
            legal = self.rng.sample(legal, self.width)
        sailing = isinstance(legal[0], Migrate)
        copies = [game.imagine(self.rng.getrandbits(32)) for _ in range(self.samples if sailing else 1)]
        best = legal[0]
        best_value = float("-inf")
        for action in legal:
            wire = action.to_wire()
            value = 0.0
            for copy in copies:
                value += self.rate(copy, wire, colour)
            if value > best_value:
                best, best_value = action, value
        return best.to_wire()

    def rate(self, game: Game, action: Action, colour: str) -> float:
        """The worth for `colour` of the table after `action` is applied to a copy of `game` and the rest of
        the turn's own decisions (migrations and landings the action set off) are taken, each the best by
        `evaluate` of at most `follow` sampled actions: an expansion is worth the voyages it causes."""
        after = game.clone()
        after.apply(action)
        steps = 0
        while after.to_move == colour and steps < self.depth:
            decision = after.decision
            assert decision is not None
            if decision["kind"] in ("turn", "restart", "setup"):
                break  # the next turn of this colour (2 players) or the next set-up boat: not this decision's
            legal = after.legal_actions()
            if len(legal) > self.follow:
                legal = self.rng.sample(legal, self.follow)
            best = legal[0]
            if len(legal) > 1:
                best_value = float("-inf")
                for option in legal:
                    trial = after.clone()
                    trial.apply(option)
                    value = evaluate(trial.view(), colour, self.weights)
                    if value > best_value:
                        best, best_value = option, value
            after.apply(best)
            steps += 1
        return evaluate(after.view(), colour, self.weights)

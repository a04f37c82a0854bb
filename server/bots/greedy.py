"""The greedy level: looks one decision ahead and takes the action whose table it likes best."""

from __future__ import annotations

import random
from typing import Any

from server.game import Game

from .evaluate import DEFAULT, Weights, evaluate

Action = dict[str, Any]


class GreedyBot:
    """Tries each legal action (at most `width` of them, drawn at random when there are more) on its own
    imagined copy of the game, the unseen stack reshuffled (R15: it never sees the real order), and takes
    the one whose resulting table `evaluate` rates best for the colour to move. An action that sends a
    fleet to sea is tried on `samples` copies with differently shuffled stacks and its ratings averaged,
    since the tiles it will meet are unknown. Ties go to the first in the legal listing's order."""

    def __init__(self, seed: int | None = None, width: int = 48, samples: int = 3, weights: Weights = DEFAULT) -> None:
        self.rng = random.Random(seed)
        self.width = width
        self.samples = samples
        self.weights = weights

    def __repr__(self) -> str:
        return f"GreedyBot(width={self.width}, samples={self.samples})"

    def choose(self, game: Game) -> Action:
        """A legal action for `game.to_move`."""
        colour = game.to_move
        assert colour is not None, "the game is over: there is nothing to choose"
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if len(legal) > self.width:
            legal = self.rng.sample(legal, self.width)
        sailing = legal[0]["type"] == "migrate"
        copies = [game.imagine(self.rng.getrandbits(32)) for _ in range(self.samples if sailing else 1)]
        best = legal[0]
        best_value = float("-inf")
        for action in legal:
            value = 0.0
            for copy in copies:
                value += self.rate(copy, action, colour)
            if value > best_value:
                best, best_value = action, value
        return best

    def rate(self, game: Game, action: Action, colour: str) -> float:
        """The worth for `colour` of the table after `action` is applied to a copy of `game`."""
        after = game.clone()
        after.apply(action)
        return evaluate(after.view(), colour, self.weights)

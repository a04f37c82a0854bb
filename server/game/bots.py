"""Bots that play any seat through the same contract a person uses."""

from __future__ import annotations

import random
from typing import Any

from .game import Game


class RandomBot:
    """Chooses uniformly among the legal actions of the pending decision (sampled without listing them
    all): the floor every better bot must beat, and the engine of random-playout tests and benchmarks."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> dict[str, Any]:
        """A legal action for `game.to_move`."""
        return game.sample_action(self.rng)


def play_out(game: Game, bot: RandomBot, max_actions: int = 100_000) -> int:
    """Play `game` to its end with `bot` for every seat; return the number of decisions taken."""
    n = 0
    while game.to_move is not None:
        game.apply(bot.choose(game))
        n += 1
        if n > max_actions:
            raise RuntimeError(f"game did not end within {max_actions} decisions")
    return n

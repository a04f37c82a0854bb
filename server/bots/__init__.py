"""Bots in levels, each played through the contract a person uses: `make_bot(level, seed=…, budget=…)`
returns an object whose `choose(game)` gives a legal action (wire form) for `game.to_move`. Levels:
`random`, `greedy` (one decision ahead), `search` (information-set Monte Carlo tree search). See
docs/bots.md. These are levels only: running them outside the event loop is the worker's concern."""

from .levels import DEFAULT_LEVEL, LEVELS, TURN_BUDGET, Bot, Budget, make_bot, turn_budget

__all__ = ["DEFAULT_LEVEL", "LEVELS", "TURN_BUDGET", "Bot", "Budget", "make_bot", "turn_budget"]

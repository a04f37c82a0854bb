"""The levels and their one constructor, `make_bot`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from server.game import Game
from server.game.bots import RandomBot

from .greedy import GreedyBot
from .search import SearchBot

LEVELS = ("random", "greedy", "search")
"""The bot levels, weakest first."""

DEFAULT_LEVEL = "greedy"
"""The level of a bot seat nobody chose a level for, and of the bot that plays a dropped person's seat."""


class Bot(Protocol):
    """What every level offers: a legal action (wire form) for the colour to move."""

    def choose(self, game: Game) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Budget:
    """How long the search level may think per decision: a number of iterations (deterministic with the
    seed) or of seconds (wall clock). Other levels ignore it."""

    iterations: int | None = None
    seconds: float | None = None

    @classmethod
    def of(cls, value: Budget | int | float | str | None) -> Budget:
        """A budget from an int (iterations), a float (seconds), a string such as "500" or "1.5s", or None
        (one second)."""
        if value is None:
            return cls(seconds=1.0)
        if isinstance(value, Budget):
            return value
        if isinstance(value, bool):
            raise ValueError(f"a budget is iterations or seconds, not {value!r}")
        if isinstance(value, int):
            budget = cls(iterations=value)
        elif isinstance(value, float):
            budget = cls(seconds=value)
        elif isinstance(value, str):
            text = value.strip()
            try:
                budget = cls(seconds=float(text[:-1])) if text.endswith("s") else cls(iterations=int(text))
            except ValueError:
                raise ValueError(f"a budget is like '500' (iterations) or '1.5s' (seconds), not {value!r}") from None
        else:
            raise ValueError(f"a budget is iterations or seconds, not {value!r}")
        if (budget.iterations is not None and budget.iterations < 1) or (
            budget.seconds is not None and not budget.seconds > 0
        ):
            raise ValueError(f"a budget must be positive, not {value!r}")
        return budget

    def __str__(self) -> str:
        return f"{self.iterations} iterations" if self.iterations is not None else f"{self.seconds:g} s"


TURN_BUDGET = 1.2
"""Seconds a search bot at the table thinks over a whole turn, all its decisions together (a turn runs from
one decision to a dozen or more chained ones: R6-R9), so its turn ends within the room's bot pace plus
two seconds."""

DECISION_SHARE = 0.6
"""The share of what is left of the turn's budget one decision may spend: the first decision (the turn's
choice, where most is at stake) gets most, each chained one a share of the rest."""

DECISION_FLOOR = 0.04
"""Seconds a decision gets however much of the turn was spent (a chain's later decisions stay informed)."""


def turn_budget(spent: float, turn: float = TURN_BUDGET) -> Budget:
    """The search budget of one decision of a turn whose decisions so far took `spent` seconds, out of
    `turn` seconds for the whole turn: a share of what is left, at most a second, at least DECISION_FLOOR."""
    return Budget(seconds=max(DECISION_FLOOR, min(1.0, (turn - max(0.0, spent)) * DECISION_SHARE)))


def make_bot(level: str, seed: int | None = None, budget: Budget | int | float | str | None = None) -> Bot:
    """A bot of `level` (one of LEVELS) drawing its randomness from `seed`; `budget` bounds the search level's
    thinking (see Budget). Raises ValueError for an unknown level or a bad budget."""
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed)
    if level == "search":
        b = Budget.of(budget)
        return SearchBot(seed, iterations=b.iterations, seconds=b.seconds)
    raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")

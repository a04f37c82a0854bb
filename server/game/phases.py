"""Where a game stands: the decision a colour must take, a step the engine takes by itself, or the end."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """The phase of a game. At rest (between calls) a game is always at a decision or `OVER`; the steps
    run inside `apply` until the next decision. A decision's value is the `kind` of `Game.decision`."""

    # decisions (docs/engine.md, "Decisions and actions")
    SETUP = "setup"
    TURN = "turn"
    RESTART = "restart"
    MIGRATE = "migrate"
    LAND = "land"
    PLACE_TILE = "place_tile"
    SETTLE = "settle"
    TURN_TILE = "turn_tile"
    # steps the engine takes by itself
    NEXT_SETUP = "setup_next"
    CHAIN = "chain"
    SAIL = "sail"
    ENTER = "enter"
    ARRIVE = "arrive"
    DRAW_FREE = "draw_free"
    END_TURN = "end_turn"
    FINISH = "finish"
    # the game is over
    OVER = "over"


DECISIONS = frozenset(
    {
        Phase.SETUP,
        Phase.TURN,
        Phase.RESTART,
        Phase.MIGRATE,
        Phase.LAND,
        Phase.PLACE_TILE,
        Phase.SETTLE,
        Phase.TURN_TILE,
    }
)
"""The phases at which a colour decides."""

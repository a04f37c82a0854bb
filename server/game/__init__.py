"""The pure rules engine of Tongiaki (RULES.md R1–R15). No I/O, no clock: see docs/engine.md."""

from .catalogue import COLOURS
from .errors import IllegalAction, PositionError
from .game import BOATS, VARIANTS, Game

__all__ = ["BOATS", "COLOURS", "VARIANTS", "Game", "IllegalAction", "PositionError"]

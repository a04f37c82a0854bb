"""The state of one Expeditions game as plain data (E1-E3): the map, the boats, the secret deck, the random
state and the pending orders. The rules (`rules.py`), the scores (`scoring.py`) and the view (`view.py`) read
it; only the game (`game.py`) changes it. Below all three, so that none of them imports the game."""

from __future__ import annotations

from typing import Any

from .catalogue import Cell
from .orders import Order
from .rng import Dice


class State:
    """What a game is made of; `Expeditions` (game.py) is this with its moves."""

    def __init__(self) -> None:
        self.colours: tuple[str, ...] = ()
        self.seed = 0
        self.turn = 1
        self.board: dict[Cell, str] = {}                      # cell -> tile id
        self.where: dict[str, Cell] = {}                      # tile id -> cell
        self.beaches: dict[Cell, dict[str, list[str]]] = {}   # island cell -> side -> boats (colours)
        self.royal: dict[Cell, str] = {}                      # royal island cell -> its founder
        self.boosted: set[Cell] = set()                       # sea tiles a typhoon put there (E10: +1)
        self.supply: dict[str, int] = {}
        self.at_sea: list[tuple[Cell, tuple[str, ...]]] = []  # fleets on the last sea tile (E11)
        self.deck: list[str] = []                             # top first: secret (R15)
        self.dice = Dice(0)                                   # secret
        self.pending: dict[str, Order] = {}                   # this turn's orders: each its colour's secret
        self.changes: dict[str, int] = {}                     # orders and withdrawals this turn, per colour
        self.log: list[dict[str, Any]] = []                   # each resolved turn's orders (wire form)
        self.over: str | None = None

    def on_map(self, colour: str) -> int:
        """The colour's boats on beaches (and, after a last-tile ending, at sea)."""
        return sum(b.count(colour) for bs in self.beaches.values() for b in bs.values()) + sum(
            boats.count(colour) for _cell, boats in self.at_sea
        )

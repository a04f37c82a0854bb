"""The actions as typed values: one small frozen class per action type of docs/engine.md, with its wire
form (`to_wire`, the dict `Game.apply` takes and `legal_actions` lists) and back (`from_wire`, which
checks the dict as `Game.apply` does). Their reprs paste back into Python.

    >>> Migrate.from_wire({"type": "migrate", "island": "Samoa", "beach": 1, "pier": 4})
    Migrate(island='Samoa', beach=1, pier=4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .wire import Action, Key, action_of, key_of


class ActionValue:
    """An action of any type (the base of the classes below)."""

    def key(self) -> Key:
        """The engine's canonical key of this action (wire.py)."""
        raise NotImplementedError

    def to_wire(self) -> Action:
        """The action as the dict of docs/engine.md."""
        return action_of(self.key())

    @staticmethod
    def from_wire(wire: Any) -> ActionValue:
        """The typed value of an action dict; IllegalAction("malformed") when it is not one."""
        return from_key(key_of(wire))


@dataclass(frozen=True)
class Setup(ActionValue):
    """R3: a boat on a beach of Tonga."""

    beach: int

    def key(self) -> Key:
        return ("setup", self.beach)


@dataclass(frozen=True)
class Expand(ActionValue):
    """R5: one new boat on each of `beaches` of `island`; with the supply empty, one boat taken back from
    `take_back` (island, beach) first."""

    island: str
    beaches: tuple[int, ...]
    take_back: tuple[str, int] | None = None

    def key(self) -> Key:
        return ("expand", self.island, tuple(sorted(self.beaches)), self.take_back)


@dataclass(frozen=True)
class Royal(ActionValue):
    """R10: found a royal island."""

    island: str

    def key(self) -> Key:
        return ("royal", self.island)


@dataclass(frozen=True)
class Colonise(ActionValue):
    """R11: every boat off the board, and a colonist's voyage."""

    def key(self) -> Key:
        return ("colonise",)


@dataclass(frozen=True)
class Restart(ActionValue):
    """R12: boats on the beaches `tonga` of Tonga, or one on `beach` of another `island`."""

    tonga: tuple[int, ...] | None = None
    island: str | None = None
    beach: int | None = None

    def key(self) -> Key:
        if self.tonga is not None:
            return ("restart", "tonga", tuple(sorted(self.tonga)))
        return ("restart", self.island, self.beach)


@dataclass(frozen=True)
class Migrate(ActionValue):
    """R6: the fleet of a full beach sails out of one of its piers."""

    island: str
    beach: int
    pier: int

    def key(self) -> Key:
        return ("migrate", self.island, self.beach, self.pier)


@dataclass(frozen=True)
class Land(ActionValue):
    """R8: the arrived fleet's boats, each as (colour, beach)."""

    boats: tuple[tuple[str, int], ...]

    def key(self) -> Key:
        return ("land", tuple(sorted(self.boats)))


@dataclass(frozen=True)
class PlaceTile(ActionValue):
    """R9 redraw, R11: the tile in hand on a free `cell`, turned by `rotation`."""

    cell: tuple[int, int]
    rotation: int

    def key(self) -> Key:
        return ("place_tile", self.cell[0], self.cell[1], self.rotation)


@dataclass(frozen=True)
class Settle(ActionValue):
    """R11: the colonist's boat on a beach of the island it found."""

    beach: int

    def key(self) -> Key:
        return ("settle", self.beach)


@dataclass(frozen=True)
class TurnTile(ActionValue):
    """R14 free follow-up: how the drawn tile is turned."""

    rotation: int

    def key(self) -> Key:
        return ("turn_tile", self.rotation)


def from_key(key: Key) -> ActionValue:
    """The typed value of a canonical key."""
    kind = key[0]
    if kind == "setup":
        return Setup(key[1])
    if kind == "expand":
        return Expand(key[1], key[2], key[3])
    if kind == "royal":
        return Royal(key[1])
    if kind == "colonise":
        return Colonise()
    if kind == "restart":
        return Restart(tonga=key[2]) if key[1] == "tonga" else Restart(island=key[1], beach=key[2])
    if kind == "migrate":
        return Migrate(key[1], key[2], key[3])
    if kind == "land":
        return Land(key[1])
    if kind == "place_tile":
        return PlaceTile((key[1], key[2]), key[3])
    if kind == "settle":
        return Settle(key[1])
    if kind == "turn_tile":
        return TurnTile(key[1])
    raise AssertionError(kind)  # pragma: no cover

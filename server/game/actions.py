"""The actions as typed values: one small frozen class per action type of docs/engine.md. A value is the
engine's canonical form of an action (lists sorted), so two spellings of the same action are equal: the
rules list, sample, check and apply values, and hand callers their wire form (`to_wire`, the dict
`Game.apply` takes and `legal_actions` lists, fresh each time). `ActionValue.from_wire` reads a dict,
checking its shape as `Game.apply` does. Their reprs paste back into Python.

    >>> ActionValue.from_wire({"type": "migrate", "island": "Samoa", "beach": 1, "pier": 4})
    Migrate(island='Samoa', beach=1, pier=4)
"""

from __future__ import annotations

from typing import Any, final

from . import arrangements, landing
from .errors import IllegalAction
from .geometry import Cell
from .wire import FIELDS, Action, show


class ActionValue:
    """An action of any type (the base of the classes below). A value is never changed once made; two
    values are equal when they are the same action. Plain compiled classes, not dataclasses: the methods
    a dataclass generates stay interpreted under mypyc, and the rules make values by the thousand."""

    __slots__ = ()

    def kind(self) -> str:
        """The action's type, as the wire's `type` names it."""
        raise NotImplementedError

    def to_wire(self) -> Action:
        """The action as the dict of docs/engine.md (canonical: lists sorted), made afresh."""
        raise NotImplementedError

    def fields(self) -> tuple[tuple[str, Any], ...]:
        """The value's fields, (name, value) in order: what equality, hashing and the repr read."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionValue) and type(other) is type(self) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash((self.kind(), self.fields()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={value!r}' for name, value in self.fields())})"

    @staticmethod
    def from_wire(wire: Any) -> ActionValue:
        """The canonical value of an action dict; IllegalAction("malformed") when it is not one."""
        return _parse(wire)


@final
class Setup(ActionValue):
    """R3: a boat on a beach of Tonga."""

    __slots__ = ("beach",)

    def __init__(self, beach: int) -> None:
        self.beach = beach

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return (("beach", self.beach),)

    def kind(self) -> str:
        return "setup"

    def to_wire(self) -> Action:
        return {"type": "setup", "beach": self.beach}


@final
class Expand(ActionValue):
    """R5: one new boat on each of `beaches` (sorted) of `island`; with the supply empty, one boat taken
    back from `take_back` (island, beach) first."""

    __slots__ = ("island", "beaches", "take_back")

    def __init__(self, island: str, beaches: tuple[int, ...], take_back: tuple[str, int] | None = None) -> None:
        self.island = island
        self.beaches = beaches
        self.take_back = take_back

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return (("island", self.island), ("beaches", self.beaches), ("take_back", self.take_back))

    def kind(self) -> str:
        return "expand"

    def to_wire(self) -> Action:
        action: Action = {"type": "expand", "island": self.island, "beaches": sorted(self.beaches)}
        if self.take_back is not None:
            action["take_back"] = {"island": self.take_back[0], "beach": self.take_back[1]}
        return action


@final
class Royal(ActionValue):
    """R10: found a royal island."""

    __slots__ = ("island",)

    def __init__(self, island: str) -> None:
        self.island = island

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return (("island", self.island),)

    def kind(self) -> str:
        return "royal"

    def to_wire(self) -> Action:
        return {"type": "royal", "island": self.island}


@final
class Colonise(ActionValue):
    """R11: every boat off the board, and a colonist's voyage."""

    __slots__ = ()

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return ()

    def kind(self) -> str:
        return "colonise"

    def to_wire(self) -> Action:
        return {"type": "colonise"}


@final
class Restart(ActionValue):
    """R12: boats on the beaches `tonga` (sorted) of Tonga, or one on `beach` of another `island`."""

    __slots__ = ("tonga", "island", "beach")

    def __init__(
        self, tonga: tuple[int, ...] | None = None, island: str | None = None, beach: int | None = None
    ) -> None:
        self.tonga = tonga
        self.island = island
        self.beach = beach

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return (("tonga", self.tonga), ("island", self.island), ("beach", self.beach))

    def kind(self) -> str:
        return "restart"

    def to_wire(self) -> Action:
        if self.tonga is not None:
            return {"type": "restart", "tonga": sorted(self.tonga)}
        return {"type": "restart", "island": self.island, "beach": self.beach}


@final
class Migrate(ActionValue):
    """R6: the fleet of a full beach sails out of one of its piers."""

    __slots__ = ("island", "beach", "pier")

    def __init__(self, island: str, beach: int, pier: int) -> None:
        self.island = island
        self.beach = beach
        self.pier = pier

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return (("island", self.island), ("beach", self.beach), ("pier", self.pier))

    def kind(self) -> str:
        return "migrate"

    def to_wire(self) -> Action:
        return {"type": "migrate", "island": self.island, "beach": self.beach, "pier": self.pier}


@final
class Land(ActionValue):
    """R8: the arrived fleet's boats, each as (colour, beach), sorted."""

    __slots__ = ("boats",)

    def __init__(self, boats: tuple[tuple[str, int], ...]) -> None:
        self.boats = boats

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return (("boats", self.boats),)

    def kind(self) -> str:
        return "land"

    def to_wire(self) -> Action:
        return {"type": "land", "boats": [[c, b] for c, b in sorted(self.boats)]}

    @staticmethod
    def of(placement: landing.Landing) -> Land:
        """The landing given as the boats added to each beach (landing.py)."""
        return Land(tuple(sorted([(c, b) for b, added in enumerate(placement) for c in arrangements.boats(added)])))


@final
class PlaceTile(ActionValue):
    """R9 redraw, R11: the tile in hand on a free `cell`, turned by `rotation`."""

    __slots__ = ("cell", "rotation")

    def __init__(self, cell: Cell, rotation: int) -> None:
        self.cell = cell
        self.rotation = rotation

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return (("cell", self.cell), ("rotation", self.rotation))

    def kind(self) -> str:
        return "place_tile"

    def to_wire(self) -> Action:
        return {"type": "place_tile", "cell": [self.cell[0], self.cell[1]], "rotation": self.rotation}


@final
class Settle(ActionValue):
    """R11: the colonist's boat on a beach of the island it found."""

    __slots__ = ("beach",)

    def __init__(self, beach: int) -> None:
        self.beach = beach

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return (("beach", self.beach),)

    def kind(self) -> str:
        return "settle"

    def to_wire(self) -> Action:
        return {"type": "settle", "beach": self.beach}


@final
class TurnTile(ActionValue):
    """R14 free follow-up: how the drawn tile is turned."""

    __slots__ = ("rotation",)

    def __init__(self, rotation: int) -> None:
        self.rotation = rotation

    def fields(self) -> tuple[tuple[str, Any], ...]:
        return (("rotation", self.rotation),)

    def kind(self) -> str:
        return "turn_tile"

    def to_wire(self) -> Action:
        return {"type": "turn_tile", "rotation": self.rotation}


# ---------------------------------------------------------------------- reading the wire


def _int(value: Any, what: str, action: Any) -> int:
    if type(value) is not int:
        raise IllegalAction("malformed", f"{what} must be an integer, got {show(value)} in {show(action)}", action)
    return value


def _str(value: Any, what: str, action: Any) -> str:
    if type(value) is not str:
        raise IllegalAction("malformed", f"{what} must be a string, got {show(value)} in {show(action)}", action)
    return value


def _list(value: Any, what: str, action: Any, most: int = 16) -> list[Any]:
    if type(value) is not list or len(value) > most:
        raise IllegalAction(
            "malformed", f"{what} must be a list of at most {most}, got {show(value)} in {show(action)}", action
        )
    return value


def _parse(action: Any) -> ActionValue:
    """The canonical value of an action dict, checking its shape; raises IllegalAction('malformed')."""
    if type(action) is not dict:
        raise IllegalAction("malformed", f"an action is a dict with a 'type', got {show(action)}", action)
    kind = action.get("type")
    if type(kind) is not str or kind not in FIELDS:
        raise IllegalAction("malformed", f"unknown action type {show(kind)} in {show(action)}", action)
    if any(type(field) is not str for field in action):
        raise IllegalAction("malformed", f"field names must be strings in {show(action)}", action)
    extra = set(action) - FIELDS[kind] - {"type"}
    if extra:
        raise IllegalAction("malformed", f"unexpected field(s) {sorted(map(str, extra))} in {show(action)}", action)
    try:
        if kind == "setup":
            return Setup(_int(action["beach"], "beach", action))
        if kind == "settle":
            return Settle(_int(action["beach"], "beach", action))
        if kind == "expand":
            island = _str(action["island"], "island", action)
            beaches = tuple(sorted(_int(b, "beach", action) for b in _list(action["beaches"], "beaches", action)))
            tb = action.get("take_back")
            take_back = None
            if tb is not None:
                if type(tb) is not dict or set(tb) != {"island", "beach"}:
                    raise IllegalAction(
                        "malformed", f"take_back must be {{'island': N, 'beach': i}}, got {show(tb)}", action
                    )
                take_back = (
                    _str(tb["island"], "take_back island", action),
                    _int(tb["beach"], "take_back beach", action),
                )
            return Expand(island, beaches, take_back)
        if kind == "royal":
            return Royal(_str(action["island"], "island", action))
        if kind == "colonise":
            return Colonise()
        if kind == "restart":
            if "tonga" in action:
                if set(action) != {"type", "tonga"}:
                    raise IllegalAction("malformed", f"a Tonga restart has only 'tonga': {show(action)}", action)
                pair = tuple(sorted(_int(b, "beach", action) for b in _list(action["tonga"], "tonga", action, 2)))
                return Restart(tonga=pair)
            if set(action) != {"type", "island", "beach"}:
                raise IllegalAction(
                    "malformed", f"a restart names 'tonga' or 'island' and 'beach': {show(action)}", action
                )
            island = _str(action["island"], "island", action)
            return Restart(island=island, beach=_int(action["beach"], "beach", action))
        if kind == "migrate":
            return Migrate(
                _str(action["island"], "island", action),
                _int(action["beach"], "beach", action),
                _int(action["pier"], "pier", action),
            )
        if kind == "land":
            pairs = []
            for given in _list(action["boats"], "boats", action, 8):
                boat = _list(given, "a landing pair [colour, beach]", action, 2)
                if len(boat) != 2:
                    raise IllegalAction("malformed", f"a landing pair is [colour, beach], got {show(boat)}", action)
                pairs.append((_str(boat[0], "colour", action), _int(boat[1], "beach", action)))
            return Land(tuple(sorted(pairs)))
        if kind == "place_tile":
            cell = _list(action["cell"], "cell", action, 2)
            if len(cell) != 2:
                raise IllegalAction("malformed", f"cell must be [q, r], got {show(cell)}", action)
            return PlaceTile(
                (_int(cell[0], "q", action), _int(cell[1], "r", action)), _int(action["rotation"], "rotation", action)
            )
        if kind == "turn_tile":
            return TurnTile(_int(action["rotation"], "rotation", action))
    except KeyError as missing:
        raise IllegalAction("malformed", f"missing field {missing} in {show(action)}", action) from None
    raise AssertionError(kind)  # pragma: no cover

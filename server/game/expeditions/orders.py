"""The orders of E4 as frozen value types with wire forms.

Wire forms (what clients send):
- `{"type": "royal", "island": "MURO"}`                          R ISLAND
- `{"type": "expand", "island": "TONG", "moves": {"N": 2, "E": -1}}`
  signed boat moves per beach: +n boats from the supply onto that beach, -n boats from it back to the
  supply; take-backs happen before placements, so a boat taken back can be placed again.
- `{"type": "expand", "island": "MURO", "moves": {"S": 1}, "take_back": {"island": "TUBU", "beach": "W"}}`
  E4's second special circumstance: one boat from any beach back to the supply, then that one boat moved.
- `{"type": "place", "island": "MURO", "beach": "N"}`               E4's first special circumstance
- `{"type": "pass"}`                                               nothing this turn (same as no order)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .catalogue import SIDES
from .errors import OrderError

Wire = dict[str, Any]


def _island(wire: Wire, key: str = "island") -> str:
    value = wire.get(key)
    if not isinstance(value, str) or not value:
        raise OrderError("malformed", f"{key!r} must be an island abbreviation, got {value!r}", wire)
    return value


def _side(value: Any, wire: Wire) -> str:
    if value not in SIDES:
        raise OrderError("malformed", f"a beach is one of N, E, S, W, got {value!r}", wire)
    return str(value)


@dataclass(frozen=True)
class Royal:
    """R ISLAND: make the island the player's royal island (E5.1)."""

    island: str

    def to_wire(self) -> Wire:
        return {"type": "royal", "island": self.island}

    def __repr__(self) -> str:
        return f"R {self.island}"


@dataclass(frozen=True)
class Expand:
    """X ISLAND moves: boat moves on one activated island (E4, E5.2). `moves` holds (beach, signed count)
    pairs in side order, zero counts left out; `take_back` is E4's second special circumstance."""

    island: str
    moves: tuple[tuple[str, int], ...]
    take_back: tuple[str, str] | None = None

    @staticmethod
    def of(island: str, moves: dict[str, int], take_back: tuple[str, str] | None = None) -> Expand:
        """The canonical form of an expansion."""
        return Expand(island, tuple((s, moves[s]) for s in SIDES if moves.get(s, 0)), take_back)

    @property
    def placed(self) -> int:
        return sum(n for _s, n in self.moves if n > 0)

    @property
    def removed(self) -> int:
        return sum(-n for _s, n in self.moves if n < 0)

    def to_wire(self) -> Wire:
        wire: Wire = {"type": "expand", "island": self.island, "moves": dict(self.moves)}
        if self.take_back is not None:
            wire["take_back"] = {"island": self.take_back[0], "beach": self.take_back[1]}
        return wire

    def __repr__(self) -> str:
        moves = " ".join(f"{s}{n:+d}" for s, n in self.moves)
        back = f" (back {self.take_back[0]} {self.take_back[1]})" if self.take_back else ""
        return f"X {self.island} {moves}{back}".rstrip()


@dataclass(frozen=True)
class Place:
    """E4's first special circumstance: one boat on a beach of any non-royal island other than Tonga."""

    island: str
    beach: str

    def to_wire(self) -> Wire:
        return {"type": "place", "island": self.island, "beach": self.beach}

    def __repr__(self) -> str:
        return f"P {self.island} {self.beach}"


@dataclass(frozen=True)
class Pass:
    """Nothing this turn."""

    def to_wire(self) -> Wire:
        return {"type": "pass"}

    def __repr__(self) -> str:
        return "pass"


Order = Royal | Expand | Place | Pass


def order_from_wire(wire: Any) -> Order:
    """Parse a wire order; raise OrderError("malformed") for anything that is not one. Legality against
    the board is checked by the game (`Expeditions.check`)."""
    if not isinstance(wire, dict):
        raise OrderError("malformed", f"an order is a dict, got {type(wire).__name__}", wire)
    kind = wire.get("type")
    allowed = {
        "royal": {"type", "island"},
        "expand": {"type", "island", "moves", "take_back"},
        "place": {"type", "island", "beach"},
        "pass": {"type"},
    }
    if kind not in allowed:
        raise OrderError("malformed", f"unknown order type {kind!r}", wire)
    extra = set(wire) - allowed[kind]
    if extra:
        raise OrderError("malformed", f"unexpected fields {sorted(extra)} in a {kind} order", wire)
    if kind == "pass":
        return Pass()
    if kind == "royal":
        return Royal(_island(wire))
    if kind == "place":
        return Place(_island(wire), _side(wire.get("beach"), wire))
    moves = wire.get("moves")
    if not isinstance(moves, dict):
        raise OrderError("malformed", f"'moves' must map beaches to signed counts, got {moves!r}", wire)
    counts: dict[str, int] = {}
    for side, n in moves.items():
        if type(n) is not int:
            raise OrderError("malformed", f"moves on beach {side!r} must be an integer, got {n!r}", wire)
        counts[_side(side, wire)] = n
    back = wire.get("take_back")
    take_back: tuple[str, str] | None = None
    if back is not None:
        if not isinstance(back, dict) or set(back) != {"island", "beach"}:
            raise OrderError("malformed", f"'take_back' must be {{island, beach}}, got {back!r}", wire)
        take_back = (_island(back), _side(back["beach"], wire))
    return Expand.of(_island(wire), counts, take_back)

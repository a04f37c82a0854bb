"""Which orders are legal (E4), checked against the board at the start of the turn.

`options(game, colour)` lists what the order form may offer; `check(game, colour, order)` raises
OrderError with a stable code, or returns the canonical order. Both read the board only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .catalogue import SIDES, TILES, TONGA, Cell, Island
from .errors import OrderError
from .orders import Expand, Order, Pass, Place, Royal, order_from_wire
from .state import State

TONGA_MOVES = 2


@dataclass(frozen=True)
class Activation:
    """An island the colour may expand on: how many boat moves (E4), and its own boats per beach
    (what may be taken back)."""

    island: str
    moves: int
    own: tuple[tuple[str, int], ...]

    def to_wire(self) -> dict[str, Any]:
        return {"island": self.island, "moves": self.moves, "own": dict(self.own)}


@dataclass(frozen=True)
class Options:
    """Every order open to a colour this turn: the order form offers exactly these (E4)."""

    royal: tuple[str, ...]
    expand: tuple[Activation, ...]
    place: tuple[str, ...]
    take_back: tuple[tuple[str, str], ...]
    supply: int

    def to_wire(self) -> dict[str, Any]:
        return {
            "royal": list(self.royal),
            "expand": [a.to_wire() for a in self.expand],
            "place": list(self.place),
            "take_back": [{"island": i, "beach": b} for i, b in self.take_back],
            "supply": self.supply,
        }


def _island_cell(game: State, abbr: str, order: Any) -> Cell:
    tile = TILES.get(abbr)
    cell = game.where.get(abbr)
    if not isinstance(tile, Island) or cell is None:
        raise OrderError("not_on_map", f"{abbr!r} is not an island on the map", order)
    return cell


def activations(game: State, colour: str) -> tuple[Activation, ...]:
    """Tonga (2 moves, E4) and every non-royal island holding a boat of the colour (one move per boat)."""
    found: list[Activation] = []
    for cell, beaches in sorted(game.beaches.items(), key=lambda item: game.board[item[0]] != TONGA.id):
        island = game.board[cell]
        own = tuple((s, beaches[s].count(colour)) for s in SIDES if colour in beaches[s])
        count = sum(n for _s, n in own)
        if island == TONGA.id:
            found.append(Activation(island, TONGA_MOVES, own))
        elif count and cell not in game.royal:
            found.append(Activation(island, count, own))
    return tuple(found)


def options(game: State, colour: str) -> Options:
    """The orders open to `colour` now (empty when the game is over)."""
    if game.over is not None:
        return Options((), (), (), (), 0)
    on_map = game.on_map(colour)
    supply = game.supply[colour]
    royal: tuple[str, ...] = ()
    if colour not in game.royal.values():
        royal = tuple(
            game.board[cell]
            for cell, b in game.beaches.items()
            if cell not in game.royal
            and game.board[cell] != TONGA.id
            and any(colour in boats for boats in b.values())
            and all(c == colour for boats in b.values() for c in boats)
        )
    place: tuple[str, ...] = ()
    if on_map == 0:
        place = tuple(
            game.board[cell] for cell in game.beaches if cell not in game.royal and game.board[cell] != TONGA.id
        )
    take_back: tuple[tuple[str, str], ...] = ()
    if supply == 0:
        take_back = tuple(
            (game.board[cell], s)
            for cell, b in game.beaches.items()
            for s in SIDES
            if cell not in game.royal and colour in b[s]
        )
    return Options(royal, activations(game, colour), place, take_back, supply)


def check(game: State, colour: str, wire_or_order: Any) -> Order:
    """The canonical order if `colour` may give it now, else OrderError (E4)."""
    order = (
        wire_or_order if isinstance(wire_or_order, Royal | Expand | Place | Pass) else order_from_wire(wire_or_order)
    )
    if game.over is not None:
        raise OrderError("game_over", "the game is over", order)
    if colour not in game.colours:
        raise OrderError("not_a_player", f"{colour!r} does not play in this game", order)
    if isinstance(order, Pass):
        return order
    cell = _island_cell(game, order.island, order)
    if cell in game.royal:
        raise OrderError("royal_island", f"{order.island} is {game.royal[cell]}'s royal island", order)
    beaches = game.beaches[cell]
    if isinstance(order, Royal):
        if order.island == TONGA.id:
            raise OrderError("tonga", "Tonga cannot become a royal island", order)
        if colour in game.royal.values():
            raise OrderError("has_royal", f"{colour} already has a royal island", order)
        if not any(colour in b for b in beaches.values()):
            raise OrderError("no_presence", f"{colour} has no boat on {order.island}", order)
        others = sorted({c for b in beaches.values() for c in b} - {colour})
        if others:
            raise OrderError("not_alone", f"{', '.join(others)} also have boats on {order.island}", order)
        return order
    if isinstance(order, Place):
        if game.on_map(colour):
            raise OrderError(
                "circumstance",
                f"{colour} has boats on the map: one boat anywhere is only for a player with none (E4)",
                order,
            )
        if order.island == TONGA.id:
            raise OrderError("malformed", "on Tonga, expand with up to 2 moves instead", order)
        return order
    allowed = {a.island: a for a in activations(game, colour)}.get(order.island)
    if allowed is None:
        raise OrderError("no_presence", f"{colour} has no boat on {order.island} at the start of the turn", order)
    supply = game.supply[colour]
    if order.take_back is not None:
        if supply != 0:
            raise OrderError(
                "circumstance",
                f"{colour} still has {supply} boats in the supply: a take-back from "
                "any beach is only for a player with all 15 on the map (E4)",
                order,
            )
        back_island, back_beach = order.take_back
        back_cell = _island_cell(game, back_island, order)
        if back_cell in game.royal:
            raise OrderError("royal_island", f"{back_island} is a royal island", order)
        if colour not in game.beaches[back_cell][back_beach]:
            raise OrderError("no_presence", f"no {colour} boat on {back_island} {back_beach}", order)
        if len(order.moves) != 1 or order.moves[0][1] != 1:
            raise OrderError("too_many_moves", "after a take-back, the order is exactly one boat placed", order)
        return order
    moves = sum(abs(n) for _s, n in order.moves)
    if moves > allowed.moves:
        raise OrderError("too_many_moves", f"{order.island} allows {colour} {allowed.moves} moves, not {moves}", order)
    own = dict(allowed.own)
    for side, n in order.moves:
        if n < 0 and -n > own.get(side, 0):
            raise OrderError(
                "no_presence",
                f"{colour} has {own.get(side, 0)} boats on {order.island} {side}, cannot take back {-n}",
                order,
            )
    if order.placed > supply + order.removed:
        raise OrderError(
            "supply_short", f"{colour} can place {supply + order.removed} boats, not {order.placed}", order
        )
    return order

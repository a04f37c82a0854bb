"""Shared helpers of the engine scenario tests: a tiny position builder and event finders.

Geometry reminders (RULES.md R2): world directions 0..5 = S, SW, NW, N, NE, SE; neighbour offsets
S(0,+1) SW(-1,+1) NW(-1,0) N(0,-1) NE(+1,-1) SE(+1,0); a tile with rotation ρ shows its own side s toward
world (s + ρ) % 6; forced placement turns a tile to ρ = (d + 3) % 6.
"""

from __future__ import annotations

from typing import Any

from server.game import Game, IllegalAction

OFFSETS = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))


def nb(cell: tuple[int, int] | list[int], d: int) -> list[int]:
    """The neighbour of `cell` in world direction `d`."""
    return [cell[0] + OFFSETS[d][0], cell[1] + OFFSETS[d][1]]


def tonga(*beaches: list[str], cell: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    """Tonga with the given boats on its beaches 0.. (missing beaches are empty)."""
    full = [list(b) for b in beaches] + [[] for _ in range(6 - len(beaches))]
    return {"tile": "Tonga", "cell": list(cell), "rotation": 0, "beaches": full}


def island(name: str, cell: tuple[int, int] | list[int], rotation: int = 0, *beaches: list[str],
           royal: str | None = None) -> dict[str, Any]:
    """An island tile spec; beaches given in catalogue order (missing ones empty)."""
    from server.game.catalogue import TILES

    n = len(TILES[name].beaches)  # type: ignore[union-attr]
    spec: dict[str, Any] = {"tile": name, "cell": list(cell), "rotation": rotation,
                            "beaches": [list(b) for b in beaches] + [[] for _ in range(n - len(beaches))]}
    if royal is not None:
        spec["royal"] = royal
    return spec


def ocean(name: str, cell: tuple[int, int] | list[int], rotation: int = 0) -> dict[str, Any]:
    return {"tile": name, "cell": list(cell), "rotation": rotation}


def position(tiles: list[dict[str, Any]], colours: tuple[str, ...] | list[str] = ("red", "blue"),
             active: str = "red", stack: list[str] | tuple[str, ...] = (), **extra: Any) -> Game:
    """Game.from_position with sensible defaults."""
    spec: dict[str, Any] = {"colours": list(colours), "active": active, "tiles": tiles, "stack": list(stack)}
    spec.update(extra)
    return Game.from_position(spec)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type, in order."""
    return [e for e in events if e["type"] == kind]


def one(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The single event of that type (fails if there are none or several)."""
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind!r} event, got {len(found)}: {types(events)}"
    return found[0]


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def play(game: Game, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply an action after checking it is listed as legal (the list and `apply` must agree)."""
    assert action in game.legal_actions(), f"{action} not in {game.legal_actions()[:20]}"
    return game.apply(action, colour=game.to_move)


def tile_at(game: Game, cell: tuple[int, int] | list[int]) -> dict[str, Any] | None:
    """The view's entry for the tile on `cell`, or None."""
    for t in game.view()["tiles"]:
        if t["cell"] == list(cell):
            return t
    return None


def beaches_of(game: Game, name: str) -> list[list[str]]:
    """Sorted boats on every beach of island `name` (from the public view)."""
    for t in game.view()["tiles"]:
        if t["tile"] == name:
            return [sorted(b["boats"]) for b in t["beaches"]]
    raise AssertionError(f"{name} is not on the table")


def player(game: Game, colour: str) -> dict[str, Any]:
    return next(p for p in game.view()["players"] if p["colour"] == colour)


def rejected(game: Game, action: Any, code: str, colour: str | None = None) -> IllegalAction:
    """Assert `action` is refused with `code` and that the game is unchanged byte for byte."""
    before = game.to_bytes()
    legal = game.legal_actions()
    try:
        game.apply(action, colour=colour)
    except IllegalAction as error:
        assert error.code == code, f"{action!r}: expected {code}, got {error.code}: {error.message}"
        assert game.to_bytes() == before
        assert game.legal_actions() == legal
        return error
    raise AssertionError(f"{action!r} was accepted; expected IllegalAction({code})")


def supply_total(game: Game, colour: str) -> int:
    """Supply + boats on beaches + royal boats + boats at sea: always 15 (R1)."""
    p = player(game, colour)
    return p["supply"] + p["on_board"]

"""The public view of a table (R15): everything on it, in world coordinates, and nothing of the stack's
order or the seed. Tongiaki has no private information, so one view serves every seat and spectator."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .catalogue import TILES, Island, Ocean
from .geometry import NOWHERE

if TYPE_CHECKING:
    from .game import Game, Placed


def tile_view(t: Placed) -> dict[str, Any]:
    """A tile on the table as the view draws it: world directions, boats, royal boat."""
    out = tile_shape(t.name, t.rotation)
    out["cell"] = [t.cell[0], t.cell[1]]
    if t.island is not None:
        for beach, boats in zip(out["beaches"], t.beaches, strict=True):
            beach["boats"] = list(boats)
        out["royal"] = t.royal
    return out


def tile_shape(name: str, rotation: int = 0) -> dict[str, Any]:
    """A tile's drawing, turned by `rotation`: island beaches (moorings, pier directions) or ocean paths
    ([direction, direction, danger]). With rotation 0 the directions are the tile's own sides, which is
    how the tile in hand is shown: the client turns it while the player chooses."""
    tile = TILES[name]
    out: dict[str, Any] = {"tile": name, "rotation": rotation}
    if isinstance(tile, Island):
        out["kind"] = "island"
        out["value"] = tile.value
        out["beaches"] = [
            {"moorings": b.moorings, "piers": [(p + rotation) % 6 for p in b.piers], "boats": []} for b in tile.beaches
        ]
        out["royal"] = None
    else:
        assert isinstance(tile, Ocean)
        out["kind"] = "ocean"
        out["paths"] = [[(a + rotation) % 6, (b + rotation) % 6, danger] for a, b, danger in tile.paths]
    return out


def stack_summary(stack: list[str]) -> dict[str, Any]:
    """What remains in the stack, by kind, island value and ocean danger: countable, so public (R15).
    Sorted, so it says nothing of the order."""
    values: dict[str, int] = {"2": 0, "3": 0, "4": 0, "5": 0}
    dangers: dict[str, int] = {"0": 0, "2": 0, "3": 0, "4": 0}
    islands = oceans = 0
    for name in stack:
        tile = TILES[name]
        if isinstance(tile, Island):
            islands += 1
            values[str(tile.value)] += 1
        else:
            assert isinstance(tile, Ocean)
            oceans += 1
            for _a, _b, danger in tile.paths:
                dangers[str(danger)] += 1
    return {
        "islands": islands,
        "oceans": oceans,
        "island_values": values,
        "ocean_dangers": dangers,
        "remaining": sorted(stack),
    }


def public_view(game: Game, colour: str | None = None) -> dict[str, Any]:
    """The view documented in docs/engine.md."""
    s = game.scores()
    over = game.phase == "over"
    players = [
        {
            "colour": c,
            "supply": game.supply[c],
            "on_board": s["boats"][c],
            "royal": game.royal_founded[c],
            "royal_left": 2 - game.royal_founded[c],
            "score": s["points"][c],
            "islands": s["islands"][c],
        }
        for c in game.colours
    ]
    fleet = None
    if game.fleet is not None:
        f = game.fleet
        where = f.at if f.target == NOWHERE else f.target
        fleet = {
            "boats": list(f.boats),
            "colours": f.colours,
            "from": game.tiles[f.origin].name,
            "cell": [where[0], where[1]],
        }
    view: dict[str, Any] = {
        "colours": list(game.colours),
        "variants": dict(game.variants),
        "phase": "over" if over else ("setup" if game.phase == "setup" else "play"),
        "turn": game.turn,
        "active": None if over else game.colours[game.active],
        "tiles": [tile_view(t) for _cell, t in sorted(game.tiles.items())],
        "players": players,
        "stack": stack_summary(game.stack),
        "removed": list(game.removed),
        "fleet": fleet,
        "at_sea": [{"cell": [c[0], c[1]], "boats": list(b)} for c, b in game.at_sea],
        "in_hand": game.in_hand,
        "hand": None if game.in_hand is None else tile_shape(game.in_hand),
        "pending": game.decision,
        "legal": game.legal_actions(),
        "result": game.result(),
    }
    if colour is not None:
        view["you"] = colour
    return view

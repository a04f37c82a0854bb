"""What a player or spectator sees (E3, E13; RULES.md R15): never another's pending order, the deck order
or the random state."""

from __future__ import annotations

from typing import Any

from .catalogue import SIDES, TILES, Island, Sea
from .rules import options
from .scoring import ranking, scores
from .state import State


def view(game: State, colour: str | None = None) -> dict[str, Any]:
    """The public view; with `colour`, also that colour's own pending order and legal orders."""
    tiles: list[dict[str, Any]] = []
    for cell, tid in sorted(game.board.items(), key=lambda item: (item[0].y, item[0].x)):
        tile = TILES[tid]
        entry: dict[str, Any] = {"tile": tid, "cell": [cell.x, cell.y]}
        if isinstance(tile, Island):
            entry.update(
                kind="island",
                name=tile.name,
                value=tile.value,
                royal=game.royal.get(cell),
                beaches={s: list(game.beaches[cell][s]) for s in SIDES},
            )
        else:
            assert isinstance(tile, Sea)
            boost = 1 if cell in game.boosted else 0
            entry.update(
                kind="sea",
                boosted=bool(boost),
                routes=[[r.a, r.b, r.factor_a + boost, r.factor_b + boost] for r in tile.routes],
            )
        tiles.append(entry)
    s = scores(game)
    deck = sorted(game.deck)  # which tiles are left can be counted from the map; their order is secret
    out: dict[str, Any] = {
        "mode": "expeditions",
        "colours": list(game.colours),
        "turn": game.turn,
        "phase": "over" if game.over else "orders",
        "tiles": tiles,
        "at_sea": [{"cell": [c.x, c.y], "boats": list(b)} for c, b in game.at_sea],
        "players": [
            {
                "colour": c,
                "supply": game.supply[c],
                "on_map": game.on_map(c),
                "score": s["scores"][c],
                "islands": s["islands"][c],
                "royal": next((game.board[x] for x, o in game.royal.items() if o == c), None),
                "submitted": c in game.pending,
            }
            for c in game.colours
        ],
        "deck": {
            "islands": sum(1 for t in deck if isinstance(TILES[t], Island)),
            "seas": sum(1 for t in deck if isinstance(TILES[t], Sea)),
            "remaining": deck,
        },
        "result": ranking(game) if game.over is not None else None,
    }
    if colour is not None and colour in game.colours:
        order = game.pending.get(colour)
        out["you"] = colour
        out["order"] = None if order is None else order.to_wire()
        out["options"] = options(game, colour).to_wire()
    return out

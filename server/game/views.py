"""The public view of a table (R15): everything on it, in world coordinates, and nothing of the stack's
order or the seed. Tongiaki has no private information, so one view serves every seat and spectator."""

from __future__ import annotations

from typing import Any

from .drawing import stack_summary, tile_shape, tile_view
from .geometry import NOWHERE
from .phases import Phase
from .rules import Rules


def public_view(game: Rules, colour: str | None = None) -> dict[str, Any]:
    """The view documented in docs/engine.md, "The view"."""
    s = game.scores()
    over = game.phase == Phase.OVER
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
        "phase": "over" if over else ("setup" if game.phase == Phase.SETUP else "play"),
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
        "pending": pending_decision(game),
        "result": game.result(),
    }
    if colour is not None:
        view["you"] = colour
    return view


def pending_decision(game: Rules) -> dict[str, Any] | None:
    """The pending decision: who decides what, with what a client needs to present it."""
    if game.phase == Phase.OVER:
        return None
    colour = game.colours[game.active]
    d: dict[str, Any] = {"colour": colour, "kind": game.phase.value}
    if game.phase in (Phase.TURN, Phase.RESTART):
        d["supply"] = game.supply[colour]
    elif game.phase == Phase.MIGRATE:
        d["full"] = [
            {"island": t.name, "beach": b} for t in game.islands() if t.royal is None for b in t.full_beaches()
        ]
    elif game.phase == Phase.LAND:
        assert game.fleet is not None
        target = game.tiles[game.fleet.target]
        d["island"] = target.name
        d["fleet"] = list(game.fleet.boats)
        d["free"] = list(target.free())
    elif game.phase == Phase.PLACE_TILE:
        d["tile"] = game.in_hand
        d["reason"] = game.hand_reason
    elif game.phase == Phase.TURN_TILE:
        assert game.fleet is not None
        d["tile"] = game.in_hand
        d["cell"] = list(game.fleet.next)
    elif game.phase == Phase.SETTLE:
        assert game.colonist_island is not None
        d["island"] = game.tiles[game.colonist_island].name
    return d

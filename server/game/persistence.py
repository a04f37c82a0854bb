"""A game's whole state as bytes (msgpack), secret stack included: server-side storage only."""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]

from . import arrangements
from .geometry import NOWHERE, Cell
from .phases import Phase
from .rules import Rules
from .table import Fleet


def to_bytes(game: Rules) -> bytes:
    """The whole state of `game` as msgpack."""
    data = {
        "colours": game.colours,
        "variants": game.variants,
        "seed": game.seed,
        "stack": game.stack,
        "tiles": [[t.name, t.cell[0], t.cell[1], t.rotation, t.beaches, t.royal] for t in game.tiles.values()],
        "supply": game.supply,
        "royal_founded": game.royal_founded,
        "removed": game.removed,
        "at_sea": [[c[0], c[1], boats] for c, boats in game.at_sea],
        "active": game.active,
        "first": game.first,
        "turn": game.turn,
        "phase": game.phase.value,
        "setup_left": game.setup_left,
        "fleet": _fleet_out(game.fleet),
        "in_hand": game.in_hand,
        "hand_reason": game.hand_reason,
        "colonist_island": list(game.colonist_island) if game.colonist_island else None,
        "chain_seen": [[list(arrangements.boats(b)) for b in a] for a in sorted(game.chains.seen)],
        "ending": game.ending,
        "final": game.final,
        "log": game.log,
    }
    return bytes(msgpack.packb(data, use_bin_type=True))


def load(game: Rules, blob: bytes) -> None:
    """Fill the new, empty `game` from `to_bytes` output."""
    data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    game.colours = data["colours"]
    game.variants = data["variants"]
    game.seed = data["seed"]
    game.stack = data["stack"]
    for name, q, r, rotation, beaches, royal in data["tiles"]:
        game.place(name, (q, r), rotation)
        game.tiles[(q, r)].restore(beaches, royal)
    game.supply = data["supply"]
    game.royal_founded = data["royal_founded"]
    game.removed = data["removed"]
    game.at_sea = [((q, r), boats) for q, r, boats in data["at_sea"]]
    game.active = data["active"]
    game.first = data["first"]
    game.turn = data["turn"]
    game.phase = Phase(data["phase"])
    game.setup_left = data["setup_left"]
    game.fleet = _fleet_in(data["fleet"])
    game.in_hand = data["in_hand"]
    game.hand_reason = data["hand_reason"]
    colonist = data["colonist_island"]
    game.colonist_island = (colonist[0], colonist[1]) if colonist else None
    game.chains.seen = {tuple([arrangements.code(b) for b in a]) for a in data["chain_seen"]}
    game.ending = data["ending"]
    game.final = data["final"]
    game.log = data["log"]


def _fleet_out(fleet: Fleet | None) -> dict[str, Any] | None:
    if fleet is None:
        return None
    data: dict[str, Any] = {
        "boats": fleet.boats,
        "colours": fleet.colours,
        "origin": list(fleet.origin),
        "at": list(fleet.at),
        "dir": fleet.heading,
        "drawn": fleet.drawn,
    }
    if fleet.next != NOWHERE:
        data["next"] = list(fleet.next)
    if fleet.target != NOWHERE:
        data["target"] = list(fleet.target)
    return data


def _fleet_in(data: dict[str, Any] | None) -> Fleet | None:
    if data is None:
        return None

    def cell(name: str) -> Cell:
        value = data.get(name)
        return NOWHERE if value is None else (value[0], value[1])

    fleet = Fleet(data["boats"], data["colours"], cell("origin"), data["dir"], at=cell("at"), drawn=data["drawn"])
    fleet.next, fleet.target = cell("next"), cell("target")
    return fleet

"""`Game.from_position` and `Game.to_position`: any table, described compactly, for tests and tutorials."""

from __future__ import annotations

import random
from typing import Any

from .catalogue import STACK_TILES, TILES, TONGA, Island
from .errors import PositionError
from .events import EventValue
from .phases import Phase
from .rules import BOATS, MAX_ROYAL, Rules


def build(game: Rules, position: dict[str, Any]) -> None:
    """Fill the empty `game` from `position` (see docs/engine.md) and start the active colour's turn, or
    its migration decision when a beach is already full."""
    try:
        game.set_colours(position["colours"], position.get("variants"))
    except (KeyError, ValueError) as error:
        raise PositionError(f"bad colours or variants: {error}") from None
    colours = game.colours
    seed = int(position.get("seed", 0))
    game.seed = seed
    on_board = {c: 0 for c in colours}
    royal = {c: 0 for c in colours}
    for spec in position.get("tiles", []):
        name = spec.get("tile")
        if name not in TILES or name in game.where:
            raise PositionError(f"unknown or repeated tile {name!r}")
        cell = tuple(spec["cell"])
        if len(cell) != 2 or cell in game.tiles:
            raise PositionError(f"bad or occupied cell {spec['cell']!r} for {name}")
        rotation = int(spec.get("rotation", 0))
        if not 0 <= rotation < 6:
            raise PositionError(f"rotation of {name} must be 0..5")
        game.place(name, (int(cell[0]), int(cell[1])), rotation)
        t = game.tiles[(int(cell[0]), int(cell[1]))]
        tile = TILES[name]
        if isinstance(tile, Island):
            beaches = spec.get("beaches", [[] for _ in tile.beaches])
            if len(beaches) != len(tile.beaches):
                raise PositionError(f"{name} has {len(tile.beaches)} beaches, got {len(beaches)}")
            for b, (boats, beach) in enumerate(zip(beaches, tile.beaches, strict=True)):
                if len(boats) > beach.moorings or any(c not in colours for c in boats):
                    raise PositionError(f"beach {b} of {name}: {boats!r} does not fit {beach.moorings} moorings")
                for c in boats:
                    on_board[c] += 1
            owner = spec.get("royal")
            if owner is not None:
                if owner not in colours or name == TONGA or any(beaches):
                    raise PositionError(f"royal island {name}: owner {owner!r} must be a colour, alone there")
                royal[owner] += 1
            t.restore([list(boats) for boats in beaches], owner)
        elif "beaches" in spec or "royal" in spec:
            raise PositionError(f"ocean tile {name} has no beaches")
    if TONGA not in game.where and TONGA not in position.get("removed", []):
        raise PositionError("Tonga must be on the table or removed")
    removed = list(position.get("removed", []))
    used = set(game.where) | set(removed)
    if len(used) != len(game.where) + len(removed):
        raise PositionError("a removed tile is also on the table")
    top = list(position.get("stack", []))
    if set(top) & used or len(set(top)) != len(top) or any(n not in TILES for n in top):
        raise PositionError(f"bad stack {top!r}")
    rest = [n for n in STACK_TILES if n not in used and n not in top]
    if position.get("stack_exact"):
        rest = []
        removed += [n for n in STACK_TILES if n not in used and n not in top]
    random.Random(seed).shuffle(rest)
    game.stack = rest + top[::-1]  # the top is the end of the list
    game.removed = [n for n in removed if n != TONGA or TONGA not in game.where]
    game.royal_founded = {c: royal[c] for c in colours}
    for c, n in position.get("royal_founded", {}).items():
        if c not in colours or not royal[c] <= n <= MAX_ROYAL:
            raise PositionError(f"royal_founded[{c!r}] = {n} is impossible")
        game.royal_founded[c] = n
    game.supply = {c: BOATS - on_board[c] - royal[c] for c in colours}
    for c, n in position.get("supplies", {}).items():
        if c not in colours or not 0 <= n <= game.supply[c]:
            raise PositionError(f"supply of {c!r} must be 0..{game.supply[c]}, got {n}")
        game.supply[c] = n  # the others are out of play (e.g. at sea in a tutorial)
    active = position.get("active", colours[0])
    if active not in colours:
        raise PositionError(f"active colour {active!r} is not playing")
    game.active = colours.index(active)
    game.first = game.active
    game.turn = int(position.get("turn", 1))
    game.setup_left = 0
    if not any(TILES[n].__class__ is Island for n in game.stack) or all(
        TILES[n].__class__ is Island for n in game.stack
    ):
        raise PositionError("the stack must hold at least one island and one ocean tile while the game runs")
    events: list[EventValue] = []  # untold: a built position has no history
    if game.any_full():
        game.phase = Phase.CHAIN
    else:
        on = any(active in b for t in game.tiles.values() for b in t.beaches)
        game.phase = Phase.TURN if on else Phase.RESTART
    game.advance(events)


def describe(game: Rules) -> dict[str, Any]:
    """The position of `game` in the form `build` takes, such that building it gives the same table:
    every tile in the order it was placed, the whole stack top first (`stack_exact`), the supplies, the
    royal islands founded, the turn and the active colour. Only a game waiting for a colour's turn (R5,
    or R12 with no boat on the board) is at such a position; any other raises PositionError."""
    if game.phase not in (Phase.TURN, Phase.RESTART) or game.chains.seen or game.fleet is not None:
        raise PositionError(f"only a game at the start of a turn has a position; this one is at {game.phase.value!r}")
    tiles: list[dict[str, Any]] = []
    for t in game.tiles.values():
        spec: dict[str, Any] = {"tile": t.name, "cell": [t.cell[0], t.cell[1]], "rotation": t.rotation}
        if t.island is not None:
            spec["beaches"] = [list(boats) for boats in t.beaches]
            spec["royal"] = t.royal
        tiles.append(spec)
    return {
        "colours": list(game.colours),
        "variants": dict(game.variants),
        "seed": game.seed,
        "active": game.colours[game.active],
        "turn": game.turn,
        "tiles": tiles,
        "stack": game.stack[::-1],  # top first
        "stack_exact": True,
        "removed": list(game.removed),
        "supplies": dict(game.supply),
        "royal_founded": dict(game.royal_founded),
    }

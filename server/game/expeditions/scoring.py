"""Scores and the final ranking (E12, with RULES.md R13's tie-breaks)."""

from __future__ import annotations

from typing import Any

from ..scoring import rank
from .catalogue import TILES, Island
from .state import State


def _value(tile: str) -> int:
    island = TILES[tile]
    assert isinstance(island, Island)
    return island.value


def scores(game: State) -> dict[str, dict[str, int]]:
    """Per colour: `scores` (non-royal islands present + the royal island), `islands` (royal included),
    `boats` (on the map, at sea included, the royal island counting one)."""
    out: dict[str, dict[str, int]] = {"scores": {}, "islands": {}, "boats": {}}
    for colour in game.colours:
        present = [game.board[cell] for cell, b in game.beaches.items() if any(colour in boats for boats in b.values())]
        royal = [game.board[cell] for cell, owner in game.royal.items() if owner == colour]
        out["scores"][colour] = sum(_value(t) for t in present + royal)
        out["islands"][colour] = len(present) + len(royal)
        out["boats"][colour] = game.on_map(colour) + len(royal)
    return out


def ranking(game: State) -> dict[str, Any]:
    """The result: scores, ranking groups best first, winners and what decided it."""
    s = scores(game)
    # R13's order and tie-breaks, as Tongiaki ranks: most points, then islands, then fewest boats
    groups, decided_by = rank(list(game.colours), s["scores"], s["islands"], s["boats"])
    return {**s, "ranking": groups, "winners": groups[0], "decided_by": decided_by}

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
    score = dict.fromkeys(game.colours, 0)
    islands = dict.fromkeys(game.colours, 0)
    boats = dict.fromkeys(game.colours, 0)
    for cell, b in game.beaches.items():   # each island once: who is present, how many boats
        here: set[str] = set()
        for side in b.values():
            here.update(side)
            for colour in side:
                boats[colour] += 1
        value = _value(game.board[cell])
        for colour in here:
            score[colour] += value
            islands[colour] += 1
    for cell, owner in game.royal.items():   # a royal island scores for its founder and counts one boat
        score[owner] += _value(game.board[cell])
        islands[owner] += 1
        boats[owner] += 1
    for _cell, fleet in game.at_sea:
        for colour in fleet:
            boats[colour] += 1
    for colour in game.colours:
        out["scores"][colour] = score[colour]
        out["islands"][colour] = islands[colour]
        out["boats"][colour] = boats[colour]
    return out


def ranking(game: State) -> dict[str, Any]:
    """The result: scores, ranking groups best first, winners and what decided it."""
    s = scores(game)
    # R13's order and tie-breaks, as Tongiaki ranks: most points, then islands, then fewest boats
    groups, decided_by = rank(list(game.colours), s["scores"], s["islands"], s["boats"])
    return {**s, "ranking": groups, "winners": groups[0], "decided_by": decided_by}

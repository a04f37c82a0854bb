"""Scores and the final ranking (E12, with RULES.md R13's tie-breaks)."""

from __future__ import annotations

from typing import Any

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

    def key(colour: str) -> tuple[int, int, int]:
        return (-s["scores"][colour], -s["islands"][colour], s["boats"][colour])

    order = sorted(game.colours, key=key)
    groups: list[list[str]] = []
    for colour in order:
        if groups and key(groups[-1][0]) == key(colour):
            groups[-1].append(colour)
        else:
            groups.append([colour])
    winners = groups[0]
    decided_by = "score"
    if len(winners) > 1:
        decided_by = "shared"
    else:
        rivals = [c for c in game.colours if c not in winners]
        best, rival = key(winners[0]), min((key(c) for c in rivals), default=None)
        if rival is not None:
            decided_by = "score" if best[0] != rival[0] else "islands" if best[1] != rival[1] else "boats"
    return {**s, "ranking": groups, "winners": winners, "decided_by": decided_by}

"""The end of the game (R13, R14): scores, the ranking and its tie-breaks, the result."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .geometry import Cell
from .table import Placed


def scores(
    colours: list[str], islands: Iterable[Placed], at_sea: list[tuple[Cell, list[str]]]
) -> dict[str, dict[str, int]]:
    """Per colour: points, islands present on (royal included), boats on the board (royal = 1)."""
    points = {c: 0 for c in colours}
    present_on = {c: 0 for c in colours}
    boats = {c: 0 for c in colours}
    for t in islands:
        assert t.island is not None
        present = {t.royal} if t.royal is not None else set()
        for b in t.beaches:
            for c in b:
                boats[c] += 1
                present.add(c)
        if t.royal is not None:
            boats[t.royal] += 1
        for c in present:
            present_on[c] += 1
            points[c] += t.island.value
    for _cell, fleet in at_sea:
        for c in fleet:
            boats[c] += 1
    return {"points": points, "islands": present_on, "boats": boats}


def final_result(colours: list[str], two_colours: bool, s: dict[str, dict[str, int]]) -> dict[str, Any]:
    """The result (docs/engine.md, "The result") of a game that ended with the scores `s`."""
    points, islands, boats = s["points"], s["islands"], s["boats"]
    ranking, decided = rank(colours, points, islands, boats)
    winners = ranking[0]
    teams = team_ranking = None
    if two_colours:
        # R14: each person plays two colours (A1, B1, A2, B2); a person's totals decide who wins, with
        # the same tie-breaks (R13) on the summed islands and boats.
        a1, b1, a2, b2 = colours
        people = {f"{a1}+{a2}": (a1, a2), f"{b1}+{b2}": (b1, b2)}

        def total(of: dict[str, int]) -> dict[str, int]:
            return {name: of[x] + of[y] for name, (x, y) in people.items()}

        teams = total(points)
        team_ranking, decided = rank(list(people), teams, total(islands), total(boats))
        winners = [c for name in team_ranking[0] for c in people[name]]
    return {
        "scores": points,
        "islands": islands,
        "boats": boats,
        "ranking": ranking,
        "winners": winners,
        "decided_by": decided,
        "teams": teams,
        "team_ranking": team_ranking,
    }


def rank(
    entrants: list[str], points: dict[str, int], islands: dict[str, int], boats: dict[str, int]
) -> tuple[list[list[str]], str]:
    """R13 ranking: most points, then most islands present on, then fewest boats on the board; groups of
    equal rank, best first, and which criterion separated the winner (or "shared")."""

    def key(c: str) -> tuple[int, int, int]:
        return (-points[c], -islands[c], boats[c])

    order = sorted(entrants, key=lambda c: (key(c), entrants.index(c)))
    ranking: list[list[str]] = []
    for c in order:
        if ranking and key(ranking[-1][0]) == key(c):
            ranking[-1].append(c)
        else:
            ranking.append([c])
    best = order[0]
    top = [c for c in entrants if points[c] == points[best]]
    if len(top) == 1:
        return ranking, "score"
    top = [c for c in top if islands[c] == islands[best]]
    if len(top) == 1:
        return ranking, "islands"
    top = [c for c in top if boats[c] == boats[best]]
    return ranking, "boats" if len(top) == 1 else "shared"


def copy_result(final: dict[str, Any] | None) -> dict[str, Any] | None:
    """An independent copy of the result (R13): callers may change what they are given."""
    if final is None:
        return None
    out = dict(final)
    for key in ("scores", "islands", "boats", "teams"):
        if out[key] is not None:
            out[key] = dict(out[key])
    for key in ("ranking", "team_ranking"):
        if out[key] is not None:
            out[key] = [list(group) for group in out[key]]
    out["winners"] = list(out["winners"])
    return out

"""How good a table is for one colour, read from the public view (R15) alone: the greedy level's judgement.

The figure is in points. It counts the points a colour holds now, discounted where a rival could still take
them away, weighs them more as the end (R13) draws near, and adds what the table promises or threatens:
islands held alone (safe from dilution, and royal islands in waiting: R10), boats on the board (the
expansions of R5 grow with them), beaches one boat short of full where a rival would choose the migration
(R6: the boats on them may sail off and sink), and the best rival's points, which a win must beat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights, in points. The defaults were tuned by playing greedy against random."""

    held_early: float = 0.6  # a non-royal island's points at the start count this much of their value...
    held_late: float = 1.0  # ...rising to this at the end, when nobody can take them any more
    alone: float = 0.15  # per point of an island held alone (royal-able, nobody to dilute it)
    royal_slot: float = 0.5  # a founded royal island spends one of two (R10): its cost in points
    boat: float = 0.12  # per boat on the board
    exposed: float = 0.35  # per own boat on a beach a rival could fill
    rival: float = 0.6  # per point of the best rival


DEFAULT = Weights()


def progress(view: dict[str, Any]) -> float:
    """How near the end is, 0 at the start to 1 at the last draw: the game ends when either kind runs out."""
    stack = view["stack"]
    return 1.0 - min(int(stack["islands"]) / 15, int(stack["oceans"]) / 16)


def people(view: dict[str, Any]) -> list[tuple[str, ...]]:
    """The sides that win or lose together: one colour each, or two in the two-colours variant (R14:
    A1, B1, A2, B2, so A1 plays with A2)."""
    colours = view["colours"]
    if view["variants"].get("two_colours"):
        return [(colours[0], colours[2]), (colours[1], colours[3])]
    return [(c,) for c in colours]


def ratings(view: dict[str, Any]) -> dict[str, float]:
    """Each side's `evaluate`, keyed by the side's first colour (R14: a side's colours share it)."""
    return {side[0]: evaluate(view, side[0]) for side in people(view)}


def evaluate(view: dict[str, Any], colour: str, weights: Weights = DEFAULT) -> float:
    """The worth of the table in `view` for `colour` (higher is better), in points."""
    w = weights
    result = view["result"]
    if result is not None:  # over: the points themselves, and a win is worth more than any margin
        scores = result["scores"]
        mine, rivals = _split(people(view), colour, scores)
        won = 10.0 / len(result["ranking"][0]) if colour in result["winners"] else 0.0
        return float(won + mine - w.rival * rivals)
    p = progress(view)
    held = w.held_early + (w.held_late - w.held_early) * p
    points: dict[str, float] = {c: 0.0 for c in view["colours"]}
    own = 0.0
    for tile in view["tiles"]:
        if tile["kind"] != "island":
            continue
        value = tile["value"]
        royal = tile["royal"]
        if royal is not None:
            points[royal] += value
            continue
        present: set[str] = set()
        for beach in tile["beaches"]:
            present.update(beach["boats"])
        for c in present:
            points[c] += held * value
        if colour not in present:
            continue
        if present == {colour}:
            own += w.alone * value * (1.0 - p)
        rivals_here = len(present) > 1
        for beach in tile["beaches"]:
            boats = beach["boats"]
            if rivals_here and len(boats) == beach["moorings"] - 1:
                own -= w.exposed * boats.count(colour)
    me = next(pl for pl in view["players"] if pl["colour"] == colour)
    own += w.boat * int(me["on_board"]) - w.royal_slot * int(me["royal"])
    mine, rivals = _split(people(view), colour, points)
    return mine + own - w.rival * rivals


def _split(sides: list[tuple[str, ...]], colour: str, points: dict[str, Any]) -> tuple[float, float]:
    """The points of `colour`'s side and of its best rival side."""
    mine = 0.0
    best = 0.0
    for side in sides:
        total = float(sum(points[c] for c in side))
        if colour in side:
            mine = total
        else:
            best = max(best, total)
    return mine, best

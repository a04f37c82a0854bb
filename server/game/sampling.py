"""Sampling a legal action uniformly without listing them all (bots and playouts).

Built on the same per-rule options (options.py) as the listing, counted and unranked instead of listed,
and on the rules' own R9 verdicts; so it draws every legal action with the same chance as a draw from
`legal_actions()` would, at a fraction of the cost.
"""

from __future__ import annotations

import random

from . import options
from .actions import ActionValue, Colonise, Expand, Land, PlaceTile, Restart, Royal
from .geometry import SIDES
from .phases import Phase
from .rules import FILTERED, Rules


def sample(rules: Rules, rng: random.Random) -> ActionValue:
    """A legal action of the pending decision (not over), drawn uniformly."""
    if rules.listed is not None:
        return rules.listed[below(rng, len(rules.listed))]
    phase = rules.phase
    if phase == Phase.LAND:
        return _sample_landing(rules, rng)
    if phase == Phase.TURN:
        return _sample_turn(rules, rng)
    if phase == Phase.RESTART:
        return _sample_restart(rules, rng)
    if phase == Phase.PLACE_TILE:  # every free cell and rotation is legal
        cells = rules.frontier.cells()
        cell = cells[below(rng, len(cells))]
        return PlaceTile(cell, below(rng, SIDES))
    candidates = rules.candidates()
    if phase not in FILTERED:
        return candidates[below(rng, len(candidates))]
    while candidates:  # a uniform draw among the candidates, redrawn while it is one the R9 filter forbids
        i = below(rng, len(candidates))
        if rules.allowed(candidates[i]):
            return candidates[i]
        candidates[i] = candidates[-1]
        candidates.pop()
    raise AssertionError(f"no legal action in phase {phase}")  # pragma: no cover


def _sample_landing(rules: Rules, rng: random.Random) -> ActionValue:
    placements = rules.landings()[1]
    i = below(rng, len(placements))
    if rules.ending or not rules.any_landing_escapes() or rules.landing_escapes(placements[i]):
        return Land.of(placements[i])
    left = list(placements)  # redraw among the others (the memo above guarantees one escapes)
    while True:
        left[i] = left[-1]
        left.pop()
        i = below(rng, len(left))
        if rules.landing_escapes(left[i]):
            return Land.of(left[i])


def _sample_turn(rules: Rules, rng: random.Random) -> ActionValue:
    """Uniform over the turn's actions (R5 expansions, R10 royal islands, R11) by counting the expansions
    of each island and unranking the chosen one, instead of listing them all."""
    colour = rules.colours[rules.active]
    supply = rules.supply[colour]
    expansions, royals = rules.turn_options(colour)
    if supply > 0:
        total = 0
        for count, _name, _open, _n in expansions:
            total += count
        r = below(rng, total + len(royals) + 1)  # + 1: colonising
        if r < total:
            for count, name, open_beaches, n in expansions:
                if r < count:
                    return Expand(name, options.unrank_combination(open_beaches, n, r))
                r -= count
    else:  # R5 with all 15 on the board: which boat is taken back, and where it goes
        sources, targets = options.take_backs(rules.islands(), colour)
        total = options.take_back_count(sources, targets)
        r = below(rng, total + len(royals) + 1)
        if r < total:
            for source in sources:
                others = [target for target in targets if target != source]
                if r < len(others):
                    return Expand(others[r][0], (others[r][1],), source)
                r -= len(others)
    if r - total < len(royals):
        return Royal(royals[r - total])
    return Colonise()


def _sample_restart(rules: Rules, rng: random.Random) -> ActionValue:
    """Uniform over R12's restarts and R11, counted instead of listed (see `options.restarts`)."""
    pairs, others = rules.restarts(rules.colours[rules.active])
    r = below(rng, len(pairs) + len(others) + 1)
    if r < len(pairs):
        return Restart(tonga=pairs[r])
    if r - len(pairs) < len(others):
        name, b = others[r - len(pairs)]
        return Restart(island=name, beach=b)
    return Colonise()


def below(rng: random.Random, n: int) -> int:
    """rng.randrange(n), the same draw from the same generator, without the interpreted wrapper."""
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r

"""Sampling a legal action uniformly without listing them all (bots and playouts).

Built on the same per-rule options (options.py) as the listing, counted and unranked instead of listed,
and on the rules' own R9 verdicts; so it draws every legal action with the same chance as a draw from
`legal_actions()` would, at a fraction of the cost.
"""

from __future__ import annotations

import random

from . import options
from .geometry import SIDES
from .rules import FILTERED, MAX_ROYAL, Rules
from .wire import Key, landing_key


def sample(rules: Rules, rng: random.Random) -> Key:
    """The key of a legal action of the pending decision (not over), drawn uniformly."""
    if rules.listed is not None:
        return rules.listed[below(rng, len(rules.listed))]
    phase = rules.phase
    if phase == "land":
        return _sample_landing(rules, rng)
    if phase == "turn":
        return _sample_turn(rules, rng)
    if phase == "restart":
        return _sample_restart(rules, rng)
    if phase == "place_tile":  # every free cell and rotation is legal
        cells = rules.frontier.cells()
        cell = cells[below(rng, len(cells))]
        return ("place_tile", cell[0], cell[1], below(rng, SIDES))
    keys = rules.candidates()
    if phase not in FILTERED:
        return keys[below(rng, len(keys))]
    while keys:  # a uniform draw among the candidates, redrawn while it is one the R9 filter forbids
        i = below(rng, len(keys))
        if rules.allowed(keys[i]):
            return keys[i]
        keys[i] = keys[-1]
        keys.pop()
    raise AssertionError(f"no legal action in phase {phase}")  # pragma: no cover


def _sample_landing(rules: Rules, rng: random.Random) -> Key:
    placements = rules.landings()[1]
    i = below(rng, len(placements))
    if rules.ending or not rules.any_landing_escapes() or rules.landing_escapes(placements[i]):
        return landing_key(placements[i])
    left = list(placements)  # redraw among the others (the memo above guarantees one escapes)
    while True:
        left[i] = left[-1]
        left.pop()
        i = below(rng, len(left))
        if rules.landing_escapes(left[i]):
            return landing_key(left[i])


def _sample_turn(rules: Rules, rng: random.Random) -> Key:
    """Uniform over the turn's actions (R5 expansions, R10 royal islands, R11) by counting the expansions
    of each island and unranking the chosen one, instead of listing them all."""
    colour = rules.colours[rules.active]
    supply = rules.supply[colour]
    islands = rules.islands()
    royals = options.royal_candidates(islands, colour) if rules.royal_founded[colour] < MAX_ROYAL else []
    if supply > 0:
        expansions = options.expansions(islands, colour, supply)
        total = 0
        for count, _name, _open, _n in expansions:
            total += count
        r = below(rng, total + len(royals) + 1)  # + 1: colonising
        if r < total:
            for count, name, open_beaches, n in expansions:
                if r < count:
                    return ("expand", name, options.unrank_combination(open_beaches, n, r), None)
                r -= count
    else:  # R5 with all 15 on the board: which boat is taken back, and where it goes
        sources, targets = options.take_backs(islands, colour)
        total = options.take_back_count(sources, targets)
        r = below(rng, total + len(royals) + 1)
        if r < total:
            for source in sources:
                others = [target for target in targets if target != source]
                if r < len(others):
                    return ("expand", others[r][0], (others[r][1],), source)
                r -= len(others)
    if r - total < len(royals):
        return ("royal", royals[r - total])
    return ("colonise",)


def _sample_restart(rules: Rules, rng: random.Random) -> Key:
    """Uniform over R12's restarts and R11, counted instead of listed (see `options.restarts`)."""
    pairs, others = rules.restarts(rules.colours[rules.active])
    r = below(rng, len(pairs) + len(others) + 1)
    if r < len(pairs):
        return ("restart", "tonga", pairs[r])
    if r - len(pairs) < len(others):
        name, b = others[r - len(pairs)]
        return ("restart", name, b)
    return ("colonise",)


def below(rng: random.Random, n: int) -> int:
    """rng.randrange(n), the same draw from the same generator, without the interpreted wrapper."""
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r

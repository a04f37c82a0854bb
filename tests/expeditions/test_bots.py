"""The Expeditions bot levels (server/bots/expeditions.py) as the bot workers play them: every level orders
legally through the game mode's `bot_action`, leaves the game alone, never peeks (at the real deck order,
the random state or another colour's pending order: E3, R15), the search is deterministic with an
iteration budget and keeps to a time budget, its candidates are legal and distinct, the others' likely
orders are the greedy bot's choices, and a playout's rough orders are legal."""

from __future__ import annotations

import random
import time

import pytest

from server.bots import LEVELS, Budget
from server.bots.expeditions import SearchBot, candidates, expeditions_bot, likely_orders, rough_order
from server.game.expeditions import Expeditions, Order, Pass
from server.game.expeditions.bots import RandomBot, worth
from server.lobby.expeditions import ExpeditionsMode


def positions(count: int, seed: int) -> list[Expeditions]:
    """`count` running games of 2 to 6 colours after a random number of random turns."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        colours = ["red", "blue", "green", "yellow", "orange", "purple"][: rng.choice([2, 3, 3, 4, 6])]
        game = Expeditions.new(colours, rng.getrandbits(32))
        walker = RandomBot(rng.getrandbits(32))
        for _ in range(rng.randrange(0, 9)):
            for c in game.colours:
                game.submit(c, walker.choose(game, c))
            game.resolve()
            if game.over is not None:
                break
        if game.over is None:
            out.append(game)
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_orders_legally_through_the_mode_and_leaves_the_game_alone(level: str) -> None:
    mode = ExpeditionsMode()
    for i, game in enumerate(positions(4 if level == "search" else 12, seed=len(level))):
        colour = game.colours[i % len(game.colours)]
        state = game.to_bytes()
        started = time.perf_counter()
        order = mode.bot_action(state, colour, level, seed=i, spent=1.1)   # 1.1 s of the turn spent: 0.06 s left
        took = time.perf_counter() - started
        assert game.check(colour, order).to_wire() == order, (level, order)
        assert game.to_bytes() == state
        if level == "search":
            assert took < 1.0, took   # the budget left (0.06 s), the candidates and one playout over it


def test_the_search_never_peeks_at_the_deck_the_dice_or_a_rivals_pending_order() -> None:
    """Two games that differ only in what a bot may not see give the same order."""
    for game in positions(3, seed=11):
        colour, rival = game.colours[0], game.colours[1]
        other = game.imagine(99)   # the real deck order and random state redrawn
        other.submit(rival, candidates(other, rival, random.Random(1))[-1])   # and a rival's secret order in
        picks = {repr(SearchBot(7, iterations=40).choose(g, colour)) for g in (game, other)}
        assert len(picks) == 1, picks


def test_the_search_is_deterministic_with_an_iteration_budget_and_keeps_a_time_budget() -> None:
    game = positions(1, seed=3)[0]
    colour = game.colours[-1]
    first, second = SearchBot(5, iterations=60), SearchBot(5, iterations=60)
    assert first.choose(game, colour) == second.choose(game, colour)
    assert first.last is not None and second.last is not None
    assert 60 - len(candidates(game, colour, random.Random(0))) < first.last.iterations <= 60   # the budget, in sweeps
    assert (first.last.iterations, first.last.visits) == (second.last.iterations, second.last.visits)
    # playouts that play on (quick greedy orders for every colour) are deterministic and legal too
    deeper = [SearchBot(6, iterations=8, horizon=2).choose(game, colour) for _ in range(2)]
    assert deeper[0] == deeper[1] and game.check(colour, deeper[0]) == deeper[0]
    timed = expeditions_bot("search", seed=1, budget=Budget(seconds=0.2))
    started = time.perf_counter()
    timed.choose(game, colour)
    assert time.perf_counter() - started < 0.2 + 0.5   # the budget, and one playout over it at most
    assert isinstance(timed, SearchBot) and timed.last is not None and timed.last.iterations >= 1
    with pytest.raises(ValueError):
        expeditions_bot("grandmaster")


def test_candidates_are_legal_distinct_and_hold_pass_and_every_royal_island() -> None:
    for game in positions(6, seed=5):
        for colour in game.colours:
            found = candidates(game, colour, random.Random(2))
            assert len({repr(o) for o in found}) == len(found) <= max(20, 1 + len(game.legal_orders(colour).royal))
            assert all(game.check(colour, o) == o for o in found)
            wires = [o.to_wire() for o in found]
            assert {"type": "pass"} in wires
            assert all({"type": "royal", "island": i} in wires for i in game.legal_orders(colour).royal)


def looked(worlds: list[Expeditions], colour: str, order: Order) -> float:
    """The greedy bot's look at `order`: its worth to `colour` after the turn in each world, its order alone in."""
    total = 0.0
    for world in worlds:
        trial = world.clone()
        trial.pending = {colour: order}
        trial.resolve()
        total += worth(trial, colour)
    return total


def test_the_others_likely_orders_are_the_best_of_their_candidates_in_each_pair_of_worlds() -> None:
    for game in positions(3, seed=7):
        colour = game.colours[1]
        orders = candidates(game, colour, random.Random(3))
        worlds = [game.imagine(seed) for seed in range(4)]
        likely = likely_orders(worlds, colour, orders)
        assert len(likely) == 6 and all(order in orders for order in likely)   # one per pair of the four worlds
        for (a, b), order in zip([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], likely, strict=True):
            pair = [worlds[a], worlds[b]]
            assert looked(pair, colour, order) == max(looked(pair, colour, o) for o in orders)


def test_a_playouts_rough_orders_are_legal_and_expand_while_the_supply_lasts() -> None:
    rng = random.Random(4)
    for game in positions(12, seed=9):
        for colour in game.colours:
            order = rough_order(game, colour, rng)
            assert game.check(colour, order) == order
            if game.supply[colour] > 0:
                assert order != Pass()   # greedy bots expand (random ones pass half the time)

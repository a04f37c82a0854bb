"""The bot levels (server.bots): every level answers with legal actions, search is deterministic with an
iteration budget, and greedy really plays better than random."""

from __future__ import annotations

import random

import pytest

from server.bots import LEVELS, Budget, make_bot
from server.game import COLOURS, Game
from server.game.bots import RandomBot


def positions(count: int, seed: int) -> list[Game]:
    """`count` positions from random games of 2 to 6 colours (variants included), at random depths."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        players = rng.choice([2, 3, 4, 4, 5, 6])
        variants = {"two_colours": players == 4 and rng.random() < 0.3, "free_follow_up": rng.random() < 0.3}
        game = Game.new(list(COLOURS[:players]), seed=rng.getrandbits(32), variants=variants)
        walker = RandomBot(rng.getrandbits(32))
        for _ in range(rng.randrange(0, 160)):
            if game.to_move is None:
                break
            game.apply(walker.choose(game))
        if game.to_move is not None:
            out.append(game)
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_answers_with_a_legal_action_and_leaves_the_game_alone(level: str) -> None:
    bot = make_bot(level, seed=5, budget=8)
    for game in positions(25 if level == "search" else 60, seed=len(level)):
        before = game.to_bytes()
        legal = game.legal_actions()
        action = bot.choose(game)
        assert action in legal, (level, game.decision, action)
        assert game.to_bytes() == before, "choosing must not change the game (nor peek by drawing from it)"
        game.apply(action, game.to_move)


def test_search_is_deterministic_with_a_seed_and_an_iteration_budget() -> None:
    for game in positions(6, seed=11):
        first = make_bot("search", seed=3, budget=30).choose(game)
        again = make_bot("search", seed=3, budget=30).choose(game)
        assert first == again


def test_search_judges_a_table_against_the_one_it_decides_from() -> None:
    """A colour far ahead rates nearly every table near 1 in absolute terms, so its search could not tell a
    good move from a bad one; judged against the table it decides from, the same lead reads 0.5 and a point
    gained or lost still moves the result (docs/bots.md, "Judge and back up")."""
    from server.bots.evaluate import ratings
    from server.bots.greedy import GreedyBot
    from server.bots.search import worths

    game = Game.new(list(COLOURS[:4]), seed=7)
    bots = {c: GreedyBot(seed=i) for i, c in enumerate(COLOURS[:4])}
    while game.to_move is not None:   # greedy play until some colour leads by far
        values = ratings(game.view())
        if max(values.values()) > 8:
            break
        game.apply(bots[game.to_move].choose(game))
    leader = max(values, key=values.__getitem__)
    assert values[leader] > 8, "no colour got far ahead in this game"
    assert worths(game, 2.0)[leader] > 0.98
    relative = worths(game, 2.0, values)
    assert all(abs(r - 0.5) < 1e-9 for r in relative.values())
    assert worths(game, 2.0, {c: v + 1.0 for c, v in values.items()})[leader] < 0.4   # a point down


def test_budgets_read_as_iterations_or_seconds_and_bad_ones_are_refused() -> None:
    assert Budget.of(500) == Budget(iterations=500)
    assert Budget.of(1.5) == Budget(seconds=1.5)
    assert Budget.of("1.5s") == Budget(seconds=1.5) and Budget.of("40") == Budget(iterations=40)
    assert Budget.of(None) == Budget(seconds=1.0)
    for bad in (0, -1, "fast", "0s", True):
        with pytest.raises(ValueError):
            Budget.of(bad)
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("genius")


def test_greedy_beats_random_in_four_player_games() -> None:
    # A fair share is 1/4; greedy wins about three games in four against three random bots (bench.bots).
    # 16 games with seats rotated; failing needs fewer than 8 wins, which a bot that wins 3 in 4 does with
    # probability under 1 %, while a bot no better than random would pass with probability under 3 %.
    wins = 0.0
    games = 16
    for n in range(games):
        colours = list(COLOURS[:4])
        hero = colours[n % 4]
        game = Game.new(colours, seed=7000 + n)
        bots = {c: make_bot("greedy" if c == hero else "random", seed=n * 10 + i) for i, c in enumerate(colours)}
        while game.to_move is not None:
            game.apply(bots[game.to_move].choose(game), game.to_move)
        result = game.result()
        assert result is not None
        if hero in result["winners"]:
            wins += 1 / len(result["winners"])
    assert wins >= 8, f"greedy won {wins} of {games} games against three random bots"


@pytest.mark.parametrize("level", ["greedy", "search"])
def test_no_level_depends_on_the_order_of_the_stack(level: str) -> None:
    # R15: the same table with the unseen stack in another order gets the same answer from the same bot,
    # so nothing the bot chose came from the real order. (Positions where a choice depends on nothing
    # but ties would pass anyway; with 12 positions at random depths most decisions are real choices.)
    for game in positions(12, seed=99):
        other = game.imagine(12345)   # the same public table, the unseen tiles reordered
        assert other.view() == game.view()
        first = make_bot(level, seed=5, budget=40).choose(game)
        again = make_bot(level, seed=5, budget=40).choose(other)
        assert first == again, (game.version, first, again)


def test_a_search_bot_spends_a_budget_per_turn():
    """Each decision of a turn gets a share of what is left of the turn's budget, so a turn of
    any length thinks about TURN_BUDGET in all (plus a small floor per decision), most on its first."""
    from server.bots import TURN_BUDGET, turn_budget

    first = turn_budget(0.0).seconds
    assert first is not None and 0.5 * TURN_BUDGET <= first <= 1.0
    for decisions in (1, 3, 12, 24):
        spent = 0.0
        for _ in range(decisions):
            seconds = turn_budget(spent).seconds
            assert seconds is not None and seconds > 0
            spent += seconds   # each decision thinks its whole budget
        assert spent <= TURN_BUDGET + 0.05 * decisions
    assert turn_budget(10 * TURN_BUDGET).seconds == turn_budget(TURN_BUDGET).seconds   # a floor, never negative

"""`Game.to_position` is the inverse of `Game.from_position` (docs/engine.md, "Building positions")."""

from __future__ import annotations

import random

import pytest

from server.game import COLOURS, Game, PositionError
from server.game.bots import RandomBot
from server.game.game import rules_of


def turn_starts(players: int, seed: int, variants: dict[str, bool] | None = None) -> list[Game]:
    """Copies of a random game at the start of each of its turns after set-up."""
    game = Game.new(list(COLOURS[:players]), seed=seed, variants=variants)
    bot = RandomBot(seed)
    out = []
    while game.to_move is not None:
        if game.decision is not None and game.decision["kind"] in ("turn", "restart"):
            out.append(game.clone())
        game.apply(bot.choose(game))
    return out


@pytest.mark.parametrize(
    ("players", "seed", "variants"), [(2, 1, None), (4, 2, {"two_colours": True}), (6, 3, {"free_follow_up": True})]
)
def test_a_position_builds_the_same_table_and_game(players: int, seed: int, variants: dict[str, bool] | None) -> None:
    starts = turn_starts(players, seed, variants)
    assert len(starts) > 20
    for game in starts[:: max(1, len(starts) // 6)]:
        position = game.to_position()
        rebuilt = Game.from_position(position)
        assert rebuilt.to_position() == position
        assert rebuilt.view() == game.view()
        assert rules_of(rebuilt).stack == rules_of(game).stack and rebuilt.decision == game.decision
        # the same choices lead to the same events, to the end of the game
        rng = random.Random(seed)
        while game.to_move is not None:
            action = game.sample_action(rng)
            assert rebuilt.apply(dict(action)) == game.apply(action)
        assert rebuilt.result() == game.result()


def test_a_game_between_turns_has_no_position() -> None:
    game = Game.new(["red", "blue"], seed=5)
    with pytest.raises(PositionError, match="'setup'"):
        game.to_position()

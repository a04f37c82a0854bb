"""The typed vocabulary (actions.py, events.py): every action and event of random games has a typed value
whose wire form is the engine's dict exactly, keys in the same order, and whose repr pastes back."""

from __future__ import annotations

import pytest

from server.game import COLOURS, Game, IllegalAction
from server.game import actions as A  # noqa: N812 - the reprs name the classes, so eval needs them
from server.game import events as E  # noqa: N812
from server.game.actions import ActionValue
from server.game.bots import RandomBot
from server.game.events import EventValue

NAMES = {**vars(A), **vars(E)}


@pytest.mark.parametrize(
    ("players", "variants"), [(2, {}), (4, {"two_colours": True}), (6, {"free_follow_up": True}), (3, {})]
)
def test_every_action_and_event_of_random_games_round_trips(players: int, variants: dict[str, bool]) -> None:
    kinds: set[str] = set()
    for seed in range(2):
        game = Game.new(list(COLOURS[:players]), seed=seed, variants=variants)
        bot = RandomBot(seed)
        while game.to_move is not None:
            for action in game.legal_actions()[:40]:
                value = ActionValue.from_wire(action)
                assert value.to_wire() == action and eval(repr(value), NAMES) == value
            chosen = bot.choose(game)
            typed = ActionValue.from_wire(chosen)
            for event in game.apply(typed):  # apply takes the typed value as well as the dict
                value = EventValue.from_wire(event)
                wire = value.to_wire()
                assert wire == event and list(wire) == list(event), event["type"]
                assert eval(repr(value), NAMES) == value
                kinds.add(event["type"])
    assert {"boats_placed", "tile_drawn", "tile_placed", "turn_passed", "game_over", "landed"} <= kinds


def test_a_malformed_action_dict_has_no_typed_value() -> None:
    with pytest.raises(IllegalAction, match="malformed"):
        ActionValue.from_wire({"type": "migrate", "island": "Samoa"})
    with pytest.raises(ValueError, match="unknown event type"):
        EventValue.from_wire({"type": "nothing"})


def test_typed_actions_read_as_the_rules_do() -> None:
    assert A.Migrate.from_wire({"type": "migrate", "island": "Samoa", "beach": 1, "pier": 4}) == A.Migrate(
        "Samoa", 1, 4
    )
    assert A.Expand("Tonga", (2, 0)).to_wire() == {"type": "expand", "island": "Tonga", "beaches": [0, 2]}
    assert A.Restart(tonga=(1, 0)).to_wire() == {"type": "restart", "tonga": [0, 1]}
    assert repr(E.TurnPassed("red", "blue", 3)) == "TurnPassed(previous='red', to='blue', turn=3)"
    assert E.TurnPassed("red", "blue", 3).to_wire() == {"type": "turn_passed", "from": "red", "to": "blue", "turn": 3}


def test_a_refusal_names_the_position_it_happened_in() -> None:
    game = Game.new(["red", "blue"], seed=7, first="red")
    game.apply({"type": "setup", "beach": 0})
    with pytest.raises(IllegalAction) as refused:
        game.apply({"type": "setup", "beach": "x"})
    assert refused.value.where == "turn 0, after 1 actions, blue's setup decision"
    assert str(refused.value).endswith("[at turn 0, after 1 actions, blue's setup decision]")
    assert "turn 0" not in refused.value.message  # what a client is shown is unchanged


def test_an_ill_typed_typed_value_is_refused_as_malformed_and_changes_nothing() -> None:
    game = Game.new(["red", "blue"], seed=7, first="red")
    before = game.to_bytes()
    makers = (
        lambda: A.Setup("x"),  # type: ignore[arg-type]
        lambda: A.Expand("Tonga", (1, "x")),  # type: ignore[arg-type]
        lambda: A.Land((("red", 1), ("red", "x"))),  # type: ignore[arg-type]
    )
    refused = 0
    for make in makers:
        try:
            value = make()
        except TypeError:  # compiled, a value checks its fields' types as it is made
            continue
        with pytest.raises(IllegalAction, match="malformed"):
            game.apply(value)
        refused += 1
    assert refused >= 1  # the tuples' items are not checked when made, compiled or not
    assert game.to_bytes() == before


def test_the_legal_values_are_the_listing_and_apply_as_their_dicts_do() -> None:
    """`legal_values()` lists the same actions as `legal_actions()`, in order, as values; a listed value
    applied as it is plays exactly as its dict does (the same events, log and table), and a fresh list is
    handed out each time."""
    for seed in range(3):
        game = Game.new(list(COLOURS[:4]), seed=seed, variants={"free_follow_up": True})
        bot = RandomBot(seed)
        while game.to_move is not None:
            values = game.legal_values()
            assert [v.to_wire() for v in values] == game.legal_actions()
            assert game.legal_values() == values and game.legal_values() is not values
            chosen = ActionValue.from_wire(bot.choose(game))
            twin = game.clone()
            held = next(v for v in values if v == chosen)
            events = game.apply(held)
            assert events == twin.apply(held.to_wire())
            assert game.log == twin.log and game.to_bytes() == twin.to_bytes()

"""E4 orders (with their stable refusal codes) and E5 the action phase."""

import pytest

from server.game.expeditions import Expeditions, OrderError

from .helpers import kinds, position


def refused(game: Expeditions, colour: str, order: dict) -> str:
    before = game.to_bytes()
    with pytest.raises(OrderError) as caught:
        game.submit(colour, order)
    assert game.to_bytes() == before
    return caught.value.code


def test_e4_tonga_two_moves_with_no_boat_there() -> None:
    game = position([{"tile": "TONG", "cell": [6, 6]}, {"tile": "MURO", "cell": [6, 4], "beaches": {"N": ["red"]}}])
    assert [a.moves for a in game.legal_orders("red").expand if a.island == "TONG"] == [2]
    game.submit("red", {"type": "expand", "island": "TONG", "moves": {"E": 1, "W": 1}})
    assert refused(game, "red", {"type": "expand", "island": "TONG", "moves": {"E": 3}}) == "too_many_moves"
    game.resolve()
    assert game.beaches[game.where["TONG"]]["E"] == ["red"] and game.supply["red"] == 12


def test_e4_other_island_one_move_per_own_boat_and_take_backs() -> None:
    game = position(
        [
            {"tile": "TONG", "cell": [6, 6]},
            {"tile": "MURO", "cell": [6, 4], "beaches": {"N": ["red", "red"], "E": ["blue"]}},
        ]
    )
    assert refused(game, "red", {"type": "expand", "island": "MURO", "moves": {"S": 3}}) == "too_many_moves"
    assert refused(game, "red", {"type": "expand", "island": "MURO", "moves": {"E": -1}}) == "no_presence"
    assert refused(game, "red", {"type": "expand", "island": "NAUR", "moves": {"E": 1}}) == "not_on_map"
    assert refused(game, "green", {"type": "pass"}) == "not_a_player"
    assert refused(game, "red", {"type": "expand", "island": "MURO", "moves": {"Q": 1}}) == "malformed"
    game.submit("red", {"type": "expand", "island": "MURO", "moves": {"N": -1, "S": 1}})
    game.resolve()
    assert game.beaches[game.where["MURO"]] == {"N": ["red"], "E": ["blue"], "S": ["red"], "W": []}


def test_e4_supply_limits_placements() -> None:
    game = position(
        [
            {
                "tile": "TONG",
                "cell": [6, 6],
                "beaches": {"N": ["red"] * 3, "E": ["red"] * 3, "S": ["red"] * 3, "W": ["red"] * 2},
            },
            {"tile": "MURO", "cell": [6, 4], "beaches": {"N": ["red", "red", "red"]}},
        ]
    )
    assert game.supply["red"] == 1
    assert refused(game, "red", {"type": "expand", "island": "MURO", "moves": {"S": 2}}) == "supply_short"
    game.submit("red", {"type": "expand", "island": "MURO", "moves": {"N": -1, "S": 2}})  # a take-back feeds the supply


def test_e4_royal_island_conditions() -> None:
    game = position(
        [
            {"tile": "TONG", "cell": [6, 6], "beaches": {"N": ["red"]}},
            {"tile": "MURO", "cell": [6, 4], "beaches": {"N": ["red"], "E": ["blue"]}},
            {"tile": "NAUR", "cell": [8, 4], "beaches": {"S": ["red"]}},
            {"tile": "TUBU", "cell": [2, 4], "royal": "blue"},
        ]
    )
    assert refused(game, "red", {"type": "royal", "island": "TONG"}) == "tonga"
    assert refused(game, "red", {"type": "royal", "island": "MURO"}) == "not_alone"
    assert refused(game, "blue", {"type": "royal", "island": "NAUR"}) == "has_royal"
    assert refused(game, "red", {"type": "royal", "island": "TUBU"}) == "royal_island"
    assert game.legal_orders("red").royal == ("NAUR",)
    game.submit("red", {"type": "royal", "island": "NAUR"})


def test_e4_special_circumstance_1_one_boat_anywhere_without_boats_on_the_map() -> None:
    game = position([{"tile": "TONG", "cell": [6, 6], "beaches": {"N": ["blue"]}}, {"tile": "MURO", "cell": [6, 4]}])
    assert game.legal_orders("red").place == ("MURO",) and game.legal_orders("blue").place == ()
    assert refused(game, "blue", {"type": "place", "island": "MURO", "beach": "N"}) == "circumstance"
    game.submit("red", {"type": "place", "island": "MURO", "beach": "W"})
    game.resolve()
    assert game.beaches[game.where["MURO"]]["W"] == ["red"]


def test_e4_special_circumstance_2_take_back_from_any_beach_then_one_move() -> None:
    full = {"N": ["red"] * 3, "E": ["red"] * 3, "S": ["red"] * 3, "W": ["red"] * 3}
    game = position(
        [
            {"tile": "TONG", "cell": [6, 6], "beaches": full},
            {"tile": "MURO", "cell": [6, 4], "beaches": {"N": ["red", "red"], "E": ["red"]}},
        ]
    )
    assert game.supply["red"] == 0 and ("TONG", "N") in game.legal_orders("red").take_back
    back = {"island": "MURO", "beach": "E"}
    assert (
        refused(game, "red", {"type": "expand", "island": "TONG", "moves": {"S": 2}, "take_back": back})
        == "too_many_moves"
    )
    game.submit("red", {"type": "expand", "island": "TONG", "moves": {"W": 1}, "take_back": back})
    events = game.resolve()
    assert game.beaches[game.where["MURO"]]["E"] == []
    moved = [e for e in events if e.kind == "boat_moved"]
    assert [(e.island, e.beach, e.to) for e in moved] == [("MURO", "E", "supply"), ("TONG", "W", "beach")]


def test_e5_royal_island_first_boats_back_to_supply() -> None:
    game = position(
        [
            {"tile": "TONG", "cell": [6, 6]},
            {"tile": "MURO", "cell": [6, 4], "beaches": {"N": ["red", "red"], "S": ["red"]}},
        ]
    )
    game.submit("red", {"type": "royal", "island": "MURO"})
    events = game.resolve()
    assert kinds(events)[1] == "royal_founded" and game.royal[game.where["MURO"]] == "red"
    assert game.supply["red"] == 15 and game.view()["players"][0]["score"] == 2


def test_e5_move_onto_island_made_royal_this_turn_fails_rest_applies() -> None:
    # blue has no boat on the map (E4, special circumstance 1) and places one on MURO, which red makes royal
    # first (E5.1): blue's move fails; green's expansion, ordered the same turn, still applies.
    game = position(
        [
            {"tile": "TONG", "cell": [6, 6], "beaches": {"S": ["green"]}},
            {"tile": "MURO", "cell": [6, 4], "beaches": {"N": ["red"]}},
        ],
        colours=("red", "blue", "green"),
    )
    game.submit("red", {"type": "royal", "island": "MURO"})
    game.submit("blue", {"type": "place", "island": "MURO", "beach": "N"})
    game.submit("green", {"type": "expand", "island": "TONG", "moves": {"E": 1}})
    events = game.resolve()
    failed = [e for e in events if e.kind == "move_failed"]
    assert len(failed) == 1 and failed[0].colour == "blue" and failed[0].reason == "royal"
    assert game.supply["blue"] == 15 and game.beaches[game.where["MURO"]]["N"] == []
    assert game.beaches[game.where["TONG"]]["E"] == ["green"]


def test_e3_orders_replaced_until_resolution_and_missing_orders_do_nothing() -> None:
    game = position([{"tile": "TONG", "cell": [6, 6]}])
    game.submit("red", {"type": "expand", "island": "TONG", "moves": {"N": 1}})
    game.submit("red", {"type": "expand", "island": "TONG", "moves": {"S": 1}})
    assert game.submitted == ("red",)
    events = game.resolve()
    assert events[0].orders == {"red": {"type": "expand", "island": "TONG", "moves": {"S": 1}}, "blue": None}
    assert game.beaches[game.where["TONG"]]["S"] == ["red"] and game.supply["blue"] == 15

"""The contract around the rules: wire forms and reprs (orders, events), E3 secrecy of pending orders in
views, bytes with pending orders, replay, and refusals of malformed input."""

import json

import pytest

from server.game.expeditions import Expand, Expeditions, OrderError, Pass, Place, Royal, order_from_wire
from server.game.expeditions.catalogue import SEAS, Cell


@pytest.mark.parametrize("order", [Royal("MURO"), Expand.of("TONG", {"S": 1, "N": 1}), Pass(), Place("NAUR", "W"),
                                   Expand.of("TONG", {"W": 1}, ("TUBU", "E"))])
def test_orders_round_trip_their_wire_form(order) -> None:
    assert order_from_wire(json.loads(json.dumps(order.to_wire()))) == order


def test_readable_reprs() -> None:
    assert repr(Expand.of("TONG", {"N": 2, "E": -1})) == "X TONG N+2 E-1" and repr(Royal("MURO")) == "R MURO"
    assert repr(Cell(6, 6)) == "(6,6)" and repr(SEAS[0]) == "Sea(17 S01 N3-S1 E3-W1)"
    assert "secret" in repr(Expeditions.new(["red", "blue"], 1).dice)


@pytest.mark.parametrize("wire", [None, [], {"type": "fly"}, {"type": "royal"}, {"type": "pass", "x": 1},
                                  {"type": "expand", "island": "TONG", "moves": {"N": "2"}},
                                  {"type": "expand", "island": "TONG", "moves": {"N": True}},
                                  {"type": "place", "island": "MURO", "beach": "NE"}])
def test_malformed_orders_refused(wire) -> None:
    game = Expeditions.new(["red", "blue"], 1)
    with pytest.raises(OrderError) as caught:
        game.submit("red", wire)
    assert caught.value.code == "malformed" and game.submitted == ()


def test_e3_pending_order_only_in_its_owner_view_and_survives_bytes() -> None:
    game = Expeditions.new(["red", "blue"], 3)
    game.submit("red", {"type": "expand", "island": "TONG", "moves": {"W": 2}})
    assert game.view("red")["order"] == {"type": "expand", "island": "TONG", "moves": {"W": 2}}
    for other in (game.view("blue"), game.view()):
        assert '"W": 2' not in json.dumps(other) and [p["submitted"] for p in other["players"]] == [True, False]
    copy = Expeditions.from_bytes(game.to_bytes())
    assert copy.pending_order("red") == game.pending_order("red")
    assert [e.to_wire() for e in copy.resolve()] == [e.to_wire() for e in game.resolve()]


def test_resolving_after_the_end_is_refused() -> None:
    game = Expeditions.from_position({"colours": ["red", "blue"], "tiles": [{"tile": "TONG", "cell": [6, 6]}],
                                      "turn": 10})
    game.resolve()
    with pytest.raises(OrderError) as caught:
        game.submit("red", {"type": "pass"})
    assert caught.value.code == "game_over"
    with pytest.raises(OrderError):
        game.resolve()


def test_e1_a_position_with_more_than_15_boats_of_a_colour_is_refused() -> None:
    """E1: 15 boats each. 16 on the map (or a negative supply) is no position of this game."""
    from server.game.expeditions import PositionError

    tonga = {"tile": "TONG", "cell": [6, 6], "beaches": {"N": ["red"] * 8, "S": ["red"] * 7}}
    assert Expeditions.from_position({"colours": ["red", "blue"], "tiles": [tonga]}).supply["red"] == 0
    crowded = {**tonga, "beaches": {**tonga["beaches"], "E": ["red"]}}
    with pytest.raises(PositionError, match=r"15 boats \(E1\).*'red': 16"):
        Expeditions.from_position({"colours": ["red", "blue"], "tiles": [crowded]})
    with pytest.raises(PositionError, match="supply"):
        Expeditions.from_position({"colours": ["red", "blue"], "tiles": [{"tile": "TONG", "cell": [6, 6]}],
                                   "supplies": {"red": -1}})


def test_fixed_draws_are_the_games_random_choices_with_the_default_deck_too() -> None:
    """docs/expeditions.md "Positions for tests": `draws` are used, in order, by the game's random choices
    before the seeded stream, whether or not the position gives its deck (the default deck's shuffle does
    not use them up). A turn of passes draws once: the typhoon's tile number (E10)."""
    for number in (1, 30, 48):
        position = {"colours": ["red", "blue"], "tiles": [{"tile": "TONG", "cell": [6, 6]}], "draws": [number - 1]}
        game = Expeditions.from_position(position)
        drawn = next(e.to_wire() for e in game.resolve() if e.kind == "typhoon_drawn")
        assert drawn["number"] == number
        # the deck is the seed's shuffle either way
        assert Expeditions.from_position(position).deck == Expeditions.from_position({**position, "draws": []}).deck

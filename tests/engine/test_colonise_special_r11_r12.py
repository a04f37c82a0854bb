"""R11 new colonisation and R12 special starts."""

from __future__ import annotations

from helpers import beaches_of, island, of_type, one, play, player, position, rejected, tile_at, tonga, types


def test_r11_colonise_takes_boats_off_draws_until_island_and_settles():
    """R11: all the player's boats off (royal stays), draw and place tiles freely until an island; that island
    too is placed freely and the player puts one boat on a beach of their choice; the turn ends."""
    game = position([tonga(["blue"], ["red", "red"]), island("Tubuai", (3, 0), 0, [], ["red", "blue"]),
                     island("Hawaii", (0, 3), 0, royal="red")], stack=["a", "b", "Samoa"])
    events = play(game, {"type": "colonise"})
    assert types(events) == ["colonisation", "tile_drawn"]
    assert one(events, "colonisation")["returned"] == 3
    assert beaches_of(game, "Tonga")[1] == [] and beaches_of(game, "Tubuai") == [[], ["blue"]]
    assert player(game, "red")["supply"] == 14  # 15 minus the royal boat
    assert game.decision == {"colour": "red", "kind": "place_tile", "tile": "a", "reason": "colonise"}
    cells = {tuple(a["cell"]) for a in game.legal_actions()}
    assert len(game.legal_actions()) == 6 * len(cells) and (0, 1) in cells and (0, 2) in cells
    play(game, {"type": "place_tile", "cell": [0, 1], "rotation": 1})
    assert game.decision["tile"] == "b"
    play(game, {"type": "place_tile", "cell": [-1, 0], "rotation": 4})
    assert game.decision["tile"] == "Samoa" and game.decision["kind"] == "place_tile"
    rejected(game, {"type": "place_tile", "cell": [0, 1], "rotation": 0}, "illegal_choice")  # occupied
    rejected(game, {"type": "place_tile", "cell": [0, -1], "rotation": 6}, "illegal_choice")
    events = play(game, {"type": "place_tile", "cell": [0, -1], "rotation": 3})
    assert one(events, "tile_placed")["how"] == "free" and tile_at(game, (0, -1))["rotation"] == 3
    assert game.decision == {"colour": "red", "kind": "settle", "island": "Samoa"}
    assert game.legal_actions() == [{"type": "settle", "beach": b} for b in range(3)]
    events = play(game, {"type": "settle", "beach": 2})
    assert types(events) == ["boats_placed", "turn_passed"]
    assert one(events, "boats_placed")["reason"] == "settle"
    assert beaches_of(game, "Samoa") == [[], [], ["red"]]
    red = player(game, "red")
    assert red["supply"] == 13 and red["on_board"] == 2


def test_r11_colonise_is_allowed_at_any_time():
    """R11: new colonisation is offered in a normal turn and in a special start."""
    assert {"type": "colonise"} in position([tonga(["red"], ["blue"])]).legal_actions()
    assert {"type": "colonise"} in position([tonga(["blue"])]).legal_actions()


def test_r12_no_boat_on_board_restart_choices():
    """R12: no boat on the board: 2 boats on free moorings of Tonga (same beach allowed when it has room),
    or 1 boat on any other non-royal island, or a new colonisation."""
    game = position([tonga(["blue", "blue"], ["blue"]), island("Tubuai", (3, 0), 0, ["blue", "blue"], [])])
    assert game.decision["kind"] == "restart" and game.decision["supply"] == 15
    legal = game.legal_actions()
    pairs = sorted(tuple(a["tonga"]) for a in legal if "tonga" in a)
    assert (0, 0) not in pairs and (0, 1) in pairs and (1, 1) in pairs and (5, 5) in pairs
    assert len(pairs) == 21 - 1  # 6 + 15 pairs, minus [0, 0] (beach 0 has one free mooring)
    assert sorted((a["island"], a["beach"]) for a in legal if "island" in a) == [("Tubuai", 0), ("Tubuai", 1)]
    assert {"type": "colonise"} in legal
    assert len(legal) == 20 + 2 + 1
    rejected(game, {"type": "restart", "tonga": [0, 0]}, "illegal_choice")
    rejected(game, {"type": "restart", "tonga": [2]}, "illegal_choice")
    rejected(game, {"type": "restart", "island": "Tonga", "beach": 2}, "illegal_choice")
    events = play(game, {"type": "restart", "tonga": [3, 3]})
    assert types(events) == ["boats_placed", "turn_passed"]
    assert one(events, "boats_placed")["reason"] == "restart"
    assert beaches_of(game, "Tonga")[3] == ["red", "red"]


def test_r12_restart_on_another_island_places_one_boat():
    """R12: one boat on a free mooring of another island; no expansion follows."""
    game = position([tonga(["blue"]), island("Tubuai", (3, 0), 0, ["blue", "blue"], [])])
    events = play(game, {"type": "restart", "island": "Tubuai", "beach": 1})
    assert types(events) == ["boats_placed", "turn_passed"]
    assert beaches_of(game, "Tubuai") == [["blue", "blue"], ["red"]]
    assert player(game, "red")["supply"] == 14


def test_r12_restart_filling_a_beach_starts_migration():
    """R12: no expansion follows, but migrations do if a beach became full."""
    game = position([tonga(["blue"])], stack=["p", "Samoa"])
    events = play(game, {"type": "restart", "tonga": [0, 0]})
    t = types(events)
    assert t[0] == "boats_placed" and t[1] == "fleet_departed"
    assert len(of_type(events, "boats_placed")) == 1
    assert sorted(one(events, "fleet_departed")["boats"]) == ["blue", "red", "red"]


def test_r12_not_enough_boats_restart_with_one():
    """R12 "not enough boats": with one boat in supply the Tonga restart places just one."""
    game = position([tonga(["blue"])], supplies={"red": 1})
    pairs = [a["tonga"] for a in game.legal_actions() if "tonga" in a]
    assert pairs == [[b] for b in range(6)]
    rejected(game, {"type": "restart", "tonga": [1, 2]}, "illegal_choice")
    play(game, {"type": "restart", "tonga": [4]})
    assert player(game, "red")["supply"] == 0 and beaches_of(game, "Tonga")[4] == ["red"]


def test_r12_royal_boats_do_not_count_as_boats_on_the_board():
    """R12: a player whose only boat on the board is royal gets the special start."""
    game = position([tonga(["blue"]), island("Hawaii", (3, 0), 0, royal="red")])
    assert game.decision["kind"] == "restart"
    assert not [a for a in game.legal_actions() if a["type"] in ("expand", "royal")]

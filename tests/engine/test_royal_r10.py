"""R10 royal islands (and the R7 turn-back)."""

from __future__ import annotations

from helpers import beaches_of, island, one, play, player, position, rejected, tonga, types


def royals(game):
    return [a for a in game.legal_actions() if a["type"] == "royal"]


def test_r10_found_royal_island_one_boat_on_the_mask_others_return():
    """R10: an island (not Tonga) holding only the player's boats: one becomes the royal boat, the rest go
    back to the supply; the whole turn is spent."""
    game = position([tonga(["blue"], ["red"]), island("Samoa", (0, 3), 0, ["red", "red"], [], ["red"])])
    assert royals(game) == [{"type": "royal", "island": "Samoa"}]
    events = play(game, {"type": "royal", "island": "Samoa"})
    assert types(events) == ["royal_founded", "turn_passed"]
    founded = one(events, "royal_founded")
    assert (founded["colour"], founded["island"], founded["returned"]) == ("red", "Samoa", 2)
    samoa = next(t for t in game.view()["tiles"] if t["tile"] == "Samoa")
    assert samoa["royal"] == "red" and all(b["boats"] == [] for b in samoa["beaches"])
    red = player(game, "red")
    assert red["supply"] == 15 - 2 and red["on_board"] == 2 and red["royal"] == 1 and red["royal_left"] == 1
    assert red["score"] == 5 and red["islands"] == 2  # Tonga (0) + royal Samoa (5)


def test_r10_not_tonga_and_only_own_boats():
    """R10: never Tonga; never an island with another colour's boat on it."""
    game = position([tonga(["red"]), island("Samoa", (0, 3), 0, ["red"], ["blue"]),
                     island("Hawaii", (3, 0), 0, [], ["red", "red"])])
    assert royals(game) == [{"type": "royal", "island": "Hawaii"}]
    rejected(game, {"type": "royal", "island": "Tonga"}, "illegal_choice")
    rejected(game, {"type": "royal", "island": "Samoa"}, "illegal_choice")


def test_r10_at_most_two_royal_islands():
    """R10: allowed only while the player has founded fewer than 2 royal islands."""
    tiles = [tonga(["blue"]), island("Samoa", (0, 3), 0, ["red"]), island("Hawaii", (3, 0), 0, royal="red")]
    assert royals(position(tiles, royal_founded={"red": 1})) == [{"type": "royal", "island": "Samoa"}]
    game = position(tiles, royal_founded={"red": 2})
    assert royals(game) == [] and player(game, "red")["royal_left"] == 0
    rejected(game, {"type": "royal", "island": "Samoa"}, "illegal_choice")


def test_r10_royal_island_cannot_be_expanded_or_restarted_on():
    """R10/R12: a royal island takes no new boats: no expansion there, no restart boat there."""
    game = position([tonga(["blue"]), island("Hawaii", (3, 0), 0, royal="red")])
    assert game.decision["kind"] == "restart"  # the royal boat does not count as a boat on the board (R12)
    assert not [a for a in game.legal_actions() if a.get("island") == "Hawaii"]
    rejected(game, {"type": "restart", "island": "Hawaii", "beach": 0}, "illegal_choice")
    rejected(game, {"type": "expand", "island": "Hawaii", "beaches": [0]}, "wrong_phase")
    game = position([tonga(["blue"], ["red"]), island("Hawaii", (3, 0), 0, royal="red")])
    rejected(game, {"type": "expand", "island": "Hawaii", "beaches": [0]}, "illegal_choice")
    assert {a["island"] for a in game.legal_actions() if a["type"] == "expand"} == {"Tonga"}


def test_r10_r7_turn_back_lands_on_departure_island_and_starts_a_chain():
    """R7.3/R10: a fleet reaching a royal island is turned back and lands on the island it left (R8);
    the landing can fill beaches there and start a chain reaction (R9)."""
    crowded = [["green", "blue"]] * 5
    game = position([tonga(["red", "blue"], *crowded), island("Samoa", (0, 1), 3, royal="green")],
                    colours=("red", "blue", "green"), stack=["p", "o", "n", "m", "l", "k"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    assert types(events) == ["boats_placed", "fleet_departed", "turned_back", "fleet_arrived"]
    back = one(events, "turned_back")
    assert (back["cell"], back["island"], back["to"]) == ([0, 1], "Tonga", [0, 0])
    assert one(events, "fleet_arrived")["island"] == "Tonga"
    assert game.decision["kind"] == "land" and game.decision["island"] == "Tonga"
    assert game.decision["free"] == [3, 1, 1, 1, 1, 1]
    for a in game.legal_actions():  # m = 3 < |B| = 6: three different beaches
        assert len({b for _c, b in a["boats"]}) == 3
    events = play(game, {"type": "land", "boats": [["blue", 0], ["red", 1], ["red", 2]]})
    assert types(events) == ["landed"]
    assert game.decision["kind"] == "migrate"
    assert game.decision["full"] == [{"island": "Tonga", "beach": 1}, {"island": "Tonga", "beach": 2}]
    assert beaches_of(game, "Samoa") == [[], [], []]
    assert player(game, "green")["on_board"] == 5 + 1  # royal boat counts as one


def test_r10_royal_boat_stays_through_a_colonisation():
    """R10/R11: the royal boat never moves: a new colonisation leaves it on its mask."""
    game = position([tonga(["blue"], ["red"]), island("Hawaii", (3, 0), 0, royal="red")], stack=["Samoa"])
    events = play(game, {"type": "colonise"})
    assert one(events, "colonisation")["returned"] == 1
    hawaii = next(t for t in game.view()["tiles"] if t["tile"] == "Hawaii")
    assert hawaii["royal"] == "red"


def test_r10_royal_island_cannot_be_passed_through_from_the_sea():
    """R10/R7: a fleet whose path at sea runs into a royal island is turned back to its departure island."""
    # p on (0, 1) turned 3 leads a fleet from Tonga's S pier out through NW, onto the royal Hawaii on (-1, 1).
    game = position([tonga(["red", "blue"], [], [], [], ["blue"]), {"tile": "p", "cell": [0, 1], "rotation": 3},
                     island("Hawaii", (-1, 1), 0, royal="blue")], stack=["a"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    assert types(events)[:5] == ["boats_placed", "fleet_departed", "path_followed", "crossing", "turned_back"]
    assert one(events, "path_followed")["exit"] == 2
    back = one(events, "turned_back")
    assert (back["cell"], back["island"]) == ([-1, 1], "Tonga")
    assert one(events, "fleet_arrived")["island"] == "Tonga"
    assert beaches_of(game, "Hawaii") == [[], [], []]

"""R9 chain reaction: endless chains detected exactly, island removal, redraw with free placement, and the
filter that leaves only the options that do not lead into an endless chain.

The isolated island used here is Tubuai on (4, 0), rotation 0: beach 0 (3 moorings) has piers toward SW
and NW, beach 1 (3 moorings) toward NE and SE. Four ocean tiles already on the table close every pier into
a loop back to Tubuai through danger-0 paths:
  SW pier -> p on (3, 1) (path N-NE) -> l on (3, 0) (path SE-S) -> back to Tubuai, and the reverse for NW;
  NE pier -> n on (5, -1) turned 1 (path SW-S) -> h on (5, 0) (path N-NW) -> back, and the reverse for SE.
With 5 boats on its 6 moorings one beach is always full: the chain can never end there.
"""

from __future__ import annotations

from helpers import beaches_of, island, ocean, of_type, one, play, player, position, rejected, tile_at, tonga, types

RING = [ocean("p", (3, 1), 0), ocean("l", (3, 0), 0), ocean("n", (5, -1), 1), ocean("h", (5, 0), 0)]


def loop_island(*beaches):
    return island("Tubuai", (4, 0), 0, *beaches)


def test_r9_ring_really_loops_back():
    """R7/R9 (fixture check): every Tubuai pier leads back to Tubuai over danger-0 paths, drawing nothing."""
    game = position([tonga(["blue"]), loop_island(["red", "blue"], ["blue"]), *RING], stack=["a"])
    play(game, {"type": "expand", "island": "Tubuai", "beaches": [0]})
    assert game.decision["kind"] == "migrate"
    events = play(game, {"type": "migrate", "island": "Tubuai", "beach": 0, "pier": 2})
    # beach 0 became full (3); the loop brings the fleet back to Tubuai: 3 boats on (3 free, 2 free)
    dep = one(events, "fleet_departed")
    paths = of_type(events, "path_followed")
    assert [(p["cell"], p["entry"], p["exit"]) for p in paths] == [([3, 0], 5, 0), ([3, 1], 3, 4)]
    assert all(p["danger"] == 0 for p in paths) and not of_type(events, "tile_drawn")
    assert one(events, "fleet_arrived")["island"] == "Tubuai"
    assert dep["pier"] in (1, 2) and game.decision["kind"] == "land" and game.decision["free"] == [3, 2]


def endless(tonga_beaches, *, removed=(), active="red"):
    tiles = [loop_island(["red", "blue"], ["blue", "blue"]), *RING]
    if tonga_beaches is not None:
        tiles.insert(0, tonga(*tonga_beaches))
    game = position(tiles, active=active, stack=["a", "Samoa"], removed=list(removed))
    events = play(game, {"type": "expand", "island": "Tubuai", "beaches": [0]})
    return game, events


def test_r9_endless_chain_on_isolated_island_removes_it_and_redraws():
    """R9: every option loops forever -> the island goes, its boats go home; the active player has no boat
    left, so they draw tiles and place them freely until an island is placed; then the turn ends."""
    game, events = endless([["blue"]])
    t = types(events)
    assert t[:4] == ["boats_placed", "endless_chain", "island_removed", "tile_drawn"]
    assert "fleet_departed" not in t
    assert one(events, "endless_chain")["islands"] == ["Tubuai"]
    gone = one(events, "island_removed")
    assert gone["island"] == "Tubuai" and gone["cell"] == [4, 0]
    assert sorted(gone["returned"]) == ["blue", "blue", "blue", "red", "red"]
    assert tile_at(game, (4, 0)) is None and game.view()["removed"] == ["Tubuai"]
    assert player(game, "red")["supply"] == 15 and player(game, "blue")["supply"] == 14
    # redraw: free placement of the drawn tile, any empty cell next to a placed tile, any rotation
    assert game.decision == {"colour": "red", "kind": "place_tile", "tile": "a", "reason": "redraw"}
    legal = game.legal_actions()
    cells = {tuple(a["cell"]) for a in legal}
    assert (4, 0) in cells and (0, 1) in cells and (9, 9) not in cells and (0, 0) not in cells
    assert len(legal) == 6 * len(cells)
    rejected(game, {"type": "place_tile", "cell": [9, 9], "rotation": 0}, "illegal_choice")
    rejected(game, {"type": "place_tile", "cell": [0, 0], "rotation": 0}, "illegal_choice")
    events = play(game, {"type": "place_tile", "cell": [4, 0], "rotation": 2})
    placed = one(events, "tile_placed")
    assert (placed["tile"], placed["how"], placed["rotation"]) == ("a", "free", 2)
    assert game.decision["kind"] == "place_tile" and game.decision["tile"] == "Samoa"
    events = play(game, {"type": "place_tile", "cell": [0, 1], "rotation": 5})
    assert types(events) == ["tile_placed", "turn_passed"]
    assert tile_at(game, (0, 1))["tile"] == "Samoa" and beaches_of(game, "Samoa") == [[], [], []]
    assert game.to_move == "blue" and game.decision["kind"] == "turn"


def test_r9_endless_chain_no_redraw_when_active_player_keeps_a_boat():
    """R9: after the removal, an active player with a boat elsewhere simply ends the turn (no redraw)."""
    game, events = endless([["blue"], ["red"]])
    assert types(events) == ["boats_placed", "endless_chain", "island_removed", "turn_passed"]
    assert game.to_move == "blue" and game.view()["stack"]["islands"] + game.view()["stack"]["oceans"] == 31 - 5


def test_r9_endless_chain_redraw_when_no_island_is_left():
    """R9: with no island left on the board after the removal, the active player redraws."""
    game, events = endless(None, removed=["Tonga"])
    assert types(events)[-1] == "tile_drawn"
    assert not [t for t in game.view()["tiles"] if t["kind"] == "island"]
    assert game.decision["kind"] == "place_tile" and game.decision["reason"] == "redraw"
    play(game, {"type": "place_tile", "cell": [4, 0], "rotation": 0})
    events = play(game, {"type": "place_tile", "cell": [2, 0], "rotation": 0})
    assert types(events) == ["tile_placed", "turn_passed"]
    assert game.decision["kind"] == "restart"  # blue has no boat on the board (R12)
    assert not [a for a in game.legal_actions() if "tonga" in a], "Tonga was removed"


def test_r9_only_options_that_avoid_an_endless_chain_are_legal():
    """R9: some options lead into an endless chain, others do not: only the others are legal."""
    # Rarotonga on (4, -1) turned 3: its beach 1 (4 moorings) has piers toward S, SW and NW.
    #   S  -> Tubuai (the looped island), where 2 + 2 green boats leave room for 2: every landing makes 6
    #         boats there -> endless;  SW -> l on (3, 0), path NE-N danger 4 -> this 2-colour fleet sinks;
    #   NW -> empty cell -> draws a tile.
    game = position([tonga(cell=(-3, 0)), island("Rarotonga", (4, -1), 3, [], ["red", "red", "blue", "blue"]),
                     loop_island(["green", "green"], ["green", "green"]), *RING],
                    colours=("red", "blue", "green"), stack=["Samoa"])
    assert game.decision["kind"] == "migrate"
    assert sorted(a["pier"] for a in game.legal_actions()) == [1, 2]
    rejected(game, {"type": "migrate", "island": "Rarotonga", "beach": 1, "pier": 0}, "illegal_choice")
    events = play(game, {"type": "migrate", "island": "Rarotonga", "beach": 1, "pier": 1})
    assert one(events, "sunk")["cell"] == [3, 0]


def test_r9_looping_option_is_legal_when_the_chain_can_still_end():
    """R9: a voyage that loops back is not endless when a landing can leave no beach full."""
    game = position([tonga(["blue"]), loop_island(["red", "red", "blue"], ["blue"]), *RING], stack=["a"])
    assert sorted(a["pier"] for a in game.legal_actions()) == [1, 2]
    events = play(game, {"type": "migrate", "island": "Tubuai", "beach": 0, "pier": 1})
    assert one(events, "fleet_arrived")["island"] == "Tubuai"
    assert game.decision["kind"] == "land" and game.decision["free"] == [3, 2]
    events = play(game, {"type": "land", "boats": [["blue", 1], ["red", 0], ["red", 0]]})
    assert types(events) == ["landed", "turn_passed"]
    assert beaches_of(game, "Tubuai") == [["red", "red"], ["blue", "blue"]]


def test_r9_redraw_when_active_player_keeps_only_a_royal_boat():
    """R9 (engine decision, as R12): royal boats do not count as boats left on the board -> redraw."""
    game = position([tonga(["blue"]), loop_island(["red", "blue"], ["blue", "blue"]), *RING,
                     island("Hawaii", (-3, 0), 0, royal="red")], stack=["a", "Samoa"])
    events = play(game, {"type": "expand", "island": "Tubuai", "beaches": [0]})
    assert types(events)[-1] == "tile_drawn" and game.decision["reason"] == "redraw"
    assert [t["royal"] for t in game.view()["tiles"] if t["tile"] == "Hawaii"] == ["red"]


def test_r9_r14_turnings_leading_into_an_endless_chain_are_not_legal():
    """R9 with R14 free follow-up: rotations of a follow-up tile that send the fleet into an endless chain
    are not legal while others exist."""
    # Tonga on (4, -3); its beach 0 fills with 3 colours and sails S. g is forced on (4, -2) (straight, danger 3);
    # f is the follow-up tile on (4, -1), just N of the looped Tubuai holding 2 + 2 boats: turned 0 or 3, f
    # sends the fleet S onto Tubuai (5+ boats there: endless); every other turning sinks it (danger 4 ahead).
    game = position([tonga(["blue", "green"], ["red"], cell=(4, -3)),
                     loop_island(["blue", "blue"], ["green", "green"]), *RING],
                    colours=("red", "blue", "green"), variants={"free_follow_up": True}, stack=["g", "f", "Samoa"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    assert one(events, "tile_placed")["tile"] == "g" and one(events, "crossing")["passed"] is True
    assert game.decision == {"colour": "red", "kind": "turn_tile", "tile": "f", "cell": [4, -1]}
    assert [a["rotation"] for a in game.legal_actions()] == [1, 2, 4, 5]
    rejected(game, {"type": "turn_tile", "rotation": 0}, "illegal_choice")
    rejected(game, {"type": "turn_tile", "rotation": 3}, "illegal_choice")


def test_r9_only_landings_that_avoid_an_endless_chain_are_legal():
    """R9 at a landing decision: landings that would lead into an endless chain are not legal while others
    exist."""
    # Tonga on (4, -1), just N of the looped Tubuai (2 + 2 green boats). Tonga's full beach 3 sails N into the
    # royal Samoa on (4, -2), is turned back and lands on Tonga again: 3 boats on 3 different beaches (m < |B|).
    # Filling beach 0 (2 boats already) would send a fleet S onto Tubuai -> endless; the others are legal.
    game = position([tonga(["blue", "blue"], [], [], ["red", "red", "blue"], cell=(4, -1)),
                     island("Samoa", (4, -2), 0, royal="green"),
                     loop_island(["green", "green"], ["green", "green"]), *RING],
                    colours=("red", "blue", "green"), stack=["a", "Hawaii"])
    assert game.decision["kind"] == "land" and game.decision["island"] == "Tonga"
    assert game.decision["free"] == [1, 3, 3, 3, 3, 3]
    legal = game.legal_actions()
    assert all(len({b for _c, b in a["boats"]}) == 3 for a in legal)
    assert not [a for a in legal if any(b == 0 for _c, b in a["boats"])]
    assert len(legal) == 10 * 3
    rejected(game, {"type": "land", "boats": [["blue", 0], ["red", 1], ["red", 2]]}, "illegal_choice")
    events = play(game, {"type": "land", "boats": [["blue", 3], ["red", 1], ["red", 2]]})
    assert types(events) == ["landed", "turn_passed"]


def test_r9_endless_chain_removes_only_the_looping_island_not_the_one_feeding_it():
    """R9 (+ official rulebook, "Réaction en chaîne sans fin"): the boats of the island whose piers all lead
    back to itself go home and that island is removed; an island that merely sends one fleet into it keeps
    its tile and its other boats."""
    # Tonga on (4, -1), N of the looped Tubuai (2 + 2 green). Red fills Tonga's beach 0, whose only pier
    # points S onto Tubuai: that fleet makes Tubuai endless. Tonga's piers do not lead back to Tonga.
    game = position([tonga(["blue", "red"], ["blue"], [], ["red"], cell=(4, -1)),
                     loop_island(["green", "green"], ["green", "green"]), *RING],
                    colours=("red", "blue", "green"), stack=["a", "Hawaii"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0, 2]})
    assert of_type(events, "endless_chain") and game.view()["removed"] == ["Tubuai"]
    assert one(events, "endless_chain")["islands"] == ["Tubuai"]
    assert [e["island"] for e in of_type(events, "island_removed")] == ["Tubuai"]
    assert beaches_of(game, "Tonga")[1:4] == [["blue"], ["red"], ["red"]]
    assert game.to_move == "blue", "red keeps boats on Tonga: no redraw, the turn ends"

"""R3 set-up and R4 turn order."""

from __future__ import annotations

from helpers import one, play, position, rejected, tonga

from server.game import Game


def test_r3_tonga_alone_on_the_table_and_31_tiles_in_the_stack():
    """R3.1: Tonga at (0, 0) with rotation 0; the other 31 tiles face down in the stack."""
    game = Game.new(["red", "blue", "green"], seed=11)
    view = game.view()
    assert [(t["tile"], t["cell"], t["rotation"]) for t in view["tiles"]] == [("Tonga", [0, 0], 0)]
    assert view["stack"]["islands"] + view["stack"]["oceans"] == 31
    assert game.decision["kind"] == "setup" and view["phase"] == "setup" and view["turn"] == 0


def test_r3_setup_twice_around_from_the_starting_player():
    """R3.2–3: from the starting player, in turn order, twice around, one boat each on Tonga."""
    game = Game.new(["red", "blue", "green"], seed=5, first="blue")
    order = []
    for i in range(6):
        order.append(game.to_move)
        events = play(game, {"type": "setup", "beach": i})
        placed = one(events, "boats_placed")
        assert placed["reason"] == "setup" and placed["island"] == "Tonga" and placed["beaches"] == [i]
    assert order == ["blue", "green", "red", "blue", "green", "red"]
    passed = one(events, "turn_passed")
    assert passed["to"] == "blue" and passed["turn"] == 1
    assert game.decision["kind"] == "turn" and game.to_move == "blue"
    assert [p["supply"] for p in game.view()["players"]] == [13, 13, 13]


def test_r3_starting_player_drawn_from_seed_or_setting():
    """R3.2: the starting player is the room's setting, else drawn (deterministically) from the seed."""
    firsts = {Game.new(["red", "blue", "green"], seed=s).to_move for s in range(40)}
    assert firsts == {"red", "blue", "green"}
    assert Game.new(["red", "blue"], seed=9).to_move == Game.new(["red", "blue"], seed=9).to_move
    assert Game.new(["red", "blue"], seed=9, first="blue").to_move == "blue"


def test_r3_no_tonga_beach_filled_during_setup():
    """R3.3: at most 2 boats per Tonga beach during set-up; a third is refused."""
    game = Game.new(["red", "blue"], seed=1, first="red")
    play(game, {"type": "setup", "beach": 2})
    play(game, {"type": "setup", "beach": 2})
    assert {"type": "setup", "beach": 2} not in game.legal_actions()
    assert len(game.legal_actions()) == 5
    rejected(game, {"type": "setup", "beach": 2}, "illegal_choice", colour="red")
    rejected(game, {"type": "setup", "beach": 6}, "illegal_choice", colour="red")


def test_r4_turns_pass_clockwise():
    """R4: after a turn ends, play passes clockwise (seat order), wrapping around."""
    game = position([tonga(["red"], ["blue"], ["green"])], colours=("red", "blue", "green"), active="green")
    seen = []
    for b in (3, 4, 5):
        seen.append(game.to_move)
        events = play(game, {"type": "expand", "island": "Tonga", "beaches": [b]})
        passed = one(events, "turn_passed")
        assert passed["from"] == seen[-1]
        assert game.decision["kind"] == "turn"
    assert seen == ["green", "red", "blue"]
    assert game.to_move == "green" and game.view()["turn"] == 4

"""R14 variants: two colours each, free follow-up tiles."""

from __future__ import annotations

from helpers import one, play, position, rejected, tonga, types

from server.game import Game

FOUR = ("red", "blue", "green", "yellow")  # A1, B1, A2, B2
TWO = {"two_colours": True}


def test_r14_two_colours_turns_alternate_a1_b1_a2_b2():
    """R14: each player plays two colours; turns alternate A's first, B's first, A's second, B's second."""
    game = Game.new(list(FOUR), seed=3, variants=TWO, first="red")
    assert game.view()["variants"] == {"two_colours": True, "free_follow_up": False}
    order = []
    for b in (0, 1, 2, 3, 4, 5, 0, 1):
        order.append(game.to_move)
        play(game, {"type": "setup", "beach": b})
    assert order == list(FOUR) * 2
    assert game.to_move == "red" and game.decision["kind"] == "turn"
    game = position([tonga(["red"], ["blue"], ["green"], ["yellow"])], colours=FOUR, variants=TWO)
    turns = []
    for b in (4, 5, 4, 5):
        turns.append(game.to_move)
        play(game, {"type": "expand", "island": "Tonga", "beaches": [b]})
    assert turns == list(FOUR) and game.to_move == "red"


def test_r14_two_colours_needs_four_seats():
    """R14 (engine decision): the two-colours variant takes four colours A1, B1, A2, B2."""
    for colours in (["red", "blue"], ["red", "blue", "green"]):
        try:
            Game.new(colours, seed=1, variants=TWO)
        except ValueError:
            continue
        raise AssertionError(f"{colours} accepted")


def test_r14_two_colours_one_persons_two_colours_count_as_two_in_a_fleet():
    """R14: each colour is a separate seat for every rule: red + green (one person) are 2 fleet colours."""
    game = position([tonga(["red", "green"], [], ["blue"], ["yellow"])], colours=FOUR, variants=TWO,
                    stack=["i", "Samoa"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    crossing = one(events, "crossing")
    assert (crossing["danger"], crossing["colours"], crossing["passed"]) == (2, 2, True)


def test_r14_two_colours_result_has_team_totals():
    """R14 (engine decision): the result adds each person's total in `teams`."""
    game = position([tonga(["red"], ["blue"]), {"tile": "Samoa", "cell": [0, 3], "beaches": [["green"], [], []]},
                     {"tile": "Tubuai", "cell": [3, 0], "beaches": [["blue"], []]}],
                    colours=FOUR, variants=TWO, active="yellow", stack=["o", "Fidschi"], stack_exact=True)
    play(game, {"type": "colonise"})
    play(game, {"type": "place_tile", "cell": [-1, 0], "rotation": 0})
    result = game.result()
    assert result["teams"] == {"red+green": 5, "blue+yellow": 2}
    assert result["scores"] == {"red": 0, "blue": 2, "green": 5, "yellow": 0}


def test_r14_no_teams_without_the_variant():
    """R14: `teams` is None in a normal game."""
    game = position([tonga(["red"], ["blue"])], active="red", stack=["a", "Samoa"], stack_exact=True)
    play(game, {"type": "colonise"})
    play(game, {"type": "place_tile", "cell": [0, 1], "rotation": 0})
    assert game.result()["teams"] is None


def test_r14_free_follow_up_first_tile_forced_later_ones_turned():
    """R14: only the first tile of a voyage is forced; each further tile is turned as the player chooses
    (its cell is fixed) through a `turn_tile` decision."""
    game = position([tonga(["red", "blue"])], variants={"free_follow_up": True}, stack=["p", "e", "Samoa"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    placed = one(events, "tile_placed")
    assert (placed["tile"], placed["cell"], placed["rotation"], placed["how"]) == ("p", [0, 1], 3, "forced")
    assert types(events)[-1] == "tile_drawn"
    assert game.decision == {"colour": "red", "kind": "turn_tile", "tile": "e", "cell": [-1, 1]}
    assert game.view()["in_hand"] == "e"
    assert game.legal_actions() == [{"type": "turn_tile", "rotation": r} for r in range(6)]
    rejected(game, {"type": "turn_tile", "rotation": 6}, "illegal_choice")
    rejected(game, {"type": "place_tile", "cell": [-1, 1], "rotation": 0}, "wrong_phase")
    # turned 3, e's side 2 faces SE (where the fleet comes from): path 2-3 danger 2, out through world S
    events = play(game, {"type": "turn_tile", "rotation": 3})
    assert types(events)[:3] == ["tile_placed", "path_followed", "crossing"]
    placed = events[0]
    assert (placed["tile"], placed["cell"], placed["rotation"], placed["how"]) == ("e", [-1, 1], 3, "turned")
    path = one(events, "path_followed")
    assert (path["entry"], path["exit"], path["danger"]) == (5, 0, 2)
    assert game.decision == {"colour": "red", "kind": "turn_tile", "tile": "Samoa", "cell": [-1, 2]}
    events = play(game, {"type": "turn_tile", "rotation": 5})
    assert types(events) == ["tile_placed", "fleet_arrived"]
    assert game.decision["kind"] == "land"


def test_r14_without_free_follow_up_every_tile_is_forced():
    """R14 off (default): every tile of a voyage is placed by forced placement."""
    game = position([tonga(["red", "blue"])], stack=["p", "j", "Samoa"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    assert [(p["tile"], p["rotation"], p["how"]) for p in events if p["type"] == "tile_placed"][:2] == [
        ("p", 3, "forced"), ("j", 5, "forced")]


def test_r14_free_follow_up_each_voyage_starts_with_a_forced_tile():
    """R14: "only the first tile of a voyage" is forced — the next voyage of the same chain starts forced again."""
    game = position([tonga(["red", "red", "blue"], [], [], ["blue", "blue", "red"])],
                    variants={"free_follow_up": True}, stack=["p", "Samoa", "Hawaii"])
    events = play(game, {"type": "migrate", "island": "Tonga", "beach": 3, "pier": 3})
    placed = one(events, "tile_placed")
    assert (placed["tile"], placed["cell"], placed["rotation"], placed["how"]) == ("p", [0, -1], 0, "forced")
    assert game.decision == {"colour": "red", "kind": "turn_tile", "tile": "Samoa", "cell": [1, -1]}
    events = play(game, {"type": "turn_tile", "rotation": 4})
    assert events[0]["how"] == "turned" and game.decision["kind"] == "land"
    events = play(game, {"type": "land", "boats": [["blue", 0], ["blue", 1], ["red", 2]]})
    placed = one(events, "tile_placed")
    assert (placed["tile"], placed["cell"], placed["rotation"], placed["how"]) == ("Hawaii", [0, 1], 3, "forced")

"""R15 what every player sees: the whole table, stack counts, never the stack order or the seed."""

from __future__ import annotations

import json

from helpers import island, play, position, rejected, tonga

from server.game import Game
from server.game.catalogue import TILES, Island


def keys_anywhere(data):
    if isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from keys_anywhere(v)
    elif isinstance(data, list):
        for v in data:
            yield from keys_anywhere(v)


def test_r15_view_independent_of_stack_order_and_seed():
    """R15: two tables that differ only in the stack's order (and seed) look identical to everyone."""
    games = [Game.new(["red", "blue", "green"], seed=s, first="blue") for s in (1, 2, 99)]
    for b in (0, 1, 2, 3, 4, 5):
        events = [g.apply({"type": "setup", "beach": b}) for g in games]
        assert events[0] == events[1] == events[2]
    views = [json.dumps(g.view(), sort_keys=True) for g in games]
    assert views[0] == views[1] == views[2]
    assert games[0].to_bytes() != games[1].to_bytes()  # the secret part does differ
    a = position([tonga(["red"], ["blue"])], stack=["Samoa", "a", "Hawaii"], seed=5)
    b = position([tonga(["red"], ["blue"])], stack=["a", "Hawaii", "Samoa"], seed=6)
    assert a.view() == b.view() and a.view("red") == b.view("red")


def test_r15_view_never_names_seed_or_order():
    """R15: no `seed` or stack list in any view; `remaining` is sorted (what remains, not its order)."""
    game = position([tonga(["red"], ["blue"])], stack=["Tubuai", "a", "Samoa"], seed=1234567)
    view = game.view()
    assert not {"seed", "stack_order", "order"} & set(keys_anywhere(view))
    assert "1234567" not in json.dumps(view)
    remaining = view["stack"]["remaining"]
    assert remaining == sorted(remaining) and len(remaining) == 31
    assert set(view) >= {"colours", "variants", "phase", "turn", "active", "tiles", "players", "stack",
                         "removed", "fleet", "at_sea", "in_hand", "pending", "result"}


def test_r15_rejections_do_not_reveal_the_next_tile():
    """R15: error messages name the input, never the stack."""
    game = position([tonga(["red"], ["blue"])], stack=["Fidschi"])
    for action in ({"type": "expand", "island": "Tonga", "beaches": [9]}, {"type": "settle", "beach": 0},
                   {"type": "place_tile", "cell": [0, 1], "rotation": 0}, ["junk"]):
        try:
            game.apply(action)
        except Exception as error:  # noqa: BLE001 - IllegalAction expected
            assert "Fidschi" not in str(error)
        else:
            raise AssertionError(action)


def test_r15_stack_summary_counts_kinds_values_and_dangers():
    """R15: how many tiles of each kind remain, which island values and ocean dangers: counted, public."""
    game = position([tonga(["red", "blue"])], stack=["j", "Samoa"])
    before = game.view()["stack"]
    remaining = before["remaining"]
    assert before["islands"] == sum(isinstance(TILES[n], Island) for n in remaining) == 15
    assert before["oceans"] == 16
    assert before["island_values"] == {"2": 3, "3": 4, "4": 5, "5": 3}
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    assert [e["tile"] for e in events if e["type"] == "tile_drawn"] == ["j", "Samoa"]
    after = game.view()["stack"]
    assert (after["islands"], after["oceans"]) == (14, 15)
    assert after["island_values"]["5"] == 2 and after["island_values"]["4"] == 5
    assert after["ocean_dangers"]["2"] == before["ocean_dangers"]["2"] - 3  # j: three danger-2 paths
    assert after["ocean_dangers"]["0"] == before["ocean_dangers"]["0"]
    assert "Samoa" not in after["remaining"] and "j" not in after["remaining"]
    assert [e["left"] for e in events if e["type"] == "tile_drawn"] == [
        {"islands": 15, "oceans": 15}, {"islands": 14, "oceans": 15}]


def test_r15_view_shows_the_table_players_and_pending_decision():
    """R15: tiles, boats, supplies, royal boats, scores, the fleet awaiting a decision (the legal actions,
    public too, come from their own call)."""
    game = position([tonga(["red", "red", "blue"]), island("Tubuai", (0, 1), 0),
                     island("Hawaii", (3, 0), 0, royal="blue")], stack=["a"])
    view = game.view("blue")
    assert view["you"] == "blue" and "you" not in game.view()
    assert view["pending"]["kind"] == "land" and "legal" not in view and game.legal_actions()
    assert view["fleet"] == {"boats": ["red", "red", "blue"], "colours": 2, "from": "Tonga", "cell": [0, 1]}
    hawaii = next(t for t in view["tiles"] if t["tile"] == "Hawaii")
    assert hawaii["royal"] == "blue" and hawaii["value"] == 5 and hawaii["kind"] == "island"
    assert [b["piers"] for b in hawaii["beaches"]] == [[1, 2], [3], [4, 5]]
    blue = next(p for p in view["players"] if p["colour"] == "blue")
    assert blue == {"colour": "blue", "supply": 13, "on_board": 1, "royal": 1, "royal_left": 1, "score": 5,
                    "islands": 1}
    assert view["phase"] == "play" and view["active"] == "red"


def test_r15_in_hand_tile_is_shown_once_drawn():
    """R15: a drawn tile waiting to be placed is public (`in_hand`)."""
    game = position([tonga(["red"], ["blue"])], stack=["b", "Samoa"])
    assert game.view()["in_hand"] is None
    play(game, {"type": "colonise"})
    assert game.view()["in_hand"] == "b" and game.view()["pending"]["tile"] == "b"
    rejected(game, {"type": "colonise"}, "wrong_phase")


def test_r15_successive_views_share_the_tiles_an_action_left_alone():
    """A tile's view is kept until its boats or royal boat change, so two views share the tiles that did
    not change (a server's patch between them compares those by identity) and redraw those that did."""
    import random

    game = Game.new(["red", "blue", "green", "yellow"], seed=7)
    rng = random.Random(7)
    before = {tuple(t["cell"]): t for t in game.view()["tiles"]}
    shared = redrawn = 0
    while game.to_move is not None:
        game.apply(game.sample_action(rng))
        after = {tuple(t["cell"]): t for t in game.view()["tiles"]}
        for cell, tile in before.items():
            if cell not in after:
                continue
            assert (after[cell] is tile) == (after[cell] == tile), cell   # shared exactly when unchanged
            shared += after[cell] is tile
            redrawn += after[cell] is not tile
        assert Game.from_bytes(game.to_bytes()).view()["tiles"] == list(after.values())   # none drawn stale
        before = after
    assert shared > 10 * redrawn > 0

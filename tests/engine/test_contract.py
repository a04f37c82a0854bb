"""The engine contract (docs/engine.md): IllegalAction codes, rejections change nothing, persistence
round trips in the middle of a voyage, replay from the log, plain data out."""

from __future__ import annotations

import json

import msgpack
from helpers import island, play, position, rejected, tonga

from server.game import Game, IllegalAction
from server.game.bots import RandomBot
from server.game.game import rules_of


def turn_game():
    return position([tonga(["red"], ["blue"]), island("Tubuai", (3, 0), 0, ["red"])], stack=["Samoa"])


MALFORMED = [
    None, 3, "expand", ["expand"], {}, {"type": 7}, {"type": "fly"}, {"type": None},
    {"type": "expand", "island": "Tonga"},                                   # missing field
    {"type": "expand", "island": "Tonga", "beaches": [1], "extra": 1},        # extra field
    {"type": "expand", "island": "Tonga", "beaches": [True]},                 # bool is not an int
    {"type": "expand", "island": "Tonga", "beaches": [1.0]},
    {"type": "expand", "island": "Tonga", "beaches": ["1"]},
    {"type": "expand", "island": "Tonga", "beaches": 1},
    {"type": "expand", "island": "Tonga", "beaches": (1,)},
    {"type": "expand", "island": "Tonga", "beaches": list(range(10_000))},   # huge list
    {"type": "expand", "island": 5, "beaches": [1]},
    {"type": "expand", "island": "Tonga", "beaches": [1], "take_back": {"island": "Tonga"}},
    {"type": "expand", "island": "Tonga", "beaches": [1], "take_back": {"island": "Tonga", "beach": False}},
    {"type": "expand", "island": "Tonga", "beaches": [1], "take_back": ["Tonga", 0]},
    {"type": "royal", "island": ["Tubuai"]},
    {"type": "colonise", "now": True},
    {"type": "setup", "beach": True},
    {"type": "setup", "beach": None},
    {"type": "migrate", "island": "Tonga", "beach": 0, "pier": False},
    {"type": "migrate", "island": "Tonga", "beach": 0},
    {"type": "land", "boats": [["red"]]},
    {"type": "land", "boats": [["red", 0, 1]]},
    {"type": "land", "boats": [["red", True]]},
    {"type": "land", "boats": [[0, "red"]]},
    {"type": "land", "boats": [["red", 0]] * 1000},
    {"type": "land", "boats": "red"},
    {"type": "place_tile", "cell": [0, 1, 2], "rotation": 0},
    {"type": "place_tile", "cell": [0, True], "rotation": 0},
    {"type": "place_tile", "cell": [0, 1], "rotation": 1.5},
    {"type": "place_tile", "cell": {"q": 0, "r": 1}, "rotation": 0},
    {"type": "restart", "tonga": [0, 1], "island": "Tubuai", "beach": 0},
    {"type": "restart", "tonga": [0, 1, 2]},
    {"type": "restart", "tonga": list(range(100_000))},
    {"type": "restart", "island": "Tubuai"},
    {"type": "turn_tile", "rotation": True},
    {"type": "turn_tile", "rotation": "3"},
    {"type": "settle", "beach": [0]},
]


def test_contract_malformed_actions_rejected_without_change():
    """Contract: malformed (not a dict, unknown type, wrong field types incl. bools as ints, extra or
    missing fields, huge lists) -> IllegalAction('malformed'), and the game is unchanged byte for byte."""
    game = turn_game()
    for action in MALFORMED:
        error = rejected(game, action, "malformed")
        assert error.action is action or error.action == action
        assert len(error.message) < 1000


def test_contract_wrong_player():
    """Contract: apply(action, colour=…) by a colour that is not to move -> wrong_player, nothing changes."""
    game = turn_game()
    rejected(game, {"type": "expand", "island": "Tonga", "beaches": [1]}, "wrong_player", colour="blue")
    rejected(game, {"type": "colonise"}, "wrong_player", colour="green")
    play(game, {"type": "expand", "island": "Tonga", "beaches": [2]})
    assert game.to_move == "blue"


def test_contract_wrong_phase():
    """Contract: an action type that does not answer the pending decision -> wrong_phase."""
    game = turn_game()
    for action in ({"type": "setup", "beach": 2}, {"type": "land", "boats": []},
                   {"type": "migrate", "island": "Tonga", "beach": 0, "pier": 0},
                   {"type": "place_tile", "cell": [0, 1], "rotation": 0}, {"type": "settle", "beach": 0},
                   {"type": "turn_tile", "rotation": 0}, {"type": "restart", "tonga": [1, 2]}):
        rejected(game, action, "wrong_phase")
    land = position([tonga(["red", "red", "blue"]), island("Tubuai", (0, 1), 0)], stack=["a"])
    rejected(land, {"type": "colonise"}, "wrong_phase")
    rejected(land, {"type": "expand", "island": "Tonga", "beaches": [1]}, "wrong_phase")


def test_contract_illegal_choice():
    """Contract: well-formed, right phase, not among the legal actions -> illegal_choice."""
    game = turn_game()
    for action in ({"type": "expand", "island": "Tonga", "beaches": [0, 1]},
                   {"type": "expand", "island": "Atlantis", "beaches": [1]},
                   {"type": "expand", "island": "Tonga", "beaches": [-1]},
                   {"type": "expand", "island": "Tonga", "beaches": [6]},
                   {"type": "expand", "island": "Tonga", "beaches": [1], "take_back": {"island": "Tonga", "beach": 0}},
                   {"type": "royal", "island": "Tonga"}, {"type": "royal", "island": "Samoa"}):
        rejected(game, action, "illegal_choice")
    for action in game.legal_actions():  # every listed action is accepted (on a copy)
        game.clone().apply(action)


def test_contract_game_over():
    """Contract: any action after the end -> game_over; the result stays."""
    game = position([tonga(["red"], ["blue"])], stack=["a", "Samoa"], stack_exact=True)
    play(game, {"type": "colonise"})
    play(game, {"type": "place_tile", "cell": [0, 1], "rotation": 0})
    assert game.to_move is None and game.result() is not None
    for action in ({"type": "colonise"}, {"type": "place_tile", "cell": [0, 2], "rotation": 0}, None):
        rejected(game, action, "game_over")
    try:
        game.sample_action(__import__("random").Random(1))
    except IllegalAction as error:
        assert error.code == "game_over"
    else:
        raise AssertionError("sample_action after the end")


def roundtrip(game):
    blob = game.to_bytes()
    copy = Game.from_bytes(blob)
    assert copy.to_bytes() == blob
    assert copy.view() == game.view() and copy.legal_actions() == game.legal_actions()
    assert copy.decision == game.decision and copy.version == game.version
    return copy


def test_contract_bytes_round_trip_mid_voyage_decisions():
    """Contract: to_bytes/from_bytes is lossless in every pending decision, mid-voyage included; both copies
    go on identically."""
    # land decision (fleet at an island), then a migrate decision after the landing
    game = position([tonga(["red", "red", "blue"], [], [], ["blue", "blue", "red"])], stack=["Samoa", "Hawaii"])
    copy = roundtrip(game)
    action = {"type": "migrate", "island": "Tonga", "beach": 3, "pier": 3}
    assert game.apply(action) == copy.apply(action)
    assert game.decision["kind"] == "land"
    copy = roundtrip(game)
    action = game.legal_actions()[0]
    assert game.apply(action) == copy.apply(action)
    assert game.to_bytes() == copy.to_bytes()
    # turn_tile decision of the free follow-up variant (a fleet at sea, a tile in hand)
    game = position([tonga(["red", "blue"])], variants={"free_follow_up": True}, stack=["p", "e", "Samoa"])
    game.apply({"type": "expand", "island": "Tonga", "beaches": [0]})
    assert game.decision["kind"] == "turn_tile"
    copy = roundtrip(game)
    assert game.apply({"type": "turn_tile", "rotation": 3}) == copy.apply({"type": "turn_tile", "rotation": 3})
    assert game.to_bytes() == copy.to_bytes()
    # place_tile and settle decisions of a colonisation
    game = position([tonga(["red"], ["blue"])], stack=["a", "Samoa"])
    game.apply({"type": "colonise"})
    roundtrip(game)
    game.apply({"type": "place_tile", "cell": [0, 1], "rotation": 0})
    game.apply({"type": "place_tile", "cell": [0, 2], "rotation": 0})
    assert game.decision["kind"] == "settle"
    copy = roundtrip(game)
    assert game.apply({"type": "settle", "beach": 0}) == copy.apply({"type": "settle", "beach": 0})
    clone = game.clone()
    clone.apply(clone.legal_actions()[0])
    assert clone.version == game.version + 1, "clone is independent"


def test_contract_replay_from_log_rebuilds_the_same_game():
    """Contract: Game.replay(colours, seed, log) rebuilds the identical game (state bytes equal)."""
    game = Game.new(["red", "blue", "green"], seed=21)
    bot = RandomBot(seed=5)
    for _ in range(120):
        if game.to_move is None:
            break
        game.apply(bot.choose(game), colour=game.to_move)
    assert game.version == len(game.log) > 0
    again = Game.replay(["red", "blue", "green"], 21, game.log)
    assert again.to_bytes() == game.to_bytes() and again.view() == game.view()
    assert json.loads(json.dumps(game.log)) == game.log


def test_contract_plain_data_everywhere():
    """Contract: actions, events, views and results are dict/list/str/int/bool/None (JSON and msgpack)."""
    game = position([tonga(["red", "blue"])], stack=["i", "Samoa"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    for data in (events, game.view(), game.legal_actions(), game.decision):
        assert json.loads(json.dumps(data)) == data
        assert msgpack.unpackb(msgpack.packb(data), raw=False) == data


def test_contract_imagine_reshuffles_only_the_unseen_stack():
    """Contract: imagine(seed) is a copy with the same table and the same remaining tiles, the real game
    untouched."""
    game = position([tonga(["red"], ["blue"])], stack=["Samoa", "a"])
    blob = game.to_bytes()
    other = game.imagine(3)
    assert game.to_bytes() == blob
    assert other.view() == game.view()
    assert sorted(rules_of(other).stack) == sorted(rules_of(game).stack)


def test_contract_imagine_does_not_depend_on_the_secret_order():
    """Contract (R15): two games alike but for the secret order of their stacks imagine the same stack
    from the same seed, so a look-ahead bot's choice cannot depend on the real order."""
    tiles = ["Samoa", "a", "Hawaii", "c", "Tahiti"]
    one = position([tonga(["red"], ["blue"])], stack=tiles)
    other = position([tonga(["red"], ["blue"])], stack=tiles[::-1])
    assert rules_of(one).stack != rules_of(other).stack
    assert rules_of(one.imagine(7)).stack == rules_of(other.imagine(7)).stack


def test_contract_malformed_unhashable_type_field():
    """Contract: an action whose "type" is a list or dict is malformed (IllegalAction), not a TypeError."""
    game = turn_game()
    for action in ({"type": ["expand"]}, {"type": {"expand": 1}}, {"type": ["land"], "boats": []}):
        rejected(game, action, "malformed")


EVENT_FIELDS = {
    "boats_placed": {"colour", "island", "cell", "beaches", "reason"},
    "boat_taken_back": {"colour", "island", "cell", "beach"},
    "royal_founded": {"colour", "island", "cell", "returned"},
    "colonisation": {"colour", "returned"},
    "fleet_departed": {"island", "cell", "beach", "pier", "boats", "colours", "auto"},
    "tile_drawn": {"tile", "kind", "left"},
    "tile_placed": {"tile", "kind", "cell", "rotation", "how", "auto", "view"},
    "path_followed": {"cell", "entry", "exit", "danger", "colours"},
    "crossing": {"cell", "danger", "colours", "passed"},
    "sunk": {"cell", "boats"},
    "turned_back": {"cell", "island", "to"},
    "fleet_arrived": {"island", "cell", "boats"},
    "landed": {"island", "cell", "placements", "returned", "auto"},
    "endless_chain": {"islands"},
    "island_removed": {"island", "cell", "returned"},
    "fleet_at_sea": {"cell", "boats"},
    "turn_passed": {"from", "to", "turn"},
    "game_over": {"result"},
}


def test_contract_event_fields_match_the_documented_table():
    """Contract (docs/engine.md, Events): every event carries exactly its documented fields."""
    from test_chain_r9 import RING, loop_island

    seen = []
    g = position([tonga(["red", "blue"]), island("Samoa", (0, 3), 0, ["red"])], stack=["a", "Hawaii"])
    seen += g.apply({"type": "expand", "island": "Tonga", "beaches": [0]})           # sinks on a (danger 4)
    seen += g.apply({"type": "colonise"})
    seen += g.apply({"type": "place_tile", "cell": [0, -1], "rotation": 0})
    seen += g.apply({"type": "settle", "beach": 0})
    g = position([tonga(["red", "blue"], *[["green", "blue"]] * 5), island("Samoa", (0, 1), 3, royal="green")],
                 colours=("red", "blue", "green"), stack=["p"])
    seen += g.apply({"type": "expand", "island": "Tonga", "beaches": [0]})          # turned back
    seen += g.apply(g.legal_actions()[0])
    g = position([tonga(*[["red", "red"]] * 6), island("Tubuai", (3, 0), 0, ["red", "red"], ["red"]),
                  island("Hiva Oa", (0, 3), 0, ["blue"])], stack=["Samoa"])
    seen += g.apply({"type": "expand", "island": "Tubuai", "beaches": [1],
                     "take_back": {"island": "Tonga", "beach": 0}})
    seen += g.apply({"type": "royal", "island": "Hiva Oa"})
    g = position([tonga(["blue"]), loop_island(["red", "blue"], ["blue", "blue"]), *RING], stack=["a", "Samoa"])
    seen += g.apply({"type": "expand", "island": "Tubuai", "beaches": [0]})          # endless chain
    g = position([tonga(["red", "blue"])], stack=["a", "Samoa"], stack_exact=True)
    seen += g.apply({"type": "expand", "island": "Tonga", "beaches": [0]})          # at sea, game over
    g = position([tonga(["red", "blue"])], stack=["j", "Samoa"])
    seen += g.apply({"type": "expand", "island": "Tonga", "beaches": [0]})          # passes, lands
    kinds = {e["type"] for e in seen}
    assert kinds == set(EVENT_FIELDS), set(EVENT_FIELDS) - kinds
    for e in seen:
        fields = set(e) - {"type"}
        expected = EVENT_FIELDS[e["type"]] | ({"value"} if e["type"] == "tile_drawn" and e["kind"] == "island"
                                             else set())
        assert fields == expected, e


def test_contract_returned_data_does_not_alias_engine_state():
    """Contract ("plain data in, plain data out", apply "changes nothing" unless it succeeds): a caller that
    edits what the engine returned (legal actions, views, events, the result) must not change the game."""
    game = turn_game()
    before = game.to_bytes()
    legal = game.legal_actions()
    snapshot = json.loads(json.dumps(legal))
    legal[0]["beaches"].append(99)
    legal[1]["island"] = "Atlantis"
    game.legal_actions()[2]["beaches"].clear()
    assert game.legal_actions() == snapshot
    assert game.to_bytes() == before

    game = position([tonga(["red"], ["blue"])], stack=["a", "Samoa"], stack_exact=True)
    play(game, {"type": "colonise"})
    events = play(game, {"type": "place_tile", "cell": [0, 1], "rotation": 0})
    final = game.to_bytes()
    expected = json.loads(json.dumps(game.result()))
    events[-1]["result"]["scores"]["red"] = 999
    game.result()["winners"].append("nobody")
    game.view()["result"]["ranking"].clear()
    assert game.result() == expected
    assert game.to_bytes() == final

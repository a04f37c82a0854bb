"""R13 end of the game: the last tile of a kind, scoring and every tie-break."""

from __future__ import annotations

from helpers import beaches_of, island, of_type, one, play, player, position, tonga, types

from server.game import Game
from server.game.bots import RandomBot


def test_r13_last_island_reached_by_fleet_lands_then_game_over_without_migration():
    """R13: the last island tile is drawn by a fleet: the fleet lands (R8), then the game ends at once —
    the other full beach is not migrated."""
    game = position([tonga(["red", "red", "blue"], [], [], ["blue", "blue", "red"])],
                    stack=["Samoa", "a"], stack_exact=True)
    events = play(game, {"type": "migrate", "island": "Tonga", "beach": 0, "pier": 0})
    drawn = one(events, "tile_drawn")
    assert drawn["tile"] == "Samoa" and drawn["left"] == {"islands": 0, "oceans": 1}
    assert game.decision["kind"] == "land", "the landing still happens (and is the player's choice)"
    events = play(game, {"type": "land", "boats": [["blue", 1], ["red", 0], ["red", 2]]})
    assert types(events) == ["landed", "game_over"]
    assert game.to_move is None and game.decision is None and game.legal_actions() == []
    assert beaches_of(game, "Tonga")[3] == ["blue", "blue", "red"], "no further migration"
    result = game.result()
    assert result is not None and one(events, "game_over")["result"] == result
    assert result["scores"] == {"red": 5, "blue": 5}
    assert game.view()["phase"] == "over" and game.view()["active"] is None


def test_r13_last_ocean_tile_fleet_stays_at_sea_and_scores_nothing():
    """R13: the last ocean tile drawn by a fleet: the fleet stays on it at sea (`fleet_at_sea`), scores
    nothing, and (engine decision) counts as boats on the board for the last tie-break."""
    game = position([tonga(["red", "blue"])], stack=["a", "Samoa"], stack_exact=True)
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    assert types(events) == ["boats_placed", "fleet_departed", "tile_drawn", "tile_placed", "fleet_at_sea",
                             "game_over"]
    at_sea = one(events, "fleet_at_sea")
    assert at_sea["cell"] == [0, 1] and sorted(at_sea["boats"]) == ["blue", "red", "red"]
    view = game.view()
    assert [(s["cell"], sorted(s["boats"])) for s in view["at_sea"]] == [([0, 1], ["blue", "red", "red"])]
    result = game.result()
    assert result["scores"] == {"red": 0, "blue": 0} and result["islands"] == {"red": 0, "blue": 0}
    assert result["boats"] == {"red": 2, "blue": 1}
    assert player(game, "red")["supply"] == 13, "boats at sea do not go home"
    assert result["winners"] == ["blue"] and result["decided_by"] == "boats"


def test_r13_last_island_drawn_in_colonisation_is_settled_then_game_over():
    """R13: the last island drawn during a new colonisation is placed and settled, then the game ends."""
    game = position([tonga(["red"], ["blue"])], stack=["Samoa", "a"], stack_exact=True)
    play(game, {"type": "colonise"})
    play(game, {"type": "place_tile", "cell": [0, 1], "rotation": 0})
    assert game.decision["kind"] == "settle"
    events = play(game, {"type": "settle", "beach": 1})
    assert types(events) == ["boats_placed", "game_over"]
    assert game.result()["scores"] == {"red": 5, "blue": 0}


def test_r13_last_ocean_drawn_in_colonisation_ends_after_its_placement():
    """R13: the last ocean drawn during a new colonisation: its placement finishes, the game ends."""
    game = position([tonga(["red"], ["blue"])], stack=["a", "Samoa"], stack_exact=True)
    play(game, {"type": "colonise"})
    events = play(game, {"type": "place_tile", "cell": [0, 1], "rotation": 0})
    assert types(events) == ["tile_placed", "game_over"]
    assert game.result()["boats"] == {"red": 0, "blue": 1}
    assert game.result()["winners"] == ["blue"]


def test_r13_last_tile_drawn_in_endless_chain_redraw():
    """R13/R9: the last island drawn in an endless-chain redraw is placed, then the game ends."""
    from test_chain_r9 import RING, loop_island

    game = position([tonga(["blue"]), loop_island(["red", "blue"], ["blue", "blue"]), *RING],
                    stack=["Samoa", "a"], stack_exact=True)
    play(game, {"type": "expand", "island": "Tubuai", "beaches": [0]})
    assert game.decision["reason"] == "redraw" and game.decision["tile"] == "Samoa"
    events = play(game, {"type": "place_tile", "cell": [0, 1], "rotation": 0})
    assert types(events) == ["tile_placed", "game_over"]


def ended(tiles, colours=("red", "blue", "purple")):
    """Purple (no boat) colonises and draws the last ocean tile: the game ends with `tiles` as they are."""
    game = position(tiles, colours=colours, active="purple", stack=["o", "Fidschi"], stack_exact=True)
    play(game, {"type": "colonise"})
    events = play(game, {"type": "place_tile", "cell": [-1, 0], "rotation": 0})
    assert types(events) == ["tile_placed", "game_over"]
    return game.result()


def test_r13_scores_values_of_islands_with_a_boat_plus_royal_islands_tonga_zero():
    """R13: a player scores each island with at least one of their boats (once) plus their royal islands."""
    result = ended([tonga(["red"], ["blue"]), island("Samoa", (0, 3), 0, ["red", "red"], ["red"]),
                    island("Tubuai", (3, 0), 0, ["red"], ["blue"]), island("Hawaii", (0, -3), 0, royal="blue")])
    assert result["scores"] == {"red": 5 + 2, "blue": 2 + 5, "purple": 0}
    assert result["islands"] == {"red": 3, "blue": 3, "purple": 0}
    assert result["boats"] == {"red": 5, "blue": 3, "purple": 0}


def test_r13_winner_by_score():
    """R13: the highest score wins."""
    result = ended([tonga(), island("Samoa", (0, 3), 0, ["red"]), island("Tubuai", (3, 0), 0, ["blue"])])
    assert result["winners"] == ["red"] and result["decided_by"] == "score"
    assert result["ranking"] == [["red"], ["blue"], ["purple"]]


def test_r13_tie_broken_by_most_islands():
    """R13: equal scores -> most islands with the player present wins."""
    result = ended([tonga(), island("Samoa", (0, 3), 0, ["red"]), island("Tubuai", (3, 0), 0, ["blue"]),
                    island("Rarotonga", (-3, 0), 0, ["blue"])])
    assert result["scores"]["red"] == result["scores"]["blue"] == 5
    assert result["winners"] == ["blue"] and result["decided_by"] == "islands"
    assert result["ranking"] == [["blue"], ["red"], ["purple"]]


def test_r13_tie_broken_by_fewest_boats_royal_counts_one():
    """R13: equal scores and islands -> fewest boats on the board; a royal island counts as one boat."""
    result = ended([tonga(), island("Hawaii", (0, 3), 0, ["red"], ["red"], ["red"]),
                    island("Samoa", (3, 0), 0, royal="blue")])
    assert result["scores"]["red"] == result["scores"]["blue"] == 5
    assert result["islands"]["red"] == result["islands"]["blue"] == 1
    assert result["boats"]["red"] == 3 and result["boats"]["blue"] == 1
    assert result["winners"] == ["blue"] and result["decided_by"] == "boats"


def test_r13_full_tie_is_shared():
    """R13: equal on score, islands and boats -> the tied players share the victory."""
    result = ended([tonga(), island("Hawaii", (0, 3), 0, ["red"]), island("Samoa", (3, 0), 0, [], ["blue"])])
    assert result["winners"] == ["red", "blue"] and result["decided_by"] == "shared"
    assert result["ranking"] == [["red", "blue"], ["purple"]]


def test_r13_tonga_scores_zero_but_counts_as_an_island():
    """R13: Tonga scores 0; it is still an island the player is present on for the tie-break."""
    result = ended([tonga(["red"]), island("Tubuai", (3, 0), 0, ["red"], ["blue"])])
    assert result["scores"] == {"red": 2, "blue": 2, "purple": 0}
    assert result["winners"] == ["red"] and result["decided_by"] == "islands"


def test_r13_game_ends_when_one_kind_runs_out():
    """R13: a real game ends exactly when the last island or the last ocean tile has been drawn."""
    game = Game.new(["red", "blue", "green"], seed=4)
    bot = RandomBot(seed=4)
    drawn = []
    while game.to_move is not None:
        drawn += of_type(game.apply(bot.choose(game)), "tile_drawn")
    stack = game.view()["stack"]
    assert stack["islands"] == 0 or stack["oceans"] == 0
    last = drawn[-1]
    assert last["left"]["islands" if last["kind"] == "island" else "oceans"] == 0
    assert all(d["left"]["islands"] > 0 and d["left"]["oceans"] > 0 for d in drawn[:-1])
    assert game.result() is not None


def test_r13_scores_and_tie_breaks_match_a_direct_count_on_random_tables():
    """R13: on random final tables, scores, islands, boats (royal = 1), ranking, winners and the deciding
    criterion are exactly a direct count of the rules."""
    import random

    from server.game.catalogue import TILES

    rng = random.Random(13)
    names = ["Tubuai", "Nauru", "Rarotonga", "Tokelau", "Samoa", "Hawaii", "Oahu", "Tahiti"]
    cells = [(0, 3), (3, 0), (-3, 0), (0, -3), (3, -3), (-3, 3), (2, 2), (-2, -2)]
    players = ("red", "blue", "green")
    decided = set()
    for _ in range(150):
        specs = [tonga([rng.choice(players)] if rng.random() < 0.5 else [])]
        content = {"Tonga": specs[0]["beaches"]}
        royal = {}
        founded = {c: 0 for c in players}
        for name, cell in zip(rng.sample(names, rng.randint(1, 5)), cells, strict=False):
            owner = rng.choice(players)
            if rng.random() < 0.2 and founded[owner] < 2:
                founded[owner] += 1
                royal[name] = owner
                specs.append(island(name, cell, 0, royal=owner))
            else:
                beaches = [[rng.choice(players) for _ in range(rng.randint(0, min(2, b.moorings - 1)))]
                           for b in TILES[name].beaches]
                content[name] = beaches
                specs.append(island(name, cell, 0, *beaches))
        result = ended(specs, colours=(*players, "purple"))
        points = {c: 0 for c in (*players, "purple")}
        isl = dict(points)
        boats = dict(points)
        for name, beaches in content.items():
            present = {c for b in beaches for c in b}
            for c in present:
                points[c] += TILES[name].value
                isl[c] += 1
            for b in beaches:
                for c in b:
                    boats[c] += 1
        for name, owner in royal.items():
            points[owner] += TILES[name].value
            isl[owner] += 1
            boats[owner] += 1
        assert (result["scores"], result["islands"], result["boats"]) == (points, isl, boats)
        rank = {c: (-points[c], -isl[c], boats[c]) for c in points}
        best = min(rank.values())
        assert set(result["winners"]) == {c for c in rank if rank[c] == best}
        flat = [c for group in result["ranking"] for c in group]
        assert sorted(flat) == sorted(points) and [rank[c] for c in flat] == sorted(rank[c] for c in flat)
        for group in result["ranking"]:
            assert len({rank[c] for c in group}) == 1
        top = [c for c in points if points[c] == -best[0]]
        if len(top) == 1:
            expected = "score"
        elif len([c for c in top if isl[c] == -best[1]]) == 1:
            expected = "islands"
        elif len(result["winners"]) == 1:
            expected = "boats"
        else:
            expected = "shared"
        assert result["decided_by"] == expected
        decided.add(expected)
    assert decided == {"score", "islands", "boats", "shared"}, decided

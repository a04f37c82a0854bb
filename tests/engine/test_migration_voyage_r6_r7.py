"""R6 migration and R7 voyage, with the rulebooks' own danger examples (and R2 placement/entry)."""

from __future__ import annotations

from helpers import beaches_of, island, ocean, of_type, one, play, player, position, rejected, tile_at, tonga, types

FIVE = ("red", "green", "yellow", "orange", "purple")


def rulebook_fleet(fourth: str):
    # Tokelau at (0, 1) turned 5: its beach 0 (4 moorings, pier on side 1) points world S toward (0, 2).
    # Yellow (k = 1 on Tokelau) expands there: the beach fills with yellow + `fourth`, orange, green.
    beaches = [[fourth, "orange", "green"], [] if fourth == "yellow" else ["yellow"]]
    game = position([tonga(), island("Tokelau", (0, 1), 5, *beaches)],
                    colours=FIVE, active="yellow", stack=["a", "Samoa"])
    return game, play(game, {"type": "expand", "island": "Tokelau", "beaches": [0]})


def test_r7_rulebook_example_three_colours_sink_on_danger_4():
    """R7 (rulebook example): 2 yellow + orange + green = 3 colours sink on a danger-4 path."""
    game, events = rulebook_fleet("yellow")
    assert types(events) == ["boats_placed", "fleet_departed", "tile_drawn", "tile_placed", "path_followed",
                             "crossing", "sunk", "turn_passed"]
    dep = one(events, "fleet_departed")
    assert sorted(dep["boats"]) == ["green", "orange", "yellow", "yellow"] and dep["colours"] == 3
    assert dep["pier"] == 0 and dep["auto"] is True
    crossing = one(events, "crossing")
    assert (crossing["danger"], crossing["colours"], crossing["passed"]) == (4, 3, False)
    assert sorted(one(events, "sunk")["boats"]) == ["green", "orange", "yellow", "yellow"]
    assert player(game, "yellow")["supply"] == 15 and player(game, "orange")["supply"] == 15
    assert beaches_of(game, "Tokelau")[0] == []
    assert tile_at(game, (0, 2))["tile"] == "a" and tile_at(game, (0, 3)) is None


def test_r7_rulebook_example_four_colours_pass_danger_4():
    """R7 (rulebook example): the same fleet with one yellow replaced by purple has 4 colours and passes."""
    game, events = rulebook_fleet("purple")
    crossing = one(events, "crossing")
    assert (crossing["danger"], crossing["colours"], crossing["passed"]) == (4, 4, True)
    assert not of_type(events, "sunk")
    arrived = one(events, "fleet_arrived")
    assert arrived["island"] == "Samoa" and arrived["cell"] == [0, 3]
    assert game.decision["kind"] == "land" and sorted(game.decision["fleet"]) == ["green", "orange", "purple",
                                                                                   "yellow"]


def two_colour_fleet(colours_on_beach, expand_to, stack):
    game = position([tonga(colours_on_beach)], stack=stack)
    return game, play(game, {"type": "expand", "island": "Tonga", "beaches": expand_to})


def test_r7_two_colours_pass_a_2():
    """R7: danger greater than colours sinks; two colours pass a 2 (danger equal to colours passes)."""
    # ocean i (paths 0-4 danger 2) forced on (0,1) with rotation 3: side 0 faces N, side 4 faces world 1 (SW)
    game, events = two_colour_fleet(["red", "blue"], [0], ["i", "Samoa"])
    path = one(events, "path_followed")
    assert (path["cell"], path["entry"], path["exit"], path["danger"]) == ([0, 1], 3, 1, 2)
    assert one(events, "crossing")["passed"] is True
    assert one(events, "fleet_arrived")["cell"] == [-1, 2]


def test_r7_one_colour_sinks_on_a_2():
    """R7: a one-colour fleet sinks on a danger-2 path."""
    game, events = two_colour_fleet(["red", "red"], [0, 3], ["i", "Samoa"])
    assert (one(events, "crossing")["colours"], one(events, "crossing")["passed"]) == (1, False)
    assert one(events, "sunk")["boats"] == ["red", "red", "red"]
    assert player(game, "red")["supply"] == 15 - 1  # 3 back; 1 still on beach 3 of Tonga
    assert game.to_move == "blue"


def test_r2_forced_placement_rotation_and_entry_through_side_0():
    """R2: a drawn tile goes on the neighbouring cell with ρ = (d + 3) % 6; the fleet enters through side 0."""
    # Tonga beach 1 points SW (d = 1): ocean e goes on (-1, 1) with ρ = 4; its side 0 (path 0-1, danger 3)
    # faces NE (world 4), side 1 faces SE (world 5): the fleet goes on to (0, 1).
    game = position([tonga([], ["blue", "green"], [], ["red"])], colours=("red", "blue", "green"),
                    stack=["e", "Samoa"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [1]})
    placed = of_type(events, "tile_placed")
    assert [(p["tile"], p["cell"], p["rotation"], p["how"]) for p in placed] == [
        ("e", [-1, 1], 4, "forced"), ("Samoa", [0, 1], 2, "forced")]
    path = one(events, "path_followed")
    assert (path["entry"], path["exit"], path["danger"], path["colours"]) == (4, 5, 3, 3)
    assert one(events, "crossing")["passed"] is True
    e = tile_at(game, (-1, 1))
    assert sorted(e["paths"]) == [[0, 1, 2], [2, 3, 4], [4, 5, 3]]  # catalogue sides turned by 4
    # Samoa's side 0 (its red marker) faces back to e: world (0 + 2) % 6 = NW
    assert one(events, "fleet_arrived")["island"] == "Samoa"


def test_r2_enter_existing_tile_through_the_facing_side():
    """R2: a fleet moving into an occupied cell enters through the side facing the tile it came from."""
    # ocean e already on (0, 1) with ρ = 1: world N (3) is its side 2 -> path 2-3 (danger 2) -> side 3 = NE.
    game = position([tonga(["red", "blue"]), ocean("e", (0, 1), 1)], stack=["Samoa"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    path = one(events, "path_followed")
    assert (path["cell"], path["entry"], path["exit"], path["danger"]) == ([0, 1], 3, 4, 2)
    drawn = of_type(events, "tile_drawn")
    assert [d["tile"] for d in drawn] == ["Samoa"], "the occupied cell draws nothing"
    placed = one(events, "tile_placed")
    assert (placed["cell"], placed["rotation"]) == ([1, 0], 1)
    assert tile_at(game, (0, 1))["rotation"] == 1


def test_r6_player_chooses_the_migration_order_among_full_beaches():
    """R6/R9: with several full beaches the active player chooses which goes first; a lone option is auto."""
    game = position([tonga(["red", "red", "blue"], [], [], ["blue", "blue", "red"])], stack=["Samoa", "Hawaii"])
    assert game.decision["kind"] == "migrate" and game.to_move == "red"
    assert game.decision["full"] == [{"island": "Tonga", "beach": 0}, {"island": "Tonga", "beach": 3}]
    assert sorted((a["beach"], a["pier"]) for a in game.legal_actions()) == [(0, 0), (3, 3)]
    rejected(game, {"type": "migrate", "island": "Tonga", "beach": 1, "pier": 1}, "illegal_choice")
    rejected(game, {"type": "migrate", "island": "Tonga", "beach": 0, "pier": 3}, "illegal_choice")
    events = play(game, {"type": "migrate", "island": "Tonga", "beach": 3, "pier": 3})
    dep = one(events, "fleet_departed")
    assert (dep["beach"], dep["auto"], dep["colours"]) == (3, False, 2)
    assert one(events, "tile_placed")["cell"] == [0, -1] and one(events, "tile_placed")["tile"] == "Samoa"
    assert game.decision["kind"] == "land"
    events = play(game, {"type": "land", "boats": [["blue", 0], ["blue", 1], ["red", 2]]})
    dep = one(events, "fleet_departed")
    assert (dep["beach"], dep["auto"]) == (0, True), "the only remaining option is taken by the engine"
    assert one(events, "fleet_arrived")["island"] == "Hawaii"


def test_r6_player_commits_to_a_pier_before_drawing():
    """R6: the migrate action names beach and pier; a beach with two piers offers both."""
    game = position([tonga(["blue"]), island("Tubuai", (0, 3), 0, ["red", "red", "blue"], ["red"])],
                    stack=["Samoa"])
    assert game.decision["kind"] == "migrate"
    assert sorted(a["pier"] for a in game.legal_actions()) == [1, 2]
    left = game.view()["stack"]["islands"] + game.view()["stack"]["oceans"]
    events = play(game, {"type": "migrate", "island": "Tubuai", "beach": 0, "pier": 2})
    assert one(events, "tile_placed")["cell"] == [-1, 3]
    assert one(events, "tile_drawn")["left"]["islands"] + one(events, "tile_drawn")["left"]["oceans"] == left - 1


def test_r2_r7_voyages_match_an_independent_tracer():
    """R2/R7: over many random tables (ocean tiles in every rotation, islands, royal islands), each voyage's
    steps — tiles drawn and their forced rotation, paths followed, danger checks, sinking, turn-back,
    arrival — are exactly what a direct reading of the rules predicts."""
    import random

    from server.game.catalogue import OCEANS, TILES

    offs = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))
    cells = sorted({(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3} - {(0, 0)})
    rng = random.Random(7)
    checked = {"sunk": 0, "arrived": 0, "turned": 0, "drawn": 0}
    for _ in range(300):
        letters = [o.name for o in OCEANS]
        rng.shuffle(letters)
        chosen = rng.sample(cells, rng.randint(0, 12))
        table = {}
        for cell in chosen:
            free_islands = [n for n in ("Samoa", "Hawaii", "Oahu", "Tahiti") if n not in
                            {v[0] for v in table.values()}]
            if rng.random() < 0.7 or not free_islands:
                table[cell] = (letters.pop(), rng.randrange(6), None)
            else:
                table[cell] = (rng.choice(free_islands), rng.randrange(6), "green" if rng.random() < 0.7 else None)
        d = rng.randrange(6)
        pair = [rng.choice(["red", "blue", "green"]), rng.choice(["blue", "green"])]  # red has k = 1
        beaches = [[] for _ in range(6)]
        beaches[d] = pair
        if "red" not in pair:
            beaches[(d + 1) % 6] = ["red"]
        rest = [n for n in TILES if n != "Tonga" and n not in {v[0] for v in table.values()}]
        rng.shuffle(rest)
        stack = rest[:10]
        specs = [tonga(*beaches)] + [
            {"tile": n, "cell": list(c), "rotation": rho, **({"royal": royal} if royal else {})}
            for c, (n, rho, royal) in table.items()]
        game = position(specs, colours=("red", "blue", "green"), stack=stack)
        events = play(game, {"type": "expand", "island": "Tonga", "beaches": [d]})

        # the oracle
        table[(0, 0)] = ("Tonga", 0, None)
        fleet = pair + ["red"]
        colours = len(set(fleet))
        expected = []
        at, direction, drawn = (0, 0), d, list(stack)
        while True:
            nxt = (at[0] + offs[direction][0], at[1] + offs[direction][1])
            if nxt not in table:
                name = drawn.pop(0)
                rho = (direction + 3) % 6
                table[nxt] = (name, rho, None)
                expected.append(("tile_placed", name, list(nxt), rho))
            name, rho, royal = table[nxt]
            tile = TILES[name]
            if hasattr(tile, "beaches"):
                if royal:
                    expected.append(("turned_back", list(nxt)))
                    expected.append(("fleet_arrived", "Tonga"))
                else:
                    expected.append(("fleet_arrived", name))
                break
            entry = (direction + 3) % 6
            side = (entry - rho) % 6
            a, b, danger = next(path for path in tile.paths if side in path[:2])
            out = b if side == a else a
            exit_world = (out + rho) % 6
            expected.append(("path_followed", list(nxt), entry, exit_world, danger))
            if danger > colours:
                expected.append(("sunk", list(nxt)))
                break
            at, direction = nxt, exit_world

        actual = []
        for e in events:
            if e["type"] == "tile_placed":
                actual.append(("tile_placed", e["tile"], e["cell"], e["rotation"]))
            elif e["type"] == "path_followed":
                actual.append(("path_followed", e["cell"], e["entry"], e["exit"], e["danger"]))
                assert e["colours"] == colours
            elif e["type"] == "crossing":
                assert e["passed"] == (e["danger"] <= colours)
            elif e["type"] == "sunk":
                actual.append(("sunk", e["cell"]))
                break
            elif e["type"] == "turned_back":
                actual.append(("turned_back", e["cell"]))
            elif e["type"] == "fleet_arrived":
                actual.append(("fleet_arrived", e["island"]))
                break
        assert actual == expected, (specs, d, stack)
        kinds = {x[0] for x in expected}
        checked["sunk"] += "sunk" in kinds
        checked["turned"] += "turned_back" in kinds
        checked["arrived"] += "fleet_arrived" in kinds
        checked["drawn"] += "tile_placed" in kinds
    assert min(checked.values()) >= 10, checked

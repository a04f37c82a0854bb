"""R5 expand (and R12 short supply during an expansion)."""

from __future__ import annotations

from itertools import combinations

from helpers import beaches_of, island, of_type, one, play, player, position, rejected, tonga, types


def expands(game):
    return [a for a in game.legal_actions() if a["type"] == "expand"]


def test_r5_n_is_min_of_k_beaches_supply_one_boat_per_beach():
    """R5: n = min(k, beaches, supply) new boats, at most one per beach; the player chooses the beaches."""
    game = position([
        tonga(["red"], [], [], ["red"]),                      # k = 2 on Tonga: 2 of 6 beaches
        island("Samoa", (0, 3), 0, ["red", "red"], ["red"], ["red"]),   # k = 4 > 3 beaches: n = 3
        island("Tubuai", (3, 0), 0, ["blue"]),
    ])
    listed = expands(game)
    tonga_sets = sorted(tuple(a["beaches"]) for a in listed if a["island"] == "Tonga")
    assert tonga_sets == list(combinations(range(6), 2))
    assert [a["beaches"] for a in listed if a["island"] == "Samoa"] == [[0, 1, 2]]
    assert not [a for a in listed if a["island"] == "Tubuai"], "no expansion where the player has no boat"
    events = play(game, {"type": "expand", "island": "Samoa", "beaches": [0, 1, 2]})
    placed = one(events, "boats_placed")
    assert placed["reason"] == "expand" and placed["beaches"] == [0, 1, 2]
    assert beaches_of(game, "Samoa") == [["red"] * 3, ["red"] * 2, ["red"] * 2]
    assert player(game, "red")["supply"] == 15 - 6 - 3


def test_r5_n_is_mandatory_and_one_per_beach():
    """R5: exactly n boats, never two on one beach, never on an island without the player's boats."""
    game = position([tonga(["red"], [], [], ["red"]), island("Tubuai", (3, 0), 0, ["blue"])])
    rejected(game, {"type": "expand", "island": "Tonga", "beaches": [1]}, "illegal_choice")
    rejected(game, {"type": "expand", "island": "Tonga", "beaches": [1, 2, 4]}, "illegal_choice")
    rejected(game, {"type": "expand", "island": "Tonga", "beaches": [1, 1]}, "illegal_choice")
    rejected(game, {"type": "expand", "island": "Tubuai", "beaches": [1]}, "illegal_choice")
    rejected(game, {"type": "expand", "island": "Nowhere", "beaches": [1, 2]}, "illegal_choice")


def test_r5_r12_short_supply_places_only_what_the_supply_holds():
    """R5/R12 "not enough boats": with 1 boat in supply and k = 3, n = 1."""
    game = position([island("Samoa", (0, 3), 0, ["red"], ["red"], ["red"]), tonga([], ["blue"])],
                    supplies={"red": 1})
    assert sorted(tuple(a["beaches"]) for a in expands(game)) == [(0,), (1,), (2,)]
    play(game, {"type": "expand", "island": "Samoa", "beaches": [1]})
    assert player(game, "red")["supply"] == 0
    assert beaches_of(game, "Samoa") == [["red"], ["red", "red"], ["red"]]


def fifteen_on_board():
    # red: 2 on each Tonga beach (12) + 3 on Tubuai = 15; supply empty (R5 take-back)
    return position([
        tonga(*[["red", "red"]] * 6),
        island("Tubuai", (3, 0), 0, ["red", "red"], ["red"]),
        island("Samoa", (0, 3), 0, ["blue"]),
    ])


def test_r5_take_back_with_15_on_the_board():
    """R5: supply empty — the player takes back one boat from any beach and expands with exactly that one."""
    game = fifteen_on_board()
    assert player(game, "red")["supply"] == 0 and game.decision["supply"] == 0
    listed = expands(game)
    assert listed and all("take_back" in a and len(a["beaches"]) == 1 for a in listed)
    sources = {(a["take_back"]["island"], a["take_back"]["beach"]) for a in listed}
    assert sources == {("Tonga", b) for b in range(6)} | {("Tubuai", 0), ("Tubuai", 1)}
    # never back onto the beach it came from; never onto an island without the player's boats
    assert not [a for a in listed
                if (a["island"], a["beaches"][0]) == (a["take_back"]["island"], a["take_back"]["beach"])]
    assert {a["island"] for a in listed} == {"Tonga", "Tubuai"}
    assert len(listed) == 8 * 7
    rejected(game, {"type": "expand", "island": "Tonga", "beaches": [0]}, "illegal_choice")
    rejected(game, {"type": "expand", "island": "Tubuai", "beaches": [1],
                    "take_back": {"island": "Samoa", "beach": 0}}, "illegal_choice")
    events = play(game, {"type": "expand", "island": "Tubuai", "beaches": [1],
                         "take_back": {"island": "Tonga", "beach": 0}})
    assert types(events)[:2] == ["boat_taken_back", "boats_placed"]
    back = one(events, "boat_taken_back")
    assert (back["colour"], back["island"], back["beach"]) == ("red", "Tonga", 0)
    assert beaches_of(game, "Tonga")[0] == ["red"]
    assert beaches_of(game, "Tubuai") == [["red", "red"], ["red", "red"]]
    assert player(game, "red")["supply"] == 0 and player(game, "red")["on_board"] == 15
    assert game.to_move == "blue"


def test_r5_full_beach_after_expansion_starts_migration():
    """R5/R6: if a beach is now full, migrations follow in the same turn (before the turn passes)."""
    game = position([tonga(["red", "blue"], [], [], ["blue"])], stack=["Samoa"])
    events = play(game, {"type": "expand", "island": "Tonga", "beaches": [0]})
    t = types(events)
    assert t.index("boats_placed") < t.index("fleet_departed") < t.index("fleet_arrived")
    assert "turn_passed" not in t and game.decision["kind"] == "land" and game.to_move == "red"
    dep = one(events, "fleet_departed")
    assert (dep["island"], dep["beach"], dep["pier"], sorted(dep["boats"])) == ("Tonga", 0, 0, ["blue", "red", "red"])
    events = play(game, {"type": "land", "boats": [["blue", 0], ["red", 1], ["red", 2]]})
    assert types(events) == ["landed", "turn_passed"]
    assert of_type(events, "landed")[0]["island"] == "Samoa"


def test_r4_r5_r10_r11_r12_turn_choices_match_the_rules_on_random_tables():
    """R4/R5/R10/R11/R12: on random tables the engine offers exactly the turn choices the rules define:
    expansions (n = min(k, beaches, supply), one per beach; take-back when the supply is empty), royal
    islands, colonisation, and the special start when the player has no boat on the board."""
    import random
    from itertools import combinations as combos
    from itertools import combinations_with_replacement as multisets

    from server.game.catalogue import TILES

    rng = random.Random(5)
    names = ["Tubuai", "Nauru", "Rarotonga", "Samoa", "Hawaii", "Muroroa"]
    cells = [(0, 3), (3, 0), (-3, 0), (0, -3), (3, -3)]
    players = ("red", "blue", "green")
    kinds = set()
    for _ in range(300):
        me = rng.choice(players)
        specs, content, royal_owner = [], {}, {}
        founded = {c: 0 for c in players}
        for name, cell in [("Tonga", (0, 0)), *zip(rng.sample(names, rng.randint(0, 4)), cells, strict=False)]:
            tile = TILES[name]
            if name != "Tonga" and rng.random() < 0.2:
                owner = rng.choice(players)
                if founded[owner] < 2:
                    founded[owner] += 1
                    royal_owner[name] = owner
                    specs.append({"tile": name, "cell": list(cell), "royal": owner})
                    continue
            beaches = [[rng.choice(players) if rng.random() < 0.6 else me
                        for _ in range(rng.randint(0, b.moorings - 1))] if rng.random() < 0.6 else []
                       for b in tile.beaches]
            content[name] = beaches
            specs.append({"tile": name, "cell": list(cell), "rotation": 0, "beaches": beaches})
        on_board = sum(b.count(me) for bs in content.values() for b in bs)
        if on_board > 15 - founded[me]:
            continue
        top = 15 - on_board - founded[me]
        supply = rng.choice([top, top, 0, min(1, top), min(2, top)])
        given_founded = {me: rng.choice([founded[me], min(2, founded[me] + 1)])}
        game = position(specs, colours=players, active=me, supplies={me: supply}, royal_founded=given_founded)
        expected = [{"type": "colonise"}]
        mine = {n: bs for n, bs in content.items() if any(me in b for b in bs)}
        if mine:
            kind = "turn"
            if supply > 0:
                for n, bs in mine.items():
                    k = sum(b.count(me) for b in bs)
                    count = min(k, len(bs), supply)
                    for chosen in combos(range(len(bs)), count):
                        expected.append({"type": "expand", "island": n, "beaches": list(chosen)})
            else:
                for src, sbs in mine.items():
                    for sb, boats in enumerate(sbs):
                        if me not in boats:
                            continue
                        for n, bs in mine.items():
                            for b in range(len(bs)):
                                if (n, b) != (src, sb):
                                    expected.append({"type": "expand", "island": n, "beaches": [b],
                                                     "take_back": {"island": src, "beach": sb}})
            if given_founded[me] < 2:
                for n, bs in content.items():
                    if n != "Tonga" and {c for b in bs for c in b} == {me}:
                        expected.append({"type": "royal", "island": n})
        else:
            kind = "restart"
            if supply > 0:
                free = [3 - len(b) for b in content["Tonga"]]
                want = min(2, supply, sum(free))
                for pair in multisets(range(6), want):
                    if all(pair.count(b) <= free[b] for b in pair):
                        expected.append({"type": "restart", "tonga": list(pair)})
                for n, bs in content.items():
                    if n != "Tonga":
                        for b, boats in enumerate(bs):
                            if len(boats) < TILES[n].beaches[b].moorings:
                                expected.append({"type": "restart", "island": n, "beach": b})
        assert game.decision["kind"] == kind
        key = lambda a: repr(sorted(a.items()))  # noqa: E731
        assert sorted(game.legal_actions(), key=key) == sorted(expected, key=key), (specs, me, supply)
        kinds.add((kind, supply > 0))
    assert kinds >= {("turn", True), ("turn", False), ("restart", True)}, kinds

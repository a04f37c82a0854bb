"""R8 landing: m >= |B|, m < |B|, overflow chosen by the player, auto-resolution."""

from __future__ import annotations

from collections import Counter

from helpers import beaches_of, island, one, play, player, position, rejected, tonga, types


def per_beach(action):
    return Counter(b for _c, b in action["boats"])


def test_r8_m_at_least_beaches_one_boat_on_each_beach_first():
    """R8.1–2: m >= |B|: every beach with a free mooring gets one boat, the rest go on any free mooring."""
    game = position([tonga(["red", "red", "blue"]), island("Tubuai", (0, 1), 0)], stack=["Samoa"])
    assert game.decision["kind"] == "land" and game.decision["island"] == "Tubuai"
    assert sorted(game.decision["fleet"]) == ["blue", "red", "red"] and game.decision["free"] == [3, 3]
    legal = game.legal_actions()
    assert len(legal) == 4  # beach 0 gets rr, rb (+1 on beach 1) or r, b (+2 on beach 1)
    for a in legal:
        assert set(per_beach(a)) == {0, 1} and len(a["boats"]) == 3
    rejected(game, {"type": "land", "boats": [["red", 0], ["red", 0], ["blue", 0]]}, "illegal_choice")
    rejected(game, {"type": "land", "boats": [["red", 0], ["red", 1]]}, "illegal_choice")  # room for all 3
    events = play(game, {"type": "land", "boats": [["blue", 0], ["red", 1], ["red", 1]]})
    landed = one(events, "landed")
    assert landed["returned"] == [] and landed["auto"] is False
    assert beaches_of(game, "Tubuai") == [["blue"], ["red", "red"]]


def test_r8_m_below_beaches_each_boat_on_a_different_beach():
    """R8.1: m < |B|: each boat goes on a different beach (the player picks which)."""
    # Nauru at the centre turned 5: beach 0 (2 moorings) has piers toward S and SW; Samoa lies S.
    game = position([tonga(cell=(4, -4)), island("Nauru", (0, 0), 5, ["red", "blue"]), island("Samoa", (0, 1))],
                    stack=["a"])
    assert sorted(a["pier"] for a in game.legal_actions()) == [0, 1]
    play(game, {"type": "migrate", "island": "Nauru", "beach": 0, "pier": 0})
    assert game.decision["kind"] == "land" and game.decision["free"] == [3, 4, 5]
    legal = game.legal_actions()
    assert len(legal) == 6
    for a in legal:
        assert len(per_beach(a)) == 2 and max(per_beach(a).values()) == 1
    rejected(game, {"type": "land", "boats": [["blue", 2], ["red", 2]]}, "illegal_choice")


def test_r8_overflow_player_chooses_which_boats_go_back():
    """R8.3: boats that find no free mooring go back to their owners; the active player chooses which."""
    game = position([tonga(["red", "red", "blue"]), island("Tubuai", (0, 1), 0, ["green"] * 2, ["green"] * 2)],
                    colours=("red", "blue", "green"), stack=["p", "o", "n", "m"])
    assert game.decision["kind"] == "land" and game.decision["free"] == [1, 1]
    legal = sorted(sorted(map(tuple, a["boats"])) for a in game.legal_actions())
    assert legal == [[("blue", 0), ("red", 1)], [("blue", 1), ("red", 0)], [("red", 0), ("red", 1)]]
    events = game.apply({"type": "land", "boats": [["red", 0], ["blue", 1]]})  # any order of the pairs
    landed = events[0]
    assert landed["type"] == "landed" and landed["returned"] == ["red"]
    assert player(game, "red")["supply"] == 14
    assert game.decision["kind"] == "migrate", "both Tubuai beaches are now full: the chain goes on (R9)"

    game2 = position([tonga(["red", "red", "blue"]), island("Tubuai", (0, 1), 0, ["green"] * 2, ["green"] * 2)],
                     colours=("red", "blue", "green"), stack=["p", "o", "n", "m"])
    events = play(game2, {"type": "land", "boats": [["red", 0], ["red", 1]]})
    assert events[0]["returned"] == ["blue"] and player(game2, "blue")["supply"] == 15


def test_r8_single_outcome_is_resolved_automatically():
    """R8 / engine contract: when only one landing is possible the engine does it, marked "auto": true."""
    game = position([tonga(cell=(4, -4)), island("Nauru", (0, 0), 5, ["red", "red"]), island("Tubuai", (0, 1))],
                    stack=["a"])
    events = play(game, {"type": "migrate", "island": "Nauru", "beach": 0, "pier": 0})
    assert types(events) == ["fleet_departed", "fleet_arrived", "landed", "turn_passed"]
    landed = one(events, "landed")
    assert landed["auto"] is True and sorted(landed["placements"]) == [["red", 0], ["red", 1]]
    assert beaches_of(game, "Tubuai") == [["red"], ["red"]]


def test_r8_colours_on_a_beach_play_no_part():
    """R8: the colours already on a beach do not restrict where a boat may land."""
    game = position([tonga(["red", "red", "blue"]), island("Tubuai", (0, 1), 0, ["blue", "blue"], ["green"])],
                    colours=("red", "blue", "green"), stack=["p"])
    pairs = {tuple(sorted(map(tuple, a["boats"]))) for a in game.legal_actions()}
    assert (("blue", 0), ("red", 1), ("red", 1)) in pairs
    assert (("blue", 1), ("red", 0), ("red", 1)) in pairs


def brute_force_landings(free, fleet):
    """R8 read literally, by trying every assignment of every boat to a beach or back to its owner."""
    from itertools import product

    m = len(fleet)
    open_beaches = [i for i, f in enumerate(free) if f > 0]
    placed_target = min(m, sum(free))
    out = set()
    for choice in product([None, *open_beaches], repeat=m):
        counts = Counter(c for c in choice if c is not None)
        if any(counts[b] > free[b] for b in counts):
            continue
        if sum(counts.values()) != placed_target:  # 3. only boats finding no free mooring go back
            continue
        if m >= len(open_beaches):
            if any(counts[b] == 0 for b in open_beaches):  # 1. one boat on each beach of B first
                continue
        elif any(n > 1 for n in counts.values()):  # 1. each boat on a different beach
            continue
        per_beach = [[] for _ in free]
        for colour, b in zip(fleet, choice, strict=True):
            if b is not None:
                per_beach[b].append(colour)
        out.add(tuple(tuple(sorted(p)) for p in per_beach))
    return out


def test_r8_landing_enumeration_matches_the_rule_read_literally():
    """R8: the engine's landings are exactly the assignments that R8 allows (checked by brute force)."""
    import random

    from server.game import landing

    rng = random.Random(8)
    for _ in range(250):
        beaches = rng.choice([2, 3, 3, 6])
        free = tuple(rng.randint(0, 5 if beaches < 6 else 3) for _ in range(beaches))
        fleet = tuple(sorted(rng.choice(["red", "blue", "green"]) for _ in range(rng.randint(1, 5))))
        assert set(landing.placements(free, fleet)) == brute_force_landings(free, fleet), (free, fleet)
        assert len(set(landing.placements(free, fleet))) == len(landing.placements(free, fleet))


def test_r8_r9_counting_shortcut_agrees_with_every_landing():
    """R8/R9: the chain searches' shortcut (whether some landing leaves every beach of the island with a
    free mooring, from counts alone) says what listing every landing says, on every island shape."""
    from itertools import product

    from server.game import landing
    from server.game.arrangements import COUNT, code

    checked = 0
    for beaches in (1, 2, 3):
        for free in product(range(6), repeat=beaches):
            for boats in range(1, 6):
                fleet = code(["red", "blue", "green", "red", "blue"][:boats])
                listed = any(
                    not any(added and (added & COUNT) == free[b] for b, added in enumerate(row))
                    for row in landing.landings(free, fleet)
                )
                assert landing.can_avoid_filling(free, boats) == listed, (free, boats)
                checked += 1
    assert checked == 5 * (6 + 36 + 216)


def test_r8_landing_memos_stay_bounded_and_agree_after_forgetting():
    """The landing memos of a long-running process keep at most `MEMO_ENTRIES` entries each (unbounded,
    a server fills them for hours and its memory grows for as long); what they answer after forgetting
    is what they answered before."""
    from itertools import product

    from server.game import landing
    from server.game.arrangements import COUNT, code

    asked = [(free, code(fleet)) for free in product(range(4), repeat=6)
             for fleet in (["red"], ["red", "blue"], ["red", "red", "green"])]
    assert len(asked) > landing.MEMO_ENTRIES   # enough distinct questions to fill every memo
    first = {q: landing.landings(*q) for q in asked[:200]}
    for free, fleet in asked:
        landing.landings(free, fleet)
        landing.landing_set(free, fleet)
        landing.can_avoid_filling(free, fleet & COUNT)
    for memo in (landing._LANDINGS, landing._AVOIDS, landing._SPREADS, landing._ISLAND_LANDINGS):
        assert len(memo) <= landing.MEMO_ENTRIES
    assert landing.landing_set.cache_info().currsize <= landing.MEMO_ENTRIES
    assert all(landing.landings(*q) == found for q, found in first.items())

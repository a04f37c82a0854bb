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

from server.game.game import rules_of

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
    assert len(beaches_of(game, "Tonga")[0]) < 3, "R4: the turn ends only when no beach is full"


# ---------------------------------------------------------------- a frozen island

# Tonga on (0, 0) and Samoa (moorings 3, 4, 5) on (0, 2), every neighbour of both a royal island: every
# fleet from either is turned back to the island it left (R7, R10), over no crossing at all.
ROYAL_RING = [("Muroroa", (0, 1)), ("Nauru", (-1, 1)), ("Tubuai", (-1, 0)), ("Rarotonga", (0, -1)),
              ("Rapa Nui", (1, -1)), ("Tokelau", (1, 0)), ("Tuamotu", (0, 3)), ("Hiva Oa", (-1, 3)),
              ("Mangareva", (-1, 2)), ("Oahu", (1, 1)), ("Tahiti", (1, 2))]
TRIO = ("red", "blue", "green")
FULL_SAMOA = [["red", "blue", "blue"], ["green", "green", "red", "red"], ["blue", "blue", "red", "green", "green"]]


def ringed(tonga_beaches, samoa_beaches, *, open_cell=None):
    """Tonga and Samoa ringed by royal islands (all but the one on `open_cell`)."""
    tiles = [tonga(*tonga_beaches), island("Samoa", (0, 2), 0, *samoa_beaches)]
    for k, (name, cell) in enumerate(ROYAL_RING):
        if cell != open_cell:
            tiles.append(island(name, cell, 0, royal=TRIO[k % 3]))
    return position(tiles, colours=TRIO, stack=["a", "Hawaii"])


def frozen_now(game):
    """The R9 solver's frozen-island test (an R9 shortcut) on the table as it stands."""
    chains = rules_of(game).chains
    chains.next_decision()  # the test moved boats by hand: the solver is told, as the rules tell it
    _topology, arrangement, _full = chains.now()
    return chains.frozen(arrangement)


def test_r9_a_full_island_whose_fleets_all_come_back_is_an_endless_chain():
    """R9: every beach of Samoa is full and every pier turns its fleet back to Samoa (R10): a fleet finds
    room only on the beach it left and lands there again, with the same boats, forever, whatever Tonga
    does. The chain is endless; Samoa goes, and Tonga, whose full beach empties onto its other beaches,
    stays (an independent search agrees)."""
    tonga_beaches = [["red", "red", "blue"], ["blue"], ["green"], [], ["red"], []]
    before = ringed(tonga_beaches, [[]])
    view = before.view()
    for t in view["tiles"]:
        boats = {"Tonga": tonga_beaches, "Samoa": FULL_SAMOA}.get(t["tile"])
        for b, beach in enumerate(t["beaches"] if boats else []):
            beach["boats"] = list(boats[b])
    assert oracle_options(view) == set() and oracle_options.loop_islands() == {"Samoa"}
    game = ringed(tonga_beaches, FULL_SAMOA)
    assert game.view()["removed"] == ["Samoa"]
    assert tile_at(game, (0, 2)) is None and tile_at(game, (0, 0))["tile"] == "Tonga"


def test_r9_frozen_island_shortcut_holds_only_when_nothing_can_end_the_chain():
    """R9: the engine stops a long search as soon as it sees a frozen island (full, every fleet back to
    its own beach); it may only when no other beach could draw a tile or sink a fleet."""
    calm_tonga = [["red"], ["blue"], [], [], [], []]
    assert frozen_now(ringed(calm_tonga, [[]])) is False
    frozen = ringed(calm_tonga, [[]])
    samoa = rules_of(frozen).tiles[(0, 2)]
    samoa.restore([list(boats) for boats in FULL_SAMOA], None)
    assert frozen_now(frozen) is True
    # a free mooring: Samoa's boats can move between its beaches
    samoa.restore([list(boats) for boats in FULL_SAMOA[:2]] + [FULL_SAMOA[2][:-1]], None)
    assert frozen_now(frozen) is False
    # Tonga with a full beach and a pier onto an empty cell (a draw): the chain can still end
    risky = ringed(calm_tonga, [[]], open_cell=(0, -1))
    for cell, boats_of in (((0, 2), FULL_SAMOA), ((0, 0), [["red", "blue", "red"]])):
        t = rules_of(risky).tiles[cell]
        t.restore([list(boats) for boats in boats_of] + t.beaches[len(boats_of):], None)
    assert frozen_now(risky) is False


# ---------------------------------------------------------------- an independent R9 oracle

OFFS = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))


def oracle_options(view):
    """For a migrate decision, the options (island, beach, pier) R9 allows, computed from the public view
    alone: an option is allowed when, after it, the chain can reach a table with no full beach, a draw or a
    sinking without coming back to the current arrangement (the engine's documented finiteness rule)."""
    from test_landing_r8 import brute_force_landings

    tiles = {tuple(t["cell"]): t for t in view["tiles"]}
    islands = {t["tile"]: t for t in view["tiles"] if t["kind"] == "island" and t["royal"] is None}

    def trace(cell, d):
        danger, at = 0, cell
        while True:
            nxt = (at[0] + OFFS[d][0], at[1] + OFFS[d][1])
            t = tiles.get(nxt)
            if t is None:
                return danger, None
            if t["kind"] == "island":
                return danger, (tiles[cell]["tile"] if t["royal"] else t["tile"])
            entry = (d + 3) % 6
            for a, b, k in t["paths"]:
                if entry in (a, b):
                    d, danger, at = (b if entry == a else a), max(danger, k), nxt
                    break

    start = {(n, i): tuple(sorted(b["boats"])) for n, t in islands.items() for i, b in enumerate(t["beaches"])}
    moor = {(n, i): b["moorings"] for n, t in islands.items() for i, b in enumerate(t["beaches"])}

    def key(state):
        return tuple(sorted(state.items()))

    def moves(state):
        """(option, outcome) pairs: outcome is 'escape' or a list of next states."""
        for (n, i), boats in sorted(state.items()):
            if len(boats) != moor[(n, i)]:
                continue
            cell = tuple(islands[n]["cell"])
            for pier in islands[n]["beaches"][i]["piers"]:
                danger, target = trace(cell, pier)
                if target is None or danger > len(set(boats)):
                    yield (n, i, pier), "escape", None
                    continue
                left = dict(state)
                left[(n, i)] = ()
                free = [moor[(target, j)] - len(left[(target, j)]) for j in range(len(islands[target]["beaches"]))]
                nexts = []
                for placement in brute_force_landings(tuple(free), boats):
                    new = dict(left)
                    for j, added in enumerate(placement):
                        new[(target, j)] = tuple(sorted(left[(target, j)] + added))
                    nexts.append(new)
                yield (n, i, pier), nexts, target

    def full(state):
        return any(len(b) == moor[k] for k, b in state.items())

    def escapes(state, forbidden):
        seen, todo = {key(state)}, [state]
        while todo:
            s = todo.pop()
            if not full(s):
                return True
            for _option, outcome, _target in moves(s):
                if outcome == "escape":
                    return True
                for nxt in outcome:
                    k = key(nxt)
                    if k not in seen and k not in forbidden:
                        seen.add(k)
                        todo.append(nxt)
        return False

    forbidden = {key(start)}
    allowed = set()
    for option, outcome, _target in moves(start):
        if outcome == "escape" or any(key(n) not in forbidden and escapes(n, forbidden) for n in outcome):
            allowed.add(option)
    oracle_options.last = (start, key, escapes, full, forbidden)  # for the landing check

    def loop_islands():
        """The documented R9 removal: islands whose fleets sail and land inside the bottom strongly
        connected components of the arrangement graph reachable from here."""
        index, graph, todo = {key(start): start}, {}, [start]
        while todo:
            s = todo.pop()
            graph[key(s)] = []
            for (n, _i, _pier), outcome, target in moves(s):
                for nxt in outcome:
                    k = key(nxt)
                    graph[key(s)].append((k, n, target))
                    if k not in index:
                        index[k] = nxt
                        todo.append(nxt)
        reach = {}
        for k in graph:  # the set reachable from each arrangement (small graphs)
            seen, stack = {k}, [k]
            while stack:
                for nxt, _n, _t in graph[stack.pop()]:
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
            reach[k] = seen
        out = set()
        for k in graph:
            scc = {m for m in reach[k] if k in reach[m]}
            if all(nxt in scc for m in scc for nxt, _n, _t in graph[m]):  # bottom
                for m in scc:
                    for _nxt, n, target in graph[m]:
                        out |= {n, target}
        return out

    oracle_options.loop_islands = loop_islands
    return allowed


def check_landings(game, view):
    """For each legal migration that reaches a landing decision, compare the legal landings with the
    oracle: a landing is allowed when it leaves no beach full or the chain can still end from it without
    returning to an arrangement already seen; when none is, all are (R9 then removes islands)."""
    start, key, escapes, full, forbidden = oracle_options.last
    checked = 0
    for action in game.legal_actions():
        g = game.clone()
        g.apply(action)
        if g.decision is None or g.decision["kind"] != "land":
            continue
        target = g.decision["island"]
        state = dict(start)
        state[(action["island"], action["beach"])] = ()
        allowed, every = set(), set()
        for a in g.legal_actions() + [x for x in _all_landings(g) if x not in g.legal_actions()]:
            new = dict(state)
            for colour, b in a["boats"]:
                new[(target, b)] = tuple(sorted(new[(target, b)] + (colour,)))
            pairs = tuple(sorted(map(tuple, a["boats"])))
            every.add(pairs)
            if not full(new) or (key(new) not in forbidden and escapes(new, forbidden)):
                allowed.add(pairs)
        engine = {tuple(sorted(map(tuple, a["boats"]))) for a in g.legal_actions()}
        assert engine == (allowed or every), (start, action, engine, allowed)
        checked += 1
    return checked


def _all_landings(game):
    from server.game import landing

    fleet = tuple(sorted(game.decision["fleet"]))
    out = []
    for placement in landing.placements(tuple(game.decision["free"]), fleet):
        out.append({"type": "land", "boats": sorted([c, b] for b, added in enumerate(placement) for c in added)})
    return out


def test_r9_engine_matches_an_independent_oracle_around_a_looped_island():
    """R9: over many positions around the looped Tubuai (with a feeding island), the engine's legal
    migrations are exactly those an independent search allows; when none is, the engine removes islands."""
    import random

    rng = random.Random(9)
    compared = endless_seen = landings = fed = 0
    for _ in range(400):
        def boats(n):
            return [rng.choice(["red", "blue", "green"]) for _ in range(n)]

        tub = [boats(rng.randint(0, 3)), boats(rng.randint(0, 3))]
        rar = [boats(rng.randint(0, 3)), boats(rng.randint(0, 4))]
        feeder = rng.choice(["Rarotonga", "Tonga", None])
        ton = [boats(rng.randint(0, 3 if b == 0 else 2)) for b in range(6)]
        if feeder == "Tonga":
            ton[1] = ton[1] or ["red"]
        if not any(len(b) == 3 for b in tub) and not (
            (feeder == "Rarotonga" and (len(rar[0]) == 3 or len(rar[1]) == 4))
            or (feeder == "Tonga" and len(ton[0]) == 3)
        ):
            continue
        if feeder == "Tonga":  # Tonga just N of Tubuai: its beach 0 sails S onto Tubuai
            tiles = [tonga(*ton, cell=(4, -1)), loop_island(*tub), *RING]
            empty = [tonga(["red"], cell=(4, -1)), loop_island(), *RING]
        else:
            tiles = [tonga(["red"], cell=(-3, 0)), loop_island(*tub), *RING]
            empty = [tonga(["red"], cell=(-3, 0)), loop_island(), *RING]
        if feeder == "Rarotonga":
            tiles.append(island("Rarotonga", (4, -1), 3, *rar))
            empty.append(island("Rarotonga", (4, -1), 3))
        # the oracle sees the table before the engine resolves anything
        view = position(empty, colours=("red", "blue", "green")).view()
        for t in view["tiles"]:
            contents = {"Tubuai": tub, "Rarotonga": rar, "Tonga": ton if feeder == "Tonga" else None}.get(t["tile"])
            for b, beach in enumerate(t.get("beaches", []) if contents else []):
                beach["boats"] = list(contents[b])
        expected = oracle_options(view)
        game = position(tiles, colours=("red", "blue", "green"), stack=["a", "Samoa"])
        if not expected:
            assert sorted(game.view()["removed"]) == sorted(oracle_options.loop_islands()), (tub, rar)
            endless_seen += 1
            fed += feeder == "Tonga" and len(ton[0]) == 3
            continue
        assert not game.view()["removed"], (tub, rar, expected)
        if len(expected) > 1:
            assert game.decision["kind"] == "migrate"
            engine = {(a["island"], a["beach"], a["pier"]) for a in game.legal_actions()}
            assert engine == expected, (tub, rar, engine, expected)
            compared += 1
            landings += check_landings(game, view)
    assert compared > 100 and endless_seen > 5 and landings > 20 and fed > 3, (compared, endless_seen, landings, fed)


def test_r9_every_turn_ends_whatever_the_player_chooses_around_a_loop():
    """R9: every turn ends in finitely many steps whatever the players choose, even where voyages loop."""
    import random

    rng = random.Random(99)
    ended_turns = 0
    for _ in range(150):
        def boats(n):
            return [rng.choice(["red", "blue", "green"]) for _ in range(n)]

        tiles = [tonga(["red"], cell=(-3, 0)), loop_island(boats(rng.randint(0, 3)), boats(rng.randint(0, 3))),
                 *RING, island("Rarotonga", (4, -1), 3, boats(rng.randint(0, 3)), boats(rng.randint(0, 4)))]
        game = position(tiles, colours=("red", "blue", "green"), stack=["a", "Samoa", "b", "Hawaii"])
        turn = game.view()["turn"]
        for _step in range(200):
            if game.to_move is None or (game.view()["turn"] != turn):
                break
            if game.decision["kind"] in ("turn", "restart"):
                if _step:
                    break
                actions = [a for a in game.legal_actions() if a["type"] == "expand"] or game.legal_actions()
            else:
                actions = game.legal_actions()
            game.apply(rng.choice(actions))
        else:
            raise AssertionError(f"turn did not end: {tiles}")
        ended_turns += 1
    assert ended_turns == 150

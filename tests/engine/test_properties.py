"""Invariants over many random legal games (hypothesis): R1 conservation, R6 capacity, R4/R9 turns end,
R15 secrecy, determinism, persistence, and agreement between listing, sampling and validation."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.game import BOATS, COLOURS, Game, IllegalAction
from server.game.game import rules_of

GAME_SETUPS = st.tuples(
    st.integers(min_value=2, max_value=6),
    st.booleans(),  # free follow-up tiles (R14)
    st.booleans(),  # two colours each (R14, four colours)
    st.integers(min_value=0, max_value=2**32 - 1),
)
MAX_DECISIONS = 3000


def new_game(players: int, follow_up: bool, two_colours: bool, seed: int) -> Game:
    colours = list(COLOURS[:4] if two_colours else COLOURS[:players])
    return Game.new(colours, seed=seed, variants={"free_follow_up": follow_up, "two_colours": two_colours})


def boats_of(game: Game, colour: str) -> int:
    """Every boat of the colour: supply, beaches, royal masks, at sea, in a fleet under way (R1)."""
    table = rules_of(game)
    islands = [t for t in table.tiles.values() if t.island is not None]
    on_beaches = sum(b.count(colour) for t in islands for b in t.beaches)
    royal = sum(1 for t in islands if t.royal == colour)
    at_sea = sum(boats.count(colour) for _cell, boats in table.at_sea)
    sailing = table.fleet.boats.count(colour) if table.fleet else 0
    return table.supply[colour] + on_beaches + royal + at_sea + sailing


def assert_table_sound(game: Game) -> None:
    for colour in game.colours:
        assert boats_of(game, colour) == BOATS, colour
    full = []
    for t in rules_of(game).tiles.values():
        if t.island is not None:
            for b, (boats, beach) in enumerate(zip(t.beaches, t.island.beaches, strict=True)):
                assert len(boats) <= beach.moorings, t.name  # R6: never over capacity
                if len(boats) == beach.moorings:
                    full.append((t.name, b))
    if game.decision and game.decision["kind"] in ("turn", "restart"):
        assert not full, f"a turn starts with full beaches {full} (R4, R9)"


def play(game: Game, rng: random.Random, check: Any = None) -> int:
    decisions = 0
    table = rules_of(game)
    turn, decisions_this_turn = table.turn, 0
    while game.to_move is not None:
        action = game.sample_action(rng)
        game.apply(action, colour=game.to_move)
        decisions += 1
        decisions_this_turn = decisions_this_turn + 1 if table.turn == turn else 0
        turn = table.turn
        assert decisions_this_turn < 500, "a turn that does not end (R4)"
        assert decisions < MAX_DECISIONS, "a game that does not end (R13)"
        if check:
            check(game)
    return decisions


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAME_SETUPS)
def test_r1_r6_boats_conserved_no_beach_over_capacity_every_turn_and_game_ends(
    setup: tuple[int, bool, bool, int],
) -> None:
    """R1 every colour always has 15 boats; R6 no beach over its moorings; R4/R9 no beach full when a
    turn starts; R13 every game ends."""
    game = new_game(*setup)
    play(game, random.Random(setup[3]), assert_table_sound)
    result = game.result()
    assert result is not None and game.legal_actions() == []
    assert sorted(c for group in result["ranking"] for c in group) == sorted(game.colours)


def near_misses(action: dict[str, Any], game: Game) -> list[Any]:
    """Actions that look like `action` but are not listed (or malformed)."""
    misses: list[Any] = [None, [], "colonise", {"type": "fly"}, {**action, "extra": 1}]
    for field, value in action.items():
        if isinstance(value, int) and not isinstance(value, bool):
            misses += [{**action, field: value + 7}, {**action, field: -1}, {**action, field: True}]
        if isinstance(value, str) and field != "type":
            misses += [{**action, field: "Atlantis"}, {**action, field: 3}]
        if isinstance(value, list):
            misses += [{**action, field: value + value}, {**action, field: []}, {**action, field: "x"}]
    other = [c for c in COLOURS if c not in game.colours][:1]
    if action["type"] == "land" and other:
        misses.append({"type": "land", "boats": [[other[0], 0]]})
    return misses


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAME_SETUPS)
def test_listed_actions_apply_and_unlisted_are_rejected_without_change(setup: tuple[int, bool, bool, int]) -> None:
    """Every listed legal action applies; anything not listed raises IllegalAction and changes nothing."""
    game = new_game(*setup)
    rng = random.Random(setup[3])
    while game.to_move is not None:
        legal = game.legal_actions()
        assert legal, "a pending decision with no legal action"
        keys = {json.dumps(a, sort_keys=True) for a in legal}
        assert len(keys) == len(legal), "duplicate legal actions"
        for action in rng.sample(legal, min(3, len(legal))):
            game.clone().apply(action)
        before = game.to_bytes()
        for miss in near_misses(rng.choice(legal), game):
            if json.dumps(miss, sort_keys=True, default=str) in keys:
                continue
            try:
                game.apply(miss)
            except IllegalAction as error:
                assert error.code in IllegalAction.CODES
            else:
                raise AssertionError(f"unlisted action {miss!r} was applied in {game.decision}")
            assert game.to_bytes() == before, f"rejected {miss!r} changed the game"
        other = next(c for c in game.colours if c != game.to_move)
        try:
            game.apply(legal[0], colour=other)
            raise AssertionError("an action for another seat was applied")
        except IllegalAction as error:
            assert error.code == "wrong_player"
        assert game.to_bytes() == before
        game.apply(rng.choice(legal))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAME_SETUPS)
def test_r15_views_and_events_never_reveal_the_stack(setup: tuple[int, bool, bool, int]) -> None:
    """R15: the view is a function of the public table only (a copy with the unseen stack reshuffled
    shows the same view), and no event names a tile before it is drawn."""
    game = new_game(*setup)
    table = rules_of(game)
    rng = random.Random(setup[3])
    while game.to_move is not None:
        imagined = game.imagine(rng.randrange(2**31))
        assert imagined.view() == game.view()
        unseen = rules_of(imagined).stack
        assert unseen != table.stack or len(table.stack) < 2 or sorted(unseen) == sorted(table.stack)
        public = set(table.where) | set(table.removed) | ({table.in_hand} if table.in_hand else set())
        events = game.apply(game.sample_action(rng))
        seen_now = set(table.where) | set(table.removed) | ({table.in_hand} if table.in_hand else set())
        text = json.dumps(events)
        for name in table.stack:
            assert json.dumps(name) not in text or name in public | seen_now, name
        assert str(table.seed) not in json.dumps(game.view()) or table.seed < 1000


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAME_SETUPS)
def test_same_seed_and_actions_same_game_and_bytes_round_trip(setup: tuple[int, bool, bool, int]) -> None:
    """Determinism from the seed; lossless to_bytes/from_bytes at every decision; replay of the log."""
    players, follow_up, two_colours, seed = setup
    game = new_game(*setup)
    rng = random.Random(seed)
    while game.to_move is not None:
        copy = Game.from_bytes(game.to_bytes())
        assert copy.to_bytes() == game.to_bytes()
        assert copy.view() == game.view()
        assert copy.legal_actions() == game.legal_actions()
        game.apply(game.sample_action(rng))
    variants = {"free_follow_up": follow_up, "two_colours": two_colours}
    replayed = Game.replay(game.colours, seed, game.log, variants=variants)
    assert replayed.to_bytes() == game.to_bytes()
    assert replayed.result() == game.result()


def test_thousands_of_random_games_hold_the_invariants() -> None:
    """Many more games, cheaply: conservation at the end of each turn and every game ends (R1, R13)."""
    games = 0
    for seed in range(1000):
        players = 2 + seed % 5
        game = new_game(players, seed % 2 == 1, seed % 11 == 0, seed)
        rng = random.Random(seed)
        table = rules_of(game)
        turn = table.turn
        while game.to_move is not None:
            game.apply(game.sample_action(rng))
            if table.turn != turn:
                turn = table.turn
                for colour in game.colours:
                    assert boats_of(game, colour) == BOATS
        assert game.result() is not None
        games += 1
    assert games == 1000


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAME_SETUPS)
def test_sampled_actions_are_always_listed(setup: tuple[int, bool, bool, int]) -> None:
    """`sample_action` (which never lists) only ever returns an action `legal_actions` lists."""
    game = new_game(*setup)
    rng = random.Random(setup[3])
    while game.to_move is not None:
        fresh = Game.from_bytes(game.to_bytes())  # nothing cached: the sampler takes its own path
        sampled = fresh.sample_action(random.Random(rng.random()))
        assert sampled in game.legal_actions(), (sampled, game.decision)
        game.apply(sampled)


SAMPLED_TURNS = {
    # R5 expansions, R10, R11: C(6,2) on Tonga, 3 on Hawaii, royal Hawaii, colonise
    "turn": ([["red", "red"], ["blue"], [], [], [], []], [["red"], [], []], 15 + 3 + 1 + 1),
    # R5 with all 15 red boats on the board: 8 beaches to take one back from, each to any of the 8 other
    # beaches with a free mooring; royal Hawaii; colonise
    "take_back": (
        [["red", "red"], ["red", "red"], ["red", "red"], ["red", "red"], ["red", "red"], ["red", "blue"]],
        [["red", "red"], ["red", "red"], []],
        8 * 8 + 1 + 1,
    ),
    # R12 with no red boat on the board: 2 on Tonga (C(6,2) + 5 beaches taking both), 1 on Hawaii, colonise
    "restart": ([["blue", "blue"], ["blue"], [], [], [], []], [["blue"], [], []], 15 + 5 + 3 + 1),
}


@pytest.mark.parametrize("kind", sorted(SAMPLED_TURNS))
def test_sampling_is_uniform_over_the_legal_actions(kind: str) -> None:
    """Every legal action of a turn is drawn, each about equally often: the sampler counts the options
    of R5 (with and without a take-back), R10, R11 and R12 instead of listing them."""
    tonga_beaches, hawaii_beaches, expected = SAMPLED_TURNS[kind]
    game = Game.from_position(
        {
            "colours": ["red", "blue"],
            "active": "red",
            "tiles": [
                {"tile": "Tonga", "cell": [0, 0], "beaches": tonga_beaches},
                {"tile": "c", "cell": [0, 1], "rotation": 3},
                {"tile": "Hawaii", "cell": [0, 2], "rotation": 3, "beaches": hawaii_beaches},
            ],
        }
    )
    assert game.decision["kind"] == ("restart" if kind == "restart" else "turn")
    legal = [json.dumps(a, sort_keys=True) for a in game.legal_actions()]
    assert len(legal) == expected
    counts = dict.fromkeys(legal, 0)
    rng = random.Random(7)
    draws = 200 * len(legal)
    for _ in range(draws):
        counts[json.dumps(Game.from_bytes(game.to_bytes()).sample_action(rng), sort_keys=True)] += 1
    assert set(counts) == set(legal)
    assert all(120 <= n <= 280 for n in counts.values()), counts

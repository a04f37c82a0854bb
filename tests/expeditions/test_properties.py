"""Invariants over thousands of random legal Expeditions games (2-6 players): E1 every boat accounted for,
E7 every turn finite, E11 over by turn 10, E3/R15 secrecy of pending orders and the deck, persistence and
replay, and bots' orders always legal."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.game.expeditions import COLOURS, Expeditions, event_from_wire
from server.game.expeditions.bots import GreedyBot, RandomBot

GAMES = st.tuples(st.integers(min_value=2, max_value=6), st.integers(min_value=0, max_value=2**63))


def without_order_marks(view: dict) -> str:
    return json.dumps({**view, "players": [{**p, "submitted": None} for p in view["players"]]}, sort_keys=True)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_random_games_conserve_boats_end_by_turn_ten_and_keep_secrets(setup: tuple[int, int]) -> None:
    players, seed = setup
    game = Expeditions.new(list(COLOURS[:players]), seed)
    bot = RandomBot(seed)
    rng = random.Random(seed)
    turns = 0
    while game.over is None:
        public = without_order_marks(game.view())
        watcher = rng.choice(game.colours)
        seen = without_order_marks({**game.view(watcher), "order": None})
        deck_before = list(game.deck)
        for colour in game.colours:
            if rng.random() < 0.9:
                game.submit(colour, bot.choose(game, colour).to_wire())
        # E3: nobody else sees an order before resolution, only that it is in
        assert without_order_marks(game.view()) == public
        # ... not even a player: apart from their own order, their view is as before the others submitted
        assert without_order_marks({**game.view(watcher), "order": None}) == seen
        assert game.view(watcher)["order"] == (game.pending[watcher].to_wire() if watcher in game.pending else None)
        # R15: the view does not depend on the deck's order or the random state
        if turns % 4 == 0:
            assert game.imagine(seed + 1).view() == game.view()
        events = game.resolve()
        turns += 1
        assert turns <= 10 and (game.over is not None or game.turn == turns + 1)
        # E8/R15: tiles appear in events in deck order, only as they are placed
        placed = [e.tile for e in events if e.kind == "tile_placed"]
        assert placed == deck_before[: len(placed)]
        unseen = set(deck_before[len(placed) :]) - {e.tile for e in events if e.kind in ("typhoon", "typhoon_drawn")}
        text = json.dumps([e.to_wire() for e in events])
        assert not any(f'"{t}"' in text for t in unseen)
        assert [event_from_wire(e.to_wire()) for e in events] == events
        for colour in game.colours:  # E1: 15 boats each, supply + beaches + at sea
            assert game.supply[colour] >= 0 and game.supply[colour] + game.on_map(colour) == 15
    assert game.result() is not None and game.turn <= 10
    assert Expeditions.from_bytes(game.to_bytes()).to_bytes() == game.to_bytes()
    assert Expeditions.replay(game.colours, seed, game.log).to_bytes() == game.to_bytes()


@settings(max_examples=40, deadline=None)
@given(GAMES)
def test_greedy_bot_orders_are_legal_and_persistence_mid_game(setup: tuple[int, int]) -> None:
    players, seed = setup
    game = Expeditions.new(list(COLOURS[:players]), seed)
    bots = {c: (GreedyBot(seed + i) if i % 2 else RandomBot(seed + i)) for i, c in enumerate(game.colours)}
    while game.over is None:
        for colour in game.colours:
            game.submit(colour, bots[colour].choose(game, colour))  # submit checks: raises if illegal
        copy = Expeditions.from_bytes(game.to_bytes())
        assert [e.to_wire() for e in copy.resolve()] == [e.to_wire() for e in game.resolve()]

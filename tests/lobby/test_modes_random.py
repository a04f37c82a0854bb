"""Random games of every game mode played through the contract the authority uses (server/lobby/mode.py) and
nothing else, as OpenSpiel's random simulation test does for its games: each decision is a random bot's
(`GameMode.bot_action`, level "random"), and at every step the contract's promises are checked — the game
stored and loaded again is the same game, a nonsense action is refused and changes nothing, the public view
carries no legal actions (R15, E3), a deciding colour has its private payload, and every game ends with a
result. A mode with simultaneous orders also has some of its rounds closed by the deadline."""

from __future__ import annotations

import random
import zlib

import msgpack
import pytest

from server import patch
from server.lobby.mode import WITHDRAW, GameMode, Illegal, LiveGame
from server.lobby.modes import MODES
from server.lobby.settings import Settings
from server.records import logged

STEPS = 3000
"""More decisions than a game of either mode takes (random 6-colour Tongiaki games: about a hundred)."""


def settings(mode: GameMode, seats: int) -> Settings:
    payload = {"name": "random play", "seats": seats, "game": mode.name}
    if mode.simultaneous:
        payload["clock"] = 30   # a deadline is required
    return Settings.from_wire(payload, MODES)


def same(a: LiveGame, b: LiveGame) -> bool:
    return a.deciding == b.deciding and a.round == b.round and a.public_view() == b.public_view()


def play(mode: GameMode, seats: int, seed: int) -> list[list[dict]]:
    """One random game of `mode` for `seats` seats, checked at every step; the events of every step."""
    rng = random.Random(seed)
    game = mode.new(settings(mode, seats), seed)
    history: list[list[dict]] = []
    for step in range(STEPS):
        deciding = game.deciding
        if not deciding:
            break
        view = game.public_view()
        assert "legal" not in view   # legal actions go to their seat only
        assert msgpack.unpackb(msgpack.packb(view), raw=False) == view   # plain data
        for colour in deciding:
            assert game.private(colour) is not None, (mode.name, step, colour)
        state = game.to_bytes()
        if step % 7 == 0:   # stored and loaded again: the same game (checked every few steps: it costs)
            assert same(mode.load(state), game)
            with pytest.raises(Illegal):
                game.apply({"type": "nonsense"}, deciding[0])
            assert game.to_bytes() == state and game.deciding == deciding   # refused: unchanged
        if mode.simultaneous and len(deciding) < seats and rng.random() < 0.2:
            events = game.deadline()   # the round closes with the orders in
        else:
            colour = rng.choice(deciding)
            action = mode.bot_action(state, colour, "random", rng.getrandbits(32))
            events = game.apply(action, colour)
        assert isinstance(events, list) and all(isinstance(e, dict) and "type" in e for e in events)
        history.append(events)
    else:
        pytest.fail(f"{mode.name}: no end after {STEPS} decisions")
    assert game.deciding == () and game.public_view().get("result")
    for colour in settings(mode, seats).colours():
        with pytest.raises(Illegal):
            game.apply({"type": "nonsense"}, colour)   # over: nothing more is played
    with pytest.raises(Illegal):
        game.deadline()
    return history


@pytest.mark.parametrize("seats", range(2, 7))
@pytest.mark.parametrize("name", sorted(MODES))
def test_random_games_through_the_mode_contract(name: str, seats: int) -> None:
    for seed in range(3):
        play(MODES[name], seats, 100 * seats + seed)


def test_a_mode_without_deadlines_refuses_one() -> None:
    game = MODES["tongiaki"].new(settings(MODES["tongiaki"], 3), 1)
    state = game.to_bytes()
    with pytest.raises(Illegal):
        game.deadline()   # its clock has a bot decide for the late seat instead
    assert game.to_bytes() == state


@pytest.mark.parametrize("name", sorted(MODES))
def test_the_same_seed_plays_the_same_game(name: str) -> None:
    assert play(MODES[name], 3, 11) == play(MODES[name], 3, 11)


def recorded(mode: GameMode, seats: int, seed: int) -> tuple[list[bytes], list[dict], list[dict]]:
    """One random game of `mode` played as the authority plays it, orders replaced and withdrawn now and then
    in a mode with simultaneous orders: its stored state at every version, its action log (`records.logged`
    lines) and every message the table received, `{v, events, patch}` from v = 0."""
    rng = random.Random(seed)
    game = mode.new(settings(mode, seats), seed)
    before = game.public_view()
    messages, lines = [{"v": 0, "events": [], "patch": patch.diff(None, before)}], []
    states = [game.to_bytes()]
    while game.deciding:
        waiting = [c for c in settings(mode, seats).colours() if c not in game.deciding]
        choice = rng.random()
        if mode.simultaneous and waiting and choice < 0.05:
            events, colour, action = game.deadline(), None, None
        elif mode.simultaneous and waiting and choice < 0.3:
            colour, action = rng.choice(waiting), dict(WITHDRAW)
            events = game.apply(action, colour)
        else:
            # in a mode with simultaneous orders, one in may be replaced (E3)
            colour = rng.choice(list(game.deciding) + waiting * (choice < 0.5))
            action = mode.bot_action(game.to_bytes(), colour, "random", rng.getrandbits(32))
            try:
                events = game.apply(action, colour)
            except Illegal:   # too many changes this turn: the order in stands
                continue
        after = game.public_view()
        v = len(messages)
        messages.append({"v": v, "events": events, "patch": patch.diff(before, after)})
        kept = None if action is None else mode.logged(action)
        lines.append(logged(v, colour, kept, "p_x", "person", 0.0, mode.drawn(events)))
        before = after
        states.append(game.to_bytes())
    return states, lines, messages


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_an_expeditions_replay_is_every_message_however_long_the_game(seats: int) -> None:
    """The mode rebuilds its replay from the stored game and the action log: every message the table
    received, the whole game long; and a game still being played, through the turns resolved only (a line
    of the open turn is its seat's secret)."""
    mode = MODES["expeditions"]
    lengths = []
    for seed in range(3):
        states, lines, messages = recorded(mode, seats, 1000 * seats + seed)
        assert mode.frames(states[-1], lines) == messages
        ends = [v for v, m in enumerate(messages) if any(e["type"] == "orders" for e in m["events"])]
        lengths.append(len(messages))
        if len(ends) < 4:
            continue
        # mid-game, turn 4 open with orders in: the replay goes through turn 3's resolution, not a line further
        v = ends[3] - 1
        assert v > ends[2] and any(p["submitted"] for p in mode.load(states[v]).public_view()["players"])
        assert mode.frames(states[v], lines[:v]) == messages[:ends[2] + 1]
    assert max(lengths) > 15 * seats, lengths   # long games: replacements, withdrawals, several turns
    assert MODES["tongiaki"].frames(states[-1], lines) is None   # rebuilt from the record's actions instead


def test_the_longest_expeditions_games_replay_stays_small() -> None:
    """Ten turns of six seats, five of them changing their order eleven times a turn (E3; the mode allows
    twelve): every message is rebuilt, and the frames a record keeps stay a few kilobytes deflated."""
    mode = MODES["expeditions"]
    rng = random.Random(1)
    game = mode.new(settings(mode, 6), 1)
    before = game.public_view()
    messages, lines = [{"v": 0, "events": [], "patch": patch.diff(None, before)}], []
    while game.deciding:
        turn = game.round
        for colour in settings(mode, 6).colours():   # order, withdraw, …, order: the last seat's first resolves
            for k in range(11):
                if game.round != turn or not game.deciding:
                    break
                action = dict(WITHDRAW) if k % 2 else mode.bot_action(game.to_bytes(), colour, "random",
                                                                      rng.getrandbits(32))
                events = game.apply(action, colour)
                after = game.public_view()
                messages.append({"v": len(messages), "events": events, "patch": patch.diff(before, after)})
                lines.append(logged(len(lines) + 1, colour, mode.logged(action), "p_x", "person", 0.0, []))
                before = after
    assert before["turn"] == 10 and len(messages) > 500
    frames = mode.frames(game.to_bytes(), lines)
    assert frames == messages
    assert len(zlib.compress(msgpack.packb(frames), 9)) < 16_000

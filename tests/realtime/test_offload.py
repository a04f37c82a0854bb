"""Long engine steps leave the event loop (server/lobby/offload.py): the step of the 6-colour game
seed 4059 whose R9 search exhausts an endless chain (RULES.md R9) runs in the engine worker while the loop
goes on serving, and gives exactly what the same step gives on the loop; short steps stay on the loop
with their live game; an illegal action is refused the same way from either place."""

from __future__ import annotations

import asyncio
import time

import pytest

from server.game import Game
from server.game.bots import RandomBot
from server.lobby.mode import Illegal
from server.lobby.modes import MODES
from server.lobby.offload import Offload, TooLong, _public_stored, _step_stored, take_step

SIX = ["red", "blue", "green", "yellow", "orange", "purple"]
TONGIAKI = MODES["tongiaki"]


def slowest_step() -> tuple[bytes, str, dict, float]:
    """The state before the slowest step of the random game seed 4059 (6 colours), its action, and the
    seconds that step takes on a game rebuilt from the state."""
    game, bot = Game.new(SIX, seed=4059), RandomBot(4059)
    worst = (b"", "", {}, 0.0)
    while game.to_move is not None:
        colour, action, state = game.to_move, bot.choose(game), game.to_bytes()
        rebuilt = TONGIAKI.load(state)
        began = time.perf_counter()
        take_step(rebuilt, action, colour, (colour,))
        took = time.perf_counter() - began
        if took > worst[3]:
            worst = (state, colour, action, took)
        game.apply(action, colour=colour)
    return worst


async def test_a_long_step_runs_in_the_worker_while_the_loop_serves():
    state, colour, action, took = slowest_step()
    assert took > 0.04, f"the slowest step took {took * 1000:.0f} ms: no longer a long one"
    rebuilt = TONGIAKI.load(state)
    cpu = time.thread_time()
    expected = take_step(rebuilt, action, colour, tuple(SIX))
    step_cpu = time.thread_time() - cpu   # the step's own CPU on this thread: what the loop would spend
    offload = Offload(0.004)
    gaps: list[float] = []

    async def ticking(stop: asyncio.Event) -> None:
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    try:
        # the worker's start (a spawn, once per process) is not the step: start it before measuring
        offload._pool = offload._new_pool()
        await asyncio.get_running_loop().run_in_executor(offload._pool, int)
        stop = asyncio.Event()
        ticker = asyncio.create_task(ticking(stop))
        await asyncio.sleep(0.01)
        cpu = time.thread_time()
        step, live = await offload.step("r_slow", TONGIAKI, None, state, action, colour, tuple(SIX))
        loop_cpu = time.thread_time() - cpu
        stop.set()
        await ticker
    finally:
        offload.close()
    assert live is None and offload.offloaded == 1   # it ran in the worker
    assert (step.events, step.view, step.state, step.deciding, step.privates) == \
        (expected.events, expected.view, expected.state, expected.deciding, expected.privates)
    # the loop was not held while the worker searched (the watch gave up after ~4 ms): it kept ticking, and
    # the loop's thread spent well under the step's own CPU. CPU time, not the ticks' gaps, because on a
    # loaded machine the scheduler alone makes gaps of 100 ms and more
    assert len(gaps) > 10, len(gaps)
    assert loop_cpu < step_cpu / 2, (loop_cpu, step_cpu)


async def test_short_steps_stay_on_the_loop_with_their_live_game():
    game = TONGIAKI.new(_settings(4), seed=11)
    offload = Offload(0.004)
    for _ in range(40):
        colour = game.deciding[0]
        action = RandomBot(7).choose(game.game)   # type: ignore[attr-defined]
        state = game.to_bytes()
        step, live = await offload.step("r_short", TONGIAKI, game, state, action, colour, (colour,))
        assert live is game and step.state == game.to_bytes()
    assert offload.offloaded == 0


async def test_a_stored_games_public_view_is_the_same_on_the_loop_and_in_the_worker():
    """The view is not stored: a snapshot's is computed from the state, on the loop under the watch, or in
    the worker (`Offload.public_view`, as `privates`)."""
    game = TONGIAKI.new(_settings(4), seed=11)
    state = game.to_bytes()
    offload = Offload(0.004)
    try:
        assert await offload.public_view(TONGIAKI, state) == game.public_view() and offload.offloaded == 0
        assert await offload._elsewhere(_public_stored, TONGIAKI, state) == game.public_view()
    finally:
        offload.close()


async def test_an_illegal_action_is_refused_from_the_worker_too():
    state, colour, _action, _took = slowest_step()
    offload = Offload(0.004)
    try:
        with pytest.raises(Illegal) as refused:   # what a step abandoned on the loop does in the worker
            await offload._elsewhere(_step_stored, "r_slow", TONGIAKI, state, {"type": "nonsense"}, colour, ())
    finally:
        offload.close()
    assert refused.value.reason == "malformed"


def test_the_watch_abandons_a_search_from_inside_the_engine():
    state, colour, action, _took = slowest_step()
    game = TONGIAKI.load(state)
    calls = []

    def check() -> None:
        calls.append(1)
        raise TooLong

    game.watch(check)
    with pytest.raises(TooLong):
        game.apply(action, colour)
    assert calls == [1]


def _settings(seats: int):
    from server.lobby.settings import Settings

    return Settings.from_wire({"name": "short steps", "seats": seats, "first": 0}, MODES)


def test_the_worker_holds_the_game_it_stepped_and_plays_on_it_exactly():
    """In the worker, a room's next step from exactly the state its last step left plays on the live game
    (caches kept); from any other state it loads that state. Both give what a fresh game gives."""
    state, colour, action, _took = slowest_step()
    first, _ = _step_stored("r_kept", TONGIAKI, state, action, colour, tuple(SIX))
    after = TONGIAKI.load(first.state)
    following = RandomBot(5).choose(after.game)   # type: ignore[attr-defined]
    mover = after.deciding[0]
    expected = take_step(TONGIAKI.load(first.state), following, mover, tuple(SIX))
    kept, _ = _step_stored("r_kept", TONGIAKI, first.state, following, mover, tuple(SIX))
    assert (kept.events, kept.view, kept.state, kept.privates) == \
        (expected.events, expected.view, expected.state, expected.privates)
    # a state the worker does not hold for the room (another process moved it on): loaded, not reused
    other, _ = _step_stored("r_kept", TONGIAKI, state, action, colour, tuple(SIX))
    assert other.state == first.state

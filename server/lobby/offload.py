"""Engine calls that outgrow the event loop run in a worker process, and only their room waits for them.

Nearly every step of a game (apply an action, the public view, the deciding seats' legal actions, the
bytes to store) takes well under a millisecond on a held game; a few, an exhaustive R9 search on an
endless chain, take up to a few hundred. Which ones cannot be known before, so each step runs on the
event loop under a watch (`LiveGame.watch`): when it has taken `slice` seconds, the watch abandons it, the
live game is thrown away (it may be half changed), and the step runs again, from the game's stored bytes,
in this process's engine worker, which keeps that game live; the other rooms are served meanwhile. The
room's steps go to the worker while they take it longer than the slice, and come back to the loop after
the first short one. The engine keeps no clock: the watch is ours.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.lobby.embedded import die_with_parent
from server.lobby.mode import Action, Event, GameMode, Illegal, LiveGame, View

log = logging.getLogger(__name__)

LOOP_SLICE = 0.004
"""Seconds one engine step may hold the event loop before it goes to the worker."""


class TooLong(Exception):
    """The watch abandoned a step that took its slice of the event loop."""


@dataclass(frozen=True, slots=True)
class Step:
    """What one action did to a game: its events, the public view after it, the state to store, the
    colours deciding next, whether the round goes on (same round before and after), and the private
    payload (`LiveGame.private`) of each colour asked for that has one."""

    events: list[Event]
    view: View = field(repr=False)
    state: bytes = field(repr=False)
    deciding: tuple[str, ...]
    same_round: bool
    privates: dict[str, Any] = field(repr=False)


def take_step(game: LiveGame, action: Action | None, colour: str | None, private_for: tuple[str, ...]) -> Step:
    """Applies `action` for `colour` to `game` (None, None: the round's deadline passed, `LiveGame.deadline`)
    and computes everything the authority stores and sends. Raises Illegal (the game unchanged)."""
    round_before = game.round
    if action is None:
        events = game.deadline()
    elif colour is not None:
        events = game.apply(action, colour)
    else:
        raise ValueError("an action is played for a colour")
    view = game.public_view()
    return Step(events, view, game.to_bytes(), game.deciding,
                game.round is not None and game.round == round_before, privates_of(game, private_for))


def privates_of(game: LiveGame, colours: tuple[str, ...]) -> dict[str, Any]:
    """The private payload of each of `colours` that has one."""
    return {c: p for c in colours for p in [game.private(c)] if p is not None}


WORKER_HELD = 64
"""Games the engine worker keeps live between the steps it is given (least recently used go first)."""

_held: OrderedDict[str, tuple[bytes, LiveGame]] = OrderedDict()   # in the worker: room -> (state, live game)


def _step_stored(room: str, mode: GameMode, state: bytes, action: Action | None, colour: str | None,
                 private_for: tuple[str, ...]) -> tuple[Step, float]:
    """`take_step` on the game stored as `state`, in the engine worker, and the seconds it took. The
    worker holds each room's game live after its step, with the engine's caches: the room's next step,
    when it comes from exactly that state, does not search again what this one searched."""
    kept = _held.pop(room, None)
    game = kept[1] if kept is not None and kept[0] == state else mode.load(state)
    began = time.perf_counter()
    try:
        step = take_step(game, action, colour, private_for)
    except Illegal:
        _held[room] = (state, game)   # refused: unchanged
        raise
    took = time.perf_counter() - began
    _held[room] = (step.state, game)
    while len(_held) > WORKER_HELD:
        _held.popitem(last=False)
    return step, took


def _privates_stored(mode: GameMode, state: bytes, colours: tuple[str, ...]) -> dict[str, Any]:
    """`privates_of` the game stored as `state`, in the engine worker."""
    return privates_of(mode.load(state), colours)


def _public_stored(mode: GameMode, state: bytes) -> View:
    """The public view of the game stored as `state`, in the engine worker."""
    return mode.load(state).public_view()


class Offload:
    """The event loop's guard against long engine calls: runs a step on the loop under a watch of `slice`
    seconds (0: no watch, every step on the loop), and a step that outgrows it in a worker process. The
    worker starts at the first long step (that room waits for it to import the engines once, about a
    third of a second): most processes never need one."""

    def __init__(self, slice_: float = LOOP_SLICE, counted: Callable[[], None] | None = None) -> None:
        self.slice = slice_
        self.offloaded = 0   # steps run in the worker
        self._counted = counted   # told of each (the metrics)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None   # started at the first long step
        self._away: OrderedDict[str, bool] = OrderedDict()   # rooms whose next step goes to the worker

    def __repr__(self) -> str:
        return f"Offload(slice={self.slice}, offloaded={self.offloaded})"

    @staticmethod
    def _new_pool() -> concurrent.futures.ProcessPoolExecutor:
        # spawn: a fork would copy this process's event loop, sockets and Redis connections; and the
        # worker dies with this process, however it ends
        return concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                      initializer=die_with_parent)

    async def step(self, room: str, mode: GameMode, game: LiveGame | None, state: bytes, action: Action | None,
                   colour: str | None, private_for: tuple[str, ...]) -> tuple[Step, LiveGame | None]:
        """The step `action` makes from `room`'s game stored as `state` (`game`, when held, is that game
        live; None, None: the round's deadline), and the live game after it (None when it ran in the worker,
        which holds it then).

        A room whose step went to the worker stays there, its game live in the worker, while its steps
        take the worker longer than the slice (the rest of a long chain: every decision of it searches);
        the first cheap one brings it back to the loop."""
        if room not in self._away:
            live = game if game is not None else mode.load(state)
            try:
                with self._watching(live):
                    return take_step(live, action, colour, private_for), live
            except TooLong:
                pass
        step, took = await self._elsewhere(_step_stored, room, mode, state, action, colour, private_for)
        self._away.pop(room, None)
        if took > self.slice:
            self._away[room] = True
            while len(self._away) > WORKER_HELD:
                self._away.popitem(last=False)
        return step, None

    async def privates(self, mode: GameMode, state: bytes, colours: tuple[str, ...]) -> dict[str, Any]:
        """`privates_of` the game stored as `state`."""
        live = mode.load(state)
        try:
            with self._watching(live):
                return privates_of(live, colours)
        except TooLong:
            pass
        return await self._elsewhere(_privates_stored, mode, state, colours)  # type: ignore[no-any-return]

    async def public_view(self, mode: GameMode, state: bytes) -> View:
        """The public view of the game stored as `state` (the view is not stored: it follows from the state)."""
        live = mode.load(state)
        try:
            with self._watching(live):
                return live.public_view()
        except TooLong:
            pass
        return await self._elsewhere(_public_stored, mode, state)  # type: ignore[no-any-return]

    def _watching(self, game: LiveGame) -> _Watch:
        return _Watch(game, self.slice)

    async def _elsewhere(self, fn: Any, *args: Any) -> Any:
        self.offloaded += 1
        if self._counted is not None:
            self._counted()
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            if self._pool is None:
                self._pool = self._new_pool()
            try:
                return await loop.run_in_executor(self._pool, fn, *args)
            except concurrent.futures.process.BrokenProcessPool:
                # the worker died (killed, out of memory): start another once, then run it here
                log.warning("the engine worker died; %s", "starting another" if not attempt else "running here")
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        return fn(*args)

    def close(self) -> None:
        """Stops the worker (a step it is running is abandoned: its room's action was never stored)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class _Watch:
    """The watch over one step on the loop: raises TooLong from inside the engine after `slice` seconds."""

    __slots__ = ("game", "slice", "deadline")

    def __init__(self, game: LiveGame, slice_: float) -> None:
        self.game = game
        self.slice = slice_
        self.deadline = 0.0

    def __enter__(self) -> None:
        if self.slice > 0:
            self.deadline = time.perf_counter() + self.slice
            self.game.watch(self._check)

    def __exit__(self, *_exc: object) -> None:
        if self.slice > 0:
            self.game.watch(None)

    def _check(self) -> None:
        if time.perf_counter() > self.deadline:
            raise TooLong

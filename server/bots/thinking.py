"""Bots think in worker processes, never in the server's event loop: a greedy decision takes ~12 ms on
average (p99 ~100 ms) and a search decision its whole budget (a second), and either would stall every
room of the process meanwhile. The room whose bot thinks waits for it; the others go on."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

Choose = Callable[[bytes, str, int], dict[str, Any]]
"""A rule set's bot: (the game's stored state, a level, a seed) -> a legal action. It runs in another
process, so it must be a picklable top-level function or a method of a picklable object."""


class Thinkers:
    """A pool of worker processes for the bots of one server process (`workers` of them, started when
    first needed)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def __repr__(self) -> str:
        return f"Thinkers(workers={self.workers}, started={self._pool is not None})"

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawned, not forked: a fork of a running event loop with its sockets and threads is unsafe
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def choose(self, choose: Choose, state: bytes, level: str, seed: int) -> dict[str, Any]:
        """The action `choose` picks for the game stored as `state`, computed in a worker process. A pool
        whose worker died is replaced, and the decision asked again once."""
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, choose, state, level, seed)
            except BrokenProcessPool:
                log.warning("a bot worker process died; starting a new pool")
                if self._pool is pool:
                    self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stops the workers (a decision under way is abandoned: its room's timer asks again)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

"""The timer loop's alarm: the loop sleeps until its next planned check, and whoever brings a room's check
forward in this process (the store's timers: an action's commit, a clock started, a grace period) rings
it, so the loop wakes for that check instead of sleeping on to what it planned (up to a tick later). The
composition root gives the one alarm to both, so neither is set up on the other after it was built."""

from __future__ import annotations

import asyncio
import contextlib
import time


class Alarm:
    """One process's alarm for its timer loop."""

    def __init__(self) -> None:
        self._wake = asyncio.Event()
        self._sleeping_until = 0.0   # when the loop means to wake (0: it is awake)

    def __repr__(self) -> str:
        return f"Alarm(sleeping_until={self._sleeping_until:.3f})"

    def nudge(self, check: float | None) -> None:
        """A room's next check was brought forward to `check` (None: nothing to check): the loop wakes
        now when it planned to sleep past it."""
        if check is not None and check < self._sleeping_until:
            self._wake.set()

    def ring(self) -> None:
        """Wakes the loop whatever it planned (it is stopping)."""
        self._wake.set()

    async def sleep(self, seconds: float) -> bool:
        """Sleeps `seconds`, or until nudged for a check before their end; True when nudged."""
        self._sleeping_until = time.time() + seconds
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)
        self._sleeping_until = 0.0   # awake: a check brought forward now is seen by the next claim
        rung = self._wake.is_set()
        self._wake.clear()
        return rung

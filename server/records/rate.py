"""A request rate per client address: a token bucket each, in bounded memory."""

from __future__ import annotations

import time
from collections import OrderedDict


class Rates:
    """`rate` requests a second on average and `burst` at once per address; at most `addresses` buckets
    are held (the longest unused goes first: a full bucket again by then, or nearly)."""

    def __init__(self, rate: float, burst: float, addresses: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.addresses = addresses
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()   # address → (tokens, when)

    def __repr__(self) -> str:
        return f"Rates({self.rate:g}/s, burst {self.burst:g}, {len(self._buckets)} addresses)"

    def allow(self, address: str, now: float | None = None) -> float:
        """0 when a request from `address` may go ahead now (and it is counted); else the seconds until
        it may."""
        now = time.monotonic() if now is None else now
        tokens, when = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
        self._buckets[address] = (tokens - 1 if not wait else tokens, now)
        while len(self._buckets) > self.addresses:
            self._buckets.popitem(last=False)
        return wait

"""The timers' key family (the directory's slot: server/lobby/store/keys.py). The timer loop
(server/lobby/timers.py) claims them; an action brings its room's forward.

| key | type | holds |
| --- | --- | --- |
| `P:timers` | zset | room ids by the time something is due (bot, grace, clock) |
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis.asyncio as redis

from server.lobby.store.keys import Keys

# Claim the due timers: each is pushed `lease` seconds into the future, so a process that dies while
# handling one only delays it; the claimer reschedules it when done. The first element of the answer is
# when the earliest timer is due after that ('' when there is none).
CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
table.insert(due, 1, first[2] or '')
return due
"""

# The claimer puts a room's timer at its next check. While the timer still holds the claimer's lease,
# that check replaces it (it may be later than the lease); if anything moved the timer meanwhile (an
# action brought it forward), the earlier of the two wins; a timer removed meanwhile (the room finished)
# stays removed.
RESCHEDULE = """
local held = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not held then return 0 end
if tonumber(held) == tonumber(ARGV[3]) then redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
else redis.call('ZADD', KEYS[1], 'LT', ARGV[1], ARGV[2]) end
return 1
"""

# Every room due within ARGV[2] seconds of ARGV[1] (spread evenly over them), unless due earlier already.
LOOK_AT_ALL = """
local rooms = redis.call('ZRANGE', KEYS[1], 0, -1)
for i, room in ipairs(rooms) do
  redis.call('ZADD', KEYS[1], 'LT', tonumber(ARGV[1]) + tonumber(ARGV[2]) * (i % 100) / 100, room)
end
return 0
"""


class TimerStore:
    """When each room is next due (`P:timers`). `on_schedule(at)` hears of every timer this process sets
    (the timer loop's alarm: the loop wakes for the timers its own process sets, and need not poll for
    them)."""

    def __init__(self, client: redis.Redis, keys: Keys, *, on_schedule: Callable[[float], None] | None = None) -> None:
        self.redis = client
        self.key = keys.key("timers")
        self.on_schedule = on_schedule
        self._claim = client.register_script(CLAIM)
        self._reschedule = client.register_script(RESCHEDULE)
        self._look_at_all = client.register_script(LOOK_AT_ALL)

    def __repr__(self) -> str:
        return f"TimerStore({self.key!r})"

    async def schedule(self, room_id: str, at: float, *, earlier_only: bool = False) -> None:
        """The room is due at `at` (`earlier_only`: unless it is due earlier already)."""
        await self.redis.zadd(self.key, {room_id: at}, lt=earlier_only)
        self.scheduled(at)

    def scheduled(self, at: float) -> None:
        """A timer of this process is set to `at` (`forward_into`'s caller says so once its pipeline ran)."""
        if self.on_schedule is not None:
            self.on_schedule(at)

    def forward_into(self, pipe: Any, room_id: str, *, at: float) -> None:
        """Adds to `pipe` bringing the room's timer forward to `at` (a later one stays); once the pipeline
        ran, the caller calls `scheduled(at)`."""
        pipe.zadd(self.key, {room_id: at}, lt=True)

    async def look_at_all(self, now: float, within: float) -> None:
        """Every room falls due between `now` and `now + within` (unless due earlier): when the processes
        alive change, each room's presence is looked at again. One script over
        the whole set, a ZADD a room, on a rare event: it held Redis 3 ms for a thousand rooms and 35 ms for
        ten thousand (a quiet 2-core machine)."""
        await self._look_at_all(keys=[self.key], args=[now, within])
        self.scheduled(now)

    async def unschedule(self, room_id: str) -> None:
        await self.redis.zrem(self.key, room_id)

    def unschedule_into(self, pipe: Any, room_id: str) -> None:
        pipe.zrem(self.key, room_id)

    async def claim_due(self, now: float, until: float, *, limit: int = 100) -> tuple[list[str], float | None]:
        """The rooms due at `now`, their timers leased until `until` (see `reschedule`); and when the
        earliest timer falls due after that (None: no timer)."""
        first, *due = await self._claim(keys=[self.key], args=[now, until, limit])
        return [d.decode() for d in due], float(first) if first else None

    async def reschedule(self, room_id: str, *, at: float, lease: float) -> None:
        """The claimer of a room (its timer leased until `lease`) sets the room's next check."""
        await self._reschedule(keys=[self.key], args=[at, room_id, lease])

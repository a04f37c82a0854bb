"""The cap on all search bots at play (the directory's slot: server/lobby/store/keys.py).

| key | type | holds |
| --- | --- | --- |
| `P:searching` | zset | playing rooms with search bots, by when their hold lapses (the cap on all search bots) |
| `P:searching:n` | hash | room id → its search bots, for the rooms of `P:searching` |
"""

from __future__ import annotations

import time
from typing import Any

import redis.asyncio as redis

from server.config import one_slot
from server.lobby.store.keys import Keys

# Holds a playing room's search bots against the cap on them all: KEYS = P:searching, P:searching:n;
# ARGV = room, its search bots, the cap, now, when the hold lapses. Lapsed holds go first. Returns -1 when
# held, else the search bots the other rooms hold (refused: nothing changed).
HOLD_SEARCHES = """
for _, r in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])) do redis.call('HDEL', KEYS[2], r) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
local others = 0
local all = redis.call('HGETALL', KEYS[2])
for i = 1, #all, 2 do if all[i] ~= ARGV[1] then others = others + tonumber(all[i + 1]) end end
if others + tonumber(ARGV[2]) > tonumber(ARGV[3]) then return others end
redis.call('ZADD', KEYS[1], ARGV[5], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return -1
"""


class Searches:
    """The search bots each playing room holds against the cap on them all."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.lapses = keys.key("searching")
        self.counts = keys.key("searching", "n")
        self._hold = client.register_script(HOLD_SEARCHES)

    def __repr__(self) -> str:
        return f"Searches({self.lapses!r})"

    async def hold(self, room_id: str, *, bots: int, cap: int, until: float) -> int | None:
        """Holds the room's `bots` search bots against `cap` search bots in all playing rooms, until `until`
        (or `release`). None when held, else how many the other rooms hold (nothing changed)."""
        others = await self._hold(keys=[self.lapses, self.counts], args=[room_id, bots, cap, time.time(), until])
        return None if int(others) < 0 else int(others)

    async def release(self, room_id: str) -> None:
        """The room's game is over (or the room gone): its search bots no longer count against the cap."""
        async with one_slot(self.redis) as pipe:
            self.release_into(pipe, room_id)
            await pipe.execute()

    def release_into(self, pipe: Any, room_id: str) -> None:
        pipe.zrem(self.lapses, room_id)
        pipe.hdel(self.counts, room_id)

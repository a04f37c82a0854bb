"""Who is here: the server processes by heartbeat and the sockets in each room (a room's watchers are its
slot's, the processes and the metrics lease the directory's: server/lobby/store/keys.py).

| key | type | holds |
| --- | --- | --- |
| `P:procs` | zset | server process ids by last heartbeat |
| `P:silent` | set | the processes taken for silent (no heartbeat for the presence TTL) and not heard of since |
| `P:watch:{id}` | hash | `{process}|{sid}` → person, for each socket that joined the room |
| `P:metrics_lease` | string | the process that exports the cluster-wide figures on /metrics |
"""

from __future__ import annotations

import time
from typing import Any

import redis.asyncio as redis

from server.lobby.store.keys import Keys

LEASE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then
  local beat = redis.call('ZSCORE', KEYS[2], holder)
  if beat and tonumber(beat) >= tonumber(ARGV[3]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
"""The metrics lease (Presence.take_metrics_lease): KEYS = lease, procs; ARGV = process, lease ms, alive
after."""

BEAT = """
local back = redis.call('SREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
local changed = {}
if back == 1 then table.insert(changed, ARGV[1]) end
for _, proc in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])) do
  if redis.call('SADD', KEYS[2], proc) == 1 then table.insert(changed, proc) end
end
for _, proc in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if not redis.call('ZSCORE', KEYS[1], proc) then redis.call('SREM', KEYS[2], proc) end
end
return changed
"""
"""A process's heartbeat (Presence.beat): KEYS = procs, silent; ARGV = process, now, silent before, gone
before. Answers the processes that fell silent since anyone's last beat, and this one if it had been
taken for silent (each is answered once)."""

PROCESS_GONE_AFTER = 3600.0
"""Seconds without a heartbeat after which a server process is taken to be gone for good: its sockets'
presence records are deleted. Shorter silences (a Redis outage) only make them not count for a while."""


class Presence:
    """The processes' heartbeats and the sockets in each room."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys
        self.procs = keys.key("procs")
        self.silent = keys.key("silent")
        self._lease = client.register_script(LEASE)
        self._beat = client.register_script(BEAT)

    def __repr__(self) -> str:
        return f"Presence({self.procs!r})"

    async def beat(self, proc: str, *, silent_after: float) -> list[str]:
        """This process is alive (and the processes gone for good are forgotten). The processes whose
        sockets stopped or started counting since the last heartbeat of any process, each told once:
        those that fell silent (no heartbeat since `silent_after`) and this one, if it had been taken
        for silent."""
        now = time.time()
        changed = await self._beat(keys=[self.procs, self.silent],
                                   args=[proc, now, silent_after, now - PROCESS_GONE_AFTER])
        return [p.decode() if isinstance(p, bytes) else str(p) for p in changed]

    async def alive(self, proc: str, after: float) -> bool:
        """Whether the server process `proc` has sent a heartbeat since `after`."""
        beat = await self.redis.zscore(self.procs, proc)
        return beat is not None and float(beat) >= after

    async def drop_process(self, proc: str) -> bool:
        """The process `proc` stops beating; whether this call dropped it (it was not dropped before)."""
        return bool(await self.redis.zrem(self.procs, proc))

    def count_alive_into(self, pipe: Any, after: float) -> None:
        """Adds to `pipe` the count of processes that sent a heartbeat since `after`."""
        pipe.zcount(self.procs, after, "+inf")

    async def take_metrics_lease(self, proc: str, *, lease: float, alive_after: float) -> bool:
        """Whether `proc` holds the metrics lease for `lease` seconds more: taken when free or when its
        holder stopped beating (no heartbeat since `alive_after`), kept while renewed."""
        ms = max(1, int(lease * 1000))
        return bool(await self._lease(keys=[self.keys.key("metrics_lease"), self.procs], args=[proc, ms, alive_after]))

    async def watch(self, room_id: str, *, proc: str, sid: str, person: str) -> None:
        """The socket `sid` of process `proc`, `person`'s, joined the room."""
        await self.redis.hset(self.keys.key("watch", room_id), f"{proc}|{sid}", person)

    async def unwatch(self, room_id: str, *, proc: str, sid: str) -> None:
        await self.redis.hdel(self.keys.key("watch", room_id), f"{proc}|{sid}")

    def forget_room_into(self, pipe: Any, room_id: str) -> None:
        """Adds to `pipe` forgetting the sockets of a room that is gone."""
        pipe.delete(self.keys.key("watch", room_id))

    async def watchers_many(self, room_ids: list[str], alive_after: float) -> list[dict[str, int]]:
        """`watchers` of many rooms in one round trip (dead processes' sockets are skipped, not removed)."""
        if not room_ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrangebyscore(self.procs, alive_after, "+inf")
            for room_id in room_ids:
                pipe.hgetall(self.keys.key("watch", room_id))
            live_raw, *all_fields = await pipe.execute()
        live = {m.decode() for m in live_raw}
        out = []
        for fields in all_fields:
            counts: dict[str, int] = {}
            for field, person in fields.items():
                if field.decode().split("|", 1)[0] in live:
                    counts[person.decode()] = counts.get(person.decode(), 0) + 1
            out.append(counts)
        return out

    async def watchers(self, room_id: str, alive_after: float) -> dict[str, int]:
        """Person → number of live sockets in the room. Sockets of a process whose heartbeat is late are
        not counted but kept (a Redis outage makes every heartbeat late, and those sockets are still
        there); only those of processes gone for PROCESS_GONE_AFTER are dropped."""
        async with self.redis.pipeline(transaction=False) as pipe:
            self.watchers_into(pipe, room_id, alive_after=alive_after)
            return await self.watchers_from(room_id, *await pipe.execute())

    def watchers_into(self, pipe: Any, room_id: str, *, alive_after: float) -> None:
        """Adds to `pipe` the three reads `watchers_from` takes (a caller reading more of the room in the
        same round trip)."""
        pipe.hgetall(self.keys.key("watch", room_id))
        pipe.zrangebyscore(self.procs, alive_after, "+inf")
        pipe.zrangebyscore(self.procs, time.time() - PROCESS_GONE_AFTER, "+inf")

    async def watchers_from(self, room_id: str, fields: dict[bytes, bytes], live_raw: list[bytes],
                            known_raw: list[bytes]) -> dict[str, int]:
        """`watchers` from the answers to `watchers_into` (dropping the sockets of processes gone)."""
        live = {m.decode() for m in live_raw}
        known = {m.decode() for m in known_raw}
        counts: dict[str, int] = {}
        dead = []
        for field, person in fields.items():
            proc = field.decode().split("|", 1)[0]
            if proc in live:
                counts[person.decode()] = counts.get(person.decode(), 0) + 1
            elif proc not in known:
                dead.append(field)
        if dead:
            await self.redis.hdel(self.keys.key("watch", room_id), *dead)
        return counts

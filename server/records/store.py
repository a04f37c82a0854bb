"""Game records in Redis (keys under the configured prefix `P`):

| key | type | holds |
| --- | --- | --- |
| `P:record:{id}` | hash | `body` (GameRecord.to_bytes: msgpack, deflated), `summary` (msgpack), `replay` |
| `P:records` | zset | public games' record ids by the time their game finished |
| `P:records:person:{person}` | zset | the record ids of one person's public games, by the time they finished |
| `P:records:mine:{person}` | zset | the ids of all one person's games, private ones too (listed to that person only) |

A record expires with the retention; its replay (JSON, deflated) is kept beside it once first served.
Index entries older than the retention are trimmed whenever a record is written, and never listed.
"""

from __future__ import annotations

import time
import zlib
from typing import Any

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as redis

from server.config import one_slot
from server.records.record import GameRecord

RETENTION = 90 * 24 * 3600.0
"""Seconds a finished game is kept, unless configured otherwise (`TONGIAKI_RECORD_TTL`)."""

KEEP_REPLAY = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return redis.call('HSET', KEYS[1], 'replay', ARGV[1])
end
return -1
"""
"""A replay is kept beside its record, never alone: a record gone (expired) is not brought back without
its expiry."""


class Records:
    """Writes and reads game records; `retention` in seconds."""

    def __init__(self, client: redis.Redis, prefix: str, retention: float = RETENTION) -> None:
        self.redis = client
        self.prefix = prefix
        self.retention = retention
        self._keep_replay = client.register_script(KEEP_REPLAY)

    def __repr__(self) -> str:
        return f"Records({self.prefix!r}, retention={self.retention:g}s)"

    def key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    async def keep(self, record: GameRecord) -> bool:
        """Stores a finished game's record once (a second call for the same game changes nothing);
        True when this call stored it."""
        key = self.key("record", record.id)
        ms = max(1, int(self.retention * 1000))
        summary = msgpack.packb(record.summary(), use_bin_type=True)
        oldest = time.time() - self.retention
        people = sorted(record.people)
        indexes = [self.key("records", "mine", p) for p in people]
        if not record.private:   # a private room's game is listed to its players only
            indexes += [self.key("records")] + [self.key("records", "person", p) for p in people]
        # one transaction: the record never sits in Redis without its expiry; writing it again is harmless
        async with one_slot(self.redis) as pipe:
            pipe.hsetnx(key, "body", record.to_bytes())
            pipe.hset(key, "summary", summary)
            pipe.pexpire(key, ms)
            stored, *_ = await pipe.execute()
        # then the indexes (each its own key, so its own slot of a cluster): an index entry whose record is
        # not there yet, or any more, is not listed (`recent` reads the summaries)
        async with self.redis.pipeline(transaction=False) as pipe:
            for index in indexes:
                pipe.zadd(index, {record.id: record.finished})
                pipe.zremrangebyscore(index, "-inf", f"({oldest}")
                pipe.pexpire(index, ms)
            await pipe.execute()
        return bool(stored)

    async def get(self, record_id: str) -> GameRecord | None:
        """The record, or None when there is none (never kept, or past the retention)."""
        blob = await self.redis.hget(self.key("record", record_id), "body")
        return GameRecord.from_bytes(bytes(blob)) if isinstance(blob, bytes) else None

    async def replay(self, record_id: str) -> str | None:
        """The replay kept beside a finished game's record (`keep_replay`), or None."""
        blob = await self.redis.hget(self.key("record", record_id), "replay")
        return zlib.decompress(bytes(blob)).decode() if isinstance(blob, bytes) else None

    async def keep_replay(self, record_id: str, text: str) -> None:
        """Keeps a finished game's replay (its JSON) beside its record, so that it is built once."""
        await self._keep_replay(keys=[self.key("record", record_id)], args=[zlib.compress(text.encode(), 6)])

    async def recent(self, limit: int, before: float | None = None, person: str | None = None,
                     mine: bool = False) -> list[dict[str, Any]]:
        """Summaries of finished games, newest first: at most `limit`, finished before `before` (a
        page's last `finished`, exclusive), of everyone or of one person (`mine`: that person is asking,
        and their private games are listed too)."""
        if person is None:
            indexes = [self.key("records")]
        else:   # a person's own list: their public games too (those kept before `mine` existed are only there)
            indexes = [self.key("records", "person", person)] + [self.key("records", "mine", person)] * mine
        top = "+inf" if before is None else f"({before}"
        oldest = time.time() - self.retention
        async with self.redis.pipeline(transaction=False) as pipe:
            for index in indexes:
                pipe.zrevrangebyscore(index, top, oldest, start=0, num=limit, withscores=True)
            found = {i: score for page in await pipe.execute() for i, score in page}
        ids = sorted(found, key=lambda i: found[i], reverse=True)[:limit]
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for i in ids:
                pipe.hget(self.key("record", i.decode() if isinstance(i, bytes) else str(i)), "summary")
            raws = await pipe.execute()
        return [msgpack.unpackb(r, raw=False, strict_map_key=False) for r in raws if r]

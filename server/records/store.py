"""Game records in Redis (keys under the configured prefix `P`):

| key | type | holds |
| --- | --- | --- |
| `P:record:{id}` | hash | `body` (GameRecord.to_bytes: msgpack, deflated), `summary` (msgpack); expires |
| `P:records` | zset | record ids by the time their game finished |
| `P:records:person:{person}` | zset | the record ids of one person's games, by the time they finished |

Index entries older than the retention are trimmed whenever a record is written, and never listed.
"""

from __future__ import annotations

import time
from typing import Any

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as redis

from server.records.record import GameRecord

RETENTION = 90 * 24 * 3600.0
"""Seconds a finished game is kept, unless configured otherwise (`TONGIAKI_RECORD_TTL`)."""


class Records:
    """Writes and reads game records; `retention` in seconds."""

    def __init__(self, client: redis.Redis, prefix: str, retention: float = RETENTION) -> None:
        self.redis = client
        self.prefix = prefix
        self.retention = retention

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
        people = {s["person"] for s in record.seats if s.get("person")}
        # one transaction: the record never sits in Redis without its expiry; writing it again is harmless
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hsetnx(key, "body", record.to_bytes())
            pipe.hset(key, "summary", summary)
            pipe.pexpire(key, ms)
            for index in [self.key("records")] + [self.key("records", "person", p) for p in sorted(people)]:
                pipe.zadd(index, {record.id: record.finished})
                pipe.zremrangebyscore(index, "-inf", f"({oldest}")
                pipe.pexpire(index, ms)
            stored, *_ = await pipe.execute()
        return bool(stored)

    async def get(self, record_id: str) -> GameRecord | None:
        """The record, or None when there is none (never kept, or past the retention)."""
        blob = await self.redis.hget(self.key("record", record_id), "body")
        return GameRecord.from_bytes(bytes(blob)) if isinstance(blob, bytes) else None

    async def recent(self, limit: int, before: float | None = None,
                     person: str | None = None) -> list[dict[str, Any]]:
        """Summaries of finished games, newest first: at most `limit`, finished before `before` (a
        page's last `finished`, exclusive), of everyone or of one person."""
        index = self.key("records") if person is None else self.key("records", "person", person)
        top = "+inf" if before is None else f"({before}"
        oldest = time.time() - self.retention
        ids = await self.redis.zrevrangebyscore(index, top, oldest, start=0, num=limit)
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for i in ids:
                pipe.hget(self.key("record", i.decode() if isinstance(i, bytes) else str(i)), "summary")
            raws = await pipe.execute()
        return [msgpack.unpackb(r, raw=False, strict_map_key=False) for r in raws if r]

"""Bot workers: bots think in processes of their own, fed through Redis, never in a server's event loop
(a greedy decision takes ~12 ms, p99 ~100 ms; a search decision its whole second).

A server process whose room has a bot decision due posts a job on the stream `P:bots:jobs` (once per room,
round and colour: a key set NX guards it); `tongiaki bots` workers read it through the consumer group
`workers`, think, and post the action on `P:bots:done`, which every server process reads through the
group `servers`; whichever gets it applies it through the authority, version-checked like a person's
action (a result for a game that moved on is dropped). A job a dead worker had taken is claimed by
another once it has waited `reclaim` seconds (XAUTOCLAIM), a result a dead server had taken likewise;
a job that no worker answers is posted again when its guard key expires.

`tongiaki serve` starts its own workers (TONGIAKI_BOT_WORKERS, default cores − 1), so one command
runs everything; docker-compose runs them as a service of their own that scales."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as redis
from redis.exceptions import RedisError, ResponseError

from server.config import REDIS_OPTIONS

log = logging.getLogger(__name__)

JOB_GUARD = 10.0
"""Seconds a posted job stands for its room and version: no other is posted meanwhile (one lost with a
Redis restart is posted again after this; a duplicate only costs a worker's time: its answer is stale)."""

STREAM_CAP = 10_000
"""Entries a stream keeps (approximately): jobs and results are small and taken within seconds."""


@dataclass(frozen=True, slots=True)
class BotJob:
    """A bot decision to take: in `room` at version `v`, for `colour`, by a bot of `level`; `how` says who
    the bot plays for in the log (bot, clock or takeover); `game` is the room's game mode."""

    room: str
    v: int
    colour: str
    level: str
    how: str
    game: str = "tongiaki"

    def __repr__(self) -> str:
        return f"BotJob({self.room}@{self.v}, {self.colour}, {self.level}, {self.how}, {self.game})"

    def fields(self) -> dict[Any, Any]:
        """The job as stream entry fields (a job's and its answer's entries start alike)."""
        return {"room": self.room, "v": self.v, "colour": self.colour, "level": self.level, "how": self.how,
                "game": self.game}

    @classmethod
    def from_fields(cls, fields: dict[bytes, bytes]) -> BotJob:
        return cls(fields[b"room"].decode(), int(fields[b"v"]), fields[b"colour"].decode(),
                   fields[b"level"].decode(), fields[b"how"].decode(), fields[b"game"].decode())


class BotQueue:
    """The two streams, as one server process or one worker sees them."""

    def __init__(self, client: redis.Redis, prefix: str, consumer: str, reclaim: float = 10.0) -> None:
        self.redis = client
        self.jobs, self.done = f"{prefix}:bots:jobs", f"{prefix}:bots:done"
        self.guard = f"{prefix}:bots:job"
        self.consumer = consumer
        self.reclaim_ms = int(reclaim * 1000)
        self.last_read = time.monotonic()   # when this consumer last heard from Redis (its liveness)

    def __repr__(self) -> str:
        return f"BotQueue({self.jobs!r}, consumer={self.consumer!r})"

    async def _group(self, stream: str, group: str) -> None:
        try:
            await self.redis.xgroup_create(stream, group, id="0", mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    # -- a server process --------------------------------------------------------------------------
    async def post(self, job: BotJob, state: bytes, round_v: int) -> bool:
        """Posts the job (with the game's stored state, so a worker needs nothing else) unless one stands
        for that room, colour and round (the round that began at version `round_v`). True when posted."""
        guard = f"{self.guard}:{job.room}:{round_v}:{job.colour}"
        if not await self.redis.set(guard, 1, nx=True, ex=int(JOB_GUARD)):
            return False
        await self.redis.xadd(self.jobs, {**job.fields(), "state": state}, maxlen=STREAM_CAP, approximate=True)
        return True

    async def results(self, stop: asyncio.Event) -> AsyncIterator[tuple[BotJob, dict[str, Any]]]:
        """The actions workers chose, for this process to apply (acknowledged when the next is asked)."""
        async for entry_id, fields in self._read(self.done, "servers", stop):
            try:
                job = BotJob.from_fields(fields)
            except (KeyError, ValueError):   # answered by an older worker: the room posts the job again
                job = None
            if job is not None:
                yield job, msgpack.unpackb(fields[b"action"], raw=False)
            await self.redis.xack(self.done, "servers", entry_id)
            await self.redis.xdel(self.done, entry_id)

    # -- a worker ----------------------------------------------------------------------------------
    async def work(self, think: Callable[[BotJob, bytes, int], dict[str, Any]], stop: asyncio.Event) -> None:
        """Takes jobs until `stop`: thinks (here, in this worker's own process) and posts the action."""
        async for entry_id, fields in self._read(self.jobs, "workers", stop):
            try:
                job = BotJob.from_fields(fields)
            except (KeyError, ValueError):   # posted by an older server: its room posts it again
                await self.redis.xack(self.jobs, "workers", entry_id)
                await self.redis.xdel(self.jobs, entry_id)
                continue
            try:
                action = think(job, fields[b"state"], secrets.randbits(32))
            except Exception:   # a bug, not a worker's fault: drop the job (its room posts it again)
                log.exception("%r: the bot could not choose", job)
                action = None
            try:
                if action is not None:
                    answer = {**job.fields(), "action": msgpack.packb(action, use_bin_type=True)}
                    await self.redis.xadd(self.done, answer, maxlen=STREAM_CAP, approximate=True)
                await self.redis.xack(self.jobs, "workers", entry_id)
                await self.redis.xdel(self.jobs, entry_id)
            except RedisError as e:   # the job stays pending: claimed again once Redis is back
                log.warning("%r: could not answer (%s)", job, e)

    async def _read(self, stream: str, group: str, stop: asyncio.Event) -> AsyncIterator[tuple[bytes, Any]]:
        """Entries for this consumer: first any another consumer took and left waiting `reclaim` (it
        died), else new ones (blocking at most a second, to see `stop`). Redis going away (or coming back
        empty, without the group) is waited out."""
        down, grouped = False, False
        while not stop.is_set():
            try:
                if not grouped:
                    await self._group(stream, group)
                    grouped = True
                claimed = await self.redis.xautoclaim(stream, group, self.consumer, self.reclaim_ms, "0-0",
                                                      count=1)
                entries = [e for e in claimed[1] if e[1]]   # (a deleted entry comes back empty)
                if not entries:
                    answer: Any = await self.redis.xreadgroup(group, self.consumer, {stream: ">"}, count=1,
                                                              block=1000)
                    entries = answer[0][1] if answer else []
            except RedisError as e:   # (a Redis that came back empty answers NOGROUP: made again)
                grouped = False
                if not down:
                    log.warning("%s: Redis unreachable (%s); retrying every second", self.consumer, e)
                    down = True
                await asyncio.sleep(1.0)
                continue
            if down:
                log.warning("%s: Redis is reachable again", self.consumer)
                down = False
            self.last_read = time.monotonic()
            for entry_id, fields in entries:
                yield entry_id, fields


async def run(url: str, prefix: str, reclaim: float) -> None:
    """`tongiaki bots`: one worker, until SIGTERM/SIGINT, or until the server process that started it is
    gone (a local worker never outlives its server)."""
    import signal

    from server.lobby.modes import MODES

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    parent = os.getppid()
    watch_parent = os.environ.get("TONGIAKI_BOTS_OF") == str(parent)

    heartbeat = os.environ.get("TONGIAKI_BOTS_HEARTBEAT")   # a file touched while the worker is well

    async def orphaned() -> None:
        while not stop.is_set():
            if watch_parent and os.getppid() != parent:
                stop.set()
            if heartbeat and time.monotonic() - queue.last_read < 5.0:
                Path(heartbeat).touch()
            await asyncio.sleep(1.0)

    client = redis.Redis.from_url(url, **REDIS_OPTIONS)
    queue = BotQueue(client, prefix, f"w_{secrets.token_hex(4)}", reclaim)
    log.info("bot worker %s on %s", queue.consumer, queue.jobs)
    watcher = asyncio.create_task(orphaned())
    try:
        await queue.work(lambda job, state, seed: MODES[job.game].bot_action(state, job.colour, job.level, seed),
                         stop)
    finally:
        stop.set()
        await watcher
        await client.aclose()

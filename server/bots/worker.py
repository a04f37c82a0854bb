"""Bot workers: bots think in processes of their own, fed through Redis, never in a server's event loop
(a greedy decision takes ~12 ms, p99 ~100 ms; a search decision up to its budget).

A server process whose room has a bot decision due posts a job on the stream of the job's class,
`P:bots:jobs:{urgent|quick|search}` (CLASSES): at most once per room, colour and round every JOB_GUARD
seconds, and a later post replaces the earlier job (the room and colour's slot `P:bots:job:{room}:{colour}`
names it). `tongiaki bots` workers read them through the consumer group `workers`, always the first class
that has a job: a clock's or takeover's decision first, then random and greedy bots, then searches. Before
thinking a worker drops a job that was replaced or whose decision is no longer pending in its room (the game
moved on); it thinks, and posts the action on `P:bots:done`, which every server process reads through the
group `servers`; whichever gets it applies it through the authority, version-checked like a person's action.
A job a dead worker had taken is claimed by another once it has waited `reclaim` seconds (XAUTOCLAIM), a
result a dead server had taken likewise.

`tongiaki serve` starts its own workers (TONGIAKI_BOT_WORKERS, default cores − 1, taking every class) and
one more that never searches (QUICK), so a flood of search jobs never holds a greedy bot, a clock or a
takeover behind a search; one command runs everything; docker-compose runs them as a service of their own
that scales. (`P` here is the deployment's directory tag, `prefix:{prefix}`: these keys are one Redis Cluster
slot, server/config.py `directory_tag`.)"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as redis
from redis.exceptions import RedisError, ResponseError

from server.config import directory_tag, redis_client

log = logging.getLogger(__name__)

JOB_GUARD = 10.0
"""Seconds a posted job stands for its room, colour and round even once it left its stream (answered, or
lost with a Redis restart): no other is posted meanwhile. A job still in its stream (waiting, or being
thought about) stands however old: a re-post would only send it to the back of its queue."""

STREAM_CAP = 10_000
"""Entries a stream keeps (approximately): jobs and results are small and taken within seconds."""

SLOT_TTL = 3600
"""Seconds the record of a room and colour's last posted job is kept (it is replaced at each post)."""

CLASSES = ("urgent", "quick", "search")
"""The job classes, in the order workers take them: a clock's or a takeover's decision (a person's seat
waits for it), a random or greedy bot's (milliseconds), a search bot's (its whole budget). Each has its
own stream, so a queue of search jobs never delays the others."""

QUICK = ("urgent", "quick")
"""The classes a worker that never searches takes (`tongiaki serve` starts one beside its full workers)."""

# Posts a job, or not: KEYS = the room and colour's slot (a hash), the class's stream; ARGV = the round,
# now, JOB_GUARD, STREAM_CAP, SLOT_TTL, then the entry's fields. A job of the same round still in its
# stream, or posted less than JOB_GUARD ago, stands (nil); else the slot's previous job (of an earlier
# round), if still queued, is deleted (a post replaces it rather than adding a job that a worker would
# compute for nothing), the new one added and its id returned.
POST = """
local slot = redis.call('HMGET', KEYS[1], 'round', 'at', 'stream', 'id')
if slot[1] == ARGV[1] then
  if tonumber(slot[2]) + tonumber(ARGV[3]) > tonumber(ARGV[2]) then return false end
  if slot[3] and #redis.call('XRANGE', slot[3], slot[4], slot[4]) > 0 then return false end
end
if slot[3] and slot[4] then redis.call('XDEL', slot[3], slot[4]) end
local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '*', unpack(ARGV, 6))
redis.call('HSET', KEYS[1], 'round', ARGV[1], 'at', ARGV[2], 'stream', KEYS[2], 'id', id)
redis.call('EXPIRE', KEYS[1], ARGV[5])
return id
"""

def job_streams(prefix: str) -> dict[str, str]:
    """The job stream of each class (CLASSES), in the order workers take them."""
    return {kind: f"{directory_tag(prefix)}:bots:jobs:{kind}" for kind in CLASSES}


def answers_stream(prefix: str) -> str:
    """The stream of the workers' answers, which every server process reads. The streams and the slots of
    jobs carry the deployment's directory tag: the script that posts a job touches one cluster slot."""
    return f"{directory_tag(prefix)}:bots:done"


Think = Callable[["BotJob", bytes, int], dict[str, Any]]
"""A worker's thinking: the action for a job, from the game's stored state and a seed."""

Pending = Callable[["BotJob"], Awaitable[bool]]
"""Whether a job's decision is still pending in its room (its round not over, its colour still deciding):
asked before thinking, so a job the game moved past costs nothing."""


@dataclass(frozen=True, slots=True)
class BotJob:
    """A bot decision to take: in `room` at version `v`, for `colour`, by a bot of `level`; `how` says who
    the bot plays for in the log (bot, clock or takeover); `game` is the room's game mode; `turn` is when
    (epoch seconds) the colour's turn began to be thought about, so a bot spends a budget per turn across
    its decisions (0: unknown)."""

    room: str
    v: int
    colour: str
    level: str
    how: str
    game: str = "tongiaki"
    turn: float = 0.0

    def __repr__(self) -> str:
        return f"BotJob({self.room}@{self.v}, {self.colour}, {self.level}, {self.how}, {self.game})"

    @property
    def kind(self) -> str:
        """The job's class (CLASSES): what a person waits on first, then cheap bots, then searches."""
        if self.how in ("clock", "takeover"):
            return "urgent"
        return "search" if self.level == "search" else "quick"

    def fields(self) -> dict[Any, Any]:
        """The job as stream entry fields (a job's and its answer's entries start alike)."""
        return {"room": self.room, "v": self.v, "colour": self.colour, "level": self.level, "how": self.how,
                "game": self.game, "turn": repr(self.turn)}

    @classmethod
    def from_fields(cls, fields: dict[bytes, bytes]) -> BotJob:
        return cls(fields[b"room"].decode(), int(fields[b"v"]), fields[b"colour"].decode(),
                   fields[b"level"].decode(), fields[b"how"].decode(), fields[b"game"].decode(),
                   float(fields.get(b"turn", b"0")))


class BotQueue:
    """The job streams (one per class) and the answers' stream, as one server process or one worker sees
    them."""

    def __init__(self, client: redis.Redis, prefix: str, consumer: str, reclaim: float = 10.0) -> None:
        self.redis = client
        self.streams = job_streams(prefix)
        self.done = answers_stream(prefix)
        self.slot = f"{directory_tag(prefix)}:bots:job"
        self.consumer = consumer
        self.reclaim_ms = int(reclaim * 1000)
        self.last_read = time.monotonic()   # when this consumer last heard from Redis (its liveness)
        self._post = client.register_script(POST)

    def __repr__(self) -> str:
        return f"BotQueue({self.slot!r}, consumer={self.consumer!r})"

    async def _group(self, stream: str, group: str) -> None:
        try:
            await self.redis.xgroup_create(stream, group, id="0", mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise

    async def waiting_by_class(self) -> dict[str, int]:
        """Jobs posted and not yet answered (waiting, or being thought about), per class (CLASSES): the
        depth of each queue, for the metrics."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream in self.streams.values():
                pipe.xlen(stream)
            lengths = await pipe.execute()
        return dict(zip(self.streams, (int(n) for n in lengths), strict=True))

    # -- a server process --------------------------------------------------------------------------
    async def post(self, job: BotJob, state: bytes, round_v: int) -> bool:
        """Posts the job (with the game's stored state, so a worker needs nothing else) on its class's
        stream, unless the job for that room, colour and round (the round that began at version `round_v`)
        is still in its stream or was posted less than JOB_GUARD ago; the job of an earlier round, if still
        queued, is replaced. True when posted."""
        fields = [x for k, v in {**job.fields(), "state": state}.items() for x in (k, v)]
        posted = await self._post(keys=[f"{self.slot}:{job.room}:{job.colour}", self.streams[job.kind]],
                                  args=[round_v, time.time(), JOB_GUARD, STREAM_CAP, SLOT_TTL, *fields])
        return posted is not None

    async def results(self, stop: asyncio.Event) -> AsyncIterator[tuple[BotJob, dict[str, Any]]]:
        """The actions workers chose, for this process to apply (acknowledged when the next is asked)."""
        async for _stream, entry_id, fields in self._read([self.done], "servers", stop):
            try:
                job = BotJob.from_fields(fields)
            except (KeyError, ValueError):   # answered by an older worker: the room posts the job again
                job = None
            if job is not None:
                yield job, msgpack.unpackb(fields[b"action"], raw=False)
            await self.redis.xack(self.done, "servers", entry_id)
            await self.redis.xdel(self.done, entry_id)

    # -- a worker ----------------------------------------------------------------------------------
    async def work(self, think: Think, pending: Pending, stop: asyncio.Event,
                   classes: tuple[str, ...] = CLASSES) -> None:
        """Takes jobs of `classes` until `stop`, the first class first: drops a job that was replaced by a
        later post or whose decision is no longer pending, else thinks (here, in this worker's own
        process) and posts the action."""
        streams = [self.streams[kind] for kind in classes]
        async for stream, entry_id, fields in self._read(streams, "workers", stop):
            try:
                job = BotJob.from_fields(fields)
            except (KeyError, ValueError):   # posted by an older server: its room posts it again
                job = None
            action = None
            try:
                if job is not None and await self._current(job, stream, entry_id) and await pending(job):
                    try:
                        action = think(job, fields[b"state"], secrets.randbits(32))
                    except Exception:   # a bug, not a worker's fault: drop the job (its room posts it again)
                        log.exception("%r: the bot could not choose", job)
                if job is not None and action is not None:
                    answer = {**job.fields(), "action": msgpack.packb(action, use_bin_type=True)}
                    await self.redis.xadd(self.done, answer, maxlen=STREAM_CAP, approximate=True)
                await self.redis.xack(stream, "workers", entry_id)
                await self.redis.xdel(stream, entry_id)
            except RedisError as e:   # the job stays pending: claimed again once Redis is back
                log.warning("%r: could not answer (%s)", job, e)

    async def _current(self, job: BotJob, stream: str, entry_id: bytes) -> bool:
        """Whether the entry is still its room and colour's last posted job (not replaced by a later post)."""
        slot: list[Any] = await self.redis.hmget(f"{self.slot}:{job.room}:{job.colour}", "stream", "id")
        return slot[0] is None or (slot[0] == stream.encode() and slot[1] == entry_id)

    async def _read(self, streams: list[str], group: str,
                    stop: asyncio.Event) -> AsyncIterator[tuple[str, bytes, Any]]:
        """Entries for this consumer, of the first of `streams` that has one: first any another consumer
        took and left waiting `reclaim` (it died), else new ones (blocking at most a second on all of
        them, to see `stop`). Redis going away (or coming back empty, without the group) is waited out."""
        down, grouped = False, False
        while not stop.is_set():
            try:
                if not grouped:
                    for stream in streams:
                        await self._group(stream, group)
                    grouped = True
                entries = await self._next(streams, group)
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
            for entry in entries:
                yield entry

    async def _next(self, streams: list[str], group: str) -> list[tuple[str, bytes, Any]]:
        for stream in streams:   # a dead consumer's entries, in the streams' order
            claimed = await self.redis.xautoclaim(stream, group, self.consumer, self.reclaim_ms, "0-0", count=1)
            entries = [(stream, i, f) for i, f in claimed[1] if f]
            gone = [i for i, f in claimed[1] if not f]   # deleted (a replaced job): only its pending mark is left
            if gone:
                await self.redis.xack(stream, group, *gone)
            if entries:
                return entries
        if len(streams) > 1:
            for stream in streams:   # the first stream with a new entry
                answer: Any = await self.redis.xreadgroup(group, self.consumer, {stream: ">"}, count=1)
                if answer and answer[0][1]:
                    return [(stream, i, f) for i, f in answer[0][1]]
        # none waiting: wait on them all (at most one entry of each comes back), taken in the streams' order
        answer = await self.redis.xreadgroup(group, self.consumer, {s: ">" for s in streams}, count=1, block=1000)
        got = {(s.decode() if isinstance(s, bytes) else s): items for s, items in answer or []}
        return [(s, i, f) for s in streams for i, f in got.get(s, [])]


async def run(url: str, prefix: str, reclaim: float, think: Think,
              pending: Callable[[redis.Redis], Pending], classes: tuple[str, ...] = CLASSES) -> None:
    """`tongiaki bots`: one worker taking jobs of `classes` (CLASSES or QUICK), until SIGTERM/SIGINT, or
    until the server process that started it is gone (a local worker never outlives its server). The
    composition root gives it its thinking (the game modes') and the check that a job's decision is still
    pending (the store's), made on this worker's Redis client."""
    import signal

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

    client = redis_client(url, max_connections=8)
    queue = BotQueue(client, prefix, f"w_{secrets.token_hex(4)}", reclaim)
    log.info("bot worker %s taking %s", queue.consumer, ", ".join(classes))
    watcher = asyncio.create_task(orphaned())
    try:
        await queue.work(think, pending(client), stop, classes)
    finally:
        stop.set()
        await watcher
        await client.aclose()

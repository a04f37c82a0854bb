"""The bot queue is fair by design: a clock's or takeover's decision first, then random and
greedy bots, then searches, each class on its own stream; a re-post replaces its job; a job whose
decision the game moved past is dropped before any thinking."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.bots import worker
from server.bots.worker import BotJob, BotQueue
from server.lobby import Store

Taken = list[BotJob]


async def _work(queue: BotQueue, until: int, pending: Any = None,
                classes: tuple[str, ...] = worker.CLASSES) -> Taken:
    """Runs a worker until it has thought about `until` jobs (at most 10 s); the jobs in the order taken."""
    taken: Taken = []
    stop = asyncio.Event()

    def think(job: BotJob, state: bytes, seed: int) -> dict[str, Any]:
        taken.append(job)
        if len(taken) >= until:
            stop.set()
        return {"type": "pass"}

    async def always(job: BotJob) -> bool:
        return True

    await asyncio.wait_for(queue.work(think, pending or always, stop, classes), 10)
    return taken


async def test_a_clock_and_a_greedy_bot_go_before_the_searches_posted_earlier(store: Store, prefix: str):
    queue = BotQueue(store.redis, prefix, "w1")
    for i in range(6):   # a flood of search jobs first
        assert await queue.post(BotJob(f"deep{i}", 3, "red", "search", "bot"), b"s", 3)
    assert await queue.post(BotJob("plain", 7, "blue", "greedy", "bot"), b"s", 7)
    assert await queue.post(BotJob("clocked", 2, "green", "greedy", "clock"), b"s", 2)
    assert await queue.waiting_by_class() == {"urgent": 1, "quick": 1, "search": 6}
    taken = await _work(queue, 8)
    assert [j.room for j in taken[:2]] == ["clocked", "plain"]
    assert {j.room for j in taken[2:]} == {f"deep{i}" for i in range(6)}
    assert await queue.waiting_by_class() == {"urgent": 0, "quick": 0, "search": 0}


async def test_a_worker_that_never_searches_leaves_the_searches(store: Store, prefix: str):
    queue = BotQueue(store.redis, prefix, "w1")
    await queue.post(BotJob("deep", 3, "red", "search", "bot"), b"s", 3)
    await queue.post(BotJob("plain", 7, "blue", "random", "bot"), b"s", 7)
    taken = await _work(queue, 1, classes=worker.QUICK)
    assert [j.room for j in taken] == ["plain"]
    assert await queue.waiting_by_class() == {"urgent": 0, "quick": 0, "search": 1}


async def test_a_repost_never_adds_a_copy(store: Store, prefix: str, monkeypatch: pytest.MonkeyPatch):
    queue = BotQueue(store.redis, prefix, "s1")
    job = BotJob("r1", 4, "red", "search", "bot")
    assert await queue.post(job, b"s", 4)
    assert not await queue.post(job, b"s", 4)   # within the guard: it stands
    monkeypatch.setattr(worker, "JOB_GUARD", 0.0)   # the guard ran out, as the timers post again
    for _ in range(3):
        assert not await queue.post(job, b"s", 4)   # still queued: it stands (and keeps its place)
    assert await queue.waiting_by_class() == {"urgent": 0, "quick": 0, "search": 1}
    stream = queue.streams["search"]
    lost = (await store.redis.xrange(stream))[0][0]
    await store.redis.xdel(stream, lost)   # lost (a Redis restart): posted again
    assert await queue.post(job, b"s", 4)
    later = BotJob("r1", 6, "red", "search", "bot")   # the next round's decision replaces a queued one
    assert await queue.post(later, b"s", 6)
    assert await queue.waiting_by_class() == {"urgent": 0, "quick": 0, "search": 1}
    taken = await _work(queue, 1)
    assert taken == [later]


async def test_a_job_the_game_moved_past_is_dropped_before_thinking(store: Store, prefix: str):
    """The worker asks the store whether the job's decision is still pending (version, round, colour)."""
    for room, v in (("r1", 9), ("r2", 4)):
        await store.redis.hset(store.keys.key("game", room),
                               mapping={"v": v, "to_move": "blue", "at": 1.0, "began": 1.0, "began_v": v})
    queue = BotQueue(store.redis, prefix, "w1")
    stale = [BotJob("r1", 8, "blue", "search", "bot"),     # an older version
             BotJob("r1", 9, "red", "greedy", "bot"),      # not red's decision
             BotJob("gone", 9, "blue", "greedy", "bot")]   # no such game
    for job in stale:
        assert await queue.post(job, b"s", job.v)
    due = BotJob("r2", 4, "blue", "search", "bot")
    assert await queue.post(due, b"s", 4)
    taken = await _work(queue, 1, lambda job: store.games.decision_pending(job.room, v=job.v, colour=job.colour))
    assert taken == [due]
    assert await queue.waiting_by_class() == {"urgent": 0, "quick": 0, "search": 0}

"""Bots at a live table (issue 13): each bot seat plays at its level, thinking in a worker process
(server/bots/thinking.py), so a bot at full budget never stalls the other rooms of its server process."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time

from tablekit import Client, InProcessServer, people

from server.app import AUTHORITY
from server.bots.worker import BotJob


async def test_a_search_bot_thinks_outside_the_event_loop(server, clients, store):
    thinker, player = await people(server.url, clients, "Thinker", "Player")
    # room A: three search bots (a second per decision) and their host, the bots first
    a = (await thinker.ok("room_create", {"name": "deep", "seats": 4, "bot_pace": 0, "first": 1}))["room"]["id"]
    await thinker.join(a)
    for seat in (1, 2, 3):
        await thinker.ok("bot_add", {"room": a, "seat": seat, "level": "search"})
    # room B: a person and a random bot, playing meanwhile
    b = (await player.ok("room_create", {"name": "quick", "seats": 2, "bot_pace": 0, "first": 0}))["room"]["id"]
    await player.join(b)
    await player.ok("bot_add", {"room": b, "seat": 1, "level": "random"})
    started = time.monotonic()
    await thinker.ok("room_start", {"room": a})
    await player.ok("room_start", {"room": b})
    await player.wait(lambda: b in player.views)
    rng = random.Random(5)
    answers = []
    # until room B has played enough (its own bot's moves wait in the same workers' queue as room A's
    # searches, so how long that takes varies), or 10 s
    while len(answers) < 12 and time.monotonic() - started < 10:
        v, actions = player.legals.get(b, (None, []))
        if v is None or v != player.v(b):
            await asyncio.sleep(0.01)
            continue
        sent = time.monotonic()
        answer = await player.call("act", {"room": b, "v": v, "action": rng.choice(actions)})
        answers.append(time.monotonic() - sent)
        assert answer["ok"] or answer["error"]["code"] == "stale_version", answer
        if player.over(b):
            break
    elapsed = time.monotonic() - started
    by_bots = [x for x in await store.actions(a) if x["by"] == "bot"]
    print(f"\n  room B: {len(answers)} actions, slowest answer {max(answers) * 1000:.0f} ms; "
          f"room A: {len(by_bots)} search decisions in {elapsed:.1f} s")
    assert len(answers) >= 10
    assert by_bots, "the search bots made no move"
    assert len(by_bots) <= elapsed + 2   # a second each: they did think at their budget
    assert max(answers) < 0.5  # a search decision in the event loop would hold an answer for a second


async def _bot_to_move(server: InProcessServer, clients: list[Client]) -> str:
    """A started room whose first decision is a random bot's (a second seat held by a person)."""
    host, = await people(server.url, clients, "Host")
    room = (await host.ok("room_create", {"name": "waits", "seats": 2, "bot_pace": 0, "first": 1}))["room"]["id"]
    await host.join(room)
    await host.ok("bot_add", {"room": room, "seat": 1, "level": "random"})
    await host.ok("room_start", {"room": room})
    return room


async def test_a_job_a_dead_worker_took_is_done_by_another(config, clients, store, redis_url):
    """A worker that took a job and died (it never answers) does not stall the game: another worker
    claims the job once it waited `bot_reclaim` seconds (XAUTOCLAIM), here a `tongiaki bots` process."""
    server = await InProcessServer(config.with_(bot_workers=0, bot_reclaim=1.0)).start()
    worker = None
    try:
        room = await _bot_to_move(server, clients)
        jobs = f"{config.prefix}:bots:jobs"
        deadline = time.monotonic() + 5
        while not await store.redis.xlen(jobs):
            assert time.monotonic() < deadline, "no job was posted"
            await asyncio.sleep(0.05)
        await store.redis.xgroup_create(jobs, "workers", id="0", mkstream=True)
        taken = await store.redis.xreadgroup("workers", "ghost", {jobs: ">"}, count=1)   # and dies
        assert taken and taken[0][1]
        env = {**os.environ, "REDIS_URL": redis_url, "TONGIAKI_PREFIX": config.prefix, "TONGIAKI_BOT_RECLAIM": "1"}
        worker = subprocess.Popen([sys.executable, "-m", "server", "bots"], env=env)
        deadline = time.monotonic() + 15
        while (await store.game_head(room)).v == 0:
            assert time.monotonic() < deadline, "the job was not reclaimed"
            await asyncio.sleep(0.1)
        assert [a["by"] for a in await store.actions(room)][:1] == ["bot"]
        # the worker acknowledges the job just after posting its answer, which the server may apply first
        while (pending := await store.redis.xpending(jobs, "workers"))["pending"]:
            assert time.monotonic() < deadline, pending
            await asyncio.sleep(0.05)
        assert pending == {"pending": 0, "min": None, "max": None, "consumers": []}
    finally:
        if worker is not None:
            worker.terminate()
            assert worker.wait(10) == 0   # a clean stop on SIGTERM
        for c in clients:
            await c.close()
        await server.stop()


async def test_an_answer_for_a_game_that_moved_on_is_dropped(server, clients, store):
    room = await _bot_to_move(server, clients)
    deadline = time.monotonic() + 10
    # the bot made its first move (the version is 1 now) and its broadcast was recorded (`sent`, written
    # a moment after the move by the realtime layer: read before that, the head would change under the test)
    while (head := await store.game_head(room)).v == 0 or head.sent < head.v:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    authority = server.app[AUTHORITY]
    stale = BotJob(room, 0, "red", "random", "bot")
    assert await authority.bot_done(stale, {"type": "setup", "beach": 0}) is None
    assert await store.game_head(room) == head
    assert len(await store.actions(room)) == 1

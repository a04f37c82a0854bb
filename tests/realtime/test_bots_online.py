"""Bots at a live table: each bot seat plays at its level, thinking in a worker process
(server/bots/thinking.py), so a bot at full budget never stalls the other rooms of its server process."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from itertools import pairwise

from tablekit import Client, InProcessServer, people

from server.app import AUTHORITY
from server.bots.worker import BotJob, job_streams


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
    # until room B has played enough while room A's search bots think (their first decision is a turn's
    # budget away: B's twelve moves alone can take less), or 10 s after B's bot's first answer (the bot
    # workers start first: seconds on a loaded machine)
    window = started + 60

    async def searched() -> bool:
        return any(x["by"] == "bot" for x in await store.games.actions(a))

    while (len(answers) < 12 or not await searched()) and time.monotonic() < window:
        if len(answers) == 2 and window > time.monotonic() + 10:
            window = time.monotonic() + 10
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
    by_bots = [x for x in await store.games.actions(a) if x["by"] == "bot"]
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
        jobs = job_streams(config.prefix)["quick"]   # a random bot's job
        deadline = time.monotonic() + 5
        while not await store.redis.xlen(jobs):
            assert time.monotonic() < deadline, "no job was posted"
            await asyncio.sleep(0.05)
        await store.redis.xgroup_create(jobs, "workers", id="0", mkstream=True)
        taken = await store.redis.xreadgroup("workers", "ghost", {jobs: ">"}, count=1)   # and dies
        assert taken and taken[0][1]
        env = {**os.environ, "REDIS_URL": redis_url, "TONGIAKI_PREFIX": config.prefix, "TONGIAKI_BOT_RECLAIM": "1"}
        worker = subprocess.Popen([sys.executable, "-m", "server", "bots"], env=env)
        deadline = time.monotonic() + 30   # the worker starts first (seconds on a loaded machine)
        while (await store.games.game_head(room)).v == 0:
            assert time.monotonic() < deadline, "the job was not reclaimed"
            await asyncio.sleep(0.1)
        assert [a["by"] for a in await store.games.actions(room)][:1] == ["bot"]
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
    deadline = time.monotonic() + 30   # the bot workers start first (seconds on a loaded machine)
    # the bot made its first move (the version is 1 now) and its broadcast was recorded (`sent`, written
    # a moment after the move by the realtime layer: read before that, the head would change under the test)
    while (head := await store.games.game_head(room)).v == 0 or head.sent < head.v:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    authority = server.app[AUTHORITY]
    stale = BotJob(room, 0, "red", "random", "bot")
    assert await authority.bot_done(stale, {"type": "setup", "beach": 0}) is None
    assert await store.games.game_head(room) == head
    assert len(await store.games.actions(room)) == 1


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def test_a_quick_bot_answers_at_once_beside_rooms_of_search_bots(server, clients, store):
    """The starvation attack, bounded: three rooms of search bots (each from its own throwaway person,
    thinking without pause) beside one room where a person plays a random bot. Its jobs (the class of
    random and greedy bots) go before every search (their own stream, and a worker that never searches),
    so it answers within a second, p99; in one FIFO queue it waited for the searches before it (a second
    each). The random level thinks for a millisecond, so what is measured is the queue (a greedy bot's own
    thinking, up to half a second of CPU at its p99, would measure the machine's load too; bench.bots
    --turns measures that)."""
    attackers = await people(server.url, clients, "A1", "A2", "A3")
    deep = []
    for attacker in attackers:
        room = (await attacker.ok("room_create", {"name": "deep", "seats": 4, "bot_pace": 0}))["room"]["id"]
        await attacker.ok("stand", {"room": room, "seat": 0})
        for seat in (1, 2, 3):
            await attacker.ok("bot_add", {"room": room, "seat": seat, "level": "search"})
        deep.append(room)
    player, = await people(server.url, clients, "Player")
    plain = (await player.ok("room_create", {"name": "plain", "seats": 2, "bot_pace": 0, "first": 0}))["room"]["id"]
    await player.join(plain)
    await player.ok("bot_add", {"room": plain, "seat": 1, "level": "random"})
    for attacker, room in zip(attackers, deep, strict=True):
        await attacker.ok("room_start", {"room": room, "fill_with_bots": True})

    async def searches() -> int:
        done = 0
        for room in deep:
            done += sum(1 for x in await store.games.actions(room) if x["by"] == "bot")
        return done

    # the searches under way before the plain game starts (the searching worker, at a lower CPU priority,
    # can take seconds to start on a loaded machine: the plain game could end before any search began)
    async with asyncio.timeout(90):
        while await searches() < 3:
            await asyncio.sleep(0.1)   # (no event to wait on: the store is polled)
    await player.ok("room_start", {"room": plain})
    await player.wait(lambda: plain in player.views)
    rng = random.Random(7)
    started = None
    deadline = time.monotonic() + 90   # the workers start first (seconds on a loaded machine)
    while time.monotonic() < deadline and not player.over(plain):
        v, actions = player.legals.get(plain, (None, []))
        if v is None or v != player.v(plain):
            await asyncio.sleep(0.005)
            continue
        if started is None and v > 2:
            started = time.time()   # the workers are up: the bot has answered
            deadline = min(deadline, time.monotonic() + 20)
        answer = await player.call("act", {"room": plain, "v": v, "action": rng.choice(actions)})
        assert answer["ok"] or answer["error"]["code"] == "stale_version", answer
    assert started is not None, "the bot never answered"
    log = await store.games.actions(plain)
    waits = [b["at"] - a["at"] for a, b in pairwise(log) if b["by"] == "bot" and a["at"] >= started]
    searched = await searches()
    print(f"\n  random bot: {len(waits)} decisions beside {searched} search decisions, wait p50 "
          f"{percentile(waits, 50) * 1000:.0f} ms, p99 {percentile(waits, 99) * 1000:.0f} ms")
    assert len(waits) >= 10
    assert searched >= 3   # the searches did run meanwhile
    assert percentile(waits, 99) < 1.0


async def test_a_bot_waits_its_pace_once_per_turn(server, clients, store):
    """A bot's turn is one pace and then all its decisions (a chain of them: R6-R9) at once (a pace per
    decision would make a turn of five decisions take five paces)."""
    player, = await people(server.url, clients, "Player")
    pace = 1.5   # long beside a decision's round trip, even on a loaded machine
    room = (await player.ok("room_create", {"name": "paced", "seats": 2, "bot_pace": pace, "first": 0}))["room"]["id"]
    await player.join(room)
    await player.ok("bot_add", {"room": room, "seat": 1, "level": "random"})
    await player.ok("room_start", {"room": room})
    await player.wait(lambda: room in player.views)
    rng = random.Random(3)
    deadline = time.monotonic() + 90
    chained: list[float] = []   # seconds between a bot's decisions within one turn
    opening: list[float] = []   # seconds from the person's last decision to the bot's first
    while time.monotonic() < deadline and not player.over(room) and len(chained) < 4:
        v, actions = player.legals.get(room, (None, []))
        if v is None or v != player.v(room):
            await asyncio.sleep(0.01)
            continue
        answer = await player.call("act", {"room": room, "v": v, "action": rng.choice(actions)})
        assert answer["ok"] or answer["error"]["code"] == "stale_version", answer
        log = await store.games.actions(room)
        opening = [b["at"] - a["at"] for a, b in pairwise(log) if a["by"] != "bot" and b["by"] == "bot"]
        chained = [b["at"] - a["at"] for a, b in pairwise(log)
                   if a["by"] == b["by"] == "bot" and a["colour"] == b["colour"]]
    print(f"\n  {len(opening)} bot turns, each after {min(opening):.2f}-{max(opening):.2f} s; "
          f"{len(chained)} chained decisions, each after {max(chained, default=0):.2f} s at most")
    assert len(chained) >= 2, "no bot turn of several decisions came up"
    assert min(opening) >= pace - 0.05   # the pace is still waited at the turn's start
    assert max(chained) < pace / 2       # and not again within the turn

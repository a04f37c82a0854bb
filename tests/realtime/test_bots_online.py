"""Bots at a live table (issue 13): each bot seat plays at its level, thinking in a worker process
(server/bots/thinking.py), so a bot at full budget never stalls the other rooms of its server process."""

from __future__ import annotations

import asyncio
import random
import time

from tablekit import people


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
    while time.monotonic() - started < 4:
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
    by_bots = [x for x in await store.actions(a) if x["by"] == "bot"]
    print(f"\n  room B: {len(answers)} actions, slowest answer {max(answers) * 1000:.0f} ms; "
          f"room A: {len(by_bots)} search decisions in {time.monotonic() - started:.1f} s")
    assert len(answers) >= 10
    assert by_bots, "the search bots made no move"
    assert len(by_bots) <= 6   # a second each: they did think at their budget
    assert max(answers) < 0.5  # a search decision in the event loop would hold an answer for a second

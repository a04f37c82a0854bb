"""Who may read game records, and what a request costs: a private room's games are listed to its players
only and read only by them or with the room's code; a live replay grows from its last version; a finished
replay is built once and revalidated by its ETag; one address asking too often is answered 429."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from multidict import CIMultiDict
from tablekit import InProcessServer, people, table
from test_records import COLOURS, played

from server.config import Config
from server.records import api
from server.records.replay import Growing, frames


async def get(url: str, token: str | None = None, **headers: str) -> tuple[int, Any, CIMultiDict[str]]:
    if token:
        headers["Authorization"] = f"Bearer {token}"
    async with aiohttp.ClientSession() as http, http.get(url, headers=headers) as r:
        body = await r.json() if r.content_type == "application/json" else await r.read()
        return r.status, body, r.headers.copy()


async def test_a_private_game_is_listed_to_its_players_and_read_with_a_seat_or_the_code(server, clients):
    room, (a,) = await table(server.url, humans=1, seats=2, bots=1, private=True)
    clients.append(a)
    rival, = await people(server.url, clients, "Rival")
    code = a.rooms[room]["code"]
    me, token, other = a.session["person"], a.session["token"], rival.session["token"]
    await a.play(room, random.Random(2), stop_at=10)
    # live: the record so far and its replay, with a seat or with the code only
    for path in (f"/api/games/{room}", f"/api/games/{room}/replay"):
        assert (await get(server.url + path))[0] == 404
        assert (await get(server.url + path, other))[0] == 404
        assert (await get(server.url + path + "?code=ZZZZZZ"))[0] == 404
        assert (await get(server.url + path + f"?code={code.lower()}"))[0] == 200
        status, body, headers = await get(server.url + path, token)
        assert status == 200 and body["live"] and headers["Cache-Control"].startswith("private")
    await a.play(room, random.Random(2))
    await a.wait(lambda: a.rooms[room]["status"] == "finished")
    # finished: listed to its player only (not in the public list, nor in the player's list for others)
    assert (await get(f"{server.url}/api/games"))[1]["games"] == []
    assert (await get(f"{server.url}/api/games?person={me}"))[1]["games"] == []
    assert (await get(f"{server.url}/api/games?person={me}", other))[1]["games"] == []
    status, body, headers = await get(f"{server.url}/api/games?person={me}", token)
    assert [g["id"] for g in body["games"]] == [room] and body["games"][0]["private"] is True
    assert headers["Cache-Control"] == "private, no-cache"
    for path in (f"/api/games/{room}", f"/api/games/{room}/replay"):
        assert (await get(server.url + path))[0] == 404
        assert (await get(server.url + path, other))[0] == 404
        assert (await get(server.url + path, "not-a-token"))[0] == 404
        assert (await get(server.url + path + "?code=ZZZZZZ"))[0] == 404
        status, body, headers = await get(server.url + path + f"?code={code}")
        assert status == 200 and headers["Cache-Control"] == "private, max-age=3600"
        assert (await get(server.url + path, token))[0] == 200
        assert "code" not in body and code not in str(body)


@pytest.mark.parametrize(("n", "seed", "step"), [(3, 2, 1), (4, 7, 3)])
def test_a_live_replay_grown_version_by_version_is_the_replay_rebuilt_from_the_start(n, seed, step):
    record, _seen = played(list(COLOURS[:n]), seed)
    whole = frames(record)
    growing = Growing()
    for k in range(0, len(record.actions) + 1, step):
        drawn = sum(1 for f in whole[1:k + 1] for e in f["events"] if e["type"] == "tile_drawn")
        so_far = dataclasses.replace(record, actions=record.actions[:k], drawn=record.drawn[:drawn])
        assert growing.grow(so_far) == whole[:k + 1], k


async def test_a_replay_is_built_once_and_revalidated_by_its_etag(server, clients, store):
    room, (a,) = await table(server.url, humans=1, seats=2, bots=1)
    clients.append(a)
    await a.play(room, random.Random(3), stop_at=14)
    served = server.app[api.SERVED]
    live = (await get(f"{server.url}/api/games/{room}/replay"))[1]
    assert room in served.live and len(live["frames"]) >= 15
    await a.play(room, random.Random(3))
    await a.wait(lambda: a.rooms[room]["status"] == "finished")
    status, first, headers = await get(f"{server.url}/api/games/{room}/replay")
    assert status == 200 and "live" not in first and first["frames"][:15] == live["frames"][:15]
    assert room not in served.live and room in served.finished
    # kept beside the record: another process (or this one, having let it go) reads it, not rebuilds it
    assert await store.redis.hexists(f"{store.prefix}:record:{room}", "replay")
    served.finished.clear()
    status, again, again_headers = await get(f"{server.url}/api/games/{room}/replay")
    assert status == 200, (status, again)
    assert (again, again_headers["ETag"]) == (first, headers["ETag"])
    # a copy held is revalidated without a body, even by a process that holds nothing of it
    served.finished.clear()
    for path in (f"/api/games/{room}", f"/api/games/{room}/replay"):
        tag = (await get(server.url + path))[2]["ETag"]
        served.finished.clear()
        status, body, _ = await get(server.url + path, **{"If-None-Match": tag})
        assert (status, body) == (304, b"")
    assert room not in served.finished


@pytest.fixture
async def behind_proxy(redis_url: str, prefix: str, tmp_path: Path):
    """A server that takes the client's address from X-Forwarded-For, as behind our nginx."""
    config = Config(host="127.0.0.1", port=0, redis_url=redis_url, prefix=prefix, tick=0.01, presence_ttl=3.0,
                    client_dir=tmp_path / "dist", rate=1000.0, burst=1000.0, forwarded_for=True)
    running = await InProcessServer(config).start()
    yield running
    await running.stop()


async def test_one_address_asking_too_often_is_answered_429_and_others_are_not(behind_proxy, clients):
    """100 requests in a second from one address: beyond the burst, 429 with a JSON error and when to ask
    again; another address is answered as usual meanwhile, and so is the same one once it waited."""
    server = behind_proxy
    room, (a,) = await table(server.url, humans=1, seats=2, bots=1)
    clients.append(a)
    await a.play(room, random.Random(1), stop_at=10)
    paths = [f"/api/games/{room}/replay", f"/api/games/{room}", "/api/games"]
    async with aiohttp.ClientSession(headers={"X-Forwarded-For": "198.51.100.7"}) as attacker, \
            aiohttp.ClientSession(headers={"X-Forwarded-For": "203.0.113.9"}) as player:
        async def ask(http: aiohttp.ClientSession, path: str) -> tuple[int, Any, str | None]:
            async with http.get(server.url + path) as r:
                return r.status, await r.json(), r.headers.get("Retry-After")

        answers, began = [], time.monotonic()
        for i in range(10):   # 100 requests over a second, in bursts of ten
            answers += await asyncio.gather(*(ask(attacker, paths[j % 3]) for j in range(10)))
            assert (await ask(player, paths[i % 3]))[0] == 200
            await asyncio.sleep(0.1)
        statuses, most = [s for s, _, _ in answers], api.BURST + api.RATE * (time.monotonic() - began) + 1
        assert statuses.count(200) <= most and statuses.count(200) + statuses.count(429) == 100, statuses
        refused = next(a for a in answers if a[0] == 429)
        assert refused[1]["error"]["code"] == "too_many_requests" and int(refused[2]) >= 1
        await asyncio.sleep(1.0)
        assert (await ask(attacker, "/api/games"))[0] == 200   # it waited: answered again

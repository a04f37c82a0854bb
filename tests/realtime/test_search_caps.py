"""Caps on search bots: per room, per person (the open rooms they host) and in total (the rooms
at play), each refused with a clear code that changes nothing."""

from __future__ import annotations

from tablekit import InProcessServer, people

from server.app import AUTHORITY
from server.lobby.rooms import SEARCH_PER_PERSON, SEARCH_PER_ROOM


async def _room(host, seats: int = 6) -> str:  # type: ignore[no-untyped-def]
    return (await host.ok("room_create", {"name": "deep", "seats": seats, "bot_pace": 0}))["room"]["id"]


async def test_a_room_seats_a_few_search_bots(server, clients):
    host, = await people(server.url, clients, "Host")
    room = await _room(host)
    for seat in range(1, SEARCH_PER_ROOM + 1):
        await host.ok("bot_add", {"room": room, "seat": seat, "level": "search"})
    answer = await host.call("bot_add", {"room": room, "seat": SEARCH_PER_ROOM + 1, "level": "search"})
    assert answer["error"]["code"] == "too_many_search_bots", answer
    # a greedy bot there is fine, but raising its level is the same search bot too many
    await host.ok("bot_add", {"room": room, "seat": SEARCH_PER_ROOM + 1, "level": "greedy"})
    answer = await host.call("bot_level", {"room": room, "seat": SEARCH_PER_ROOM + 1, "level": "search"})
    assert answer["error"]["code"] == "too_many_search_bots", answer
    levels = [s["level"] for s in host.rooms[room]["seats"]]
    assert levels.count("search") == SEARCH_PER_ROOM and levels[SEARCH_PER_ROOM + 1] == "greedy"
    # a search bot's level set again is no new one
    await host.ok("bot_level", {"room": room, "seat": 1, "level": "search"})


async def test_a_person_seats_a_few_search_bots_over_all_their_rooms(server, clients):
    host, other = await people(server.url, clients, "Host", "Other")
    first, second = await _room(host), await _room(host)
    for seat in range(1, SEARCH_PER_ROOM + 1):
        await host.ok("bot_add", {"room": first, "seat": seat, "level": "search"})
    for seat in range(1, SEARCH_PER_PERSON - SEARCH_PER_ROOM + 1):
        await host.ok("bot_add", {"room": second, "seat": seat, "level": "search"})
    answer = await host.call("bot_add", {"room": second, "seat": 5, "level": "search"})
    assert answer["error"]["code"] == "too_many_search_bots", answer
    assert host.rooms[second]["seats"][5]["kind"] == "empty"
    # another person is not held to this one's count
    theirs = await _room(other)
    await other.ok("bot_add", {"room": theirs, "seat": 1, "level": "search"})


async def test_a_start_beyond_the_search_bots_at_play_is_refused(config, clients, store):
    server = await InProcessServer(config.with_(search_bots=4, bot_workers=0)).start()
    try:
        first, second = await people(server.url, clients, "First", "Second")
        playing = await _room(first, 4)
        for seat in (1, 2, 3):
            await first.ok("bot_add", {"room": playing, "seat": seat, "level": "search"})
        await first.ok("room_start", {"room": playing})
        waiting = await _room(second, 3)
        for seat in (1, 2):
            await second.ok("bot_add", {"room": waiting, "seat": seat, "level": "search"})
        answer = await second.call("room_start", {"room": waiting})
        assert answer["error"]["code"] == "search_bots_busy", answer
        assert (await store.rooms.get(waiting)).status == "waiting"
        await second.ok("bot_level", {"room": waiting, "seat": 2, "level": "greedy"})   # 3 + 1: within 4
        await second.ok("room_start", {"room": waiting})
        assert (await store.rooms.get(waiting)).status == "playing"
        # a finished game gives its search bots back
        third = await _room(second, 4)
        for seat in (1, 2, 3):
            await second.ok("bot_add", {"room": third, "seat": seat, "level": "search"})
        assert (await second.call("room_start", {"room": third}))["error"]["code"] == "search_bots_busy"
        await server.app[AUTHORITY].finish(playing)
        await second.ok("room_start", {"room": third})
    finally:
        for c in clients:
            await c.close()
        await server.stop()

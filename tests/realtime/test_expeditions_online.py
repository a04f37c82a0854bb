"""Expeditions rooms over the wire (docs/protocol.md §14; EXPEDITIONS.md E3): the mode is chosen at
creation, everyone orders at once, orders stay secret until the turn resolves, the turn resolves when
every order is in or at the deadline, and each order applies exactly once, across processes."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from tablekit import Client, InProcessServer, packed, people, stored_view, table, walk

from server.game.expeditions import Expeditions
from server.game.expeditions.bots import RandomBot

DEADLINE = 30   # the shortest turn deadline (seconds)


async def expeditions_table(url: str, clients: list[Client], humans: int) -> tuple[str, list[Client]]:
    """A started Expeditions room of `humans` seated clients (seats in order), the shortest deadline."""
    room, players = await table(url, humans, game="expeditions", clock=DEADLINE)
    clients.extend(players)
    assert players[0].rooms[room]["settings"]["game"] == "expeditions"
    return room, players


def my_order(client: Client, room: str) -> dict[str, Any] | None:
    """This client's `legal` payload for the current turn, once it has one for the current version."""
    held = client.legals.get(room)
    if held is None or held[0] != client.v(room):
        return None
    return held[1]


def to_order(client: Client, room: str) -> bool:
    """Whether the client has the order form of the current version and no order in yet."""
    payload = my_order(client, room)
    return payload is not None and payload["order"] is None


def random_order(client: Client, room: str, rng: random.Random) -> dict[str, Any]:
    """A random legal order, chosen by the engine's random bot on the colour's public view rebuilt as a
    position (the client knows only what the server sent it)."""
    payload = my_order(client, room)
    assert payload is not None and payload["options"] is not None
    options = payload["options"]
    kinds = ["pass"] + ["expand"] * bool(options["expand"]) + ["royal"] * bool(options["royal"])
    kind = rng.choice(kinds)
    if kind == "royal":
        return {"type": "royal", "island": rng.choice(options["royal"])}
    if kind == "expand":
        act = rng.choice(options["expand"])
        placed = min(act["moves"], options["supply"])
        return {"type": "expand", "island": act["island"], "moves": {rng.choice("NESW"): placed}} if placed \
            else {"type": "pass"}
    return {"type": "pass"}


async def order_every_turn(client: Client, room: str, rng: random.Random) -> int:
    """Sends a legal order each turn until the game is over; returns the turns it ordered in."""
    ordered = 0
    while True:
        await client.wait_healing(room, lambda: client.over(room) or to_order(client, room))
        if client.over(room):
            return ordered
        v = client.v(room)
        order = random_order(client, room, rng)
        answer = await client.call("act", {"room": room, "v": v, "action": order})
        if answer["ok"]:
            ordered += 1
            await client.wait(lambda v=v: client.v(room) > v)
        elif answer["error"]["code"] == "illegal_action":   # an expansion beyond the beach's room: pass
            answer = await client.call("act", {"room": room, "v": v, "action": {"type": "pass"}})
            assert answer["ok"] or answer["error"]["code"] == "stale_version", answer
            await client.wait(lambda v=v: client.v(room) > v)
        else:
            assert answer["error"]["code"] == "stale_version", answer
            await client.wait(lambda v=v: client.v(room) > v)


async def test_the_lobby_offers_the_mode_and_refuses_what_it_does_not_have(server, clients):
    host, watcher = await people(server.url, clients, "Host", "Watcher")
    await watcher.ok("lobby_watch")
    bad = [{"game": "chess"}, {"game": "expeditions"},                         # no such mode; no deadline
           {"game": "expeditions", "clock": 10}, {"game": "expeditions", "clock": 73 * 3600},
           {"game": "expeditions", "clock": 60, "variants": {"two_colours": True}},
           {"game": "expeditions", "clock": 60, "first": 0}]
    for extra in bad:
        answer = await host.call("room_create", {"name": "x", "seats": 3, **extra})
        assert not answer["ok"] and answer["error"]["code"] == "malformed", (extra, answer)
    made = await host.ok("room_create", {"name": "days", "seats": 5, "game": "expeditions", "clock": 72 * 3600})
    assert made["room"]["settings"]["clock"] == 72 * 3600
    await watcher.wait(lambda: any(m.get("room", {}).get("game") == "expeditions" for m in watcher.lobby
                                   if m["op"] == "upsert"))


async def test_a_whole_game_with_people_and_bots_ends_with_a_result(server, clients, store):
    """E3, E12: two people and two bots (random and greedy) order every turn until the game ends; every
    client's view equals the stored one, and the room is finished."""
    players = await people(server.url, clients, "P0", "P1")
    host = players[0]
    room = (await host.ok("room_create", {"name": "expedition", "game": "expeditions", "seats": 4,
                                          "clock": DEADLINE, "bot_pace": 0}))["room"]["id"]
    await host.join(room)
    await players[1].join(room)
    await players[1].ok("sit", {"room": room, "seat": 1})
    await host.ok("bot_add", {"room": room, "seat": 2, "level": "random"})
    await host.ok("bot_add", {"room": room, "seat": 3, "level": "greedy"})
    spectator = (await people(server.url, clients, "S"))[0]
    await spectator.join(room)
    await host.ok("room_start", {"room": room})
    for c in players + [spectator]:
        await c.wait(lambda c=c: room in c.views)
    assert host.view(room)["mode"] == "expeditions" and host.view(room)["turn"] == 1
    turns = await asyncio.gather(*(order_every_turn(p, room, random.Random(i)) for i, p in enumerate(players)))
    final = await stored_view(store, room)
    assert final["view"]["phase"] == "over" and final["view"]["result"] is not None
    for c in players + [spectator]:
        await c.wait(lambda c=c: c.v(room) == final["v"])
        assert c.view(room) == final["view"]
        await c.wait(lambda c=c: c.rooms[room]["status"] == "finished")
    assert all(t >= 1 for t in turns)
    # every turn the bots ordered too: each resolution revealed an order (or a pass) for all four colours
    reveals = [e for _, m in spectator.received if _ == "game" for e in m["events"] if e["type"] == "orders"]
    assert reveals and all(set(e["orders"]) == {"red", "blue", "green", "yellow"} for e in reveals)
    assert all(e["orders"]["blue"] is not None or e["orders"]["red"] is not None for e in reveals)
    bots_ordered = sum(1 for e in reveals for c in ("green", "yellow") if e["orders"][c] is not None)
    assert bots_ordered == 2 * len(reveals)
    # the record is kept, and its replay is the game as the spectator received it
    import aiohttp

    async with aiohttp.ClientSession() as http:
        async with http.get(f"{server.url}/api/games/{room}") as r:
            record = await r.json()
        async with http.get(f"{server.url}/api/games/{room}/replay") as r:
            replay = await r.json()
    assert record["settings"]["game"] == "expeditions" and record["result"]["winners"]
    received = sorted((m for e, m in spectator.received if e == "game"), key=lambda m: m["v"])
    assert [f["v"] for f in replay["frames"]] == list(range(final["v"] + 1))
    assert [f["events"] for f in replay["frames"]][-len(received):] == [m["events"] for m in received]


async def test_orders_stay_secret_until_the_turn_resolves(server, clients, store):
    """E3: everyone sees who has ordered, nobody what; the orderer alone gets their order back."""
    room, (a, b, c) = await expeditions_table(server.url, clients, humans=3)
    spectator = (await people(server.url, clients, "S"))[0]
    await spectator.join(room)
    await a.wait(lambda: my_order(a, room) is not None)
    order = {"type": "expand", "island": "TONG", "moves": {"N": 2}}
    v = a.v(room)
    assert (await a.call("act", {"room": room, "v": v, "action": order}))["ok"]
    for x in (a, b, c, spectator):
        await x.wait(lambda x=x: x.v(room) == v + 1)
    submitted = {p["colour"]: p["submitted"] for p in spectator.view(room)["players"]}
    assert submitted == {"red": True, "blue": False, "green": False}
    await a.wait(lambda: my_order(a, room) is not None)
    assert my_order(a, room)["order"] == order and my_order(a, room)["options"]["expand"]   # E3: replaceable
    # a late joiner and a catch-up are messages too
    late = (await people(server.url, clients, "Late"))[0]
    await late.join(room)
    await b.ok("since", {"room": room, "v": 0})
    seen_by_others = [packed(m) for x in (b, c, spectator, late) for m in x.received]
    assert not any(packed(order["moves"]) in blob and b"TONG" in blob and b"expand" in blob
                   for blob in seen_by_others), "red's order reached another client before the resolution"
    for x in (b, c, spectator, late):
        for _event, payload in x.received:
            for node in walk(payload):
                assert node != order, (x.name, payload)
    # the others order; the last order resolves the turn, and only then is red's order public
    for x in (b, c):
        await x.wait(lambda x=x: to_order(x, room))
        assert (await x.call("act", {"room": room, "v": x.v(room), "action": {"type": "pass"}}))["ok"]
    await spectator.wait(lambda: spectator.view(room)["turn"] == 2)
    reveal = next(e for _, m in spectator.received if _ == "game" for e in m["events"] if e["type"] == "orders")
    assert reveal["orders"] == {"red": order, "blue": {"type": "pass"}, "green": {"type": "pass"}}
    # the state kept on the server matches: the engine replayed from the stored state's log
    stored = Expeditions.from_bytes((await store.games.game(room))["state"])
    assert stored.log[0]["red"] == order and stored.turn == 2


async def test_an_order_may_be_replaced_or_withdrawn_until_the_turn_resolves(server, clients, store):
    """E3: a player "may replace it until the turn is resolved": a second order replaces the first, and
    `withdraw` takes it back; the others see only whether an order is in. The turn resolves with the
    version in at the end; the log keeps no order, only that one was sent or withdrawn."""
    from server.lobby.expeditions import CHANGES

    room, (a, b) = await expeditions_table(server.url, clients, humans=2)
    spectator = (await people(server.url, clients, "S"))[0]
    await spectator.join(room)
    await a.wait(lambda: to_order(a, room))
    red = lambda: next(p for p in spectator.view(room)["players"] if p["colour"] == "red")  # noqa: E731
    first = {"type": "expand", "island": "TONG", "moves": {"N": 2}}
    second = {"type": "expand", "island": "TONG", "moves": {"E": 1, "S": 1}}
    for order in (first, second):   # the second replaces the first: no already_ordered, no not_your_turn
        v = a.v(room)
        assert (await a.call("act", {"room": room, "v": v, "action": order}))["ok"]
        await spectator.wait(lambda v=v: spectator.v(room) == v + 1)
        assert red()["submitted"] is True
        await a.wait(lambda v=v: my_order(a, room) is not None)
        assert my_order(a, room)["order"] == order and my_order(a, room)["options"]["expand"]
    # withdrawn: nobody's order is in; the others see only that
    v = a.v(room)
    assert (await a.ok("withdraw", {"room": room}))["v"] == v + 1
    await spectator.wait(lambda: spectator.v(room) == v + 1)
    assert red()["submitted"] is False
    message = next(m for e, m in spectator.received if e == "game" and m["v"] == v + 1)
    assert message["events"] == [{"type": "withdrawn", "colour": "red", "turn": 1}]
    await a.wait(lambda: to_order(a, room))
    # refused, changing nothing: a second withdrawal, a spectator's, and a withdrawal sent as an action
    again = await a.call("withdraw", {"room": room})
    assert again["error"]["code"] == "illegal_action" and again["error"]["reason"] == "no_order", again
    assert (await spectator.call("withdraw", {"room": room}))["error"]["code"] == "not_seated"
    sneaky = await a.call("act", {"room": room, "v": a.v(room), "action": {"type": "withdraw"}})
    assert sneaky["error"]["code"] == "malformed"
    assert a.v(room) == v + 1 and (await store.games.game_head(room)).v == v + 1
    # each change is a message to the table and a line of the log: bounded per turn
    for _ in range(CHANGES - 3):
        assert (await a.call("act", {"room": room, "v": a.v(room), "action": first}))["ok"]
    refused = await a.call("act", {"room": room, "v": a.v(room), "action": second})
    assert refused["error"]["reason"] == "too_many_changes", refused
    # blue's order is the last one in: the turn resolves with red's last version
    await b.wait(lambda: to_order(b, room))
    assert (await b.call("act", {"room": room, "v": b.v(room), "action": {"type": "pass"}}))["ok"]
    await spectator.wait(lambda: spectator.view(room)["turn"] == 2)
    reveal = next(e for _, m in spectator.received if _ == "game" for e in m["events"] if e["type"] == "orders")
    assert reveal["orders"] == {"red": first, "blue": {"type": "pass"}}
    kinds = [line["action"] for line in await store.games.actions(room)]
    assert kinds == [{"type": "order"}] * 2 + [{"type": "withdraw"}] + [{"type": "order"}] * (CHANGES - 2), kinds
    await a.wait(lambda: to_order(a, room) and my_order(a, room)["turn"] == 2)
    assert my_order(a, room)["changes_left"] == CHANGES   # a new turn, a new allowance


def seat_order(client: Client, room: str, colour: str) -> dict[str, Any] | None:
    """The `legal` payload of `colour` for the client's current version (a person holding several seats
    gets one per colour)."""
    v = client.v(room)
    return next((p["actions"] for e, p in reversed(client.received) if e == "legal" and p["room"] == room
                 and p["v"] == v and p["actions"]["colour"] == colour), None)


async def test_a_person_holding_two_seats_orders_replaces_and_withdraws_for_each(server, clients, store):
    """Two seats, one person (a hot seat): `act` and `withdraw` name the colour, and each seat's order is
    sent, replaced and withdrawn on its own, in any order; a colour of another's seat is refused."""
    host, other = await people(server.url, clients, "Two", "One")
    room = (await host.ok("room_create", {"name": "hot seat", "seats": 3, "game": "expeditions",
                                          "clock": DEADLINE, "bot_pace": 0, "grace": 30}))["room"]["id"]
    await host.join(room)
    await host.ok("sit", {"room": room, "seat": 1})
    await other.join(room)
    await other.ok("sit", {"room": room, "seat": 2})
    await host.ok("room_start", {"room": room, "fill_with_bots": False})
    await host.wait(lambda: room in host.views and seat_order(host, room, "red") is not None
                    and seat_order(host, room, "blue") is not None)
    orders = {"red": {"type": "expand", "island": "TONG", "moves": {"N": 2}},
              "blue": {"type": "expand", "island": "TONG", "moves": {"S": 2}}}
    for colour, order in orders.items():   # red's, then blue's: each its own seat's
        v = host.v(room)
        assert (await host.call("act", {"room": room, "v": v, "action": order, "colour": colour}))["ok"]
        await host.wait(lambda v=v, c=colour: host.v(room) == v + 1 and seat_order(host, room, c) is not None)
        assert seat_order(host, room, colour)["order"] == order
    # red's order replaced while blue's stays: the first seat's is not the only one that can change
    replaced = {"type": "expand", "island": "TONG", "moves": {"E": 1, "W": 1}}
    for colour in ("blue", "red"):
        v = host.v(room)
        assert (await host.call("act", {"room": room, "v": v, "action": replaced, "colour": colour}))["ok"]
        await host.wait(lambda v=v, c=colour: host.v(room) == v + 1 and seat_order(host, room, c) is not None)
        assert seat_order(host, room, colour)["order"] == replaced
    # blue's withdrawn (the second seat's), then red's: each by its colour
    for colour in ("blue", "red"):
        v = host.v(room)
        assert (await host.ok("withdraw", {"room": room, "colour": colour}))["v"] == v + 1
        await host.wait(lambda v=v, c=colour: host.v(room) == v + 1 and seat_order(host, room, c) is not None)
        assert seat_order(host, room, colour)["order"] is None
        message = next(m for e, m in host.received if e == "game" and m["v"] == v + 1)
        assert message["events"] == [{"type": "withdrawn", "colour": colour, "turn": 1}]
    # refused, changing nothing: another's colour, a colour not at the table, a malformed one
    v = host.v(room)
    for colour, code in (("green", "not_your_turn"), ("purple", "not_your_turn"), ("mauve", "malformed"),
                         (3, "malformed")):
        answer = await host.call("act", {"room": room, "v": v, "action": {"type": "pass"}, "colour": colour})
        assert answer["error"]["code"] == code, (colour, answer)
        answer = await host.call("withdraw", {"room": room, "colour": colour})
        assert answer["error"]["code"] == code, (colour, answer)
    stolen = await other.call("act", {"room": room, "v": v, "action": {"type": "pass"}, "colour": "red"})
    assert stolen["error"]["code"] == "not_your_turn", stolen
    assert (await store.games.game_head(room)).v == v
    # without a colour, a withdrawal takes back the order that is in (blue's), not the first seat's
    assert (await host.call("act", {"room": room, "v": v, "action": orders["blue"], "colour": "blue"}))["ok"]
    assert (await host.ok("withdraw", {"room": room}))["v"] == v + 2
    message = next(m for e, m in host.received if e == "game" and m["v"] == v + 2)
    assert message["events"] == [{"type": "withdrawn", "colour": "blue", "turn": 1}]
    # a catch-up answer brings each seat's form (the first as `legal`, as before)
    caught = await host.ok("since", {"room": room, "v": host.v(room)})
    assert [x["actions"]["colour"] for x in caught["legals"]] == ["red", "blue"], caught
    assert caught["legal"] == caught["legals"][0]
    assert [x["actions"]["order"] for x in caught["legals"]] == [None, None]
    # the turn resolves with each seat's own order
    for client, colour, order in ((host, "red", orders["red"]), (host, "blue", orders["blue"]),
                                  (other, "green", {"type": "pass"})):
        assert (await client.call("act", {"room": room, "v": client.v(room), "action": order,
                                          "colour": colour}))["ok"]
    await host.wait(lambda: host.view(room)["turn"] == 2)
    reveal = next(e for _, m in host.received if _ == "game" for e in m["events"] if e["type"] == "orders")
    assert reveal["orders"] == {**orders, "green": {"type": "pass"}}


async def test_the_deadline_resolves_the_turn_without_the_missing_orders(server, clients, store, redis_url):
    """E3: missing orders do nothing; the clock's resolution is logged as the clock's."""
    room, (a, b) = await expeditions_table(server.url, clients, humans=2)
    await a.wait(lambda: my_order(a, room) is not None)
    state = a.rooms[room]
    assert state["clock"]["colours"] == ["red", "blue"] and 0 < state["clock"]["remaining_ms"] <= DEADLINE * 1000
    v = a.v(room)
    assert (await a.call("act", {"room": room, "v": v, "action": {"type": "royal", "island": "TONG"}}))["ok"] \
        is False   # Tonga cannot be royal (E4): refused, changes nothing
    assert (await a.call("act", {"room": room, "v": v, "action": {"type": "expand", "island": "TONG",
                                                                  "moves": {"E": 1}}}))["ok"]
    await a.wait(lambda: a.v(room) == v + 1)
    # the room's clock still counts to the turn's deadline, not from red's order
    late = (await people(server.url, clients, "Late"))[0]
    clock = (await late.join(room))["room"]["clock"]
    assert clock["v"] == v + 1 and clock["colours"] == ["blue"]
    assert clock["remaining_ms"] <= state["clock"]["remaining_ms"]
    # the deadline is reached: moved 31 s into the past, as if half a minute went by
    import redis.asyncio as redis

    client = redis.Redis.from_url(redis_url)
    try:
        await client.hset(store.keys.key("game", room), "began", time.time() - DEADLINE - 1)
        await store.timers.schedule(room, time.time())
    finally:
        await client.aclose()
    await b.wait(lambda: b.view(room)["turn"] == 2)
    message = next(m for e, m in b.received if e == "game" and m["v"] == v + 2)
    assert message["by"] == "clock"
    assert message["events"][0] == {"type": "deadline", "turn": 1, "missing": ["blue"]}
    reveal = next(e for e in message["events"] if e["type"] == "orders")
    assert reveal["orders"]["blue"] is None and reveal["orders"]["red"]["island"] == "TONG"
    lines = await store.games.actions(room)
    assert lines[-1]["how"] == "clock" and lines[-1]["colour"] is None
    # a new turn: everyone may order again, and the clock runs from the resolution
    await b.wait(lambda: my_order(b, room) is not None and my_order(b, room)["turn"] == 2)
    assert my_order(b, room)["options"] is not None


async def test_a_live_turns_clock_starts_once_its_report_was_seen(server, clients, store):
    """The report of turn 1 plays before turn 2's deadline runs. The clock waits for every
    connected seated person's `report_seen` (a spectator's counts for nothing), and at most REPORT_WAIT
    seconds; an order stored meanwhile does not move it back."""
    from server.lobby.expeditions import REPORT_WAIT

    host, guest = await people(server.url, clients, "P0", "P1")
    room = (await host.ok("room_create", {"name": "live", "game": "expeditions", "seats": 3,
                                          "clock": DEADLINE, "bot_pace": 0}))["room"]["id"]
    await host.join(room)
    await guest.join(room)
    await guest.ok("sit", {"room": room, "seat": 1})
    await host.ok("bot_add", {"room": room, "seat": 2, "level": "greedy"})
    spectator = (await people(server.url, clients, "S"))[0]
    await spectator.join(room)
    await host.ok("room_start", {"room": room})
    assert (await host.call("report_seen", {"room": room, "turn": 0}))["error"]["code"] == "stale_version"
    for x in (host, guest):
        await x.wait(lambda x=x: to_order(x, room))
        assert (await x.call("act", {"room": room, "v": x.v(room), "action": {"type": "pass"}}))["ok"]
    await spectator.wait(lambda: spectator.view(room)["turn"] == 2)   # (the bot's order may come last)
    resolved = time.time()
    # the clock of turn 2 waits: the room says when it starts at the latest
    await spectator.wait(lambda: (c := spectator.rooms[room].get("clock")) is not None and "starts_ms" in c)
    clock = spectator.rooms[room]["clock"]
    assert 0 < clock["starts_ms"] <= REPORT_WAIT * 1000
    assert clock["remaining_ms"] == pytest.approx(clock["starts_ms"] + DEADLINE * 1000, abs=50)
    head = await store.games.game_head(room)
    assert resolved - 2.0 <= head.began - REPORT_WAIT <= resolved
    # the bot orders meanwhile (a commit of the same round): the clock's start stays put
    await spectator.wait(lambda: spectator.view(room)["players"][2]["submitted"])
    assert (await store.games.game_head(room)).began == head.began
    # refused, changing nothing: an old or future turn, a spectator, a malformed turn
    assert (await host.call("report_seen", {"room": room, "turn": 2}))["error"]["code"] == "stale_version"
    assert (await spectator.call("report_seen", {"room": room, "turn": 1}))["error"]["code"] == "not_seated"
    assert (await host.call("report_seen", {"room": room, "turn": "1"}))["error"]["code"] == "malformed"
    # one of two has seen it: still waiting; the second starts the clock, and the room says so
    assert (await host.ok("report_seen", {"room": room, "turn": 1}))["started"] is False
    assert (await host.ok("report_seen", {"room": room, "turn": 1}))["started"] is False   # twice: no matter
    assert (await store.games.game_head(room)).began == head.began
    assert (await guest.ok("report_seen", {"room": room, "turn": 1}))["started"] is True
    started = time.time()
    assert (await store.games.game_head(room)).began <= started
    await spectator.wait(lambda: "starts_ms" not in (spectator.rooms[room].get("clock") or {"starts_ms": 0}))
    assert spectator.rooms[room]["clock"]["remaining_ms"] <= DEADLINE * 1000
    # an order after the start keeps it (the process held the round's old start)
    assert (await host.call("act", {"room": room, "v": host.v(room), "action": {"type": "pass"}}))["ok"]
    assert (await store.games.game_head(room)).began <= started
    assert (await guest.ok("report_seen", {"room": room, "turn": 1}))["started"] is False   # late: nothing to do


async def test_a_game_over_days_starts_each_turns_clock_at_once(server, clients, store):
    """Long deadlines are unaffected: no wait for the report, `report_seen` is refused."""
    room, (a, b) = await table(server.url, 2, game="expeditions", clock=72 * 3600)
    clients.extend([a, b])
    for x in (a, b):
        await x.wait(lambda x=x: to_order(x, room))
        assert (await x.call("act", {"room": room, "v": x.v(room), "action": {"type": "pass"}}))["ok"]
    await a.wait(lambda: a.view(room)["turn"] == 2)
    assert (await store.games.game_head(room)).began <= time.time()
    assert (await a.call("report_seen", {"room": room, "turn": 1}))["error"]["code"] == "not_playing"


async def test_a_search_bot_orders_through_the_bot_workers(server, clients, store):
    """The search level of Expeditions (server/bots/expeditions.py) is played by the same bot workers: its
    order comes in like a person's and the turn resolves with it."""
    host = (await people(server.url, clients, "P0"))[0]
    room = (await host.ok("room_create", {"name": "search", "game": "expeditions", "seats": 2,
                                          "clock": DEADLINE, "bot_pace": 0}))["room"]["id"]
    await host.join(room)
    await host.ok("bot_add", {"room": room, "seat": 1, "level": "search"})
    await host.ok("room_start", {"room": room})
    # its budget is 0.72 s; the worker's first job waits for it to start (a loaded machine: seconds)
    await host.wait(lambda: room in host.views and host.view(room)["players"][1]["submitted"], timeout=30)
    assert (await host.call("act", {"room": room, "v": host.v(room), "action": {"type": "pass"}}))["ok"]
    await host.wait(lambda: host.view(room)["turn"] == 2)
    reveal = next(e for _, m in host.received if _ == "game" for e in m["events"] if e["type"] == "orders")
    assert reveal["orders"]["blue"] is not None
    lines = await store.games.actions(room)
    assert [(line["colour"], line["how"]) for line in lines] == [("blue", "bot"), ("red", "person")]


async def test_each_order_applies_once_across_processes(two_servers, clients, store):
    """Orders sent at the same version to two processes both apply (one after the other: the version
    check); one person's order sent twice at once, to both processes, applies once."""
    a_url, b_url = (s.url for s in two_servers)
    room, (p0, p1, p2) = await expeditions_table(a_url, clients, humans=3)
    on_b = await Client("P1 on B").connect(b_url, token=p1.session["token"])
    twin = await Client("P2 on B").connect(b_url, token=p2.session["token"])
    clients.extend([on_b, twin])
    for x in (on_b, twin):
        await x.join(room)
    v = p0.v(room)
    # red on process A and blue on process B, at the same version: both stand
    both = await asyncio.gather(
        p0.call("act", {"room": room, "v": v, "action": {"type": "pass"}}),
        on_b.call("act", {"room": room, "v": v, "action": {"type": "expand", "island": "TONG", "moves": {"S": 2}}}))
    assert [x["ok"] for x in both] == [True, True], both
    assert sorted(x["v"] for x in both) == [v + 1, v + 2]
    # green twice at once, once per process: exactly one applies, and it resolves the turn
    twice = await asyncio.gather(
        p2.call("act", {"room": room, "v": v, "action": {"type": "pass"}}),
        twin.call("act", {"room": room, "v": v, "action": {"type": "pass"}}))
    assert sorted(x["ok"] for x in twice) == [False, True], twice
    refused = next(x for x in twice if not x["ok"])
    assert refused["error"]["code"] in ("not_your_turn", "stale_version"), refused
    await p0.wait(lambda: p0.view(room)["turn"] == 2)
    lines = await store.games.actions(room)
    assert [line["colour"] for line in lines] == ["red", "blue", "green"] or \
        sorted(line["colour"] for line in lines) == ["blue", "green", "red"]
    assert len(lines) == 3
    stored = Expeditions.from_bytes((await store.games.game(room))["state"])
    assert stored.log[0] == {"red": {"type": "pass"}, "green": {"type": "pass"},
                             "blue": {"type": "expand", "island": "TONG", "moves": {"S": 2}}}


def test_the_random_bot_and_the_wire_agree():
    """The online bot's orders are what a person may send: the wire form checks as the same order."""
    game = Expeditions.new(["red", "blue", "green"], seed=11)
    bot = RandomBot(5)
    for _ in range(50):
        order = bot.choose(game, "red")
        assert game.check("red", order.to_wire()) == order


async def test_a_player_who_reconnects_gets_the_exact_state_and_their_own_order_back(server, clients):
    """The same seat and the exact game state after a dropped connection: the view, the turn's clock and
    the order already sent (to that person alone)."""
    room, (a, b) = await expeditions_table(server.url, clients, humans=2)
    await a.wait(lambda: my_order(a, room) is not None)
    order = {"type": "expand", "island": "TONG", "moves": {"W": 1, "S": 1}}
    assert (await a.call("act", {"room": room, "v": a.v(room), "action": order}))["ok"]
    await b.wait(lambda: b.v(room) == 1)
    token = a.session["token"]
    await a.close()
    back = await Client("P0 again").connect(server.url, token=token)
    clients.append(back)
    joined = await back.join(room)
    assert back.view(room) == b.view(room)
    mine = joined["game"]["legal"]["actions"]
    assert (mine["colour"], mine["turn"], mine["order"]) == ("red", 1, order) and mine["options"]["expand"]
    assert joined["room"]["clock"]["colours"] == ["blue"]
    answer = await b.call("since", {"room": room, "v": 0})   # blue's catch-up: blue's own form, not red's order
    assert answer["legal"]["actions"]["colour"] == "blue" and answer["legal"]["actions"]["order"] is None


async def test_a_long_games_replay_is_whole_from_turn_one(config, clients, store, monkeypatch):
    """A game of more messages than the patch log holds (each turn red orders, withdraws and orders again):
    its replay over HTTP, while it is played and once it is over, is every message from v = 0, rebuilt by
    the engine from the stored game (the patch log lost the first ones long ago); the live one goes through
    the turns resolved only."""
    import aiohttp

    from server import patch
    from server.lobby.modes import MODES

    mode, builds = MODES["expeditions"], []
    rebuild = mode.frames
    monkeypatch.setattr(mode, "frames", lambda state, log: builds.append(len(log)) or rebuild(state, log))
    server = await InProcessServer(config.with_(patch_log=12)).start()
    try:
        room, (red, blue) = await table(server.url, 2, game="expeditions", clock=DEADLINE)
        clients.extend([red, blue])
        spectator = (await people(server.url, clients, "S"))[0]
        await spectator.join(room)
        rng = random.Random(5)

        async def replay() -> dict[str, Any]:
            async with aiohttp.ClientSession() as http, http.get(f"{server.url}/api/games/{room}/replay") as r:
                assert r.status == 200, await r.text()
                return dict(await r.json())

        live_checked = False
        while not red.over(room):
            await red.wait(lambda: red.over(room) or to_order(red, room))
            if red.over(room):
                break
            turn = red.view(room)["turn"]
            for step in ("order", "withdraw", "order"):
                v = red.v(room)
                if step == "withdraw":
                    assert (await red.call("withdraw", {"room": room}))["ok"]
                else:
                    action = {"type": "pass"} if rng.random() < 0.5 else random_order(red, room, rng)
                    answer = await red.call("act", {"room": room, "v": red.v(room), "action": action})
                    if not answer["ok"]:   # an expansion beyond a beach's room
                        assert answer["error"]["code"] == "illegal_action", answer
                        assert (await red.call("act", {"room": room, "v": red.v(room),
                                                       "action": {"type": "pass"}}))["ok"]
                await red.wait(lambda v=v: red.v(room) > v)
            if turn == 4 and not live_checked:   # red's order is in, blue's not: the replay so far
                before = len(builds)
                answers = await asyncio.gather(*(replay() for _ in range(8)))   # a burst: built once
                assert len(builds) == before + 1 and all(a == answers[0] for a in answers)
                live = answers[0]
                assert live["live"] and live["frames"][0]["v"] == 0
                shown = [f["v"] for f in live["frames"]]
                assert shown == list(range(len(shown))) and shown[-1] < red.v(room) - 2   # not the open turn
                assert [e["type"] for e in live["frames"][-1]["events"]][-1] == "turn_scored"
                live_checked = True
            await blue.wait(lambda: blue.over(room) or to_order(blue, room))
            answer = await blue.call("act", {"room": room, "v": blue.v(room), "action": {"type": "pass"}})
            assert answer["ok"], answer
            await blue.wait(lambda t=turn: blue.over(room) or blue.view(room)["turn"] > t)
        assert live_checked
        final = await stored_view(store, room)
        await spectator.wait(lambda: spectator.v(room) == final["v"])
        await spectator.wait(lambda: spectator.rooms[room]["status"] == "finished")
        assert final["v"] > 3 * 12   # far more messages than the patch log holds
        whole = await replay()
        assert "live" not in whole
        assert [f["v"] for f in whole["frames"]] == list(range(final["v"] + 1))
        received = {m["v"]: m["events"] for e, m in spectator.received if e == "game"}
        assert all(whole["frames"][v]["events"] == events for v, events in received.items())
        assert [e for f in whole["frames"] for e in f["events"] if e["type"] == "orders"][0]["turn"] == 1
        view = None
        for f in whole["frames"]:
            view = patch.apply(view, f["patch"])
        assert view == final["view"]
    finally:
        for c in clients:
            await c.close()
        await server.stop()

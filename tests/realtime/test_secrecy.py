"""R15: no message any client receives during whole games reveals the stack order or the seed; E3: no
channel a non-owner can reach (socket, room, lobby, records, metrics) reveals a pending order."""

from __future__ import annotations

import asyncio
import json
import random

import aiohttp
import pytest
from tablekit import Client, packed, people, table, walk
from test_expeditions_online import expeditions_table, my_order, to_order

from server.game import Game
from server.game.game import rules_of

VIEW_STACK_KEYS = {"islands", "oceans", "island_values", "ocean_dangers", "remaining"}


async def history(store, room: str) -> tuple[int, list[Game]]:
    """The seed and the engine state after every version, rebuilt from the stored game and action log."""
    final = Game.from_bytes((await store.games.game(room))["state"])
    secret = rules_of(final)   # the seed and the stack's order: what no message may reveal
    actions = await store.games.actions(room)
    game = Game.new(final.colours, secret.seed, variants=secret.variants, first=actions[0]["colour"])
    states = [game.clone()]
    for entry in actions:
        game.apply(entry["action"], colour=entry["colour"])
        states.append(game.clone())
    assert game.view() == final.view() and rules_of(game).stack == secret.stack  # the rebuild is exact
    return secret.seed, states


def assert_reveals_nothing(received: list[tuple[str, object]], seed: int, states: list[Game]) -> int:
    orders = set()
    for state in states:
        stack = rules_of(state).stack
        if len(stack) >= 3:
            orders.add(tuple(stack))
            orders.add(tuple(reversed(stack)))
    seed_bytes = [packed(seed), str(seed).encode()]
    checked = 0
    for event, payload in received:
        wire = packed(payload)
        assert not any(b in wire for b in seed_bytes), (event, "seed on the wire")
        for node in walk(payload):
            assert node != seed and node != "seed", (event, node)
            if isinstance(node, dict) and "stack" in node:
                stack = node["stack"]
                assert isinstance(stack, dict) and set(stack) <= VIEW_STACK_KEYS, (event, stack)
                if "remaining" in stack:
                    assert stack["remaining"] == sorted(stack["remaining"]), "remaining must be sorted"
            if isinstance(node, list) and len(node) >= 3 and all(isinstance(x, str) for x in node):
                assert tuple(node) not in orders or node == sorted(node), (event, "a stack order", node)
        checked += 1
    return checked


async def test_no_message_reveals_the_stack_order_or_the_seed(server, clients, store):
    # a game of four people, and a game of one person and three bots watched by a spectator
    room1, players = await table(server.url, humans=4)
    clients.extend(players)
    host, spectator = await people(server.url, clients, "Host", "Spectator")
    room2 = (await host.ok("room_create", {"name": "bots", "seats": 4, "bot_pace": 0}))["room"]["id"]
    await spectator.join(room2)
    await host.ok("room_start", {"room": room2, "fill_with_bots": True})
    await host.wait(lambda: room2 in host.views)
    await asyncio.gather(*(p.play(room1, random.Random(i)) for i, p in enumerate(players)),
                         host.play(room2, random.Random(9)))
    await spectator.wait(lambda: spectator.over(room2))
    late = await Client("late").connect(server.url)       # a snapshot and a catch-up are messages too
    clients.append(late)
    await late.join(room1)
    await late.ok("since", {"room": room1, "v": 3})

    received = [m for c in clients for m in c.received]
    total = 0
    for room in (room1, room2):
        seed, states = await history(store, room)
        total += assert_reveals_nothing(received, seed, states)
        # the check itself catches a leak
        with pytest.raises(AssertionError):
            assert_reveals_nothing([("game", {"next": list(rules_of(states[1]).stack)})], seed, states)
        with pytest.raises(AssertionError):
            assert_reveals_nothing([("game", {"n": seed})], seed, states)
        # the public view never depends on the unseen order: reshuffling it changes no view
        for i, state in enumerate(states[::3]):   # every third position keeps the test quick
            if rules_of(state).stack:
                assert state.imagine(i + 1).view() == state.view()
    assert total > 500
    # session tokens go to their owner in `session` and nowhere else
    tokens = {c.session["token"].encode() for c in clients}
    for c in clients:
        for event, payload in c.received:
            wire = packed(payload)
            if event == "session":
                assert payload["token"] == c.session["token"]
            else:
                assert not any(t in wire for t in tokens), (event, "a session token")


# -- every channel a non-owner can reach, during an open turn -------------------------------------------
async def http_reads(url: str, room: str, person: str, token: str | None = None) -> list[tuple[str, object]]:
    """Everything the HTTP side answers about a game to whoever asks (with `token`: as that person):
    the lists, the record, the replay, the metrics and the health checks, decoded where JSON."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    paths = ["/api/games", f"/api/games?person={person}", f"/api/games/{room}", f"/api/games/{room}/replay",
             "/metrics", "/readyz", "/healthz"]
    out: list[tuple[str, object]] = []
    async with aiohttp.ClientSession(headers=headers) as http:
        for path in paths:
            async with http.get(url + path) as r:
                body = await r.text()
                out.append((path, json.loads(body) if r.content_type == "application/json" else body))
    return out


def assert_no_part_of(order: dict, received: list[tuple[str, object]], strict: bool = True) -> int:
    """No message, answer or page holds the order or its moves; `strict`: nor its island with its kind
    (off for an order of the same kind and island as one the turn made public)."""
    parts = [order] + [v for v in order.values() if isinstance(v, dict)]
    for where, payload in received:
        if isinstance(payload, str):   # a text page (metrics): not even the order's words
            assert not any(word in payload for word in ("expand", "moves", order.get("island", "\0"))), where
            continue
        for node in walk(payload):
            assert all(node != part for part in parts), (where, node)
            if strict and isinstance(node, dict) and node.get("type") == order["type"] and "island" in node:
                assert node.get("island") != order.get("island"), (where, node)
    return len(received)


async def test_a_pending_order_reaches_nobody_but_its_owner_by_any_channel(server, clients, store):
    """During an open Expeditions turn, a rival seat and a spectator read every socket event, the room
    state, the lobby, a catch-up, the lists of games, the record, the replay and the metrics: no part of
    red's order is in any of them, nor of the versions it replaced or withdrew (E3), nor which version is
    in. Once the turn resolves, the last version is public (the check would see it); the versions it
    replaced never are."""
    room, (red, blue, green) = await expeditions_table(server.url, clients, humans=3)
    spectator, lobby = await people(server.url, clients, "Spectator", "Lobby")
    await lobby.ok("lobby_watch")
    await spectator.join(room)
    # turn 1 resolves (everyone passes): the record so far then holds public actions
    for x in (red, blue, green):
        await x.wait(lambda x=x: to_order(x, room))
        assert (await x.call("act", {"room": room, "v": x.v(room), "action": {"type": "pass"}}))["ok"]
    await spectator.wait(lambda: spectator.view(room)["turn"] == 2)
    await red.wait(lambda: to_order(red, room))
    # red orders, replaces it, withdraws it, and orders again: four versions, the last one stands
    first = {"type": "expand", "island": "TONG", "moves": {"N": 2}}
    second = {"type": "expand", "island": "TONG", "moves": {"E": 2}}
    order = {"type": "expand", "island": "TONG", "moves": {"S": 1, "W": 1}}
    v = red.v(room)
    for step in (first, second, None, order):
        if step is None:
            assert (await red.call("withdraw", {"room": room}))["ok"]
        else:
            assert (await red.call("act", {"room": room, "v": red.v(room), "action": step}))["ok"]
        await red.wait(lambda step=step: (p := my_order(red, room)) is not None and p["order"] == step)
    for x in (red, blue, green, spectator):
        await x.wait(lambda x=x: x.v(room) == v + 4)
    # what the others were told of the four: who, and whether an order is in, nothing else
    told = [m for e, m in spectator.received if e == "game" and v < m["v"] <= v + 4]
    assert [[e["type"] for e in m["events"]] for m in told] == [["submitted"], ["submitted"], ["withdrawn"],
                                                                 ["submitted"]]
    # a replacement changes nothing anyone else sees; an order after a withdrawal looks like a first one
    assert told[1]["patch"] == [] and told[0]["patch"] == told[3]["patch"], told

    # what the others can ask for, on the socket and over HTTP
    await blue.ok("since", {"room": room, "v": 0})
    await spectator.ok("room_join", {"room": room})
    await lobby.ok("lobby_watch")
    late = (await people(server.url, clients, "Late"))[0]
    await late.join(room)
    red_person = red.session["person"]
    reads = [m for x in (blue, green, spectator, lobby, late) for m in x.received]
    reads += await http_reads(server.url, room, red_person)
    reads += await http_reads(server.url, room, red_person, blue.session["token"])   # as a rival seat
    record = next(body for path, body in reads if path == f"/api/games/{room}")
    assert record["live"] and record["actions"], "the record so far holds turn 1"
    # the replay so far (rebuilt from the stored game, pending orders and all, on the server) ends with turn 1
    for path, replay in reads:
        if path == f"/api/games/{room}/replay":
            assert replay["live"] and replay["frames"][-1]["v"] <= v, replay["frames"][-1]
            assert [e["turn"] for f in replay["frames"] for e in f["events"] if e["type"] == "orders"] == [1]
    for version in (first, second, order):
        assert assert_no_part_of(version, reads) > 50

    # the others order: the turn resolves, and only now is red's last order public; the replaced ones never
    for x in (blue, green):
        await x.wait(lambda x=x: to_order(x, room))
        assert (await x.call("act", {"room": room, "v": x.v(room), "action": {"type": "pass"}}))["ok"]
    await spectator.wait(lambda: spectator.view(room)["turn"] == 3)
    after = [m for x in (blue, green, spectator, lobby, late) for m in x.received]
    after += await http_reads(server.url, room, red_person)
    with pytest.raises(AssertionError):
        assert_no_part_of(order, after)
    for replaced in (first, second):
        assert_no_part_of(replaced, after, strict=False)


async def test_no_http_answer_reveals_the_stack_order_or_the_seed(server, clients, store):
    """The board game's unseen stack: the record so far, the replay, the lists and the metrics of a game
    being played tell nothing of the tiles not yet drawn, nor the seed."""
    room, (a,) = await table(server.url, humans=1, seats=3, bots=2)
    clients.append(a)
    await a.play(room, random.Random(4), stop_at=30)
    # the bots' moves after it done: the game waits for the person (`history` reads the state, then the log)
    await a.wait(lambda: a.my_turn(room) or a.over(room))
    reads = await http_reads(server.url, room, a.session["person"], a.session["token"])
    seed, states = await history(store, room)
    record = next(body for path, body in reads if path == f"/api/games/{room}")
    assert record["live"] and record["drawn"]
    assert assert_reveals_nothing([(p, b) for p, b in reads if not isinstance(b, str)], seed, states) == 6
    unseen = [t for t in rules_of(states[-1]).stack if len(t) > 3]   # island names: not a letter of an ocean tile
    for path, body in reads:
        if isinstance(body, str):
            assert str(seed) not in body and not any(t in body for t in unseen), path

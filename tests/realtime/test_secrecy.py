"""R15: no message any client receives during whole games reveals the stack order or the seed."""

from __future__ import annotations

import asyncio
import random

import pytest
from tablekit import Client, packed, people, table, walk

from server.game import Game

VIEW_STACK_KEYS = {"islands", "oceans", "island_values", "ocean_dangers", "remaining"}


async def history(store, room: str) -> tuple[int, list[Game]]:
    """The seed and the engine state after every version, rebuilt from the stored game and action log."""
    final = Game.from_bytes((await store.game(room))["state"])
    actions = await store.actions(room)
    game = Game.new(final.colours, final.seed, variants=final.variants, first=actions[0]["colour"])
    states = [game.clone()]
    for entry in actions:
        game.apply(entry["action"], colour=entry["colour"])
        states.append(game.clone())
    assert game.view() == final.view() and game.stack == final.stack  # the rebuild is exact
    return final.seed, states


def assert_reveals_nothing(received: list[tuple[str, object]], seed: int, states: list[Game]) -> int:
    orders = set()
    for state in states:
        if len(state.stack) >= 3:
            orders.add(tuple(state.stack))
            orders.add(tuple(reversed(state.stack)))
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
            assert_reveals_nothing([("game", {"next": list(states[1].stack)})], seed, states)
        with pytest.raises(AssertionError):
            assert_reveals_nothing([("game", {"n": seed})], seed, states)
        # the public view never depends on the unseen order: reshuffling it changes no view
        for i, state in enumerate(states[::3]):   # every third position keeps the test quick
            if state.stack:
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

"""Whole games over real sockets and a real Redis: people, bots, spectators, catch-up, disconnection and
return, the turn clock, conflicting actions."""

from __future__ import annotations

import asyncio
import random

from tablekit import Client, InProcessServer, packed, people, stored_view, table

from server.app import AUTHORITY


def stream(client: Client, room: str) -> list[bytes]:
    """The game messages a client received for a room, as wire bytes, in version order."""
    return [packed(m) for m in sorted((d for e, d in client.received if e == "game" and d["room"] == room),
                                      key=lambda m: m["v"])]


async def test_full_game_of_four_clients_to_the_end(server, clients, store):
    room, players = await table(server.url, humans=4)
    clients.extend(players)
    await asyncio.gather(*(p.play(room, random.Random(i)) for i, p in enumerate(players)))
    snapshot = await stored_view(store, room)
    assert snapshot is not None and snapshot["view"]["phase"] == "over" and snapshot["view"]["result"]
    for p in players:
        assert p.views[room] == (snapshot["v"], snapshot["view"])  # patches rebuilt the exact view
        await p.wait(lambda p=p: p.rooms[room]["status"] == "finished")
    actions = await store.games.actions(room)
    assert [a["v"] for a in actions] == list(range(1, snapshot["v"] + 1))
    assert {a["by"] for a in actions} == {p.session["person"] for p in players}
    # the seats are released in the person's session once the game is over
    again = await Client().connect(server.url, token=players[0].session["token"])
    clients.append(again)
    assert again.session["seats"] == []


async def test_one_person_and_three_bots_and_spectators_see_the_identical_stream(server, clients, store):
    host, *spectators = await people(server.url, clients, "Host", "S1", "S2")
    room = (await host.ok("room_create", {"name": "bots", "seats": 4, "bot_pace": 0}))["room"]["id"]
    await host.join(room)
    for s in spectators:
        await s.join(room)
    for seat in (1, 2, 3):
        await host.ok("bot_add", {"room": room, "seat": seat})
    await host.ok("room_start", {"room": room})
    await host.wait(lambda: room in host.views)
    assert await host.play(room, random.Random(7)) > 0
    final = (await store.games.game_head(room)).v
    for s in spectators:
        await s.wait(lambda s=s: s.over(room))
        assert s.views[room] == host.views[room]
        # a spectator can do nothing but watch (and chat)
        answer = await s.call("act", {"room": room, "v": final, "action": {"type": "colonise"}})
        assert answer["error"]["code"] in ("not_seated", "not_playing")
    assert stream(spectators[0], room) == stream(spectators[1], room) == stream(host, room)
    assert len(stream(host, room)) == final + 1  # v = 0 … final, each exactly once
    bots = [a for a in await store.games.actions(room) if a["by"] == "bot"]
    assert bots and {a["colour"] for a in bots} == {"blue", "green", "yellow"}


async def test_a_dropped_client_catches_up_by_patches(server, clients):
    room, players = await table(server.url, humans=2, bots=2, grace=0)
    clients.extend(players)
    a, b = players
    await asyncio.gather(a.play(room, random.Random(1), stop_at=6), b.play(room, random.Random(2), stop_at=6))
    dropped_at = b.v(room)
    token = b.session["token"]
    await b.close()
    await a.play(room, random.Random(3), stop_at=dropped_at + 8)   # a (and the bots) play on
    back = await Client("b again").connect(server.url, token=token)
    clients.append(back)
    assert {"room": room, "seat": 1} in back.session["seats"]
    back.views[room] = b.views[room]                      # the client keeps what it had
    back.rooms[room] = b.rooms[room]
    joined = await back.join(room, since=dropped_at)
    assert "messages" in joined["game"] and back.catchups == {"messages": 1, "snapshot": 0}
    assert [m["v"] for m in joined["game"]["messages"]][0] == dropped_at + 1
    await asyncio.gather(a.play(room, random.Random(4)), back.play(room, random.Random(5)))
    assert back.views[room] == a.views[room]


async def test_a_client_far_behind_catches_up_by_snapshot(config, clients):
    server = await InProcessServer(config.with_(patch_log=3)).start()
    try:
        room, (a,) = await table(server.url, humans=1, bots=3)
        clients.append(a)
        watcher = await Client("w").connect(server.url)
        clients.append(watcher)
        await watcher.join(room)
        await a.play(room, random.Random(1), stop_at=12)
        await a.wait(lambda: a.my_turn(room))   # the bots wait for a now: the version stands still
        await watcher.wait(lambda: watcher.v(room) == a.v(room))
        answer = await watcher.ok("since", {"room": room, "v": 2})
        assert "snapshot" in answer and answer["snapshot"]["v"] == a.v(room)
        recent = await watcher.ok("since", {"room": room, "v": a.v(room) - 1})
        assert [m["v"] for m in recent["messages"]] == [a.v(room)]
        current = await watcher.ok("since", {"room": room, "v": a.v(room)})
        assert current["messages"] == [] and current["v"] == a.v(room)
        ahead = await watcher.ok("since", {"room": room, "v": a.v(room) + 50})
        assert ahead["snapshot"]["v"] == a.v(room)
        # the watcher missed messages: the next live one shows the gap, `since` answers with a snapshot
        watcher.views[room] = (2, None)
        await a.play(room, random.Random(2), stop_at=a.v(room) + 1)
        await watcher.wait(lambda: watcher.v(room) >= a.v(room))
        assert watcher.catchups["snapshot"] >= 1 and watcher.view(room) == a.view(room)
    finally:
        for c in clients:
            await c.close()
        await server.stop()


async def test_disconnection_bot_takeover_and_return(server, clients, store):
    room, players = await table(server.url, humans=2, grace=0.2)
    clients.extend(players)
    a, b = players
    await asyncio.gather(a.play(room, random.Random(1), stop_at=4), b.play(room, random.Random(2), stop_at=4))
    token = b.session["token"]
    await b.close()
    # b's seat is kept, marked disconnected, then a bot plays it after the grace period
    await a.wait(lambda: not a.rooms[room]["seats"][1]["connected"])
    await a.wait(lambda: a.rooms[room]["seats"][1]["autopilot"])
    start = a.v(room)
    await a.play(room, random.Random(3), stop_at=start + 6)
    taken_over = [x for x in await store.games.actions(room) if x["v"] > start and x["by"] == "bot"]
    assert taken_over and all(x["colour"] == "blue" for x in taken_over)
    # b returns and has the seat back
    back = await Client("b").connect(server.url, token=token)
    clients.append(back)
    await back.join(room)
    await a.wait(lambda: a.rooms[room]["seats"][1]["connected"] and not a.rooms[room]["seats"][1]["autopilot"])
    before = len(await store.games.actions(room))
    await asyncio.gather(a.play(room, random.Random(4)), back.play(room, random.Random(5)))
    after = [x for x in (await store.games.actions(room))[before:] if x["colour"] == "blue"]
    assert after and all(x["by"] == back.session["person"] for x in after)


async def test_turn_clock_lets_a_bot_play_the_decision(server, clients, store):
    room, (a,) = await table(server.url, humans=1, seats=2, bots=1, clock=1, first=0)
    clients.append(a)
    await a.wait(lambda: a.my_turn(room))
    v = a.v(room)
    # a did nothing: the clock ran out (its bot is thought in the bot workers, which start with the server:
    # seconds on a loaded machine)
    await a.wait(lambda: a.v(room) > v, timeout=30)
    assert (await store.games.actions(room))[0]["by"] == "bot"


async def test_concurrent_conflicting_actions_exactly_one_wins(server, clients, store):
    room, (a, b) = await table(server.url, humans=2, first=0)
    clients.extend([a, b])
    twin = await Client("a's other tab").connect(server.url, token=a.session["token"])
    clients.append(twin)
    await twin.join(room)
    target = 0
    for round_ in range(6):
        for player in (a, b):
            for c in (a, b, twin):
                await c.wait(lambda c=c, target=target: c.v(room) >= target)
            if not player.my_turn(room):
                continue
            v, view = player.views[room]
            rng = random.Random(round_)
            mine = [player] + ([twin] if player is a else [])
            if len(mine) == 1:
                mine.append(player)
            answers = await asyncio.gather(*(
                c.call("act", {"room": room, "v": v, "action": rng.choice(player.legal(room))}) for c in mine))
            assert sorted(x["ok"] for x in answers) == [False, True], answers
            target = v + 1
            assert next(x for x in answers if not x["ok"])["error"]["code"] == "stale_version"
    actions = await store.games.actions(room)
    assert [x["v"] for x in actions] == list(range(1, len(actions) + 1))


async def test_two_colours_each_r14_over_sockets(server, clients, store):
    room, (a,) = await table(server.url, humans=1, seats=2, bots=1, variants={"two_colours": True})
    clients.append(a)
    assert a.my_colours(room) == {"red", "green"}
    assert a.view(room)["colours"] == ["red", "blue", "green", "yellow"]
    await a.play(room, random.Random(3))
    actions = await store.games.actions(room)
    assert {x["colour"] for x in actions if x["by"] == a.session["person"]} == {"red", "green"}
    assert {x["colour"] for x in actions if x["by"] == "bot"} == {"blue", "yellow"}
    assert a.view(room)["phase"] == "over" and a.view(room)["result"]


async def test_a_stored_move_whose_broadcast_fails_is_acknowledged_and_resent(server, clients, store):
    """The move is stored, then the broadcast fails (Redis going away, say): the ack is ok with the new
    version, not "nothing changed", and the timer loop sends the message everyone missed."""
    from server.app import LOBBY

    room, (a, b) = await table(server.url, humans=2, first=0)
    clients.extend([a, b])
    lobby = server.app[LOBBY]
    real = lobby.outbox.game_message
    failed: list[int] = []

    async def broken_once(room_id, message, **how):
        if not failed:
            failed.append(message["v"])
            raise ConnectionError("the Redis link went away")
        await real(room_id, message, **how)

    lobby.outbox.game_message = broken_once
    try:
        await a.wait(lambda: a.my_turn(room))
        v, view = a.views[room]
        answer = await a.call("act", {"room": room, "v": v, "action": a.legal(room)[0]})
        assert answer["ok"] and answer["v"] == v + 1, answer
        assert failed == [v + 1]
        for c in (a, b):  # the message nobody got arrives by the resend, no client asked for it
            await c.wait(lambda c=c: c.v(room) == v + 1)
    finally:
        lobby.outbox.game_message = real


async def test_legal_actions_go_only_to_the_person_deciding(server, clients, store):
    """Protocol 2: the room's view carries no legal actions; the person whose seat decides gets them in a
    `legal` event of their own (every socket of theirs in the room), and in join and since answers."""
    from server.game import Game

    room, (a, b) = await table(server.url, humans=2, first=0)
    clients.extend([a, b])
    spectator, = await people(server.url, clients, "Spectator")
    await spectator.join(room)
    await asyncio.gather(a.play(room, random.Random(1), stop_at=14), b.play(room, random.Random(2), stop_at=14))
    await a.wait(lambda: a.my_turn(room) or b.my_turn(room))
    await spectator.wait(lambda: spectator.v(room) == a.v(room))

    def legals(c: Client) -> list[int]:
        return [d["v"] for e, d in c.received if e == "legal"]
    assert legals(spectator) == []
    pending = {m["v"]: colour for m, colour in zip(*replay(a, room), strict=True)}   # a saw v = 0
    me = {a: a.my_colours(room), b: b.my_colours(room)}
    for c in (a, b):   # exactly the versions at which one of their colours was to decide, once each
        assert legals(c) == [v for v, colour in sorted(pending.items()) if colour in me[c]]
    for c in (a, b, spectator):
        assert "legal" not in c.view(room) and all("legal" not in d for e, d in c.received if e == "room")
    decider = a if a.my_turn(room) else b
    stored = Game.from_bytes((await store.games.game(room))["state"])
    assert decider.legal(room) == stored.legal_actions()
    # join and since answers carry them for the person deciding, and only for them
    tab = await Client("another tab").connect(server.url, token=decider.session["token"])
    clients.append(tab)
    joined = await tab.join(room)
    assert joined["game"]["legal"] == {"room": room, "v": decider.v(room), "actions": stored.legal_actions()}
    assert "legal" not in (await spectator.ok("since", {"room": room, "v": 3}))
    assert (await decider.ok("since", {"room": room, "v": 3}))["legal"]["v"] == decider.v(room)
    other = b if decider is a else a
    assert "legal" not in (await other.ok("since", {"room": room, "v": decider.v(room)}))


def replay(client: Client, room: str) -> tuple[list[dict], list[str | None]]:
    """The game messages a client received, in order, and who was to decide after each."""
    from server import patch

    messages = sorted((d for e, d in client.received if e == "game" and d["room"] == room), key=lambda m: m["v"])
    view, deciders = None, []
    for m in messages:
        view = patch.apply(view, m["patch"])
        deciders.append(view["pending"]["colour"] if view["pending"] else None)
    return messages, deciders


async def test_a_game_this_process_does_not_hold_is_seen_and_played_from_its_stored_state(server, clients, store):
    """The public view is not stored: a process that does not hold the game (another process played it, or
    it forgot it) computes a snapshot's view, and the view the next action's patch starts from, from the
    stored state; both are exactly what the clients hold."""
    room, (a,) = await table(server.url, humans=1, bots=1, first=0)
    clients.append(a)
    await a.play(room, random.Random(3), stop_at=6)
    await a.wait(lambda: a.my_turn(room))   # the bot waits for a: the version stands still
    v = a.v(room)
    server.app[AUTHORITY]._held.clear()
    watcher = (await people(server.url, clients, "w"))[0]
    joined = await watcher.join(room)
    assert "snapshot" in joined["game"] and watcher.views[room] == a.views[room]
    assert watcher.views[room] == (v, (await stored_view(store, room))["view"])
    answer = await a.ok("since", {"room": room, "v": v + 50})   # "ahead": a snapshot, and the legal actions
    assert answer["snapshot"] == {"v": v, "view": a.view(room)} and answer["legal"]["v"] == v
    # the view computed once is held: more snapshots at that version compute nothing again
    offload = server.app[AUTHORITY].offload
    computed = 0
    real = offload.public_view

    async def counted(*args):
        nonlocal computed
        computed += 1
        return await real(*args)
    offload.public_view = counted
    try:
        for _ in range(3):
            answer = await a.ok("since", {"room": room, "v": v + 50})
            assert answer["snapshot"] == {"v": v, "view": a.view(room)}
    finally:
        offload.public_view = real
    assert computed == 0
    server.app[AUTHORITY]._held.clear()
    await a.play(room, random.Random(4), stop_at=v + 1)   # its patch is from the view computed from the state
    await watcher.wait(lambda: watcher.v(room) == a.v(room) > v)
    assert watcher.catchups["snapshot"] == 1 and watcher.view(room) == a.view(room)
    assert watcher.views[room] == tuple((await stored_view(store, room)).values())


async def test_catch_up_over_messages_stored_by_protocol_1_is_a_snapshot(server, clients, store):
    """A game older than protocol 2 has patches of protocol 1 in its log: they cannot be sent to a
    client of protocol 2, so `since` answers with a snapshot."""
    room, (a,) = await table(server.url, humans=1, bots=1, first=0)
    clients.append(a)
    await a.play(room, random.Random(1), stop_at=4)
    v = a.v(room)
    old = {"room": room, "v": v, "events": [], "patch": [["set", ["turn"], 0]]}   # the shape of protocol 1
    await store.redis.lset(store.keys.key("patches", room), -1, packed(old))
    answer = await a.ok("since", {"room": room, "v": v - 1})
    assert "snapshot" in answer and "messages" not in answer

"""Game records: every finished game is kept, replays with the engine to the same events, views and
result without its seed, and is served over HTTP with pagination, retention, errors and ETags."""

from __future__ import annotations

import asyncio
import json
import random
import time
import zlib

import aiohttp
import msgpack
import pytest
from tablekit import people, stored_view, table

from server import patch
from server.app import LOBBY
from server.game import COLOURS, Game
from server.game.bots import RandomBot
from server.records import GameRecord, Records, rebuild
from server.records.replay import views


def played(colours: list[str], seed: int, variants: dict[str, bool] | None = None
           ) -> tuple[GameRecord, list[tuple[list[dict], dict]]]:
    """A random game recorded as the lobby records it (the drawn tiles from its events, no seed), and
    every version's (events, view) as the live game gave them."""
    game = Game.new(colours, seed=seed, variants=variants)
    bot = RandomBot(seed)
    seen = [([], game.view())]
    actions, drawn = [], []
    while game.to_move:
        colour, action = game.to_move, bot.choose(game)
        events = game.apply(action, colour=colour)
        actions.append({"v": len(actions) + 1, "colour": colour, "action": action, "by": None, "how": "bot",
                        "at": len(actions) * 0.5})
        drawn += [e["tile"] for e in events if e["type"] == "tile_drawn"]
        seen.append((events, game.view()))
    for _events, view in seen:
        view.pop("legal", None)
    record = GameRecord(id=f"r_{seed:08x}", name="t", settings={"variants": variants or {}}, colours=colours,
                        first=actions[0]["colour"], seats=[], started=1.0, finished=2.0, drawn=drawn,
                        actions=actions, result=game.result())
    return record, seen


@pytest.mark.parametrize(("n", "seed", "variants"), [(2, 1, None), (3, 2, None), (4, 3, None), (6, 4, None),
                                                     (4, 5, {"two_colours": True}),
                                                     (3, 6, {"free_follow_up": True})])
def test_a_record_replays_to_every_event_and_view_without_the_seed(n, seed, variants):
    record, seen = played(list(COLOURS[:n]), seed, variants)
    blob = record.to_bytes()
    again = GameRecord.from_bytes(blob)
    assert again == record and b"seed" not in zlib.decompress(blob)
    assert list(views(again)) == seen
    assert rebuild(again).result() == record.result


async def test_every_finished_game_is_kept_and_served(server, clients, store):
    room, players = await table(server.url, humans=2, seats=3, bots=1)
    clients.extend(players)
    await asyncio.gather(*(p.play(room, random.Random(i)) for i, p in enumerate(players)))
    snapshot = await stored_view(store, room)
    for p in players:
        await p.wait(lambda p=p: p.rooms[room]["status"] == "finished")
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{server.url}/api/games") as r:
            assert r.status == 200
            listed = await r.json()
        assert [g["id"] for g in listed["games"]] == [room] and listed["next"] is None
        async with http.get(f"{server.url}/api/games/{room}") as r:
            assert r.status == 200 and r.headers["ETag"]
            body = await r.json()
            tag = r.headers["ETag"]
        async with http.get(f"{server.url}/api/games/{room}", headers={"If-None-Match": tag}) as r:
            assert r.status == 304
        async with http.get(f"{server.url}/api/games/{room}/replay") as r:
            assert r.status == 200
            frames = (await r.json())["frames"]
        person = players[1].session["person"]
        async with http.get(f"{server.url}/api/games", params={"person": person}) as r:
            assert [g["id"] for g in (await r.json())["games"]] == [room]
        async with http.get(f"{server.url}/api/games", params={"person": "p_nobody"}) as r:
            assert (await r.json())["games"] == []
    raw = await store.redis.hget(f"{store.prefix}:record:{room}", "body")
    assert len(raw) < 5000, len(raw)   # compact
    assert "seed" not in json.dumps(body)
    # who made each action: the two people by their public ids, the bot seat as a bot
    people = {p.session["person"] for p in players}
    assert {a["by"] for a in body["actions"] if a["how"] == "person"} == people
    assert {a["colour"] for a in body["actions"] if a["how"] == "bot"} == {"green"}
    assert all(a["by"] is None for a in body["actions"] if a["how"] == "bot")
    assert [s["kind"] for s in body["seats"]] == ["human", "human", "bot"]
    assert [s["level"] for s in body["seats"]] == [None, None, "greedy"]   # the bot's level
    assert body["result"] == snapshot["view"]["result"]
    # the record replays to the events every client received and to the final view
    record = GameRecord(**body)
    replayed = list(views(record))
    received = sorted((d for e, d in players[0].received if e == "game" and d["room"] == room), key=lambda m: m["v"])
    assert [m["events"] for m in received] == [events for events, _view in replayed]
    assert replayed[-1][1] == snapshot["view"]
    # the replay frames are the live messages: their patches rebuild every view
    view = None
    for frame, (_events, expected) in zip(frames, replayed, strict=True):
        view = patch.apply(view, frame["patch"])
        assert view == json.loads(json.dumps(expected))
    # the finished game is no longer listed among live ones
    assert room not in [r["id"] for r in await server.app[LOBBY].listing()]


async def test_pagination_newest_first_and_retention(store):
    record, _seen = played(list(COLOURS[:2]), 11)
    records = Records(store.redis, store.prefix, retention=3600)
    now = time.time()
    ids = []
    for i in range(7):
        ids.append(f"r_{i:08x}")
        kept = GameRecord(**{**record.to_json(), "id": ids[-1], "finished": now - 100 + i,
                             "seats": [{"seat": 0, "colours": ["red"], "kind": "human", "person": "p_a" if i % 2
                                        else "p_b", "name": "A"}]})
        assert await records.keep(kept)
        assert not await records.keep(kept)   # once
    pages, before = [], None
    while True:
        page = await records.recent(3, before)
        if not page:
            break
        pages.append([g["id"] for g in page])
        before = page[-1]["finished"]
    assert pages == [ids[6:3:-1], ids[3:0:-1], ids[0:1]]
    assert [g["id"] for g in await records.recent(10, person="p_a")] == [ids[5], ids[3], ids[1]]
    # retention: a record older than it is neither listed nor served
    short = Records(store.redis, store.prefix + "-short", retention=0.3)
    assert await short.keep(GameRecord(**{**record.to_json(), "finished": time.time()}))
    assert [g["id"] for g in await short.recent(5)] == [record.id] and await short.get(record.id)
    await asyncio.sleep(0.5)
    assert await short.recent(5) == [] and await short.get(record.id) is None
    await short.redis.delete(f"{store.prefix}-short:records")


@pytest.mark.parametrize(("query", "status"), [
    ("limit=0", 400), ("limit=101", 400), ("limit=abc", 400), ("limit=-1", 400), ("before=x", 400),
    ("before=nan", 400), ("before=-5", 400), ("person=nobody", 400), ("colour=red", 400), ("limit=1&limit=2", 400),
    ("limit=5", 200), ("before=1700000000.5", 200), ("person=p_someone", 200)])
async def test_bad_parameters_are_400_with_a_json_error(server, query, status):
    async with aiohttp.ClientSession() as http, http.get(f"{server.url}/api/games?{query}") as r:
        assert r.status == status
        body = await r.json()
        assert ("error" in body) == (status == 400)
        if status == 400:
            assert body["error"]["code"] == "bad_parameter" and body["error"]["message"]


@pytest.mark.parametrize("path", ["r_00000000", "nope", "r_ABCDEF12", "r_00000000/replay", "..%2Fx", "x" * 300])
async def test_unknown_games_are_404_with_a_json_error(server, path):
    async with aiohttp.ClientSession() as http, http.get(f"{server.url}/api/games/{path}") as r:
        assert r.status == 404
        assert (await r.json())["error"]["code"] in ("no_game", "not_found")


def test_the_stored_form_is_msgpack_deflated():
    record, _seen = played(list(COLOURS[:3]), 21)
    body = msgpack.unpackb(zlib.decompress(record.to_bytes()), raw=False)
    assert "seed" not in body and body["drawn"] == record.drawn


async def test_a_rematch_keeps_seats_and_settings_and_invites_the_others(server, clients):
    room, (a, b) = await table(server.url, humans=2, seats=3, bots=1, clock=30)
    clients.extend([a, b])
    answer = await b.call("rematch", {"room": room})
    assert answer["error"]["code"] == "not_finished"
    await asyncio.gather(a.play(room, random.Random(1)), b.play(room, random.Random(2)))
    for p in (a, b):
        await p.wait(lambda p=p: p.rooms[room]["status"] == "finished")
    first = await b.ok("rematch", {"room": room})
    assert first["created"] and first["seats"] == [1]
    # a is invited through the finished room's stream, and one click names the same room
    await a.wait(lambda: any(e == "room" and d["id"] == room and d.get("rematch") for e, d in a.received))
    invite = next(d["rematch"] for e, d in a.received if e == "room" and d["id"] == room and d.get("rematch"))
    assert invite["room"] == first["room"] and invite["by"] == b.session["person"]
    again = await a.ok("rematch", {"room": room})
    assert again == {"ok": True, "room": first["room"], "seats": [0], "created": False}
    joined = await a.ok("room_join", {"room": first["room"]})
    await a.ok("sit", {"room": first["room"], "seat": 0})
    state = (await a.ok("room_join", {"room": first["room"]}))["room"]
    assert joined["room"]["settings"] == {**state["settings"]} and state["settings"]["clock"] == 30
    # told apart from the game before it, in the lobby and the records
    assert state["settings"]["name"] == "test table (rematch 2)"
    assert [(s["kind"], s["person"]) for s in state["seats"]] == [
        ("human", a.session["person"]), ("human", b.session["person"]), ("bot", None)]
    assert state["host"] == b.session["person"] and state["status"] == "waiting"
    # a spectator of the finished game is not a player: no rematch for them
    watcher, = await people(server.url, clients, "W")
    await watcher.ok("room_join", {"room": room})
    assert (await watcher.call("rematch", {"room": room}))["error"]["code"] == "not_seated"
    assert (await watcher.call("rematch", {"room": "r_nothere"}))["error"]["code"] == "no_room"
    assert (await watcher.call("rematch", {"room": 5}))["error"]["code"] == "malformed"


async def test_clock_and_takeover_are_recorded_as_such(server, clients, store):
    room, (a, b) = await table(server.url, humans=2, seats=2, clock=1, grace=0.2, first=0)
    clients.extend([a, b])
    await a.wait(lambda: a.my_turn(room))
    # a did nothing: the clock ran out (its bot is thought in the bot workers, which start with the server:
    # seconds on a loaded machine)
    await a.wait(lambda: a.v(room) >= 1, timeout=30)
    await b.close()                                        # b goes away: a bot takes over after the grace
    await a.wait(lambda: a.rooms[room]["seats"][1]["autopilot"])
    await a.play(room, random.Random(3), stop_at=8)
    lines = await store.games.actions(room)
    assert lines[0]["how"] == "clock" and lines[0]["colour"] == "red"
    assert any(x["how"] == "takeover" and x["colour"] == "blue" for x in lines)


async def test_a_live_game_can_be_rewound_so_far(server, clients):
    room, (a,) = await table(server.url, humans=1, seats=2, bots=1)
    clients.append(a)
    await a.play(room, random.Random(5), stop_at=12)
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{server.url}/api/games/{room}") as r:
            assert r.status == 200 and r.headers["Cache-Control"] == "no-cache"
            body = await r.json()
        async with http.get(f"{server.url}/api/games/{room}/replay") as r:
            frames = (await r.json())["frames"]
        async with http.get(f"{server.url}/api/games") as r:
            assert (await r.json())["games"] == []      # not a finished game
    assert body["live"] and body["result"] is None and "seed" not in json.dumps(body)
    # the bot may move between the two requests: the replay, fetched second, holds at least the record's actions
    assert [f["v"] for f in frames] == list(range(len(frames)))
    assert len(frames) >= len(body["actions"]) + 1 >= 12
    await a.wait(lambda: a.v(room) >= frames[-1]["v"], timeout=5)
    received = {d["v"]: d["events"] for e, d in a.received if e == "game" and d["room"] == room}
    assert all(f["events"] == received[f["v"]] for f in frames)


@pytest.mark.parametrize(("name", "renamed"), [
    ("Ann's table", "Ann's table (rematch 2)"),
    ("Ann's table (rematch 2)", "Ann's table (rematch 3)"),
    ("x" * 40, "x" * 28 + " (rematch 2)"),
    ("(rematch 9)", "(rematch 9) (rematch 2)"),
])
def test_a_rematch_is_named_after_the_game_before_it(name, renamed):
    from server.lobby.rematch import rematch_name

    assert rematch_name(name) == renamed and len(renamed) <= 40

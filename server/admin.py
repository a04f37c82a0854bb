"""`tongiaki rooms`: the operator's view of the service, read from the same Redis the servers use
(`REDIS_URL`, else the embedded Redis a running `tongiaki serve` started on its data dir).

    tongiaki rooms [list]        every room: id, code, rule set, status, seats, age
    tongiaki rooms show ROOM     one room (id or code): settings, seats, game version, who is watching
    tongiaki rooms close ROOM    removes the room and its game; the servers tell the lobby, and the
                                 room's sockets are told to `resync` (they find the room gone)
    tongiaki rooms bots          the bot queue: jobs waiting, taken and not answered, the oldest's age

`--json` prints one JSON document instead of text (for scripts)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

import redis.asyncio as redis
import socketio

from server.bots.worker import answers_stream, job_streams
from server.config import REDIS_OPTIONS, Config, redis_client
from server.lobby.embedded import running_url
from server.lobby.store import Store
from server.realtime.fanout import room_channel

NOT_FOUND = 1
UNREACHABLE = 2


def add_parser(commands: Any) -> None:
    """`tongiaki rooms` and its actions, on the command's subparsers."""
    rooms = commands.add_parser("rooms", help="list, inspect or close rooms; the bot queue (operators)",
                                description=__doc__.split("\n\n")[0])
    rooms.add_argument("--redis-url", default=None, help="the service's Redis (default: $REDIS_URL)")
    rooms.add_argument("--data-dir", default=None, help="without a Redis URL: the data dir of the running "
                       "`tongiaki serve` whose embedded Redis to read (default: $TONGIAKI_DATA_DIR, else data)")
    rooms.add_argument("--prefix", default=None, help="the deployment's key prefix (default: $TONGIAKI_PREFIX)")
    rooms.add_argument("--json", action="store_true", help="one JSON document instead of text")
    rooms.add_argument("action", nargs="?", default="list", choices=["list", "show", "close", "bots"])
    rooms.add_argument("room", nargs="?", help="a room's id or code (show, close)")


def run(args: argparse.Namespace, config: Config) -> int:
    """Runs the action; its exit status (0, `NOT_FOUND`, `UNREACHABLE`). Errors are one line on stderr."""
    url = config.redis_url or running_url(config.data_dir)
    if not url:
        print(f"tongiaki rooms: no REDIS_URL, and no running embedded Redis in {config.data_dir} (is "
              f"`tongiaki serve --data-dir {config.data_dir}` running?)", file=sys.stderr)
        return UNREACHABLE
    if args.action in ("show", "close") and not args.room:
        print(f"tongiaki rooms {args.action}: which room? (an id or a code)", file=sys.stderr)
        return NOT_FOUND
    return asyncio.run(_run(args, url, config))


async def _run(args: argparse.Namespace, url: str, config: Config) -> int:
    prefix = config.prefix
    client = redis_client(url, max_connections=8)
    try:
        store = Store(client, prefix)
        try:
            await store.ping()
        except redis.RedisError as e:
            print(f"tongiaki rooms: Redis at {url} unreachable: {e}", file=sys.stderr)
            return UNREACHABLE
        if args.action == "list":
            return _print(args, await rooms(store), _rooms_text)
        if args.action == "bots":
            return _print(args, await bot_queue(client, prefix), _bots_text)
        room_id = await _room_id(store, args.room)
        if room_id is None:
            print(f"tongiaki rooms: no room {args.room!r}", file=sys.stderr)
            return NOT_FOUND
        if args.action == "show":
            return _print(args, await room(store, room_id, config.presence_ttl), _room_text)
        closed = await close(store, url, prefix, room_id)
        return _print(args, closed, lambda c: f"closed room {c['id']} ({c['code']}, {c['status']})")
    finally:
        await client.aclose()


async def _room_id(store: Store, given: str) -> str | None:
    if await store.rooms.get(given) is not None:
        return given
    return await store.rooms.by_code(given.upper())


async def rooms(store: Store) -> list[dict[str, Any]]:
    """Every room in the index, oldest first."""
    ids = await store.rooms.all_ids()
    now = time.time()
    return [{"id": r.id, "code": r.code, "game": r.settings.game, "status": r.status,
             "private": r.settings.private, "humans": sum(s.kind == "human" for s in r.seats),
             "bots": sum(s.kind == "bot" for s in r.seats), "seats": len(r.seats), "age": round(now - r.created)}
            for r in await store.rooms.many(ids) if r is not None]


async def room(store: Store, room_id: str, presence_ttl: float) -> dict[str, Any]:
    """One room as an operator wants it: settings, seats, its game's head and who is watching."""
    found, head, present = await store.look(room_id, time.time() - presence_ttl)
    assert found is not None
    return {"id": found.id, "code": found.code, "status": found.status, "host": found.host,
            "settings": found.to_store()["settings"], "created": found.created, "finished": found.finished,
            "seats": [{"kind": s.kind, "name": s.name, **({"level": s.level} if s.kind == "bot" else {})}
                      for s in found.seats],
            "game": None if head is None else {"v": head.v, "deciding": list(head.deciding), "at": head.at},
            "watching": len(present)}


async def close(store: Store, url: str, prefix: str, room_id: str) -> dict[str, Any]:
    """Removes the room (Store.close_room), then tells its sockets, on every server process listening to
    Redis pub/sub, to `resync`: they ask for the room again and find it gone."""
    gone = await store.rooms.close(room_id)
    assert gone is not None
    emitter = socketio.AsyncRedisManager(url, channel=f"{prefix}:socketio", write_only=True,
                                         redis_options=dict(REDIS_OPTIONS))
    try:
        await emitter.emit("resync", {"reason": "the room was closed by an operator"}, namespace="/",
                           room=room_channel(room_id))
    finally:
        await emitter.redis.aclose()
    return {"id": gone.id, "code": gone.code, "status": gone.status}


async def bot_queue(client: redis.Redis, prefix: str) -> dict[str, Any]:
    """The bot queue's streams (server/bots/worker.py): jobs in the streams (all classes, and per class),
    taken by a worker and not yet answered (per consumer), the oldest job's age, and answers waiting to be
    applied."""
    streams = job_streams(prefix)
    by_class = {kind: await client.xlen(stream) for kind, stream in streams.items()}
    out: dict[str, Any] = {"jobs": sum(by_class.values()), "by_class": by_class,
                           "answers": await client.xlen(answers_stream(prefix)), "taken": {}, "oldest_age": None}
    oldest = None
    for stream in streams.values():
        try:
            for consumer in await client.xinfo_consumers(stream, "workers"):
                name = consumer["name"].decode()
                out["taken"][name] = out["taken"].get(name, 0) + consumer["pending"]
        except redis.ResponseError:   # no group yet: no worker ever read
            pass
        first = await client.xrange(stream, count=1)
        if first:   # an entry's id starts with its time in milliseconds
            entry_id = first[0][0].decode() if isinstance(first[0][0], bytes) else str(first[0][0])
            at = int(entry_id.split("-")[0]) / 1000
            oldest = at if oldest is None else min(oldest, at)
    if oldest is not None:
        out["oldest_age"] = round(time.time() - oldest, 1)
    return out


def _print(args: argparse.Namespace, value: Any, text: Any) -> int:
    print(json.dumps(value, indent=1) if args.json else text(value))
    return 0


def _rooms_text(found: list[dict[str, Any]]) -> str:
    lines = [f"{'id':<14} {'code':<6} {'game':<12} {'status':<9} {'seats':<11} {'age':>8}"]
    for r in found:
        seats = f"{r['humans']}p+{r['bots']}b/{r['seats']}"
        lines.append(f"{r['id']:<14} {r['code']:<6} {r['game']:<12} {r['status']:<9} {seats:<11} {r['age']:>7}s"
                     + (" private" if r["private"] else ""))
    return "\n".join(lines + [f"{len(found)} rooms"])


def _room_text(r: dict[str, Any]) -> str:
    seats = ", ".join(s["name"] or s["kind"] for s in r["seats"])
    game = "no game yet" if r["game"] is None else f"game v{r['game']['v']}, deciding {r['game']['deciding']}"
    return (f"room {r['id']} ({r['code']}): {r['status']}, {game}\nseats: {seats}\nwatching: {r['watching']}\n"
            f"settings: {json.dumps(r['settings'])}")


def _bots_text(q: dict[str, Any]) -> str:
    taken = ", ".join(f"{k}: {v}" for k, v in q["taken"].items()) or "none"
    oldest = "-" if q["oldest_age"] is None else f"{q['oldest_age']} s"
    classes = ", ".join(f"{k} {v}" for k, v in q["by_class"].items())
    return (f"jobs: {q['jobs']} (oldest {oldest}); taken and not answered: {taken}; answers waiting: "
            f"{q['answers']}; by class: {classes}")

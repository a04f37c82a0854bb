"""The HTTP API of game records (docs/protocol.md §12): lists of finished games and whole records.

Every answer is JSON; bad parameters get 400, unknown ids 404 and requests beyond an address's rate 429,
each with `{"error": {code, message}}`. Answers carry an ETag and a matching `If-None-Match` gets 304.
A private room's game is listed to its players only, and read only by them or with its join code
(`?code=`); who asks is the session token in `Authorization: Bearer <token>`.
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

from server.records.rate import Rates
from server.records.record import GameRecord
from server.records.replay import Growing, frames
from server.records.store import Records

RECORDS = web.AppKey("records", Records)
LIVE = web.AppKey[Callable[[str, bool], Awaitable[GameRecord | None]]]("live")
"""The record so far of a game still being played (set by the app): what a spectator rewinds; True: with
its frames, when its mode rebuilds them from the stored game (GameRecord.frames)."""
VIEWER = web.AppKey[Callable[[web.Request], Awaitable[str | None]]]("viewer")
"""The person asking (their public id, from the request's session token; None: unknown), set by the app."""
ADDRESS = web.AppKey[Callable[[web.Request], str]]("address")
"""The client's address (set by the app: behind the proxy, the one it forwarded)."""
RATES = web.AppKey("record_rates", Rates)

ID = re.compile(r"r_[0-9a-f]{8}")
PERSON = re.compile(r"p_[A-Za-z0-9_-]{1,32}")
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
RATE, BURST = 5.0, 30.0
"""Requests per second per address on average, and at once: a page asks for two or three."""
FORMAT = "1"
"""Part of a finished game's ETag: changed when the form of an answer changes."""


class Served:
    """The replays built, held in memory per process: a finished game's JSON by id (least recently used
    first out beyond `finished_bytes`), and a live game's frames so far (`Growing`, beyond `live_rooms`
    the least recently used first out), extended as the game goes on."""

    def __init__(self, finished_bytes: int = 16 << 20, live_rooms: int = 64) -> None:
        self.finished: OrderedDict[str, str] = OrderedDict()
        self.finished_bytes = finished_bytes
        self.held_bytes = 0
        self.live: OrderedDict[str, tuple[Growing, list[str], asyncio.Lock]] = OrderedDict()
        self.live_rooms = live_rooms

    def __repr__(self) -> str:
        return f"Served({len(self.finished)} finished, {self.held_bytes} bytes; {len(self.live)} live)"

    def finished_replay(self, record_id: str) -> str | None:
        text = self.finished.get(record_id)
        if text is not None:
            self.finished.move_to_end(record_id)
        return text

    def hold_finished(self, record_id: str, text: str) -> None:
        self.live.pop(record_id, None)
        if record_id in self.finished:
            return
        self.finished[record_id] = text
        self.held_bytes += len(text)
        while self.held_bytes > self.finished_bytes and self.finished:
            self.held_bytes -= len(self.finished.popitem(last=False)[1])

    async def live_replay(self, record: GameRecord) -> str:
        """The frames of a live game so far as JSON: built once per version, each from the last."""
        entry = self.live.get(record.id)
        if entry is None:
            entry = self.live[record.id] = (Growing(), [], asyncio.Lock())
            while len(self.live) > self.live_rooms:
                self.live.popitem(last=False)
        self.live.move_to_end(record.id)
        growing, texts, lock = entry
        async with lock:   # one build at a time per game; those waiting find it built
            if len(texts) < len(record.actions) + 1:
                def build() -> None:
                    grown = growing.grow(record)
                    texts.extend(_json(f) for f in grown[len(texts):])
                await asyncio.to_thread(build)
            return f'{{"id":{_json(record.id)},"frames":[{",".join(texts[:len(record.actions) + 1])}],"live":true}}'


SERVED = web.AppKey("served", Served)


def install(app: web.Application, rate: float = RATE, burst: float = BURST) -> None:
    """Adds the routes (before the catch-all of the web client). `app[RECORDS]` is set at start-up."""
    app[RATES] = Rates(rate, burst)
    app[SERVED] = Served()
    app.router.add_get("/api/games", games)
    app.router.add_get("/api/games/{id}", game)
    app.router.add_get("/api/games/{id}/replay", replay)
    app.router.add_route("*", "/api/{rest:.*}", unknown)


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"error": {"code": code, "message": message}}, status=status, headers=headers)


def _json(body: Any) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def _tag(*parts: str) -> str:
    return '"' + hashlib.blake2b("\n".join(parts).encode(), digest_size=12).hexdigest() + '"'


def _held(request: web.Request, tag: str) -> bool:
    """Whether the client holds the answer tagged `tag` (If-None-Match compares weakly: a proxy that
    compressed it made the tag weak)."""
    return tag in [t.strip().removeprefix("W/") for t in request.headers.get("If-None-Match", "").split(",")]


def _answer(request: web.Request, body: Any, cache: str, tag: str | None = None) -> web.Response:
    """JSON with an ETag (`tag`, else a digest of the body); 304 when the client already holds it."""
    text = body if isinstance(body, str) else _json(body)
    tag = tag or _tag(text)
    headers = {"ETag": tag, "Cache-Control": cache, "Vary": "Authorization, Accept-Encoding"}
    if _held(request, tag):
        return web.Response(status=304, headers=headers)
    response = web.Response(text=text, content_type="application/json", headers=headers)
    if len(text) > 4096:
        response.enable_compression()
    return response


def _limited(request: web.Request) -> web.Response | None:
    """429 when the address asked too often (the answer says when to ask again), else None."""
    address = request.app[ADDRESS](request) if ADDRESS in request.app else (request.remote or "")
    wait = request.app[RATES].allow(address)
    if not wait:
        return None
    return _error(429, "too_many_requests", f"too many requests from this address: ask again in {wait:.1f} s",
                  {"Retry-After": str(max(1, math.ceil(wait)))})


async def _viewer(request: web.Request) -> str | None:
    return await request.app[VIEWER](request) if VIEWER in request.app else None


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
    """`GET /api/games?limit=&before=&person=`: finished games, newest first; a person's private games
    only when that person asks."""
    if (refused := _limited(request)) is not None:
        return refused
    try:
        limit, before, person = _params(request.query)
    except ValueError as e:
        return _error(400, "bad_parameter", str(e))
    mine = person is not None and person == await _viewer(request)
    found = await request.app[RECORDS].recent(limit, before, person, mine)
    more = len(found) == limit
    body = {"games": found, "next": found[-1]["finished"] if more and found else None}
    return _answer(request, body, "private, no-cache" if mine else "no-cache")


async def _record(request: web.Request, replay: bool = False) -> tuple[GameRecord, bool] | web.Response:
    """The finished game's record, else the record so far of a live game (True: live; `replay`: with its
    frames, if its mode keeps them); a private one only for its players or with its code (else as unknown:
    404)."""
    record_id = request.match_info["id"]
    if ID.fullmatch(record_id):
        found: tuple[GameRecord, bool] | None = None
        record = await request.app[RECORDS].get(record_id)
        if record is not None:
            found = record, False
        elif LIVE in request.app and (live := await request.app[LIVE](record_id, replay)) is not None:
            found = live, True
        if found is not None and (not found[0].private
                                  or found[0].open_to(await _viewer(request), request.query.get("code"))):
            return found
    return _error(404, "no_game", f"no game {record_id[:40]!r}")


def _finished_tag(kind: str, record: GameRecord) -> str:
    """A finished game's answers never change: their tag is known before they are built (a private game's
    depends on its code, which nobody can guess from it)."""
    return _tag(kind, FORMAT, record.id, record.code or "")


def _cache(record: GameRecord, live: bool = False) -> str:
    if live:
        return "private, no-cache" if record.private else "no-cache"
    return f"{'private' if record.private else 'public'}, max-age=3600"


async def game(request: web.Request) -> web.Response:
    """`GET /api/games/<id>`: the record (a record never changes: cacheable), or a live game's so far."""
    if (refused := _limited(request)) is not None:
        return refused
    found = await _record(request)
    if isinstance(found, web.Response):
        return found
    record, live = found
    if live:
        return _answer(request, {**record.to_json(), "result": None, "live": True}, _cache(record, live))
    return _answer(request, record.to_json(), _cache(record), _finished_tag("record", record))


async def replay(request: web.Request) -> web.Response:
    """`GET /api/games/<id>/replay`: every version as a live table received it, `{v, events, patch}`
    (v = 0 carries the whole first view as a patch from nothing): the record's frames, where its mode keeps
    them (GameRecord.frames); else rebuilt with the engine from the record's actions outside the event
    loop, a live game's grown from its last version's, a finished game's once, then kept beside its
    record."""
    if (refused := _limited(request)) is not None:
        return refused
    found = await _record(request, replay=True)
    if isinstance(found, web.Response):
        return found
    record, live = found
    served = request.app[SERVED]
    rebuilt = record.rebuilt
    if live:
        if record.frames is not None:
            return _answer(request, _json({"id": record.id, "frames": record.frames, "live": True}),
                           _cache(record, live))
        if not rebuilt:
            return _error(404, "no_replay", "this game's replay was not kept")
        return _answer(request, await served.live_replay(record), _cache(record, live))
    tag = _finished_tag("replay", record)
    if _held(request, tag):
        return _answer(request, "", _cache(record), tag)   # 304 without building anything
    text = served.finished_replay(record.id)
    if text is None:
        text = await _finished_replay(request.app[RECORDS], record, rebuilt)
        if text is None:
            return _error(404, "no_replay", "this game's replay was not kept")
        served.hold_finished(record.id, text)
    return _answer(request, text, _cache(record), tag)


async def _finished_replay(records: Records, record: GameRecord, rebuilt: bool) -> str | None:
    if not rebuilt:   # its frames, or none kept (an Expeditions game recorded from a patch log cut short)
        return None if record.frames is None else _json({"id": record.id, "frames": record.frames})
    text = await records.replay(record.id)
    if text is None:
        text = await asyncio.to_thread(lambda: _json({"id": record.id, "frames": frames(record)}))
        await records.keep_replay(record.id, text)
    return text


async def unknown(request: web.Request) -> web.Response:
    return _error(404, "not_found", f"no API at {request.path[:80]!r}")

"""The HTTP API of notifications (docs/protocol.md has the wire; this is the browser's settings page and
the links of messages). Who asks is the session token (`Authorization: Bearer <token>`), as for records.

| route | what |
| --- | --- |
| `GET /api/notify/status` | `{mail, push, vapid}`: what the operator configured (the client says when nothing is) |
| `GET /api/notify/me` | the person's reach and their "Your turns" list |
| `POST /api/notify/email` | `{email, lang}`: an address to confirm (the notifier sends the link) |
| `POST /api/notify/push` | `{subscription, lang}`: this browser's web push subscription |
| `POST /api/notify/table` | `{room, mode}`: what the person hears of one table (`every`, `mine`, `digest`, `off`) |
| `POST /api/notify/stop` | `{channel}`: `mail`, `push` or `all` |
| `GET /api/notify/unsubscribe?t=…[&room=…]` | the link of every message: a page with one button (changes nothing) |
| `POST /api/notify/unsubscribe?t=…[&room=…]` | its button, and a mail client's one-click unsubscribe (RFC 8058) |
| `GET /api/notify/confirm?t=…` | the link of a confirmation message: a page with one button (changes nothing) |
| `POST /api/notify/confirm?t=…` | its button: the address is confirmed |

Bad input is 400 with `{"error": {code, message}}` and changes nothing."""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlencode, urlsplit

from aiohttp import web

from server.lobby.store import Store
from server.notify.facts import FactStream
from server.notify.reach import EMAIL, LANGS, MODES, Reaches
from server.notify.turns import your_turns
from server.notify.words import say
from server.records.rate import Rates

REACHES = web.AppKey("reaches", Reaches)
FACTS = web.AppKey("facts", FactStream)
NOTIFY_STORE = web.AppKey("notify_store", Store)
STATUS = web.AppKey[dict[str, Any]]("notify_status")
"""What the operator configured: `mail` and `push` (booleans), `vapid` (the public key, or None)."""
PERSON = web.AppKey[Callable[[web.Request], Awaitable[str | None]]]("notify_person")
ADDRESS = web.AppKey[Callable[[web.Request], str]]("notify_address")
RATES = web.AppKey("notify_rates", Rates)

BODY_MAX = 4096
ROOM = re.compile(r"r_[0-9a-f]{8}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
ASK_AGAIN = 60
"""Seconds before one person may ask for another confirmation message."""

PUSH_SERVICES = ("fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com")
"""The push services browsers subscribe with: the notifier posts to no other host (a subscription is a URL
the server will call, so anything else would let a client point it at an inner address)."""


def install(app: web.Application, rate: float = 2.0, burst: float = 20.0) -> None:
    """Adds the routes (before the records' catch-all of /api/); the collaborators are set at start-up."""
    app[RATES] = Rates(rate, burst)
    app.router.add_get("/api/notify/status", status)
    app.router.add_get("/api/notify/me", me)
    app.router.add_post("/api/notify/email", email)
    app.router.add_post("/api/notify/push", push)
    app.router.add_post("/api/notify/table", table)
    app.router.add_post("/api/notify/stop", stop)
    app.router.add_get("/api/notify/unsubscribe", unsubscribe_asked)
    app.router.add_post("/api/notify/unsubscribe", unsubscribe)
    app.router.add_get("/api/notify/confirm", confirm_asked)
    app.router.add_post("/api/notify/confirm", confirm)


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": {"code": code, "message": message}}, status=status,
                             headers={"Cache-Control": "no-store"})


def _ok(body: Any) -> web.Response:
    return web.json_response(body, headers={"Cache-Control": "no-store", "Vary": "Authorization"})


def _limited(request: web.Request) -> web.Response | None:
    address = request.app[ADDRESS](request) if ADDRESS in request.app else (request.remote or "")
    wait = request.app[RATES].allow(address)
    if not wait:
        return None
    response = _error(429, "too_many_requests", f"too many requests from this address: ask again in {wait:.1f} s")
    response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
    return response


async def _person(request: web.Request) -> str | web.Response:
    person = await request.app[PERSON](request) if PERSON in request.app else None
    if person is None:
        return _error(401, "no_session", "send your session token: Authorization: Bearer <token>")
    return person


async def _body(request: web.Request) -> dict[str, Any] | web.Response:
    if request.content_length is None or request.content_length > BODY_MAX:
        return _error(400, "malformed", f"a JSON body of at most {BODY_MAX} bytes")
    try:
        body = json.loads(await request.read())
    except ValueError:
        return _error(400, "malformed", "the body is not JSON")
    if not isinstance(body, dict):
        return _error(400, "malformed", "the body must be a JSON object")
    return body


def _lang(body: dict[str, Any]) -> str | None:
    lang = body.get("lang", "en")
    return lang if lang in LANGS else None


async def status(request: web.Request) -> web.Response:
    return _ok(request.app[STATUS])


async def me(request: web.Request) -> web.Response:
    if (limited := _limited(request)) is not None:
        return limited
    person = await _person(request)
    if isinstance(person, web.Response):
        return person
    reach = await request.app[REACHES].get(person)
    turns = await your_turns(request.app[NOTIFY_STORE], person, reach.prefs)
    configured: dict[str, Any] = request.app[STATUS]
    return _ok({**configured, "reach": reach.to_wire(), "turns": turns})


async def _settle(request: web.Request) -> tuple[str, dict[str, Any]] | web.Response:
    """The person and the request's body, or the answer refusing it."""
    if (limited := _limited(request)) is not None:
        return limited
    person = await _person(request)
    if isinstance(person, web.Response):
        return person
    body = await _body(request)
    if isinstance(body, web.Response):
        return body
    return person, body


Change = Callable[[web.Request, str, dict[str, Any]], Awaitable[web.Response | None]]


def _changes_reach(change: Change) -> Callable[[web.Request], Awaitable[web.Response]]:
    """A settings route: the person and their JSON body (or the answer refusing them), the change (which
    answers only to refuse), then the person's reach as it now is."""
    async def handler(request: web.Request) -> web.Response:
        settled = await _settle(request)
        if isinstance(settled, web.Response):
            return settled
        person, body = settled
        refused = await change(request, person, body)
        if refused is not None:
            return refused
        return _ok({"reach": (await request.app[REACHES].get(person)).to_wire()})
    handler.__doc__ = change.__doc__
    return handler


@_changes_reach
async def email(request: web.Request, person: str, body: dict[str, Any]) -> web.Response | None:
    """An address to confirm: the notifier sends the link."""
    if not request.app[STATUS]["mail"]:
        return _error(409, "no_mail", "this service sends no e-mail (its operator configured no mail server)")
    address, lang = body.get("email"), _lang(body)
    if not isinstance(address, str) or len(address) > 254 or not EMAIL.fullmatch(address.strip()):
        return _error(400, "malformed", "email: an address such as name@example.org")
    if lang is None:
        return _error(400, "malformed", f"lang: one of {', '.join(LANGS)}")
    reaches = request.app[REACHES]
    if not await reaches.may_ask(person, ASK_AGAIN):
        return _error(429, "too_many_requests", f"one confirmation message a minute: ask again in {ASK_AGAIN} s")
    token = await reaches.set_email(person, address.strip(), lang)
    await request.app[FACTS].confirm(person, address.strip(), token, lang)
    return None


def _subscription(raw: Any) -> dict[str, Any] | None:
    """A browser's PushSubscription (toJSON), checked: an https endpoint of a known push service, and
    its two keys as base64url."""
    if not isinstance(raw, dict) or not isinstance(raw.get("keys"), dict):
        return None
    endpoint, keys = raw.get("endpoint"), raw["keys"]
    if not isinstance(endpoint, str) or len(endpoint) > 1024:
        return None
    url = urlsplit(endpoint)
    host = (url.hostname or "").lower()
    if url.scheme != "https" or not any(host == s or host.endswith("." + s) for s in PUSH_SERVICES):
        return None
    b64 = re.compile(r"[A-Za-z0-9_-]+={0,2}")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not (isinstance(p256dh, str) and 80 <= len(p256dh) <= 100 and b64.fullmatch(p256dh)):
        return None
    if not (isinstance(auth, str) and 16 <= len(auth) <= 32 and b64.fullmatch(auth)):
        return None
    return {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}


@_changes_reach
async def push(request: web.Request, person: str, body: dict[str, Any]) -> web.Response | None:
    """This browser's web push subscription."""
    if not request.app[STATUS]["push"]:
        return _error(409, "no_push", "this service sends no web push (its operator made no VAPID key)")
    subscription, lang = _subscription(body.get("subscription")), _lang(body)
    if subscription is None:
        return _error(400, "malformed", "subscription: a browser's push subscription (endpoint, keys)")
    if lang is None:
        return _error(400, "malformed", f"lang: one of {', '.join(LANGS)}")
    await request.app[REACHES].set_push(person, subscription, lang)
    return None


@_changes_reach
async def table(request: web.Request, person: str, body: dict[str, Any]) -> web.Response | None:
    """What the person hears of one table they are seated at."""
    room, mode = body.get("room"), body.get("mode")
    if not isinstance(room, str) or not ROOM.fullmatch(room):
        return _error(400, "malformed", "room: a room id")
    if mode not in MODES:
        return _error(400, "malformed", f"mode: one of {', '.join(MODES)}")
    if room not in await request.app[NOTIFY_STORE].rooms.seated(person):
        return _error(403, "not_seated", "only a table you are seated at")
    await request.app[REACHES].set_mode(person, room, mode)
    return None


@_changes_reach
async def stop(request: web.Request, person: str, body: dict[str, Any]) -> web.Response | None:
    """A channel stopped: mail, push or all."""
    channel = body.get("channel")
    if channel not in ("mail", "push", "all"):
        return _error(400, "malformed", "channel: mail, push or all")
    await request.app[REACHES].forget(person, channel)
    return None


def _page(lang: str, text: str, status: int = 200, button: tuple[str, str] | None = None) -> web.Response:
    """A page of the messages' links, in `lang`: a sentence, and `button` (where it posts, what it says)."""
    direction = "rtl" if lang == "he" else "ltr"
    form = ""
    if button is not None:
        form = (f'<form method="post" action="{html.escape(button[0])}">'
                f'<button type="submit" style="font-size:1.1em;padding:.5em 1.2em">{html.escape(button[1])}'
                f'</button></form>')
    body = (f'<!doctype html><html lang="{lang}" dir="{direction}"><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width"><meta name="robots" content="noindex">'
            f'<title>Tongiaki Online</title>'
            f'<body style="font-family:sans-serif;max-width:36em;margin:3em auto;padding:0 1em">'
            f'<h1>Tongiaki Online</h1><p>{html.escape(text)}</p>{form}<p><a href="/">Tongiaki Online</a></p>')
    return web.Response(text=body, content_type="text/html", status=status,
                        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


async def _unsub_link(request: web.Request) -> tuple[str, str | None, str] | web.Response:
    """An unsubscribe link's token, table and person, or the page refusing it (changing nothing)."""
    if (limited := _limited(request)) is not None:
        return limited
    token, room = request.query.get("t", ""), request.query.get("room") or None
    if not TOKEN.fullmatch(token) or (room is not None and not ROOM.fullmatch(room)):
        return _page("en", say("en", "bad_link"), 400)
    person = await request.app[REACHES].unsub_person(token)
    if person is None:
        return _page("en", say("en", "bad_link"), 404)
    return token, room, person


async def unsubscribe_asked(request: web.Request) -> web.Response:
    """The link of a message: a page asking, with one button that posts (a GET changes nothing, so a
    scanner fetching every link of a message unsubscribes nobody)."""
    found = await _unsub_link(request)
    if isinstance(found, web.Response):
        return found
    token, room, person = found
    lang = (await request.app[REACHES].get(person)).lang
    action = "?" + urlencode({"t": token, **({"room": room} if room else {})})
    return _page(lang, say(lang, "unsubscribe.ask" if room else "unsubscribe.ask.all"),
                 button=(action, say(lang, "unsubscribe.button")))


async def unsubscribe(request: web.Request) -> web.Response:
    """The button of that page, and a mail client's one-click unsubscribe (RFC 8058: a POST whose body is
    `List-Unsubscribe=One-Click`, to the link of the message's `List-Unsubscribe` header)."""
    found = await _unsub_link(request)
    if isinstance(found, web.Response):
        return found
    token, room, person = found
    await request.app[REACHES].unsubscribe(token, room)
    lang = (await request.app[REACHES].get(person)).lang
    return _page(lang, say(lang, "unsubscribed" if room else "unsubscribed.all"))


async def _confirm_link(request: web.Request) -> str | web.Response:
    """A confirmation link's token, or the page refusing it (changing nothing)."""
    if (limited := _limited(request)) is not None:
        return limited
    token = request.query.get("t", "")
    if not TOKEN.fullmatch(token):
        return _page("en", say("en", "bad_link"), 400)
    return token


async def confirm_asked(request: web.Request) -> web.Response:
    """The link of a confirmation message: a page asking, with one button that posts (a GET changes
    nothing, so a scanner or a link preview fetching the link confirms no address)."""
    token = await _confirm_link(request)
    if isinstance(token, web.Response):
        return token
    person = await request.app[REACHES].confirming(token)
    if person is None:
        return _page("en", say("en", "bad_link"), 404)
    lang = (await request.app[REACHES].get(person)).lang
    return _page(lang, say(lang, "confirm.ask"), button=("?" + urlencode({"t": token}), say(lang, "confirm.button")))


async def confirm(request: web.Request) -> web.Response:
    """The button of that page: the address is confirmed (once)."""
    token = await _confirm_link(request)
    if isinstance(token, web.Response):
        return token
    reaches = request.app[REACHES]
    person = await reaches.confirm(token)
    if person is None:
        return _page("en", say("en", "bad_link"), 404)
    lang = (await reaches.get(person)).lang
    return _page(lang, say(lang, "confirmed"))

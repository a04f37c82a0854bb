"""`GET /api/lessons`: every lesson's starting view, for the rules page's illustrations (drawn by the
client's own board renderer). The lessons never change: the answer is built once, when the app is made."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from server.tutorial.lessons import LESSONS

LESSON_VIEWS = web.AppKey("lesson_views", str)


def _views() -> str:
    out: dict[str, Any] = {}
    for lesson in LESSONS:
        view = lesson.build().view()
        view.pop("legal", None)
        out[lesson.id] = view
    return json.dumps({"lessons": out}, separators=(",", ":"))


async def lessons(request: web.Request) -> web.Response:
    return web.Response(text=request.app[LESSON_VIEWS], content_type="application/json",
                        headers={"Cache-Control": "public, max-age=3600"})


def install(app: web.Application) -> None:
    app[LESSON_VIEWS] = _views()
    app.router.add_get("/api/lessons", lessons)

"""`GET /api/lessons`: every lesson's starting view (`lessons`) and its view once the learner has made the
moves its guide names (`after`), for the rules page's illustrations (drawn by the client's own board
renderer: a new colonisation is shown done, not as a bare Tonga); the Expeditions lessons' starting maps are
in `lessons` too. The lessons never change: the answer is built once, when the app is made."""

from __future__ import annotations

import json

from aiohttp import web

from server.game import Game
from server.tutorial.expeditions import EX_LESSONS
from server.tutorial.lessons import LEARNER, LESSONS, Lesson

LESSON_VIEWS = web.AppKey("lesson_views", str)


def _after(lesson: Lesson) -> Game:
    """The lesson's game once the learner has made its guide's moves (an opponent's set-up boats between
    them, as the lesson's own game plays them)."""
    game = lesson.build()
    for move in lesson.moves:
        while game.to_move not in (LEARNER, None):
            game.apply(game.legal_actions()[0])
        game.apply(move, colour=LEARNER)
    return game


def _views() -> str:
    start = {lesson.id: lesson.build().view() for lesson in LESSONS}
    after = {lesson.id: _after(lesson).view() for lesson in LESSONS}
    # the Expeditions lessons' maps (mode "expeditions"), drawn by the rules page's Expeditions section
    start.update({ex.id: ex.build().view() for ex in EX_LESSONS})
    return json.dumps({"lessons": start, "after": after}, separators=(",", ":"))


async def lessons(request: web.Request) -> web.Response:
    return web.Response(text=request.app[LESSON_VIEWS], content_type="application/json",
                        headers={"Cache-Control": "public, max-age=3600"})


def install(app: web.Application) -> None:
    app[LESSON_VIEWS] = _views()
    app.router.add_get("/api/lessons", lessons)

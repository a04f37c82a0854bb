"""Tutorial sessions: one private game per person (the lesson they are on), kept in Redis
(`P:tutorial:{person}`, msgpack: lesson id, engine state, the learner's moves so far), expiring after an
hour without a move. Every move is checked by the engine like a move at a table."""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as redis

from server.game import Game, IllegalAction
from server.game.expeditions import Expeditions, OrderError
from server.lobby.errors import Rejected
from server.tutorial.expeditions import EX_BY_ID, TUTOR, ExLesson
from server.tutorial.lessons import BY_ID, LEARNER, Lesson

TTL = 3600
"""Seconds a tutorial game is kept after its last move."""


def _lesson(lesson_id: Any) -> Lesson | ExLesson:
    if not isinstance(lesson_id, str) or (lesson_id not in BY_ID and lesson_id not in EX_BY_ID):
        raise Rejected("malformed", f"lesson must be one of {sorted(BY_ID) + sorted(EX_BY_ID)}")
    return BY_ID.get(lesson_id) or EX_BY_ID[lesson_id]


def _ex_answer(lesson: ExLesson, game: Expeditions, events: list[dict[str, Any]], done: bool) -> dict[str, Any]:
    """An Expeditions lesson as the learner sees it: the view, the order form's options while the turn
    is open, the turn's report, and the order the guide names."""
    view = game.view()
    running = game.over is None and not events
    return {"lesson": lesson.id, "mode": "expeditions", "view": view, "events": events,
            "legal": game.legal_orders(LEARNER).to_wire() if running else None,
            "step": 1 if events else 0, "moves": [lesson.order], "done": done, "retry": bool(events) and not done}


def _canonical(action: dict[str, Any]) -> dict[str, Any]:
    """A move with its unordered parts sorted: the beaches of an expansion, the boats of a landing."""
    out = dict(action)
    for key in ("beaches", "boats", "tonga"):
        if isinstance(out.get(key), list):
            out[key] = sorted(out[key], key=repr)
    return out


def _same_move(a: Any, b: Any) -> bool:
    return isinstance(a, dict) and isinstance(b, dict) and _canonical(a) == _canonical(b)


def _answer(lesson: Lesson, game: Game, events: list[dict[str, Any]], step: int, done: bool) -> dict[str, Any]:
    """What the learner sees: the view, their legal actions, the events of the move, and how it stands
    (`done`: the lesson's goal was reached; `retry`: the turn went on without it, start again)."""
    view = game.view()
    mine = game.to_move == LEARNER
    # after the goal the learner may play on: the lesson's game goes on until their turn ends
    return {"lesson": lesson.id, "view": view, "legal": game.legal_actions() if mine else [],
            "events": events, "step": step, "moves": list(lesson.moves), "done": done,
            "retry": not done and not mine}


class Tutorials:
    """Starts lessons and applies the learner's moves."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.redis = client
        self.prefix = prefix

    def __repr__(self) -> str:
        return f"Tutorials({self.prefix!r})"

    def key(self, person: str) -> str:
        return f"{self.prefix}:tutorial:{person}"

    async def _save(self, person: str, lesson: Lesson | ExLesson, game: Game | Expeditions, step: int) -> None:
        blob = msgpack.packb({"lesson": lesson.id, "state": game.to_bytes(), "step": step}, use_bin_type=True)
        await self.redis.set(self.key(person), blob, ex=TTL)

    async def start(self, person: str, lesson_id: Any) -> dict[str, Any]:
        """A fresh game of the lesson."""
        lesson = _lesson(lesson_id)
        game = lesson.build()
        await self._save(person, lesson, game, 0)
        if isinstance(lesson, ExLesson):
            assert isinstance(game, Expeditions)   # a lesson builds the game of its own rule set
            return _ex_answer(lesson, game, [], False)
        assert isinstance(game, Game)
        return _answer(lesson, game, [], 0, False)

    async def act(self, person: str, lesson_id: Any, action: Any) -> dict[str, Any]:
        """The learner's move in the lesson they started; the opponent's set-up boats follow it."""
        lesson = _lesson(lesson_id)
        if not isinstance(action, dict):
            raise Rejected("malformed", "action must be a map")
        raw = await self.redis.get(self.key(person))
        held = msgpack.unpackb(raw, raw=False) if isinstance(raw, bytes) else None
        if held is None or held["lesson"] != lesson.id:
            raise Rejected("not_playing", f"start the lesson {lesson.id!r} first (tutorial_start)")
        if isinstance(lesson, ExLesson):
            return await self._ex_act(person, lesson, Expeditions.from_bytes(held["state"]), action)
        game = Game.from_bytes(held["state"])
        if game.to_move != LEARNER:
            raise Rejected("not_your_turn", "this lesson's turn is over: start it again")
        step = held["step"]
        if step < len(lesson.moves) and not _same_move(action, lesson.moves[step]) \
                and any(_same_move(action, legal) for legal in game.legal_actions()):
            # a legal move, but not the one the lesson teaches: refused, nothing changes, try again
            raise Rejected("not_the_lesson", "not the lesson's move: try the one its guide names")
        try:
            events = game.apply(action, colour=LEARNER)
        except IllegalAction as e:
            raise Rejected("illegal_action", e.message, reason=e.code) from None
        done = lesson.done(events)
        while lesson.opponent_plays_setup and not done and game.to_move not in (LEARNER, None):
            more = game.apply(game.legal_actions()[0])   # the opponent's set-up boat
            events += more
            done = lesson.done(more)
        step = held["step"] + 1
        await self._save(person, lesson, game, step)
        return _answer(lesson, game, events, step, done)

    async def _ex_act(self, person: str, lesson: ExLesson, game: Expeditions, action: dict[str, Any]) -> dict[str, Any]:
        """The learner's order in an Expeditions lesson: checked by the engine like an order at a table; the
        lesson's own order only (another legal one is refused, nothing changes); then the tutor's order and
        the turn's resolution (E5-E11)."""
        if game.over is not None or game.turn != lesson.build().turn:
            raise Rejected("not_your_turn", "this lesson's turn is over: start it again")
        try:
            order = game.check(LEARNER, action)
        except OrderError as e:
            raise Rejected("illegal_action", e.message, reason=e.code) from None
        if order != game.check(LEARNER, lesson.order):
            raise Rejected("not_the_lesson", "not the lesson's order: try the one its guide names")
        game.submit(LEARNER, order.to_wire())
        game.submit(TUTOR, lesson.tutor)
        events = [e.to_wire() for e in game.resolve()]
        done = lesson.done(events)
        await self._save(person, lesson, game, 1)
        return _ex_answer(lesson, game, events, done)

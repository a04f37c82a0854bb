"""Rebuilding a recorded game with the engine, without its seed.

The set-up (R3.3) draws nothing, so it is replayed on a game made from any seed. At its end the table is
rebuilt with `Game.from_position`, the stack being the tiles in the order the record says they were drawn,
then the tiles never drawn (their order never mattered: nobody saw them). Every later action then draws
exactly what it drew in the live game, and gives the same events and views.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from server import patch
from server.game import Game, PositionError
from server.game.catalogue import STACK_TILES
from server.records.record import GameRecord


def _position(game: Game, drawn: list[str]) -> dict[str, Any]:
    """The position of `game` at the end of the set-up, with the stack in the order drawn."""
    view = game.view()
    tiles = [{"tile": t["tile"], "cell": t["cell"], "rotation": t["rotation"],
              "beaches": [list(b["boats"]) for b in t["beaches"]]} for t in view["tiles"]]
    unseen = sorted(t for t in STACK_TILES if t not in set(drawn))
    return {"colours": view["colours"], "variants": view["variants"], "active": game.to_move,
            "tiles": tiles, "stack": list(drawn) + unseen,
            "supplies": {p["colour"]: p["supply"] for p in view["players"]}}


def steps(record: GameRecord) -> Iterator[tuple[dict[str, Any] | None, list[dict[str, Any]], Game]]:
    """The game before any action (None, [], game), then after each action (action, its events, game).
    The game object is the live one being replayed: read it before asking for the next step."""
    colours = record.colours
    game = Game.new(colours, seed=0, variants=record.variants, first=record.first)
    yield None, [], game
    setup = 2 * len(colours)
    for i, line in enumerate(record.actions):
        events = game.apply(line["action"], colour=line["colour"])
        if i == setup - 1:
            game = Game.from_position(_position(game, record.drawn))
        yield line["action"], events, game


def rebuild(record: GameRecord) -> Game:
    """The game at its end."""
    last = None
    for _action, _events, game in steps(record):
        last = game
    assert last is not None
    return last


def views(record: GameRecord) -> Iterator[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """Each version's events and public view (without the legal actions), from v = 0."""
    for _action, events, game in steps(record):
        yield events, game.view()


def frames(record: GameRecord) -> list[dict[str, Any]]:
    """The game as a live table received it: the game messages `{v, events, patch}` (docs/protocol.md
    §5) for v = 0 … the end, v = 0 patching from nothing."""
    out = []
    before = None
    for v, (events, view) in enumerate(views(record)):
        out.append({"v": v, "events": events, "patch": patch.diff(before, view)})
        before = view
    return out



Step = tuple[dict[str, Any] | None, list[dict[str, Any]], Game]


class Growing:
    """The frames of a game still being played, grown as its record grows. A new version is replayed
    from the last position the engine could describe (`Game.to_position`: the start of a colour's turn),
    with the stack in the order the record says its tiles were drawn, instead of from the start: a request
    costs the actions since that position, not the whole game."""

    __slots__ = ("_mark", "frames")

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self._mark: tuple[int, int, dict[str, Any], int, dict[str, Any]] | None = None
        """(actions applied, tiles they drew, the position after them, the frames then, the view then)"""

    def __repr__(self) -> str:
        return f"Growing({len(self.frames)} frames)"

    def grow(self, record: GameRecord) -> list[dict[str, Any]]:
        """Every frame of `record`, the same game as the last call's (or a longer record of it)."""
        if len(self.frames) == len(record.actions) + 1:
            return self.frames
        if self._mark is None:
            return self._walk(steps(record), 0, 0, [], None)
        applied, drawn, position, kept, view = self._mark
        later = list(record.drawn[drawn:])
        stack = later + sorted(set(position["stack"]) - set(later))
        game = Game.from_position({**position, "stack": stack, "stack_exact": True})

        def resumed() -> Iterator[Step]:
            for line in record.actions[applied:]:
                yield line["action"], game.apply(line["action"], colour=line["colour"]), game

        return self._walk(resumed(), applied, drawn, self.frames[:kept], view)

    def _walk(self, walk: Iterator[Step], applied: int, drawn: int, frames: list[dict[str, Any]],
              before: dict[str, Any] | None) -> list[dict[str, Any]]:
        for action, events, game in walk:
            view = game.view()
            frames.append({"v": len(frames), "events": events, "patch": patch.diff(before, view)})
            before = view
            if action is None:
                continue
            applied += 1
            drawn += sum(1 for e in events if e.get("type") == "tile_drawn")
            if applied > 2 * len(game.colours) and game.to_move:   # past the set-up (R3.3)
                with contextlib.suppress(PositionError):   # in the middle of a turn: the last mark stands
                    self._mark = (applied, drawn, game.to_position(), len(frames), view)
        self.frames = frames
        return frames

"""The one call the lobby makes when a game ends: its record is built from the stored log and kept (in the
lobby: it reads the room and its log from the Store, and hands the records layer a finished record); and the
records so far of the games being played, which the records' API serves (`LiveRecords`)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from typing import Any

from server.lobby.mode import GameMode
from server.lobby.rooms import Room
from server.lobby.store import Store
from server.records.record import GameRecord
from server.records.store import Records

log = logging.getLogger(__name__)


async def keep_finished(records: Records, store: Store, room: Room, mode: GameMode) -> GameRecord | None:
    """Keeps the record of the finished `room`, a game of `mode`, from the action log and the final state in
    `store` (its result: the final public view's). A failure is logged, never raised: the game is over either
    way."""
    try:
        log_lines = await store.games.actions(room.id)
        game = await store.games.game(room.id)
        state = game["state"] if game else b""
        if not log_lines or not state:
            return None
        # the view is not stored: computed from the state, off the loop like the frames
        result = (await asyncio.to_thread(lambda: mode.load(state).public_view())).get("result")
        if result is None:
            return None
        frames = await asyncio.to_thread(mode.frames, state, log_lines)
        record = GameRecord.of_room(room, log_lines, result, room.finished or time.time(), frames)
        await records.keep(record)
        return record
    except Exception:
        log.exception("the record of room %s was not kept", room.id)
        return None


class LiveRecords:
    """The records so far of the games being played (what a spectator rewinds), each with its replay's
    frames where its mode rebuilds them from the stored game (`GameMode.frames`): those cost a replay of the
    whole game, so they are built once per round over and held per room (the least recently asked first
    out beyond `rooms`), one build at a time."""

    def __init__(self, store: Store, modes: dict[str, GameMode], rooms: int = 64) -> None:
        self.store = store
        self.modes = modes
        self.rooms = rooms
        self._built: OrderedDict[str, tuple[int, list[dict[str, Any]] | None]] = OrderedDict()
        self._building = asyncio.Lock()

    def __repr__(self) -> str:
        return f"LiveRecords({len(self._built)} replays held)"

    async def record(self, room_id: str, replay: bool = False) -> GameRecord | None:
        """The record so far of a game being played in `room_id`, or None when no game is being played
        there. It holds the actions of the rounds already over only (`store.settled_actions`): those and
        the tiles they drew are public; an order of the round still open is its seat's secret. `replay`:
        with the frames of a mode that rebuilds them, through those rounds."""
        found = await self.store.settled_actions(room_id)
        if found is None:
            return None
        room, lines = found
        if not lines or any("at" not in line for line in lines):   # nothing yet, or logged before records
            return None
        mode = self.modes.get(room.settings.game)
        frames = await self._frames(room_id, mode, lines) if replay and mode is not None else None
        return GameRecord.of_room(room, lines, {}, time.time(), frames)

    async def _frames(self, room_id: str, mode: GameMode, lines: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        async with self._building:   # a burst of requests: the first builds, the others find it built
            held = self._built.get(room_id)
            if held is None or held[0] != lines[-1]["v"]:
                # the stored game read after the log: it holds every round the log's lines belong to
                game = await self.store.games.game(room_id)
                if not game:
                    return None
                # (None: the replay is rebuilt from the record's actions instead, server/records/api.py)
                frames = await asyncio.to_thread(mode.frames, game["state"], lines)
                held = self._built[room_id] = (lines[-1]["v"], frames)
                while len(self._built) > self.rooms:
                    self._built.popitem(last=False)
            self._built.move_to_end(room_id)
            return held[1]

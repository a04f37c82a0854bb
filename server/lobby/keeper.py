"""The one call the lobby makes when a game ends: its record is built from the stored log and kept (in the
lobby: it reads the room and its log from the Store, and hands the records layer a finished record)."""

from __future__ import annotations

import asyncio
import logging
import time

from server.lobby.mode import GameMode
from server.lobby.rooms import Room
from server.lobby.store import Store
from server.records.record import GameRecord
from server.records.store import Records

log = logging.getLogger(__name__)


async def keep_finished(records: Records, store: Store, room: Room, mode: GameMode) -> GameRecord | None:
    """Keeps the record of the finished `room`, a game of `mode`, from the action log and final view in
    `store`. A failure is logged, never raised: the game is over either way."""
    try:
        log_lines = await store.games.actions(room.id)
        snapshot = await store.games.snapshot(room.id)
        result = snapshot["view"].get("result") if snapshot else None
        if not log_lines or result is None:
            return None
        game = await store.games.game(room.id)
        state = game["state"] if game else b""
        frames = await asyncio.to_thread(mode.frames, state, log_lines) if state else None
        record = GameRecord.of_room(room, log_lines, result, room.finished or time.time(), frames)
        await records.keep(record)
        return record
    except Exception:
        log.exception("the record of room %s was not kept", room.id)
        return None


async def live_record(store: Store, modes: dict[str, GameMode], room_id: str,
                      replay: bool = False) -> GameRecord | None:
    """The record so far of a game being played in `room_id`, or None when no game is being played there.
    It holds the actions of the rounds already over only (`store.settled_actions`): those and the tiles
    they drew are public; an order of the round still open is its seat's secret. `replay`: with the frames
    of a mode whose replay is rebuilt from the stored game (`GameMode.frames`), through those rounds."""
    found = await store.settled_actions(room_id)
    if found is None:
        return None
    room, lines = found
    if not lines or any("at" not in line for line in lines):   # nothing yet, or logged before records
        return None
    frames = None
    if replay:   # the stored game read after the log: it holds every round the log's lines belong to
        game = await store.games.game(room_id)
        mode = modes.get(room.settings.game)
        if game and mode is not None:
            frames = await asyncio.to_thread(mode.frames, game["state"], lines)
    return GameRecord.of_room(room, lines, {}, time.time(), frames)

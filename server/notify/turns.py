"""The tables a person is seated at, and where they are expected: the lobby's "Your turns" list, and
what messages say of a table (compose.py `Table`), both from the store (public facts only)."""

from __future__ import annotations

from typing import Any

from server.lobby.mode import GameMode
from server.lobby.rooms import PLAYING, Room
from server.lobby.store import Store
from server.lobby.store.games import Head
from server.notify.compose import Table
from server.notify.reach import DEFAULT_MODE


def people_of(room: Room) -> dict[str, tuple[str, ...]]:
    """Each seated person's colours (bots' seats are nobody's)."""
    out: dict[str, tuple[str, ...]] = {}
    for i, seat in enumerate(room.seats):
        if seat.kind == "human" and seat.person:
            out[seat.person] = out.get(seat.person, ()) + tuple(room.settings.seat_colours(i))
    return out


def turn_of(view: dict[str, Any] | None, head: Head | None) -> int:
    """The turn a table is at: the rule set's own count when its view has one, else the round's version."""
    if view and isinstance(view.get("turn"), int):
        return int(view["turn"])
    return head.began_v if head is not None else 0


async def table(store: Store, game_modes: dict[str, GameMode],
                room_id: str) -> tuple[Table, Room, dict[str, Any]] | None:
    """The table as messages may show it, with its room and public view; None when it is gone. The view
    is not stored: it is computed from the stored state by the room's rule set (of `game_modes`)."""
    room, _raw, game = await store.room_and_game(room_id)
    if room is None or game is None:
        return None
    view = game_modes[room.settings.game].load(game.state).public_view()
    clock = room.settings.clock
    deadline = game.began + clock if clock is not None and game.deciding else None
    return Table(room.id, room.settings.name, turn_of(view, game), game.deciding, game.began_v, deadline, clock,
                 people_of(room)), room, view


async def your_turns(store: Store, person: str, modes: dict[str, str]) -> list[dict[str, Any]]:
    """Every table being played where the person is seated: whether their decision is expected, the
    deadline (epoch milliseconds, None without a clock) and what they hear of it (`modes`); the tables
    expecting them first, the nearest deadline first."""
    out = []
    for room_id in await store.rooms.seated(person):
        room = await store.rooms.get(room_id)
        if room is None or room.status != PLAYING:
            continue
        head = await store.games.game_head(room_id)
        if head is None or not head.deciding:
            continue
        mine = people_of(room).get(person, ())
        expected = any(c in head.deciding for c in mine)
        clock = room.settings.clock
        deadline = round((head.began + clock) * 1000) if clock is not None else None
        out.append({"room": room_id, "name": room.settings.name, "game": room.settings.game, "expected": expected,
                    "deadline_ms": deadline, "mode": modes.get(room_id, DEFAULT_MODE)})
    out.sort(key=lambda t: (not t["expected"], t["deadline_ms"] or float("inf"), t["name"]))
    return out

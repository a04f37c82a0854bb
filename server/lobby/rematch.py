"""Play again: a finished room's rematch, a new waiting room with the same settings and seats.

The person who asks first becomes its host, in their old seat; bots keep their seats; the seats of the
other people stay empty and kept for them (nobody else may sit there unless the host opens the seat with
`kick`). The new room counts against its host's caps on open rooms, like any room created. Everyone
watching the finished room is invited (a `room` event of the finished room carrying `rematch`), and
whoever asks afterwards is sent to the same new room, so accepting is one click: ask, then sit in one's
old seat.

| key | type | holds |
| --- | --- | --- |
| `P:rematch:{id}` | string | the rematch of finished room `id` (msgpack): its new room, once asked (expires) |

This module alone sends commands on it (on the lobby store's client, in the finished room's slot).
"""

from __future__ import annotations

import dataclasses
import re
import secrets
import time
from typing import TYPE_CHECKING, Any

from server.lobby.errors import Rejected
from server.lobby.lobby import new_code
from server.lobby.rooms import FINISHED, Room, Seat
from server.lobby.store.keys import pack, unpack

if TYPE_CHECKING:
    from server.lobby.lobby import Lobby
    from server.lobby.person import Person


NAME_MAX = 40   # Settings' limit on a room's name
_NUMBERED = re.compile(r"^(?P<base>.*) \(rematch (?P<n>\d+)\)$")


def rematch_name(name: str) -> str:
    """The name of a game's rematch, told apart from the game before it in the lobby and the records:
    "Ann's table" → "Ann's table (rematch 2)" → "Ann's table (rematch 3)"; the base is shortened to keep
    within the 40 characters of a room's name."""
    found = _NUMBERED.match(name)
    base, n = (found["base"], int(found["n"]) + 1) if found else (name, 2)
    suffix = f" (rematch {n})"
    return base[: max(1, NAME_MAX - len(suffix))].rstrip() + suffix


def _new_room(old: Room, person: Person, now: float) -> Room:
    seats = []
    for s in old.seats:
        if s.kind == "bot":
            seats.append(Seat("bot", None, s.name, level=s.level))   # a bot keeps its level too
        elif s.kind == "human" and s.person == person.id:
            seats.append(Seat("human", person.id, person.name))
        elif s.kind == "human":
            seats.append(Seat(held_for=s.person))
        else:
            seats.append(Seat())
    return Room(id="r_" + secrets.token_hex(4), code=new_code(), host=person.id,
                settings=dataclasses.replace(old.settings, name=rematch_name(old.settings.name)), seats=seats,
                created=now, bots_named=old.bots_named)


async def rematch(lobby: Lobby, person: Person, room_id: Any) -> dict[str, Any]:
    """The rematch of the finished room `room_id` for `person` (who played in it): `{"room": id, "seats":
    [their seats], "created": bool}`; the first call creates it, later calls name the same room."""
    if not isinstance(room_id, str) or len(room_id) > 64:
        raise Rejected("malformed", "room must be a room id string")
    store = lobby.store
    old = await store.rooms.get(room_id)
    if old is None:
        raise Rejected("no_room", f"no room {room_id!r}")
    if old.status != FINISHED:
        raise Rejected("not_finished", f"the room is {old.status}: a rematch follows a finished game")
    mine = old.seats_of(person.id)
    if not mine:
        raise Rejected("not_seated", "only the players of a game can ask for its rematch")
    key = store.keys.key("rematch", old.id)
    ttl = max(1, int(lobby.timings.finished_ttl))
    link = {"room": "", "by": person.id, "name": person.name}
    while True:
        new = _new_room(old, person, time.time())
        link["room"] = new.id
        # the first asker wins the link; the room is created only then
        if await store.redis.set(key, pack(link), nx=True, ex=ttl):
            break
        found = await store.redis.get(key)
        if isinstance(found, bytes):   # else it expired between the two calls
            return {"room": unpack(found)["room"], "seats": mine, "created": False}
    try:
        await lobby.store_new(new, person)
    except BaseException:
        await store.redis.delete(key)   # at a cap: the link goes, another player may ask
        raise
    await lobby.publish(new)
    state = await lobby.publish(old)
    await lobby.outbox.room_changed(old.id, {**state, "rematch": link})
    return {"room": new.id, "seats": mine, "created": True}

"""A room's chat (the room's slot: server/lobby/store/keys.py).

| key | type | holds |
| --- | --- | --- |
| `P:chat:{id}` | list | the last chat lines (msgpack), capped |
| `P:chatid:{id}` | string | the number of the room's last chat line |
"""

from __future__ import annotations

from typing import Any

import redis.asyncio as redis

from server.config import one_slot
from server.lobby.store.keys import Keys, pack, unpack

KINDS = ("chat", "chatid")


class Chat:
    """The chat lines of each room."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys

    def __repr__(self) -> str:
        return f"Chat({self.keys.prefix!r})"

    async def add(self, room_id: str, line: dict[str, Any], *, cap: int) -> dict[str, Any]:
        """Numbers `line` and keeps it among the room's last `cap` lines: the line as kept."""
        line = {"id": await self.redis.incr(self.keys.key("chatid", room_id)), **line}
        async with one_slot(self.redis) as pipe:
            pipe.rpush(self.keys.key("chat", room_id), pack(line))
            pipe.ltrim(self.keys.key("chat", room_id), -cap, -1)
            await pipe.execute()
        return line

    async def lines(self, room_id: str) -> list[dict[str, Any]]:
        return [unpack(r) for r in await self.redis.lrange(self.keys.key("chat", room_id), 0, -1)]

    def keys_of(self, room_id: str) -> list[str]:
        """The keys of the room's chat: they expire with the room (Rooms.update)."""
        return [self.keys.key(kind, room_id) for kind in KINDS]

    def delete_into(self, pipe: Any, room_id: str) -> None:
        """Adds to `pipe` the deletion of the room's chat (with its room)."""
        pipe.delete(*(self.keys.key(kind, room_id) for kind in KINDS))

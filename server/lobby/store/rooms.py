"""The rooms and the directory that finds them: a room's own key (its slot) and the shared directory's
(one slot: server/lobby/store/keys.py), kept in step by `create`, `update` and `close`.

| key | type | holds |
| --- | --- | --- |
| `P:room:{id}` | string | the room (msgpack): settings, seats, host, status, rev |
| `P:code:{code}` | string | room id of a join code |
| `P:rooms` | zset | every room id, by creation time (expiry sweep) |
| `P:lobby` | zset | listed (not private) rooms that are waiting or playing, by `listing_score` |
| `P:lobby_gen` | string | bumped on every lobby change: a cached listing of the same number is current |
| `P:hosted:{person}` | set | ids of rooms the person created (the cap on open rooms per person) |
| `P:hosted_from:{address}` | set | ids of rooms created from a client address (the cap per address) |
| `P:seated:{person}` | set | room ids where the person holds a seat |
| `P:sweep` | string | set while one process's expiry sweep holds the period (`take_sweep`) |
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster

from server.lobby.rooms import FINISHED, PLAYING, WAITING, Room
from server.lobby.store.chat import Chat
from server.lobby.store.games import Games
from server.lobby.store.keys import Keys, pack, text, unpack

# A new room's place in the directory, taken only within its creator's caps, atomically (rooms created
# together cannot all pass the count). KEYS: code, rooms index, lobby index, the host's seated set, then
# the creator's hosted sets (one per cap: the person's, the address's), all of the directory's slot.
# ARGV: room id, created, listed ('1'/''), ttl, the number of caps, one cap per hosted set, then the ids
# to prune from the hosted sets first (their rooms are gone or finished: the caller read them, since a
# room's key is in its own slot). The room itself is stored after (Rooms.create). Answers {1}
# (created), {0, index of the set at its cap, its count}, or {2} (code taken).
CREATE = """
local nsets = tonumber(ARGV[5])
for i = 1, nsets do
  local set = KEYS[4 + i]
  for j = 6 + nsets, #ARGV do redis.call('SREM', set, ARGV[j]) end
  local count = redis.call('SCARD', set)
  if count >= tonumber(ARGV[5 + i]) then return {0, i, count} end
end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[4]) then return {2} end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1]) end
redis.call('SADD', KEYS[4], ARGV[1])
for i = 1, nsets do
  redis.call('SADD', KEYS[4 + i], ARGV[1])
  redis.call('EXPIRE', KEYS[4 + i], ARGV[4])
end
return {1}
"""

# A room's change, written only if the room is still as the change was computed from (compare-and-set: no
# WATCH, which redis-py's cluster pipeline runs on a private event loop). KEYS: the room, its game's keys
# (game, patches, actions), its chat's (chat, chatid), then the directory's keys its entries name (a single
# Redis only: on a cluster they are another slot's, written after). ARGV: the room as read, the room to
# store, its time to live ('': kept), the number of field/value pairs of a game's first state (0: none
# begins), the pairs, the game's first message, then the directory's entries, each its command, the index
# of its key in KEYS, its number of other arguments, those. 1 when written, 0 when the room changed meanwhile.
UPDATE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] == '' then
  redis.call('PERSIST', KEYS[1])
else
  for i = 1, 6 do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
end
local pairs = tonumber(ARGV[4])
local j = 5 + 2 * pairs
if pairs > 0 then
  redis.call('DEL', KEYS[3], KEYS[4])
  redis.call('HSET', KEYS[2], unpack(ARGV, 5, j - 1))
  redis.call('RPUSH', KEYS[3], ARGV[j])
  j = j + 1
end
while j <= #ARGV do
  local n = tonumber(ARGV[j + 2])
  redis.call(ARGV[j], KEYS[tonumber(ARGV[j + 1])], unpack(ARGV, j + 3, j + 2 + n))
  j = j + 3 + n
end
return 1
"""

REAL_ROOM = 1e10
"""Added to a listed room's score in the lobby index while it is a real table (playing, or two or more
people seated): the listing reads the index's top, so empty rooms made in bulk never push one out."""


def listing_score(room: Room) -> float:
    """A listed room's score in the lobby index (see REAL_ROOM)."""
    return room.created + (REAL_ROOM if room.status == PLAYING or len(room.humans()) >= 2 else 0.0)


class AtCap(Exception):
    """A new room refused: the hosted set `key` already holds `count` open rooms, its cap."""

    def __init__(self, key: str, count: int) -> None:
        super().__init__(f"{key} holds {count} open rooms")
        self.key = key
        self.count = count


class Rooms:
    """The rooms, their join codes, and the indexes and sets that find them. A room's change or close
    expires or deletes its game and chat with it (`games`, `chat`)."""

    def __init__(self, client: redis.Redis, keys: Keys, *, games: Games, chat: Chat) -> None:
        self.redis = client
        self.keys = keys
        self.games = games
        self.chat = chat
        self.clustered = isinstance(client, RedisCluster)
        self._create = client.register_script(CREATE)
        self._update = client.register_script(UPDATE)

    def __repr__(self) -> str:
        return f"Rooms({self.keys.prefix!r})"

    async def seated(self, person: str) -> list[str]:
        """Ids of the rooms where the person holds a seat."""
        return sorted(text(m) for m in await self.redis.smembers(self.keys.key("seated", person)))

    async def create(self, room: Room, *, ttl: float, caps: dict[str, int] | None = None) -> bool:
        """Stores a new room unless its creator is at a cap: `caps` maps each hosted-set key (`hosted_key`)
        to the open rooms (waiting or playing) it may hold. False when its code is already used; raises
        `AtCap` (with the key and its count) when a cap is reached. Atomic: rooms created at once from any
        number of processes cannot pass a cap together."""
        assert room.host is not None
        caps = caps or {}
        sets = list(caps)
        # the hosted rooms that no longer count (gone, finished): read here, as each room is its own slot
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in sets:
                pipe.smembers(key)
            hosted = sorted({text(m) for members in (await pipe.execute() if sets else []) for m in members})
        over = [i for i, r in zip(hosted, await self.many(hosted), strict=True) if r is None or r.status == FINISHED]
        answer = await self._create(
            keys=[self.keys.key("code", room.code), self.keys.key("rooms"), self.keys.key("lobby"),
                  self.keys.key("seated", room.host), *sets],
            args=[room.id, room.created, "" if room.settings.private else "1", max(1, int(ttl)), len(sets),
                  *(caps[k] for k in sets), *over])
        if answer[0] == 0:
            raise AtCap(sets[int(answer[1]) - 1], int(answer[2]))
        if answer[0] != 1:
            return False
        # (a process that dies here leaves an id without its room: the expiry sweep drops it, `forget`)
        await self.redis.set(self.keys.key("room", room.id), pack(room.to_store()), ex=max(1, int(ttl)))
        return True

    async def hosted(self, person: str) -> list[str]:
        """Ids of rooms this person created that are or were open (some may have finished or expired)."""
        members = await self.redis.smembers(self.hosted_key("person", person))
        return sorted(text(m) for m in members)

    def hosted_key(self, kind: str, who: str) -> str:
        """The set of open rooms created by a person (`kind` "person") or from an address ("address")."""
        return self.keys.key({"person": "hosted", "address": "hosted_from"}[kind], who)

    async def get(self, room_id: str) -> Room | None:
        raw = await self.redis.get(self.keys.key("room", room_id))
        return Room.from_store(unpack(raw)) if raw else None

    async def many(self, ids: list[str]) -> list[Room | None]:
        if not ids:
            return []
        if self.clustered:   # the rooms are in different slots: one read each, sent together
            async with self.redis.pipeline(transaction=False) as pipe:
                for i in ids:
                    pipe.get(self.keys.key("room", i))
                raws = await pipe.execute()
        else:
            raws = await self.redis.mget([self.keys.key("room", i) for i in ids])
        return [Room.from_store(unpack(r)) if r else None for r in raws]

    async def by_code(self, code: str) -> str | None:
        raw = await self.redis.get(self.keys.key("code", code))
        return text(raw) if raw else None

    async def listed(self, most: int = 500) -> list[str]:
        """The top `most` rooms of the lobby index: real tables first, then the newest (`listing_score`)."""
        return [text(m) for m in await self.redis.zrevrange(self.keys.key("lobby"), 0, most - 1)]

    async def all_ids(self) -> list[str]:
        return [text(m) for m in await self.redis.zrange(self.keys.key("rooms"), 0, -1)]

    async def take_sweep(self, period: float) -> bool:
        """Whether this process sweeps now (`expired`): the first to ask in each `period` seconds does, so
        the sweep, which reads every room's key, costs the same whatever the number of processes."""
        return bool(await self.redis.set(self.keys.key("sweep"), 1, nx=True, px=max(1, int(period * 1000))))

    async def expired(self, batch: int = 1000) -> list[str]:
        """Ids in the room index whose room key is gone (expired), without reading the rooms."""
        gone: list[str] = []
        start = 0
        while True:
            ids = [text(m) for m in await self.redis.zrange(self.keys.key("rooms"), start, start + batch - 1)]
            async with self.redis.pipeline(transaction=False) as pipe:
                for room_id in ids:
                    pipe.exists(self.keys.key("room", room_id))
                found = await pipe.execute() if ids else []
            gone += [room_id for room_id, there in zip(ids, found, strict=True) if not there]
            if len(ids) < batch:
                return gone
            start += batch

    def forget_into(self, pipe: Any, room_id: str) -> None:
        """Adds to `pipe` dropping an expired room from the room index (first: its answer says whether this
        call removed it) and the lobby index."""
        pipe.zrem(self.keys.key("rooms"), room_id)
        pipe.zrem(self.keys.key("lobby"), room_id)

    def count_into(self, pipe: Any) -> None:
        """Adds to `pipe` the counts of rooms and of listed rooms."""
        pipe.zcard(self.keys.key("rooms"))
        pipe.zcard(self.keys.key("lobby"))

    def get_into(self, pipe: Any, room_id: str) -> None:
        """Adds to `pipe` the read of the room (`parse` reads the answer)."""
        pipe.get(self.keys.key("room", room_id))

    @staticmethod
    def parse(raw: bytes | None) -> Room | None:
        return Room.from_store(unpack(raw)) if raw else None

    async def close(self, room_id: str) -> Room | None:
        """Removes a room and its game at an operator's word (`tongiaki rooms close`): its keys go as if
        they had expired, so the servers' sweep drops it from the indexes and tells the lobby (timers.py).
        Returns the room as it was, or None when there is none."""
        key = self.keys.key("room", room_id)
        raw = await self.redis.get(key)
        if raw is None:
            return None
        room = Room.from_store(unpack(raw))
        async with self.redis.pipeline(transaction=False) as pipe:   # (the room's slot, then the directory's)
            pipe.delete(key)
            self.games.delete_into(pipe, room_id)
            self.chat.delete_into(pipe, room_id)
            pipe.delete(self.keys.key("code", room.code))
            for person in room.humans():
                pipe.srem(self.keys.key("seated", person), room_id)
            await pipe.execute()
        return room

    async def update(self, room_id: str, change: Callable[[Room], bool], *, ttls: dict[str, float],
                     game: dict[str, Any] | None = None) -> Room | None:
        """Applies `change` to the room atomically (compare-and-set: read, change, then written only if the room
        is still as read; else read again and retried).

        `change` mutates the room and returns whether anything changed (it may raise Rejected: nothing
        is written). `game`, when given, is the first game state written with it. Returns the room as stored
        afterwards, or None when there is no such room. On a single Redis the directory's entries of the room
        (code, lobby index, seated sets) are written by the same script; on a cluster, where they are another
        slot's, right after it, as the room stored says.
        """
        key = self.keys.key("room", room_id)
        while True:
            raw = await self.redis.get(key)
            if raw is None:
                return None
            room = Room.from_store(unpack(raw))
            before = room.humans()
            if not change(room):
                return room
            room.rev += 1
            ttl = {WAITING: ttls["waiting"], FINISHED: ttls["finished"]}.get(room.status)
            directory = self._directory_entries(room, before, ttls)
            keys = [key, *self.games.keys_of(room_id), *self.chat.keys_of(room_id)]
            args: list[Any] = [raw, pack(room.to_store()), "" if ttl is None else int(ttl),
                               *(self.games.first_state(game) if game is not None else [0])]
            if not self.clustered:   # one Redis: the directory's entries in the same script
                for command, entry_key, *rest in directory:
                    keys.append(entry_key)
                    args += [command, len(keys), len(rest), *rest]
            if await self._update(keys=keys, args=args):
                break
        if self.clustered and directory:
            async with self.redis.pipeline(transaction=False) as pipe:
                for entry in directory:
                    pipe.execute_command(*entry)
                await pipe.execute()
        return room

    def _directory_entries(self, room: Room, before: set[str], ttls: dict[str, float]) -> list[tuple[Any, ...]]:
        """The writes to the directory that a room's new state asks for (`update`): each a command, its one key,
        its other arguments."""
        out: list[tuple[Any, ...]] = []
        code = self.keys.key("code", room.code)
        lobby = self.keys.key("lobby")
        ttl = {WAITING: ttls["waiting"], FINISHED: ttls["finished"]}.get(room.status)
        if ttl is not None:
            out.append(("EXPIRE", code, int(ttl)))
        if room.status == PLAYING:
            out.append(("PERSIST", code))
        if room.status == FINISHED:
            # out of the lobby index at once (its record lists it): the listing reads the newest 500 of
            # the index, and finished games kept there for their hour pushed rooms still playing out of
            # it, and made each read of it cost hundreds of rooms
            out.append(("ZREM", lobby, room.id))
        elif not room.settings.private:
            if room.status == WAITING and not room.humans():   # nobody left: nothing to list
                out.append(("ZREM", lobby, room.id))
            else:   # ranked: a real table above rooms made in bulk (REAL_ROOM)
                out.append(("ZADD", lobby, listing_score(room), room.id))
        for person in before - room.humans():
            out.append(("SREM", self.keys.key("seated", person), room.id))
        for person in room.humans():
            out.append(("SREM" if room.status == FINISHED else "SADD", self.keys.key("seated", person), room.id))
        return out

    async def listing_generation(self) -> int:
        """A number that changes whenever something in the lobby listing may have changed."""
        return int(await self.redis.get(self.keys.key("lobby_gen")) or 0)

    async def bump_listing(self) -> None:
        await self.redis.incr(self.keys.key("lobby_gen"))

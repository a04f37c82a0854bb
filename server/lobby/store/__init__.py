"""The lobby's Redis store: rooms, games, sessions, presence and timers, one small store a key family (the
modules of this package, each the only one that sends commands on its keys), composed by `Store`. Beside
it, each key family that belongs to another part has its own small store: the bot queue
(server/bots/worker.py), finished games (server/records/store.py), lessons (server/tutorial/sessions.py),
notifications (server/notify/), rematch links (server/lobby/rematch.py) and the broadcasts between
processes (server/realtime/fanout.py).

Keys (all under the configured prefix `P`). A room's own keys carry the room id as their Redis Cluster
hash tag (`P:room:{r_1a2b}`: one slot a room, see `keys.Keys.key`); the shared directory's (lobby, rooms,
timers, procs, code, lobby_gen, hosted, hosted_from, seated, searching, metrics_lease) carry the
deployment's, `P:{P}:lobby`; the rest are named as listed. Each module of the package lists the keys it
owns (`timers`: `P:timers`; `people`: sessions and their counts; `chat`: a room's chat; `searches`: the
cap on search bots; `presence`: processes, a room's sockets, the metrics lease); this one still owns:

| key | type | holds |
| --- | --- | --- |
| `P:room:{id}` | string | the room (msgpack): settings, seats, host, status, rev |
| `P:code:{code}` | string | room id of a join code |
| `P:lobby` | zset | listed (not private) rooms that are waiting or playing, by creation time |
| `P:rooms` | zset | every room id, by creation time (expiry sweep) |
| `P:game:{id}` | hash | `v`, `state`, `view`, `to_move` (deciding), `at`, `began`, `began_v`, `turn_at` |
| `P:patches:{id}` | list | the last game messages `{room, v, events, patch}` (msgpack), capped |
| `P:actions:{id}` | list | every applied action `{v, colour, action, by, how, at, drawn?}` (server/records) |
| `P:lobby_gen` | string | bumped on every lobby change: a cached listing of the same number is current |
| `P:hosted:{person}` | set | ids of rooms the person created (the cap on open rooms per person) |
| `P:hosted_from:{address}` | set | ids of rooms created from a client address (the cap per address) |
| `P:seated:{person}` | set | room ids where the person holds a seat |
| `P:seen:{id}:{began_v}` | set | persons who have seen the report that began the round of `began_v` (expires) |
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any, cast

import redis.asyncio as redis
from redis import exceptions
from redis.asyncio.cluster import ClusterNode, PipelineCommand, RedisCluster
from redis.exceptions import NoScriptError, WatchError
from redis.typing import EncodableT, FieldT

from server.bots.worker import BotJob
from server.lobby.rooms import FINISHED, PLAYING, WAITING, Room
from server.lobby.store.chat import Chat
from server.lobby.store.keys import Keys, pack, text, unpack
from server.lobby.store.people import People
from server.lobby.store.presence import Presence
from server.lobby.store.searches import Searches
from server.lobby.store.timers import TimerStore

# The conditional write of a new game state: it applies only on the version it was computed from, so two
# actions on the same version can never both apply, from any number of processes. When ARGV[12] is given
# it is the room as the action was checked against (msgpack bytes): the write applies only if the room
# is still exactly that (a process that holds the room in memory need not read it first).
COMMIT = """
local v = tonumber(redis.call('HGET', KEYS[1], 'v'))
if v == nil or v ~= tonumber(ARGV[1]) then return {0, v or -1} end
if ARGV[12] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[12] then return {2, v} end
local began = ARGV[13]
if redis.call('HGET', KEYS[1], 'began_v') == ARGV[14] then
  -- the same round: its clock's start stays as stored (START_CLOCK may have brought it forward)
  began = redis.call('HGET', KEYS[1], 'began') or began
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'state', ARGV[3], 'view', ARGV[4],
           'to_move', ARGV[5], 'at', ARGV[6], 'began', began, 'began_v', ARGV[14], 'proc', ARGV[15],
           'turn_at', ARGV[16])
redis.call('RPUSH', KEYS[2], ARGV[7])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[9]), -1)
redis.call('RPUSH', KEYS[3], ARGV[8])
return {1, tonumber(ARGV[2])}
"""

# Starts the pending round's clock now (its start was put off for a report to be seen): KEYS = game hash;
# ARGV = the round's began_v, now. Only if the round is still that one and its clock has not started yet.
# 1 when it did (the caller then brings the room's timer forward: the timers are another cluster slot).
START_CLOCK = """
if redis.call('HGET', KEYS[1], 'began_v') ~= ARGV[1] then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'began')) <= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'began', ARGV[2])
return 1
"""

# Records which version of a room was broadcast (KEYS[1]: its game hash, ARGV[1]: the version); a version
# only goes up. One room a call: rooms' games are in different slots of a cluster.
MARK_SENT = """
if redis.call('EXISTS', KEYS[1]) == 1 and (tonumber(redis.call('HGET', KEYS[1], 'sent')) or 0) < tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'sent', ARGV[1])
end
return 0
"""



# A new room's place in the directory, taken only within its creator's caps, atomically (rooms created
# together cannot all pass the count). KEYS: code, rooms index, lobby index, the host's seated set, then
# the creator's hosted sets (one per cap: the person's, the address's), all of the directory's slot.
# ARGV: room id, created, listed ('1'/''), ttl, the number of caps, one cap per hosted set, then the ids
# to prune from the hosted sets first (their rooms are gone or finished: the caller read them, since a
# room's key is in its own slot). The room itself is stored after (Store.create_room). Answers {1}
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

log = logging.getLogger(__name__)

REPLICA_WAIT_MS = 100
"""Milliseconds a commit waits for a replica to have it (`WAIT`), where the primary has replicas: an
action acknowledged to its player survives the primary's loss (docs/deploy.md, "Failover")."""

REROUTED = (exceptions.MovedError, exceptions.AskError, exceptions.ClusterDownError, exceptions.TryAgainError,
            exceptions.ConnectionError, exceptions.TimeoutError, OSError)
"""What a cluster answers when a slot moved or its node is gone: the slot map is refreshed (`commit`)."""

REAL_ROOM = 1e10
"""Added to a listed room's score in the lobby index while it is a real table (playing, or two or more
people seated): the listing reads the index's top, so empty rooms made in bulk never push one out."""


def listing_score(room: Room) -> float:
    """A listed room's score in the lobby index (see REAL_ROOM)."""
    return room.created + (REAL_ROOM if room.status == PLAYING or len(room.humans()) >= 2 else 0.0)


HEAD_FIELDS = ("v", "to_move", "at", "began", "began_v", "sent", "proc", "turn_at")
GAME_FIELDS = (*HEAD_FIELDS, "state", "view")


def deciding_of(raw: str) -> tuple[str, ...]:
    """The stored `to_move` field as the deciding colours (one in Tongiaki, any number in Expeditions)."""
    return tuple(raw.split(",")) if raw else ()


@dataclass(frozen=True)
class Head:
    """A stored game without its state: version `v`, the colours deciding (empty: over), when the last
    action was stored (`at`), when and at which version the pending round began (`began`, `began_v`: the
    turn clock runs from there), the version last recorded as broadcast (`sent`) and the process that stored
    the last version (`proc`), and when the deciding colour's turn began (`turn_at`: its first decision
    was pending from then; a bot's pace counts from there, once per turn)."""

    v: int
    deciding: tuple[str, ...]
    at: float
    began: float
    began_v: int
    sent: int = 0
    proc: str = ""
    turn_at: float = 0.0

    def __repr__(self) -> str:
        return f"Head(v={self.v}, deciding={self.deciding!r}, began_v={self.began_v})"

    @classmethod
    def parse(cls, raw: list[Any]) -> Head | None:
        """From the HEAD_FIELDS as read (a game stored before rounds: each action began one)."""
        if raw[0] is None:
            return None
        v, at = int(raw[0]), float(text(raw[2]))
        return cls(v, deciding_of(text(raw[1])), at, float(text(raw[3])) if raw[3] else at,
                   int(raw[4]) if raw[4] else v, int(raw[5] or 0), text(raw[6]) if raw[6] else "",
                   float(text(raw[7])) if raw[7] else at)

    def in_round(self, v: int) -> bool:
        """Whether version v belongs to the pending round (a decision asked at v still stands)."""
        return self.began_v <= v <= self.v


@dataclass(frozen=True)
class StoredGame(Head):
    """A stored game: its head, and its bytes: the engine state (secret) and the public view (msgpack)."""

    state: bytes = dataclasses.field(default=b"", kw_only=True, repr=False)
    view: bytes = dataclasses.field(default=b"", kw_only=True, repr=False)


class AtCap(Exception):
    """A new room refused: the hosted set `key` already holds `count` open rooms, its cap."""

    def __init__(self, key: str, count: int) -> None:
        super().__init__(f"{key} holds {count} open rooms")
        self.key = key
        self.count = count


class Store:
    """Namespaced Redis access for rooms, games, chat, presence and sessions."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.redis = client
        self.prefix = prefix
        self.keys = Keys(prefix)
        self.timers = TimerStore(client, self.keys)
        self.people = People(client, self.keys)
        self.chat = Chat(client, self.keys)
        self.searches = Searches(client, self.keys)
        self.presence = Presence(client, self.keys)
        self.replicas = 0   # replicas a commit waits for (`WAIT`): see `commit`
        self.replicas_of: dict[str, int] = {}   # the same on a cluster, by primary node ("host:port")
        self.clustered = isinstance(client, RedisCluster)
        self._commit = client.register_script(COMMIT)
        self._start_clock = client.register_script(START_CLOCK)
        self._mark_sent = client.register_script(MARK_SENT)
        self._create = client.register_script(CREATE)

    async def ping(self) -> bool:
        return bool(await self.redis.ping())

    async def seated_rooms(self, person: str) -> list[str]:
        return sorted(text(m) for m in await self.redis.smembers(self.keys.key("seated", person)))

    # -- rooms -------------------------------------------------------------------------------------
    async def create_room(self, room: Room, ttl: float, caps: dict[str, int] | None = None) -> bool:
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
        over = [i for i, r in zip(hosted, await self.rooms(hosted), strict=True) if r is None or r.status == FINISHED]
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

    async def room(self, room_id: str) -> Room | None:
        raw = await self.redis.get(self.keys.key("room", room_id))
        return Room.from_store(unpack(raw)) if raw else None

    async def rooms(self, ids: list[str]) -> list[Room | None]:
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

    async def room_by_code(self, code: str) -> str | None:
        raw = await self.redis.get(self.keys.key("code", code))
        return text(raw) if raw else None

    async def listed(self, most: int = 500) -> list[str]:
        """The top `most` rooms of the lobby index: real tables first, then the newest (`listing_score`)."""
        return [text(m) for m in await self.redis.zrevrange(self.keys.key("lobby"), 0, most - 1)]

    async def all_rooms(self) -> list[str]:
        return [text(m) for m in await self.redis.zrange(self.keys.key("rooms"), 0, -1)]

    async def expired_rooms(self, batch: int = 1000) -> list[str]:
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

    async def forget(self, room_id: str) -> bool:
        """Drops an expired room from the indexes; True when this call removed it."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(self.keys.key("rooms"), room_id)
            pipe.zrem(self.keys.key("lobby"), room_id)
            self.timers.unschedule_into(pipe, room_id)
            self.presence.forget_room_into(pipe, room_id)
            self.searches.release_into(pipe, room_id)
            removed, *_ = await pipe.execute()
        return bool(removed)

    async def close_room(self, room_id: str) -> Room | None:
        """Removes a room and its game at an operator's word (`tongiaki rooms close`): its keys go as if
        they had expired, so the servers' sweep drops it from the indexes and tells the lobby (timers.py).
        Returns the room as it was, or None when there is none."""
        key = self.keys.key("room", room_id)
        raw = await self.redis.get(key)
        if raw is None:
            return None
        room = Room.from_store(unpack(raw))
        async with self.redis.pipeline(transaction=False) as pipe:   # (the room's slot, then the directory's)
            pipe.delete(key, *(self.keys.key(k, room_id) for k in ("game", "patches", "actions")))
            self.chat.delete_into(pipe, room_id)
            pipe.delete(self.keys.key("code", room.code))
            for person in room.humans():
                pipe.srem(self.keys.key("seated", person), room_id)
            await pipe.execute()
        return room

    async def update_room(self, room_id: str, change: Callable[[Room], bool], ttls: dict[str, float],
                          game: dict[str, Any] | None = None) -> Room | None:
        """Applies `change` to the room atomically (optimistic WATCH/MULTI, retried on conflict).

        `change` mutates the room and returns whether anything changed (it may raise Rejected: nothing
        is written). `game`, when given, is the first game state written in the same transaction.
        Returns the room as stored afterwards, or None when there is no such room. On a cluster the
        directory's entries of the room (code, lobby index, seated sets) follow right after the
        transaction (they are another slot's), as the room stored says.
        """
        key = self.keys.key("room", room_id)
        room: Room | None = None
        directory: list[tuple[str, tuple[Any, ...]]] = []   # (command, arguments) on the directory's keys
        while True:   # (a fresh pipeline for each try: redis-py's cluster pipeline drops its connection on
            # a conflict, and a second WATCH on it wrote to a closed transport)
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    if raw is None:
                        return None
                    room = Room.from_store(unpack(raw))
                    before = room.humans()
                    if not change(room):
                        await pipe.unwatch()  # type: ignore[no-untyped-call]
                        return room
                    room.rev += 1
                    directory = self._directory_entries(room, before, ttls)
                    pipe.multi()  # type: ignore[no-untyped-call]
                    pipe.set(key, pack(room.to_store()))
                    ttl = {WAITING: ttls["waiting"], FINISHED: ttls["finished"]}.get(room.status)
                    keys = [self.keys.key(k, room_id) for k in ("game", "patches", "actions")]
                    if ttl is None:
                        pipe.persist(key)
                    else:
                        pipe.expire(key, int(ttl))
                        for k in keys:
                            pipe.expire(k, int(ttl))
                        self.chat.expire_into(pipe, room_id, int(ttl))
                    if not self.clustered:   # one Redis: all in the one transaction
                        for command, arguments in directory:
                            getattr(pipe, command)(*arguments)
                    if game is not None:
                        pipe.delete(self.keys.key("patches", room_id), self.keys.key("actions", room_id))
                        fields: dict[FieldT, EncodableT] = {k: v for k, v in game.items() if k != "message"}
                        pipe.hset(self.keys.key("game", room_id), mapping=fields)
                        pipe.rpush(self.keys.key("patches", room_id), game["message"])
                    await pipe.execute()
                    break
                except WatchError:
                    continue
        if self.clustered and directory:
            async with self.redis.pipeline(transaction=False) as pipe:
                for command, arguments in directory:
                    getattr(pipe, command)(*arguments)
                await pipe.execute()
        return room

    def _directory_entries(self, room: Room, before: set[str],
                           ttls: dict[str, float]) -> list[tuple[str, tuple[Any, ...]]]:
        """The writes to the directory that a room's new state asks for (`update_room`)."""
        out: list[tuple[str, tuple[Any, ...]]] = []
        code = self.keys.key("code", room.code)
        ttl = {WAITING: ttls["waiting"], FINISHED: ttls["finished"]}.get(room.status)
        if ttl is not None:
            out.append(("expire", (code, int(ttl))))
        if room.status == PLAYING:
            out.append(("persist", (code,)))
        if room.status == FINISHED:
            # out of the lobby index at once (its record lists it): the listing reads the newest 500 of
            # the index, and finished games kept there for their hour pushed rooms still playing out of
            # it, and made each read of it cost hundreds of rooms
            out.append(("zrem", (self.keys.key("lobby"), room.id)))
        elif not room.settings.private:
            if room.status == WAITING and not room.humans():   # nobody left: nothing to list
                out.append(("zrem", (self.keys.key("lobby"), room.id)))
            else:   # ranked: a real table above rooms made in bulk (REAL_ROOM)
                out.append(("zadd", (self.keys.key("lobby"), {room.id: listing_score(room)})))
        for person in before - room.humans():
            out.append(("srem", (self.keys.key("seated", person), room.id)))
        for person in room.humans():
            out.append(("srem" if room.status == FINISHED else "sadd", (self.keys.key("seated", person), room.id)))
        return out

    # -- games -------------------------------------------------------------------------------------
    async def game(self, room_id: str) -> dict[str, Any] | None:
        """The stored game as a map of StoredGame's fields (None: not started)."""
        record = self._record(await self.redis.hmget(self.keys.key("game", room_id), *GAME_FIELDS))
        return None if record is None else asdict(record)

    async def room_and_game(self, room_id: str) -> tuple[Room | None, bytes, StoredGame | None]:
        """The room (parsed, and as stored: see `commit`) and its game, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(self.keys.key("room", room_id))
            pipe.hmget(self.keys.key("game", room_id), *GAME_FIELDS)
            raw_room, raw_game = await pipe.execute()
        room = Room.from_store(unpack(raw_room)) if raw_room else None
        return room, raw_room or b"", self._record(raw_game)

    @staticmethod
    def _record(raw: list[Any]) -> StoredGame | None:
        head = Head.parse(raw[:len(HEAD_FIELDS)])
        if head is None:
            return None
        values = {f.name: getattr(head, f.name) for f in dataclasses.fields(Head)}
        return StoredGame(**values, state=raw[-2], view=raw[-1])

    async def game_head(self, room_id: str) -> Head | None:
        """The stored game without its state."""
        return Head.parse(await self.redis.hmget(self.keys.key("game", room_id), *HEAD_FIELDS))

    async def decision_pending(self, room_id: str, v: int, colour: str) -> bool:
        """Whether `colour` is still deciding in the room's pending round and version v is of that round
        (a bot job asked at v is still worth thinking about)."""
        head = await self.game_head(room_id)
        return head is not None and head.in_round(v) and colour in head.deciding

    async def snapshot(self, room_id: str) -> dict[str, Any] | None:
        raw = await self.redis.hmget(self.keys.key("game", room_id), "v", "view")
        if raw[0] is None:
            return None
        return {"v": int(raw[0]), "view": unpack(cast(bytes, raw[1]))}

    async def commit(self, room_id: str, v: int, *, state: bytes, view: bytes, deciding: tuple[str, ...],
                     message: dict[str, Any], action: dict[str, Any], cap: int, check: float | None,
                     room: bytes = b"", began: tuple[float, int] | None = None, proc: str = "",
                     turn_at: float | None = None) -> bool:
        """Stores version v+1 (`state`: engine bytes, `view`: msgpack, `deciding`: the colours to decide,
        `message`: the game message, kept in the patch log of at most `cap` messages, `action`: the action
        log's line) if the stored version is still v and, when `room` (the stored bytes) is given, the room
        is unchanged; and brings the room's timer forward to `check`. `began`: when and at which version the
        pending round began (None: with this version); `proc`: the process storing it (see `alive`);
        `turn_at`: when the deciding colour's turn began (None: now). True when it did."""
        now = time.time()
        began_at, began_v = began if began is not None else (now, v + 1)
        keys = [self.keys.key("game", room_id), self.keys.key("patches", room_id), self.keys.key("actions", room_id),
                self.keys.key("room", room_id)]
        args: list[EncodableT] = [v, v + 1, state, view, ",".join(deciding), now, pack(message), pack(action),
                                  cap, "", "", room, began_at, began_v, proc, now if turn_at is None else turn_at]
        if self.clustered:   # the room's slot and the timers' are two nodes': the timer beside, not after
            # (a timer brought forward for an action that did not apply only costs a look)
            forward = [self.timers.schedule(room_id, check, earlier_only=True)] if check is not None else []
            ok, *_ = await asyncio.gather(self._commit_on_room_node(room_id, v, keys, args), *forward)
            return bool(ok)
        # one round trip: the commit, the timer and, with replicas, the wait for one of them to have the
        # commit (WAIT counts this connection's writes: in the same pipeline). The script goes by its hash
        # alone: a Script object in a pipeline costs a SCRIPT EXISTS round trip at every execute; a Redis
        # that lost its scripts (a restart, a failover) answers NOSCRIPT, runs nothing of it, and is sent
        # the script once before the pipeline goes again.
        for attempt in range(2):
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.evalsha(self._commit.sha, len(keys), *keys, *args)
                    if check is not None:
                        self.timers.forward_into(pipe, room_id, check)
                    if self.replicas:
                        pipe.wait(self.replicas, REPLICA_WAIT_MS)
                    (ok, _), *rest = await pipe.execute()
                break
            except NoScriptError:
                if attempt:
                    raise
                await self.redis.script_load(COMMIT)
        if self.replicas and ok == 1 and rest[-1] < self.replicas:
            log.warning("room %s v%d committed before a replica had it (%d of %d within %d ms)", room_id, v + 1,
                        rest[-1], self.replicas, REPLICA_WAIT_MS)
        return bool(ok == 1)

    async def _commit_on_room_node(self, room_id: str, v: int, keys: list[str], args: list[EncodableT]) -> bool:
        """The commit on a cluster, waiting for a replica: the script and `WAIT` sent over one connection of
        the node that owns the room's slot (WAIT counts the writes of its own connection, and redis-py's
        cluster client would send each command on a connection of its choosing). A redirection (the slot
        moved: MOVED, ASK) or a node gone (a failover under way) refreshes the slot map and tries once more;
        a second failure raises (the action is refused as unavailable, and the client sends it again)."""
        cluster = cast(RedisCluster, self.redis)
        await cluster.initialize()   # (a no-op once the slot map is known)
        slot = cluster.keyslot(keys[0])
        for attempt in (1, 2):
            holders = cluster.nodes_manager.slots_cache.get(slot) or []
            try:
                if not holders:
                    raise exceptions.ClusterDownError(f"slot {slot} is not covered")
                replicas = self.replicas_of.get(holders[0].name, 0)
                ok, waited = await self._script_and_wait(holders[0], keys, args, replicas)
                break
            except REROUTED:
                if attempt == 2:
                    raise
                await cluster.nodes_manager.initialize()
        if replicas and ok and waited < replicas:
            log.warning("room %s v%d committed before a replica had it (%d of %d within %d ms)", room_id, v + 1,
                        waited, replicas, REPLICA_WAIT_MS)
        return ok

    async def _script_and_wait(self, node: ClusterNode, keys: list[str], args: list[EncodableT],
                               replicas: int) -> tuple[bool, int]:
        """COMMIT on `node`, then `WAIT replicas` on the same connection, in one round trip: whether it
        applied and how many replicas had it. A node that lost its scripts (restarted, promoted) gets the
        script's body."""
        for command, script in (("EVALSHA", self._commit.sha), ("EVAL", COMMIT)):
            commands = [PipelineCommand(0, command, script, len(keys), *keys, *args)]
            if replicas:
                commands.append(PipelineCommand(1, "WAIT", replicas, REPLICA_WAIT_MS))
            await node.execute_pipeline(commands)
            answer = commands[0].result
            if isinstance(answer, exceptions.NoScriptError):
                continue
            if isinstance(answer, Exception):
                raise answer
            waited = commands[-1].result if replicas else 0
            return answer[0] == 1, waited if isinstance(waited, int) else 0
        raise exceptions.NoScriptError("the commit script could not be loaded")

    async def report_seen(self, room_id: str, began_v: int, person: str, ttl: float) -> set[str]:
        """Records that `person` has seen the report that began the round of `began_v`; everyone who has
        (the set lives `ttl` seconds)."""
        key = self.keys.key("seen", room_id, str(began_v))
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.sadd(key, person)
            pipe.expire(key, max(1, round(ttl)))
            pipe.smembers(key)
            _added, _expiry, members = await pipe.execute()
        return {text(m) for m in members}

    async def start_clock(self, room_id: str, began_v: int, now: float, deadline: float) -> bool:
        """Starts the clock of the round of `began_v` at `now` if it has not started yet (its start was
        put off for the report), and brings the room's timer forward to `deadline`. True when it did."""
        done = await self._start_clock(keys=[self.keys.key("game", room_id)], args=[began_v, now])
        if done:   # (a process that dies in between leaves the timer where it was: the check comes later)
            await self.timers.schedule(room_id, deadline, earlier_only=True)
        return bool(done)

    async def mark_sent(self, sent: dict[str, int]) -> None:
        """Records that the messages of these versions (room → v) were broadcast (see Timers.advance)."""
        if self.clustered:   # one call a room: their games are in different slots
            await asyncio.gather(*(self._mark_sent(keys=[self.keys.key("game", r)], args=[v]) for r, v in sent.items()))
            return
        # One pipeline for them all, each script by its hash; those answered NOSCRIPT (a Redis that lost its
        # scripts) go again once it has it.
        rooms = list(sent.items())
        for _attempt in range(2 if rooms else 0):
            async with self.redis.pipeline(transaction=False) as pipe:
                for room_id, v in rooms:
                    pipe.evalsha(self._mark_sent.sha, 1, self.keys.key("game", room_id), v)
                answers = await pipe.execute(raise_on_error=False)
            for answer in answers:
                if isinstance(answer, Exception) and not isinstance(answer, NoScriptError):
                    raise answer
            rooms = [room for room, answer in zip(rooms, answers, strict=True) if isinstance(answer, NoScriptError)]
            if not rooms:
                return
            await self.redis.script_load(MARK_SENT)
        if rooms:
            raise NoScriptError("the sent marks' script could not be loaded")

    async def sent(self, room_id: str) -> int:
        raw = await self.redis.hget(self.keys.key("game", room_id), "sent")
        return int(raw) if raw is not None else 0

    async def messages_since(self, room_id: str, v: int) -> list[dict[str, Any]] | None:
        """The game messages after version v, or None when some are no longer held."""
        raws = await self.redis.lrange(self.keys.key("patches", room_id), 0, -1)
        messages = [unpack(r) for r in raws]
        if not messages or messages[0]["v"] > v + 1:
            return None
        return [m for m in messages if m["v"] > v]

    async def actions(self, room_id: str) -> list[dict[str, Any]]:
        return [unpack(r) for r in await self.redis.lrange(self.keys.key("actions", room_id), 0, -1)]

    async def settled_actions(self, room_id: str) -> tuple[Room, list[dict[str, Any]]] | None:
        """A playing room and its action log up to the version its pending round began at (one read,
        atomic). The actions of a round still open are left out: in a mode with simultaneous orders
        (Expeditions) each is its seat's secret until the round resolves. None: no game is being played."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.get(self.keys.key("room", room_id))
            pipe.hmget(self.keys.key("game", room_id), *HEAD_FIELDS)
            pipe.lrange(self.keys.key("actions", room_id), 0, -1)
            raw_room, raw_head, raws = await pipe.execute()
        head = Head.parse(raw_head)
        room = Room.from_store(unpack(raw_room)) if raw_room else None
        if room is None or room.status != PLAYING or head is None:
            return None
        lines = [unpack(r) for r in raws]
        return room, [line for line in lines if line["v"] <= head.began_v]

    # -- presence ----------------------------------------------------------------------------------
    async def heartbeat(self, proc: str) -> None:
        """This process is alive; and whether the primary has a replica now (one Redis, or a primary behind
        Sentinel: `replicas`; on a cluster, each primary: `replicas_of`), which each commit then waits for."""
        await self.presence.beat(proc)
        if not self.clustered:
            self.replicas = min(1, int((await self.redis.info("replication")).get("connected_slaves", 0)))
            return
        found = await self.redis.info("replication", target_nodes=RedisCluster.PRIMARIES)
        self.replicas_of = {node: min(1, int(info.get("connected_slaves", 0))) for node, info in found.items()
                            if isinstance(info, dict)}

    async def look(self, room_id: str, alive_after: float) -> tuple[Room | None, Head | None, dict[str, int]]:
        """What the timer loop needs of a room, in one round trip: the room, its game's head and
        `watchers`."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(self.keys.key("room", room_id))
            pipe.hmget(self.keys.key("game", room_id), *HEAD_FIELDS)
            self.presence.watchers_into(pipe, room_id, alive_after)
            raw_room, raw_head, *present = await pipe.execute()
        room = Room.from_store(unpack(raw_room)) if raw_room else None
        return room, Head.parse(raw_head), await self.presence.watchers_from(room_id, *present)

    # -- the lobby listing's generation -----------------------------------------------------------
    async def listing_generation(self) -> int:
        """A number that changes whenever something in the lobby listing may have changed."""
        return int(await self.redis.get(self.keys.key("lobby_gen")) or 0)

    async def bump_listing(self) -> None:
        await self.redis.incr(self.keys.key("lobby_gen"))

    # -- cluster figures (/metrics) ----------------------------------------------------------------
    async def cluster_figures(self, proc: str, lease: float, alive_after: float) -> dict[str, int] | None:
        """Room and process counts for /metrics, answered only to the process holding the metrics lease
        (taken when free or when its holder stopped beating, kept while renewed), so one replica exports
        them. Three O(1)/O(log n) reads."""
        if not await self.presence.take_metrics_lease(proc, lease=lease, alive_after=alive_after):
            return None
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zcard(self.keys.key("rooms"))
            pipe.zcard(self.keys.key("lobby"))
            self.presence.count_alive_into(pipe, alive_after)
            rooms, listed, procs = await pipe.execute()
        return {"rooms": rooms, "listed": listed, "processes": procs}

    async def delete_prefix(self) -> None:
        """Removes every key under the prefix (tests)."""
        async for key in self.redis.scan_iter(match=f"{self.prefix}:*", count=500):
            await self.redis.delete(key)


def decision_pending(prefix: str) -> Callable[[redis.Redis], Callable[[BotJob], Awaitable[bool]]]:
    """For a bot worker (its composition root): on the worker's Redis client, whether a job's decision is
    still pending (Store.decision_pending)."""
    def on(client: redis.Redis) -> Callable[[BotJob], Awaitable[bool]]:
        store = Store(client, prefix)
        return lambda job: store.decision_pending(job.room, job.v, job.colour)
    return on

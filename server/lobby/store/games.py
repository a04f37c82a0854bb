"""A room's game and its logs, and the commit that changes them (the room's slot:
server/lobby/store/keys.py).

| key | type | holds |
| --- | --- | --- |
| `P:game:{id}` | hash | `v`, `state`, `to_move`, `at`, `began`, `began_v`, `sent`, `proc`, `turn_at` |
| `P:patches:{id}` | list | the last game messages `{room, v, events, patch}` (msgpack), capped |
| `P:actions:{id}` | list | every applied action `{v, colour, action, by, how, at, drawn?}` (server/records) |
| `P:seen:{id}:{began_v}` | set | persons who have seen the report that began the round of `began_v` (expires) |

A game's first state is written with its room's change that starts it, by the room's update script
(`first_state`, Rooms.update), which also expires the game's keys with the room. The public view is not
stored: it follows from the state (`GameMode.load(state).public_view()`), where it is read. A game stored
with a `view` field beside its state keeps it until it expires; nothing reads it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, cast

import redis.asyncio as redis
from redis import exceptions
from redis.asyncio.cluster import ClusterNode, PipelineCommand, RedisCluster
from redis.typing import EncodableT

from server.config import one_slot
from server.lobby.store.keys import Keys, pack, text, unpack
from server.lobby.store.timers import TimerStore

# The conditional write of a new game state: it applies only on the version it was computed from, so two
# actions on the same version can never both apply, from any number of processes. When ARGV[12] is given
# it is the room as the action was checked against (msgpack bytes): the write applies only if the room
# is still exactly that (a process that holds the room in memory need not read it first).
COMMIT = """
local head = redis.call('HMGET', KEYS[1], 'v', 'began_v', 'began', 'sent')
local v = tonumber(head[1])
if v == nil or v ~= tonumber(ARGV[1]) then return {0, v or -1} end
if ARGV[12] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[12] then return {2, v} end
local began = ARGV[13]
if head[2] == ARGV[14] then
  -- the same round: its clock's start stays as stored (START_CLOCK may have brought it forward)
  began = head[3] or began
end
-- ARGV[18]: the version this process last broadcast in the room, recorded with the commit instead of a
-- MARK_SENT of its own (0: none); it only goes up
local sent = math.max(tonumber(head[4]) or 0, tonumber(ARGV[18]) or 0)
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'state', ARGV[3],
           'to_move', ARGV[5], 'at', ARGV[6], 'began', began, 'began_v', ARGV[14], 'proc', ARGV[15],
           'turn_at', ARGV[16], 'sent', sent)
redis.call('RPUSH', KEYS[2], ARGV[7])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[9]), -1)
redis.call('RPUSH', KEYS[3], ARGV[8])
-- whether a socket of another process watches the room (KEYS[5], the watchers' fields `{process}|{sid}`;
-- ARGV[17] this process's `{process}|`, empty: taken as yes): only then must this version's broadcasts
-- go through pub/sub (a process starts watching a room before it reads the room's game)
local elsewhere = 1
if ARGV[17] ~= '' then
  elsewhere = 0
  for _, field in ipairs(redis.call('HKEYS', KEYS[5])) do
    if string.sub(field, 1, #ARGV[17]) ~= ARGV[17] then elsewhere = 1 break end
  end
end
return {1, tonumber(ARGV[2]), elsewhere}
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

REPLICA_WAIT_MS = 100
"""Milliseconds a commit waits for a replica to have it (`WAIT`), where the primary has replicas: an
action acknowledged to its player survives the primary's loss (docs/deploy.md, "Failover")."""

REROUTED = (exceptions.MovedError, exceptions.AskError, exceptions.ClusterDownError, exceptions.TryAgainError,
            exceptions.ConnectionError, exceptions.TimeoutError, OSError)
"""What a cluster answers when a slot moved or its node is gone: the slot map is refreshed (`commit`)."""

@dataclass(frozen=True)
class Committed:
    """A commit that applied. `heard_elsewhere`: a socket of another process watches the room, so the
    version's broadcasts must go through pub/sub; when none does, this process's own sockets are all
    there is to tell (a process that starts watching later reads the game after this commit)."""

    heard_elsewhere: bool = True


HEAD_FIELDS = ("v", "to_move", "at", "began", "began_v", "sent", "proc", "turn_at")
GAME_FIELDS = (*HEAD_FIELDS, "state")


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
    """A stored game: its head, and the engine state (secret; the public view follows from it)."""

    state: bytes = dataclasses.field(default=b"", kw_only=True, repr=False)


def _committed(answer: list[Any]) -> Committed | None:
    """COMMIT's answer as a Committed (None: it did not apply)."""
    return Committed(heard_elsewhere=answer[2] == 1) if answer[0] == 1 else None


KINDS = ("game", "patches", "actions")
"""The keys of a room's game (`P:seen` expires by itself)."""

log = logging.getLogger(__name__)


class Games:
    """The games of the rooms: read, committed action by action, and the rounds' clocks. An action's commit
    and a round's clock bring the room's timer forward (`timers`)."""

    def __init__(self, client: redis.Redis, keys: Keys, *, timers: TimerStore) -> None:
        self.redis = client
        self.keys = keys
        self.timers = timers
        self.replicas = 0   # replicas a commit waits for (`WAIT`): see `commit`
        self.replicas_of: dict[str, int] = {}   # the same on a cluster, by primary node ("host:port")
        self.clustered = isinstance(client, RedisCluster)
        self._commit = client.register_script(COMMIT)
        self._start_clock = client.register_script(START_CLOCK)
        self._mark_sent = client.register_script(MARK_SENT)

    def __repr__(self) -> str:
        return f"Games({self.keys.prefix!r})"

    async def game(self, room_id: str) -> dict[str, Any] | None:
        """The stored game as a map of StoredGame's fields (None: not started)."""
        record = self.parse(await self.redis.hmget(self.keys.key("game", room_id), *GAME_FIELDS))
        return None if record is None else asdict(record)

    @staticmethod
    def parse(raw: list[Any]) -> StoredGame | None:
        """A stored game from the GAME_FIELDS as read (None: not started)."""
        head = Head.parse(raw[:len(HEAD_FIELDS)])
        if head is None:
            return None
        values = {f.name: getattr(head, f.name) for f in dataclasses.fields(Head)}
        return StoredGame(**values, state=raw[-1])

    async def game_head(self, room_id: str) -> Head | None:
        """The stored game without its state."""
        return Head.parse(await self.redis.hmget(self.keys.key("game", room_id), *HEAD_FIELDS))

    async def decision_pending(self, room_id: str, *, v: int, colour: str) -> bool:
        """Whether `colour` is still deciding in the room's pending round and version v is of that round
        (a bot job asked at v is still worth thinking about)."""
        head = await self.game_head(room_id)
        return head is not None and head.in_round(v) and colour in head.deciding

    async def commit(self, room_id: str, v: int, *, state: bytes, deciding: tuple[str, ...],
                     message: dict[str, Any], action: dict[str, Any], cap: int, check: float | None,
                     room: bytes = b"", began: tuple[float, int] | None = None, proc: str = "",
                     turn_at: float | None = None, sent: int = 0) -> Committed | None:
        """Stores version v+1 (`state`: engine bytes, `deciding`: the colours to decide,
        `message`: the game message, kept in the patch log of at most `cap` messages, `action`: the action
        log's line) if the stored version is still v and, when `room` (the stored bytes) is given, the room
        is unchanged; and brings the room's timer forward to `check`. `began`: when and at which version the
        pending round began (None: with this version); `proc`: the process storing it (see `alive`);
        `turn_at`: when the deciding colour's turn began (None: now); `sent`: a version this process broadcast,
        recorded as `mark_sent` would (0: none). None when it did not apply. The
        commit reads the room's watchers (`P:watch:{id}`, server/lobby/store/presence.py), never writes them."""
        now = time.time()
        began_at, began_v = began if began is not None else (now, v + 1)
        keys = [self.keys.key("game", room_id), self.keys.key("patches", room_id), self.keys.key("actions", room_id),
                self.keys.key("room", room_id), self.keys.key("watch", room_id)]
        # (ARGV[4], [10] and [11] are unused: empty, so that the others keep their places)
        args: list[EncodableT] = [v, v + 1, state, "", ",".join(deciding), now, pack(message), pack(action),
                                  cap, "", "", room, began_at, began_v, proc, now if turn_at is None else turn_at,
                                  f"{proc}|" if proc else "", sent]
        if self.clustered:   # the room's slot and the timers' are two nodes': the timer beside, not after
            # (a timer brought forward for an action that did not apply only costs a look)
            forward = [self.timers.schedule(room_id, check, earlier_only=True)] if check is not None else []
            answer, *_ = await asyncio.gather(self._commit_on_room_node(room_id, v, keys, args), *forward)
            return answer
        # one round trip: the commit, the timer and, with replicas, the wait for one of them to have the
        # commit (WAIT counts this connection's writes: in the same pipeline)
        def commit(pipe: Any) -> None:
            pipe.evalsha(self._commit.sha, len(keys), *keys, *args)
            if check is not None:
                self.timers.forward_into(pipe, room_id, at=check)
            if self.replicas:
                pipe.wait(self.replicas, REPLICA_WAIT_MS)

        answer, *rest = await self._by_hash(COMMIT, commit)
        if check is not None:
            self.timers.scheduled(check)
        if self.replicas and answer[0] == 1 and rest[-1] < self.replicas:
            log.warning("room %s v%d committed before a replica had it (%d of %d within %d ms)", room_id, v + 1,
                        rest[-1], self.replicas, REPLICA_WAIT_MS)
        return _committed(answer)

    async def _commit_on_room_node(self, room_id: str, v: int, keys: list[str],
                                   args: list[EncodableT]) -> Committed | None:
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
                answer, waited = await self._script_and_wait(holders[0], keys, args, replicas)
                break
            except REROUTED as e:
                # (a pool at its bound is this process's, not the cluster's: a new slot map would only make
                # every connection reconnect)
                if attempt == 2 or isinstance(e, exceptions.MaxConnectionsError):
                    raise
                await cluster.nodes_manager.initialize()
        committed = _committed(answer)
        if replicas and committed and waited < replicas:
            log.warning("room %s v%d committed before a replica had it (%d of %d within %d ms)", room_id, v + 1,
                        waited, replicas, REPLICA_WAIT_MS)
        return committed

    async def _script_and_wait(self, node: ClusterNode, keys: list[str], args: list[EncodableT],
                               replicas: int) -> tuple[list[Any], int]:
        """COMMIT on `node`, then `WAIT replicas` on the same connection, in one round trip: the script's
        answer and how many replicas had it. A node that lost its scripts (restarted, promoted) gets the
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
            return answer, waited if isinstance(waited, int) else 0
        raise exceptions.NoScriptError("the commit script could not be loaded")

    async def report_seen(self, room_id: str, *, began_v: int, person: str, ttl: float) -> set[str]:
        """Records that `person` has seen the report that began the round of `began_v`; everyone who has
        (the set lives `ttl` seconds)."""
        key = self.keys.key("seen", room_id, str(began_v))
        async with one_slot(self.redis) as pipe:
            pipe.sadd(key, person)
            pipe.expire(key, max(1, round(ttl)))
            pipe.smembers(key)
            _added, _expiry, members = await pipe.execute()
        return {text(m) for m in members}

    async def start_clock(self, room_id: str, *, began_v: int, now: float, deadline: float) -> bool:
        """Starts the clock of the round of `began_v` at `now` if it has not started yet (its start was
        put off for the report), and brings the room's timer forward to `deadline`. True when it did."""
        done = await self._start_clock(keys=[self.keys.key("game", room_id)], args=[began_v, now])
        if done:   # (a process that dies in between leaves the timer where it was: the check comes later)
            await self.timers.schedule(room_id, deadline, earlier_only=True)
        return bool(done)

    async def mark_sent(self, sent: dict[str, int]) -> None:
        """Records that the messages of these versions (room → v) were broadcast (see Timers.advance)."""
        def marks(pipe: Any) -> None:   # one pipeline for them all (a cluster's: one connection a node, where
            # redis-py blocks its `evalsha` but not the command; marks only go up: sent again, no harm)
            for room_id, v in sent.items():
                pipe.execute_command("EVALSHA", self._mark_sent.sha, 1, self.keys.key("game", room_id), v)

        if sent:
            await self._by_hash(MARK_SENT, marks)

    async def _by_hash(self, script: str, fill: Callable[[Any], None]) -> list[Any]:
        """The answers of a pipeline that `fill` fills, its scripts sent by their hash alone (a Script object in
        a pipeline costs a SCRIPT EXISTS round trip at every execute). A Redis that lost its scripts (a restart,
        a failover) answers NOSCRIPT and runs nothing of the script: it is sent `script`, and the pipeline goes
        once more."""
        for attempt in range(2):
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    fill(pipe)
                    return list(await pipe.execute())
            except exceptions.NoScriptError:
                if attempt:
                    raise
                await self.redis.script_load(script)
        raise AssertionError("unreachable")

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

    def head_into(self, pipe: Any, room_id: str) -> None:
        """Adds to `pipe` the read of the game's head (`Head.parse` reads the answer)."""
        pipe.hmget(self.keys.key("game", room_id), *HEAD_FIELDS)

    def game_into(self, pipe: Any, room_id: str) -> None:
        """Adds to `pipe` the read of the whole game (`parse` reads the answer)."""
        pipe.hmget(self.keys.key("game", room_id), *GAME_FIELDS)

    def actions_into(self, pipe: Any, room_id: str) -> None:
        """Adds to `pipe` the read of the action log (each line msgpack: `unpack`)."""
        pipe.lrange(self.keys.key("actions", room_id), 0, -1)

    def keys_of(self, room_id: str) -> list[str]:
        """The keys of the room's game (KINDS, in that order): they expire with the room (Rooms.update)."""
        return [self.keys.key(kind, room_id) for kind in KINDS]

    @staticmethod
    def first_state(game: dict[str, Any]) -> list[EncodableT]:
        """A game's first state (its fields; `message`: its first game message, packed) as the room's update
        writes it (Rooms.update: the logs of any game before go): the number of field/value pairs, the pairs,
        the message."""
        fields = [(k, v) for k, v in game.items() if k != "message"]
        return [len(fields), *(x for pair in fields for x in pair), game["message"]]

    def delete_into(self, pipe: Any, room_id: str) -> None:
        """Adds to `pipe` the deletion of the room's game (with its room)."""
        pipe.delete(*(self.keys.key(kind, room_id) for kind in KINDS))

    async def count_replicas(self) -> None:
        """Whether the primary has a replica now (one Redis, or a primary behind Sentinel: `replicas`; on a
        cluster, each primary: `replicas_of`), which each commit then waits for (read at each heartbeat)."""
        if not self.clustered:
            self.replicas = min(1, int((await self.redis.info("replication")).get("connected_slaves", 0)))
            return
        found = await self.redis.info("replication", target_nodes=RedisCluster.PRIMARIES)
        self.replicas_of = {node: min(1, int(info.get("connected_slaves", 0))) for node, info in found.items()
                            if isinstance(info, dict)}

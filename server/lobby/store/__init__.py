"""The lobby's Redis store: one small store a key family, each module of this package the only one that
sends commands on its keys (its docstring lists them), composed by `Store`, which adds the reads and
removals that span families in one round trip (`look`, `room_and_game`, `settled_actions`, `forget`).

Keys (all under the configured prefix `P`, named by `keys.Keys.key`). A room's own keys carry the room id as
their Redis Cluster hash tag (`P:room:{r_1a2b}`: one slot a room); the shared directory's carry the
deployment's (`P:{P}:lobby`: one slot); the rest (sessions, rate counts) are spread by their own names.

| module | keys |
| --- | --- |
| `rooms` | `P:room:{id}`, `P:code:{code}`, `P:rooms`, `P:lobby`, `P:lobby_gen`, `P:sweep` |
| `rooms` (caps, seats) | `P:hosted:{person}`, `P:hosted_from:{address}`, `P:seated:{person}` |
| `games` | `P:game:{id}`, `P:patches:{id}`, `P:actions:{id}`, `P:seen:{id}:{began_v}` |
| `chat` | `P:chat:{id}`, `P:chatid:{id}` |
| `presence` | `P:procs`, `P:silent`, `P:watch:{id}`, `P:metrics_lease` |
| `timers` | `P:timers` |
| `searches` | `P:searching`, `P:searching:n` |
| `people` | `P:session:{sha256(token)}`, `P:chatrate:{person}`, `P:newpeople:{address}` |

Each key family that belongs to another part has its own store there: rematch links `P:rematch:{id}`
(server/lobby/rematch.py), the bot queue (server/bots/worker.py), finished games (server/records/store.py),
lessons (server/tutorial/sessions.py), notifications (server/notify/) and the broadcasts between processes
(server/realtime/fanout.py)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as redis

from server.bots.worker import BotJob
from server.config import one_slot
from server.lobby.rooms import PLAYING, Room
from server.lobby.store.chat import Chat
from server.lobby.store.games import Games, Head, StoredGame
from server.lobby.store.keys import Keys, unpack
from server.lobby.store.people import People
from server.lobby.store.presence import Presence
from server.lobby.store.rooms import Rooms
from server.lobby.store.searches import Searches
from server.lobby.store.timers import TimerStore

log = logging.getLogger(__name__)

LOOK_SPREAD = 2.0
"""Seconds over which every room's look is spread when the processes alive change (`Store.heartbeat`)."""

class Store:
    """The lobby's Redis store: its key families' stores (`rooms`, `games`, `chat`, `presence`, `timers`,
    `searches`, `people`) on one client and prefix. `on_schedule`: see TimerStore."""

    def __init__(self, client: redis.Redis, prefix: str, *, on_schedule: Callable[[float], None] | None = None) -> None:
        self.redis = client
        self.prefix = prefix
        self.keys = Keys(prefix)
        self.timers = TimerStore(client, self.keys, on_schedule=on_schedule)
        self.people = People(client, self.keys)
        self.chat = Chat(client, self.keys)
        self.searches = Searches(client, self.keys)
        self.presence = Presence(client, self.keys)
        self.games = Games(client, self.keys, timers=self.timers)
        self.rooms = Rooms(client, self.keys, games=self.games, chat=self.chat)

    async def ping(self) -> bool:
        return bool(await self.redis.ping())

    async def forget(self, room_id: str) -> bool:
        """Drops an expired room from the indexes, its timer, sockets and search bots; True when this call
        removed it."""
        async with self.redis.pipeline(transaction=False) as pipe:
            self.rooms.forget_into(pipe, room_id)
            self.timers.unschedule_into(pipe, room_id)
            self.presence.forget_room_into(pipe, room_id)
            self.searches.release_into(pipe, room_id)
            removed, *_ = await pipe.execute()
        return bool(removed)

    async def room_and_game(self, room_id: str) -> tuple[Room | None, bytes, StoredGame | None]:
        """The room (parsed, and as stored: see `Games.commit`) and its game, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            self.rooms.get_into(pipe, room_id)
            self.games.game_into(pipe, room_id)
            raw_room, raw_game = await pipe.execute()
        room = self.rooms.parse(raw_room)
        return room, raw_room or b"", self.games.parse(raw_game)

    async def settled_actions(self, room_id: str) -> tuple[Room, list[dict[str, Any]]] | None:
        """A playing room and its action log up to the version its pending round began at (one read: on a
        cluster not atomic, but the log is cut at the head read before it). The actions of a round still
        open are left out: in a mode with simultaneous orders (Expeditions) each is its seat's secret until
        the round resolves. None: no game is being played."""
        async with one_slot(self.redis) as pipe:
            self.rooms.get_into(pipe, room_id)
            self.games.head_into(pipe, room_id)
            self.games.actions_into(pipe, room_id)
            raw_room, raw_head, raws = await pipe.execute()
        head = Head.parse(raw_head)
        room = self.rooms.parse(raw_room)
        if room is None or room.status != PLAYING or head is None:
            return None
        lines = [unpack(r) for r in raws]
        return room, [line for line in lines if line["v"] <= head.began_v]

    # -- presence ----------------------------------------------------------------------------------
    async def heartbeat(self, proc: str, *, silent_after: float) -> list[str]:
        """This process is alive; and how many replicas each commit waits for now (`Games.count_replicas`).
        When processes fell silent or came back (`Presence.beat`: returned), the sockets that count in the
        rooms changed: every room is looked at within `LOOK_SPREAD` seconds (Timers.advance: presence, and
        what a dead process stored but did not broadcast). That is why a room's own presence check can be
        rare (Room.next_check)."""
        changed = await self.presence.beat(proc, silent_after=silent_after)
        if changed:
            await self.timers.look_at_all(time.time(), LOOK_SPREAD)
        await self.games.count_replicas()
        return changed

    async def drop_process(self, proc: str) -> None:
        """This process stops (gracefully): its sockets stop counting at once, and every room is looked at
        within `LOOK_SPREAD` seconds, for the seats whose leaving its closing sockets did not get to say
        (once: a shutdown drops the process at its sockets' closing and again at its end)."""
        if await self.presence.drop_process(proc):
            await self.timers.look_at_all(time.time(), LOOK_SPREAD)

    async def look(self, room_id: str, alive_after: float) -> tuple[Room | None, Head | None, dict[str, int]]:
        """What the timer loop needs of a room, in one round trip: the room, its game's head and
        `watchers`."""
        async with self.redis.pipeline(transaction=False) as pipe:
            self.rooms.get_into(pipe, room_id)
            self.games.head_into(pipe, room_id)
            self.presence.watchers_into(pipe, room_id, alive_after=alive_after)
            raw_room, raw_head, *present = await pipe.execute()
        room = self.rooms.parse(raw_room)
        return room, Head.parse(raw_head), await self.presence.watchers_from(room_id, *present)

    # -- cluster figures (/metrics) ----------------------------------------------------------------
    async def cluster_figures(self, proc: str, *, lease: float, alive_after: float) -> dict[str, int] | None:
        """Room and process counts for /metrics, answered only to the process holding the metrics lease
        (taken when free or when its holder stopped beating, kept while renewed), so one replica exports
        them. Three O(1)/O(log n) reads."""
        if not await self.presence.take_metrics_lease(proc, lease=lease, alive_after=alive_after):
            return None
        async with self.redis.pipeline(transaction=False) as pipe:
            self.rooms.count_into(pipe)
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
        keys = Keys(prefix)
        games = Games(client, keys, timers=TimerStore(client, keys))
        return lambda job: games.decision_pending(job.room, v=job.v, colour=job.colour)
    return on

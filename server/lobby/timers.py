"""The timers of every room: bots' moves, grace periods, the turn clock, presence, resends of what a
process stored but did not broadcast, and the expiry sweep. Any process may advance any room: a room's
timer is claimed (leased) in the store first."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
import time
from collections.abc import Awaitable

from server.lobby.alarm import Alarm
from server.lobby.authority import Authority
from server.lobby.lobby import Lobby
from server.lobby.person import Outbox, Timings
from server.lobby.rooms import PLAYING, WAITING, Room
from server.lobby.store import Store
from server.lobby.store.keys import StoreUnavailable
from server.metrics import Metrics

log = logging.getLogger(__name__)

BOT_PATIENCE = 2.0
"""Seconds between two looks at a room whose bot is thinking (its answer does not wait for them)."""

MIN_WAIT = 0.01
"""The timer loop's shortest sleep (seconds): it looks at most 100 times a second for due rooms."""

CYCLES_AFTER = (2048, 120.0)
"""A full collection of the garbage collector once this many connections closed since the last one, and
at most once in this many seconds (see `Timers.collect_if_due`). A closed connection leaves nothing in
reference cycles under uvloop, and a transport of a few hundred bytes under asyncio's loop (2048: under
2 MB)."""

GROWTH_AFTER = (2.0, 250_000)
"""A full collection of the garbage collector once the Python heap (`sys.getallocatedblocks`) has doubled,
and grown by at least this many blocks, since the last one: a server process collects nothing on its own
(server/__main__.py), so this is what bounds the memory that garbage in reference cycles can hold (Go's
rule by default, GOGC=100). A quarter (CPython's rule for its oldest generation) set one off every
minute or so while the games of a loaded server grew, each a stall of 0.4-0.6 s (docs/deploy.md)."""


class Timers:
    """The timer loop of one server process (`proc` names it in the heartbeat)."""

    def __init__(self, store: Store, lobby: Lobby, *, authority: Authority, outbox: Outbox, metrics: Metrics,
                 timings: Timings, proc: str, alarm: Alarm) -> None:
        self.store = store
        self.lobby = lobby
        self.authority = authority
        self.outbox = outbox
        self.metrics = metrics
        self.timings = timings
        self.proc = proc
        self.alarm = alarm   # rung when a room's next check comes before the loop wakes (the store's timers ring it)
        self._closed_before = 0                          # closed connections counted at the last collection
        self._last_collection = time.time()
        self._heap_after = sys.getallocatedblocks()      # the heap's blocks after it
        self._heap_looked = 0.0                          # when `collect_if_due` last read them

    def __repr__(self) -> str:
        return f"Timers(proc={self.proc!r})"

    async def advance(self, room_id: str, lease: float | None = None) -> None:
        """Looks at one room whose timer is due: presence, grace, clock, and a bot's move if one is due.
        `lease`: the timer's score while this process holds the claim on it (`TimerStore.claim_due`); the room
        is rescheduled at its next check when done."""
        room, head, present = await self.store.look(room_id, time.time() - self.timings.presence_ttl)
        if room is not None and room.status == WAITING:
            await self._waiting(room, set(present), lease)
            return
        if room is None or room.status != PLAYING:
            await self.store.timers.unschedule(room_id)
            return
        if head is None:
            return
        now = time.time()
        await self.authority.resend(room, head, now)
        here = set(present)
        if Room.from_store(room.to_store()).mark_presence(here, now):   # a probe: write only a change
            room = await self.lobby.update(room_id, lambda r: r.mark_presence(here, now))
            await self.lobby.publish(room)
        if not head.deciding:  # over, but the room was not finished (its process failed right after)
            await self.authority.finish(room_id)
            return
        simultaneous = self.authority.mode_of(room).simultaneous
        clock = room.settings.clock
        check = room.next_check(head.deciding, head.turn_at, head.began, now, self.timings.presence_ttl)
        if simultaneous and clock is not None and now >= head.began + clock:
            # the turn's deadline: it resolves with the orders in (docs/protocol.md §14)
            resolved = await self.authority.deadline(room_id, head.v)
            if resolved is None:
                return   # over (or another process resolved it: its commit set the next check)
            check = resolved
        else:
            posted = False
            for colour in head.deciding:
                seat = room.seats[room.seat_of_colour(colour)]
                due = None
                if seat.kind == "bot" or seat.autopilot:
                    # once per turn: a bot's chained decisions follow at once (Authority._apply)
                    due = head.turn_at + room.settings.bot_pace
                elif clock is not None and not simultaneous:
                    due = head.began + clock
                if due is not None and now >= due:
                    how = "bot" if seat.kind == "bot" else "takeover" if seat.autopilot else "clock"
                    # a bot's turn is thought about from when its pace ran out: its budget is per turn
                    turn = due if seat.kind == "bot" or seat.autopilot else now
                    level = seat.bot_level(self.lobby.levels.default)
                    await self.authority.bot_due(room_id, head.v, colour, how, level, turn)
                    posted = True
            if posted:
                # the worker's answer brings the room's next check forward when it is applied; look
                # again meanwhile for presence (and to post the job again should it be lost)
                check = now + min(BOT_PATIENCE, self.timings.presence_ttl / 2)
        if lease is None:
            await self.store.timers.schedule(room_id, check, earlier_only=True)
        else:
            await self.store.timers.reschedule(room_id, at=check, lease=lease)

    async def _waiting(self, room: Room, present: set[str], lease: float | None) -> None:
        """A waiting room with an away seat: once the grace period is over, the seat is freed (a seat
        squatter who left holds nothing); a person back in time keeps it."""
        now = time.time()
        if Room.from_store(room.to_store()).release_away(present, now):
            room = await self.lobby.update(room.id, lambda r: r.release_away(present, now))
            await self.lobby.publish(room)
        end = room.next_away_end()
        if end is None:
            await self.store.timers.unschedule(room.id)
        elif lease is None:
            await self.store.timers.schedule(room.id, max(end, now + MIN_WAIT), earlier_only=True)
        else:
            await self.store.timers.reschedule(room.id, at=max(end, now + MIN_WAIT), lease=lease)

    async def sweep(self) -> None:
        """Forgets rooms whose keys expired (finished or idle) and tells the lobby."""
        for room_id in await self.store.rooms.expired():
            if await self.store.forget(room_id):
                await self.lobby.announce({"op": "remove", "room": room_id})

    def collect_if_due(self, now: float) -> None:
        """Runs a full collection of the garbage collector when one is due: after many closed connections
        (`CYCLES_AFTER`) or once the heap has grown enough (`GROWTH_AFTER`). The process collects nothing
        on its own (server/__main__.py): while people play, its young collections found next to nothing
        and stalled every room for 60-250 ms every few seconds (docs/deploy.md). A closed session leaves
        no cycle behind (transport.py), but under asyncio's loop (TONGIAKI_EVENT_LOOP) on Python 3.11 a
        closed connection's transport holds itself through its read callback (CPython gh-100348, fixed
        in 3.12), which only a collection frees; and whatever else builds up in cycles. The heap's size
        is read once a second at most (a fraction of a millisecond each)."""
        closed = self.metrics.closed_sessions - self._closed_before
        blocks = 0
        if now - self._heap_looked >= 1.0:
            self._heap_looked, blocks = now, sys.getallocatedblocks()
        if closed >= CYCLES_AFTER[0] and now - self._last_collection >= CYCLES_AFTER[1]:
            why = f"after {closed} closed connections"
        elif blocks >= max(self._heap_after * GROWTH_AFTER[0], self._heap_after + GROWTH_AFTER[1]):
            why = f"after the heap grew from {self._heap_after} to {blocks} blocks"
        else:
            return
        began = time.perf_counter()
        found = gc.collect()
        self._closed_before += closed
        self._last_collection, self._heap_after = now, sys.getallocatedblocks()
        log.info("full garbage collection %s: %d objects freed in %.0f ms", why, found,
                 1000 * (time.perf_counter() - began))

    async def run(self, stop: asyncio.Event) -> None:
        """The process's timer loop: claims due rooms (any process may) and advances them. It sleeps until
        the next timer falls due (another process may bring one forward: at most a tick, and at least
        MIN_WAIT), so bots and clocks act when they are due instead of all together at the next tick."""
        last_beat = last_sweep = last_flush = 0.0
        redis_down = False

        async def relay_stop() -> None:
            await stop.wait()
            self.alarm.ring()
        relay = asyncio.create_task(relay_stop())
        while not stop.is_set():
            wait = self.timings.tick
            try:
                now = time.time()
                if now - last_beat >= min(1.0, self.timings.presence_ttl / 3):
                    changed = await self.store.heartbeat(self.proc, silent_after=now - self.timings.presence_ttl)
                    if changed:
                        log.info("processes fell silent or came back (%s): every room's presence is looked at",
                                 ", ".join(changed))
                    last_beat = now
                period = min(5.0, self.timings.finished_ttl)
                if now - last_sweep >= period:
                    if await self.store.rooms.take_sweep(period):   # one process a period sweeps
                        await self.sweep()
                    last_sweep = now
                if now - last_flush >= self.timings.tick:
                    await self.authority.flush_sent()
                    await self.authority.resend_failed()
                    last_flush = now
                self.collect_if_due(now)
                lease = now + 2.0
                due, next_at = await self.store.timers.claim_due(now, lease)
                if redis_down:
                    log.warning("timer loop: Redis is reachable again")
                    redis_down = False
                if due:   # they set their next checks: look again soon, the claim then tells the next one
                    await asyncio.gather(*(self._guarded(self.advance(r, lease)) for r in due))
                    wait = MIN_WAIT
                elif next_at is not None:
                    wait = min(self.timings.tick, max(MIN_WAIT, next_at - time.time()))
            except StoreUnavailable as e:  # an outage: say so once, not every tick
                if not redis_down:
                    log.warning("timer loop: Redis unreachable (%s); retrying every tick", e)
                    redis_down = True
            except Exception:  # a bug in one room: keep the loop alive
                log.exception("timer loop")
            slept = time.monotonic()
            if not await self.alarm.sleep(wait):
                self.metrics.lag(max(0.0, time.monotonic() - slept - wait))
        relay.cancel()
        with contextlib.suppress(Exception):   # what was broadcast and not yet recorded
            await self.authority.flush_sent(everything=True)

    @staticmethod
    async def _guarded(work: Awaitable[None]) -> None:
        """A room's failure is logged, and the other rooms due with it are advanced all the same. An outage
        of Redis is no failure of the room: it goes to the loop, which says so once per outage (not a
        traceback for every room due)."""
        try:
            await work
        except StoreUnavailable:
            raise
        except Exception:
            log.exception("advancing a room")

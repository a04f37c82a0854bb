"""The store's conditional writes against a real Redis: a game version is stored only on the version and
the room it was computed from; broadcast marks only go up."""

from __future__ import annotations

from server.lobby import PLAYING, Room, Settings
from server.lobby.store.keys import pack


async def started(store, room_id: str = "r_test0001", **fields: bytes) -> bytes:
    """A playing room with a game at version 0 (with `fields` more in its game hash); returns the room as
    stored."""
    room = Room.new(room_id, "CODE42", "p_host", "Host", Settings(name="t", seats=2), 0.0)
    assert await store.rooms.create(room, ttl=60)
    record = {"v": 0, "sent": 0, "state": b"s0", "to_move": "red", "at": 0.0, **fields,
              "message": pack({"room": room_id, "v": 0})}

    def begin(r: Room) -> bool:
        r.status = PLAYING
        return True
    room = await store.rooms.update(room_id, begin, ttls={"waiting": 60, "finished": 60}, game=record)
    return pack(room.to_store())


async def commit(store, v: int, room: bytes, room_id: str = "r_test0001") -> bool:
    return await store.games.commit(room_id, v, state=b"s", deciding=("blue",),
                              message={"room": room_id, "v": v + 1}, action={"v": v + 1}, cap=10, check=None,
                              room=room)


async def test_a_version_is_stored_only_on_the_version_and_room_it_was_computed_on(store):
    raw = await started(store)
    assert not await commit(store, 1, raw)                  # not the stored version
    assert not await commit(store, 0, raw + b"x")           # the room changed since it was read
    assert (await store.games.game("r_test0001"))["v"] == 0
    assert await commit(store, 0, raw)
    assert not await commit(store, 0, raw)                  # that version is gone
    assert await commit(store, 1, b"")                      # no room given: the version alone decides
    assert (await store.games.game("r_test0001"))["v"] == 2
    assert [m["v"] for m in await store.games.messages_since("r_test0001", -1)] == [0, 1, 2]


async def test_broadcast_marks_only_go_up(store):
    await started(store)
    await store.games.mark_sent({"r_test0001": 5})
    await store.games.mark_sent({"r_test0001": 3, "r_gone": 4})   # a late mark; a room without a game
    assert await store.games.sent("r_test0001") == 5
    assert not await store.redis.exists(store.keys.key("game", "r_gone"))


async def test_expired_rooms_are_found_without_reading_the_rooms(store):
    ids = [f"r_exp{i}" for i in range(5)]
    for i, room_id in enumerate(ids):
        assert await store.rooms.create(Room.new(room_id, f"CODE{i:02d}", "p", "P", Settings(name="t"), i), ttl=60)
    await store.redis.delete(store.keys.key("room", ids[1]), store.keys.key("room", ids[4]))   # as if they expired
    assert await store.rooms.expired(batch=2) == [ids[1], ids[4]]   # across batches
    assert await store.rooms.expired() == [ids[1], ids[4]]


async def test_one_process_a_period_sweeps_the_expired_rooms(store):
    """The sweep reads every room's key: the first process to ask in a period does it, the others not,
    so its cost does not grow with the number of processes; the next period it is anyone's again."""
    import asyncio

    taken = await asyncio.gather(*(store.rooms.take_sweep(0.3) for _ in range(4)))
    assert sorted(taken) == [False, False, False, True]
    await asyncio.sleep(0.4)
    assert await store.rooms.take_sweep(0.3)


async def test_the_metrics_lease_is_held_by_one_live_process_and_taken_from_a_dead_one(store):
    """/metrics exports the cluster-wide figures from one replica only; a replica killed while holding
    that lease must not keep them off every /metrics until it expires (its heartbeat lapses first)."""
    import time

    now = time.time()
    await store.heartbeat("proc-a", silent_after=now - 5)
    await store.heartbeat("proc-b", silent_after=now - 5)
    assert await store.cluster_figures("proc-a", lease=60.0, alive_after=now - 5) is not None   # free: taken
    assert await store.cluster_figures("proc-b", lease=60.0, alive_after=now - 5) is None       # a live holder keeps it
    assert await store.cluster_figures("proc-a", lease=60.0, alive_after=now - 5) is not None   # and renews it
    await store.presence.drop_process("proc-a")                                         # proc-a stops beating
    figures = await store.cluster_figures("proc-b", lease=60.0, alive_after=time.time() - 5)
    assert figures is not None and figures["processes"] == 1
    assert await store.cluster_figures("proc-a", lease=60.0, alive_after=time.time() - 5) is None


async def test_a_game_stored_with_its_view_is_read_and_played_on_and_no_commit_stores_one(store):
    """The public view follows from the state and is not stored; a game stored with one beside its state
    (by an older server) reads as any other, and its `view` field is left alone, unread, until it expires."""
    raw = await started(store, view=pack({"turn": 0}))
    game = await store.games.game("r_test0001")
    assert (game["v"], game["state"]) == (0, b"s0") and "view" not in game
    key = store.keys.key("game", "r_test0001")
    assert await commit(store, 0, raw)
    stored = await store.redis.hgetall(key)
    assert stored[b"state"] == b"s" and stored[b"view"] == pack({"turn": 0})
    await store.redis.hdel(key, "view")
    assert await commit(store, 1, raw)
    assert (await store.games.game("r_test0001"))["v"] == 2 and not await store.redis.hexists(key, "view")


async def test_a_rounds_clock_starts_once_and_a_commit_of_that_round_keeps_the_start(store):
    """A new round whose clock waits for its report (docs/protocol.md §14): `start_clock` brings its start
    forward once, only for that round; a process that held the round's first start and stores an order of
    the same round keeps the stored one; a new round sets its own."""
    raw = await started(store)
    room_id, later = "r_test0001", 1000.0
    assert await store.games.commit(room_id, 0, state=b"s", deciding=("red", "blue"), message={"v": 1},
                              action={"v": 1}, cap=10, check=None, room=raw, began=(later, 1))
    assert not await store.games.start_clock(room_id, began_v=0, now=500.0, deadline=530.0)    # another round: nothing
    assert await store.games.start_clock(room_id, began_v=1, now=500.0, deadline=530.0)
    assert not await store.games.start_clock(room_id, began_v=1, now=510.0, deadline=540.0)    # started already
    assert (await store.games.game_head(room_id)).began == 500.0
    assert await store.games.commit(room_id, 1, state=b"s", deciding=("blue",), message={"v": 2},
                              action={"v": 2}, cap=10, check=None, began=(later, 1))
    assert (await store.games.game_head(room_id)).began == 500.0          # the same round: kept
    assert await store.games.commit(room_id, 2, state=b"s", deciding=("red",), message={"v": 3},
                              action={"v": 3}, cap=10, check=None, began=(600.0, 3))
    assert (await store.games.game_head(room_id)).began == 600.0          # a new round: its own
    assert await store.games.report_seen(room_id, began_v=3, person="p_a", ttl=60) == {"p_a"}
    assert await store.games.report_seen(room_id, began_v=3, person="p_b", ttl=60) == {"p_a", "p_b"}


async def test_a_commit_goes_on_once_after_redis_lost_its_scripts(store):
    # a restarted or failed-over Redis has no scripts: the commit, sent by the script's hash alone, is
    # answered NOSCRIPT (nothing of it ran), sends the script and is applied once
    raw = await started(store)
    await store.redis.script_flush()
    assert await commit(store, 0, raw)
    assert (await store.games.game("r_test0001"))["v"] == 1
    assert [m["v"] for m in await store.games.messages_since("r_test0001", -1)] == [0, 1]
    assert await commit(store, 1, b"")   # and the script is there again for the next
    await store.redis.script_flush()   # the sent marks, all rooms in one pipeline, likewise
    await store.games.mark_sent({"r_test0001": 2, "r_gone": 1})
    assert await store.games.sent("r_test0001") == 2


async def test_a_process_falling_silent_or_coming_back_brings_every_rooms_look_forward(store):
    """A room's own presence check is rare (every 2 to 4 presence TTLs, Room.next_check): what makes
    presence change without a socket's leaving is a process's falling silent (its sockets stop counting)
    or beating again, and then every room is looked at within 2 s (Store.heartbeat). Each change is told
    once, by whichever process beats first."""
    import time

    from server.lobby.rooms import PRESENCE_ROUNDS

    now = time.time()
    timers = store.keys.key("timers")
    later = now + PRESENCE_ROUNDS * 15
    await store.redis.zadd(timers, {"r_far1": later, "r_far2": later, "r_soon": now + 0.5})
    await store.heartbeat("proc-a", silent_after=now - 15)
    await store.heartbeat("proc-b", silent_after=now - 15)
    assert await store.redis.zscore(timers, "r_far1") == later, "nothing changed: no room is looked at"

    procs = store.keys.key("procs")
    await store.redis.zadd(procs, {"proc-b": now - 20})           # proc-b stopped beating 20 s ago
    assert await store.heartbeat("proc-a", silent_after=now - 15) == ["proc-b"]
    after = {room: score for room, score in await store.redis.zrange(timers, 0, -1, withscores=True)}
    assert all(now <= after[r] <= time.time() + 2.0 for r in (b"r_far1", b"r_far2")), after
    assert after[b"r_soon"] <= now + 0.5, "a room due earlier stays due then"
    await store.redis.zadd(timers, {"r_far1": later})
    assert await store.heartbeat("proc-a", silent_after=now - 15) == [], "told once"
    assert await store.redis.zscore(timers, "r_far1") == later

    assert await store.heartbeat("proc-b", silent_after=time.time() - 15) == ["proc-b"], "back: told once"
    assert await store.redis.zscore(timers, "r_far1") <= time.time() + 2.0
    assert await store.heartbeat("proc-b", silent_after=time.time() - 15) == []

    await store.redis.zadd(timers, {"r_far1": later})
    await store.drop_process("proc-b")                              # a graceful stop: at once, not after the TTL
    assert await store.redis.zscore(procs, "proc-b") is None
    assert await store.redis.zscore(timers, "r_far1") <= time.time() + 2.0


async def test_a_commit_records_the_version_broadcast_before_it(store):
    """The version a process broadcast rides on the room's next commit (Authority.flush_sent marks only the
    rooms whose next commit is slow to come): recorded as a mark is, and only upwards."""
    raw = await started(store)

    async def commit_sent(v: int, sent: int) -> bool:
        return await store.games.commit("r_test0001", v, state=b"s", deciding=("blue",),
                                        message={"room": "r_test0001", "v": v + 1}, action={}, cap=10, check=None,
                                        room=raw, sent=sent)
    assert await commit_sent(0, 0)
    assert await store.games.sent("r_test0001") == 0
    assert await commit_sent(1, 1)
    assert await store.games.sent("r_test0001") == 1
    await store.games.mark_sent({"r_test0001": 2})
    assert await commit_sent(2, 1)   # a late one: the mark stays
    assert await store.games.sent("r_test0001") == 2
    assert not await commit_sent(2, 3)   # a commit that does not apply records nothing
    assert await store.games.sent("r_test0001") == 2

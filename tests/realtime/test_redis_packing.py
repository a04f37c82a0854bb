"""The service's Redis connections pack commands with hiredis (server/config.py, `_HiredisPacking`): the
same bytes redis-py's own packer makes, the same DataError for what Redis cannot take, on every kind of
connection `redis_client` makes, and a real Redis answers them."""

from __future__ import annotations

import pytest
import redis
from hypothesis import given
from hypothesis import strategies as st
from redis.asyncio.connection import Connection

from server.config import (
    REDIS_OPTIONS,
    PackedConnection,
    PackedSentinelConnection,
    PackedSSLConnection,
    PackedUnixConnection,
    redis_client,
)
from server.realtime.fanout import Fanout

ARGUMENT = st.one_of(st.binary(max_size=9000), st.text(max_size=300), st.integers(), st.floats(allow_nan=False))


@given(name=st.sampled_from(["SET", "EVALSHA", b"HSET", "CONFIG GET", b"CLIENT LIST"]), args=st.lists(ARGUMENT))
def test_the_bytes_are_redis_pys(name: str | bytes, args: list[object]) -> None:
    ours, theirs = PackedConnection(), Connection()
    assert b"".join(ours.pack_command(name, *args)) == b"".join(theirs.pack_command(name, *args))
    pipeline = [(name, *args), ("GET", "k"), (b"EVALSHA", b"x" * 7000, 1, "k", 1.5)]
    assert b"".join(ours.pack_commands(pipeline)) == b"".join(theirs.pack_commands(pipeline))


@pytest.mark.parametrize("bad", [True, None, [1], {"a": 1}])
def test_what_redis_cannot_take_is_refused_as_redis_py_refuses_it(bad: object) -> None:
    for connection in (PackedConnection(), Connection()):
        with pytest.raises(redis.DataError):
            connection.pack_command("SET", "k", bad)


def test_every_kind_of_connection_packs_with_hiredis() -> None:
    for url, kind in (("redis://127.0.0.1:1/0", PackedConnection), ("unix:///tmp/x.sock", PackedUnixConnection),
                      ("rediss://127.0.0.1:1/0", PackedSSLConnection)):
        client = redis_client(url)
        assert client.connection_pool.connection_class is kind, url
    sentinel = redis_client("redis+sentinel://127.0.0.1:1/0/mymaster")
    assert sentinel.connection_pool.connection_class is PackedSentinelConnection


def test_a_sentinel_fanout_leaves_the_shared_options_alone() -> None:
    """python-socketio's Sentinel connection adds the URL's options to the dict it is handed: the shared
    options (read-only) must not be that dict, or every later Sentinel client fails on a second `db`."""
    before = dict(REDIS_OPTIONS)
    fanout = Fanout("redis+sentinel://127.0.0.1:1/0/mymaster", channel="t", redis_options=dict(REDIS_OPTIONS))
    fanout._redis_connect()   # (makes the Sentinel client; connects at its first command)
    assert dict(REDIS_OPTIONS) == before
    with pytest.raises(TypeError):
        REDIS_OPTIONS["db"] = 1  # type: ignore[index]
    assert redis_client("redis+sentinel://127.0.0.1:1/0/mymaster").connection_pool.connection_class \
        is PackedSentinelConnection


async def test_a_real_redis_answers_packed_commands(redis_url: str, prefix: str) -> None:
    client = redis_client(redis_url)
    try:
        big = bytes(range(256)) * 40
        key = f"{prefix}:packed"
        async with client.pipeline(transaction=False) as pipe:
            pipe.hset(key, mapping={"state": big, "v": 7, "at": 1.25, "name": "ünï"})
            pipe.hgetall(key)
            _, stored = await pipe.execute()
        assert stored == {b"state": big, b"v": b"7", b"at": b"1.25", b"name": "ünï".encode()}
        assert await client.eval("return ARGV[1] .. ARGV[2]", 0, "a b", 3) == b"a b3"
        await client.delete(key)
    finally:
        await client.aclose()

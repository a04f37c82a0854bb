"""An action costs few turns of the event loop (bench/RESULTS.md, "Turns of the loop"): its request is
handled on its socket's reader, the service's Redis commands are written without a task of their own, and
a pipeline gives its connection back without one. Each of these was a task, and two or three turns, on
every action (python-socketio's task per event, redis-py's `wait_for` per write and `shield` per
pipeline on Python 3.11). What the tests count is the tasks made while the server works, by the names of
their coroutines: the client in this loop makes tasks of its own, which are not the server's."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from tablekit import InProcessServer, table

from server.config import REDIS_OPTIONS, PackedConnection, redis_client

SERVER_SIDE = {"_handle_event_internal", "_send_packed_command", "release"}
"""The coroutines those tasks ran: python-socketio's per event, redis-py's per write and per pipeline."""


@contextmanager
def tasks_made() -> Iterator[list[str]]:
    """The qualified names of the coroutines of the tasks the running loop makes meanwhile."""
    loop = asyncio.get_running_loop()
    made: list[str] = []
    before = loop.get_task_factory()

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
        made.append(getattr(coro, "__qualname__", repr(coro)))
        return asyncio.Task(coro, loop=loop, **kwargs)

    loop.set_task_factory(factory)
    try:
        yield made
    finally:
        loop.set_task_factory(before)


def server_side(made: list[str]) -> set[str]:
    return {name.rsplit(".", 1)[-1] for name in made} & SERVER_SIDE


async def test_a_command_and_a_pipeline_make_no_task(redis_url: str, prefix: str) -> None:
    client = redis_client(redis_url)
    try:
        await client.ping()   # (connected: the first command connects, which may make tasks of its own)
        with tasks_made() as made:
            await client.set(f"{prefix}:k", b"v")
            async with client.pipeline(transaction=False) as pipe:
                pipe.get(f"{prefix}:k")
                pipe.delete(f"{prefix}:k")
                assert await pipe.execute() == [b"v", 1]
        assert made == []
        # the connections went back to the pool: as many commands again as the pool holds go through
        for _ in range(70):
            async with client.pipeline(transaction=False) as pipe:
                pipe.ping()
                await pipe.execute()
    finally:
        await client.aclose()


async def test_an_action_is_handled_without_a_task_of_its_own(server: InProcessServer) -> None:
    room, clients = await table(server.url, 2)
    try:
        rng = random.Random(3)
        for _ in range(3):
            await clients[0].wait(lambda: any(c.my_turn(room) for c in clients))
            mover = next(c for c in clients if c.my_turn(room))
            v = mover.v(room)
            with tasks_made() as made:
                answer = await mover.call("act", {"room": room, "v": v, "action": rng.choice(mover.legal(room))})
                for c in clients:
                    await c.wait(lambda c=c, v=v: c.v(room) > v)
            assert answer["ok"], answer
            assert server_side(made) == set(), made
    finally:
        for c in clients:
            await c.close()


async def test_a_write_redis_does_not_take_times_out_and_drops_the_connection() -> None:
    """The write keeps redis-py's bound: to a peer that reads nothing (a Redis hung, a network gone), a
    command too big for the socket's buffers fails after the socket timeout, and the connection is closed."""
    accepted: list[asyncio.StreamWriter] = []

    async def sink(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)
        await reader.read(1000)   # the connection's HELLO, answered; then it reads nothing
        writer.write(b"+OK\r\n")

    listener = await asyncio.start_server(sink, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    connection = PackedConnection(host="127.0.0.1", port=port, socket_timeout=0.3, **REDIS_OPTIONS)
    try:
        await connection.connect()
        started = asyncio.get_running_loop().time()
        with pytest.raises(redis.TimeoutError):
            await connection.send_packed_command([b"x" * (64 << 20)])
        assert 0.25 <= asyncio.get_running_loop().time() - started < 5
        assert not connection.is_connected
    finally:
        await connection.disconnect()
        for writer in accepted:
            writer.close()
        listener.close()

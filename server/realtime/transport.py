"""Engine.IO's aiohttp websocket, with per-message deflate chosen by us (docs/protocol.md §9) and every
open websocket tracked, so a graceful shutdown can close them (aiohttp waits for open handlers)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import socketio
from aiohttp import WSCloseCode, web
from engineio.async_drivers import aiohttp as eio_aiohttp


class Websockets:
    """The open websockets of one Socket.IO server."""

    def __init__(self) -> None:
        self.open: set[web.WebSocketResponse] = set()

    async def close_all(self, timeout: float = 2.0) -> None:
        async def close(ws: web.WebSocketResponse) -> None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown"),
                                       timeout)
        await asyncio.gather(*(close(ws) for ws in list(self.open)))


def install_websocket(sio: socketio.AsyncServer, deflate: bool) -> Websockets:
    """Replaces this server's websocket class (the driver table is copied, never shared)."""
    tracked = Websockets()

    class TongiakiWebSocket(eio_aiohttp.WebSocket):  # type: ignore[misc]
        # Without deflate: our frames are small msgpack messages, and deflating each one costs more
        # CPU than the bytes it saves (measured by bench/load.py, see docs/protocol.md §10).
        async def __call__(self, environ: dict[str, Any]) -> web.WebSocketResponse:
            request = environ["aiohttp.request"]
            self._sock = web.WebSocketResponse(max_msg_size=self.server.max_http_buffer_size,
                                               compress=deflate)
            await self._sock.prepare(request)
            self.environ = environ
            tracked.open.add(self._sock)
            try:
                await self.handler(self)
            finally:
                tracked.open.discard(self._sock)
            return self._sock

    sio.eio._async = {**sio.eio._async, "websocket": TongiakiWebSocket}
    return tracked

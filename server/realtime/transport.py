"""Engine.IO's aiohttp websocket without per-message deflate (see docs/protocol.md §9–10)."""

from __future__ import annotations

from typing import Any

import socketio
from aiohttp import web
from engineio.async_drivers import aiohttp as eio_aiohttp


class PlainWebSocket(eio_aiohttp.WebSocket):  # type: ignore[misc]
    """python-engineio's aiohttp websocket, with `compress=False`: our frames are small msgpack messages,
    and deflating each one costs more CPU than the bytes it saves."""

    async def __call__(self, environ: dict[str, Any]) -> web.WebSocketResponse:
        request = environ["aiohttp.request"]
        self._sock = web.WebSocketResponse(max_msg_size=self.server.max_http_buffer_size, compress=False)
        await self._sock.prepare(request)
        self.environ = environ
        await self.handler(self)
        return self._sock


def use_deflate(sio: socketio.AsyncServer, deflate: bool) -> None:
    """Chooses per-message deflate for this server only (the driver table is copied, never shared)."""
    if not deflate:
        sio.eio._async = {**sio.eio._async, "websocket": PlainWebSocket}

"""TCP connections at accept, before aiohttp reads any HTTP: at most `per_address` connections at once
from one peer address (one more is closed at once), and a connection must send a complete request head
within `header_timeout` seconds of being accepted (one that sends nothing, or its head a byte at a
time, is closed then). Engine.IO's and Socket.IO's caps count finished handshakes only: 19,920 idle
connections from one address used the server's file descriptors and a new client was refused.

Behind our nginx (`forwarded_for`) the peer of every connection is the proxy, so the per-address cap
is off there and nginx's `limit_conn` and `client_header_timeout` do that work per client
(deploy/nginx.conf, docs/deploy.md); the header timeout still applies."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any, cast

from aiohttp import web

HEAD_END = b"\r\n\r\n"


class Admission:
    """The open TCP connections by peer address, the cap on them and the header read timeout."""

    def __init__(self, per_address: int, header_timeout: float,
                 refused: Callable[[str], None] = lambda reason: None) -> None:
        self.per_address, self.header_timeout, self.refused = per_address, header_timeout, refused
        self.open: dict[str, int] = {}

    def admit(self, address: str) -> bool:
        """Takes a place for one more connection from `address`, if it has one left."""
        count = self.open.get(address, 0)
        if self.per_address and count >= self.per_address:
            self.refused("tcp_per_address")
            return False
        self.open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        left = self.open.get(address, 1) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


class Guarded(asyncio.Protocol):
    """One accepted connection in front of aiohttp's protocol (made only once it is admitted): counted by
    its peer address, and closed if its first request head is not complete in time. Everything else
    goes straight through."""

    __slots__ = ("admission", "make", "inner", "address", "timer", "tail")

    def __init__(self, admission: Admission, make: Callable[[], asyncio.Protocol]) -> None:
        self.admission, self.make = admission, make
        self.inner: Any = None
        self.address = ""
        self.timer: asyncio.TimerHandle | None = None
        self.tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self.admission.admit(address):
            # at once: no HTTP read, no answer (an answer is what a flood wants)
            cast(asyncio.Transport, transport).abort()
            return
        self.address = address
        self.inner = self.make()
        if self.admission.header_timeout > 0:
            self.timer = asyncio.get_running_loop().call_later(self.admission.header_timeout, self._late,
                                                               transport)
        self.inner.connection_made(transport)

    def _late(self, transport: asyncio.BaseTransport) -> None:
        self.timer = None
        self.admission.refused("header_timeout")
        cast(asyncio.Transport, transport).abort()

    def data_received(self, data: bytes) -> None:
        if self.timer is not None:
            seen = self.tail + data
            if HEAD_END in seen:
                self.timer.cancel()
                self.timer, self.tail = None, b""
            else:
                self.tail = seen[-3:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        result: bool | None = self.inner.eof_received()
        return result

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is None:
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.admission.release(self.address)
        self.inner.connection_lost(exc)


class GuardedSite(web.SockSite):
    """aiohttp's site on a listening socket, each accepted connection passing through `Admission` first."""

    def __init__(self, runner: web.BaseRunner, sock: socket.socket, admission: Admission,
                 shutdown_timeout: float = 60.0) -> None:
        super().__init__(runner, sock, shutdown_timeout=shutdown_timeout)
        self.admission = admission

    async def start(self) -> None:
        await web.BaseSite.start(self)   # (registers the site with its runner)
        server = self._runner.server
        assert server is not None
        admission = self.admission
        self._server = await asyncio.get_running_loop().create_server(
            lambda: Guarded(admission, server), sock=self._sock, backlog=self._backlog)

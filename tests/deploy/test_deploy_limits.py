"""deploy/nginx.conf's limits per client address, with Debian's nginx on loopback in front of a stand-in
upstream (an aiohttp app that accepts websockets and holds them): sockets open at once from one address
and requests per second to /socket.io/ are capped with 429, and the upstream never sees the excess."""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from deploykit import NginxProcess, free_port, nginx_binary

NGINX_CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def conf_number(pattern: str) -> int:
    return int(re.search(pattern, NGINX_CONF.read_text())[1])  # type: ignore[index]


@pytest.fixture
async def proxy(tmp_path):
    if not nginx_binary():
        pytest.fail("needs nginx: scripts/bootstrap.sh --browser installs it")
    held: list[web.WebSocketResponse] = []
    seen = {"websockets": 0, "polls": 0}

    async def socket_io(request: web.Request) -> web.StreamResponse:
        if request.query.get("transport") == "websocket":
            seen["websockets"] += 1
            ws = web.WebSocketResponse()
            await ws.prepare(request)
            held.append(ws)
            async for _ in ws:
                pass
            return ws
        seen["polls"] += 1
        return web.Response(text="ok")

    async def healthz(request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    app = web.Application()
    app.router.add_get("/socket.io/", socket_io)
    app.router.add_get("/healthz", healthz)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    static = tmp_path / "dist"
    static.mkdir()
    (static / "index.html").write_text("stand-in")
    nginx = NginxProcess(tmp_path, [port], static).start()
    try:
        await nginx.ready()
        yield nginx, seen
    finally:
        nginx.stop()
        for ws in held:
            await ws.close()
        await runner.cleanup()


async def test_nginx_caps_sockets_per_address(proxy):
    nginx, seen = proxy
    cap = conf_number(r"location /socket.io/ \{\s*limit_conn tongiaki_conn_per_address (\d+);")
    url = nginx.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket"
    opened, refused = [], []
    async with aiohttp.ClientSession() as http:
        for _ in range(cap + 8):
            try:
                opened.append(await http.ws_connect(url))
            except aiohttp.WSServerHandshakeError as e:
                refused.append(e.status)
            await asyncio.sleep(0.06)  # under the request rate: only the connection cap may refuse
        assert len(opened) == cap and refused == [429] * 8, (len(opened), refused)
        assert seen["websockets"] == cap
        await opened.pop().close()
        await asyncio.sleep(0.1)
        opened.append(await http.ws_connect(url))           # a freed place is taken again
        for ws in opened:
            await ws.close()


async def test_nginx_limits_requests_per_address(proxy):
    nginx, seen = proxy
    burst = conf_number(r"limit_req  zone=tongiaki_req_per_address burst=(\d+) nodelay;")
    url = nginx.url + "/socket.io/?EIO=4&transport=polling"
    async with aiohttp.ClientSession() as http:
        async def get() -> int:
            async with http.get(url) as r:
                return r.status
        statuses = await asyncio.gather(*(get() for _ in range(burst * 3)))
    assert statuses.count(429) >= burst, statuses            # the excess of a burst is refused at once
    assert seen["polls"] == statuses.count(200) <= burst + 5


async def test_nginx_closes_a_connection_without_a_complete_head(proxy):
    nginx, _seen = proxy
    timeout = conf_number(r"client_header_timeout (\d+)s;")
    port = int(nginx.url.rsplit(":", 1)[1])
    silent, _ = await asyncio.open_connection("127.0.0.1", port)
    slow, slow_writer = await asyncio.open_connection("127.0.0.1", port)
    slow_writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")   # and never the end of the head
    started = asyncio.get_running_loop().time()

    async def closed(reader: asyncio.StreamReader) -> float:
        with contextlib.suppress(ConnectionError):
            await asyncio.wait_for(reader.read(), timeout + 5)   # nginx's 408 (or nothing), then the end
        return asyncio.get_running_loop().time() - started

    took = await asyncio.gather(closed(silent), closed(slow))
    assert all(timeout - 1 < t < timeout + 3 for t in took), (timeout, took)
    slow_writer.transport.abort()

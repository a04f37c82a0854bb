"""The app factory: `init_app(config)` owns the Redis client, the Socket.IO server and the timer task
through the aiohttp lifecycle (no module-level state)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import redis.asyncio as redis
import socketio
from aiohttp import web

from server.config import Config
from server.lobby import Authority, Lobby, Store, Timers, Timings
from server.lobby.embedded import EmbeddedRedis
from server.lobby.tongiaki import Tongiaki
from server.metrics import Metrics
from server.realtime.namespace import SocketOutbox, TableNamespace
from server.realtime.transport import Websockets, install_websocket
from server.realtime.wire import WirePacket

log = logging.getLogger(__name__)

CONFIG = web.AppKey("config", Config)
METRICS = web.AppKey("metrics", Metrics)
SIO = web.AppKey("sio", socketio.AsyncServer)
STORE = web.AppKey("store", Store)
LOBBY = web.AppKey("lobby", Lobby)
AUTHORITY = web.AppKey("authority", Authority)
NAMESPACE = web.AppKey("namespace", TableNamespace)
WEBSOCKETS = web.AppKey("websockets", Websockets)

NOT_BUILT = """<!doctype html><meta charset="utf-8"><title>Tongiaki Online</title>
<h1>Tongiaki Online</h1><p>The web client is not built yet (<code>client/dist/</code> is missing):
run <code>make setup</code>. The service itself is up: Socket.IO at <code>/socket.io/</code>.</p>"""


def init_app(config: Config) -> web.Application:
    """The aiohttp application serving Socket.IO, /healthz, /metrics and the web client."""
    app = web.Application()
    app[CONFIG] = config
    app[METRICS] = Metrics()
    manager = None
    if config.redis_url:
        # several processes share rooms: broadcasts fan out through Redis pub/sub
        manager = socketio.AsyncRedisManager(config.redis_url, channel=f"{config.prefix}:socketio")
    sio = socketio.AsyncServer(
        async_mode="aiohttp", serializer=WirePacket, client_manager=manager,
        cors_allowed_origins=list(config.allowed_origins) or None,  # None: same origin as Host only
        max_http_buffer_size=64 * 1024, logger=False, engineio_logger=False)
    app[WEBSOCKETS] = install_websocket(sio, config.deflate)
    sio.attach(app)
    app[SIO] = sio
    app.cleanup_ctx.append(_services)
    app.on_shutdown.append(_close_sockets)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/{path:.*}", client_files)
    return app


async def _services(app: web.Application) -> AsyncIterator[None]:
    """Redis (embedded when no URL), the store, the lobby, the authority, the namespace and the timers."""
    config = app[CONFIG]
    embedded = None
    # a bounded pool that waits for a free connection (the default one fails at once when exhausted)
    if config.redis_url:
        pool = redis.BlockingConnectionPool.from_url(config.redis_url, max_connections=64, timeout=10)
    else:
        embedded = await asyncio.to_thread(EmbeddedRedis, config.data_dir)
        pool = redis.BlockingConnectionPool(connection_class=redis.UnixDomainSocketConnection,
                                            path=embedded.socket, max_connections=64, timeout=10)
    client = redis.Redis(connection_pool=pool)
    store = Store(client, config.prefix)
    sio = app[SIO]
    proc = "s_" + secrets.token_hex(6)
    timings = Timings(tick=config.tick, presence_ttl=config.presence_ttl, finished_ttl=config.finished_ttl,
                      waiting_ttl=config.waiting_ttl, patch_log=config.patch_log, chat_log=config.chat_log)
    outbox = SocketOutbox(sio)
    lobby = Lobby(store, outbox, timings, proc)
    authority = Authority(Tongiaki(), store, outbox, lobby, app[METRICS], timings)
    namespace = TableNamespace(lobby, authority, store, config, app[METRICS])
    sio.register_namespace(namespace)
    app[STORE], app[LOBBY], app[AUTHORITY], app[NAMESPACE] = store, lobby, authority, namespace
    await store.heartbeat(proc)
    stop = asyncio.Event()
    timers = asyncio.create_task(Timers(store, lobby, authority, outbox, app[METRICS], timings, proc).run(stop))
    log.info("serving as process %s", proc)
    try:
        yield
    finally:
        stop.set()
        await timers
        with contextlib.suppress(Exception):
            await store.drop_process(proc)
        await client.aclose()
        await pool.disconnect()
        if embedded is not None:
            await asyncio.to_thread(embedded.close)


async def _close_sockets(app: web.Application) -> None:
    """Graceful shutdown: in-flight requests finish, then every socket is closed."""
    if NAMESPACE in app:
        await app[NAMESPACE].close()
        with contextlib.suppress(Exception):  # our sockets' presence records die with this
            await app[STORE].drop_process(app[LOBBY].proc)
    await app[WEBSOCKETS].close_all()
    await app[SIO].shutdown()


async def healthz(request: web.Request) -> web.Response:
    """200 when Redis answers, else 503."""
    try:
        await asyncio.wait_for(request.app[STORE].ping(), 2.0)
    except Exception as e:  # noqa: BLE001 - any failure means unhealthy
        return web.json_response({"ok": False, "redis": str(e)[:200]}, status=503)
    return web.json_response({"ok": True})


async def metrics(request: web.Request) -> web.Response:
    """Prometheus text exposition."""
    counts = await request.app[LOBBY].rooms_by_status()
    return web.Response(text=request.app[METRICS].render(counts), content_type="text/plain",
                        charset="utf-8", headers={"X-Content-Type-Options": "nosniff"})


async def client_files(request: web.Request) -> web.StreamResponse:
    """The built web client from client/dist/ (index.html at /), or a plain note when it is not built."""
    root = request.app[CONFIG].client_dir.resolve()
    index = root / "index.html"
    if not index.is_file():
        return web.Response(text=NOT_BUILT, content_type="text/html")
    wanted = request.match_info["path"]
    target = (root / wanted).resolve() if wanted else index
    if not target.is_relative_to(root):
        raise web.HTTPNotFound()
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(Path(target))

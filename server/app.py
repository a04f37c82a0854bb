"""The app factory: `init_app(config)` owns the Redis client, the Socket.IO server and the timer task
through the aiohttp lifecycle (no module-level state)."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import sys
import time
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import socketio
from aiohttp import web
from redis.exceptions import RedisError

from server.bots import DEFAULT_LEVEL, LEVELS
from server.bots.worker import CLASSES, QUICK, BotQueue
from server.config import REDIS_OPTIONS, Config, redis_client
from server.lobby import Authority, Lobby, Store, Timers, Timings
from server.lobby.alarm import Alarm
from server.lobby.embedded import EmbeddedRedis
from server.lobby.keeper import LiveRecords
from server.lobby.modes import MODES
from server.lobby.offload import Offload
from server.lobby.rooms import BotLevels
from server.logs import LogBudget
from server.metrics import CONTENT_TYPE, Metrics
from server.notify import api as notify_api
from server.notify.facts import FactStream
from server.notify.reach import Reaches
from server.notify.worker import channels_of
from server.realtime.accept import Admission
from server.realtime.fanout import Fanout, LocalManager
from server.realtime.namespace import SocketOutbox, TableNamespace
from server.realtime.transport import (
    Malformed,
    Websockets,
    cap_sessions,
    client_address,
    count_malformed,
    install_websocket,
    polling_guard,
    release_closed,
)
from server.realtime.wire import WirePacket
from server.records import Records, api
from server.tutorial import http as tutorial_http
from server.workers import Helper

log = logging.getLogger(__name__)

CONFIG = web.AppKey("config", Config)
METRICS = web.AppKey("metrics", Metrics)
SIO = web.AppKey("sio", socketio.AsyncServer)
STORE = web.AppKey("store", Store)
LOBBY = web.AppKey("lobby", Lobby)
AUTHORITY = web.AppKey("authority", Authority)
NAMESPACE = web.AppKey("namespace", TableNamespace)
WEBSOCKETS = web.AppKey("websockets", Websockets)
LOG_BUDGET = web.AppKey("log_budget", LogBudget)
CLOSED = web.AppKey("closed", list[str])
"""What the shutdown closed, in order, for the process's stop line (server/__main__.py)."""
MAIN = web.AppKey("main", web.Application)
BOTS = web.AppKey("bots", BotQueue)
ADMISSION = web.AppKey("admission", Admission)

FRAME_LIMIT = 64 * 1024
"""Bytes of one Engine.IO frame (websocket message or long-polling POST): docs/protocol.md §2."""

SHUTDOWN_STEP = 5.0
"""Seconds one step of the shutdown may take before it is left behind (`_within`)."""

IN_FLIGHT = 5.0
"""Seconds the requests in flight get to finish at shutdown, before the sockets are told goodbye."""

METRICS_LEASE = 30.0
"""Seconds the replica exporting the cluster-wide figures keeps that role without a scrape."""

NOT_BUILT = """<!doctype html><meta charset="utf-8"><title>Tongiaki Online</title>
<h1>Tongiaki Online</h1><p>The web client is not built yet (<code>client/dist/</code> is missing):
run <code>make setup</code>. The service itself is up: Socket.IO at <code>/socket.io/</code>.</p>"""


def init_app(config: Config) -> web.Application:
    """The aiohttp application serving Socket.IO, /healthz, /metrics and the web client."""
    manager = None
    if config.redis_url:
        # several processes share rooms: broadcasts fan out through Redis pub/sub
        # (the namespace comes later, with the services: its sockets are looked up when a resync is due)
        manager = Fanout(config.redis_url, channel=f"{config.prefix}:socketio", redis_options=dict(REDIS_OPTIONS),
                         local_sids=lambda: list(app[NAMESPACE].connections) if NAMESPACE in app else [])
    sio = socketio.AsyncServer(
        async_mode="aiohttp", serializer=WirePacket, client_manager=manager or LocalManager(),
        cors_allowed_origins=list(config.allowed_origins) or None,  # None: same origin as Host only
        max_http_buffer_size=FRAME_LIMIT, logger=False, engineio_logger=False,
        # a request is handled on its socket's reader, not in a task of its own (a task and a turn of the
        # loop per request): a socket's requests are answered in the order sent, one at a time
        async_handlers=False)
    app = web.Application(middlewares=[polling_guard(sio, FRAME_LIMIT)])
    app[CONFIG] = config
    app[METRICS] = Metrics()
    app[CLOSED] = []
    # TCP connections at accept (a GuardedSite serves the app with it: server/realtime/accept.py); behind
    # our nginx every peer is the proxy, whose limit_conn caps each client instead
    app[ADMISSION] = Admission(0 if config.forwarded_for else config.tcp_per_address, config.header_timeout,
                               app[METRICS].refused_connection)
    app[WEBSOCKETS] = install_websocket(sio, config.deflate, config.write_timeout,
                                        app[METRICS].dropped_slow_socket)
    # Engine.IO sessions per address: a little above the Socket.IO cap (which answers with a reason),
    # so transports opened without a Socket.IO connection are bounded too
    cap_sessions(sio, config.connections_per_address and config.connections_per_address + 8,
                 config.forwarded_for)
    release_closed(sio, app[METRICS].closed_session)
    app[LOG_BUDGET] = LogBudget()   # log lines about one client address, transport and namespace alike
    count_malformed(sio, Malformed(app[LOG_BUDGET], closed=lambda: app[METRICS].refused_connection("malformed")))
    sio.attach(app)
    app[SIO] = sio
    app.cleanup_ctx.append(_services)
    app.on_shutdown.append(_close_sockets)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
    tutorial_http.install(app)
    notify_api.install(app)   # before the records' catch-all of /api/
    # after the routes above, before the web client's catch-all
    api.install(app)
    app.router.add_get("/{path:.*}", client_files)
    return app


async def _services(app: web.Application) -> AsyncIterator[None]:
    """Redis (embedded when no URL), the store, the lobby, the authority, the namespace and the timers."""
    config = app[CONFIG]
    embedded = None
    # a bounded pool that waits for a free connection (the default one fails at once when exhausted)
    if config.redis_url:
        url = config.redis_url
    else:
        embedded = EmbeddedRedis(config.data_dir)   # from the main thread: it dies with it (embedded.py)
        url = f"unix://{embedded.socket}"   # (the bot workers connect by it too)
    client = redis_client(url)
    pool = getattr(client, "connection_pool", None)   # (a cluster client has one per node)
    # the timer loop's alarm: every timer this process sets rings it (the store's timers, an action's commit
    # included), so the loop sleeps until its next check, not a tick at a time
    alarm = Alarm()
    store = Store(client, config.prefix, on_schedule=alarm.nudge)
    sio = app[SIO]
    proc = "s_" + secrets.token_hex(6)
    timings = Timings(tick=config.tick, presence_ttl=config.presence_ttl, finished_ttl=config.finished_ttl,
                      waiting_ttl=config.waiting_ttl, patch_log=config.patch_log, chat_log=config.chat_log,
                      rooms_per_person=config.rooms_per_person, search_bots=config.search_bots,
                      rooms_per_address=config.rooms_per_address, listing=config.lobby_listing)
    outbox = SocketOutbox(sio)
    lobby = Lobby(store, outbox, timings=timings, proc=proc, modes=MODES, levels=BotLevels(LEVELS, DEFAULT_LEVEL))
    bots = app[BOTS] = BotQueue(client, config.prefix, proc, config.bot_reclaim)
    offload = Offload(config.loop_slice, app[METRICS].offloaded)
    # notifications (server/notify/): facts told only when some channel is configured
    mailer, pusher = channels_of(config)
    app[notify_api.STATUS] = {"mail": mailer is not None, "push": pusher is not None,
                              "vapid": pusher.public if pusher is not None else None}
    facts = app[notify_api.FACTS] = FactStream(client, config.prefix)
    app[notify_api.REACHES], app[notify_api.NOTIFY_STORE] = Reaches(client, config.prefix), store
    app[notify_api.PERSON] = lambda request: _viewer(store, request)
    records = app[api.RECORDS] = Records(client, config.prefix, config.record_ttl)
    authority = Authority(MODES, store, outbox=outbox, lobby=lobby, metrics=app[METRICS], timings=timings, bots=bots,
                          live_games=config.live_games, offload=offload, facts=facts if mailer or pusher else None,
                          records=records)
    app[api.LIVE] = LiveRecords(store, MODES).record
    app[api.VIEWER] = lambda request: _viewer(store, request)
    app[api.ADDRESS] = app[notify_api.ADDRESS] = lambda request: client_address(
        {"HTTP_X_FORWARDED_FOR": request.headers.get("X-Forwarded-For", ""), "REMOTE_ADDR": request.remote or ""},
        config.forwarded_for)
    namespace = TableNamespace(lobby, authority, store=store, config=config, metrics=app[METRICS],
                               log_budget=app[LOG_BUDGET])
    sio.register_namespace(namespace)
    app[STORE], app[LOBBY], app[AUTHORITY], app[NAMESPACE] = store, lobby, authority, namespace
    await store.heartbeat(proc, silent_after=time.time() - timings.presence_ttl)
    stop = asyncio.Event()
    timers = asyncio.create_task(Timers(store, lobby, authority=authority, outbox=outbox, metrics=app[METRICS],
                                        timings=timings, proc=proc, alarm=alarm).run(stop))
    answers = asyncio.create_task(_bot_answers(bots, authority, stop))
    workers = await _start_bot_workers(config, url)
    if config.notifier and (mailer or pusher):
        workers.append(await _start_notifier(config, url))
    log.info("serving as process %s (event loop: %s)", proc,
             type(asyncio.get_running_loop()).__module__.split(".")[0])
    app[METRICS].pauses.install()
    try:
        yield
    finally:
        app[METRICS].pauses.remove()
        stop.set()
        closed = app[CLOSED]
        await _within("the timer loop", timers)
        await asyncio.gather(*(w.stop() for w in workers))   # bounded: a helper that does not stop is killed
        closed.append(f"{len(workers)} bot workers and notifiers")
        offload.close()
        answers.cancel()
        await _within("the bot answers", answers)
        await _within("dropping this process's presence", store.drop_process(proc))
        if await _within("closing the Redis client", client.aclose()):
            closed.append("the Redis client")
        if pool is not None:
            await _within("closing the Redis pool", pool.disconnect())
        if embedded is not None:
            await asyncio.to_thread(embedded.close)   # it saves first
            closed.append("the embedded Redis (saved)")


async def _viewer(store: Store, request: web.Request) -> str | None:
    """The person whose session token a request carries (`Authorization: Bearer <token>`), or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not 0 < len(token) <= 200:
        return None
    found = await store.people.session(token.strip())
    return found[0] if found else None


async def _within(what: str, step: Awaitable[Any], seconds: float | None = None) -> bool:
    """One step of the shutdown, bounded and on its own: a step that fails is logged, and one that hangs
    (a peer that never answers a close) is cancelled and left behind, so the process still stops, and its
    embedded Redis and bot workers with it. The step runs as a task and is not awaited once cancelled: a
    step that swallowed the cancellation would otherwise hang the shutdown all the same."""
    task = asyncio.ensure_future(step)
    seconds = seconds or SHUTDOWN_STEP
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        task.cancel()
        log.warning("shutdown: %s took over %.0f s; left behind", what, seconds)
        return False
    if not task.cancelled() and task.exception() is not None:
        log.warning("shutdown: %s failed (%r)", what, task.exception())
        return False
    return True


async def _bot_answers(bots: BotQueue, authority: Authority, stop: asyncio.Event) -> None:
    """Applies the actions the bot workers chose (server/bots/worker.py), whichever process posted the job."""
    while not stop.is_set():
        try:
            async for job, action in bots.results(stop):
                await authority.bot_done(job, action)
        except asyncio.CancelledError:
            raise
        except RedisError:   # Redis away (the timer loop says so once): try again shortly
            await asyncio.sleep(1.0)
        except Exception:
            log.exception("applying a bot's answer")
            await asyncio.sleep(0.1)


async def _start_bot_workers(config: Config, url: str) -> list[Helper]:
    """This process's own bot workers (`tongiaki bots`), which never outlive it: `bot_workers` taking every
    class of job, and (when there are any) one more that never searches, so random and greedy bots, clocks
    and takeovers are answered within milliseconds however many searches wait (server/bots/worker.py)."""
    env = {**os.environ, "REDIS_URL": url, "TONGIAKI_PREFIX": config.prefix, "TONGIAKI_BOTS_OF": str(os.getpid()),
           "TONGIAKI_BOT_RECLAIM": str(config.bot_reclaim)}
    kinds = [CLASSES] * config.bot_workers + [QUICK] * (config.bot_workers > 0)
    return [await Helper(f"bot worker {i} ({','.join(k)})", [sys.executable, "-m", "server", "bots", "--classes",
                                                          ",".join(k)], env).start()
            for i, k in enumerate(kinds)]


async def _start_notifier(config: Config, url: str) -> Helper:
    """This process's notifier (`tongiaki notify`, server/notify/worker.py), which never outlives it."""
    env = {**os.environ, "REDIS_URL": url, "TONGIAKI_PREFIX": config.prefix, "TONGIAKI_NOTIFIER_OF": str(os.getpid())}
    return await Helper("notifier", [sys.executable, "-m", "server", "notify"], env).start()


async def _close_sockets(app: web.Application) -> None:
    """Graceful shutdown: in-flight requests finish, then every socket is closed."""
    if NAMESPACE in app:
        sockets = len(app[NAMESPACE].connections)
        if await _within("closing the sockets", app[NAMESPACE].close(IN_FLIGHT), IN_FLIGHT + SHUTDOWN_STEP):
            app[CLOSED].append(f"{sockets} sockets")
        # our sockets' presence records die with this
        await _within("dropping this process's presence", app[STORE].drop_process(app[LOBBY].proc))
    await _within("closing the websockets", app[WEBSOCKETS].close_all())
    await _within("stopping Socket.IO", app[SIO].shutdown())
    if isinstance(app[SIO].manager, Fanout) and await _within("closing pub/sub", app[SIO].manager.aclose()):
        app[CLOSED].append("pub/sub")


async def healthz(request: web.Request) -> web.Response:
    """Liveness: 200 whenever the process serves HTTP. Redis is not asked: an outage of Redis must not
    make an orchestrator restart every replica (readiness, /readyz, says whether to send traffic)."""
    return web.json_response({"ok": True}, headers={"Cache-Control": "no-store"})


async def readyz(request: web.Request) -> web.Response:
    """Readiness: 200 when Redis answers and the process is not shutting down, else 503 with the reason."""
    namespace = request.app.get(NAMESPACE)
    if namespace is None or namespace.closing:
        return web.json_response({"ok": False, "reason": "shutting down" if namespace else "starting"},
                                 status=503, headers={"Cache-Control": "no-store"})
    try:
        await asyncio.wait_for(request.app[STORE].ping(), 2.0)
    except Exception:  # noqa: BLE001 - any failure means not ready; its text (Redis's address) stays inside
        return web.json_response({"ok": False, "reason": "redis unreachable"},
                                 status=503, headers={"Cache-Control": "no-store"})
    return web.json_response({"ok": True}, headers={"Cache-Control": "no-store"})


async def metrics(request: web.Request) -> web.Response:
    """Prometheus text exposition (`_exposition`)."""
    return await _exposition(request.app)


def metrics_app(app: web.Application) -> web.Application:
    """`/metrics` of `app` alone, for a worker's own metrics port (`--metrics-port`): with several
    workers on one port, the kernel picks which one answers the main port's /metrics."""
    side = web.Application()
    side[MAIN] = app
    side.router.add_get("/metrics", lambda request: _exposition(request.app[MAIN]))
    return side


async def _exposition(app: web.Application) -> web.Response:
    """Cheap whatever the number of rooms: the process's own figures, plus a few counts from Redis on the
    one replica holding the metrics lease (none when Redis is away)."""
    cluster, redis_up, bot_jobs = None, False, None
    if LOBBY in app:
        lobby = app[LOBBY]
        try:
            cluster = await asyncio.wait_for(app[STORE].cluster_figures(
                lobby.proc, lease=METRICS_LEASE, alive_after=time.time() - lobby.timings.presence_ttl), 1.0)
            redis_up = True
            if cluster is not None:   # cluster-wide too: the lease holder alone
                bot_jobs = await asyncio.wait_for(app[BOTS].waiting_by_class(), 1.0)
        except Exception:  # noqa: BLE001 - Redis away: the process's own figures still matter most
            pass
    manager = app[SIO].manager
    app[METRICS].lost_broadcasts = manager.dropped if isinstance(manager, Fanout) else 0
    body = app[METRICS].render(cluster, redis_up, bot_jobs)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE, "X-Content-Type-Options": "nosniff"})


HASHED_NAME = re.compile(r"\w-[A-Z0-9]{8}\.(?:js|css)(?:\.map)?$")
"""A file of the client's build named with a hash of its content (client/build.mjs): what it holds never changes."""

IMMUTABLE = "public, max-age=31536000, immutable"
"""Cache-Control of a hashed file: a year, not even revalidated (a new build has new names)."""


async def client_files(request: web.Request) -> web.StreamResponse:
    """The built web client from client/dist/ (index.html at /), or a plain note when it is not built.
    Hashed files are cached for good, the rest (the page) revalidated at every load; a file's precompressed
    copy beside it (.br, .gz, written by the build) is sent where the browser accepts it (aiohttp's
    FileResponse picks it by Accept-Encoding)."""
    root = request.app[CONFIG].client_dir.resolve()
    index = root / "index.html"
    if not index.is_file():
        return web.Response(text=NOT_BUILT, content_type="text/html", headers={"Cache-Control": "no-cache"})
    wanted = request.match_info["path"]
    target = (root / wanted).resolve() if wanted else index
    if not target.is_relative_to(root):
        raise web.HTTPNotFound()
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        raise web.HTTPNotFound()
    cache = IMMUTABLE if HASHED_NAME.search(target.name) else "no-cache"
    return web.FileResponse(Path(target), headers={"Cache-Control": cache, "Vary": "Accept-Encoding"})

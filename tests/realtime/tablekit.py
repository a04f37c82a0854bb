"""Test kit: real python-socketio clients that keep the room stream the way docs/protocol.md says, a
server started through the real app factory, and helpers to play whole games with random legal moves."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import random
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import socketio
from aiohttp import web
from rediskit import stop_process

from server import patch
from server.app import ADMISSION, init_app
from server.config import Config
from server.lobby import Store
from server.lobby.modes import MODES
from server.realtime.accept import GuardedSite
from server.workers import bound

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 10.0


PROTOCOL = 2


class Client:
    """One socket. It records every message it receives, keeps each joined room's (v, view) by applying
    patches, buffers messages that arrive before its join answer, catches up on gaps with `since`, and
    keeps the legal actions it is sent when it is to decide (`legal` events and catch-up answers)."""

    def __init__(self, name: str = "player", source: str | None = None) -> None:
        """`source`: a loopback address to connect from (127.0.0.2, ...: another client address)."""
        self.name = name
        self.http = None
        if source:
            import aiohttp

            self.http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
        self.sio = socketio.AsyncClient(serializer="msgpack", reconnection=False, http_session=self.http)
        self.session: dict[str, Any] = {}
        self.received: list[tuple[str, Any]] = []      # (event, payload) in arrival order
        self.views: dict[str, tuple[int, Any]] = {}    # room -> (v, view)
        self.legals: dict[str, tuple[int, list[Any]]] = {}  # room -> (v, legal actions at v)
        self.rooms: dict[str, dict[str, Any]] = {}     # room -> last RoomState
        self.lobby: list[dict[str, Any]] = []
        self.pending: dict[str, list[dict[str, Any]]] = {}  # messages before the join answer
        self.catchups = {"messages": 0, "snapshot": 0}
        self.changed = asyncio.Condition()
        for event in ("session", "room", "game", "legal", "chat", "lobby"):
            self.sio.on(event, self._handler(event))

    def _handler(self, event: str) -> Callable[[Any], Any]:
        async def handle(data: Any) -> None:
            self.received.append((event, data))
            if event == "session":
                self.session = data
            elif event == "room":
                held = self.rooms.get(data["id"])
                if held is None or held["rev"] <= data["rev"]:
                    self.rooms[data["id"]] = data
            elif event == "lobby":
                self.lobby.append(data)
            elif event == "game":
                await self._game(data)
            elif event == "legal":
                self._legal(data)
            async with self.changed:
                self.changed.notify_all()
        return handle

    async def _game(self, message: dict[str, Any]) -> None:
        room = message["room"]
        if room in self.pending:
            self.pending[room].append(message)
            return
        if room not in self.views:
            if message["v"] == 0:  # the first message of a game sets the whole view
                self.views[room] = (0, patch.apply(None, message["patch"]))
            return
        v, view = self.views[room]
        if message["v"] <= v:
            return
        if message["v"] == v + 1:
            self.views[room] = (message["v"], patch.apply(view, message["patch"]))
            return
        await self.since(room)

    def _legal(self, payload: dict[str, Any]) -> None:
        held = self.legals.get(payload["room"])
        if held is None or held[0] <= payload["v"]:
            self.legals[payload["room"]] = (payload["v"], payload["actions"])

    async def since(self, room: str) -> dict[str, Any]:
        v = self.views[room][0] if room in self.views else 0
        answer = await self.call("since", {"room": room, "v": v})
        assert answer["ok"], answer
        self._absorb(room, answer)
        return answer

    def _absorb(self, room: str, answer: dict[str, Any]) -> None:
        if answer.get("legal"):
            self._legal(answer["legal"])
        if answer.get("snapshot"):
            self.catchups["snapshot"] += 1
            snap = answer["snapshot"]
            if room not in self.views or self.views[room][0] < snap["v"]:
                self.views[room] = (snap["v"], snap["view"])
        elif answer.get("messages") is not None:
            self.catchups["messages"] += 1
            for m in answer["messages"]:
                v, view = self.views[room]
                if m["v"] == v + 1:
                    self.views[room] = (m["v"], patch.apply(view, m["patch"]))

    # -- requests ----------------------------------------------------------------------------------
    async def connect(self, url: str, token: str | None = None, name: str | None = None,
                      headers: dict[str, str] | None = None) -> Client:
        auth: dict[str, Any] = {"protocol": PROTOCOL}
        if token:
            auth["token"] = token
        if name:
            auth["name"] = name
        await self.sio.connect(url, auth=auth, transports=["websocket"], headers=headers or {},
                               wait_timeout=TIMEOUT)
        await self.wait(lambda: bool(self.session))
        return self

    async def call(self, event: str, data: Any = None, timeout: float = TIMEOUT) -> Any:
        answer = await self.sio.call(event, {} if data is None else data, timeout=timeout)
        self.received.append((f"ack:{event}", answer))  # acknowledgements are messages too
        return answer

    async def ok(self, event: str, data: Any = None) -> dict[str, Any]:
        answer = await self.call(event, data)
        assert answer["ok"], (event, data, answer)
        return answer

    async def join(self, room: str, since: int | None = None) -> dict[str, Any]:
        self.pending[room] = []
        data: dict[str, Any] = {"room": room}
        if since is not None:
            data["since"] = since
        answer = await self.ok("room_join", data)
        self.rooms[room] = answer["room"]
        if answer["game"] and answer["game"].get("v") is not None:
            self._absorb(room, answer["game"])
        for message in self.pending.pop(room):
            await self._game(message)
        return answer

    async def wait(self, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        async with asyncio.timeout(timeout):
            async with self.changed:
                await self.changed.wait_for(predicate)

    async def wait_healing(self, room: str, predicate: Callable[[], bool], quiet: float = 10.0,
                           most: float = 60.0) -> None:
        """`wait`, asking `since` after each `quiet` seconds without the predicate coming true, as the
        browser's watchdog does (docs/protocol.md §5): a message lost while a server process died is
        healed by that answer. Fails after `most` seconds."""
        for _ in range(int(most / quiet)):
            with contextlib.suppress(TimeoutError):
                await self.wait(predicate, timeout=quiet)
                return
            await self.since(room)
        await self.wait(predicate, timeout=quiet)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.sio.disconnect()
        if self.http is not None:
            await self.http.close()

    # -- the game ----------------------------------------------------------------------------------
    def view(self, room: str) -> Any:
        return self.views[room][1]

    def v(self, room: str) -> int:
        return self.views[room][0]

    def over(self, room: str) -> bool:
        return room in self.views and self.views[room][1]["phase"] == "over"

    def my_colours(self, room: str) -> set[str]:
        me = self.session["person"]
        return {c for s in self.rooms[room]["seats"] if s["person"] == me for c in s["colours"]}

    def my_turn(self, room: str) -> bool:
        """This client is to decide, and holds the legal actions of the current version."""
        if room not in self.views:
            return False
        pending = self.views[room][1].get("pending")
        return (bool(pending) and pending["colour"] in self.my_colours(room)
                and self.legals.get(room, (None,))[0] == self.v(room))

    def legal(self, room: str) -> list[Any]:
        """The legal actions of the current version (this client must be the one to decide)."""
        v, actions = self.legals[room]
        assert v == self.v(room), (v, self.v(room))
        return actions

    async def play(self, room: str, rng: random.Random, stop_at: int | None = None) -> int:
        """Plays random legal actions for this client's seats until the game ends (or version stop_at).
        Returns how many of its actions were accepted."""
        accepted = 0
        while True:
            await self.wait_healing(room, lambda: self.over(room) or self.my_turn(room)
                                    or (stop_at is not None and self.v(room) >= stop_at))
            if self.over(room) or (stop_at is not None and self.v(room) >= stop_at):
                return accepted
            v, view = self.views[room]
            answer = await self.call("act", {"room": room, "v": v, "action": rng.choice(self.legal(room))})
            if answer["ok"]:
                accepted += 1
                await self.wait(lambda v=v: self.v(room) > v)
            elif answer["error"]["code"] == "rate_limited":
                await asyncio.sleep(0.2)  # as a client should: the limit refills at 20 requests a second
            else:
                assert answer["error"]["code"] == "stale_version", answer
                await self.wait(lambda v=v: self.v(room) > v)


async def table(url: str, humans: int, seats: int | None = None, bots: int = 0,
                **settings: Any) -> tuple[str, list[Client]]:
    """A started room with `humans` connected clients seated in order, the rest bots."""
    seats = seats or humans + bots
    clients = [await Client(f"p{i}").connect(url, name=f"P{i}") for i in range(humans)]
    host = clients[0]
    created = await host.ok("room_create", {"name": "test table", "seats": seats,
                                            **{"bot_pace": 0, "grace": 30, **settings}})
    room = created["room"]["id"]
    await host.join(room)
    for i, c in enumerate(clients[1:], start=1):
        await c.join(room)
        await c.ok("sit", {"room": room, "seat": i})
    await host.ok("room_start", {"room": room, "fill_with_bots": bots > 0})
    for c in clients:
        await c.wait(lambda c=c: room in c.views and c.rooms[room]["status"] == "playing")
    return room, clients


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class InProcessServer:
    """The real app factory on a loopback port, in this event loop."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.app = init_app(config)
        self.runner = web.AppRunner(self.app, handle_signals=False)
        self.url = ""

    async def start(self) -> InProcessServer:
        await self.runner.setup()
        port = free_port()
        # each connection through the caps at accept, as `tongiaki serve` has it
        sock = bound("127.0.0.1", port, False)
        sock.listen(1024)
        site = GuardedSite(self.runner, sock, self.app[ADMISSION])
        await site.start()
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def stop(self, within: float = 120.0) -> None:
        """Stops it as SIGTERM would; a shutdown that hangs fails the test with every task's stack (each
        step of a shutdown is bounded, server/app.py `_within`, so this names a new unbounded wait)."""
        cleanup = asyncio.ensure_future(self.runner.cleanup())
        done, _ = await asyncio.wait({cleanup}, timeout=within)
        if not done:
            stacks = io.StringIO()
            for task in asyncio.all_tasks():
                task.print_stack(file=stacks)
            raise AssertionError(f"the server did not stop within {within:.0f} s; its tasks:\n{stacks.getvalue()}")
        cleanup.result()


class ServerProcess:
    """`python -m server serve` as a real subprocess on a loopback port."""

    def __init__(self, redis_url: str, prefix: str, tmp: Path, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"server-{self.port}.log"
        environ = {**os.environ, "REDIS_URL": redis_url, "TONGIAKI_PREFIX": prefix, "TONGIAKI_TICK": "0.01",
                   "TONGIAKI_PRESENCE_TTL": "3", **env}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--log-level", "warning", "--workers", "1"], cwd=ROOT, env=environ, stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT)

    async def ready(self, timeout: float = 20.0) -> ServerProcess:
        import aiohttp

        async with asyncio.timeout(timeout), aiohttp.ClientSession() as http:
            while True:
                assert self.proc.poll() is None, self.log.read_text()
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(self.url + "/healthz") as r:
                        if r.status == 200:
                            return self
                await asyncio.sleep(0.05)  # polling a starting process: there is no event to wait on

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        stop_process(self.proc, 10)


def walk(value: Any) -> Any:
    """Every node of a decoded message."""
    yield value
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from walk(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from walk(v)


def packed(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


async def stored_view(store: Store, room: str) -> dict[str, Any]:
    """The stored game's version and public view, `{v, view}`, as a snapshot gives them: the view is not
    stored, it is computed from the stored state by the room's rule set, as the authority does."""
    found, _raw, game = await store.room_and_game(room)
    assert found is not None and game is not None, f"no game stored for {room}"
    return {"v": game.v, "view": MODES[found.settings.game].load(game.state).public_view()}


async def people(url: str, made: list[Client], *names: str) -> list[Client]:
    """Connected clients with these display names (appended to `made` to be closed later)."""
    out = [await Client(n).connect(url, name=n) for n in names]
    made.extend(out)
    return out

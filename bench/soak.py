"""Soak under attack: normal rooms play while attackers run, all on loopback, against one `tongiaki serve`
process (embedded Redis). Each attacker (ATTACKS) runs alone for a phase, then all of them at
once; every `--every` seconds it prints the attacker of the moment, the normal players' action
round-trip p50/p99 in that window, the server's resident memory and Redis's `used_memory` (INFO memory),
then per attacker the players' p99 over its phase, and a summary.

    python -m bench.soak [--rooms 6] [--duration 60] [--every 5] [--attacks sockets,records,...]

Normal players connect from 127.0.0.1, each attacker from its own loopback address (127.0.0.x), so the
per-address caps bind the attackers and not the players. The attackers (ATTACKS): the socket abusers —
slow readers (never read, flood `room_join {since: 0}`), log bombs (payloads 400 levels deep, packet types
4/5/6, empty frames), identity switchers (`connect` events), a lobby flooder (rooms up to the cap,
`lobby_watch` from four sockets), a chat spammer with eleven sockets, a seat squatter (sits in waiting
rooms and drops), a connection flood (100 sockets and 100 bare Engine.IO transports at once from one
address) — then a records API flood (`GET /api/games/<id>` of a live game, 100/s), Engine.IO
garbage frames (websocket and long-polling), bot starvation (rooms full of search bots from throwaway
people), TCP holds (400 idle connections), a room flood and a session flood (token-less connections)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import psutil
import socketio

from bench.load import free_port, server_cpu, wait_healthy
from bench.rawsocket import RawSocket

ROOT = Path(__file__).resolve().parents[1]


def nested(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


class Stats:
    """Round trips of the normal players' actions, and what the attackers managed."""

    def __init__(self) -> None:
        self.window: list[float] = []
        self.all: list[float] = []
        self.games = 0
        self.errors: dict[str, int] = {}
        self.attacks: dict[str, int] = {}

    def hit(self, kind: str, n: int = 1) -> None:
        self.attacks[kind] = self.attacks.get(kind, 0) + n


async def client(url: str, source: str, http: aiohttp.ClientSession, tokens: list[str] | None = None,
                 **auth: Any) -> socketio.AsyncClient:
    """A socket from `source`; with `tokens`, one person's session kept in `tokens[0]` from one connection
    to the next, as a browser keeps it."""
    sio = socketio.AsyncClient(serializer="msgpack", reconnection=False, http_session=http)
    if tokens is not None:
        if tokens[0]:
            auth["token"] = tokens[0]
        sio.on("session", lambda data: tokens.__setitem__(0, data["token"]))
    await sio.connect(url, auth={"protocol": 2, **auth}, transports=["websocket"], wait_timeout=10)
    return sio


def session(source: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0), limit=0))


STALLED = 60.0
"""Seconds without a game message after which a normal room counts as stalled (a bot away past the grace
period is replaced within 30 s) and starts again."""


# -- normal play --------------------------------------------------------------------------------------
async def normal_room(url: str, stats: Stats, stop: asyncio.Event, seed: int) -> None:
    """Two people and two bots play games back to back; each person acts on its `legal` event."""
    rng = random.Random(seed)
    people: list[list[str]] = [[""], [""]]   # the same two people game after game, not new ones every game
    async with session("127.0.0.1") as http:
        while not stop.is_set():
            over = asyncio.Event()
            seated: list[socketio.AsyncClient] = []
            room: dict[str, str] = {}
            heard = [time.monotonic()]   # when a game message last came: a game that stops moving is a failure

            def player(sio: socketio.AsyncClient, over: asyncio.Event = over, heard: list[float] = heard) -> None:
                async def on_legal(data: dict[str, Any]) -> None:
                    await asyncio.sleep(rng.uniform(0.05, 0.3))   # a person thinks a little
                    sent = time.monotonic()
                    try:
                        answer = await sio.call("act", {"room": data["room"], "v": data["v"],
                                                        "action": rng.choice(data["actions"])}, timeout=10)
                    except Exception as e:  # noqa: BLE001 - a timeout is a figure too
                        # unless the game ended and its players left (disconnected) before the answer came
                        late = over.is_set() or not isinstance(e, socketio.exceptions.TimeoutError)
                        kind = "left before the answer" if late else "timeout"
                        stats.errors[kind] = stats.errors.get(kind, 0) + 1
                        return
                    took = time.monotonic() - sent
                    stats.window.append(took)
                    stats.all.append(took)
                    if not answer["ok"]:
                        code = answer["error"]["code"]
                        stats.errors[code] = stats.errors.get(code, 0) + 1

                async def on_room(data: dict[str, Any]) -> None:
                    if data.get("status") == "finished":
                        over.set()

                async def on_game(data: dict[str, Any]) -> None:
                    heard[0] = time.monotonic()

                sio.on("legal", on_legal)
                sio.on("room", on_room)
                sio.on("game", on_game)

            try:
                # (inside the try: a failed connection is counted and the room starts again; before, one
                # killed the room's task, quietly, and the run went on with fewer rooms)
                for person in people:
                    seated.append(await client(url, "127.0.0.1", http, person))
                host, guest = seated
                player(host)
                player(guest)
                created = await host.call("room_create", {"name": f"normal {seed}", "seats": 4, "bot_pace": 0.2,
                                                          "grace": 30}, timeout=10)
                room["id"] = created["room"]["id"]
                await guest.call("room_join", {"room": room["id"]}, timeout=10)
                await guest.call("sit", {"room": room["id"], "seat": 1}, timeout=10)
                await host.call("room_start", {"room": room["id"], "fill_with_bots": True}, timeout=10)
                while not (over.is_set() or stop.is_set()):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(over.wait(), 1.0)
                    if time.monotonic() - heard[0] > STALLED:
                        raise TimeoutError(f"no game message for {STALLED:.0f} s")
                if over.is_set():
                    stats.games += 1
            except Exception as e:  # noqa: BLE001
                kind = f"room ({type(e).__name__}: {str(e)[:80]})"
                stats.errors[kind] = stats.errors.get(kind, 0) + 1
                await asyncio.sleep(1)
            finally:
                for sio in seated:
                    with contextlib.suppress(Exception):
                        await sio.disconnect()


# -- attackers ------------------------------------------------------------------------------------------
async def forever(stop: asyncio.Event, attack: Any) -> None:
    """Runs one attack again and again (each run may be cut off by the server) until `stop`."""
    while not stop.is_set():
        try:
            await attack()
        except Exception:  # noqa: BLE001 - being dropped is the server doing its job
            await asyncio.sleep(0.2)


async def slow_reader(url: str, stats: Stats, stop: asyncio.Event, source: str, room: dict[str, str]) -> None:
    async def attack() -> None:
        raw = await RawSocket.open(url, rcvbuf=4096, source=source)
        try:
            i = 0
            while not stop.is_set():
                target = room.get("id", "r_none")
                await asyncio.wait_for(raw.emit("room_join", {"room": target, "since": 0}, ack=i), 5)
                stats.hit("slow reader requests")
                i += 1
                await asyncio.sleep(0.06)  # within the per-connection rate limit
        finally:
            raw.close()
            stats.hit("slow reader sockets")
    await forever(stop, attack)


async def log_bomb(url: str, stats: Stats, stop: asyncio.Event, source: str) -> None:
    async def attack() -> None:
        raw = await RawSocket.open(url, source=source)
        try:
            for i in range(40):
                await raw.emit("act", {"room": "r_x", "v": 0, "action": nested(400)}, ack=i)
                await raw.packet({"type": 4 + i % 3, "nsp": "/", "data": {"message": "x" * 1000}, "id": 1000 + i})
                stats.hit("log bomb frames", 2)
                await asyncio.sleep(0.1)
            raw.send_frame(b"", 1)   # and an empty frame, which ends the connection
            stats.hit("empty frames")
            await raw.closed(2.0)
        finally:
            raw.close()
    await forever(stop, attack)


async def identity_switcher(url: str, stats: Stats, stop: asyncio.Event, source: str) -> None:
    async def attack() -> None:
        raw = await RawSocket.open(url, source=source)
        try:
            for i in range(100):
                await raw.emit("connect", {"protocol": 2, "token": secrets.token_urlsafe(24)}, ack=i)
                stats.hit("connect events")
                await asyncio.sleep(0.1)
        finally:
            raw.close()
    await forever(stop, attack)


async def lobby_flooder(url: str, stats: Stats, stop: asyncio.Event, source: str) -> None:
    async with session(source) as http:
        async def attack() -> None:
            socks = [await client(url, source, http) for _ in range(4)]
            try:
                for i in range(5):
                    answer = await socks[0].call("room_create", {"name": f"spam {i} {secrets.token_hex(2)}"})
                    stats.hit("spam rooms created" if answer["ok"] else "spam rooms refused")
                while not stop.is_set():
                    await asyncio.gather(*(s.call("lobby_watch", {}) for s in socks))
                    stats.hit("lobby_watch", len(socks))
                    await asyncio.sleep(0.06)
            finally:
                for s in socks:
                    with contextlib.suppress(Exception):
                        await s.disconnect()
        await forever(stop, attack)


async def chat_spammer(url: str, stats: Stats, stop: asyncio.Event, source: str, room: dict[str, str]) -> None:
    async with session(source) as http:
        async def attack() -> None:
            token: dict[str, str] = {}
            first = socketio.AsyncClient(serializer="msgpack", reconnection=False, http_session=http)
            first.on("session", lambda data: token.setdefault("token", data["token"]))
            await first.connect(url, auth={"protocol": 2}, transports=["websocket"], wait_timeout=10)
            await asyncio.sleep(0.2)
            socks = [first] + [await client(url, source, http, token=token.get("token", "")) for _ in range(10)]
            try:
                joined = False
                while not stop.is_set():
                    if "id" in room and not joined:
                        for s in socks:
                            await s.call("room_join", {"room": room["id"]})
                        joined = True
                    if joined:
                        answers = await asyncio.gather(*(s.call("chat", {"room": room["id"], "text": "spam"})
                                                         for s in socks))
                        stats.hit("chat lines accepted", sum(1 for a in answers if a["ok"]))
                        stats.hit("chat lines refused", sum(1 for a in answers if not a["ok"]))
                    await asyncio.sleep(0.5)
            finally:
                for s in socks:
                    with contextlib.suppress(Exception):
                        await s.disconnect()
        await forever(stop, attack)


async def seat_squatter(url: str, stats: Stats, stop: asyncio.Event, source: str) -> None:
    async with session(source) as http:
        async def attack() -> None:
            watcher = await client(url, source, http)
            try:
                rooms = (await watcher.call("lobby_watch", {}))["rooms"]
                waiting = [r for r in rooms if r["status"] == "waiting"]
                for summary in waiting[:3]:
                    squatter = await client(url, source, http)
                    await squatter.call("room_join", {"room": summary["id"]})
                    for seat in range(summary["seats"]):
                        answer = await squatter.call("sit", {"room": summary["id"], "seat": seat})
                        if answer["ok"]:
                            stats.hit("seats squatted")
                    await squatter.disconnect()     # and gone: the seats free themselves after the grace
                await asyncio.sleep(2)
            finally:
                with contextlib.suppress(Exception):
                    await watcher.disconnect()
        await forever(stop, attack)


async def connection_flood(url: str, stats: Stats, stop: asyncio.Event, source: str) -> None:
    async def attack() -> None:
        async def one(connect: bool) -> RawSocket | None:
            kind = "flood sockets" if connect else "bare transports"
            try:
                raw = await RawSocket.open(url, source=source, connect=connect)
                stats.hit(f"{kind} accepted")
                return raw
            except Exception:  # noqa: BLE001
                stats.hit(f"{kind} refused")
                return None
        # 100 Socket.IO connections at once, and 100 transports that never connect to Socket.IO
        opened = await asyncio.gather(*(one(i % 2 == 0) for i in range(200)))
        await asyncio.sleep(2)
        for raw in opened:
            if raw is not None:
                raw.close()
        await asyncio.sleep(1)
    await forever(stop, attack)


async def records_flood(url: str, stats: Stats, stop: asyncio.Event, source: str, room: dict[str, str],
                        rate: float = 100.0) -> None:
    """`GET /api/games/<id>` of a live normal game, `rate` times a second from one address (unchecked,
    each would rebuild the live replay: 10-14 ms of CPU)."""
    async with session(source) as http:
        async def get(target: str) -> None:
            try:
                async with http.get(f"{url}/api/games/{target}", timeout=aiohttp.ClientTimeout(total=10)) as r:
                    await r.read()
                    stats.hit(f"records GET {r.status}")
            except Exception as e:  # noqa: BLE001 - refused or timed out: a figure too
                stats.hit(f"records GET {type(e).__name__}")

        pending: set[asyncio.Task[None]] = set()
        started, sent = time.monotonic(), 0
        while not stop.is_set():
            target = room.get("id")
            if target is None or len(pending) >= 200:   # (no live game yet, or 2 s of answers outstanding)
                await asyncio.sleep(0.1)
                continue
            task = asyncio.create_task(get(target))
            pending.add(task)
            task.add_done_callback(pending.discard)
            sent += 1
            await asyncio.sleep(max(0.0, started + sent / rate - time.monotonic()))
        for task in list(pending):
            task.cancel()


GARBAGE_TEXT = ("9", "-1", "8", "7x", "0", "6", "b!!", "2", "+4", "é")
"""Engine.IO text frames that do not decode (unknown packet types, types a client never sends, bad base64)."""
GARBAGE_BINARY = (b"\xc1", b"\x00\xff", b"\x93\x01\x02\x03")


async def engineio_garbage(url: str, stats: Stats, stop: asyncio.Event, source: str) -> None:
    """Frames that do not decode, by websocket (text and binary) and by long-polling POST (unchecked,
    Engine.IO logs a 491-byte traceback for each "9" or "-1", outside any log budget), until the
    server closes the socket; then again."""
    async with session(source) as http:
        async def attack() -> None:
            raw = await RawSocket.open(url, source=source)
            try:
                for i in range(50):   # the server should close it long before
                    if i % 3 == 2:
                        raw.send_frame(GARBAGE_BINARY[i % len(GARBAGE_BINARY)], 2)
                    else:
                        raw.send_frame(GARBAGE_TEXT[i % len(GARBAGE_TEXT)].encode(), 1)
                    stats.hit("garbage frames")
                    await raw.writer.drain()
                    await asyncio.sleep(0.005)
                stats.hit("garbage sockets left open" if not await raw.closed(1.0) else "garbage sockets closed")
            except ConnectionError:
                stats.hit("garbage sockets closed")
            finally:
                raw.close()
            async with http.get(url + "/socket.io/?EIO=4&transport=polling") as r:
                sid = (await r.text())[1:].split('"sid":"')[1].split('"')[0]
            for i in range(20):
                async with http.post(f"{url}/socket.io/?EIO=4&transport=polling&sid={sid}",
                                     data=GARBAGE_TEXT[i % len(GARBAGE_TEXT)].encode()) as r:
                    stats.hit(f"garbage POST {r.status}")
                    if r.status != 200:
                        break
        await forever(stop, attack)


async def bot_starvation(url: str, stats: Stats, stop: asyncio.Event, source: str, people: int = 4,
                         rooms: int = 3, seats: int = 5) -> None:
    """Throwaway people (no token: a new person each) fill rooms with search bots and start them (unchecked,
    12 rooms of 5 search bots take a greedy bot from 12 ms to 10-32 s a move)."""
    async with session(source) as http:
        socks: list[socketio.AsyncClient] = []
        try:
            for _ in range(people):
                if stop.is_set():
                    break
                sio = await client(url, source, http)
                socks.append(sio)
                for r in range(rooms):
                    made = await sio.call("room_create", {"name": f"search {r} {secrets.token_hex(2)}",
                                                          "seats": seats, "bot_pace": 0}, timeout=10)
                    if not made["ok"]:
                        stats.hit(f"search rooms refused ({made['error']['code']})")
                        continue
                    room = made["room"]["id"]
                    await sio.call("stand", {"room": room, "seat": 0}, timeout=10)
                    for seat in range(seats):
                        added = await sio.call("bot_add", {"room": room, "seat": seat, "level": "search"},
                                               timeout=10)
                        stats.hit("search bots added" if added["ok"] else
                                  f"search bots refused ({added['error']['code']})")
                    started = await sio.call("room_start", {"room": room, "fill_with_bots": True}, timeout=10)
                    stats.hit("search rooms started" if started["ok"] else
                              f"search rooms not started ({started['error']['code']})")
            await stop.wait()
        except Exception as e:  # noqa: BLE001 - being refused is the server doing its job
            stats.hit(f"bot starvation stopped ({type(e).__name__})")
            await stop.wait()
        finally:
            for sio in socks:
                with contextlib.suppress(Exception):
                    await sio.disconnect()


async def tcp_holds(url: str, stats: Stats, stop: asyncio.Event, source: str, hold: int = 400) -> None:
    """Up to `hold` idle TCP connections from one address, each opened again when the server closes it
    (unchecked, idle connections use up the server's file descriptors)."""
    host, port = url.removeprefix("http://").split(":")

    async def one() -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, int(port), local_addr=(source, 0))
            except OSError:
                stats.hit("tcp connects failed")
                await asyncio.sleep(1)
                continue
            opened = time.monotonic()
            try:
                with contextlib.suppress(ConnectionError):
                    await reader.read()   # nothing is ever sent: this waits for the server to close it
                stats.hit("tcp closed at once" if time.monotonic() - opened < 1 else "tcp closed later")
            finally:
                writer.transport.abort()
            await asyncio.sleep(0.5)

    await asyncio.gather(*(one() for _ in range(hold)))


async def room_flood(url: str, stats: Stats, stop: asyncio.Event, source: str) -> None:
    """Fresh people (no token) from one address, each creating public rooms up to the per-person cap, then
    gone (unchecked, 1,620 public rooms in 20 s push a real room out of the lobby list)."""
    async with session(source) as http:
        async def attack() -> None:
            sio = await client(url, source, http)
            try:
                for i in range(4):
                    made = await sio.call("room_create", {"name": f"flood {i} {secrets.token_hex(3)}"}, timeout=10)
                    stats.hit("flood rooms created" if made["ok"] else f"flood rooms refused ({made['error']['code']})")
            finally:
                with contextlib.suppress(Exception):
                    await sio.disconnect()
        await forever(stop, attack)


async def session_flood(url: str, stats: Stats, stop: asyncio.Event, source: str, together: int = 10) -> None:
    """Connections without a token from one address, connected and dropped at once, `together` at a time
    (unchecked, 3,000 in 7 s write 3,000 sessions kept 30 days)."""
    async with session(source) as http:
        async def one() -> None:
            try:
                sio = await client(url, source, http)
            except Exception:  # noqa: BLE001
                stats.hit("session connects refused")
                await asyncio.sleep(0.2)
                return
            stats.hit("sessions opened")
            with contextlib.suppress(Exception):
                await sio.disconnect()

        while not stop.is_set():
            await asyncio.gather(*(one() for _ in range(together)))


# -- the run ---------------------------------------------------------------------------------------------
def rss(proc: psutil.Process) -> float:
    """Resident MB of one process."""
    with contextlib.suppress(psutil.NoSuchProcess):
        return float(proc.memory_info().rss) / 2**20
    return 0.0


ATTACKER_NICE = 10
"""The attackers' process's niceness (see `soak`)."""


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


ATTACKS = {
    "sockets": "socket abusers (slow readers, log bombs, identity switches, lobby flood, chat spam, squatter, "
               "connection flood)",
    "records": "records API flood (GET /api/games/<live id>, 100/s)",
    "garbage": "Engine.IO garbage frames (websocket and long-polling)",
    "bots": "bot starvation (12 rooms of 5 search bots from 4 throwaway people)",
    "tcp": "TCP holds (400 idle connections from one address)",
    "rooms": "room flood (fresh people creating public rooms)",
    "sessions": "session flood (token-less connections)",
}
"""The attackers, by the name `--attacks` takes. Each runs alone for a phase, then all of them at once."""


async def redis_used(client: Any) -> float:
    """The embedded Redis's `used_memory` (INFO memory), in MB; NaN when it does not answer."""
    if client is None:
        return float("nan")
    try:
        return float((await client.info("memory"))["used_memory"]) / 2**20
    except Exception:  # noqa: BLE001 - a figure missing is shown as such
        return float("nan")


async def families(client: Any) -> dict[str, tuple[int, int, int]]:
    """The embedded Redis's keys by family (the name's second part: `room`, `session`, `record` …): how
    many, their bytes (MEMORY USAGE) and how many never expire; what grew is read off two of these."""
    out: dict[str, list[int]] = {}
    if client is None:
        return {}
    try:
        async for key in client.scan_iter(count=1000):
            parts = key.decode(errors="replace").split(":")
            family = parts[1] if len(parts) > 1 else parts[0]
            entry = out.setdefault(family, [0, 0, 0])
            entry[0] += 1
            entry[1] += await client.memory_usage(key) or 0
            entry[2] += await client.ttl(key) == -1
    except Exception:  # noqa: BLE001 - a figure missing is shown as such
        return {}
    return {k: (v[0], v[1], v[2]) for k, v in out.items()}


def family_table(before: dict[str, tuple[int, int, int]], after: dict[str, tuple[int, int, int]]) -> None:
    """Each key family's count and kilobytes after the warm-up and at the end, largest growth first."""
    def grown(name: str) -> int:
        return after.get(name, (0, 0, 0))[1] - before.get(name, (0, 0, 0))[1]

    for name in sorted(set(before) | set(after), key=grown, reverse=True):
        n0, b0, _ = before.get(name, (0, 0, 0))
        n1, b1, forever = after.get(name, (0, 0, 0))
        print(f"  {name:<16} {n0:6d} → {n1:6d} keys  {b0 / 1024:8.1f} → {b1 / 1024:8.1f} KiB  "
              f"({forever} without expiry)")


def embedded_redis(log: Path) -> Any:
    """A client of the server's embedded Redis, from the socket its log names."""
    import re

    import redis.asyncio as redis

    found = re.search(r"embedded redis on (\S+) \(data", log.read_text(errors="replace"))
    return redis.Redis(unix_socket_path=found[1]) if found else None


async def soak(args: argparse.Namespace) -> None:
    data = Path(tempfile.mkdtemp(prefix="tongiaki-soak-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "TONGIAKI_DATA_DIR": str(data), "TONGIAKI_PREFIX": f"soak-{secrets.token_hex(3)}"}
    env.pop("REDIS_URL", None)
    log = (data / "server.log").open("wb")
    server = subprocess.Popen([sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--log-level", "info", "--workers", "1"], cwd=ROOT, env=env, stdout=log,
                              stderr=subprocess.STDOUT)
    stats = Stats()
    stop = asyncio.Event()
    attack: asyncio.subprocess.Process | None = None
    kinds = [k for k in args.attacks.split(",") if k] if not args.no_attack else []
    unknown = set(kinds) - set(ATTACKS)
    if unknown:
        raise SystemExit(f"--attacks: unknown {sorted(unknown)}; known: {', '.join(ATTACKS)}")
    phases = [[k] for k in kinds] + ([kinds] if len(kinds) > 1 else []) or [[]]
    phase_seconds = args.duration / len(phases)
    windows = max(1, int(phase_seconds // args.every))
    redis = None
    try:
        await wait_healthy(url, server)
        redis = embedded_redis(data / "server.log")
        proc = psutil.Process(server.pid)
        tasks = [asyncio.create_task(normal_room(url, stats, stop, seed)) for seed in range(args.rooms)]
        await asyncio.sleep(args.warmup)
        baseline, redis_baseline = rss(proc), await redis_used(redis)
        keys_before = await families(redis)
        print(f"warm-up {args.warmup:.0f} s: {len(stats.all)} normal actions, server RSS {baseline:.0f} MB, "
              f"Redis used_memory {redis_baseline:.1f} MB; then {len(phases)} phases of {phase_seconds:.0f} s")
        stats.window.clear()
        print(f"{'t (s)':>6} {'attacker':<10} {'actions':>8} {'p50 ms':>8} {'p99 ms':>8} {'server MB':>10} "
              f"{'redis used MB':>14}")
        started = time.monotonic()
        rows: list[tuple[str, float, int, float, float, float, float]] = []
        summary: list[tuple[str, list[float], str]] = []
        cpu_by_phase: dict[str, float] = {}   # the server side's CPU, % of one core, over each phase
        attacker_cpu: dict[str, float] = {}   # the attackers' process's, likewise
        for phase in phases:
            name = phase[0] if len(phase) == 1 else "all" if phase else "none"
            attack = None
            if phase:   # the phase starts once its attackers' process is up (it says "ready")
                # the attackers' own process at a lower CPU priority: on these two shared cores their
                # Python would otherwise take the server's CPU, which a real attacker's machine does not;
                # what serving them costs the server is still measured (the phase's server-side CPU)
                attack = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bench.soak", "--attack", url, "--attacks", ",".join(phase), cwd=ROOT,
                    stdout=subprocess.PIPE, env={**os.environ}, preexec_fn=lambda: os.nice(ATTACKER_NICE))
                assert attack.stdout is not None
                await asyncio.wait_for(attack.stdout.readline(), 60)
                stats.window.clear()
            in_phase: list[float] = []
            cpu_then, phase_began = server_cpu(proc), time.monotonic()
            for _ in range(windows):
                await asyncio.sleep(phase_seconds / windows)
                window, stats.window = stats.window, []
                in_phase += window
                row = (name, time.monotonic() - started, len(window), pct(window, 0.5), pct(window, 0.99), rss(proc),
                       await redis_used(redis))
                rows.append(row)
                print(f"{row[1]:6.0f} {name:<10} {row[2]:8d} {row[3]:8.1f} {row[4]:8.1f} {row[5]:10.0f} "
                      f"{row[6]:14.1f}", flush=True)
            attacked, attack_cpu = "none", 0.0
            if attack is not None:
                with contextlib.suppress(psutil.Error):
                    times = psutil.Process(attack.pid).cpu_times()
                    attack_cpu = times.user + times.system
                attack.terminate()
                assert attack.stdout is not None
                attacked = (await asyncio.wait_for(attack.stdout.read(), 30)).decode().strip()
                await attack.wait()
                attack = None
            cpu_by_phase[name] = 100 * (server_cpu(proc) - cpu_then) / (time.monotonic() - phase_began)
            attacker_cpu[name] = 100 * attack_cpu / (time.monotonic() - phase_began)
            summary.append((name, in_phase, attacked))
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        async with aiohttp.ClientSession() as http, http.get(url + "/metrics") as r:
            metrics = {line.rsplit(" ", 1)[0]: line.rsplit(" ", 1)[1] for line in (await r.text()).splitlines()
                       if line.startswith("tongiaki_") and not line.startswith("tongiaki_build")}
        p99s = [row[4] for row in rows if row[2]]
        print(f"--- {args.rooms} normal rooms (2 people + 2 bots each), {args.duration:.0f} s "
              f"{'without attackers' if not kinds else 'under attack'}; machine load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(f"normal actions       {sum(r[2] for r in rows)} ({stats.games} games finished); errors {stats.errors}")
        print(f"p99 per window       median {statistics.median(p99s):.1f} ms, worst {max(p99s):.1f} ms"
              if p99s else "p99 per window       no actions")
        print("players by attacker  (p50 / p99 over the phase, worst window's p99; target p99 < 50 ms)")
        for name, values, _ in summary:
            worst = max((r[4] for r in rows if r[0] == name and r[2]), default=float("nan"))
            verdict = "ok" if worst < 50 else "MISSES the target"
            print(f"  {name:<10} {len(values):6d} actions  {pct(values, 0.5):8.1f} / {pct(values, 0.99):8.1f} ms  "
                  f"worst window {worst:8.1f} ms  {verdict}; CPU: server side {cpu_by_phase[name]:5.1f} %, "
                  f"attackers {attacker_cpu[name]:5.1f} %")
        print(f"server RSS           {baseline:.0f} MB after warm-up → {rows[-1][5]:.0f} MB at the end "
              f"(max {max(r[5] for r in rows):.0f} MB)")
        print(f"Redis used_memory    {redis_baseline:.1f} MB after warm-up → {rows[-1][6]:.1f} MB at the end "
              f"(max {max(r[6] for r in rows):.1f} MB)")
        print("Redis keys by family (after the warm-up → at the end)")
        family_table(keys_before, await families(redis))
        for name, _, attacked in summary:
            print(f"attacks ({name}){' ' * max(1, 11 - len(name))}{attacked}")
        for name in ("tongiaki_slow_sockets_dropped_total", 'tongiaki_connections_refused_total{reason="per_address"}',
                     'tongiaki_connections_refused_total{reason="tcp_per_address"}',
                     'tongiaki_connections_refused_total{reason="header_timeout"}',
                     'tongiaki_connections_refused_total{reason="malformed"}',
                     'tongiaki_requests_rejected_total{code="reserved_event"}',
                     'tongiaki_requests_rejected_total{code="malformed"}',
                     'tongiaki_requests_rejected_total{code="rate_limited"}',
                     'tongiaki_requests_rejected_total{code="too_many_rooms"}', "tongiaki_sockets"):
            print(f"  {name} {metrics.get(name, '0')}")
        text = (data / "server.log").read_text(errors="replace")
        print(f"server log           {len(text.splitlines())} lines, {len(text) / 1024:.0f} KiB, "
              f"{text.count('Traceback')} tracebacks")
        for line in text.splitlines():   # the full collections closed connections set off (timers.py)
            if "full garbage collection" in line:
                print("  " + line[line.index("full garbage collection"):])
    finally:
        stop.set()
        if attack is not None and attack.returncode is None:
            attack.kill()
            await attack.wait()
        if redis is not None:
            with contextlib.suppress(Exception):
                await redis.aclose()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()


async def attack_only(url: str, kinds: list[str]) -> None:
    """The attackers of `kinds` (names of ATTACKS) in a process of their own, until terminated; prints
    what they did. Each attacks from its own loopback address."""
    stats, stop = Stats(), asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    target: dict[str, str] = {}

    async def find_target() -> None:   # a normal room for the attackers that need one
        async with session("127.0.0.9") as http:
            watcher = await client(url, "127.0.0.9", http)
            while not stop.is_set():
                rooms = (await watcher.call("lobby_watch", {}))["rooms"]
                normal = [r for r in rooms if r["name"].startswith("normal") and r["status"] == "playing"]
                if normal:
                    target["id"] = normal[0]["id"]
                await asyncio.sleep(2)
            await watcher.disconnect()
    attackers: list[Any] = [find_target()]
    if "sockets" in kinds:
        attackers += [
            *(slow_reader(url, stats, stop, "127.0.0.2", target) for _ in range(3)),
            log_bomb(url, stats, stop, "127.0.0.3"),
            identity_switcher(url, stats, stop, "127.0.0.4"),
            lobby_flooder(url, stats, stop, "127.0.0.5"),
            chat_spammer(url, stats, stop, "127.0.0.6", target),
            seat_squatter(url, stats, stop, "127.0.0.7"),
            connection_flood(url, stats, stop, "127.0.0.8"),
        ]
    if "records" in kinds:
        attackers.append(records_flood(url, stats, stop, "127.0.0.10", target))
    if "garbage" in kinds:
        attackers.append(engineio_garbage(url, stats, stop, "127.0.0.11"))
    if "bots" in kinds:
        attackers.append(bot_starvation(url, stats, stop, "127.0.0.12"))
    if "tcp" in kinds:
        attackers.append(tcp_holds(url, stats, stop, "127.0.0.13"))
    if "rooms" in kinds:
        attackers.append(room_flood(url, stats, stop, "127.0.0.14"))
    if "sessions" in kinds:
        attackers.append(session_flood(url, stats, stop, "127.0.0.15"))
    tasks = [asyncio.create_task(a) for a in attackers]
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(stats.attacks, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=6, help="normal rooms playing")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds under attack")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=5.0, help="seconds per printed window")
    parser.add_argument("--no-attack", action="store_true", help="the normal rooms alone (a baseline)")
    parser.add_argument("--attacks", default=",".join(ATTACKS),
                        help=f"attackers, each alone for a phase, then all at once (default: {','.join(ATTACKS)})")
    parser.add_argument("--attack", metavar="URL", help=argparse.SUPPRESS)  # the attackers' own process
    args = parser.parse_args()
    if not args.attack:   # a terminated soak still stops its server and attackers (the `finally` of soak)
        signal.signal(signal.SIGTERM, signal.default_int_handler)
    kinds = [k for k in args.attacks.split(",") if k]
    asyncio.run(attack_only(args.attack, kinds) if args.attack else soak(args))


if __name__ == "__main__":
    main()

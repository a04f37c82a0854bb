"""Soak under attack: normal rooms play while one attacker of each kind of issue 14 runs, all on loopback,
against one `tongiaki serve` process (embedded Redis). Prints, every `--every` seconds, the normal
players' action round-trip p50/p99 in that window and the server's resident memory, then a summary.

    python -m bench.soak [--rooms 6] [--duration 60] [--every 5]

Normal players connect from 127.0.0.1, each attacker from its own loopback address (127.0.0.x), so the
per-address caps bind the attackers and not the players. The attackers: slow readers (never read, flood
`room_join {since: 0}`), log bombs (payloads 400 levels deep, packet types 4/5/6, empty frames),
identity switchers (`connect` events), a lobby flooder (rooms up to the cap, `lobby_watch` from four
sockets), a chat spammer with eleven sockets, a seat squatter (sits in waiting rooms and drops), and a
connection flood (100 sockets and 100 bare Engine.IO transports at once from one address)."""

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

from bench.load import free_port, wait_healthy
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


async def client(url: str, source: str, http: aiohttp.ClientSession, **auth: Any) -> socketio.AsyncClient:
    sio = socketio.AsyncClient(serializer="msgpack", reconnection=False, http_session=http)
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
                for _ in range(2):
                    seated.append(await client(url, "127.0.0.1", http))
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


# -- the run ---------------------------------------------------------------------------------------------
def rss(proc: psutil.Process) -> float:
    """Resident MB of one process."""
    with contextlib.suppress(psutil.NoSuchProcess):
        return float(proc.memory_info().rss) / 2**20
    return 0.0


def redis_of(data: Path) -> psutil.Process | None:
    """The embedded redis-server (server/lobby/embedded.py), by its working directory: the data directory."""
    for p in psutil.process_iter(["name"]):
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            if "redis-server" in (p.info["name"] or "") and Path(p.cwd()).resolve() == data.resolve():
                return p
    return None


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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
    attack: subprocess.Popen[bytes] | None = None
    try:
        await wait_healthy(url, server)
        proc = psutil.Process(server.pid)
        tasks = [asyncio.create_task(normal_room(url, stats, stop, seed)) for seed in range(args.rooms)]
        await asyncio.sleep(args.warmup)
        baseline = rss(proc)   # the server process alone (its embedded Redis is shown apart)
        print(f"warm-up {args.warmup:.0f} s: {len(stats.all)} normal actions, server RSS {baseline:.0f} MB; "
              "attackers start")
        stats.window.clear()
        if not args.no_attack:
            attack = subprocess.Popen([sys.executable, "-m", "bench.soak", "--attack", url], cwd=ROOT,
                                      stdout=subprocess.PIPE, env={**os.environ})
        redis = redis_of(data)
        print(f"{'t (s)':>6} {'actions':>8} {'p50 ms':>8} {'p99 ms':>8} {'server MB':>10} {'redis MB':>9}")
        started = time.monotonic()
        rows = []
        while time.monotonic() - started < args.duration:
            await asyncio.sleep(args.every)
            window, stats.window = stats.window, []
            row = (time.monotonic() - started, len(window), pct(window, 0.5), pct(window, 0.99), rss(proc),
                   rss(redis) if redis else 0.0)
            rows.append(row)
            print(f"{row[0]:6.0f} {row[1]:8d} {row[2]:8.1f} {row[3]:8.1f} {row[4]:10.0f} {row[5]:9.0f}")
        attacked = "none (--no-attack)"
        if attack is not None:
            attack.terminate()
            attacked = (attack.communicate(timeout=20)[0] or b"").decode().strip()
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        async with aiohttp.ClientSession() as http, http.get(url + "/metrics") as r:
            metrics = {line.rsplit(" ", 1)[0]: line.rsplit(" ", 1)[1] for line in (await r.text()).splitlines()
                       if line.startswith("tongiaki_") and not line.startswith("tongiaki_build")}
        p99s = [row[3] for row in rows if row[1]]
        print(f"--- {args.rooms} normal rooms (2 people + 2 bots each), {args.duration:.0f} s "
              f"{'without attackers' if args.no_attack else 'under attack'}; machine load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(f"normal actions       {sum(r[1] for r in rows)} ({stats.games} games finished); errors {stats.errors}")
        print(f"p99 per window       median {statistics.median(p99s):.1f} ms, worst {max(p99s):.1f} ms"
              if p99s else "p99 per window       no actions")
        print(f"server RSS           {baseline:.0f} MB after warm-up → {rows[-1][4]:.0f} MB at the end "
              f"(max {max(r[4] for r in rows):.0f} MB); embedded Redis {rows[0][5]:.0f} → {rows[-1][5]:.0f} MB")
        print(f"attacks              {attacked}")
        for name in ("tongiaki_slow_sockets_dropped_total", 'tongiaki_connections_refused_total{reason="per_address"}',
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
        if attack is not None and attack.poll() is None:
            attack.kill()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()


async def attack_only(url: str) -> None:
    """The attackers alone (a process of their own), until terminated; prints what they did."""
    stats, stop = Stats(), asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    target: dict[str, str] = {}

    async def find_target() -> None:   # a normal room for the attackers that need one
        async with session("127.0.0.9") as http:
            watcher = await client(url, "127.0.0.9", http)
            while not stop.is_set():
                rooms = (await watcher.call("lobby_watch", {}))["rooms"]
                normal = [r for r in rooms if r["name"].startswith("normal")]
                if normal:
                    target["id"] = normal[0]["id"]
                await asyncio.sleep(2)
            await watcher.disconnect()
    attackers = [
        find_target(),
        *(slow_reader(url, stats, stop, "127.0.0.2", target) for _ in range(3)),
        log_bomb(url, stats, stop, "127.0.0.3"),
        identity_switcher(url, stats, stop, "127.0.0.4"),
        lobby_flooder(url, stats, stop, "127.0.0.5"),
        chat_spammer(url, stats, stop, "127.0.0.6", target),
        seat_squatter(url, stats, stop, "127.0.0.7"),
        connection_flood(url, stats, stop, "127.0.0.8"),
    ]
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
    parser.add_argument("--attack", metavar="URL", help=argparse.SUPPRESS)  # the attackers' own process
    args = parser.parse_args()
    if not args.attack:   # a terminated soak still stops its server and attackers (the `finally` of soak)
        signal.signal(signal.SIGTERM, signal.default_int_handler)
    asyncio.run(attack_only(args.attack) if args.attack else soak(args))


if __name__ == "__main__":
    main()

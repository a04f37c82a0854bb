"""The records API under a flood from one address: `python -m bench.records [--rooms 4] [--rate 100]`.

Starts a server process (`tongiaki serve --workers 1`, embedded Redis in a scratch directory) with
`--rooms` normal rooms (two people and two bots each, bench/soak.py's `normal_room`, from 127.0.0.1),
and one address (127.0.0.2) asking the records API `--rate` times a second: the replay and record of a
live game (rebuilt with the engine before: 10–14 ms of CPU each), and every finished game's replay in
turn. Quiet windows and flood windows alternate (`--windows` of each, `--window` seconds), so both are
measured under the same machine load. Prints, per kind of window, the people's action round trip p50/p99
(from sending `act` to its answer), the server's CPU, and what the flood was answered (200, 304, 429).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import psutil

from bench.load import free_port, server_cpu, wait_healthy
from bench.soak import Stats, client, normal_room, pct, session

ROOT = Path(__file__).resolve().parents[1]
FLOODER = "127.0.0.2"


async def live_table(url: str, http: aiohttp.ClientSession) -> tuple[Any, str]:
    """A room of one person (playing its first legal action each time) and three bots."""
    sio = await client(url, FLOODER, http)
    made = await sio.call("room_create", {"name": "flooded", "seats": 4, "bot_pace": 0.3, "grace": 30},
                          timeout=10)
    room = made["room"]["id"]

    async def on_legal(data: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):
            await sio.call("act", {"room": data["room"], "v": data["v"], "action": data["actions"][0]}, timeout=10)
    sio.on("legal", on_legal)
    await sio.call("room_start", {"room": room, "fill_with_bots": True}, timeout=10)
    return sio, room


async def flood(url: str, room: str, rate: float, stop: asyncio.Event, answers: Counter[int]) -> None:
    """`rate` requests a second from one address: the live game's replay and record, finished replays."""
    paths = [f"/api/games/{room}/replay", f"/api/games/{room}"]
    finished: list[str] = []
    n = 0
    async with session(FLOODER) as http:
        async def ask(path: str) -> None:
            with contextlib.suppress(Exception):
                async with http.get(url + path, timeout=aiohttp.ClientTimeout(total=10)) as r:
                    answers[r.status] += 1
                    if path == "/api/games?limit=100" and r.status == 200:
                        finished[:] = [g["id"] for g in (await r.json())["games"]]
                    else:
                        await r.read()

        began = time.monotonic()
        pending: set[asyncio.Task[None]] = set()
        while not stop.is_set():
            n += 1
            if n % 50 == 0:
                path = "/api/games?limit=100"
            elif finished and n % 3 == 0:
                path = f"/api/games/{finished[n % len(finished)]}/replay"
            else:
                path = paths[n % 2]
            task = asyncio.create_task(ask(path))
            pending.add(task)
            task.add_done_callback(pending.discard)
            await asyncio.sleep(max(0.0, began + n / rate - time.monotonic()))
        await asyncio.gather(*pending, return_exceptions=True)


async def flood_for(url: str, room: str, rate: float, seconds: float) -> None:
    """The flooding process (apart, so that its own work does not slow the people measured): prints what
    it was answered, as one line of `status count` pairs."""
    stop, answers = asyncio.Event(), Counter[int]()
    asyncio.get_running_loop().call_later(seconds, stop.set)
    await flood(url, room, rate, stop, answers)
    print(" ".join(f"{status} {n}" for status, n in sorted(answers.items())))


async def run(args: argparse.Namespace) -> None:
    data = Path(tempfile.mkdtemp(prefix="tongiaki-records-bench-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "TONGIAKI_DATA_DIR": str(data), "TONGIAKI_PREFIX": f"bench-{secrets.token_hex(3)}"}
    env.pop("REDIS_URL", None)
    log = (data / "server.log").open("wb")
    server = subprocess.Popen([sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--log-level", "warning", "--workers", "1"], cwd=ROOT, env=env, stdout=log,
                              stderr=subprocess.STDOUT)
    stats, stop = Stats(), asyncio.Event()
    try:
        await wait_healthy(url, server)
        proc = psutil.Process(server.pid)
        tasks = [asyncio.create_task(normal_room(url, stats, stop, seed)) for seed in range(args.rooms)]
        async with session(FLOODER) as http:
            sio, room = await live_table(url, http)
            await asyncio.sleep(args.warmup)
            figures: dict[str, dict[str, list[float]]] = {"quiet": {"rtt": [], "cpu": []},
                                                          "flood": {"rtt": [], "cpu": []}}
            answers: Counter[int] = Counter()
            print(f"{'window':>7} {'actions':>8} {'p50 ms':>8} {'p99 ms':>8} {'server CPU %':>13} {'answers':>20}")
            for _ in range(args.windows):
                for kind in ("quiet", "flood"):
                    flooding = None
                    if kind == "flood":
                        flooding = await asyncio.create_subprocess_exec(
                            sys.executable, "-m", "bench.records", "--flood", url, room, str(args.rate),
                            str(args.window), cwd=ROOT, stdout=subprocess.PIPE)
                    stats.window.clear()
                    cpu, began = server_cpu(proc), time.monotonic()
                    await asyncio.sleep(args.window)
                    cpu = 100 * (server_cpu(proc) - cpu) / (time.monotonic() - began)
                    window = list(stats.window)
                    got: Counter[int] = Counter()
                    if flooding is not None:
                        out, _ = await flooding.communicate()
                        pairs = out.decode().split()
                        got = Counter({int(pairs[i]): int(pairs[i + 1]) for i in range(0, len(pairs), 2)})
                        answers.update(got)
                    figures[kind]["rtt"] += window
                    figures[kind]["cpu"].append(cpu)
                    print(f"{kind:>7} {len(window):8d} {pct(window, 0.5):8.1f} {pct(window, 0.99):8.1f} {cpu:13.0f} "
                          f"{str(dict(got)) if got else '':>20}")
            await sio.disconnect()
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        print(f"--- {args.rooms} normal rooms (2 people + 2 bots each); one address asking {args.rate:g}/s in "
              f"{args.windows} flood windows of {args.window:g} s, between quiet ones; machine load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        for kind in ("quiet", "flood"):
            f = figures[kind]
            print(f"{kind:>6}: {len(f['rtt'])} actions, p50 {pct(f['rtt'], 0.5):.1f} ms, "
                  f"p99 {pct(f['rtt'], 0.99):.1f} ms, server CPU {sum(f['cpu']) / len(f['cpu']):.0f} %")
        print(f"flood answered: {dict(answers)}; people's errors {stats.errors}")
        text = (data / "server.log").read_text(errors="replace")
        print(f"server log: {len(text.splitlines())} lines, {text.count('Traceback')} tracebacks")
    finally:
        stop.set()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=4, help="normal rooms (2 people + 2 bots each)")
    parser.add_argument("--rate", type=float, default=100.0, help="requests a second from the flooding address")
    parser.add_argument("--windows", type=int, default=3, help="quiet and flood windows, each")
    parser.add_argument("--window", type=float, default=10.0, help="seconds per window")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--flood", nargs=4, metavar=("URL", "ROOM", "RATE", "SECONDS"),
                        help="(internal) be the flooding process")
    args = parser.parse_args()
    if args.flood:
        url, room, rate, seconds = args.flood
        asyncio.run(flood_for(url, room, float(rate), float(seconds)))
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()

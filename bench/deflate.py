"""Per-message deflate: what it costs the server to send our real room messages, and what it saves.

`python -m bench.deflate [--sockets 50] [--rounds 20]`: real `game` messages (from random engine games,
encoded exactly as the server sends them) are sent by an aiohttp websocket server (a subprocess) to
`--sockets` clients, with per-message deflate off and on. Prints the server's CPU time per frame (from
the OS, so other load on the machine does not count) and the bytes per frame on the wire.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path

import aiohttp
import psutil

from bench.load import free_port

ROOT = Path(__file__).resolve().parents[1]


def frames(games: int = 3) -> list[bytes]:
    """The engine.io frames of every room message of a few random games (msgpack, as on the wire)."""
    from server.game import Game
    from server.game.bots import RandomBot
    from server.lobby.tongiaki import TongiakiGame
    from server.patch import diff
    from server.realtime.wire import WirePacket

    out = []
    for seed in range(games):
        game, bot = Game.new(["red", "blue", "green", "yellow"], seed=seed), RandomBot(seed)
        before = TongiakiGame(game).public_view()
        v = 0
        while game.to_move is not None:
            events = game.apply(bot.choose(game), colour=game.to_move)
            after = TongiakiGame(game).public_view()
            v += 1
            message = {"room": "r_bench", "v": v, "events": events, "patch": diff(before, after)}
            out.append(WirePacket(2, namespace="/", data=["game", message]).encode())
            before = after
    return out


def serve(port: int, deflate: bool, rounds: int) -> None:
    """The sending side (run in a subprocess): every client gets every frame `rounds` times."""
    from aiohttp import web

    data = frames()

    async def handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(compress=deflate)
        await ws.prepare(request)
        await ws.receive()  # "go"
        for _ in range(rounds):
            for frame in data:
                await ws.send_bytes(frame)
        await ws.close()
        return ws

    app = web.Application()
    app.router.add_get("/ws", handler)
    web.run_app(app, host="127.0.0.1", port=port, print=None)


async def measure(sockets: int, rounds: int, deflate: bool) -> dict[str, float]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "bench.deflate", "--serve", str(port),
                             "--rounds", str(rounds)] + (["--on"] if deflate else []), cwd=ROOT)
    server = psutil.Process(proc.pid)
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(200):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/"):
                        break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.05)  # the subprocess is starting
            conns = [await http.ws_connect(f"http://127.0.0.1:{port}/ws", compress=15 if deflate else 0,
                                           max_msg_size=0) for _ in range(sockets)]
            assert all(bool(c.compress) == deflate for c in conns), "deflate was not negotiated as asked"
            cpu0 = sum(server.cpu_times()[:2])
            wall0 = time.monotonic()
            received = 0

            async def drain(ws: aiohttp.ClientWebSocketResponse) -> int:
                await ws.send_str("go")
                n = 0
                async for _ in ws:
                    n += 1
                return n
            received = sum(await asyncio.gather(*(drain(c) for c in conns)))
            cpu = sum(server.cpu_times()[:2]) - cpu0
            wall = time.monotonic() - wall0
    finally:
        proc.terminate()
        proc.wait(10)
    return {"frames": received, "cpu_us_per_frame": 1e6 * cpu / received, "frames_per_cpu_s": received / cpu,
            "wall_s": wall}


def wire_bytes(data: list[bytes]) -> tuple[float, float]:
    """Median frame bytes without and with deflate (context takeover, one sync flush per message)."""
    comp = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    sizes = [len(comp.compress(f) + comp.flush(zlib.Z_SYNC_FLUSH)) - 4 for f in data]
    return statistics.median(len(f) for f in data), statistics.median(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.deflate", description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--on", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.on, args.rounds)
        return
    plain, packed = wire_bytes(frames())
    print(f"room message frames: median {plain:.0f} B plain, {packed:.0f} B deflated")
    results = {}
    for deflate in (False, True):
        r = asyncio.run(measure(args.sockets, args.rounds, deflate))
        results[deflate] = r
        print(f"deflate {'on ' if deflate else 'off'}: {r['frames']} frames to {args.sockets} sockets, "
              f"server CPU {r['cpu_us_per_frame']:.1f} µs/frame = {r['frames_per_cpu_s']:.0f} frames per CPU-second")
    ratio = results[True]["cpu_us_per_frame"] / results[False]["cpu_us_per_frame"]
    print(f"deflate costs {ratio:.2f}× the send CPU per frame; it saves {100 * (1 - packed / plain):.0f}% of "
          f"the bytes")


if __name__ == "__main__":
    main()

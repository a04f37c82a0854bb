"""Bot starvation: how long a plain bot makes a person wait while rooms of search bots think without pause.

Starts a server (`python -m server serve` on loopback, embedded Redis in a temporary directory, its own bot
workers), opens `--attackers K` rooms of search bots (three, a table's most, and a greedy one; each room
from its own throwaway person, who stands up and watches) and `--rooms M` measured rooms where a person
plays random legal moves against one bot of `--level` (greedy by default) at pace 0. For each of the
bot's turns it measures, as the person sees it, the wait from the answer to the person's last move to the
bot's first move, and prints the p50/p99/max of those waits, the search decisions made meanwhile and how
many search rooms the server refused (its cap on search bots at play). Bounded: `--seconds` of play.

    .venv/bin/python -m bench.starve [--attackers 8] [--rooms 2] [--seconds 60] [--level greedy]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.load import ROOT, free_port, wait_healthy


async def connected(url: str, name: str) -> Any:
    """A socket.io client connected as `name` (three tries: a loaded machine may refuse one)."""
    import socketio

    for attempt in range(3):
        sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
        try:
            await sio.connect(url, auth={"protocol": 2, "name": name}, transports=["websocket"], wait_timeout=10)
            return sio
        except socketio.exceptions.ConnectionError:
            if attempt == 2:
                raise
            await asyncio.sleep(1.0)
    raise AssertionError("unreachable")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0


async def attacker(url: str, index: int, decisions: list[int], refused: list[str], stop: asyncio.Event) -> None:
    """One throwaway person's room of search bots, watched until `stop`."""
    sio = await connected(url, f"Attacker {index}")
    sio.on("game", lambda m: decisions.__setitem__(0, decisions[0] + (m.get("by") == "bot")))
    try:
        made = await sio.call("room_create", {"name": f"deep {index}", "seats": 4, "bot_pace": 0})
        room = made["room"]["id"]
        await sio.call("room_join", {"room": room})
        await sio.call("stand", {"room": room, "seat": 0})
        for seat in range(4):   # one search bot more than a table may seat: refused, like the attack's 5th
            answer = await sio.call("bot_add", {"room": room, "seat": seat, "level": "search"})
            if not answer["ok"]:
                refused.append(answer["error"]["code"])
        answer = await sio.call("room_start", {"room": room, "fill_with_bots": True})
        if not answer["ok"]:
            refused.append(answer["error"]["code"])
        await stop.wait()
    finally:
        await sio.disconnect()


async def player(url: str, index: int, level: str, waits: list[float], stop: asyncio.Event) -> None:
    """A person against one bot of `level`: plays random legal moves at once; `waits` gets, for each bot
    turn, the seconds from the answer to the person's move to the bot's first move."""
    sio = await connected(url, f"Player {index}")
    legal: dict[str, Any] = {}
    changed = asyncio.Event()
    answered = [0.0]   # when the person's last move was answered (0: the bot's first move is measured)

    def on_legal(payload: dict[str, Any]) -> None:
        legal.update(payload)
        changed.set()

    def on_game(message: dict[str, Any]) -> None:
        if message.get("by") == "bot" and answered[0]:
            waits.append(time.monotonic() - answered[0])
            answered[0] = 0.0

    sio.on("legal", on_legal)
    sio.on("game", on_game)
    rng = random.Random(index)
    try:
        made = await sio.call("room_create", {"name": f"plain {index}", "seats": 2, "bot_pace": 0, "first": 0})
        room = made["room"]["id"]
        await sio.call("room_join", {"room": room})
        await sio.call("bot_add", {"room": room, "seat": 1, "level": level})
        await sio.call("room_start", {"room": room})
        while not stop.is_set():
            try:
                await asyncio.wait_for(changed.wait(), 1.0)
            except TimeoutError:
                continue
            changed.clear()
            if not legal.get("actions"):
                continue
            v = legal["v"]
            answer = await sio.call("act", {"room": room, "v": v, "action": rng.choice(legal["actions"])})
            legal.clear()
            if answer.get("ok"):
                answered[0] = time.monotonic()
            elif answer["error"]["code"] == "not_playing":
                break
            else:   # not applied (a newer version meanwhile): ask for the decision again
                caught = await sio.call("since", {"room": room, "v": v})
                if caught.get("legal"):
                    on_legal(caught["legal"])
    finally:
        await sio.disconnect()


async def run(args: argparse.Namespace) -> None:
    data = Path(tempfile.mkdtemp(prefix="tongiaki-starve-"))
    env = {**os.environ, "TONGIAKI_PREFIX": f"starve-{secrets.token_hex(3)}", "TONGIAKI_DATA_DIR": str(data),
           "TONGIAKI_CONNECTIONS_PER_ADDRESS": "0"}
    env.pop("REDIS_URL", None)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (data / "server.log").open("wb")
    server = subprocess.Popen([sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--log-level", "warning", "--workers", "1"], cwd=ROOT, env=env, stdout=log,
                              stderr=subprocess.STDOUT)
    try:
        await wait_healthy(url, server)
        stop, decisions, refused, waits = asyncio.Event(), [0], [], []   # type: ignore[var-annotated]
        tasks = [asyncio.create_task(attacker(url, i, decisions, refused, stop)) for i in range(args.attackers)]
        await asyncio.sleep(1.0)   # the searches begin
        tasks += [asyncio.create_task(player(url, i, args.level, waits, stop)) for i in range(args.rooms)]
        await asyncio.sleep(args.seconds)
        stop.set()
        await asyncio.gather(*tasks)
        warm = waits[args.rooms:]   # each room's first wait may include the bot workers' start
        print(f"{args.attackers} rooms of search bots ({decisions[0]} bot decisions in them; refused: "
              f"{', '.join(sorted(set(refused))) or 'none'} ×{len(refused)}) beside {args.rooms} rooms of a person "
              f"and a {args.level} bot, {args.seconds:g} s:")
        print(f"  {args.level} bot's wait per turn: {len(warm)} turns, p50 {1000 * percentile(warm, 50):.0f} ms, "
              f"p99 {1000 * percentile(warm, 99):.0f} ms, max {1000 * max(warm, default=0):.0f} ms")
    finally:
        server.terminate()
        server.wait(30)
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attackers", type=int, default=8, help="rooms of search bots (each its own person)")
    parser.add_argument("--rooms", type=int, default=2, help="measured rooms: a person and one bot")
    parser.add_argument("--level", default="greedy", help="the measured bot's level")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play measured")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()

"""`tongiaki serve --workers 2` (server/workers.py): two processes on one port with the embedded Redis,
sockets spread over both play one game together; SIGTERM stops everything in bounded time, and a killed
supervisor leaves no worker, bot worker or redis-server behind."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
from tablekit import ROOT, Client, free_port, people

sys.path.insert(0, str(ROOT / "tests" / "deploy"))
from deploykit import reserved_ports  # noqa: E402


def listening(proc: subprocess.Popen[bytes], port: int) -> int:
    """How many of the supervisor's workers listen on the port (each binds it with SO_REUSEPORT)."""
    count = 0
    for kid in psutil.Process(proc.pid).children(recursive=True):
        try:
            if any(c.status == psutil.CONN_LISTEN and c.laddr.port == port for c in kid.net_connections("tcp")):
                count += 1
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return count


def start(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "TONGIAKI_PREFIX": "workers-test", "TONGIAKI_TICK": "0.02"}
    env.pop("REDIS_URL", None)   # the embedded Redis, as `make run` on a bare machine
    proc = subprocess.Popen([sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--workers", "2", "--data-dir", str(tmp / "data"), "--log-level", "warning"],
                            cwd=ROOT, env=env, stdout=(tmp / "serve.log").open("wb"), stderr=subprocess.STDOUT)
    return proc, f"http://127.0.0.1:{port}"


async def healthy(url: str, proc: subprocess.Popen[bytes]) -> None:
    """Ready, and both workers listening (the kernel spreads connections over the sockets bound so far)."""
    import aiohttp

    port = int(url.rsplit(":", 1)[1])
    async with asyncio.timeout(30), aiohttp.ClientSession() as http:
        while True:
            assert proc.poll() is None
            try:
                async with http.get(url + "/readyz") as r:
                    if r.status == 200 and listening(proc, port) == 2:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)   # a starting process: there is no event to wait on


def family(proc: subprocess.Popen[bytes]) -> list[psutil.Process]:
    return psutil.Process(proc.pid).children(recursive=True)


def commands(proc: subprocess.Popen[bytes]) -> dict[int, str]:
    """The command line of each live process of the family, by pid."""
    lines = {}
    for kid in family(proc):
        try:
            lines[kid.pid] = " ".join(kid.cmdline())
        except psutil.Error:   # gone, or a zombie
            continue
    return lines


async def test_two_workers_on_one_port_play_one_game_and_stop_together(tmp_path, clients):
    proc, url = start(tmp_path)
    try:
        await healthy(url, proc)
        kids = family(proc)
        names = [" ".join(k.cmdline()) for k in kids]
        assert sum("--reuse-port" in n for n in names) == 2, names
        assert sum("redis-server" in n for n in names) == 1, names
        # eight sockets: the kernel spreads them over the two workers; they play and watch one game
        players = await people(url, clients, *(f"P{i}" for i in range(4)))
        watchers = [await Client(f"W{i}").connect(url) for i in range(8)]
        clients.extend(watchers)
        host = players[0]
        room = (await host.ok("room_create", {"name": "two workers", "seats": 4, "bot_pace": 0}))["room"]["id"]
        await host.join(room)
        for i, c in enumerate(players[1:], start=1):
            await c.join(room)
            await c.ok("sit", {"room": room, "seat": i})
        for w in watchers:
            await w.join(room)
        await host.ok("room_start", {"room": room})
        for c in players + watchers:
            await c.wait(lambda c=c: room in c.views)
        await asyncio.gather(*(p.play(room, random.Random(i), stop_at=40) for i, p in enumerate(players)))
        last = max(p.v(room) for p in players)
        for c in players + watchers:   # every socket, on either worker, holds the same game
            await c.wait(lambda c=c: c.v(room) == last)
            assert c.view(room) == players[0].view(room)
        # the sockets' presence records name the worker holding each: both workers hold some
        import redis.asyncio as redis

        socket_path = next(n.split("unixsocket:")[1].split()[0] for n in names if "unixsocket:" in n)
        client = redis.Redis(unix_socket_path=socket_path)
        try:
            holders = {key.split(b"|")[0] for key in await client.hkeys(f"workers-test:watch:{{{room}}}")}
        finally:
            await client.aclose()
        assert len(holders) == 2, holders   # 12 sockets all on one worker: 1 chance in 2,048
        # SIGTERM: workers, bot workers and Redis stop, in bounded time
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        assert time.monotonic() - began < 20
        await asyncio.sleep(0.5)
        assert not [k for k in kids if k.is_running() and k.status() != psutil.STATUS_ZOMBIE]
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_a_killed_supervisor_leaves_nothing_behind(tmp_path):
    proc, url = start(tmp_path)
    try:
        await healthy(url, proc)
        kids = family(proc)
        assert len(kids) >= 4   # two workers, a bot worker, redis-server
        # the bot workers that search yield the CPU to play: niceness +10 (search_nice), the quick ones none
        async with asyncio.timeout(20):
            while True:   # a full worker and a quick one, started once their server process is up
                bots = {pid: line for pid, line in commands(proc).items() if " bots " in line}
                if len({"search" in line for line in bots.values()}) == 2:
                    break
                await asyncio.sleep(0.1)   # (no event to wait on)
        base = os.getpriority(os.PRIO_PROCESS, 0)
        wanted = {pid: min(19, base + 10) if "search" in line else base for pid, line in bots.items()}
        async with asyncio.timeout(20):   # (taken as the command starts, once its imports are done)
            while {pid: psutil.Process(pid).nice() for pid in bots} != wanted:
                await asyncio.sleep(0.1)
        kids = family(proc)
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            alive = [k for k in kids if k.is_running() and k.status() != psutil.STATUS_ZOMBIE]
            if not alive:
                break
            await asyncio.sleep(0.1)   # the kernel's parent-death signal, then their own shutdown
        assert not alive, [" ".join(k.cmdline()) for k in alive]
    finally:
        if proc.poll() is None:
            proc.kill()


def owner(proc: subprocess.Popen[bytes], port: int) -> set[int]:
    """The pids of the supervisor's workers listening on the port."""
    pids = set()
    for kid in psutil.Process(proc.pid).children(recursive=True):
        try:
            if any(c.status == psutil.CONN_LISTEN and c.laddr.port == port for c in kid.net_connections("tcp")):
                pids.add(kid.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return pids


async def test_each_worker_also_serves_on_its_own_port(tmp_path, clients):
    """`--worker-port W`: worker i also listens on W + i, alone (a proxy routing tables by room lists
    them, deploy/nginx.conf), and serves there what it serves on the shared port."""
    # the port and the workers' own two, kept for this test alone until the server has let them go
    with reserved_ports(3) as port:
        own = port + 1
        env = {**os.environ, "TONGIAKI_PREFIX": "workers-own", "TONGIAKI_TICK": "0.02"}
        env.pop("REDIS_URL", None)
        proc = subprocess.Popen([sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
                                 "--workers", "2", "--worker-port", str(own), "--data-dir", str(tmp_path / "data"),
                                 "--log-level", "warning"], cwd=ROOT, env=env,
                                stdout=(tmp_path / "serve.log").open("wb"), stderr=subprocess.STDOUT)
        try:
            async with asyncio.timeout(90):   # (a loaded machine takes its time to start two workers)
                while not (owner(proc, own) and owner(proc, own + 1)):
                    assert proc.poll() is None, (tmp_path / "serve.log").read_text()
                    await asyncio.sleep(0.05)   # the workers listen on their own ports once ready
            assert len(owner(proc, own)) == 1 and len(owner(proc, own + 1)) == 1
            assert owner(proc, own) != owner(proc, own + 1)
            host, guest = await people(f"http://127.0.0.1:{own}", clients, "Host"), \
                await people(f"http://127.0.0.1:{own + 1}", clients, "Guest")
            room = (await host[0].ok("room_create", {"name": "own ports", "seats": 2}))["room"]["id"]
            await host[0].join(room)
            await guest[0].join(room)
            await guest[0].ok("sit", {"room": room, "seat": 1})
            await host[0].wait(lambda: "Guest" in str(host[0].rooms[room]["seats"]))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)


async def test_bot_workers_killed_are_started_again_and_the_bots_play_on(tmp_path, clients):
    """A server's bot workers that die (here kill -9, as the kernel's out-of-memory killer would) are
    started again after a short back-off (server/workers.py, `Helper`), and the bots of its tables play on;
    before, every bot of that server stopped until the server itself was restarted."""
    proc, url = start(tmp_path)
    try:
        await healthy(url, proc)
        async with asyncio.timeout(30):
            while len(bots := {pid: line for pid, line in commands(proc).items() if " bots " in line}) < 2:
                await asyncio.sleep(0.1)   # (started once their server process is up: no event to wait on)
        for pid in bots:
            os.kill(pid, signal.SIGKILL)
        async with asyncio.timeout(30):
            while True:
                again = {pid: line for pid, line in commands(proc).items() if " bots " in line}
                if sorted(again.values()) == sorted(bots.values()) and not set(again) & set(bots):
                    break
                await asyncio.sleep(0.1)
        log = (tmp_path / "serve.log").read_text()
        assert log.count("exited with status -9; starting it again") == 2, log
        # a table of one person and three bots: the bots (in the new workers) take their turns
        (host,) = await people(url, clients, "Host")
        room = (await host.ok("room_create", {"name": "bots again", "seats": 4, "bot_pace": 0}))["room"]["id"]
        await host.join(room)
        await host.ok("room_start", {"room": room, "fill_with_bots": True})
        await host.wait(lambda: room in host.views)
        await host.play(room, random.Random(5), stop_at=30)
        assert host.v(room) >= 30
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)

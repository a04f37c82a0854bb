"""What an operator sees of a running server (a real `tongiaki serve` on a real Redis): the address at
start-up and what was closed at SIGTERM, `tongiaki_build_info` with the revision, the bot queue's depth and
lost broadcasts as metrics, every worker's /metrics on its own port, and `tongiaki rooms` listing,
inspecting and closing rooms and listing the bot queue."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import socketio
from deploykit import (
    RedisProcess,
    ServerProcess,
    free_port,
    http_get,
    parse_metrics,
    redis_server_binary,
    reserved_ports,
    tongiaki_command,
    until,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _binaries() -> None:
    if not redis_server_binary():
        pytest.fail("needs redis-server: scripts/bootstrap.sh --browser installs it")


def rooms_now(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`tongiaki rooms ARGS`, as an operator runs it beside the service."""
    return subprocess.run([*tongiaki_command(), "rooms", *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


async def rooms(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`rooms_now` off the event loop: the test's own sockets keep answering the server's pings meanwhile."""
    return await asyncio.to_thread(rooms_now, *args, env=env)


async def person(url: str, name: str) -> tuple[socketio.AsyncClient, list[dict[str, Any]]]:
    """A person on a websocket; the `resync` events it gets are collected."""
    sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
    told: list[dict[str, Any]] = []
    sio.on("resync", lambda data: told.append(data))
    await sio.connect(url, auth={"protocol": 2, "name": name}, transports=["websocket"],
                      headers={"Origin": url}, wait_timeout=10)
    return sio, told


async def ok(sio: socketio.AsyncClient, event: str, data: dict[str, Any]) -> dict[str, Any]:
    answer = await sio.call(event, data, timeout=10)
    assert answer["ok"], (event, answer)
    return dict(answer)


def revision() -> str:
    done = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


async def test_an_operator_sees_the_server_start_stop_and_its_rooms(tmp_path):
    redis = RedisProcess(tmp_path).start()
    server = None
    try:
        await redis.ready()
        prefix = "ops-test"
        server = ServerProcess(tmp_path, "replica", redis.url, prefix, tmp_path)
        server.env["TONGIAKI_BOT_WORKERS"] = "0"   # no bot worker: the bots' decisions wait in the queue
        server.env.pop("TONGIAKI_REVISION", None)
        await server.start().ready(60)
        log = server.log.read_text()
        assert re.search(rf"INFO server: listening on http://127\.0\.0\.1:{server.port} \(pid \d+\)", log), log

        metrics = parse_metrics((await http_get(server.url + "/metrics"))[1].decode())
        build = next(k for k in metrics if k.startswith("tongiaki_build_info{"))
        assert f'revision="{revision()}"' in build and 'version="' in build
        assert metrics["tongiaki_broadcasts_lost_total"] == 0

        env = {**os.environ, "REDIS_URL": redis.url, "TONGIAKI_PREFIX": prefix}
        host, told = await person(server.url, "Ana")
        watcher, watcher_told = await person(server.url, "Ben")
        table = (await ok(host, "room_create", {"name": "ops table", "seats": 2, "bot_pace": 0}))["room"]
        await ok(watcher, "room_join", {"room": table["id"]})
        bots = (await ok(host, "room_create", {"name": "bots only", "seats": 2, "bot_pace": 0}))["room"]
        await ok(host, "stand", {"room": bots["id"], "seat": 0})
        await ok(host, "room_start", {"room": bots["id"], "fill_with_bots": True})

        listed = await rooms("--json", env=env)
        assert listed.returncode == 0, listed.stderr
        by_id = {r["id"]: r for r in json.loads(listed.stdout)}
        assert set(by_id) == {table["id"], bots["id"]}
        assert (by_id[table["id"]]["status"], by_id[table["id"]]["humans"]) == ("waiting", 1)
        assert (by_id[bots["id"]]["status"], by_id[bots["id"]]["bots"]) == ("playing", 2)
        text = (await rooms(env=env)).stdout
        assert table["code"] in text and "2 rooms" in text

        shown = await rooms("show", table["code"], "--json", env=env)
        assert shown.returncode == 0, shown.stderr
        room = json.loads(shown.stdout)
        assert room["id"] == table["id"] and room["watching"] == 2 and room["game"] is None
        assert [s["name"] for s in room["seats"]] == ["Ana", None]
        playing = json.loads((await rooms("show", bots["id"], "--json", env=env)).stdout)
        assert playing["game"]["v"] == 0 and [s["kind"] for s in playing["seats"]] == ["bot", "bot"]

        async def queued() -> dict[str, Any] | None:   # the first bot's decision, posted and not taken
            found = json.loads((await rooms("bots", "--json", env=env)).stdout)
            return found if found["jobs"] >= 1 else None
        queue = await until(queued, 30, "a bot job in the queue")
        assert queue["taken"] == {} and queue["oldest_age"] >= 0
        assert re.match(r"jobs: [1-9]\d* \(oldest [\d.]+ s\); taken and not answered: none",
                        (await rooms("bots", env=env)).stdout)

        async def depth() -> bool:
            figures = parse_metrics((await http_get(server.url + "/metrics"))[1].decode())
            return sum(v for k, v in figures.items() if k.startswith("tongiaki_bot_jobs_waiting{class=")) >= 1
        await until(depth, 20, "tongiaki_bot_jobs_waiting on /metrics")

        closed = await rooms("close", table["id"], env=env)
        assert closed.returncode == 0 and f"closed room {table['id']}" in closed.stdout, closed.stderr
        await until(lambda: asyncio.sleep(0, len(told) == 1 and len(watcher_told) == 1), 10,
                    "the room's sockets told to resync")
        gone = await host.call("room_join", {"room": table["id"]}, timeout=10)
        assert gone["error"]["code"] == "no_room"
        assert [r["id"] for r in json.loads((await rooms("--json", env=env)).stdout)] == [bots["id"]]
        missing = await rooms("show", table["id"], env=env)
        assert missing.returncode == 1 and missing.stderr == f"tongiaki rooms: no room {table['id']!r}\n"
        assert (await rooms("close", "NOPE", env=env)).returncode == 1
        await watcher.disconnect()

        server.stop()
        assert server.proc is not None and server.proc.returncode == 0
        log = server.log.read_text()
        assert "INFO server: stopping on SIGTERM" in log
        stopped = re.search(r"INFO server: stopped in [\d.]+ s: closed (.*)", log)
        assert stopped, log
        assert stopped.group(1).split(", ") == ["1 sockets", "pub/sub", "0 bot workers and notifiers",
                                                "the Redis client"]
        await host.disconnect()
    finally:
        if server is not None:
            server.stop()
        redis.stop()


def test_rooms_says_so_in_one_line_when_there_is_no_redis_to_read(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL" and not k.startswith("TONGIAKI_")}
    done = rooms_now("--data-dir", str(tmp_path), env=env)
    assert done.returncode == 2 and "no REDIS_URL, and no running embedded Redis in" in done.stderr
    assert done.stderr.count("\n") == 1
    done = rooms_now(env={**env, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"})
    assert done.returncode == 2 and "unreachable" in done.stderr and "Traceback" not in done.stderr


async def test_every_worker_answers_metrics_on_its_own_port_and_rooms_reads_the_embedded_redis(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL" and not k.startswith("TONGIAKI_")}
    log = tmp_path / "serve.log"
    # the port and the two metrics ports, kept for this test alone until the server has let them go
    with reserved_ports(3) as port:
        metrics_port = port + 1
        with log.open("wb") as out:
            proc = subprocess.Popen([*tongiaki_command(), "serve", "--host", "127.0.0.1", "--port", str(port),
                                     "--workers", "2", "--metrics-port", str(metrics_port), "--bot-workers", "0",
                                     "--data-dir", str(tmp_path / "data")], env=env, cwd=tmp_path,
                                    stdout=out, stderr=subprocess.STDOUT)
        try:
            async def both() -> bool:
                assert proc.poll() is None, log.read_text()
                return len(re.findall(r"listening on http://127\.0\.0\.1:\d+, /metrics also on port",
                                      log.read_text())) == 2
            await until(both, 90, "two workers listening")
            lines = re.findall(r"/metrics also on port (\d+) \(pid (\d+)\)", log.read_text())
            assert sorted(int(p) for p, _ in lines) == [metrics_port, metrics_port + 1]
            assert len({pid for _, pid in lines}) == 2
            for each in (metrics_port, metrics_port + 1):
                status, body, _ = await http_get(f"http://127.0.0.1:{each}/metrics")
                assert status == 200 and "tongiaki_sockets" in body.decode()
                assert (await http_get(f"http://127.0.0.1:{each}/healthz"))[0] == 404   # /metrics alone there
            listed = await rooms("--data-dir", str(tmp_path / "data"), env=env)
            assert listed.returncode == 0 and "0 rooms" in listed.stdout, listed.stderr
        finally:
            proc.terminate()
            proc.wait(60)
    assert proc.returncode == 0
    assert "supervisor stopped (exit status 0)" in log.read_text()

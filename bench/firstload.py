"""The first page load in bytes: the page and what it loads before it is usable (its stylesheet, the bundle's
entry and what the entry imports, the strings of the page's language and of English, the fallback), fetched
as a browser does, with each Accept-Encoding, from the app directly (`tongiaki serve`) and through nginx
running deploy/nginx.conf on loopback (as tests/deploy does); then what a repeat visit asks again (whatever
is not cached for good, by Cache-Control).

    .venv/bin/python -m bench.firstload [--dist client/dist] [--lang fr]

`--dist` may name any build of the client (say an older one, to compare): the page is read for what it loads.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "deploy"))
from deploykit import NginxProcess, nginx_binary  # noqa: E402 - the tests' one way of running deploy/nginx.conf

ENCODINGS = {"none": "identity", "gzip": "gzip, deflate", "br+gzip (a browser)": "gzip, deflate, br, zstd"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wanted_by_page(page: str) -> list[str]:
    """What the page loads before its script runs: stylesheets, module scripts and their preloads."""
    found = re.findall(r'<link rel="(?:stylesheet|modulepreload)" href="([^"]+)"', page)
    found += re.findall(r'<script type="module" src="([^"]+)"', page)
    return [f for f in found if "://" not in f and not f.startswith("data:")]


def wanted_by_entry(code: str, langs: list[str]) -> list[str]:
    """What the bundle's entry loads before the first render: its static imports and the languages' chunks."""
    found = [a or b for a, b in re.findall(r'(?:^|;)import"\./([^"]+)"|from"\./([^"]+)"', code)]
    for lang in langs:
        found += re.findall(rf'import\("\./({lang}-[A-Z0-9]{{8}}\.js)"\)', code)
    return found


async def first_load(base: str, accept: str, langs: list[str]) -> list[tuple[str, int, int, int, str]]:
    """Every response of a first load: (path, status, body bytes on the wire, header bytes, Cache-Control)."""
    rows: list[tuple[str, int, int, int, str]] = []
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        async def get(path: str) -> None:
            async with http.get(f"{base}/{path}", headers={"Accept-Encoding": accept}) as r:
                wire = await r.read()
                head = sum(len(k) + len(v) + 4 for k, v in r.raw_headers) + len("HTTP/1.1 200 OK\r\n\r\n")
                rows.append((path or "/", r.status, len(wire), head, r.headers.get("Cache-Control", "-")))

        async def read(path: str) -> str:  # to know what is loaded next: not counted
            async with http.get(f"{base}/{path}", headers={"Accept-Encoding": "identity"}) as r:
                return (await r.read()).decode()

        await get("")
        first = wanted_by_page(await read(""))
        await asyncio.gather(*(get(p) for p in first))
        entry = next((p for p in first if re.search(r"(^|/)app[-.]", p) and p.endswith(".js")), None)
        if entry:
            more = [p for p in wanted_by_entry(await read(entry), langs) if p not in first]
            await asyncio.gather(*(get(p) for p in more))
    return rows


def table(rows: list[tuple[str, int, int, int, str]]) -> tuple[int, int, int, int]:
    body = sum(r[2] for r in rows)
    head = sum(r[3] for r in rows)
    again = sum(1 for r in rows if "immutable" not in r[4])
    bad = sum(1 for r in rows if r[1] != 200)
    return body, head, again, bad


async def run(dist: Path, lang: str) -> None:
    langs = [lang] if lang == "en" else [lang, "en"]
    tmp = Path(tempfile.mkdtemp(prefix="tongiaki-firstload-"))
    port = free_port()
    env = {**os.environ, "TONGIAKI_DATA_DIR": str(tmp / "data"), "TONGIAKI_CLIENT_DIR": str(dist),
           "TONGIAKI_PREFIX": f"firstload-{secrets.token_hex(3)}", "TONGIAKI_BOT_WORKERS": "0"}
    log = (tmp / "server.log").open("wb")
    server = subprocess.Popen([sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--workers", "1", "--log-level", "warning"], cwd=ROOT, env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    nginx = NginxProcess(tmp, [port], dist) if nginx_binary() else None
    try:
        direct = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            deadline = time.monotonic() + 30
            while True:
                try:
                    async with http.get(direct + "/healthz") as r:
                        if r.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start: " + (tmp / "server.log").read_text()[-2000:])
                await asyncio.sleep(0.1)
        origins = {"direct (the app)": direct}
        if nginx:
            nginx.start()
            await nginx.ready()
            origins["through nginx (deploy/nginx.conf)"] = nginx.url
        else:
            print("no nginx here: only the direct figures (scripts/bootstrap.sh --browser installs it)")
        print(f"first load of {dist} in {lang!r} (page + what it loads before it is usable):")
        print(f"  {'origin':36} {'Accept-Encoding':22} {'requests':>8} {'body B':>9} {'headers B':>9} "
              f"{'total KB':>9} {'asked again':>11}")
        for name, base in origins.items():
            for label, accept in ENCODINGS.items():
                rows = await first_load(base, accept, langs)
                body, head, again, bad = table(rows)
                note = f"  ({bad} not 200)" if bad else ""
                print(f"  {name:36} {label:22} {len(rows):>8} {body:>9} {head:>9} {(body + head) / 1024:>9.1f} "
                      f"{again:>11}{note}")
        rows = await first_load(direct, ENCODINGS["br+gzip (a browser)"], langs)
        print("  what a browser fetches (direct):")
        for path, status, body, _, cache in rows:
            print(f"    {path:28} {status} {body:>8} B  Cache-Control: {cache}")
    finally:
        if nginx:
            nginx.stop()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dist", type=Path, default=ROOT / "client" / "dist", help="a build of the client")
    parser.add_argument("--lang", default="en", choices=["en", "fr", "nl", "de", "he"],
                        help="the page's language (its strings are loaded before the first render)")
    args = parser.parse_args()
    asyncio.run(run(args.dist.resolve(), args.lang))


if __name__ == "__main__":
    main()

"""The web client's files as deploy/nginx.conf serves them (Debian's nginx on loopback): the build's gzip copy
sent as it is (gzip_static), a year of caching without revalidation for hashed names, revalidation for the
page, and the same bytes and headers the app sends directly (tests/realtime/test_client_files.py)."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from deploykit import NginxProcess, free_port, nginx_binary, until

IMMUTABLE = "public, max-age=31536000, immutable"


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[tuple[NginxProcess, Path]]:
    if not nginx_binary():
        pytest.fail("needs nginx: scripts/bootstrap.sh --browser installs it")
    static = tmp_path / "dist"
    static.mkdir()
    page = b"<!doctype html><title>Tongiaki Online</title>" + b"<script type=module src=app-ABCD2345.js></script>" * 30
    code = b"console.log('Tongiaki');\n" * 200
    for name, data in (("index.html", page), ("app-ABCD2345.js", code), ("app-WXYZ6789.css", b"body{}" * 300)):
        (static / name).write_bytes(data)
        (static / (name + ".gz")).write_bytes(gzip.compress(data, 9, mtime=0))
    nginx = NginxProcess(tmp_path, [free_port()], static).start()   # no replica: static files only
    try:
        yield nginx, static
    finally:
        nginx.stop()


async def test_nginx_sends_the_builds_gzip_copy_and_caches_hashed_names_for_good(proxy) -> None:
    nginx, static = proxy
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        async def get(path: str, accept: str) -> tuple[int, bytes, dict[str, str]]:
            async with http.get(nginx.url + path, headers={"Accept-Encoding": accept}) as r:
                return r.status, await r.read(), dict(r.headers)

        await until(lambda: get("/", "gzip"), 10, "nginx up")
        status, body, headers = await get("/app-ABCD2345.js", "gzip, deflate, br")
        assert status == 200 and body == (static / "app-ABCD2345.js.gz").read_bytes()   # the file, not recompressed
        assert headers["Content-Encoding"] == "gzip" and headers["Vary"] == "Accept-Encoding"
        assert headers["Cache-Control"] == IMMUTABLE
        status, body, headers = await get("/app-WXYZ6789.css", "identity")
        assert status == 200 and body == (static / "app-WXYZ6789.css").read_bytes()
        assert "Content-Encoding" not in headers and headers["Cache-Control"] == IMMUTABLE
        for path in ("/", "/index.html"):
            status, body, headers = await get(path, "gzip")
            assert status == 200 and body == (static / "index.html.gz").read_bytes(), path
            assert headers["Cache-Control"] == "no-cache" and headers["Content-Type"].startswith("text/html")
        assert (await get("/app-ABCD9999.js", "gzip"))[0] == 404

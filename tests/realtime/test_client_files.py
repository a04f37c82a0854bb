"""The built web client as the app serves it (server/app.py `client_files`): a hashed file is cached for a year
without revalidation, the page is revalidated at every load, and the build's precompressed copy (.br, .gz) is
sent where the browser accepts it, byte for byte."""

from __future__ import annotations

import gzip

import aiohttp

IMMUTABLE = "public, max-age=31536000, immutable"


async def test_hashed_files_are_immutable_the_page_is_revalidated_and_copies_match_the_encoding(
        server, config) -> None:
    dist = config.client_dir
    dist.mkdir()
    page = b"<!doctype html><title>built</title>" + b"<script type=module src=app-ABCD2345.js></script>" * 20
    code = b"console.log('Tongiaki');\n" * 200
    (dist / "index.html").write_bytes(page)
    (dist / "index.html.gz").write_bytes(gzip.compress(page))
    (dist / "app-ABCD2345.js").write_bytes(code)
    (dist / "app-ABCD2345.js.gz").write_bytes(gzip.compress(code))
    (dist / "app-ABCD2345.js.br").write_bytes(b"brotli stand-in: the file beside, sent as it is")
    (dist / "fr-QWERTY77.js").write_bytes(b"export default {};")   # no copies: sent as it is
    (dist / "app.js").write_bytes(b"an unhashed name")
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        async def get(path: str, accept: str) -> tuple[aiohttp.ClientResponse, bytes]:
            async with http.get(server.url + path, headers={"Accept-Encoding": accept}) as r:
                return r, await r.read()

        r, body = await get("/app-ABCD2345.js", "gzip, deflate, br, zstd")
        assert r.status == 200 and body == (dist / "app-ABCD2345.js.br").read_bytes()
        assert r.headers["Content-Encoding"] == "br"
        assert r.headers["Content-Type"].startswith(("text/javascript", "application/javascript"))
        assert r.headers["Cache-Control"] == IMMUTABLE
        assert r.headers["Vary"] == "Accept-Encoding"
        r, body = await get("/app-ABCD2345.js", "gzip")
        assert r.headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == code
        assert r.headers["Cache-Control"] == IMMUTABLE
        r, body = await get("/app-ABCD2345.js", "identity")
        assert "Content-Encoding" not in r.headers and body == code
        assert r.headers["Cache-Control"] == IMMUTABLE and r.headers["Vary"] == "Accept-Encoding"
        r, body = await get("/fr-QWERTY77.js", "br, gzip")
        assert "Content-Encoding" not in r.headers and body == b"export default {};"
        assert r.headers["Cache-Control"] == IMMUTABLE
        # the page (and anything unhashed) is revalidated: a new build's names are seen at the next load
        for path in ("/", "/index.html"):
            r, body = await get(path, "gzip")
            assert r.status == 200 and gzip.decompress(body) == page
            assert r.headers["Cache-Control"] == "no-cache" and r.headers["Content-Type"].startswith("text/html")
            assert "ETag" in r.headers or "Last-Modified" in r.headers   # revalidation is cheap: a 304
        r, _ = await get("/app.js", "gzip")
        assert r.headers["Cache-Control"] == "no-cache"
        r, _ = await get("/app-ABCD9999.js", "gzip")
        assert r.status == 404

"""The web client itself behind deploy/nginx.conf (Debian's nginx on loopback) and two replicas run as
docker-compose.yml runs them (`TONGIAKI_ROUTE_BY_ROOM` on), in Debian's Chromium: every socket of a table
lands on the replica that holds it, those of people who joined the table by its private code included
(the code is answered by whichever replica holds the lobby's socket; the page then follows the table)."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from deploykit import Topology, nginx_binary

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "client" / "dist"
ARTIFACTS = ROOT / "test-artifacts" / "deploy"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
GUESTS = 4   # each lands on the table's replica by chance with odds of one in two without the page's follow


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Topology]:
    if not nginx_binary():
        pytest.fail("needs nginx: scripts/bootstrap.sh --browser installs it")
    if not (DIST / "index.html").is_file():
        pytest.fail("needs the built client: scripts/bootstrap.sh builds it")
    t = Topology(tmp_path, env={"TONGIAKI_ROUTE_BY_ROOM": "on"})
    try:
        yield await t.start()
    finally:
        t.stop()


async def test_a_table_joined_by_its_code_through_the_proxy_is_served_by_the_replica_holding_it(site: Topology):
    from playwright.async_api import async_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            host = await (await browser.new_context(viewport={"width": 1366, "height": 800})).new_page()
            errors: list[str] = []
            host.on("pageerror", lambda e: errors.append(str(e)))
            await host.goto(site.nginx.url + "/")
            await host.wait_for_selector("[data-testid=create-form]")
            await host.check("[data-testid=private]")
            await host.click("[data-testid=create]")
            await host.wait_for_selector("[data-testid=room-code]")
            code = (await host.locator("[data-testid=room-code]").inner_text()).split()[-1]
            room = host.url.split("#/room/")[1]
            guests = []
            for i in range(GUESTS):
                phone = i % 2 == 1
                ctx = await browser.new_context(**({"viewport": {"width": 390, "height": 844}, "has_touch": True,
                                                    "is_mobile": True} if phone else
                                                   {"viewport": {"width": 1366, "height": 800}}))
                guest = await ctx.new_page()
                guest.on("pageerror", lambda e: errors.append(str(e)))
                await guest.goto(site.nginx.url + "/")
                await guest.wait_for_selector("[data-testid=create-form]")
                await guest.fill("[data-testid=code-input]", code)
                await guest.locator("form.join-code button").click()
                await guest.wait_for_selector("[data-testid=seat-list]")
                assert guest.url.endswith(f"#/room/{room}")
                guests.append(guest)
            where = await site.placement(room)
            assert len(where) == 1 + GUESTS, where
            assert len(set().union(*where.values())) == 1, f"the table's sockets are on both replicas: {where}"
            await host.screenshot(path=str(ARTIFACTS / "table-through-the-proxy-desktop.png"))
            await guests[1].screenshot(path=str(ARTIFACTS / "table-joined-by-code-through-the-proxy-phone.png"))
            assert errors == []
        finally:
            await browser.close()

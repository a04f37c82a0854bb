"""The links of messages (server/notify/api.py) over real HTTP. Unsubscribing: the link of a message opens a
page with one button, in the person's language, and changes nothing by itself (scanners fetch every link of
a message); the button and a mail client's one-click POST (RFC 8058) unsubscribe; a forged link changes
nothing and says so. Confirming an address: the same, its link asks and its button confirms."""

from __future__ import annotations

import asyncio
import html
import re
from typing import Any

import aiohttp
import redis.asyncio as redis

from server.notify.compose import Message, confirmation, links
from server.notify.mail import email_of
from server.notify.reach import LANGS, Reaches
from server.notify.words import say

BASE = "https://play.example.org"
ROOM = "r_0123abcd"


async def fetch(url: str, link: str, method: str = "GET", data: Any = None) -> tuple[int, str]:
    """One request to the server under test (`BASE`: the address links were written with); asked again
    when the address's rate limit says to wait (these tests ask more than people do)."""
    while True:
        async with aiohttp.ClientSession() as http, http.request(method, link.replace(BASE, url), data=data) as r:
            if r.status != 429:
                return r.status, html.unescape(await r.text())
            await asyncio.sleep(float(r.headers["Retry-After"]))


async def a_person(reaches: Reaches, person: str, lang: str) -> str:
    """A person reached by a confirmed address, at `ROOM` every turn; their unsubscribe token."""
    assert await reaches.confirm(await reaches.set_email(person, f"{person}@example.org", lang)) == person
    await reaches.set_mode(person, ROOM, "every")
    return (await reaches.get(person)).unsub


async def test_the_link_asks_and_the_button_or_the_mail_client_unsubscribes(server, redis_url, prefix):
    reaches = Reaches(redis.Redis.from_url(redis_url), prefix)
    try:
        for lang in LANGS:
            person = f"p_{lang}"
            await a_person(reaches, person, lang)
            reach = await reaches.get(person)
            link = links(BASE, reach, ROOM)
            # the link of the table, then of everything: a page in the person's language, nothing changed
            for url, ask in ((link["table"], "unsubscribe.ask"), (link["all"], "unsubscribe.ask.all")):
                for _ in range(2):   # a scanner, then the person
                    status, page = await fetch(server.url, url)
                    assert status == 200 and say(lang, ask) in page and f'lang="{lang}"' in page, page
                    assert say(lang, "unsubscribe.button") in page and 'method="post"' in page
                assert await reaches.get(person) == reach
            # the button: the form posts where the page says, the table is off, nothing else
            status, page = await fetch(server.url, link["table"])
            action = re.search(r"action=\"([^\"]*)\"", page)
            assert action is not None
            posted = link["table"].split("?")[0] + action.group(1)
            assert posted == link["table"]
            status, page = await fetch(server.url, posted, "POST", data={})
            assert status == 200 and say(lang, "unsubscribed") in page
            after = await reaches.get(person)
            assert after.mode(ROOM) == "off" and after.channels() == ["mail"]
        # the mail client's one-click unsubscribe: a POST to the message's List-Unsubscribe, every message
        reach = await reaches.get("p_de")
        message = Message("turn:x", "mail", "p_de", "de", "s", "b", BASE, links(BASE, reach, None)["all"], 0.0)
        mail = email_of(message, "p_de@example.org", "tables@example.org")
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        header = str(mail["List-Unsubscribe"]).strip("<>")
        status, page = await fetch(server.url, header, "POST", data={"List-Unsubscribe": "One-Click"})
        assert status == 200 and say("de", "unsubscribed.all") in page
        assert (await reaches.get("p_de")).channels() == []
    finally:
        await reaches.redis.aclose()


async def test_a_bad_or_forged_link_says_so_and_changes_nothing(server, redis_url, prefix):
    reaches = Reaches(redis.Redis.from_url(redis_url), prefix)
    try:
        token = await a_person(reaches, "p_ana", "fr")
        before = await reaches.get("p_ana")
        forged = "A" * len(token)
        bad = [(f"/api/notify/unsubscribe?t={forged}", 404), (f"/api/notify/unsubscribe?t={forged}&room={ROOM}", 404),
               ("/api/notify/unsubscribe?t=short", 400), (f"/api/notify/unsubscribe?t={token}&room=../x", 400),
               ("/api/notify/unsubscribe", 400), (f"/api/notify/unsubscribe?t={token}<script>", 400)]
        for path, expected in bad:
            for method in ("GET", "POST"):
                status, page = await fetch(server.url, server.url + path, method, {"List-Unsubscribe": "One-Click"})
                assert status == expected and say("en", "bad_link") in page and "Traceback" not in page, (path, page)
        assert await reaches.get("p_ana") == before
    finally:
        await reaches.redis.aclose()


async def test_the_confirmation_link_asks_and_its_button_confirms(server, redis_url, prefix):
    reaches = Reaches(redis.Redis.from_url(redis_url), prefix)
    try:
        for lang in LANGS:
            person = f"p_{lang}"
            token = await reaches.set_email(person, f"{person}@example.org", lang)
            link = confirmation(person, f"{person}@example.org", lang, BASE, token, 0.0).url
            before = await reaches.get(person)
            # the link: a page in the person's language with one button; a scanner, then the person
            for _ in range(2):
                status, page = await fetch(server.url, link)
                assert status == 200 and say(lang, "confirm.ask") in page and f'lang="{lang}"' in page, page
                assert say(lang, "confirm.button") in page and 'method="post"' in page
                assert say(lang, "confirmed") not in page
            assert await reaches.get(person) == before and not before.email_ok
            assert await reaches.confirming(token) == person
            # the button: the form posts where the page says, and the address is confirmed
            action = re.search(r"action=\"([^\"]*)\"", page)
            assert action is not None
            posted = link.split("?")[0] + action.group(1)
            assert posted == link
            status, page = await fetch(server.url, posted, "POST", data={})
            assert status == 200 and say(lang, "confirmed") in page
            assert (await reaches.get(person)).email_ok
            # used: the link and its button say so
            for method in ("GET", "POST"):
                status, page = await fetch(server.url, link, method, data={})
                assert status == 404 and say("en", "bad_link") in page
        # a link for an address changed since: it asks nothing and confirms nothing
        old = await reaches.set_email("p_ana", "ana@example.org", "fr")
        await reaches.set_email("p_ana", "ana@example.net", "fr")
        for method in ("GET", "POST"):
            status, page = await fetch(server.url, f"{BASE}/api/notify/confirm?t={old}", method, data={})
            assert status == 404 and say("en", "bad_link") in page
        assert not (await reaches.get("p_ana")).email_ok
        # malformed or forged: says so, changes nothing
        standing = await reaches.set_email("p_ben", "ben@example.org", "nl")
        for path, expected in ((f"/api/notify/confirm?t={'A' * len(standing)}", 404), ("/api/notify/confirm", 400),
                               ("/api/notify/confirm?t=short", 400), (f"/api/notify/confirm?t={standing}<x>", 400)):
            for method in ("GET", "POST"):
                status, page = await fetch(server.url, server.url + path, method, data={})
                assert status == expected and say("en", "bad_link") in page and "Traceback" not in page, (path, page)
        assert not (await reaches.get("p_ben")).email_ok and await reaches.confirming(standing) == "p_ben"
    finally:
        await reaches.redis.aclose()

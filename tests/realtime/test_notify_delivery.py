"""What the notifier guarantees across its own deaths (server/notify/worker.py, outbox.py), against a real
Redis and a real SMTP server on loopback (aiosmtpd): a message handed to the mail server by a notifier
killed before it recorded the answer is not sent again."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import redis.asyncio as redis
from notifykit import running, smtp_server

from server.notify import outbox as outbox_module
from server.notify.facts import FactStream
from server.notify.outbox import Outbox
from server.notify.reach import Reaches
from server.notify.words import say

BASE = "https://play.example.org"


async def test_a_notifier_killed_after_the_mail_server_took_a_message_does_not_send_it_again(
        redis_url, prefix, monkeypatch, caplog):
    """The mail server takes a confirmation message; before its answer reaches the notifier, the notifier's
    tasks are cancelled (as a kill at that point: nothing after it runs). The next notifier finds the
    message handed over and unrecorded once its lease ends: exactly one message reaches the server, and
    the notifier says in its log why it did not send it again."""
    monkeypatch.setattr(outbox_module, "LEASE", 1.0)   # the dead notifier's lease ends soon
    client = redis.Redis.from_url(redis_url)
    reaches, outbox = Reaches(client, prefix), Outbox(client, prefix)
    try:
        async with smtp_server() as (inbox, port):
            handle = inbox.handle_DATA
            killed: list[str] = []

            async def kill_then_accept(server: Any, session: Any, envelope: Any) -> str:
                answer = await handle(server, session, envelope)   # the server keeps it
                if not killed:   # the notifier dies before it hears "250"
                    killed.append(victim.consumer)
                    for task in asyncio.all_tasks():   # its reading and sending, not its stopping
                        coro: Any = task.get_coro()
                        frame = getattr(coro, "cr_frame", None)
                        if frame is not None and frame.f_locals.get("self") is victim and \
                                coro.__qualname__ in ("Notifier._facts", "Notifier._send_due"):
                            task.cancel()
                return answer
            inbox.handle_DATA = kill_then_accept  # type: ignore[method-assign]

            token = await reaches.set_email("p_ana", "ana@example.org", "de")
            async with running(redis_url, prefix, BASE, port) as victim:
                await FactStream(client, prefix).confirm("p_ana", "ana@example.org", token, "de")
                await inbox.wait(lambda: bool(killed) and len(inbox.messages) == 1)
                await asyncio.sleep(0.5)   # the thread gets its "250"; nobody is left to record it
            key = f"confirm:{token}"
            assert await outbox.was_done(key) is None and victim.sent == 0
            caplog.set_level(logging.WARNING, logger="server.notify.worker")
            async with running(redis_url, prefix, BASE, port) as second:
                async with asyncio.timeout(20):
                    while await outbox.was_done(key) is None:
                        await asyncio.sleep(0.05)
                await asyncio.sleep(1.5)   # time enough to send it again, were it to be
            assert await outbox.was_done(key) == "ambiguous" and second.sent == 0
            assert [m["Subject"] for m in inbox.messages] == [say("de", "confirm.subject")]
            assert await outbox.waiting() == 0
            assert any(key in r.getMessage() and "not sent again" in r.getMessage() for r in caplog.records)
    finally:
        await client.aclose()


async def test_a_refused_message_is_no_longer_marked_as_handed_over(redis_url, prefix):
    """A message the mail server refused (451) was not taken: it is tried again and delivered, not dropped
    as possibly sent."""
    client = redis.Redis.from_url(redis_url)
    reaches = Reaches(client, prefix)
    try:
        async with smtp_server() as (inbox, port):
            inbox.refuse = refusals = 1
            token = await reaches.set_email("p_ben", "ben@example.org", "fr")
            async with running(redis_url, prefix, BASE, port, retry=0.1) as notifier:
                await FactStream(client, prefix).confirm("p_ben", "ben@example.org", token, "fr")
                await inbox.wait(lambda: len(inbox.messages) == 1)
            assert len(inbox.attempts) == refusals + 1 and notifier.sent == 1
            assert await Outbox(client, prefix).was_done(f"confirm:{token}") == "sent"
    finally:
        await client.aclose()


async def test_a_fact_a_dead_notifier_took_is_claimed_and_the_stream_keeps_none_once_read(redis_url, prefix):
    """A notifier took two confirmation facts from the group and died before acknowledging them (they
    are pending for it); the next one claims them (XAUTOCLAIM) and sends the one whose link still stands;
    the other's link was used meanwhile, and read late it is not sent. Once acknowledged, the stream is
    trimmed to nothing; 50 more facts read in time leave nothing either."""
    client = redis.Redis.from_url(redis_url)
    reaches, facts = Reaches(client, prefix), FactStream(client, prefix)
    stream = facts.key
    try:
        async with smtp_server() as (inbox, port):
            used = await reaches.set_email("p_used", "used@example.org", "en")
            standing = await reaches.set_email("p_ana", "ana@example.org", "nl")
            await client.xgroup_create(stream, "notifiers", id="0", mkstream=True)
            await facts.confirm("p_used", "used@example.org", used, "en")
            await facts.confirm("p_ana", "ana@example.org", standing, "nl")
            taken = await client.xreadgroup("notifiers", "n_dead", {stream: ">"}, count=10)
            assert len(taken[0][1]) == 2
            assert await reaches.confirm(used) == "p_used"   # the person found the link some other way
            await asyncio.sleep(1.2)   # now late
            async with running(redis_url, prefix, BASE, port, late=1.0) as back:
                await inbox.wait(lambda: len(inbox.messages) == 1)
                async with asyncio.timeout(10):
                    while await client.xlen(stream) > 0:
                        await asyncio.sleep(0.05)
                assert (await client.xpending(stream, "notifiers"))["pending"] == 0
                for i in range(50):
                    await facts.game_ended(f"r_{i:08x}")   # rooms long gone: nothing to send
                async with asyncio.timeout(10):
                    while await client.xlen(stream) > 0:
                        await asyncio.sleep(0.05)
            assert [m["To"] for m in inbox.messages] == ["ana@example.org"] and back.sent == 1
            assert inbox.messages[0]["Subject"] == say("nl", "confirm.subject")
    finally:
        await client.aclose()

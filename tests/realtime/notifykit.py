"""What the notification tests share: a real SMTP server on loopback (aiosmtpd) that keeps what it
received and can refuse, an in-test notifier, and the HTTP calls of the settings page."""

from __future__ import annotations

import asyncio
import contextlib
import email
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from typing import Any

import aiohttp
import redis.asyncio as redis
from aiosmtpd.smtp import SMTP

from server.lobby.modes import MODES
from server.notify.mail import Mailer, MailServer
from server.notify.push import Pusher
from server.notify.worker import LATE, Notifier

SENDER = "tables@example.org"
LINK = re.compile(r"https?://\S+")


@dataclass
class Inbox:
    """The aiosmtpd handler: every message accepted, in order of arrival; `refuse` delivery attempts
    are answered 451 first (a mail server that cannot take mail now), each attempt's time kept."""

    messages: list[EmailMessage] = field(default_factory=list)
    attempts: list[float] = field(default_factory=list)
    refuse: int = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.attempts.append(time.monotonic())
        if self.refuse > 0:
            self.refuse -= 1
            return "451 4.3.0 mailbox busy, try again later"
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        message["X-Envelope-To"] = ",".join(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 2.0.0 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]

    async def wait(self, predicate: Callable[[], bool], timeout: float = 20.0) -> None:
        """Until `predicate` holds; on timeout, an AssertionError listing what came."""
        try:
            async with asyncio.timeout(timeout):
                while not predicate():
                    await asyncio.sleep(0.02)   # polling the inbox: the server appends from its own handler
        except TimeoutError:
            came = "; ".join(f"{m['To']}: {m['Subject']}" for m in self.messages)
            raise AssertionError(f"the inbox: {came}") from None


@contextlib.asynccontextmanager
async def smtp_server() -> AsyncIterator[tuple[Inbox, int]]:
    """A real SMTP server (aiosmtpd) on a loopback port the OS gives, in this event loop."""
    inbox = Inbox()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(inbox, hostname="mail.test"), "127.0.0.1", 0)
    try:
        yield inbox, server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


@contextlib.asynccontextmanager
async def running(redis_url: str, prefix: str, base: str, smtp_port: int | None, pusher: Pusher | None = None,
                  retry: float = 0.2, digest_every: float = 3600.0, remind: float = 0.5, late: float = LATE
                  ) -> AsyncIterator[Notifier]:
    """A notifier reading the facts of `prefix`, until the block ends (as a stopped process would). Its
    reminders go half the turn's time before the deadline (the default sixth of a test's 2 s turn leaves
    a loaded machine too little time to send before the turn is over)."""
    client = redis.Redis.from_url(redis_url)
    mailer = Mailer(MailServer("127.0.0.1", smtp_port, "off", SENDER)) if smtp_port else None
    notifier = Notifier(client, prefix, MODES, base, mailer, pusher, retry=retry, digest_every=digest_every,
                        reclaim=0.5, remind=remind, late=late)
    stop = asyncio.Event()
    task = asyncio.create_task(notifier.run(stop))
    try:
        yield notifier
    finally:
        stop.set()
        await task
        await client.aclose()


async def api(url: str, token: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One call of the notification API as the client makes it (the session token as Bearer)."""
    async with aiohttp.ClientSession() as http, http.request(
            method, url + path, json=body, headers={"Authorization": f"Bearer {token}"}) as r:
        return r.status, await r.json()


async def follow(url: str, link: str, base: str, method: str = "GET") -> tuple[int, str]:
    """Opens a message's link on the server under test (`base` is the address messages were written with);
    `POST`: as the button of the page it opens, or a mail client's one-click unsubscribe."""
    async with aiohttp.ClientSession() as http, http.request(method, link.replace(base, url)) as r:
        return r.status, await r.text()


def links(message: EmailMessage) -> list[str]:
    return LINK.findall(message.get_content())

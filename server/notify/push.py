"""Web push (RFC 8030, with VAPID, RFC 8292, and the aes128gcm content encoding of RFC 8291) through
pywebpush: the notifier posts the encrypted, signed message to the push service's endpoint the
person's browser subscribed with; the service worker (client/src/sw.js) shows it.

`tongiaki vapid` makes the key pair once: the private key file the server signs with (`vapid_key`),
and its public key, which browsers subscribe with (the client asks `/api/notify/status` for it)."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

import aiohttp
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush_async  # type: ignore[import-untyped]

from server.notify.compose import Message

TTL = 3 * 86400
"""Seconds the push service keeps a message for a browser that is off (a turn lasts up to 72 hours)."""

TIMEOUT = 20.0


class Gone(Exception):
    """The subscription is no more (the push service answered 404 or 410): forget it."""


class PushRefused(Exception):
    """The push service did not take the message (try again later)."""


def public_key(vapid: Vapid) -> str:
    """The application server key browsers subscribe with: the uncompressed point, base64url."""
    raw = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def make_keys(path: Path) -> str:
    """Writes a new private key to `path` (readable by its owner only; an existing file is never
    overwritten: browsers subscribed with its key) and returns its public key."""
    if path.exists():
        raise FileExistsError(f"{path} exists: keep it, or remove it first (browsers subscribed with it)")
    vapid = Vapid()
    vapid.generate_keys()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(vapid.private_pem())
    return public_key(vapid)


def load_key(path: Path) -> Vapid:
    return Vapid.from_file(private_key_file=str(path))


def payload(message: Message) -> str:
    """What the service worker gets: the title, the first line, where a click goes (never more than the
    message: no secret)."""
    return json.dumps({"title": message.subject, "body": message.body.split("\n", 1)[0], "url": message.url,
                       "tag": message.room or message.key, "lang": message.lang}, ensure_ascii=False)


class Pusher:
    """Sends web push messages signed with one VAPID key; `subject` is the contact the push service may
    write to (a mailto: or https: URL)."""

    def __init__(self, key: Vapid, subject: str) -> None:
        self.key = key
        self.subject = subject
        self.public = public_key(key)

    def __repr__(self) -> str:
        return f"Pusher({self.public[:12]}…, {self.subject!r})"

    async def send(self, message: Message, subscription: dict[str, Any]) -> None:
        """Posts the message to the subscription's endpoint; Gone or PushRefused when not taken."""
        headers = {"Urgency": "normal"}
        if message.room:
            headers["Topic"] = message.room   # a newer message of the table replaces one not yet delivered
        try:
            await webpush_async(subscription, payload(message), vapid_private_key=self.key,
                                vapid_claims={"sub": self.subject}, ttl=TTL, headers=headers,
                                timeout=aiohttp.ClientTimeout(total=TIMEOUT))
        except WebPushException as e:
            status = getattr(e.response, "status", None) or getattr(e.response, "status_code", None)
            if status in (404, 410):
                raise Gone(str(status)) from None
            raise PushRefused(f"{status}: {str(e)[:200]}") from None
        except (aiohttp.ClientError, TimeoutError, OSError) as e:
            raise PushRefused(repr(e)) from None

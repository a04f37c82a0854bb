"""The ways a person may be reached, and what they want to hear of each table (Redis).

| key | type | what |
| --- | --- | --- |
| `P:{P}:notify:reach:{person}` | hash | `lang`; `email`, `email_ok` (`1` once confirmed); `push` (JSON); `unsub` |
| `P:{P}:notify:prefs:{person}` | hash | room id → `every`, `mine`, `digest` or `off` (unset: `mine`) |
| `P:{P}:notify:confirm:{token}` | string | the person and address a confirmation link stands for (`CONFIRM_TTL`) |
| `P:{P}:notify:unsub:{token}` | string | the person an unsubscribe token stands for |
| `P:{P}:notify:asked:{person}` | string | set while the person may not ask for another confirmation |

`push` is a browser's web push subscription, `unsub` the token of the person's one-click unsubscribe
links. A person's records live `REACH_TTL` after their last change."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as redis

from server.config import directory_tag, one_slot

LANGS = ("en", "fr", "de", "nl", "he")
"""The languages of messages: the client's (client/src/lang/)."""

MODES = ("every", "mine", "digest", "off")
"""What a person hears of a table: every turn, only when it is their move, a daily digest, nothing."""
DEFAULT_MODE = "mine"

CONFIRM_TTL = 2 * 86400
REACH_TTL = 180 * 86400
EMAIL = re.compile(r"[^@\s<>\"',;]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,63}")
"""An address we send to: one @, a dotted domain, nothing a header could be split on."""


@dataclass
class Reach:
    """How one person may be reached."""

    person: str
    lang: str = "en"
    email: str | None = None
    email_ok: bool = False
    push: dict[str, Any] | None = None
    unsub: str = ""
    prefs: dict[str, str] = field(default_factory=dict)

    def mode(self, room_id: str) -> str:
        return self.prefs.get(room_id, DEFAULT_MODE)

    def channels(self) -> list[str]:
        """The channels a message goes by: a confirmed address, a push subscription."""
        return (["mail"] if self.email and self.email_ok else []) + (["push"] if self.push else [])

    def to_wire(self) -> dict[str, Any]:
        """What the person sees of their own reach (the client's settings)."""
        return {"lang": self.lang, "email": self.email, "email_ok": self.email_ok, "push": self.push is not None,
                "prefs": self.prefs}


def text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class Reaches:
    """The reaches and preferences of people, in Redis under `prefix`."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.redis = client
        self.prefix = prefix

    def __repr__(self) -> str:
        return f"Reaches({self.prefix!r})"

    def key(self, *parts: str) -> str:
        # the deployment's directory tag, as the outbox's: a person's keys change together in one transaction
        return ":".join((directory_tag(self.prefix), "notify", *parts))

    async def may_ask(self, person: str, every: float) -> bool:
        """Whether the person may ask for a confirmation message now (one every `every` seconds): True
        once a window, and the window starts."""
        return bool(await self.redis.set(self.key("asked", person), "1", nx=True, ex=max(1, int(every))))

    async def get(self, person: str) -> Reach:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self.key("reach", person))
            pipe.hgetall(self.key("prefs", person))
            raw, prefs = await pipe.execute()
        data = {text(k): text(v) for k, v in raw.items()}
        push = None
        if data.get("push"):
            try:
                push = json.loads(data["push"])
            except ValueError:
                push = None
        return Reach(person, data.get("lang", "en"), data.get("email") or None, data.get("email_ok") == "1", push,
                     data.get("unsub", ""), {text(k): text(v) for k, v in prefs.items()})

    async def many(self, people: list[str]) -> dict[str, Reach]:
        return {p: await self.get(p) for p in people}

    async def _save(self, person: str, fields: dict[Any, Any], drop: tuple[str, ...] = ()) -> None:
        key = self.key("reach", person)
        async with one_slot(self.redis) as pipe:
            if drop:
                pipe.hdel(key, *drop)
            if fields:
                pipe.hset(key, mapping=fields)
            pipe.expire(key, REACH_TTL)
            pipe.expire(self.key("prefs", person), REACH_TTL)
            await pipe.execute()

    async def unsub_token(self, person: str) -> str:
        """The person's unsubscribe token, made on first use."""
        token = text(await self.redis.hget(self.key("reach", person), "unsub") or "")
        if not token:
            token = secrets.token_urlsafe(18)
            async with one_slot(self.redis) as pipe:
                pipe.hsetnx(self.key("reach", person), "unsub", token)
                pipe.hget(self.key("reach", person), "unsub")
                _, stored = await pipe.execute()
            token = text(stored)
            await self.redis.set(self.key("unsub", token), person, ex=REACH_TTL)
        return token

    async def set_email(self, person: str, email: str, lang: str) -> str:
        """Records an address to confirm; returns the confirmation token (the link sends it back)."""
        token = secrets.token_urlsafe(24)
        await self._save(person, {"email": email, "lang": lang}, drop=("email_ok",))
        await self.redis.set(self.key("confirm", token), json.dumps([person, email]), ex=CONFIRM_TTL)
        await self.unsub_token(person)
        return token

    async def _standing(self, raw: Any) -> str | None:
        """The person of a confirmation link's record, if their address is still the one it confirms."""
        if raw is None:
            return None
        person, email = json.loads(text(raw))
        if text(await self.redis.hget(self.key("reach", person), "email") or "") != email:
            return None
        return str(person)

    async def confirming(self, token: str) -> str | None:
        """The person a confirmation link stands for while it stands (not used, not expired, the address
        not changed since), without using it; else None."""
        return await self._standing(await self.redis.get(self.key("confirm", token)))

    async def confirm(self, token: str) -> str | None:
        """Confirms the address a link stands for (once); the person, or None for an unknown or used link
        (or an address changed since)."""
        person = await self._standing(await self.redis.getdel(self.key("confirm", token)))
        if person is not None:
            await self._save(person, {"email_ok": "1"})
        return person

    async def set_push(self, person: str, subscription: dict[str, Any], lang: str) -> None:
        await self._save(person, {"push": json.dumps(subscription, separators=(",", ":")), "lang": lang})
        await self.unsub_token(person)

    async def set_lang(self, person: str, lang: str) -> None:
        await self._save(person, {"lang": lang})

    async def forget(self, person: str, channel: str) -> None:
        """Stops a channel: `mail`, `push` or `all`."""
        drop = {"mail": ("email", "email_ok"), "push": ("push",), "all": ("email", "email_ok", "push")}[channel]
        await self._save(person, {}, drop=drop)

    async def set_mode(self, person: str, room_id: str, mode: str) -> None:
        async with one_slot(self.redis) as pipe:
            pipe.hset(self.key("prefs", person), room_id, mode)
            pipe.expire(self.key("prefs", person), REACH_TTL)
            await pipe.execute()

    async def unsub_person(self, token: str) -> str | None:
        """The person an unsubscribe token stands for (None: no one)."""
        raw = await self.redis.get(self.key("unsub", token))
        return None if raw is None else text(raw)

    async def unsubscribe(self, token: str, room_id: str | None) -> str | None:
        """An unsubscribe: that table off (`room_id`), or every message; the person, or None."""
        person = await self.unsub_person(token)
        if person is None:
            return None
        if room_id:
            await self.set_mode(person, room_id, "off")
        else:
            await self.forget(person, "all")
        return person

"""The people's key family: sessions (a token's person and name) and the per-person and per-address counts
that cap what one of them may do. Single keys, spread over a cluster by their own names.

| key | type | holds |
| --- | --- | --- |
| `P:session:{sha256(token)}` | hash | `person`, `name`, `kept` (a seat, a name); expires (`SESSION_TTL` once kept) |
| `P:chatrate:{person}` | string | chat lines of the person in the current window (expires with it) |
| `P:newpeople:{address}` | string | new people (sessions) made for a client address this minute |
"""

from __future__ import annotations

import hashlib

import redis.asyncio as redis

from server.config import one_slot
from server.lobby.store.keys import Keys, text

# A session's person and name, its expiry renewed: `ARGV[1]` seconds once kept, `ARGV[2]` before.
TOUCH_SESSION = """
local raw = redis.call('HMGET', KEYS[1], 'person', 'name', 'kept')
if raw[1] then redis.call('EXPIRE', KEYS[1], raw[3] and ARGV[1] or ARGV[2]) end
return raw
"""

# One more event in a fixed window (KEYS[1], ARGV[1] seconds from its first event): the count.
COUNT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""

SESSION_TTL = 30 * 86400.0
"""Seconds a session (token → person) lives after its last use, once kept (used for a seat or a name)."""

FRESH_SESSION_TTL = 900.0
"""Seconds a session nobody used yet (no seat, no name) lives after its last use: connections without a
token cost a few minutes of Redis each, not a month."""


class People:
    """Sessions and the counts that cap a person or an address."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys
        self._touch_session = client.register_script(TOUCH_SESSION)
        self._count = client.register_script(COUNT)

    def __repr__(self) -> str:
        return f"People({self.keys.prefix!r})"

    # A session key is named by the token's SHA-256, never the token itself (a dump of Redis gives no
    # usable token), and lives `ttl` seconds from its last use: unused sessions go away by themselves.
    def _session_key(self, token: str) -> str:
        return self.keys.key("session", hashlib.sha256(token.encode()).hexdigest())

    async def session(self, token: str, *, ttl: float = SESSION_TTL,
                      fresh_ttl: float = FRESH_SESSION_TTL) -> tuple[str, str, bool] | None:
        """The person and name of a token and whether the session is kept, renewing its expiry (`ttl` once
        kept, `fresh_ttl` before); None: unknown or expired."""
        raw = await self._touch_session(keys=[self._session_key(token)],
                                        args=[max(1, int(ttl)), max(1, int(fresh_ttl))])
        if raw[0] is None:
            return None
        return text(raw[0]), text(raw[1]), raw[2] is not None

    async def save_session(self, token: str, *, person: str, name: str, ttl: float, kept: bool) -> None:
        """Stores the session for `ttl` seconds; `kept`: it was used (a seat, a name), and stays kept."""
        key = self._session_key(token)
        async with one_slot(self.redis) as pipe:
            pipe.hset(key, mapping={"person": person, "name": name, **({"kept": "1"} if kept else {})})
            pipe.expire(key, max(1, int(ttl)))
            await pipe.execute()

    async def count_chat(self, person: str, window: float) -> int:
        """One more chat line from this person: how many they sent in the current window (all their
        sockets, on every process)."""
        return await self._count_in(self.keys.key("chatrate", person), window)

    async def count_new_person(self, address: str, window: float) -> int:
        """One more new person (session) made for a client address: how many in the current window."""
        return await self._count_in(self.keys.key("newpeople", address), window)

    async def _count_in(self, key: str, window: float) -> int:
        """One more event counted in `key`'s fixed window of `window` seconds: the count so far."""
        return int(await self._count(keys=[key], args=[max(1, int(window))]))

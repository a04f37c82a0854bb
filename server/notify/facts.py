"""The facts stream: what the authority tells the notifier, one Redis stream entry per fact.

`P:notify:facts` holds entries of three kinds, each a map of strings: `round` (room, v: the version the
round began at, deciding: the colours, began, clock: seconds or empty), `end` (room) and `confirm`
(person, email, token, lang: an address to confirm). None carries a secret: an order or the stack never
leaves the game's state. The notifiers trim the facts they have all read and acknowledged (worker.py);
the stream is capped besides (`STREAM_CAP`), for when no notifier runs: a fact lost with it costs a
message, never play."""

from __future__ import annotations

from typing import Any

import redis.asyncio as redis

STREAM_CAP = 100_000
"""Facts the stream keeps at most (approximately): the catch-up window of notifiers that were down."""


def stream_key(prefix: str) -> str:
    return f"{prefix}:notify:facts"


class FactStream:
    """Writes facts (the lobby's `Facts` protocol, and the API's address confirmations)."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.redis = client
        self.key = stream_key(prefix)

    def __repr__(self) -> str:
        return f"FactStream({self.key!r})"

    async def _add(self, fields: dict[Any, Any]) -> None:
        await self.redis.xadd(self.key, fields, maxlen=STREAM_CAP, approximate=True)

    async def round_began(self, room_id: str, v: int, deciding: tuple[str, ...], began: float,
                          clock: float | None) -> None:
        """A round of `deciding` began at version v (a new turn: not a chain's next step)."""
        await self._add({"kind": "round", "room": room_id, "v": v, "deciding": ",".join(deciding),
                         "began": repr(began), "clock": "" if clock is None else repr(clock)})

    async def game_ended(self, room_id: str) -> None:
        await self._add({"kind": "end", "room": room_id})

    async def confirm(self, person: str, email: str, token: str, lang: str) -> None:
        """An e-mail address to confirm: the notifier sends the link (never the request that asked)."""
        await self._add({"kind": "confirm", "person": person, "email": email, "token": token, "lang": lang})


def parse(fields: dict[bytes, bytes]) -> dict[str, str]:
    """A stream entry's fields as text."""
    return {k.decode(): v.decode() for k, v in fields.items()}

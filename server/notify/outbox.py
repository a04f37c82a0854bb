"""The outbox: messages waiting to be sent, each under its idempotency key (compose.py `Message.key`).

| key | type | what |
| --- | --- | --- |
| `P:{P}:notify:msg:{key}` | hash | `message` (msgpack), `tries`, `sending` (while handed over) |
| `P:{P}:notify:due` | sorted set | message keys by when they are due (a taken one: until its lease ends) |
| `P:{P}:notify:done:{key}` | string | set once sent (or given up), for `DONE_TTL`: the same key is never queued again |
| `P:{P}:notify:digest:{person}` | list | lines for the person's next digest |
| `P:{P}:notify:digest_due:{person}` | string | set while the person's next digest is scheduled |

A message is queued only if its key is neither waiting nor done (`put`, one script): a fact read twice,
by a notifier started again or by two notifiers, queues nothing twice. A notifier takes a due message
with a lease (`take`): if it dies, the message is due again when the lease ends. Before handing a message
over it records `sending` (with the mail's Message-ID); once sent, `done`. A message found `sending` when
taken again was handed over by a notifier that died before recording the answer: it may have arrived,
so it is not sent again (at most once; the notifier logs it)."""

from __future__ import annotations

import math
from typing import Any

import msgpack  # type: ignore[import-untyped]
import redis.asyncio as redis

from server.config import directory_tag, one_slot
from server.notify.compose import Message

DONE_TTL = 14 * 86400
"""Seconds a sent message's key is remembered: longer than any game's turn."""

LEASE = 60.0
"""Seconds a taken message is held by the notifier sending it before another may take it."""

# KEYS: msg hash, done key, due zset; ARGV: the message (msgpack), due, the key, "1" to replace one waiting
PUT = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then
  if ARGV[4] ~= '1' then return 0 end
  redis.call('HSET', KEYS[1], 'message', ARGV[1])
  redis.call('ZADD', KEYS[3], 'XX', ARGV[2], ARGV[3])
  return 2
end
redis.call('HSET', KEYS[1], 'message', ARGV[1], 'tries', 0)
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
return 1
"""

# KEYS: msg hash, due zset; ARGV: the key, due, 1 to count a try: due again, no longer being sent (a message
# done meanwhile, by another notifier after the lease, stays done)
AGAIN = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HDEL', KEYS[1], 'sending')
redis.call('ZADD', KEYS[2], 'XX', ARGV[2], ARGV[1])
return redis.call('HINCRBY', KEYS[1], 'tries', tonumber(ARGV[3]))
"""

# KEYS: due zset; ARGV: now, lease end, most: keys due, each moved to the lease's end
TAKE = """
local keys = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, k in ipairs(keys) do redis.call('ZADD', KEYS[1], ARGV[2], k) end
return keys
"""


class Outbox:
    """The outbox of one deployment (`prefix`)."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.redis = client
        self.prefix = prefix
        self.due_key = self.key("due")
        self._put = client.register_script(PUT)
        self._take = client.register_script(TAKE)
        self._again = client.register_script(AGAIN)

    def __repr__(self) -> str:
        return f"Outbox({self.prefix!r})"

    def key(self, *parts: str) -> str:
        # (the deployment's directory tag: the scripts and transactions over several of these keys touch one
        # Redis Cluster slot)
        return ":".join((directory_tag(self.prefix), "notify", *parts))

    async def put(self, message: Message, replace: bool = False) -> bool:
        """Queues the message unless its key is done or already queued (`replace`: a queued one takes this
        one's text and time, as a reminder does when its round's clock started later); True when queued."""
        packed = msgpack.packb(message.to_store(), use_bin_type=True)
        return bool(await self._put(keys=[self.key("msg", message.key), self.key("done", message.key), self.due_key],
                                    args=[packed, message.due, message.key, "1" if replace else "0"]))

    async def take(self, now: float, most: int = 20) -> list[tuple[Message, int, str | None]]:
        """Due messages, each with the times it was tried and what it was being sent as when its notifier
        died (None: it was not being sent), leased to the caller for `LEASE` seconds."""
        keys = await self._take(keys=[self.due_key], args=[now, now + LEASE, most])
        out = []
        for raw_key in keys:
            key = raw_key.decode() if isinstance(raw_key, bytes) else str(raw_key)
            raw, tries, sending = await self.redis.hmget(self.key("msg", key), "message", "tries", "sending")
            if raw is None:   # sent meanwhile by another notifier
                await self.redis.zrem(self.due_key, key)
                continue
            out.append((Message.from_store(msgpack.unpackb(raw, raw=False)), int(tries or 0),
                        None if sending is None else sending.decode() if isinstance(sending, bytes) else str(sending)))
        return out

    async def sending(self, key: str, as_: str) -> None:
        """About to hand the message over (`as_`: its Message-ID, or the channel): from now until `done` or
        `again`, it may have arrived."""
        await self.redis.hset(self.key("msg", key), "sending", as_)

    async def done(self, key: str, how: str = "sent") -> None:
        """Sent (or given up, or no longer wanted): never queued again."""
        async with one_slot(self.redis) as pipe:
            pipe.set(self.key("done", key), how, ex=DONE_TTL)
            pipe.delete(self.key("msg", key))
            pipe.zrem(self.due_key, key)
            await pipe.execute()

    async def again(self, key: str, at: float, count: bool = True) -> int:
        """Refused (`count`: one more try) or left untried: due again at `at`; returns the times tried
        (-1: the message is done already)."""
        return int(await self._again(keys=[self.key("msg", key), self.due_key], args=[key, at, 1 if count else 0]))

    async def was_done(self, key: str) -> str | None:
        raw = await self.redis.get(self.key("done", key))
        return None if raw is None else raw.decode() if isinstance(raw, bytes) else str(raw)

    async def waiting(self) -> int:
        return int(await self.redis.zcard(self.due_key))

    # -- digests -----------------------------------------------------------------------------------
    async def add_digest_line(self, person: str, line: dict[str, Any], line_key: str, every: float) -> bool:
        """Adds a line to the person's next digest, once per `line_key` (a fact read twice adds it once).
        True when it is the first line of a digest not yet scheduled (the caller schedules it)."""
        if not await self.redis.set(self.key("done", "line", line_key), "1", nx=True, ex=DONE_TTL):
            return False
        await self.redis.rpush(self.key("digest", person), msgpack.packb(line, use_bin_type=True))
        return bool(await self.redis.set(self.key("digest_due", person), "1", nx=True, ex=math.ceil(every + LEASE)))

    async def take_digest(self, person: str) -> list[dict[str, Any]]:
        """The lines of the person's digest, removed (the next line schedules the next digest)."""
        async with one_slot(self.redis) as pipe:
            pipe.lrange(self.key("digest", person), 0, -1)
            pipe.delete(self.key("digest", person), self.key("digest_due", person))
            raw, _ = await pipe.execute()
        return [msgpack.unpackb(r, raw=False) for r in raw]

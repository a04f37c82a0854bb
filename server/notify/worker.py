"""The notifier (`tongiaki notify`): reads the facts stream (facts.py) through the consumer group
`notifiers`, turns each fact into messages in the outbox (outbox.py, idempotent), and sends what is due,
by mail (mail.py) or web push (push.py), never in a server's event loop or request path.

A fact is acknowledged once its messages are in the outbox; one a notifier took and did not acknowledge
(it died) is claimed by another after `reclaim` seconds. Reading a fact again queues nothing again (each
message has its key), and a message is marked done only once sent, so a notifier started again sends
what was waiting and nothing twice. A message is recorded `sending` before it is handed over: one found so
by the next notifier (its notifier died between handing it over and recording the answer) may have
arrived, and is dropped with a warning rather than sent again (at most once). A refused message is tried
again after `retry` seconds, doubling up to `RETRY_MAX`, without holding the others; after `GIVE_UP`
tries it is dropped (and logged)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import redis.asyncio as redis
from redis.exceptions import RedisError, ResponseError

from server.config import Config, redis_client
from server.lobby.mode import GameMode
from server.lobby.store import Store
from server.notify import compose
from server.notify.facts import parse, stream_key
from server.notify.mail import Mailer, MailServer, Refused
from server.notify.outbox import Outbox
from server.notify.push import Gone, Pusher, PushRefused, load_key
from server.notify.reach import Reach, Reaches, text
from server.notify.turns import table as table_of

log = logging.getLogger(__name__)

GROUP = "notifiers"
RETRY_MAX = 3600.0
GIVE_UP = 12
"""Tries after which a message is dropped: with the default first retry of 30 s, about two days."""

STOP_WITHIN = 30.0
"""Seconds a stopping notifier gives the message it is sending (a mail server's exchange is bounded by 20)."""

LATE = 60.0
"""Seconds after which a fact is read late (its notifier was down or behind): what was decided since counts
(a "your move" for a decision already made is not sent)."""

TRIM_EVERY = 2.0
"""Seconds between two trims of the facts stream down to the facts not yet read and acknowledged."""

POLL = 0.05
"""Seconds between two looks at the outbox when nothing is due (a reminder is sent within this of its time)."""


class Notifier:
    """One notifier: `game_modes` are the rule sets rooms may play, by name (a table's view follows from
    its stored state through its rule set); `mailer` and `pusher` are None when the operator configured none
    (their messages are then not made)."""

    def __init__(self, client: redis.Redis, prefix: str, game_modes: dict[str, GameMode], base_url: str,
                 mailer: Mailer | None, pusher: Pusher | None, retry: float = 30.0, digest_every: float = 86400.0,
                 reclaim: float = 30.0, consumer: str | None = None, remind: float = compose.REMIND_AT,
                 late: float = LATE) -> None:
        self.redis = client
        self.store = Store(client, prefix)
        self.game_modes = game_modes
        self.reaches = Reaches(client, prefix)
        self.outbox = Outbox(client, prefix)
        self.stream = stream_key(prefix)
        self.base = base_url.rstrip("/")
        self.mailer, self.pusher = mailer, pusher
        self.retry, self.digest_every, self.remind, self.late = retry, digest_every, remind, late
        self.reclaim_ms = int(reclaim * 1000)
        self.consumer = consumer or f"n_{secrets.token_hex(4)}"
        self.sent = 0   # messages sent by this notifier (for its log line and the tests)

    def __repr__(self) -> str:
        return f"Notifier({self.consumer}, mail={self.mailer is not None}, push={self.pusher is not None})"

    async def run(self, stop: asyncio.Event) -> None:
        """Reads facts and sends messages until `stop`: the message being sent then is finished and
        recorded first (cut in the middle, it would be sent again by the next notifier)."""
        facts, sending = asyncio.create_task(self._facts(stop)), asyncio.create_task(self._send_due(stop))
        try:
            await stop.wait()
        finally:
            facts.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await facts
            done, _ = await asyncio.wait({sending}, timeout=STOP_WITHIN)
            if not done:
                sending.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sending

    # -- facts -------------------------------------------------------------------------------------
    async def _facts(self, stop: asyncio.Event) -> None:
        grouped = False
        trimmed = 0.0
        while not stop.is_set():
            try:
                if not grouped:
                    with contextlib.suppress(ResponseError):   # BUSYGROUP: made already
                        await self.redis.xgroup_create(self.stream, GROUP, id="0", mkstream=True)
                    grouped = True
                claimed = await self.redis.xautoclaim(self.stream, GROUP, self.consumer, self.reclaim_ms, "0-0",
                                                      count=20)
                entries = [(i, f) for i, f in claimed[1] if f]
                if not entries:
                    answer: Any = await self.redis.xreadgroup(GROUP, self.consumer, {self.stream: ">"}, count=20,
                                                              block=1000)
                    entries = [(i, f) for _s, items in answer or [] for i, f in items]
                for entry_id, fields in entries:
                    try:
                        await self.handle(parse(fields), told_at(entry_id))
                    except RedisError:
                        raise   # the fact stays pending: read again once Redis is back
                    except Exception:   # a bug or a malformed fact: logged and dropped, never read forever
                        log.exception("notifier %s: fact %r dropped", self.consumer, fields)
                    await self.redis.xack(self.stream, GROUP, entry_id)
                if time.monotonic() - trimmed >= TRIM_EVERY:
                    trimmed = time.monotonic()
                    await self._trim()
            except asyncio.CancelledError:
                raise
            except RedisError as e:   # Redis away, or back empty (NOGROUP): wait, then make the group again
                grouped = False
                log.warning("notifier %s: Redis unreachable (%s); retrying in a second", self.consumer, e)
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("notifier %s: a fact could not be read", self.consumer)
                await asyncio.sleep(1.0)

    async def _trim(self) -> None:
        """Drops the facts every notifier has read and acknowledged: the stream keeps only those not yet
        delivered to the group and those delivered and pending (a notifier died holding them)."""
        groups = await self.redis.xinfo_groups(self.stream)
        group = next((g for g in groups if text(g["name"]) == GROUP), None)
        if group is None:
            return
        ms, seq = (int(n) for n in text(group["last-delivered-id"]).split("-"))
        keep = (ms, seq + 1)   # the first id after the last one delivered
        pending = await self.redis.xpending(self.stream, GROUP)
        if pending["pending"]:
            oldest = tuple(int(n) for n in text(pending["min"]).split("-"))
            keep = min(keep, (oldest[0], oldest[1]))
        await self.redis.xtrim(self.stream, minid=f"{keep[0]}-{keep[1]}", approximate=False)

    async def handle(self, fact: dict[str, str], told: float | None = None) -> None:
        """The messages of one fact, into the outbox (a fact read twice queues nothing twice). `told`: when
        the fact was told (None: now); one read `late` seconds after it is caught up on, and what has
        changed since counts: a confirmation whose link is gone, a "your move" for a decision made since
        are not sent (a round that is over was never sent late: its next round's fact says what is new)."""
        now = time.time()
        caught_up = told is not None and now - told > self.late
        kind = fact.get("kind")
        if kind == "confirm":
            if caught_up and not await self.reaches.confirming(fact["token"]):
                return   # the link expired or was used, or the address changed since
            if self.mailer is not None:
                await self.outbox.put(compose.confirmation(fact["person"], fact["email"], fact["lang"], self.base,
                                                           fact["token"], now))
            return
        if kind not in ("round", "end"):
            return
        found = await table_of(self.store, self.game_modes, fact["room"])
        if found is None:
            return
        table, room, view = found
        reaches = {p: r for p, r in (await self.reaches.many(list(table.people))).items() if self._usable(r)}
        if not reaches:
            return
        if kind == "round":
            if str(table.began_v) != fact["v"]:
                return   # that round is over already (read late): the next round's fact says what is new
            # whose decision the round began with (some may have decided since the fact was told: they are
            # told still, unless the fact is read late)
            deciding = tuple(c for c in fact["deciding"].split(",") if c)
            if caught_up:
                deciding = tuple(c for c in deciding if c in table.deciding)
            table = replace(table, deciding=deciding)
            messages, digests = compose.for_round(table, reaches, self.base, now, self.remind)
        else:
            result = view.get("result") or {}
            names = {c: room.seats[room.seat_of_colour(c)].name or c for c in room.settings.colours()}
            winners = [names.get(c, c) for c in result.get("winners", [])]
            messages, digests = compose.for_end(table, winners, reaches, self.base, now)
        for message in messages:   # a round told again (its clock started) moves its reminders
            await self.outbox.put(message, replace=message.key.startswith("remind:"))
        for item in digests:
            line_key = f"{kind}:{table.id}:{table.began_v if kind == 'round' else 'end'}:{item.person}"
            if await self.outbox.add_digest_line(item.person, item.line, line_key, self.digest_every):
                # the first line since the last digest: the next one goes `digest_every` after it
                await self.outbox.put(compose.Message(f"digest:{item.person}:{round(now * 1000)}", "digest",
                                                      item.person, reaches[item.person].lang, "", "", "", "",
                                                      now + self.digest_every))

    def _usable(self, reach: Reach) -> bool:
        """Whether anything can reach the person with what the operator configured."""
        return bool(reach.unsub) and ((self.mailer is not None and reach.email_ok and bool(reach.email))
                                      or (self.pusher is not None and reach.push is not None))

    # -- sending -----------------------------------------------------------------------------------
    async def _send_due(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                due = await self.outbox.take(time.time())
                for i, (message, tries, sending) in enumerate(due):
                    if stop.is_set():   # stopping: those taken and not sent are due again at once
                        for left, _tries, _sending in due[i:]:
                            await self.outbox.again(left.key, time.time(), count=False)
                        return
                    if sending is not None:
                        log.warning("notifier %s: %s (%s) was handed over by a notifier that died before its "
                                    "answer was recorded: it may have arrived, not sent again", self.consumer,
                                    message.key, sending)
                        await self.outbox.done(message.key, "ambiguous")
                        continue
                    await self._send(message, tries)
                if not due:
                    await asyncio.sleep(POLL)
            except asyncio.CancelledError:
                raise
            except RedisError as e:
                log.warning("notifier %s: Redis unreachable (%s); retrying in a second", self.consumer, e)
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("notifier %s: sending failed", self.consumer)
                await asyncio.sleep(1.0)

    async def _send(self, message: compose.Message, tries: int) -> None:
        """Sends one message now, if it is still wanted; done, or due again later when refused."""
        why = await self._moot(message)
        if why:
            await self.outbox.done(message.key, why)
            return
        if message.channel == "digest":
            await self._digest(message)
            return
        reach = await self.reaches.get(message.person)
        try:
            if message.channel == "mail":
                assert self.mailer is not None
                to = message.check["to"] if message.check and "to" in message.check else reach.email
                assert to is not None
                await self.outbox.sending(message.key, self.mailer.message_id(message))
                await self.mailer.send(message, to)
            else:
                assert self.pusher is not None and reach.push is not None
                await self.outbox.sending(message.key, "push")
                await self.pusher.send(message, reach.push)
        except Gone:
            await self.reaches.forget(message.person, "push")
            await self.outbox.done(message.key, "gone")
            return
        except (Refused, PushRefused) as e:
            permanent = isinstance(e, Refused) and e.permanent
            if tries + 1 >= GIVE_UP or (permanent and tries + 1 >= 3):
                log.warning("notifier: %s dropped after %d tries: %s", message.key, tries + 1, e)
                await self.outbox.done(message.key, "given up")
                return
            delay = min(RETRY_MAX, self.retry * 2 ** tries)
            await self.outbox.again(message.key, time.time() + delay)
            log.info("notifier: %s refused (%s); again in %.1f s", message.key, e, delay)
            return
        await self.outbox.done(message.key)
        self.sent += 1

    async def _moot(self, message: compose.Message) -> str:
        """Why a due message is no longer wanted (empty: it is): its channel or table was turned off,
        or, for a reminder, the round is over, the person's order is in, or it is caught up on (`late`)
        past its deadline."""
        if message.key.startswith("confirm:"):
            return "" if self.mailer is not None else "no mail"
        reach = await self.reaches.get(message.person)
        if message.channel == "mail" and (self.mailer is None or not reach.email_ok or not reach.email):
            return "no mail"
        if message.channel == "push" and (self.pusher is None or reach.push is None):
            return "no push"
        if message.room and reach.mode(message.room) == "off":
            return "off"
        check = message.check
        if check and "began_v" in check:
            head = await self.store.games.game_head(check["room"])
            if head is None or head.began_v != check["began_v"] or not set(check["colours"]) & set(head.deciding):
                return "moot"
            now = time.time()
            if check.get("deadline") is not None and now >= check["deadline"] and now - message.due > self.late:
                # caught up on past its deadline (the round's end not yet played): it would mislead. Only a
                # few seconds behind, it is sent: the order may still make it before the round ends.
                return "late"
        return ""

    async def _digest(self, message: compose.Message) -> None:
        """A digest falls due: its lines become one message per channel (sent at once)."""
        lines = await self.outbox.take_digest(message.person)
        if lines:
            reach = await self.reaches.get(message.person)
            for m in compose.digest(message.person, reach, lines, self.base, message.key, time.time()):
                await self.outbox.put(m)
        await self.outbox.done(message.key)


def told_at(entry_id: Any) -> float:
    """When a fact was told: its stream entry's id is Redis's clock in milliseconds."""
    return int(text(entry_id).split("-")[0]) / 1000


async def run(url: str, prefix: str, make: Callable[[redis.Redis, str], Notifier],
              watch_parent: Callable[[], Awaitable[None]] | None = None) -> None:
    """`tongiaki notify`: one notifier until SIGTERM/SIGINT (or its server process is gone)."""
    import os
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    parent = os.getppid()
    orphan = os.environ.get("TONGIAKI_NOTIFIER_OF") == str(parent)

    async def orphaned() -> None:
        while not stop.is_set():
            if orphan and os.getppid() != parent:
                stop.set()
            await asyncio.sleep(1.0)

    client = redis_client(url)   # the service's one way: a cluster or Sentinel URL as well as a plain one
    notifier = make(client, prefix)
    log.info("%r reading facts", notifier)
    watcher = asyncio.create_task(orphaned())
    try:
        await notifier.run(stop)
    finally:
        stop.set()
        await watcher
        await client.aclose()


def channels_of(config: Config) -> tuple[Mailer | None, Pusher | None]:
    """The mail server and the web push key the operator configured (None for either not configured).
    Messages carry links, so neither is used without `public_url`."""
    if not config.public_url:
        return None, None
    mailer = None
    if config.smtp_host and config.smtp_sender:
        mailer = Mailer(MailServer(config.smtp_host, config.smtp_port, config.smtp_tls, config.smtp_sender,
                                   config.smtp_user, config.smtp_password))
    pusher = None
    if config.vapid_key is not None:
        subject = f"mailto:{config.smtp_sender}" if config.smtp_sender else config.public_url
        pusher = Pusher(load_key(config.vapid_key), subject)
    return mailer, pusher


def notifier_for(config: Config, client: redis.Redis, game_modes: dict[str, GameMode]) -> Notifier:
    """The notifier the configuration describes, for rooms of `game_modes` (the composition root's registry)."""
    mailer, pusher = channels_of(config)
    return Notifier(client, config.prefix, game_modes, config.public_url or "", mailer, pusher, config.notify_retry,
                    config.digest_every, remind=config.remind_share)

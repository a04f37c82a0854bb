"""Messages from facts: who hears what of a table, in their language, with their links. Pure: the
notifier (worker.py) gathers the table and the reaches, this says what to send and when.

What a person hears of a table follows its mode (reach.py `MODES`): `every` turn, only when it is their
move (`mine`, the default), a `digest`, or nothing (`off`). A message is keyed by table, turn, person and
channel (`Message.key`): at most one of each kind per table and turn, however often a fact is read. No
message says more than the table's public view: never an order, never the stack."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from server.notify.reach import Reach
from server.notify.words import duration, say

REMIND_AT = 1 / 6
"""The reminder goes this share of the turn's time before its deadline (by default: `remind_share`)."""


@dataclass(frozen=True)
class Table:
    """What a message may say of a table: its public name and turn, the colours deciding, the round's
    deadline (None: no clock), the version the round began at, and each seated person's colours."""

    id: str
    name: str
    turn: int
    deciding: tuple[str, ...]
    began_v: int
    deadline: float | None
    clock: float | None
    people: dict[str, tuple[str, ...]]

    def expects(self, person: str) -> bool:
        return any(c in self.deciding for c in self.people.get(person, ()))


@dataclass(frozen=True)
class Message:
    """One message to send, by `channel` (`mail` or `push`), not before `due`. `check`: a reminder's
    condition, checked when it is due (the round still the same, and the person's colours still to order)."""

    key: str
    channel: str
    person: str
    lang: str
    subject: str
    body: str
    url: str
    unsub: str
    due: float
    room: str = ""
    check: dict[str, Any] | None = None

    def to_store(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_store(cls, data: dict[str, Any]) -> Message:
        return cls(**data)


@dataclass
class Digest:
    """A line for a person's next digest."""

    person: str
    line: dict[str, Any] = field(default_factory=dict)


def links(base: str, reach: Reach, room: str | None) -> dict[str, str]:
    unsub = f"{base}/api/notify/unsubscribe?t={reach.unsub}"
    out = {"all": unsub}
    if room:
        out["table"] = f"{unsub}&room={room}"
        out["open"] = f"{base}/#/room/{room}"
        out["replay"] = f"{base}/#/replay/{room}"
    return out


def when(deadline: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(deadline))


def _body(reach: Reach, lines: list[str], link: dict[str, str], footer_open: bool = True) -> str:
    lang = reach.lang
    tail = [say(lang, "open", link=link["open"])] if footer_open and "open" in link else []
    stops = ([say(lang, "stop.table", link=link["table"])] if "table" in link else []) + \
        [say(lang, "stop.all", link=link["all"])]
    return "\n".join(lines) + "\n\n" + "\n".join(tail) + ("\n\n" if tail else "") + "\n".join(stops) + "\n"


def _message(kind: str, table: Table, reach: Reach, channel: str, subject: str, lines: list[str], base: str,
             due: float, url: str | None = None, check: dict[str, Any] | None = None) -> Message:
    link = links(base, reach, table.id)
    key = f"{kind}:{table.id}:{table.began_v if kind != 'end' else 'end'}:{reach.person}:{channel}"
    return Message(key, channel, reach.person, reach.lang, subject, _body(reach, lines, link), url or link["open"],
                   link["table"], due, table.id, check)


def for_round(table: Table, reaches: dict[str, Reach], base: str, now: float, remind: float = REMIND_AT
              ) -> tuple[list[Message], list[Digest]]:
    """The messages of a new round (a turn resolved, decisions became people's), the reminders `remind` of
    the turn's time before its deadline (due then, sent only if still wanted), and the digest lines."""
    messages: list[Message] = []
    digests: list[Digest] = []
    for person in table.people:
        reach = reaches.get(person)
        if reach is None or not reach.channels():
            continue
        mode, mine, lang = reach.mode(table.id), table.expects(person), reach.lang
        if mode == "off" or (mode == "mine" and not mine):
            continue
        if mode == "digest":
            if mine:
                digests.append(Digest(person, {"kind": "turn", "table": table.name, "turn": table.turn}))
            continue
        values = {"table": table.name, "turn": table.turn}
        lines = [say(lang, "turn.body" if mine else "round.body", **values)]
        if mine and table.deadline is not None:
            left = duration(lang, table.deadline - now)
            lines.append(say(lang, "deadline", deadline=when(table.deadline), left=left))
        subject = say(lang, "turn.subject" if mine else "round.subject", **values)
        for channel in reach.channels():
            messages.append(_message("turn", table, reach, channel, subject, lines, base, now))
            if mine and table.deadline is not None and table.clock:
                at = table.deadline - table.clock * remind
                reminder = [say(lang, "remind.body", **values),
                            say(lang, "deadline", deadline=when(table.deadline),
                                left=duration(lang, table.clock * remind))]
                check = {"room": table.id, "began_v": table.began_v, "colours": list(table.people[person]),
                         "deadline": table.deadline}
                messages.append(_message("remind", table, reach, channel, say(lang, "remind.subject", **values),
                                         reminder, base, at, check=check))
    return messages, digests


def for_end(table: Table, winners: list[str], reaches: dict[str, Reach], base: str, now: float
            ) -> tuple[list[Message], list[Digest]]:
    """The end of a game: its result (the winners' names) and the replay link, to everyone seated who
    hears of the table."""
    messages: list[Message] = []
    digests: list[Digest] = []
    for person in table.people:
        reach = reaches.get(person)
        if reach is None or not reach.channels() or reach.mode(table.id) == "off":
            continue
        if reach.mode(table.id) == "digest":
            digests.append(Digest(person, {"kind": "end", "table": table.name}))
            continue
        lang = reach.lang
        link = links(base, reach, table.id)
        lines = [say(lang, "end.body", table=table.name)]
        if winners:
            lines.append(say(lang, "end.winners", names=", ".join(winners)))
        lines.append(say(lang, "end.replay", link=link["replay"]))
        for channel in reach.channels():
            messages.append(_message("end", table, reach, channel, say(lang, "end.subject", table=table.name),
                                     lines, base, now, url=link["replay"]))
    return messages, digests


def digest(person: str, reach: Reach, lines: list[dict[str, Any]], base: str, key: str, now: float) -> list[Message]:
    """A person's digest of what their `digest` tables saw, one message per channel."""
    lang = reach.lang
    text = [say(lang, "digest.body")] + [
        say(lang, "digest.turn", table=x["table"], turn=x["turn"]) if x["kind"] == "turn"
        else say(lang, "digest.end", table=x["table"]) for x in lines]
    link = links(base, reach, None)
    return [Message(f"{key}:{channel}", channel, person, lang, say(lang, "digest.subject"),
                    _body(reach, text, link), f"{base}/#/", link["all"], now) for channel in reach.channels()]


def confirmation(person: str, email: str, lang: str, base: str, token: str, now: float) -> Message:
    """The link that confirms an address (sent to that address only, before it is confirmed)."""
    link = f"{base}/api/notify/confirm?t={token}"
    return Message(f"confirm:{token}", "mail", person, lang, say(lang, "confirm.subject"),
                   say(lang, "confirm.body", link=link) + "\n", link, "", now, check={"to": email})
